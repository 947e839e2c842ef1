"""The browser's pictures: the games' own primitives written as SVG, every primitive kept (a keyword the writer
does not know is noticed here, not dropped), each in its place, the board first and the position over it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from industry_env import available_games, load_game
from industry_env.core import svg
from industry_env.web.views import view_of

PICTURED = [g for g in available_games() if load_game(g).has_pictures]


def positions(game_id: str, seed: int = 3, every: int = 40):
    """Positions of a random game, every ``every`` decisions, to its end."""
    spec = load_game(game_id)
    game = spec.reference(spec.max_players, seed=seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not game.is_over:
        if k % every == 0:
            yield game
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
        k += 1
    yield game


@pytest.mark.parametrize("game_id", PICTURED)
def test_every_primitive_of_a_whole_game_is_one_the_writer_knows(game_id: str) -> None:
    view = view_of(load_game(game_id))
    for game in positions(game_id):
        _, draw = view.board_of(game)
        for kind, _, kw in [*draw(), *view.sketch(game, 0)]:
            assert kind in svg.KNOWN_KEYWORDS, kind
            assert set(dict(kw)) <= svg.KNOWN_KEYWORDS[kind], (kind, set(dict(kw)) - svg.KNOWN_KEYWORDS[kind])


@pytest.mark.parametrize("game_id", PICTURED)
def test_the_picture_is_well_formed_svg_with_every_text_and_element_id(game_id: str) -> None:
    view = view_of(load_game(game_id))
    game = list(positions(game_id))[2]
    doc = view.picture(game, 0)
    root = ET.fromstring(doc)  # well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    # the page shows the picture at the game's own size: its PNG's, or 20th Century's page, one column as wide as
    # the page gives it beside the choices at 1280 x 720 (its PNG's 1600 x 1000 read at 5 pixels a letter there)
    width, height = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    if game_id == "twentieth_century":
        assert width <= 800 < height
    else:
        assert load_game(game_id).to_rgb_array(game, 0).shape == (height, width, 3)
    board, position = root.find(f"{ns}g[@id='board']"), root.find(f"{ns}g[@id='position']")
    assert list(root).index(board) < list(root).index(position)  # the position is drawn over the board
    _, draw = view.board_of(game)
    primitives = [*draw(), *view.sketch(game, 0)]
    texts = ["".join(e.itertext()) for e in root.iter(f"{ns}text")]
    for kind, args, _ in primitives:
        if kind == "text":
            assert str(args[2]).replace("\n", "") in texts, args[2]
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert {dict(kw)["gid"] for _, _, kw in primitives if dict(kw).get("gid")} <= ids


def test_primitives_keep_their_geometry_and_paint() -> None:
    rect = svg.element(("Rectangle", ((10, 20), 30, -5), {"facecolor": "#abcdef", "edgecolor": "black", "lw": 0.72}))
    assert re.search(r'x="10" y="15" width="30" height="5"', rect) and 'fill="#abcdef"' in rect
    assert 'stroke-width="1"' in rect  # 0.72 points at 100 dpi is one pixel
    text = svg.element(("text", (5, 6, "a\nb"), {"fontsize": 7.2, "ha": "center", "va": "center", "weight": "bold"}))
    assert 'font-size="10"' in text and 'text-anchor="middle"' in text and "<tspan" in text
    assert 'font-weight="bold"' in text
    line = svg.element(("Line2D", ((0, 1), (2, 3)), {"ls": (0, (3, 2)), "lw": 0.72, "color": "red"}))
    assert 'points="0,2 1,3"' in line and 'stroke-dasharray="3 2"' in line
    with pytest.raises(ValueError, match="Ellipse"):
        svg.element(("Ellipse", (), {}))
    # the position goes over the board whatever its zorder; within each, zorder decides
    doc = svg.document(
        svg.layered([("text", (0, 0, "board"), {"zorder": 9})]),
        [("text", (0, 0, "late"), {"zorder": 5}), ("text", (0, 0, "early"), {"zorder": 1})],
    )
    assert doc.index("board") < doc.index("early") < doc.index("late")
