"""Checking a saved 20th Century position: :func:`check_position` refuses a corrupt, inconsistent or unplayable
document with a :class:`GameStateError` naming the entry and what is wrong, before any of it is used; and
:func:`check_decision` refuses a position whose decision (``phase``) cannot be continued from the rest of it.

Every number must fit the batched engine's State, which holds each count as int16 (at most 32,767), with room for
the rest of a game: a saved position holds at most :data:`COUNT_LIMIT` coins, science, victory points of a source
(and in all), production, receipts and payments of the ledger, and at most :data:`CUBE_LIMIT` cubes a seat (on its
tiles, waiting and on its pending tiles). What the rest of a game can add to any of them keeps it below 32,767
(``tests/twentieth_century/test_positions.py`` works it out from the loader's bounds); real games end in the
hundreds."""

from __future__ import annotations

from typing import Any

import numpy as np

from .actions import CITY, NUM_BIDS, NUM_DIRECTIONS, TILE
from .components import ERAS, MAX_CITIES, GameData
from .geometry import DIRECTIONS, MAX_TILES, START_CELL
from .rules import ERA_OF_ROUND, LAST_FULL_ROUND, OFFERS, ROUNDS
from .state import CARD_CHOICES, FIELDS, GAME_NAME, JSON_VERSION, LEDGER, PHASES, SCORE_SOURCES, GameStateError

INT16_MAX = int(np.iinfo(np.int16).max)  # the batched engine's counts (state.BATCH_FIELDS)
COUNT_LIMIT = 9_999  # coins, science, VP, production, the ledger's entries: at most this in a saved position
CUBE_LIMIT = 999  # a seat's garbage cubes in a saved position
MAX_TECHS = LAST_FULL_ROUND  # one technology a withdrawal, one withdrawal a round (ruling 11)
CAT_ERAS = ("I-II", "I-II", "III-IV", "III-IV", "V")  # the catastrophe stack by era, top first (S4)
AUCTION = ("lead", "open", "bid", "tech", "catastrophe")
MAINTENANCE = ("attach_pick", "attach_cell", "attach_rotate", "citizen", "garbage", "use", "use_target",
               "use_target2", "bridge")  # fmt: skip
TARGETED = ("workers", "bridge", "separated_collection", "train", "garbage_truck", "recycling")  # ask for a target
WHY_LIMIT = "the batched engine keeps 16-bit counts, and the rest of a game must fit in them"


def _fail(entry: str, why: str) -> None:
    raise GameStateError(f"saved game: {entry}: {why}")


def _int(doc: Any, entry: str, lo: int, hi: int) -> int:
    v = doc.get(entry) if isinstance(doc, dict) else doc
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(entry, f"must be a whole number in {lo}..{hi}, not {v!r}")
    return v


def _count(v: Any, entry: str, lo: int, limit: int) -> int:
    """A count the batched engine holds: a whole number from ``lo`` to ``limit``, the limit named if passed."""
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(entry, f"must be a whole number, not {v!r}")
    if not lo <= v <= limit:
        _fail(entry, f"{v} is outside {lo}..{limit:,}, the most a saved position may hold ({WHY_LIMIT})")
    return v


def _ints(v: Any, entry: str, length: int | None, lo: int, hi: int) -> list[int]:
    if not isinstance(v, list) or (length is not None and len(v) != length):
        _fail(entry, f"must be a list of {length if length is not None else 'some'} whole numbers")
    for i, x in enumerate(v):
        _int(x, f"{entry}[{i}]", lo, hi)
    return v


def _counts(v: Any, entry: str, length: int, lo: int, limit: int) -> list[int]:
    if not isinstance(v, list) or len(v) != length:
        _fail(entry, f"must be a list of {length} whole numbers")
    for i, x in enumerate(v):
        _count(x, f"{entry}[{i}]", lo, limit)
    return v


def _bools(v: Any, entry: str, length: int) -> None:
    if not isinstance(v, list) or len(v) != length or not all(isinstance(x, bool) for x in v):
        _fail(entry, f"must be a list of {length} true/false values")


def check_position(doc: Any, data: GameData) -> None:
    """Every entry of a saved position present, of its type and within what the batched engine holds; and
    consistent: every tile of every kind (land, institution, technology, the starting tiles) in exactly one place,
    citizens only on cities, the catastrophes a stack of the book's eras revealed one a round."""
    if not isinstance(doc, dict):
        _fail("top", "must be a JSON object")
    if doc.get("game") != GAME_NAME:
        _fail("game", f"must be {GAME_NAME!r}, not {doc.get('game')!r}")
    if doc.get("version") != JSON_VERSION:
        _fail("version", f"must be {JSON_VERSION}, not {doc.get('version')!r}")
    if data.sha256 and doc.get("data_sha256") != data.sha256:
        _fail("data_sha256", "the position was saved on other component data")
    known = {"game", "version", "data_sha256", *FIELDS}
    for k in sorted(set(doc) - known):
        _fail(k, "is not an entry of a position")
    for k in FIELDS:
        if k not in doc:
            _fail(k, "is missing")
    n = _int(doc, "n", 3, 5)
    L, T, K = len(data.land), len(data.technologies), len(data.catastrophes)
    _int(doc, "seed", -(2**63), 2**63 - 1)
    opts = doc["options"]
    if not isinstance(opts, dict) or set(opts) != {"r2", "r4"} or not all(v in CARD_CHOICES for v in opts.values()):
        _fail("options", f"must be {{'r2': ..., 'r4': ...}} with values among {', '.join(CARD_CHOICES)}")
    _int(doc, "r2", -1, 2)
    _int(doc, "r4", -1, 2)
    rnd = _int(doc, "round", 1, ROUNDS)
    if doc["phase"] not in PHASES:
        _fail("phase", f"must be one of {', '.join(PHASES)}, not {doc['phase']!r}")
    over = doc["phase"] == "over"
    _int(doc, "to_move", -1 if over else 0, -1 if over else n - 1)
    for k in ("next_leader", "leader"):
        _int(doc, k, 0, n - 1)
    for k, kind in (("land_stacks", L), ("tech_stacks", T)):
        stacks = doc[k]
        if not isinstance(stacks, dict) or set(stacks) != set(ERAS):
            _fail(k, f"must map the eras {', '.join(ERAS)} to lists")
        items = data.land if k == "land_stacks" else data.technologies
        for era in ERAS:
            for i, t in enumerate(_ints(stacks[era], f"{k}.{era}", None, 0, kind - 1)):
                if items[t].stack != era:
                    _fail(f"{k}.{era}[{i}]", f"tile {items[t].id} belongs to stack {items[t].stack}")
    lands, techs = OFFERS[n]
    era = ERA_OF_ROUND.get(rnd, "V")  # round VI reads the last era's track (Game.tech_price)
    offer_len = (0, 0) if rnd == ROUNDS else (None, None)
    # the starting tile (land tile 0) is never dealt: one is on each nation from the start (S7)
    _ints(doc["land_offer"], "land_offer", offer_len[0], -1, L - 1)
    _ints(doc["tech_offer"], "tech_offer", offer_len[1], -1, T - 1)
    if len(doc["land_offer"]) > lands or len(doc["tech_offer"]) > techs:
        _fail("land_offer", f"a {n}-player game offers at most {lands} land and {techs} technology tiles")
    for k, items in (("land_offer", data.land), ("tech_offer", data.technologies)):
        for s, t in enumerate(doc[k]):
            if k == "land_offer" and t == 0:
                _fail(f"{k}[{s}]", "the starting tile is never offered")
            if t >= 0 and items[t].stack != era:
                _fail(f"{k}[{s}]", f"tile {items[t].id} of stack {items[t].stack} is not dealt in round {rnd}")
    _ints(doc["discarded_land"], "discarded_land", None, 1, L - 1)
    _ints(doc["discarded_tech"], "discarded_tech", None, 0, T - 1)
    stack = _ints(doc["cat_stack"], "cat_stack", None, 0, K - 1)
    revealed = _ints(doc["cat_revealed"], "cat_revealed", None, 0, K - 1)
    cats = revealed + stack
    if len(set(cats)) != len(cats) or len(cats) != len(CAT_ERAS):
        _fail("cat_stack", "the stack and the revealed cards must be five distinct catastrophes")
    if [data.catastrophes[k].era for k in cats] != list(CAT_ERAS):
        _fail("cat_stack", f"the catastrophes, revealed then face down, must be of the eras {', '.join(CAT_ERAS)}")
    if len(revealed) != min(rnd, LAST_FULL_ROUND):
        _fail("cat_revealed", f"round {rnd} has revealed {min(rnd, LAST_FULL_ROUND)} catastrophes, one a round")
    if _int(doc, "cat_current", -1, K - 1) != revealed[-1]:
        _fail("cat_current", "must be the last catastrophe revealed")
    track = data.tech_cost[era]
    _int(doc, "cost_pos", 0, len(track) - 1)  # the cost track of the era has len(track) spaces
    _int(doc, "auction_slot", -1, lands - 1)
    _count(doc["high_bid"], "high_bid", 0, COUNT_LIMIT)
    _int(doc, "high_bidder", -1, n - 1)
    withdrawn = _ints(doc["withdrawn"], "withdrawn", n, 0, n)
    if sorted(w for w in withdrawn if w) != list(range(1, 1 + sum(1 for w in withdrawn if w))):
        _fail("withdrawn", "the seats out of the auction must be ranked 1, 2, ... in the order they withdrew")
    _bools(doc["passed"], "passed", n)
    won = _ints(doc["won"], "won", n, 0, lands)
    if doc["resume"] not in ("", "lead", "bid"):
        _fail("resume", "must be '', 'lead' or 'bid'")
    used_columns = data.columns_used(n)
    for q, (c, b) in enumerate(zip(_ints(doc["cat_col"], "cat_col", n, -1, 4), _ints(doc["cat_bid"], "cat_bid", n,
                                                                                     0, 25), strict=True)):  # fmt: skip
        if c >= 0 and c not in used_columns:
            _fail(f"cat_col[{q}]", f"column {c} is not used with {n} players (ruling 17)")
        if c < 0 and b:
            _fail(f"cat_bid[{q}]", "a bid without a pawn")
    order = _ints(doc["maint_order"], "maint_order", None, 0, n - 1)
    if order and order != [(order[0] + k) % n for k in range(n)]:
        _fail("maint_order", "must list every seat once, clockwise from the first")
    _int(doc, "maint_pos", 0, n)
    for k in ("coins", "science"):
        _counts(doc[k], k, n, 0, COUNT_LIMIT)
    _counts(doc["pending_cubes"], "pending_cubes", n, 0, CUBE_LIMIT)
    _ints(doc["pollution"], "pollution", n, data.pollution_low, data.pollution_high)
    for k, keys, lo in (("vp", SCORE_SOURCES, -COUNT_LIMIT), ("ledger", LEDGER, 0)):
        if not isinstance(doc[k], list) or len(doc[k]) != n:
            _fail(k, f"must be a list of {n} tables")
        for p, table in enumerate(doc[k]):
            if not isinstance(table, dict) or set(table) != set(keys):
                _fail(f"{k}[{p}]", f"must have exactly the keys {', '.join(keys)}")
            for key, v in table.items():
                _count(v, f"{k}[{p}].{key}", lo, COUNT_LIMIT)
        if k == "vp":
            for p, table in enumerate(doc[k]):
                _count(sum(table.values()), f"vp[{p}] (the sum)", lo, COUNT_LIMIT)
    for k in ("grid_tile", "grid_x", "grid_y", "grid_rot", "grid_bridge", "grid_cubes", "grid_citizens", "grid_new",
              "pending", "techs", "used", "production_now"):  # fmt: skip
        if not isinstance(doc[k], list) or len(doc[k]) != n:
            _fail(k, f"must be a list of {n} entries, one a seat")
    where_land: dict[int, str] = {}
    where_tech: dict[int, str] = {}
    where_institution: dict[int, str] = {}

    def put(table: dict[int, str], t: int, place: str) -> None:
        if t in table:
            _fail(place, f"tile {t} is also in {table[t]}: every tile is in exactly one place")
        table[t] = place

    for e in ERAS:
        for t in doc["land_stacks"][e]:
            put(where_land, t, f"land_stacks.{e}")
        for t in doc["tech_stacks"][e]:
            put(where_tech, t, f"tech_stacks.{e}")
    for s, t in enumerate(doc["land_offer"]):
        if t >= 0:
            put(where_land, t, f"land_offer[{s}]")
    for s, t in enumerate(doc["tech_offer"]):
        if t >= 0:
            put(where_tech, t, f"tech_offer[{s}]")
    for t in doc["discarded_land"]:
        put(where_land, t, "discarded_land")
    for t in doc["discarded_tech"]:
        put(where_tech, t, "discarded_tech")
    pending_slots: dict[tuple[bool, int], str] = {}
    for p in range(n):
        owned = _ints(doc["techs"][p], f"techs[{p}]", None, 0, T - 1)
        if len(owned) > min(rnd, MAX_TECHS):
            _fail(f"techs[{p}]", f"{len(owned)} technologies by round {rnd}: one a round at most (ruling 11)")
        for t in owned:
            put(where_tech, t, f"techs[{p}]")
        used = doc["used"][p]
        if not isinstance(used, list) or len(used) != len(owned):
            _fail(f"used[{p}]", "must hold one list of flags per technology owned")
        for h, t in enumerate(owned):
            _bools(used[h], f"used[{p}][{h}]", len(data.technologies[t].abilities))
        tiles = _ints(doc["grid_tile"][p], f"grid_tile[{p}]", MAX_TILES, -1, L + T - 1)
        xs = _ints(doc["grid_x"][p], f"grid_x[{p}]", MAX_TILES, -MAX_TILES, MAX_TILES)
        ys = _ints(doc["grid_y"][p], f"grid_y[{p}]", MAX_TILES, -MAX_TILES, MAX_TILES)
        _ints(doc["grid_rot"][p], f"grid_rot[{p}]", MAX_TILES, 0, 3)
        cubes = _counts(doc["grid_cubes"][p], f"grid_cubes[{p}]", MAX_TILES, 0, CUBE_LIMIT)
        _ints(doc["grid_citizens"][p], f"grid_citizens[{p}]", MAX_TILES, 0, 7)
        _ints(doc["grid_bridge"][p], f"grid_bridge[{p}]", MAX_TILES, -1, 3)
        _bools(doc["grid_new"][p], f"grid_new[{p}]", MAX_TILES)
        _check_slots(p, tiles, xs, ys)
        for c, code in enumerate(tiles):
            entry = f"grid_tile[{p}][{c}]"
            if code < 0:
                if cubes[c] or doc["grid_citizens"][p][c] or doc["grid_bridge"][p][c] >= 0 or doc["grid_new"][p][c]:
                    _fail(entry, "an empty slot holds cubes, citizens, a bridge or a tile bought this round")
                continue
            if code >= L:
                tech = data.technologies[code - L]
                if not tech.institution:
                    _fail(entry, f"technology {tech.id} is no institution: it is never attached to a nation")
                if (code - L) not in owned:
                    _fail(entry, f"institution {tech.id} is not among seat {p}'s technologies")
                put(where_institution, code - L, entry)
            tile = data.tile(code)
            if 0 < code < L:
                put(where_land, code, entry)
            elif doc["grid_new"][p][c]:
                _fail(f"grid_new[{p}][{c}]", "only a land tile bought this round is new (never the starting tile or "
                      "an institution)")  # fmt: skip
            if doc["grid_citizens"][p][c] >> len(tile.cities):
                _fail(f"grid_citizens[{p}][{c}]", f"a citizen on a city tile {tile.id} does not have")
            if doc["grid_bridge"][p][c] >= len(tile.bridges):
                _fail(f"grid_bridge[{p}][{c}]", f"tile {tile.id} has {len(tile.bridges)} bridge placements")
            if code >= L and cubes[c]:
                _fail(f"grid_cubes[{p}][{c}]", "an institution never holds cubes ('non ha mai ... cubi rifiuti')")
        pending = doc["pending"][p]
        if not isinstance(pending, list):
            _fail(f"pending[{p}]", "must be a list")
        purchase_cubes = []
        institutions = 0
        for i, e in enumerate(pending):
            entry = f"pending[{p}][{i}]"
            if not isinstance(e, list) or len(e) != 3:
                _fail(entry, "must be [tile code, slot, cubes]")
            code = _int(e[0], entry + "[0]", 1, L + T - 1)
            land = code < L
            offer = doc["land_offer"] if land else doc["tech_offer"]
            if not offer:
                _fail(entry, "no tile of its kind was offered this round")
            slot = _int(e[1], entry + "[1]", 0, len(offer) - 1)
            if offer[slot] >= 0:
                _fail(entry + "[1]", f"slot {slot} still offers its tile: a pending tile left its slot")
            put(pending_slots, (land, slot), entry)
            if land:
                put(where_land, code, entry)
                purchase_cubes.append(_int(e[2], entry + "[2]", 1, lands))
            else:
                tech = data.technologies[code - L]
                if not tech.institution or (code - L) not in owned:
                    _fail(entry, "a pending technology tile must be an institution the seat owns")
                _int(e[2], entry + "[2]", 0, 0)
                put(where_institution, code - L, entry)
                institutions += 1
        if institutions > 1:
            _fail(f"pending[{p}]", "two institutions pending: one technology a round (ruling 11)")
        if len(set(purchase_cubes)) != len(purchase_cubes) or any(k > won[p] for k in purchase_cubes):
            _fail(f"pending[{p}]", f"the k-th land tile won this round brings k cubes (A8), and seat {p} won "
                  f"{won[p]}")  # fmt: skip
        held = sum(cubes) + doc["pending_cubes"][p] + sum(purchase_cubes)
        _count(held, f"grid_cubes[{p}] (the seat's cubes, placed and waiting)", 0, CUBE_LIMIT)
        for t in owned:
            if data.technologies[t].institution and t not in where_institution:
                _fail(f"techs[{p}]", f"institution {data.technologies[t].id} is neither attached nor pending")
        _counts(doc["production_now"][p], f"production_now[{p}]", 3, 0, COUNT_LIMIT)
    for t in range(1, L):
        if t not in where_land:
            _fail("land", f"land tile {data.land[t].id} is nowhere: every tile is in exactly one place")
    for t in range(T):
        if t not in where_tech:
            _fail("technologies", f"technology {data.technologies[t].id} is nowhere")
    _ints(doc["sel"], "sel", None, 0, max(L + T, MAX_TILES * NUM_DIRECTIONS, MAX_TILES * MAX_CITIES) - 1)
    if len(doc["sel"]) > 3:
        _fail("sel", "a sub-decision holds at most three numbers")
    _ints(doc["removed"], "removed", None, 0, MAX_TILES - 1)


def _check_slots(p: int, tiles: list[int], xs: list[int], ys: list[int]) -> None:
    """A nation's slots: the starting tile in slot 0 on (0, 0), the tiles in the slots before the empty ones, each
    on its own cell, all joined to the starting tile edge to edge or corner to corner (Aggancio), empty slots on
    (0, 0)."""
    if tiles[0] != 0 or tiles.count(0) != 1 or (xs[0], ys[0]) != START_CELL:
        _fail(f"grid_tile[{p}]", f"the starting tile (0) must be in slot 0, on cell {START_CELL}, once")
    count = next((c for c, code in enumerate(tiles) if code < 0), len(tiles))
    seen: set[tuple[int, int]] = set()
    for c, code in enumerate(tiles):
        cell = (xs[c], ys[c])
        if c >= count:
            if code >= 0:
                _fail(f"grid_tile[{p}][{c}]", f"slot {c} follows an empty slot: a nation's tiles fill slots 0 up")
            if cell != (0, 0):
                _fail(f"grid_x[{p}][{c}]", "an empty slot's cell must be (0, 0)")
            continue
        if cell in seen:
            _fail(f"grid_x[{p}][{c}]", f"cell {cell} holds two tiles")
        seen.add(cell)
    joined, todo = {START_CELL}, [START_CELL]
    while todo:
        x, y = todo.pop()
        for dx, dy in DIRECTIONS:
            if (x + dx, y + dy) in seen and (x + dx, y + dy) not in joined:
                joined.add((x + dx, y + dy))
                todo.append((x + dx, y + dy))
    for c in range(count):
        if (xs[c], ys[c]) not in joined:
            _fail(f"grid_x[{p}][{c}]", f"cell {(xs[c], ys[c])} is not joined to the starting tile by tiles touching "
                  "edge to edge or corner to corner (Aggancio)")  # fmt: skip


def check_decision(game: Any) -> None:
    """The decision awaited (``game.phase``) fits the rest of the position and can be continued: the seat to move
    is the one the phase asks, what it reads (the tile under auction, the pending tiles, the tile being attached,
    the ability in use, ...) is there, and at least one action is legal. ``game`` is a :class:`.reference.Game`
    whose entries passed :func:`check_position`."""
    g, ph, p = game, game.phase, game.to_move
    rnd, n = g.round, g.n

    def bad(entry: str, why: str) -> None:
        _fail(entry, f"{why} (phase {ph!r}, round {rnd}, seat {p} to move)")

    if ph == "over":
        if rnd != ROUNDS:
            bad("phase", f"a game is over after round {ROUNDS}")
        return
    if ph in AUCTION and rnd > LAST_FULL_ROUND:
        bad("phase", "round VI has no auction and no catastrophe")
    if ph not in ("bid", "tech") and any(g.passed):
        bad("passed", "a pass lasts only while its tile is under auction")
    if ph != "recycle" and g.removed:
        bad("removed", "cubes are recycled only in production")
    if ph in ("lead", "open", "bid", "tech") and any(c >= 0 for c in g.cat_col):
        bad("cat_col", "the pawns are placed after the land auction")
    under_auction = ph in ("open", "bid") or (ph == "tech" and g.resume == "bid")
    if under_auction:
        if g.auction_slot < 0 or g.land_offer[g.auction_slot] < 0:
            bad("auction_slot", "a land tile must be under auction")
    elif g.auction_slot >= 0 or g.high_bidder >= 0 or g.high_bid:
        bad("auction_slot", "no tile is under auction, so no slot, high bid or high bidder")
    if ph == "open" and (g.high_bidder >= 0 or g.high_bid):
        bad("high_bid", "nobody has bid on the tile just put up")
    if ph in ("bid", "tech") and under_auction:
        q = g.high_bidder
        if q < 0:
            bad("high_bidder", "a tile whose bidding has begun has a high bidder")
        if g.withdrawn[q] or g.passed[q]:
            bad("high_bidder", f"seat {q} holds the high bid but is out of the auction or passed")
        if not g.min_land_price() <= g.high_bid <= g.coins[q]:
            bad("high_bid", f"a bid is at least the minimum {g.min_land_price()} and at most the bidder's coins "
                f"({g.coins[q]})")  # fmt: skip
    for q in range(n):
        if g.passed[q] and g.withdrawn[q]:
            bad(f"passed[{q}]", "a seat out of the auction does not pass")
    if ph in ("lead", "open"):
        if p != g.leader or g.withdrawn[p]:
            bad("to_move", "the leader, still in the auction, puts a tile up and opens the bidding")
        if ph == "open" and g.coins[p] < g.min_land_price():
            bad("coins", f"the leader cannot open at the minimum {g.min_land_price()} with {g.coins[p]} coins")
    elif ph == "bid":
        if g.withdrawn[p] or g.passed[p]:
            bad("to_move", "the seat to bid is still in the auction and has not passed on this tile")
        if p == g.high_bidder and g.high_bid < g.min_land_price() + NUM_BIDS - 1:
            bad("to_move", "the high bidder is never asked to raise his own bid")
    elif ph == "tech":
        if not g.withdrawn[p] or g.withdrawn[p] != max(g.withdrawn):
            bad("withdrawn", "the seat buying a technology is the last to have withdrawn")
        if g.resume not in ("lead", "bid"):
            bad("resume", "a technology is bought on withdrawing from a 'lead' or a 'bid' decision")
    elif ph == "catastrophe":
        if not all(g.withdrawn):
            bad("withdrawn", "the catastrophe bidding follows the land auction, once everyone has withdrawn")
        if g.on_top(p):
            bad("to_move", "a player on top of his column is not asked")
    if ph in ("lead", "open", "bid", "tech", "catastrophe", "attach_pick", "garbage", "use", "recycle", "over"):
        if g.sel:
            bad("sel", "no sub-decision is in progress")
    if ph in MAINTENANCE or ph == "recycle":
        if not g.maint_order or g.maint_pos >= n or g.maint_order[g.maint_pos] != p:
            bad("maint_order", "the seat to move is the one at maint_pos in the maintenance order")
        done = g.maint_order[: g.maint_pos] if ph in MAINTENANCE else g.maint_order
        for q in done:
            if g.pending[q] or g.pending_cubes[q]:
                bad(f"pending[{q}]", f"seat {q} has done his maintenance: every tile attached, every cube placed")
    if ph in ("use", "use_target", "use_target2", "bridge", "garbage") and g.pending[p]:
        bad(f"pending[{p}]", "the tiles bought are attached first (ruling 16)")
    if ph in ("use", "use_target", "use_target2", "bridge") and g.pending_cubes[p]:
        bad(f"pending_cubes[{p}]", "the new cubes are placed before the technologies are used (ruling 16)")
    pending_codes = [e[0] for e in g.pending[p]]
    if ph == "attach_pick" and not pending_codes:
        bad(f"pending[{p}]", "there is no tile to attach")
    elif ph == "attach_cell":
        if len(g.sel) != 1 or g.sel[0] not in pending_codes:
            bad("sel", "must be [the code of a pending tile being attached]")
    elif ph == "attach_rotate":
        if len(g.sel) != 2 or g.sel[0] not in pending_codes or g.sel[1] not in g.placement_cells(p).values():
            bad("sel", "must be [a pending tile's code, the placement of an empty cell touching the nation (slot x 8 "
                "+ direction, from the lowest slot beside it)]")
    elif ph == "citizen":
        if (len(g.sel) != 2 or not 0 <= g.sel[1] < MAX_TILES or not 0 < g.sel[0] < len(g.data.land)
                or g.grid_tile[p][g.sel[1]] != g.sel[0] or g.sel[0] in pending_codes):  # fmt: skip
            bad("sel", "must be [the land tile just attached, its slot]")
        if g.grid_citizens[p][g.sel[1]]:
            bad(f"grid_citizens[{p}][{g.sel[1]}]", "the tile just attached has no citizen yet")
    elif ph == "garbage" and not g.pending_cubes[p]:
        bad(f"pending_cubes[{p}]", "there is no cube to place")
    elif ph in ("use_target", "use_target2", "bridge"):
        size = 2 if ph == "use_target" else 3
        if len(g.sel) != size or not 0 <= g.sel[0] < len(g.techs[p]) or not 0 <= g.sel[1] < len(g.used[p][g.sel[0]]):
            bad("sel", f"must be [a technology of the seat, one of its abilities{', a target' if size == 3 else ''}]")
        h, k = g.sel[:2]
        kind = g.ability(p, h, k).kind
        if kind not in TARGETED:
            bad("sel", f"the ability in use ({kind}) asks for no target")
        if kind == "recycling" and g.coins[p] < g.ability(p, h, k).cost:
            bad(f"coins[{p}]", f"the ability in use ({kind}) costs {g.ability(p, h, k).cost} coins")
        if ph == "use_target" and not g.first_targets(p):
            bad("sel", f"the ability in use ({kind}) has nothing to act on")
        if ph == "use_target2" and kind not in ("train", "garbage_truck"):
            bad("sel", f"the ability in use ({kind}) asks for one target")
        if ph == "bridge" and kind != "bridge":
            bad("sel", f"the ability in use ({kind}) places no bridge")
        if size == 3 and (CITY if kind == "train" else TILE) + g.sel[2] not in g.first_targets(p):
            bad("sel", f"the first target of the ability in use ({kind}) is not one it may take")
    elif ph == "recycle" and not g.removals_matchable(p):
        bad("removed", "each cube recycled in this production needs its own working centre that reaches it")
    if not g.legal_actions():
        bad("phase", "no action is legal in this position")
