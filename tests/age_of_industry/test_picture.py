"""Pictures of Age of Industry positions: RGB arrays, SVG ids, what a seat's picture may show, the missing extra,
and a replay written as a GIF by the command line."""

from __future__ import annotations

import random
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from industry_env.games.age_of_industry import Game, load_map

from .helpers import position

pytest.importorskip("matplotlib")
from industry_env.games.age_of_industry import picture  # noqa: E402


def _played(num_players: int, game_map: str, seed: int, moves: int) -> Game:
    game, rng = Game(num_players, seed, game_map), random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def _ids(svg: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', svg))


@pytest.mark.parametrize(("n", "game_map"), [(3, "germany"), (5, "new_england")])
def test_rgb_arrays_have_the_fixed_shape_and_match_a_fresh_drawing(n: int, game_map: str) -> None:
    game = _played(n, game_map, seed=2, moves=40)
    first = picture.to_rgb_array(game)
    assert first.shape == picture.PICTURE_SHAPE == (800, 1280, 3) and first.dtype == np.uint8
    game.apply(game.legal_actions()[0])
    again = picture.to_rgb_array(game)  # only the changed regions redrawn
    assert np.array_equal(again, picture._Canvas(game.map, game.components.colours).rgb(game, None))
    assert again.shape == first.shape and (again != 255).any()


def test_the_svg_has_one_element_per_location_space_link_and_player() -> None:
    game = position(4, "new_england", counters={"Boston:1": (0, "port", 1)}, rails={"Boston-Lowell": 2})
    m = load_map("new_england")
    svg = picture.to_svg(game)
    ids = _ids(svg)
    slug = picture._slug
    assert {f"location-{slug(x)}" for x in m.location_names} <= ids
    rail = {f"link-{slug(m.location_names[m.LINK_A[li]])}-{slug(m.location_names[m.LINK_B[li]])}"
            for li in range(m.num_links) if not m.LINK_SEA[li]}  # fmt: skip
    sea = {f"sea-lane-{slug(m.location_names[m.LINK_A[li]])}-{slug(m.location_names[m.LINK_B[li]])}"
           for li in range(m.num_links) if m.LINK_SEA[li]}  # fmt: skip
    assert len(rail) == m.num_rail_links and len(sea) == m.num_links - m.num_rail_links > 0 and rail | sea <= ids
    assert {f"space-{m.space_label(sp).replace(' ', '_').replace(':', '-')}" for sp in range(m.num_spaces)} <= ids
    assert "space-Boston-1" in ids and "rail-Boston-Lowell" in ids
    assert {f"player-{p}" for p in range(4)} <= ids and "player-4" not in ids
    assert sum(i.startswith("rail-") for i in ids) == 1
    ET.fromstring(svg)  # well-formed
    assert picture.to_svg(game) == svg  # deterministic: no dates, fixed ids


def test_a_seat_sees_its_own_hand_and_never_another_seats() -> None:
    mine = {"cotton_mill": 2, "blue": 1}
    a = position(3, hands={0: mine, 1: {"port": 3}, 2: {"green": 1, "factory": 2}})
    b = position(3, hands={0: mine, 1: {"orange": 1, "grey": 2}, 2: {"ship": 2, "iron_works": 1}})
    assert a.s.hand[1] != b.s.hand[1] and a.s.hand[2] != b.s.hand[2]
    for seat in (0, None):  # seat 0's view and the public view: the others' hands change nothing
        assert np.array_equal(picture.to_rgb_array(a, seat), picture.to_rgb_array(b, seat))
        assert picture.to_svg(a, seat) == picture.to_svg(b, seat)
    assert not np.array_equal(picture.to_rgb_array(a, 1), picture.to_rgb_array(b, 1))  # seat 1's own hand
    assert "cotton mill ×2" in picture.to_svg(a, 0) and "cotton mill ×2" not in picture.to_svg(a, 1)
    with pytest.raises(ValueError, match="seat=3"):
        picture.to_rgb_array(a, 3)


def test_the_picture_key_is_what_the_public_picture_shows() -> None:
    from industry_env.registry import load_game

    spec = load_game("age_of_industry")
    assert spec.has_pictures
    game = position(3, hands={0: {"cotton_mill": 1, "brown": 1}}, money=[30, 30, 30])
    before = spec.picture_key(game)
    assert spec.picture_key(game.clone()) == before and hash(before)
    other = position(3, hands={0: {"port": 1, "green": 1}}, money=[30, 30, 30])
    assert spec.picture_key(other) == before  # another hand of the same size: the same public picture
    game.apply(game.string_to_action("build with brown"))
    played = spec.picture_key(game)
    assert played != before  # a card left the hand
    game.apply(game.legal_actions()[0])  # where to build: a counter on the map
    assert game.s.space_owner.count(0) == 1 and spec.picture_key(game) != played
    assert spec.to_rgb_array(game, 0).shape == picture.PICTURE_SHAPE


def test_save_png_and_svg_write_whole_files(tmp_path) -> None:
    from PIL import Image

    game = _played(5, "germany", seed=1, moves=30)
    picture.save_png(game, tmp_path / "p.png", seat=2)
    picture.save_svg(game, tmp_path / "p.svg")
    with Image.open(tmp_path / "p.png") as im:
        assert np.array_equal(np.asarray(im.convert("RGB")), picture.to_rgb_array(game, 2))
    assert (tmp_path / "p.svg").read_text(encoding="utf-8").startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.png", "p.svg"]  # no partial files left


def test_missing_matplotlib_names_the_render_extra(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(picture, "_canvases", {})  # no figure drawn before
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"industry_env\[render\]"):
        picture.to_rgb_array(Game(3, seed=0))
    with pytest.raises(ImportError, match=r"industry_env\[render\]"):
        picture.GifWriter(tmp_path / "g.gif")
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"industry_env\[render\]"):
        picture.save_png(Game(3, seed=0), tmp_path / "x.png")
    assert not list(tmp_path.iterdir())


def test_the_command_line_replays_a_record_into_a_gif(tmp_path, capsys) -> None:
    from PIL import Image

    from industry_env.cli import main
    from industry_env.records import Recorder

    game, rng = Game(3, 5, "new_england"), random.Random(5)
    rec = Recorder.for_game(game)
    for _ in range(15):
        a = rng.choice(game.legal_actions())
        game.apply(a)
        rec.append(a)
    rec.save(tmp_path / "aoi.json")
    assert main(["replay", str(tmp_path / "aoi.json"), "--gif", str(tmp_path / "aoi.gif"), "--gif-scale", "0.5"]) == 0
    assert "  15  player" in capsys.readouterr().out
    with Image.open(tmp_path / "aoi.gif") as im:
        assert im.size == (640, 400) and 2 <= im.n_frames <= 16


def test_a_users_map_without_places_gets_a_layout_with_no_overlaps(tmp_path) -> None:
    from importlib import resources

    text = resources.files("industry_env.games.age_of_industry.data").joinpath("germany.toml").read_text("utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    lay = picture.layout(load_map(path))  # not a shipped map: a spectral layout, then spread
    for a in range(lay.map.num_locations):
        ax, ay, aw, ah = lay.box(a)
        assert picture._MAP[0] <= ax and ax + aw <= picture._MAP[2] + 0.5
        for b in range(a):
            bx, by, bw, bh = lay.box(b)
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a, b)


def test_the_docs_picture_is_small_and_says_how_to_draw_it_again() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "age-of-industry"
    text = (docs / "pictures.md").read_text("utf-8")
    assert "](pictures.png)" in text and 'save_example("docs/age-of-industry/pictures.png")' in text
    png = (docs / "pictures.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 300_000
    assert picture.EXAMPLE["seat"] == 3 and "player 3 sees it" in text
    assert picture.EXAMPLE["rounds"] == 8 and "round 9" in text


def _segment_meets_box(p: np.ndarray, q: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether the segment p-q passes through the box (x0, y0, w, h) (Liang-Barsky clipping)."""
    x0, y0, w, h = box
    t0, t1, d = 0.0, 1.0, q - p
    for num, den in ((p[0] - x0, -d[0]), (x0 + w - p[0], d[0]), (p[1] - y0, -d[1]), (y0 + h - p[1], d[1])):
        if den == 0:
            if num < 0:
                return False
        elif den < 0:
            t0 = max(t0, num / den)
        else:
            t1 = min(t1, num / den)
    return t0 < t1


@pytest.mark.parametrize("name", ["germany", "new_england"])
def test_the_shipped_maps_are_laid_out_with_no_link_through_a_third_location(name: str) -> None:
    m = load_map(name)
    lay = picture.layout(m)
    assert set(picture.PLACES[name]) == set(m.location_names)  # every location has its reconstructed place
    for li in range(m.num_links):
        a, b = m.LINK_A[li], m.LINK_B[li]
        for c in set(range(m.num_locations)) - {a, b}:
            assert not _segment_meets_box(lay.centre[a], lay.centre[b], lay.box(c)), (m.link_label(li), c)


def test_show_without_a_display_warns_and_returns_false(monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.warns(RuntimeWarning, match="no display"):
        assert picture.show(Game(3, seed=0)) is False


@pytest.mark.parametrize(("seat", "game_map"), [(None, "germany"), (1, "new_england")])
def test_the_picture_never_prints_the_seed_which_rebuilds_every_hand_and_the_deck(seat: int | None,
                                                                                   game_map: str) -> None:  # fmt: skip
    game = _played(4, game_map, seed=987_654, moves=30)
    assert game.s.seed == 987_654
    svg = picture.to_svg(game, seat)
    text = " ".join(" ".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("text"))
    assert "players" in text and "Round" in text  # the header and the panel are there
    assert "seed" not in text.lower() and "987654" not in text and "987,654" not in text


def test_a_players_box_lists_every_card_the_table_knows_whole() -> None:
    """The known cards were cut at 80 characters ("known: port, ship, p…"); every one is named, none cut."""
    game = _played(4, "germany", seed=3, moves=20)
    c = game.components
    kinds = list(range(c.num_card_kinds))[:8]
    for kd in kinds:
        game.s.hand[1][kd] = max(game.s.hand[1][kd], 2)
        game.s.known[1][kd] = 2
    svg = picture.to_svg(game)
    text = " ".join(" ".join(t.itertext()) for t in ET.fromstring(svg).iter() if t.tag.endswith("text"))
    known = text[text.index("known in hand:") :]
    for kd in kinds:
        assert c.card_label(kd).replace("_", " ") + " ×2" in " ".join(known.split()), c.card_label(kd)
    assert "…" not in known.split("Player 2")[0]


def test_digits_on_the_map_are_at_least_7_points() -> None:
    """Counters' owners, levels, cube counts and rails' owners were 5.5 to 6 points: unreadable in a paper's column."""
    game = _played(5, "germany", seed=7, moves=400)
    board = picture.sketch_position(game)["board"]
    digits = [
        dict(kw)["fontsize"] for kind, args, kw in board if kind == "text" and any(ch.isdigit() for ch in args[2])
    ]
    assert len(digits) > 20 and min(digits) >= 7
