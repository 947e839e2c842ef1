"""20th Century's pictures: non-blank for 3, 4 and 5 players, changed by what changes the position, the same after
a redeal of what no seat may see, never the seed; tiles turned as the rules turn them; the GIF of a replay."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from industry_env import load_game  # noqa: E402
from industry_env.games.twentieth_century import actions as A  # noqa: E402
from industry_env.games.twentieth_century import picture as P  # noqa: E402
from industry_env.games.twentieth_century import playtext as T  # noqa: E402
from industry_env.games.twentieth_century.components import load_data  # noqa: E402
from industry_env.games.twentieth_century.reference import Game  # noqa: E402

SPEC = load_game("twentieth_century")
SEED = 987_654_321  # a seed no picture may show


def played(n: int, rounds: int, seed: int = SEED) -> Game:
    """A game of random moves (withdrawing and 'done' rarer, so that nations grow) up to round ``rounds + 1``."""
    return P.example_game(n, seed, rounds)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_picture_of_each_player_count_is_a_full_non_blank_rgb_image(n: int) -> None:
    rgb = SPEC.to_rgb_array(played(n, 2))
    assert rgb.shape == P.PICTURE_SHAPE and rgb.dtype == np.uint8
    assert (rgb < 250).any(axis=2).mean() > 0.05  # a good part of the page is drawn on
    # every player's colour appears (their panels' headers)
    for colour in P.PLAYER_COLOURS[:n]:
        want = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
        assert (np.abs(rgb.astype(int) - want).sum(axis=2) < 6).sum() > 500, colour


def test_picture_changes_with_the_position_and_not_with_the_unseen_future() -> None:
    g = played(3, 1)
    before = SPEC.to_rgb_array(g)
    redealt = g.resample(0, np.random.default_rng(1))
    assert redealt.land_stacks != g.land_stacks or redealt.cat_stack != g.cat_stack
    assert np.array_equal(SPEC.to_rgb_array(redealt), before)
    assert SPEC.picture_key(redealt) == SPEC.picture_key(g)
    g.apply(g.legal_actions()[0])
    assert SPEC.picture_key(g) != SPEC.picture_key(redealt)
    assert not np.array_equal(SPEC.to_rgb_array(g), before)


def test_no_picture_shows_the_seed() -> None:
    g = played(4, 3)
    svg = P.to_svg(g)
    assert str(SEED) not in svg and str(SEED) not in SPEC.picture_key(g)
    texts = [item[1][2] for items in P.sketch_position(g, 0).values() for item in items if item[0] == "text"]
    assert texts and not any(str(SEED) in t for t in texts)


def test_svg_names_each_players_panel_and_each_placed_tile() -> None:
    g = Game(3, seed=5)
    svg = P.to_svg(g)
    assert svg.startswith("<?xml") and "</svg>" in svg
    for p in range(3):
        assert f'id="player-{p}"' in svg and f'id="tile-{p}-0-0"' in svg  # the starting tile, on cell 0,0


def test_the_seat_must_be_a_seat() -> None:
    g = Game(3, seed=5)
    with pytest.raises(ValueError, match="seat=3"):
        P.sketch_position(g, 3)
    with pytest.raises(ValueError, match="seat=True"):
        P.sketch_position(g, True)


def test_a_tile_turned_a_quarter_turn_draws_its_north_rail_leaving_by_the_east() -> None:
    """Rotating r quarter turns clockwise sends side s to (s + r) % 4 (geometry.py): the picture turns alike."""
    data = load_data()
    tile = next(t for t in data.land if any("N" in piece for piece in t.rails) and t.cities)
    for rotation, end in ((0, (50.0, 0.0)), (1, (100.0, 50.0)), (2, (50.0, 100.0)), (3, (0.0, 50.0))):
        k = P.Sketch()
        P.sketch_tile(k, tile, 0.0, 0.0, 100.0, rotation)
        ends = {(args[0][1], args[1][1]) for kind, args, _ in k.regions["header"] if kind == "Line2D"}
        assert any(abs(x - end[0]) < 1e-9 and abs(y - end[1]) < 1e-9 for x, y in ends), rotation


def test_text_is_never_smaller_than_8_points() -> None:
    sizes = [dict(item[2])["fontsize"] for items in P.sketch_position(played(5, 4), 1).values() for item in items
             if item[0] == "text"]  # fmt: skip
    assert sizes and min(sizes) >= 8


def test_final_picture_shows_the_scoring_by_source_and_the_winner() -> None:
    g = played(3, 9)
    assert g.is_over
    texts = [item[1][2] for items in P.sketch_position(g).values() for item in items if item[0] == "text"]
    assert "Final scoring" in texts and "land tiles" in texts
    assert any(t.startswith("winner") for t in texts)


def test_gif_of_a_replay(tmp_path) -> None:  # noqa: ANN001
    from PIL import Image

    g, rng = Game(3, seed=2), random.Random(2)
    path = tmp_path / "game.gif"
    with SPEC.gif_writer(path, scale=0.25) as gif:
        gif.add(g)
        for _ in range(6):
            g.apply(rng.choice(g.legal_actions()))
            gif.add(SPEC.to_rgb_array(g))
    with Image.open(path) as im:
        assert im.format == "GIF" and im.size == (400, 250) and im.n_frames >= 2


def test_the_browser_view_writes_every_primitive_and_looks_up_what_is_clicked() -> None:
    import xml.etree.ElementTree as ET

    from industry_env.core import svg
    from industry_env.web.views import view_of

    view = view_of(SPEC)
    g, rng = Game(5, seed=4), random.Random(4)
    for step in range(3000):
        if g.is_over:
            break
        if step % 60 == 0:
            for kind, _, kw in view.sketch(g, 0):
                assert kind in svg.KNOWN_KEYWORDS and set(dict(kw)) <= svg.KNOWN_KEYWORDS[kind], kind
        g.apply(rng.choice(g.legal_actions()))
    root = ET.fromstring(view.picture(g, 1))
    _, width, height = P.sketch_page(g, 1)  # the browser's page, as wide as the page gives it at 1280 pixels
    assert root.get("viewBox") == f"0 0 {width} {height}" and width == P.PAGE_WIDTH
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    tile = next(i for i in ids if i.startswith("tile-2-"))
    key = view.find(g, tile)
    assert key is not None and key.endswith(" 2") and key in {p["key"] for p in view.places(g)}
    assert view.lookup(g, key, 1).startswith(f"player 2's {key.split(' ')[0]}:")
    assert "land tiles" in view.final(g) and str(SEED) not in view.picture(g, None)


def test_a_tile_bought_and_not_attached_stays_drawn_in_its_offer_slot_and_its_cell_is_outlined_while_turned() -> None:
    """A person attaching a tile must see what it attaches and where: the offer shows it faded with its buyer, and
    while it is turned, its cell is outlined on the nation."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        g = Game(3, seed=seed)
        while not g.is_over and g.phase != "attach_rotate":
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
        if g.is_over or not g.data.is_land(g.sel[0]):
            continue
        p, code = g.to_move, g.sel[0]
        texts = [item[1][2] for items in P.sketch_position(g).values() for item in items if item[0] == "text"]
        tile = g.data.land[code].id
        assert f"{tile} player {p}" in texts  # under the faded tile in its offer slot
        assert any(t.startswith(f"{tile}\nhere") for t in texts)  # in the outlined cell
        assert any(f"{tile} (player {p}'s, to attach)" in t for t in texts)
        page = [item[1][2] for item in P.sketch_page(g)[0] if item[0] == "text"]  # the browser's page alike
        assert f"{tile}: player {p}'s" in page and any(t.startswith(f"{tile}\nhere") for t in page)
        return
    raise AssertionError("no position attaching a land tile")


# ---------------------------------------------------------------------------------------------- issue 46: readable
def _tile_sizes(primitives: list[tuple]) -> dict[int, set[float]]:
    """The side of every nation's tile, by player (from the tiles' element ids, ``tile-P-X-Y``)."""
    out: dict[int, set[float]] = {}
    for kind, args, kw in primitives:
        gid = dict(kw).get("gid", "")
        if kind == "Rectangle" and gid.startswith("tile-"):
            out.setdefault(int(gid.split("-")[1]), set()).add(round(float(args[1]), 6))
    return out


def _unequal_nations(n: int) -> Game:
    """A game whose nations differ in size (one nation at least two cells wider than another)."""
    for seed in range(40):
        g = P.example_game(n, seed, 4)
        widths = []
        for p in range(n):
            xs = [g.cell_of(p, c)[0] for c, code in enumerate(g.grid_tile[p]) if code >= 0]
            widths.append(max(xs) - min(xs))
        if max(widths) - min(widths) >= 2:
            return g
    raise AssertionError("no game with nations of different sizes")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_nation_is_drawn_at_one_scale(n: int) -> None:
    """The nations were drawn at different scales: a small nation's tiles twice a large one's."""
    g = _unequal_nations(n)
    for primitives in ([p for items in P.sketch_position(g, 0).values() for p in items], P.sketch_page(g, 0)[0]):
        sizes = _tile_sizes(primitives)
        assert len(sizes) == n and len(set().union(*sizes.values())) == 1, sizes


def test_the_browsers_page_is_one_column_of_text_never_under_8_points() -> None:
    """At 1280 x 720 the page gives the picture about 800 pixels beside the choices: the page is drawn 780 wide, so
    8 points (11.1 pixels) read at 11 pixels or more (the browser test measures it)."""
    for g in (played(5, 1), played(4, 3), played(3, 9)):
        primitives, width, height = P.sketch_page(g, 0)
        assert width == P.PAGE_WIDTH <= 800 and height > width
        sizes = [dict(kw)["fontsize"] for kind, _, kw in primitives if kind == "text"]
        assert min(sizes) >= 8
        for kind, args, _ in primitives:  # everything inside the page
            if kind == "text":
                assert 0 <= args[0] <= width and 0 <= args[1] <= height, args


def test_the_page_names_the_cells_and_marks_the_cities_of_the_decision_at_hand() -> None:
    """A choice 'cell 1,-1' is found on the picture: every cell of the decision is outlined and named."""
    seen = set()
    for seed in range(10):
        g, rng = Game(3, seed=seed), random.Random(seed)
        while not g.is_over and len(seen) < 3:
            if g.phase in ("attach_cell", "garbage", "citizen"):
                primitives = P.sketch_page(g, g.to_move)[0]
                texts = [args[2] for kind, args, _ in primitives if kind == "text"]
                for a in g.legal_actions():
                    name, i = A.block_of(a)
                    if name in ("place", "tile"):
                        x, y = g.placed_cell(g.to_move, i) if name == "place" else g.cell_of(g.to_move, i)
                        said = T.choice_text(g, a)
                        assert f"{x},{y}" in texts and said.startswith(f"cell {x},{y}: "), (g.phase, x, y)
                rings = [args for kind, args, kw in primitives if kind == "Circle" and dict(kw).get("edgecolor")
                         == "#c0112b"]  # fmt: skip
                if g.phase == "citizen":
                    assert len(rings) == len(g.legal_actions())
                seen.add(g.phase)
            g.apply(rng.choice(g.legal_actions()))
    assert seen == {"attach_cell", "garbage", "citizen"}


def test_the_page_says_the_scoring_cards_and_each_technology_in_words() -> None:
    g = Game(4, seed=3, r2="c", r4="b")
    texts = " ".join(args[2] for kind, args, _ in P.sketch_page(g, 0)[0] if kind == "text")
    assert "Round II card c: 6 VP for each land tile without cubes" in texts
    assert "Round IV card b: the pollution track's number if it is positive" in texts
    for t in g.tech_offer:
        clause = T.ability_text(g.data.technologies[t].abilities[0])
        assert clause.split(":")[0] in texts and " ".join(clause.split()[:6]) in texts.replace("\n", " ")


def test_the_page_shows_the_tile_being_attached_turned_each_way() -> None:
    """'rotate 90' named a turn the picture did not show: the tile is drawn four times, each named as its choice."""
    for seed in range(10):
        g, rng = Game(3, seed=seed), random.Random(seed)
        while not g.is_over and g.phase != "attach_rotate":
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        primitives = P.sketch_page(g, g.to_move)[0]
        texts = [args[2] for kind, args, _ in primitives if kind == "text"]
        assert all(T.choice_text(g, a).split(":")[0] in texts for a in g.legal_actions())  # 'rotate 0' ... 'rotate 270'
        assert f"{T.tile_name(g, g.sel[0])} turned each way:" in texts
        return
    raise AssertionError("no tile turned")


def _named(game: Game, key: str) -> int | None:
    """The legal action a picture element of the decision at hand stands for, or None: an empty cell of
    ``attach_cell`` (``cell-P-X-Y``) its place action, a tile (``tile-P-X-Y``) its tile action, a city
    (``city-P-X-Y-B``) its city action."""
    m = re.fullmatch(r"(tile|cell|city)-(\d+)-(-?\d+)-(-?\d+)(?:-([abc]))?", key)
    if not m or game.is_over or int(m[2]) != game.to_move:
        return None
    p, cell = game.to_move, (int(m[3]), int(m[4]))
    slot = game.slot_at(p, cell)
    if m[1] == "city":
        action = A.city_action(slot, "abc".index(m[5])) if slot >= 0 and m[5] else None
    elif game.phase == "attach_cell":
        placement = game.placement_cells(p).get(cell)
        action = None if placement is None else A.PLACE + placement
    else:
        action = A.TILE + slot if slot >= 0 else None
    return action if action is not None and action in game.legal_actions() else None


def test_the_decisions_cells_tiles_and_cities_are_marked_and_each_looks_up_its_cell() -> None:
    """The nation has no bound: a tile's element id carries its cell from the starting tile, negative too
    (``tile-0--1-2``); the picture marks exactly the cells, tiles and cities the legal moves name (an empty cell of
    ``attach_cell`` its place, a tile its tile action, a city its city action), and each looks up its cell."""
    import xml.etree.ElementTree as ET

    from industry_env.web.views import view_of

    view = view_of(SPEC)
    seen, negative = set(), False
    for seed in range(10):
        g, rng = Game(3, seed=seed), random.Random(seed)
        while not g.is_over and g.round <= 3:
            p = g.to_move
            if g.phase in ("attach_cell", "garbage", "citizen", "recycle") and g.phase not in seen:
                root = ET.fromstring(view.picture(g, p))
                ids = {e.get("id") for e in root.iter() if e.get("id")}
                legal = set(g.legal_actions())
                clicked = {_named(g, i) for i in ids} - {None}
                assert clicked == {a for a in legal if A.block_of(a)[0] in ("place", "tile", "city")}, g.phase
                for i in ids:
                    if _named(g, i) is not None:
                        x, y = T.action_cell(g, _named(g, i))
                        assert view.find(g, i) == f"{x},{y} {p}"
                        assert view.lookup(g, view.find(g, i), p).startswith(f"player {p}'s {x},{y}: ")
                seen.add(g.phase)
            negative |= any(min(g.cell_of(q, c)) < 0 for q in range(g.n) for c in range(g.slots(q)))
            g.apply(rng.choice(g.legal_actions()))
        if len(seen) == 4 and negative:
            break
    assert seen == {"attach_cell", "garbage", "citizen", "recycle"} and negative
    tile = next(i for i in ids if i.startswith("tile-"))
    assert _named(g, "tile-9-0-0") is None and view.find(g, tile) is not None
    q, c = next((q, c) for q in range(g.n) for c in range(g.slots(q)) if min(g.cell_of(q, c)) < 0)
    x, y = g.cell_of(q, c)
    assert view.find(g, f"tile-{q}-{x}-{y}") == f"{x},{y} {q}"
    assert f'id="tile-{q}-{x}-{y}"' in P.to_svg(g)
