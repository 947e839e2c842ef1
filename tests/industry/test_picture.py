"""Pictures of a position: fixed size, they show what changed, the SVG is valid XML naming every field."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from industry_env.games.industry import engine, picture  # noqa: E402
from industry_env.games.industry.reference import Game  # noqa: E402
from industry_env.games.industry.rules import BONUS, FACTORY, NUM_COLUMNS  # noqa: E402


def played(seed: int, moves: int) -> Game:
    """A 4-player game after ``moves`` random legal moves."""
    game, rng = Game(4, seed=seed), np.random.default_rng(seed)
    for _ in range(moves):
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def cell(rgb: np.ndarray, f: int) -> np.ndarray:
    """The pixels of field ``f``'s cell."""
    e, c = divmod(f, NUM_COLUMNS)
    x, y = picture._X0 + c * picture._CW, picture._Y0 + e * picture._CH
    return rgb[y : y + picture._CH, x : x + picture._CW]


def test_picture_has_the_documented_size_and_is_not_blank() -> None:
    rgb = picture.to_rgb_array(Game(4, seed=1))
    assert rgb.shape == picture.PICTURE_SHAPE == (800, 1280, 3) and rgb.dtype == np.uint8
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 50  # board colours, text, tokens


def test_developing_a_field_changes_its_cell_and_nothing_else_on_the_board() -> None:
    game = played(3, 120)
    f = next(f for f in range(60) if game.s.owner[f] >= 0 and not game.s.developed[f])
    after = game.clone()
    after.s.developed[f] = True
    before_rgb, after_rgb = picture.to_rgb_array(game), picture.to_rgb_array(after)
    assert not np.array_equal(cell(before_rgb, f), cell(after_rgb, f))
    others = [g for g in range(60) if g != f]
    assert all(np.array_equal(cell(before_rgb, g), cell(after_rgb, g)) for g in others)


def test_frames_drawn_from_the_cache_equal_a_fresh_drawing() -> None:
    """RGB frames reuse regions drawn before; the result must be the picture drawn from scratch."""
    game, rng = Game(3, seed=8), np.random.default_rng(8)
    for _ in range(25):
        game.apply(int(rng.choice(game.legal_actions())))
        picture.to_rgb_array(game)
    cached = picture.to_rgb_array(game)
    fresh = picture._Canvas(game.board).rgb(game)
    assert np.array_equal(cached, fresh)


def test_svg_is_valid_xml_with_every_field_name_and_the_players() -> None:
    game = played(5, 80)
    svg = picture.to_svg(game)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    text = " ".join(" ".join(t.itertext()) for t in root.iter() if t.tag.endswith("text"))
    text = " ".join(text.split())
    for name in game.board.field_names:
        assert name in text, name
    assert all(f"Player {p}" in text for p in range(4)) and f"Talers {game.s.money[0]}" in text
    assert picture.to_svg(game) == svg  # deterministic: no dates, fixed ids


def test_an_engine_game_is_drawn_through_to_game(tmp_path) -> None:
    state = engine.init(2, num_players=3, seed=4)
    game = engine.to_game(state, 1)
    picture.save_png(game, tmp_path / "engine.png")
    from PIL import Image

    with Image.open(tmp_path / "engine.png") as im:
        assert im.size == (1280, 800)
        assert np.array_equal(np.asarray(im.convert("RGB")), picture.to_rgb_array(game))


def test_gif_replays_the_frames(tmp_path) -> None:
    from PIL import Image

    game, rng = Game(4, seed=2), np.random.default_rng(2)
    with picture.GifWriter(tmp_path / "g.gif", frame_ms=100) as gif:
        gif.add(game)
        gif.add(game)  # unchanged: no new frame, the previous one shows longer
        for _ in range(5):
            game.apply(int(rng.choice(game.legal_actions())))
            gif.add(game)
    assert gif.frames == 6
    with Image.open(tmp_path / "g.gif") as im:
        assert im.n_frames == 6 and im.size == (1280, 800)
        im.seek(5)
        last = np.asarray(im.convert("RGB")).astype(int)
    assert np.abs(last - picture.to_rgb_array(game)).mean() < 2  # the same picture, in a 255-colour palette


def test_show_without_a_display_warns_and_returns_false(monkeypatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the display check is for Linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.warns(RuntimeWarning, match="no display"):
        assert picture.show(Game(4)) is False


def test_missing_matplotlib_is_a_clear_import_error(monkeypatch) -> None:
    monkeypatch.setattr(picture, "_canvases", {})
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"industry_env\[render\]"):
        picture.to_rgb_array(Game(4))


def test_the_core_imports_without_matplotlib() -> None:
    code = (
        "import sys; sys.modules['matplotlib'] = None; sys.modules['PIL'] = None\n"
        "import industry_env, industry_env.records\n"
        "import industry_env.games.industry.picture, industry_env.games.industry.reference\n"
        "from industry_env.games.industry.reference import Game; from industry_env import records\n"
        "g = Game(3); r = records.Recorder.for_game(g); print(records.replay(r.record()).phase)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "auction"


def test_svg_with_text_as_paths_has_no_text_elements() -> None:
    root = ET.fromstring(picture.to_svg(Game(3, seed=2), text_as_paths=True))
    assert root.tag.endswith("svg") and not [t for t in root.iter() if t.tag.endswith("}text")]


def test_show_in_a_notebook_displays_a_small_png(monkeypatch) -> None:
    import types

    game = Game(4, seed=3)
    expected = picture.to_png(game, colours=128)  # matplotlib loaded before IPython is faked (it reads IPython's)
    shown = []
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: types.SimpleNamespace(kernel=object())
    display = types.ModuleType("IPython.display")
    display.Image = lambda data, width: ("png", data, width)
    display.display = shown.append
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    assert picture.show(game) is True
    assert shown == [("png", expected, picture.WIDTH)]


def _ids(svg: str) -> set[str]:
    return {el.get("id") for el in ET.fromstring(svg).iter() if el.get("id")}


def test_svg_draws_every_road_link_and_network_of_the_board() -> None:
    """End scoring counts roads, technology links and the factories on each bonus field's network: all drawn."""
    from industry_env.games.industry.components import field_id

    game = played(5, 80)
    board, ids = game.board, _ids(picture.to_svg(game))
    roads = {f"road-{field_id(int(a))}-{field_id(int(b))}" for a, b in board.ROADS}
    links = {f"tech-link-{field_id(int(a))}-{field_id(int(b))}" for a, b in board.TECH_LINKS}
    assert len(roads) == 14 and len(links) == 9 and roads <= ids and links <= ids
    assert "road-1D-1E" in ids and "tech-link-4L-5J" in ids  # one touching pair, one that does not touch
    networks = {i for i in ids if i.startswith("network-")}
    expected = {f"network-{n.replace(':', '-')}-{field_id(f)}" for f in range(60) for n in board.networks[f]
                if board.KIND[f] in (FACTORY, BONUS)}  # fmt: skip
    assert networks == expected and "network-river-1D" in ids and "network-tracks-2D" in ids


def test_legend_has_the_coin_token_roads_and_links() -> None:
    svg = picture.to_svg(Game(3, seed=2))
    ids = _ids(svg)
    assert {"legend-coin-token", "legend-road", "legend-tech-link"} <= ids
    text = " ".join(" ".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("text"))
    assert "coin token" in text and "road" in text and "river" in text and "power lines" in text


def test_field_text_is_large_enough_to_read_at_paper_size() -> None:
    """Every tile's text is at least 6.5 pt (the stripes' network labels 5.5 pt), in the SVG as text, not paths."""
    static = picture.sketch_board(Game(4, seed=1).board)
    sizes = [dict(kw)["fontsize"] for kind, args, kw in static if kind == "text" and dict(kw).get("rotation") != 90]
    assert min(sizes) >= 6.5
    svg = picture.to_svg(Game(4, seed=1))
    assert "<text" in svg and "<image" not in svg  # vector text, no raster


def test_to_png_palette_is_small_and_looks_like_the_picture() -> None:
    """What show() puts in a notebook: a 128-colour PNG, small enough to commit executed notebooks."""
    import io

    from PIL import Image

    game = played(5, 80)
    small, full = picture.to_png(game, colours=128), picture.to_png(game)
    assert len(small) < 150_000 < len(full)
    rgb = np.asarray(Image.open(io.BytesIO(small)).convert("RGB"))
    assert rgb.shape == picture.PICTURE_SHAPE
    assert np.abs(rgb.astype(int) - picture.to_rgb_array(game)).mean() < 3
    with pytest.raises(ValueError, match="colours=1"):
        picture.to_png(game, colours=1)


def test_the_picture_never_prints_the_seed_which_rebuilds_the_hidden_draw_order() -> None:
    """The seed of a game rebuilds the order of the column tokens left in the bag; no picture may print it."""
    game = played(987_654, 30)
    assert game.s.seed == 987_654
    svg = picture.to_svg(game)
    text = " ".join(" ".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("text"))
    assert "era" in text and "players" in text  # the header is there
    assert "seed" not in text.lower() and "987654" not in text and "987,654" not in text
