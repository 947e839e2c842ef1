"""Checks of what Age of Industry's agents are given: observations a game produces, seen from the seat to move.

An agent of this game reads its observation by name (:func:`industry_env.games.age_of_industry.observation.views`)
and rebuilds positions from it, so an observation no game produces (NaN money, a two-hot phase, noise, demand 100,
a negative display, an observation standardised by ``VecNormalize``) would be answered with a made-up move or a
raw ``IndexError``. :func:`check_observations` refuses it first with an :class:`AgentInputError` naming the entry
and the rows, as Industry's agents do (their rebuilt positions check every entry).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from industry_env.games.age_of_industry.components import MAPS, load_components, load_map
from industry_env.games.age_of_industry.observation import SCALE_MONEY, SCALE_ROUND, index, layout, observation_size
from industry_env.games.age_of_industry.rules import HAND_LIMIT, RAILS_PER_PLAYER

from ..base import AgentInputError

#: entries that are 0/1 flags, one each
FLAGS = ("first_edition", "first_round", "seat_present", "turn_position", "turn_done", "space_flipped",
         "space_no_flip", "link_completed", "combined")  # fmt: skip
#: one-hot entries: exactly one 1 along the last axis (required) or at most one (optional)
ONE_HOT_REQUIRED = ("num_players", "phase")
ONE_HOT_OPTIONAL = ("to_move", "face_up", "space_owner", "space_industry", "space_tile", "link_owner", "card",
                    "build_space", "build_industry", "rail_link", "sell_from")  # fmt: skip


@lru_cache(maxsize=4)
def _counts(map_key: str) -> dict[str, tuple[float, np.ndarray | float | None]]:
    """name -> (scale, the largest whole count the entry may hold: a number, an array per element, or None)."""
    c = load_components()
    per_kind = np.array(c.CARD_COUNT, np.float64)
    return {
        "round": (SCALE_ROUND, None), "actions_left": (2.0, 2.0), "money": (SCALE_MONEY, None), "loans": (1.0, None),
        "spent": (SCALE_MONEY, None), "hand_size": (float(HAND_LIMIT), float(sum(c.CARD_COUNT))),
        "own_hand": (1.0, per_kind), "known_cards": (1.0, per_kind), "unseen_cards": (1.0, per_kind),
        "deck_size": (float(sum(c.CARD_COUNT)), float(sum(c.CARD_COUNT))), "discard": (1.0, per_kind),
        "display": (1.0, np.array(c.SLOT_COUNTERS, np.float64)), "rails_left": (float(RAILS_PER_PLAYER),
                                                                                float(RAILS_PER_PLAYER)),
        "space_level": (1.0, float(max(c.SLOT_LEVEL))), "space_cubes": (1.0, None),
        "demand": (1.0, np.array([len(p) for p in c.DEMAND_PRICES], np.float64)), "need": (1.0, None),
        "draws_left": (1.0, 2.0),
    }  # fmt: skip


@lru_cache(maxsize=4)
def _columns(map_key: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """float32[D] scale and float32[D] largest whole value of every column of the map's observation (flags and
    one-hot entries: scale 1, at most 1), and the entry each column belongs to."""
    c, m = load_components(), load_map(map_key)
    at = index(c, m)
    D = max(sl.stop for sl in at.values())
    scale, high = np.ones(D, np.float32), np.ones(D, np.float32)
    owner = [""] * D
    counts = _counts(map_key)
    for name, sl in at.items():
        owner[sl] = [name] * (sl.stop - sl.start)
        if name in counts:
            sc, hi = counts[name]
            scale[sl] = sc
            size = sl.stop - sl.start
            high[sl] = np.inf if hi is None else np.resize(np.asarray(hi, np.float32), size)
    return scale, high, tuple(owner)


def _rows(bad: np.ndarray) -> list[int]:
    return np.flatnonzero(bad)[:5].tolist()


@lru_cache(maxsize=1)
def _maps_by_size() -> dict[int, list[str]]:
    c = load_components()
    out: dict[int, list[str]] = {}
    for m in MAPS:
        out.setdefault(observation_size(load_map(m), c), []).append(m)
    return out


def map_of(observations: np.ndarray) -> str:
    """The map whose observations are as wide as ``observations`` (float32[B, D]), for an agent made without the
    game's options; AgentInputError if no map has that width, or if several have (the options must say which)."""
    sizes = _maps_by_size()
    width = observations.shape[-1]
    if width not in sizes:
        known = ", ".join(f"{'/'.join(ms)}: {d}" for d, ms in sizes.items())
        raise AgentInputError(f"observations of width {width} belong to no map of Age of Industry ({known})")
    if len(sizes[width]) > 1:
        maps = ", ".join(sizes[width])
        raise AgentInputError(f"observations of width {width} fit the maps {maps}: make the agent with the game's "
                              f"options (make_agent(..., options={{'map': ...}}), or map=)")  # fmt: skip
    return sizes[width][0]


def check_observations(observations: np.ndarray, map_key: str) -> None:
    """AgentInputError unless every row of ``observations`` (float32[B, D], already of the map's width) is an
    observation a game of ``map_key`` produces, of a running game seen from the seat to move: every entry finite,
    flags 0 or 1, one-hot entries one-hot, counts whole and within what the components allow."""
    c, m = load_components(), load_map(map_key)
    scale, high, owner = _columns(map_key)
    B = observations.shape[0]
    at = index(c, m)
    shapes = {name: shape for name, shape, _ in layout(c, m)}
    doc = {name: meaning for name, _, meaning in layout(c, m)}

    def refuse(bad: np.ndarray, name: str, why: str) -> None:
        if bad.any():
            raise AgentInputError(f"observation row(s) {_rows(bad)}: entry {name!r} {why} ({doc[name]}); an agent "
                                  f"of Age of Industry reads the observations the game gives, unscaled")  # fmt: skip

    x = observations * scale  # NaN and infinities stay so, and fail every test below
    whole = np.rint(x)
    bad = ~(np.abs(x - whole) <= 1e-3) | ~(whole >= 0) | ~(whole <= high)
    if bad.any():
        rows = bad.any(axis=1)
        i = int(np.flatnonzero(rows)[0])
        col = int(np.flatnonzero(bad[i])[0])
        name, v = owner[col], float(observations[i, col])
        if not np.isfinite(v):
            why = "holds NaN or an infinity"
        elif scale[col] == 1 and high[col] == 1:
            why = f"holds {v:g}, not 0 or 1"
        elif abs(x[i, col] - whole[i, col]) > 1e-3:
            why = f"holds {v:g}, not a whole count{'' if scale[col] == 1 else f' / {scale[col]:g}'}"
        elif whole[i, col] < 0:
            why = f"holds {v:g}, a negative count"
        else:
            why = f"holds {v:g}, more than the game has ({high[col] / scale[col]:g} at most)"
        refuse(bad[:, at[name]].any(axis=1), name, why)

    def view(name: str) -> np.ndarray:
        return observations[:, at[name]].reshape(B, *shapes[name])

    for name in (*ONE_HOT_REQUIRED, *ONE_HOT_OPTIONAL):
        ones = view(name).sum(axis=-1).reshape(B, -1)
        refuse((ones > 1).any(axis=1), name, "has more than one entry set where one-hot")
        if name in ONE_HOT_REQUIRED:
            refuse((ones == 0).any(axis=1), name, "has no entry set")
    over = view("phase")[:, -1] == 1
    if over.any():
        raise AgentInputError(f"observation row(s) {_rows(over)}: the game is over, there is no action to choose")
    to_move = view("to_move")
    refuse(to_move.sum(axis=1) == 0, "to_move", "has no seat set in a running game")
    other = to_move[:, 0] != 1
    if other.any():
        raise AgentInputError(f"observation row(s) {_rows(other)} are not seen from the seat to move: an agent acts "
                              f"from its own seat's observation (egocentric: the observer is its seat 0)")  # fmt: skip


def check_game_observations(observations: np.ndarray, map: str | None = None, **options: object) -> None:  # noqa: A002
    """:func:`check_observations` as the game's spec names it (``observation_check``), called with the game's
    options by agents that play every game (a PPO policy): ``map`` None reads it from the observations' width."""
    if map is None:
        map = map_of(observations)  # noqa: A001
    check_observations(observations, map)


__all__ = ["FLAGS", "ONE_HOT_OPTIONAL", "ONE_HOT_REQUIRED", "check_game_observations", "check_observations", "map_of"]
