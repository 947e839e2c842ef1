"""Saved games and hand-built positions: JSON in, a checked :class:`.state.State` out.

:func:`state_from_dict` refuses a corrupt or inconsistent document with a :class:`.state.GameStateError`
naming the entry and the problem, so that a position built for a test or loaded from disk is always one the rules
could reach in form: types and shapes (from :data:`.state.FIELDS`), ranges, and the invariants that tie the entries
together (the 66 cards all accounted for, counters and rails matching the displays, the decision in progress
consistent with the board).
"""

from __future__ import annotations

from typing import Any

from .components import ALL_SYMBOLS, MARKET_SPACE, Components, GameMap, allowed_industries
from .rules import (
    COAL_MINE,
    COTTON_MILL,
    FACTORY,
    HAND_LIMIT,
    IRON_WORKS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_FACE_UP,
    NUM_INDUSTRIES,
    RAILS_PER_PLAYER,
    SHIP,
    spaces_allowed,
)
from .state import (
    BUILD_WHERE,
    COAL_SOURCE,
    DEVELOP_WHICH,
    DRAW_SECOND,
    FIELDS,
    GAME_NAME,
    IRON_SOURCE,
    JSON_VERSION,
    OVER,
    PHASES,
    SELL_TO,
    GameStateError,
    State,
    shape_of,
)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def state_from_dict(doc: Any, components: Components, game_map: GameMap) -> State:
    """Check ``doc`` (a parsed saved game) entry by entry and return the state it describes."""
    if not isinstance(doc, dict):
        raise GameStateError("saved game must be a JSON object")
    if doc.get("version") != JSON_VERSION:
        raise GameStateError(f"saved game version {doc.get('version')!r} is not {JSON_VERSION}")
    if doc.get("game", GAME_NAME) != GAME_NAME:
        raise GameStateError(f"saved game is of {doc.get('game')!r}, not {GAME_NAME!r}")
    names = [f[0] for f in FIELDS]
    unknown = set(doc) - set(names) - {"version", "game", "map"}
    if unknown:
        raise GameStateError(f"saved game has unknown entries {sorted(unknown)}")
    missing = [k for k in names if k not in doc]
    if missing:
        raise GameStateError(f"saved game lacks entries {missing}")

    def bad(key: str, why: str) -> GameStateError:
        return GameStateError(f"saved game entry {key!r}: {why}")

    n = doc["num_players"]
    if not _is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise bad("num_players", f"{n!r} is not 3, 4 or 5")
    c, m = components, game_map
    sizes = {"P": n, "K": c.num_card_kinds, "D": c.num_slots, "C": len(doc["deck"]) if isinstance(doc["deck"], list)
             else -1, "S": m.num_spaces, "L": m.num_links}  # fmt: skip
    if sizes["C"] != sum(c.CARD_COUNT):
        raise bad("deck", f"must list the {sum(c.CARD_COUNT)} places of the deck")

    def check_shape(key: str, value: Any, shape: tuple[int, ...]) -> None:
        if not shape:
            if not _is_int(value):
                raise bad(key, f"{value!r} is not a whole number")
            return
        if not isinstance(value, list) or len(value) != shape[0]:
            raise bad(key, f"must be a list of {shape[0]} entries (shape {list(shape)})")
        for x in value:
            check_shape(key, x, shape[1:])

    for key, _, spec, _ in FIELDS:
        check_shape(key, doc[key], shape_of(spec, sizes))
    s = State(**{key: doc[key] for key in names})
    s = s.copy()  # no list shared with the caller's document

    def rng(key: str, lo: int, hi: int) -> None:
        v = getattr(s, key)
        flat = _flatten(v)
        if any(not lo <= x <= hi for x in flat):
            raise bad(key, f"{v!r} holds a value outside {lo}..{hi}")

    K, S, L, D = c.num_card_kinds, m.num_spaces, m.num_links, c.num_slots
    rng("edition", 1, 2)
    rng("seed", 0, 2**63 - 1)
    rng("round", 1, 10_000)
    rng("phase", 0, len(PHASES) - 1)
    rng("turn", 0, n - 1)
    rng("actions_left", 0 if s.phase == OVER else 1, 2)
    rng("card", -1, K - 1)
    rng("combined", 0, 1)
    rng("build_space", -1, S - 1)
    rng("build_industry", -1, NUM_INDUSTRIES - 1)
    rng("rail_link", -1, m.num_rail_links - 1)
    rng("need_coal", 0, 1)
    rng("need_iron", 0, 1)
    rng("sell_from", -1, S - 1)
    rng("draws_left", 0, 1)
    rng("deck_pos", 0, sizes["C"])
    rng("spent", 0, 10_000)
    rng("money", 0, 1_000_000)
    rng("loans", 0, 10_000)
    rng("hand", 0, HAND_LIMIT)
    rng("known", 0, HAND_LIMIT)
    rng("deck", -1, K - 1)
    rng("face_up", -1, K - 1)
    rng("discard", 0, sizes["C"])
    rng("display", 0, max(c.SLOT_COUNTERS))
    rng("rails_left", 0, RAILS_PER_PLAYER)
    rng("space_owner", -1, n - 1)
    rng("space_industry", -1, 5)
    rng("space_level", 0, 9)
    rng("space_flipped", 0, 1)
    rng("space_no_flip", 0, 1)
    rng("space_cubes", 0, 9)
    rng("space_tile", -1, len(c.TILE_COUNT) - 1)
    rng("link_owner", -1, n - 1)
    if sorted(s.order) != list(range(n)):
        raise bad("order", f"{s.order} is not an order of the seats 0..{n - 1}")
    for r in range(2):
        if not 0 <= s.demand[r] <= len(c.DEMAND_PRICES[r]):
            raise bad("demand", f"{s.demand} holds more cubes than the track's {len(c.DEMAND_PRICES[r])} spaces")

    # ---- the 66 cards: "Nota che il mazzo degli scarti non viene mai rimescolato"
    for i, k in enumerate(s.deck):
        if (i < s.deck_pos) != (k < 0):
            raise bad("deck", f"place {i}: cards before deck_pos {s.deck_pos} are drawn (-1), the rest are cards")
    for k in range(K):
        total = (s.deck[s.deck_pos:].count(k) + sum(h[k] for h in s.hand) + s.face_up.count(k) + s.discard[k])
        if total != c.CARD_COUNT[k]:
            raise bad("hand", f"{total} cards of kind {c.card_label(k)!r} in deck, hands, face-up and discards; "
                      f"the deck has {c.CARD_COUNT[k]}")  # fmt: skip
    for q in range(n):
        if sum(s.hand[q]) > HAND_LIMIT:
            raise bad("hand", f"seat {q} holds {sum(s.hand[q])} cards, over the limit of {HAND_LIMIT}")
        if any(kn > h for kn, h in zip(s.known[q], s.hand[q], strict=True)):
            raise bad("known", f"seat {q} is known to hold cards it does not hold")
    if s.deck_pos < len(s.deck) and any(k < 0 for k in s.face_up):
        if s.phase != DRAW_SECOND:
            raise bad("face_up", "an empty face-up place while the deck still has cards (it is refilled at once)")

    # ---- counters, rails, the map
    for sp in range(S):
        sym, owner, ind = m.SPACE_SYMBOL[sp], s.space_owner[sp], s.space_industry[sp]
        where = f"space {m.space_label(sp)} ({ALL_SYMBOLS[sym]})"
        if (owner < 0) != (ind < 0):
            raise bad("space_owner", f"{where}: a counter needs both an owner and an industry")
        if ind >= 0 and ind not in allowed_industries(sym):
            raise bad("space_industry", f"{where} cannot hold a {ind} counter")
        if ind >= 0 and (ind, s.space_level[sp]) not in {(c.SLOT_INDUSTRY[d], c.SLOT_LEVEL[d]) for d in range(D)
                                                         if c.SLOT_LEVEL[d] > 0}:  # fmt: skip
            raise bad("space_level", f"{where}: no buildable counter of that industry has level {s.space_level[sp]}")
        if ind < 0 and (s.space_level[sp] or (s.space_flipped[sp] and sym != MARKET_SPACE) or s.space_no_flip[sp]):
            raise bad("space_level", f"{where} has no counter but a level or flip state")
        holds = ind in (COAL_MINE, IRON_WORKS) or m.SPACE_IMPORT[sp] > 0
        if s.space_cubes[sp] and not holds:
            raise bad("space_cubes", f"{where} holds cubes but is no mine, iron works or coal import")
        if m.SPACE_IMPORT[sp] and s.space_cubes[sp] > m.SPACE_IMPORT[sp]:
            raise bad("space_cubes", f"{where} holds more coal than its import brings")
        if (sym == MARKET_SPACE) != (s.space_tile[sp] >= 0):
            raise bad("space_tile", f"{where}: every market space, and only those, holds a market tile")
        if s.space_no_flip[sp] and ind != SHIP:
            raise bad("space_no_flip", f"{where}: only a ship built over a ship never flips")
    for t in range(len(c.TILE_COUNT)):
        if s.space_tile.count(t) > c.TILE_COUNT[t]:
            raise bad("space_tile", f"more market tiles of one kind on the map than the game has ({c.TILE_COUNT[t]})")
    for q in range(n):
        for d in range(D):
            on_map = sum(1 for sp in range(S) if s.space_owner[sp] == q and s.space_industry[sp] ==
                         c.SLOT_INDUSTRY[d] and s.space_level[sp] == c.SLOT_LEVEL[d])  # fmt: skip
            if s.display[q][d] + on_map > c.SLOT_COUNTERS[d]:
                raise bad("display", f"seat {q} has more {c.slot_label(d)} counters than the display holds")
        rails = sum(1 for li in range(L) if s.link_owner[li] == q)
        if rails != RAILS_PER_PLAYER - s.rails_left[q]:
            raise bad("rails_left", f"seat {q} has {rails} rails on the map and {s.rails_left[q]} left, not 12")
        for loc in range(m.num_locations):
            held = sum(s.space_owner[sp] == q for sp in m.LOC_SPACES[loc])
            if held > spaces_allowed(m.LOC_BUILD_SPACES[loc]):
                raise bad("space_owner", f"seat {q} occupies {held} spaces of {m.location_names[loc]}, over the limit")
    for li in range(L):
        if m.LINK_SEA[li] and s.link_owner[li] >= 0:
            raise bad("link_owner", f"sea lane {m.link_label(li)} cannot carry a rail counter")

    _check_decision(s, c, m, bad)
    return s


def _check_decision(s: State, c: Components, m: GameMap, bad: Any) -> None:
    """The decision in progress: each entry set exactly where an action of the rules sets it (a card played for a
    build or a development, the space once built, the link while its cubes come, ...) and consistent with the board."""
    p = s.order[s.turn]
    sourcing = s.phase in (COAL_SOURCE, IRON_SOURCE)
    building = s.phase == BUILD_WHERE or sourcing and s.rail_link < 0
    railing = sourcing and s.rail_link >= 0
    if (s.card >= 0) != (building or s.phase == DEVELOP_WHICH):
        raise bad("card", f"{s.card}: a card is in play exactly while a build or a development is in progress "
                  f"(not at the {PHASES[s.phase]} decision)")  # fmt: skip
    if s.combined and not (building and s.actions_left == 2):
        raise bad("combined", "a combined build takes both actions of a turn: only a build with two actions left")
    if building and not m.has_ships and c.CARD_INDUSTRY[s.card] == SHIP:
        raise bad("card", "a ship card builds nothing on a map without ship spaces (rules.md, ruling 30)")
    if (s.build_space >= 0) != (sourcing and not railing) or (s.build_industry >= 0) != (s.build_space >= 0):
        raise bad("build_space", f"{s.build_space} (industry {s.build_industry}): a build's space and industry are "
                  f"set exactly while its coal or iron is awaited (not at the {PHASES[s.phase]} decision)")  # fmt: skip
    if s.rail_link >= 0 and not sourcing:
        raise bad("rail_link", f"{s.rail_link}: a rail is in progress only while its coal or iron is awaited")
    if railing:
        if s.link_owner[s.rail_link] >= 0:
            raise bad("rail_link", f"{s.rail_link}: link {m.link_label(s.rail_link)} already carries a rail counter")
        if not 1 <= s.rails_left[p] < RAILS_PER_PLAYER:
            raise bad("rail_link", f"{s.rail_link}: seat {p} has {s.rails_left[p]} rail counters left; a rail "
                      f"awaiting cubes is a later one (the first needs none) with a counter left to lay")  # fmt: skip
    if sourcing and not railing:
        sp = s.build_space
        if s.space_owner[sp] != p or s.space_industry[sp] != s.build_industry:
            raise bad("build_space", "a cube is awaited for a build that is not on the map")
        d = next(d for d in range(c.num_slots)
                 if (c.SLOT_INDUSTRY[d], c.SLOT_LEVEL[d]) == (s.build_industry, s.space_level[sp]))  # fmt: skip
        if s.need_coal > c.SLOT_COAL[d] or s.need_iron > c.SLOT_IRON[d]:
            raise bad("need_coal", f"more cubes owed than a {c.slot_label(d)} needs")
    if s.phase in (COAL_SOURCE, IRON_SOURCE):
        if s.phase == COAL_SOURCE and not s.need_coal or s.phase == IRON_SOURCE and not s.need_iron:
            raise bad("need_coal", "a source is awaited for a cube not needed")
        if s.phase == IRON_SOURCE and s.need_coal:
            raise bad("need_coal", "iron is awaited before the coal was delivered")
    elif s.need_coal or s.need_iron:
        raise bad("need_coal", f"cubes are owed outside a source decision ({PHASES[s.phase]})")
    if s.phase == SELL_TO:
        sp = s.sell_from
        if sp < 0 or s.space_owner[sp] != p or s.space_industry[sp] not in (COTTON_MILL, FACTORY) or \
                s.space_flipped[sp]:  # fmt: skip
            raise bad("sell_from", "a buyer is awaited for goods that are not an unflipped mill or factory of the seat")
    elif s.sell_from >= 0:
        raise bad("sell_from", "a sale is in progress outside the sale decision")
    if (s.phase == DRAW_SECOND) != (s.draws_left == 1):
        raise bad("draws_left", "one card is still to draw exactly at the second draw decision")
    if s.round == 1 and s.actions_left > 1:
        raise bad("actions_left", "round 1 has one action a turn")
    if s.phase == OVER:
        deck_empty = s.deck_pos == len(s.deck)
        if not deck_empty or all(sum(h) for h in s.hand):
            raise bad("phase", "the game is over only when the deck is empty and a hand is empty")


def _flatten(v: Any) -> list[int]:
    if isinstance(v, list):
        return [x for item in v for x in _flatten(item)]
    return [v]


__all__ = ["NUM_FACE_UP", "state_from_dict"]
