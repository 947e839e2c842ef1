"""What one seat sees of a game of Age of Industry, and the redeal of what it cannot see.

:func:`observe` gives a flat float32 vector, laid out by :func:`layout` (a named table: name, shape, meaning),
whose size depends only on the map and the components (:func:`observation_size`), never on the number of players:
seats are **egocentric** (the observer first, then the others in turn order from him, i.e. clockwise in seat
numbers) and padded to 5, absent seats all zeros, so that one policy plays 3, 4 and 5 players.

Each seat observes its own hand, everything public (the map and its counters, money, loans, money spent, the
discard pile, the two face-up cards, the deck's size, every display) and the cards it knows to be in other hands
(a face-up card taken stays known until a card of its kind leaves that hand); never the other hands, the deck's
order or the seed. :func:`resample` redeals exactly what the seat cannot know, from its own random stream.
:meth:`.reference.Game.full_view` is the full-information view, for debugging only.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np

from ...core.spec import check_seat
from .components import MARKET_KINDS, Components, GameMap
from .rules import HAND_LIMIT, MAX_PLAYERS, NUM_FACE_UP, NUM_INDUSTRIES, RAILS_PER_PLAYER
from .state import PHASES

Game = Any  # a reference Game (reference.Game reaches this module, so it is not imported back)

P = MAX_PLAYERS
SCALE_MONEY = 10.0  # dollars, money spent and loans are divided by 10
SCALE_ROUND = 20.0


@lru_cache(maxsize=16)
def layout(components: Components, game_map: GameMap) -> tuple[tuple[str, tuple[int, ...], str], ...]:
    """(name, shape, meaning) of every piece of the observation, in order. ``seat`` axes are egocentric."""
    K, D, S, L = components.num_card_kinds, components.num_slots, game_map.num_spaces, game_map.num_links
    return (
        ("num_players", (3,), "one-hot: 3, 4 or 5 players"),
        ("first_edition", (1,), "1 if the first edition's rules are played"),
        ("round", (1,), "rounds begun / 20"),
        ("first_round", (1,), "1 in round 1 (one action each)"),
        ("phase", (len(PHASES),), "one-hot decision awaited"),
        ("actions_left", (1,), "actions left in the turn being played, the current one included, / 2"),
        ("to_move", (P,), "seat to move (all 0 once over)"),
        ("seat_present", (P,), "seat takes part"),
        ("turn_position", (P, P), "[seat, position]: each seat's place in this round's turn order"),
        ("turn_done", (P,), "seat has played its turn this round"),
        ("money", (P,), "dollars / 10"),
        ("loans", (P,), "loans"),
        ("spent", (P,), "dollars spent this round / 10 (the next turn order)"),
        ("hand_size", (P,), "cards in hand / 9"),
        ("own_hand", (K,), "the observer's cards, per kind"),
        ("known_cards", (P, K), "cards each seat is known to hold (taken face up), per kind"),
        ("unseen_cards", (K,), "cards the observer cannot place: the deck and the others' unknown cards, per kind"),
        ("deck_size", (1,), "cards left in the deck / 66"),
        ("face_up", (NUM_FACE_UP, K), "one-hot kind of each face-up card"),
        ("discard", (K,), "discard pile, per kind"),
        ("display", (P, D), "counters left on each seat's display, per slot"),
        ("rails_left", (P,), "rail counters left / 12"),
        ("space_owner", (S, P), "seat of the counter on each space"),
        ("space_industry", (S, NUM_INDUSTRIES), "one-hot industry of the counter on each space"),
        ("space_level", (S,), "level of the counter on each space"),
        ("space_flipped", (S,), "counter flipped, or market tile used"),
        ("space_no_flip", (S,), "a ship built over a ship (never flips)"),
        ("space_cubes", (S,), "cubes on each space (mine, iron works, coal import)"),
        ("space_tile", (S, len(MARKET_KINDS)), "one-hot market tile on each market space"),
        ("link_owner", (L, P), "seat of the rail on each link"),
        ("link_completed", (L,), "1 for a link that carries cubes and sales (a rail, an open sea lane)"),
        ("demand", (2,), "cubes on the coal and iron demand track"),
        ("card", (K,), "one-hot card played or discarded for the action in progress"),
        ("combined", (1,), "the build in progress is the combined build"),
        ("build_space", (S,), "one-hot space of the build in progress"),
        ("build_industry", (NUM_INDUSTRIES,), "one-hot industry of the build in progress"),
        ("rail_link", (L,), "one-hot link of the rail in progress"),
        ("need", (2,), "coal and iron still to deliver"),
        ("sell_from", (S,), "one-hot space sold from, awaiting its buyer"),
        ("draws_left", (1,), "cards still to draw"),
    )


@lru_cache(maxsize=16)
def index(components: Components, game_map: GameMap) -> dict[str, slice]:
    """name -> slice of the flat vector."""
    out, at = {}, 0
    for name, shape, _ in layout(components, game_map):
        size = int(np.prod(shape))
        out[name] = slice(at, at + size)
        at += size
    return out


def observation_size(game_map: GameMap, components: Components | None = None) -> int:
    """Length of the observation on ``game_map`` (the same for 3, 4 and 5 players)."""
    from .components import load_components

    return max(sl.stop for sl in index(components or load_components(), game_map).values())


@lru_cache(maxsize=16)
def _pieces(components: Components, game_map: GameMap) -> tuple[tuple[str, slice, tuple[int, ...]], ...]:
    shapes = {name: shape for name, shape, _ in layout(components, game_map)}
    return tuple((name, sl, shapes[name]) for name, sl in index(components, game_map).items())


def views(obs: np.ndarray, components: Components, game_map: GameMap) -> dict[str, np.ndarray]:
    """Named, shaped views into ``obs`` (writing to them writes ``obs``)."""
    lead = obs.shape[:-1]
    if not lead:  # one observation: a flat piece is its slice, no reshape
        return {name: obs[sl] if len(shape) == 1 else obs[sl].reshape(shape)
                for name, sl, shape in _pieces(components, game_map)}  # fmt: skip
    return {name: obs[..., sl].reshape(*lead, *shape) for name, sl, shape in _pieces(components, game_map)}


def observe(game: Game, seat: int, full_information: bool = False) -> np.ndarray:
    """float32 observation of ``seat`` (any seat, not only the one to move).

    ``full_information=True`` is the oracle view, off by default, for debugging and centralized critics only: the
    same layout with every hand in ``known_cards`` and the deck's contents (not its order) in ``unseen_cards``."""
    s, n, c, m = game.s, game.num_players, game.components, game.map
    check_seat(seat, n)
    obs = np.zeros(observation_size(m, c), np.float32)
    v = views(obs, c, m)
    rel = [(q - seat) % n for q in range(n)]  # egocentric: the observer first, then clockwise

    v["num_players"][n - 3] = 1
    v["first_edition"][0] = s.edition == 1
    v["round"][0] = s.round / SCALE_ROUND
    v["first_round"][0] = s.round == 1
    v["phase"][s.phase] = 1
    v["actions_left"][0] = s.actions_left / 2
    if game.current_player >= 0:
        v["to_move"][rel[game.current_player]] = 1
    for pos, q in enumerate(s.order):
        v["turn_position"][rel[q], pos] = 1
        v["turn_done"][rel[q]] = pos < s.turn or s.phase == len(PHASES) - 1
    unseen = [c.CARD_COUNT[k] - s.hand[seat][k] - s.discard[k] for k in range(c.num_card_kinds)]
    for q in range(n):
        k = rel[q]
        v["seat_present"][k] = 1
        v["money"][k] = s.money[q] / SCALE_MONEY
        v["loans"][k] = s.loans[q]
        v["spent"][k] = s.spent[q] / SCALE_MONEY
        v["hand_size"][k] = sum(s.hand[q]) / HAND_LIMIT  # hand sizes are public (cards are drawn and played openly)
        v["known_cards"][k] = s.known[q]
        v["display"][k] = s.display[q]
        v["rails_left"][k] = s.rails_left[q] / RAILS_PER_PLAYER
        if q != seat:
            unseen = [u - kn for u, kn in zip(unseen, s.known[q], strict=True)]
    v["own_hand"][:] = s.hand[seat]
    for j, kind in enumerate(s.face_up):
        if kind >= 0:
            v["face_up"][j, kind] = 1
            unseen[kind] -= 1
    v["unseen_cards"][:] = unseen
    if full_information:
        for q in range(n):
            v["known_cards"][rel[q]] = s.hand[q]
        v["unseen_cards"][:] = [s.deck[s.deck_pos:].count(k) for k in range(c.num_card_kinds)]
    v["deck_size"][0] = (len(s.deck) - s.deck_pos) / len(s.deck)
    v["discard"][:] = s.discard
    # the map's spaces and links, written a whole entry at a time
    egocentric = np.asarray(rel)
    owner = np.asarray(s.space_owner)
    built = np.flatnonzero(owner >= 0)
    v["space_owner"][built, egocentric[owner[built]]] = 1
    v["space_industry"][built, np.asarray(s.space_industry)[built]] = 1
    v["space_level"][:] = s.space_level
    v["space_flipped"][:] = s.space_flipped
    v["space_no_flip"][:] = s.space_no_flip
    v["space_cubes"][:] = s.space_cubes
    tile = np.asarray(s.space_tile)
    tiled = np.flatnonzero(tile >= 0)
    v["space_tile"][tiled, tile[tiled]] = 1
    rail = np.asarray(s.link_owner)
    railed = np.flatnonzero(rail >= 0)
    v["link_owner"][railed, egocentric[rail[railed]]] = 1
    v["link_completed"][:] = [game.link_completed(li) for li in range(m.num_links)]
    v["demand"][:] = s.demand
    if s.card >= 0:
        v["card"][s.card] = 1
    v["combined"][0] = s.combined
    if s.build_space >= 0:
        v["build_space"][s.build_space] = 1
        v["build_industry"][s.build_industry] = 1
    if s.rail_link >= 0:
        v["rail_link"][s.rail_link] = 1
    v["need"][:] = (s.need_coal, s.need_iron)
    if s.sell_from >= 0:
        v["sell_from"][s.sell_from] = 1
    v["draws_left"][0] = s.draws_left
    return obs


def _generator(rng: Any) -> np.random.Generator:
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(64))
    raise ValueError(f"rng={rng!r}: must be a numpy Generator, a whole-number seed, or None")


def resample(game: Game, seat: int, rng: Any = None) -> Game:
    """A copy of ``game`` consistent with everything ``seat`` observes, the rest redealt at random.

    Kept: ``seat``'s hand, every public entry, and the cards known to be in the other hands. Redealt: the unseen
    pool (the deck and the unknown part of every other hand), shuffled with ``rng`` (a numpy Generator or a seed;
    the game's own chance is untouched), each other hand getting back as many unknown cards as it had, the rest
    becoming the deck in a new order. The copy's seed is drawn from ``rng`` too, so it says nothing of the real one.
    """
    n = game.num_players
    check_seat(seat, n)
    gen = _generator(rng)
    out = game.clone()
    s = out.s
    K = out.components.num_card_kinds
    pool = [k for k in s.deck[s.deck_pos:]]
    unknown = {}
    for q in range(n):
        if q == seat:
            continue
        unknown[q] = sum(s.hand[q][k] - s.known[q][k] for k in range(K))
        for k in range(K):
            pool += [k] * (s.hand[q][k] - s.known[q][k])
            s.hand[q][k] = s.known[q][k]
    pool = [pool[i] for i in gen.permutation(len(pool))]
    for q in sorted(unknown):
        for k in pool[: unknown[q]]:
            s.hand[q][k] += 1
        pool = pool[unknown[q]:]
    s.deck[s.deck_pos:] = pool
    s.seed = int(gen.integers(0, 2**63 - 1))
    out.forget_cached()
    return out


def layout_markdown(components: Components, game_map: GameMap) -> str:
    """The observation layout on one map as a markdown table (docs/age-of-industry/observation.md)."""
    lines = ["| name | offset | shape | content |", "|---|---|---|---|"]
    idx = index(components, game_map)
    for name, shape, meaning in layout(components, game_map):
        lines.append(f"| {name} | {idx[name].start} | {list(shape)} | {meaning} |")
    lines.append(f"| (all) | | [{observation_size(game_map, components)}] | |")
    return "\n".join(lines) + "\n"
