"""Checks of what 20th Century's agents are given: observations a game produces, seen from the seat to move.

The heuristic reads its observation by name (the game's observation layout) and values tiles, columns and cells
from it, so an observation no game produces (NaN coins, a two-hot phase, noise, a negative count, an observation
standardised by ``VecNormalize``) would be answered with a made-up move. :func:`check_observations` refuses it
first with an :class:`AgentInputError` naming the entry and the rows, as the other games' agents do.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from industry_env.core.spec import Piece
from industry_env.registry import load_game

from ..base import AgentInputError

#: pieces made of 0/1 flags and one-hot codes only
FLAG_PIECES = ("num_players", "round", "phase", "to_move", "seat_present", "scoring_cards", "pending", "unseen")
#: one-hot pieces with exactly one entry set in a running game
ONE_HOT_REQUIRED = ("num_players", "round", "phase")
#: counts shown scaled (piece, column inside the piece's last axis, scale): the count times the scale is whole
WHOLE_COUNTS = (("seats", 0, 10.0), ("seats", 1, 10.0), ("seat_vp", None, 50.0), ("grids", 5, 4.0), ("grids", 54, 8.0),
                ("grids", 55, 8.0), ("selection", 1, 8.0), ("selection", 2, 8.0))  # fmt: skip
#: entries that may be negative (piece, columns of the piece's last axis; None: all): victory points, and the cells
#: of a nation's tiles and of the selection (x east, y south of the starting tile's (0, 0), ruling 18)
SIGNED = (("seat_vp", None), ("grids", slice(54, 56)), ("selection", slice(1, 3)))


@lru_cache(maxsize=1)
def pieces() -> dict[str, Piece]:
    """The observation's pieces by name (the shipped components' layout)."""
    return {p.name: p for p in load_game("twentieth_century").observation_layout()}


def _rows(bad: np.ndarray) -> list[int]:
    return np.flatnonzero(bad)[:5].tolist()


def check_observations(observations: np.ndarray) -> None:
    """AgentInputError unless every row of ``observations`` (float32[B, D], already of the game's width) is an
    observation a game produces, of a running game seen from the seat to move: every entry finite, only victory
    points and cells negative, flags 0 or 1, one-hot codes one-hot, scaled counts whole."""
    at = pieces()
    B = observations.shape[0]

    def view(name: str) -> np.ndarray:
        p = at[name]
        return observations[:, p.slice].reshape(B, *p.shape)

    def refuse(bad: np.ndarray, name: str, why: str) -> None:
        if bad.any():
            raise AgentInputError(f"observation row(s) {_rows(bad)}: entry {name!r} {why} ({at[name].doc}); an "
                                  f"agent of 20th Century reads the observations the game gives, unscaled")  # fmt: skip

    finite = np.isfinite(observations)
    if not finite.all():
        col = int(np.flatnonzero(~finite.all(axis=0))[0])
        name = next(p.name for p in at.values() if p.offset <= col < p.offset + p.size)
        refuse(~finite.all(axis=1), name, "holds NaN or an infinity")
    signed = dict(SIGNED)
    for p in at.values():
        x = observations[:, p.slice]
        if p.name not in signed:
            refuse((x < 0).any(axis=1), p.name, "holds a negative value")
        elif signed[p.name] is not None:
            unsigned = np.ones(p.shape[-1], bool)
            unsigned[signed[p.name]] = False
            refuse((view(p.name)[..., unsigned] < 0).reshape(B, -1).any(axis=1), p.name, "holds a negative value")
        if p.name in FLAG_PIECES:
            refuse(((x != 0) & (x != 1)).any(axis=1), p.name, "holds a value that is not 0 or 1")
    for name, col, scale in WHOLE_COUNTS:
        x = view(name) if col is None else view(name)[..., col]
        scaled = x.reshape(B, -1) * scale
        refuse((np.abs(scaled - np.rint(scaled)) > 1e-3).any(axis=1), name, f"holds a count that is not whole "
               f"(shown / {scale:g})")  # fmt: skip
    for name in ONE_HOT_REQUIRED:
        refuse(view(name).sum(axis=1) != 1, name, "is not one-hot")
    over = view("phase")[:, -1] == 1
    if over.any():
        raise AgentInputError(f"observation row(s) {_rows(over)}: the game is over, there is no action to choose")
    to_move = view("to_move")
    refuse(to_move.sum(axis=1) != 1, "to_move", "has not exactly one seat set in a running game")
    other = to_move[:, 0] != 1
    if other.any():
        raise AgentInputError(f"observation row(s) {_rows(other)} are not seen from the seat to move: an agent acts "
                              f"from its own seat's observation (egocentric: the observer is its seat 0)")  # fmt: skip


__all__ = ["FLAG_PIECES", "ONE_HOT_REQUIRED", "SIGNED", "WHOLE_COUNTS", "check_observations", "pieces"]


def check_game_observations(observations: np.ndarray, data: object = None, **options: object) -> None:
    """The game's ``observation_check`` (what every agent of 20th Century calls, a PPO policy too): the checks of
    :func:`check_observations` on the shipped components; with components of one's own (``data``) the layout may
    differ, so only the width (checked by the caller) holds."""
    if data is None:
        check_observations(observations)
