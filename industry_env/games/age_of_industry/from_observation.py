"""A position rebuilt from what one seat observes: the starting point of search players under hidden information.

An agent of Age of Industry is handed only its observation and the legal mask (hidden hands of cards). A search
player needs a position to play on: :func:`from_observation` rebuilds, for a batch of observations, positions of
the batched engine that agree with everything the seat sees. The observer becomes seat 0 (the observation is
egocentric, and the rules never depend on seat numbers, only on the turn order, which is observed), so the
rebuilt position's observation from seat 0 is the given observation, float for float
(``tests/age_of_industry/test_agents.py`` checks it, and that the legal masks agree).

What the seat cannot see is filled in arbitrarily but consistently: the other hands get their known cards plus as
many unseen cards as they hold, the deck the rest of the unseen cards, in a fixed order. A search player then
redeals exactly that with :func:`engine.resample` (seat 0), the batched twin of ``spec.resample`` (the same redeal,
card for card): the filling never reaches a decision. The seed of the set-up is not observed and is set to 0
(``resample`` draws a new one anyway).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import engine
from .components import GameMap, load_components, load_map
from .observation import SCALE_MONEY, SCALE_ROUND, observation_size, views
from .rules import HAND_LIMIT, MAX_PLAYERS, RAILS_PER_PLAYER

P = MAX_PLAYERS


def _onehot_index(x: np.ndarray) -> np.ndarray:
    """int64 index of the 1 along the last axis, -1 where the row is all zeros."""
    return np.where(x.max(axis=-1) > 0.5, x.argmax(axis=-1), -1)


def _whole(x: np.ndarray, scale: float = 1.0) -> np.ndarray:
    return np.rint(x * scale).astype(np.int64)


def from_observation(observations: np.ndarray, map: str | GameMap = "germany") -> engine.State:  # noqa: A002
    """A State of B positions, game i consistent with ``observations[i]`` (float32[B, D]) as seat 0 sees it.

    The observer is seat 0 and the other seats follow clockwise, as in the observation. Refuses with ValueError
    an array of the wrong shape, a finished game (its observation no longer says whose turn it is) or an
    observation whose cards do not add up (not one of this map's observations)."""
    game_map = load_map(map) if isinstance(map, str) else map
    components = load_components()
    obs = np.asarray(observations)
    size = observation_size(game_map, components)
    if obs.ndim != 2 or obs.shape[1] != size:
        raise ValueError(f"from_observation: observations must be float[B, {size}] ({game_map.name}), got shape "
                         f"{list(obs.shape)}")  # fmt: skip
    v = views(obs.astype(np.float32, copy=False), components, game_map)
    B = obs.shape[0]
    if B and (v["to_move"].max(axis=1) < 0.5).any():
        bad = int(np.flatnonzero(v["to_move"].max(axis=1) < 0.5)[0])
        raise ValueError(f"from_observation: observation {bad} is of a finished game (no seat to move)")
    s = engine.state_class(game_map).empty(B, map=game_map)
    n = v["num_players"].argmax(axis=1) + 3
    present = np.arange(P)[None, :] < n[:, None]
    s.num_players[:] = n
    s.edition[:] = np.where(v["first_edition"][:, 0] > 0.5, 1, 2)
    s.seed[:] = 0
    s.round[:] = _whole(v["round"][:, 0], SCALE_ROUND)
    s.phase[:] = v["phase"].argmax(axis=1)
    s.turn[:] = _whole(v["turn_done"].sum(axis=1))
    s.actions_left[:] = _whole(v["actions_left"][:, 0], 2.0)
    s.card[:] = _onehot_index(v["card"])
    s.combined[:] = _whole(v["combined"][:, 0])
    s.build_space[:] = _onehot_index(v["build_space"])
    s.build_industry[:] = _onehot_index(v["build_industry"])
    s.rail_link[:] = _onehot_index(v["rail_link"])
    s.need_coal[:] = _whole(v["need"][:, 0])
    s.need_iron[:] = _whole(v["need"][:, 1])
    s.sell_from[:] = _onehot_index(v["sell_from"])
    s.draws_left[:] = _whole(v["draws_left"][:, 0])
    C = s.deck.shape[1]
    deck_left = _whole(v["deck_size"][:, 0], float(C))
    s.deck_pos[:] = C - deck_left
    # turn_position[seat, position] -> order[position] = seat (the observer's numbering is the new one)
    tp = v["turn_position"]
    has = tp.max(axis=1) > 0.5  # [B, position]
    s.order[:] = np.where(has, tp.argmax(axis=1), -1)
    s.spent[:] = _whole(v["spent"], SCALE_MONEY) * present
    s.money[:] = _whole(v["money"], SCALE_MONEY) * present
    s.loans[:] = _whole(v["loans"]) * present
    known = _whole(v["known_cards"])
    s.known[:] = known
    hand_size = _whole(v["hand_size"], float(HAND_LIMIT)) * present
    unseen = _whole(v["unseen_cards"])
    K = unseen.shape[1]
    hand = known.copy()
    hand[:, 0] = _whole(v["own_hand"])
    deck = np.full((B, C), -1, np.int64)
    for i in range(B):
        pool = np.repeat(np.arange(K), np.maximum(unseen[i], 0))
        at = 0
        for q in range(1, int(n[i])):
            k = int(hand_size[i, q] - known[i, q].sum())
            if k < 0 or at + k > pool.size:
                raise ValueError(f"from_observation: observation {i}: seat {q}'s hand does not add up with the "
                                 f"unseen cards (not an observation of {game_map.name}?)")  # fmt: skip
            hand[i, q] += np.bincount(pool[at:at + k], minlength=K)
            at += k
        rest = pool[at:]
        if rest.size != deck_left[i]:
            raise ValueError(f"from_observation: observation {i}: {rest.size} unseen cards are left for a deck of "
                             f"{int(deck_left[i])} (not an observation of {game_map.name}?)")  # fmt: skip
        deck[i, C - rest.size:] = rest
    s.hand[:] = hand
    s.deck[:] = deck
    s.face_up[:] = _onehot_index(v["face_up"])
    s.discard[:] = _whole(v["discard"])
    s.display[:] = _whole(v["display"])
    s.rails_left[:] = _whole(v["rails_left"], float(RAILS_PER_PLAYER)) * present
    s.space_owner[:] = _onehot_index(v["space_owner"])
    s.space_industry[:] = _onehot_index(v["space_industry"])
    s.space_level[:] = _whole(v["space_level"])
    s.space_flipped[:] = _whole(v["space_flipped"])
    s.space_no_flip[:] = _whole(v["space_no_flip"])
    s.space_cubes[:] = _whole(v["space_cubes"])
    s.space_tile[:] = _onehot_index(v["space_tile"])
    s.link_owner[:] = _onehot_index(v["link_owner"])
    s.demand[:] = _whole(v["demand"])
    s.terminated[:] = False
    s.rewards[:] = 0.0
    return s


def game_from_observation(observation: np.ndarray, map: str | GameMap = "germany") -> Any:  # noqa: A002
    """One observation (float32[D]) as a reference :class:`.reference.Game` seen by seat 0, for
    ``spec.resample(game, 0, rng)``; see :func:`from_observation`."""
    return engine.to_game(from_observation(np.asarray(observation)[None], map), 0)


__all__ = ["from_observation", "game_from_observation"]
