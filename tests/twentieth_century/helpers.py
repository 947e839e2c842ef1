"""Hand-built 20th Century positions for the rules tests: games with a chosen leader, test tiles added to the
shipped components, tiles put straight onto a nation's grid."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from industry_env.games.twentieth_century.components import GameData, data_from_docs, read_docs
from industry_env.games.twentieth_century.reference import Game

_DOCS = read_docs()


def with_tiles(land: list[dict[str, Any]] = (), technology: list[dict[str, Any]] = ()) -> GameData:  # type: ignore[assignment]
    """The shipped components plus test tiles (land tiles in stack I-II, technologies in stack I-II, each with one
    purchase cube by default, so that most technologies keep an immediate ecological effect as the loader asks)."""
    tiles, comps = copy.deepcopy(_DOCS)
    for t in land:
        tiles["land"].append({"stack": "I-II", "bridges": [], "provenance": "reconstructed (a test tile)", **t})
    for t in technology:
        tiles["technology"].append({"stack": "I-II", "garbage": 1, "pollution": 0, "provenance": "reconstructed (test)",
                                    **t})  # fmt: skip
    return data_from_docs(tiles, comps)


def land_code(data: GameData, tile_id: str) -> int:
    return next(i for i, t in enumerate(data.land) if t.id == tile_id)


def tech_index(data: GameData, tech_id: str) -> int:
    return next(i for i, t in enumerate(data.technologies) if t.id == tech_id)


def game_led_by(n: int, leader: int, data: GameData | None = None, **options: Any) -> Game:
    """A new game whose first auction is led by seat ``leader``."""
    for seed in range(200):
        g = Game(n, seed=seed, data=data, **options)
        if g.to_move == leader:
            return g
    raise AssertionError("no seed gives that leader")


def put(game: Game, p: int, xy: tuple[int, int], code: int, rot: int = 0, citizens: int = 0, cubes: int = 0) -> int:
    """Tile ``code`` onto seat ``p``'s nation on cell ``xy`` (from the starting tile's (0, 0); no placement rule
    checked): into the slot of the tile already there, else the first empty slot; returns the slot."""
    c = game.slot_at(p, xy)
    if c < 0:
        c = game.grid_tile[p].index(-1)
    game.grid_x[p][c], game.grid_y[p][c] = xy
    game.grid_tile[p][c], game.grid_rot[p][c] = code, rot
    game.grid_citizens[p][c], game.grid_cubes[p][c] = citizens, cubes
    return c


def act(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(game.string_to_action(text))


def random_game(n: int, seed: int, **options: Any) -> tuple[Game, int]:
    rng = np.random.default_rng(seed)
    g, moves = Game(n, seed=seed, **options), 0
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
        moves += 1
    return g, moves


def greedy_line_game(n: int = 3, seed: int = 0) -> tuple[Game, list[int]]:
    """A game a person can play by hand in which seat 0 takes every land tile it can (the others withdraw at once,
    A12) and attaches each east of its nation, in one line: the nation ends far wider than 9 cells. Returns the
    finished game and the actions played."""
    from industry_env.games.twentieth_century import actions as A

    g, played = Game(n, seed=seed), []
    while not g.is_over:
        p, ph, legal = g.to_move, g.phase, g.legal_actions()
        if p != 0 and A.WITHDRAW in legal:
            a = A.WITHDRAW
        elif p == 0 and ph == "lead" and legal[0] < A.BID:
            a = legal[0]
        elif p == 0 and ph in ("open", "bid"):
            a = A.BID
        elif p == 0 and ph == "attach_cell":
            east = max(g.cell_of(0, k)[0] for k in range(g.slots(0)))
            a = g.string_to_action(f"cell {east + 1},0")
        else:
            a = A.DONE if A.DONE in legal else legal[0]
        g.apply(a)
        played.append(a)
    return g, played
