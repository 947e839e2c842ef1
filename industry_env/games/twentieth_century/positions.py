"""Checking a saved 20th Century position: :func:`check_position` refuses a corrupt or inconsistent document with a
:class:`GameStateError` naming the entry and what is wrong, before any of it is used."""

from __future__ import annotations

from typing import Any

from .actions import cell_index
from .components import ERAS, GameData
from .geometry import CENTRE, NUM_CELLS
from .rules import OFFERS, ROUNDS
from .state import CARD_CHOICES, FIELDS, GAME_NAME, JSON_VERSION, LEDGER, PHASES, SCORE_SOURCES, GameStateError


def _fail(entry: str, why: str) -> None:
    raise GameStateError(f"saved game: {entry}: {why}")


def _int(doc: dict, entry: str, lo: int, hi: int) -> int:
    v = doc.get(entry) if isinstance(doc, dict) else doc
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        _fail(entry, f"must be a whole number in {lo}..{hi}, not {v!r}")
    return v


def _ints(v: Any, entry: str, length: int | None, lo: int, hi: int) -> list[int]:
    if not isinstance(v, list) or (length is not None and len(v) != length):
        _fail(entry, f"must be a list of {length if length is not None else 'some'} whole numbers")
    for i, x in enumerate(v):
        _int(x, f"{entry}[{i}]", lo, hi)
    return v


def _bools(v: Any, entry: str, length: int) -> None:
    if not isinstance(v, list) or len(v) != length or not all(isinstance(x, bool) for x in v):
        _fail(entry, f"must be a list of {length} true/false values")


def check_position(doc: Any, data: GameData) -> None:
    """Every entry of a saved position present, of its type and range, and consistent: each land tile and
    technology in exactly one place, citizens only on cities, the catastrophes distinct."""
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
    offer_len = (0, 0) if rnd == ROUNDS else (None, None)
    _ints(doc["land_offer"], "land_offer", offer_len[0], -1, L - 1)
    _ints(doc["tech_offer"], "tech_offer", offer_len[1], -1, T - 1)
    if len(doc["land_offer"]) > lands or len(doc["tech_offer"]) > techs:
        _fail("land_offer", f"a {n}-player game offers at most {lands} land and {techs} technology tiles")
    _ints(doc["discarded_land"], "discarded_land", None, 1, L - 1)
    _ints(doc["discarded_tech"], "discarded_tech", None, 0, T - 1)
    cats = _ints(doc["cat_stack"], "cat_stack", None, 0, K - 1) + _ints(doc["cat_revealed"], "cat_revealed", None, 0,
                                                                          K - 1)  # fmt: skip
    if len(set(cats)) != len(cats) or len(cats) != 5:
        _fail("cat_stack", "the stack and the revealed cards must be five distinct catastrophes")
    _int(doc, "cat_current", -1, K - 1)
    _int(doc, "cost_pos", 0, 6)
    _int(doc, "auction_slot", -1, lands - 1)
    _int(doc, "high_bid", 0, 10**9)
    _int(doc, "high_bidder", -1, n - 1)
    _ints(doc["withdrawn"], "withdrawn", n, 0, n)
    _bools(doc["passed"], "passed", n)
    _ints(doc["won"], "won", n, 0, lands)
    if doc["resume"] not in ("", "lead", "bid"):
        _fail("resume", "must be '', 'lead' or 'bid'")
    _ints(doc["cat_col"], "cat_col", n, -1, 4)
    _ints(doc["cat_bid"], "cat_bid", n, 0, 25)
    order = _ints(doc["maint_order"], "maint_order", None, 0, n - 1)
    if order and sorted(order) != list(range(n)):
        _fail("maint_order", "must list every seat once")
    _int(doc, "maint_pos", 0, n)
    for k in ("coins", "science", "pending_cubes"):
        _ints(doc[k], k, n, 0, 10**9)
    _ints(doc["pollution"], "pollution", n, data.pollution_low, data.pollution_high)
    for k, keys in (("vp", SCORE_SOURCES), ("ledger", LEDGER)):
        if not isinstance(doc[k], list) or len(doc[k]) != n:
            _fail(k, f"must be a list of {n} tables")
        for p, table in enumerate(doc[k]):
            if not isinstance(table, dict) or set(table) != set(keys):
                _fail(f"{k}[{p}]", f"must have exactly the keys {', '.join(keys)}")
            for key, v in table.items():
                _int(v, f"{k}[{p}].{key}", -(10**9), 10**9)
    for k in ("grid_tile", "grid_rot", "grid_bridge", "grid_cubes", "grid_citizens", "grid_new", "pending", "techs",
              "used", "production_now"):  # fmt: skip
        if not isinstance(doc[k], list) or len(doc[k]) != n:
            _fail(k, f"must be a list of {n} entries, one a seat")
    where_land: dict[int, str] = {}
    where_tech: dict[int, str] = {}

    def put(table: dict[int, str], t: int, place: str) -> None:
        if t in table:
            _fail(place, f"tile {t} is also in {table[t]}: every tile is in exactly one place")
        table[t] = place

    for era in ERAS:
        for t in doc["land_stacks"][era]:
            put(where_land, t, f"land_stacks.{era}")
        for t in doc["tech_stacks"][era]:
            put(where_tech, t, f"tech_stacks.{era}")
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
    for p in range(n):
        owned = _ints(doc["techs"][p], f"techs[{p}]", None, 0, T - 1)
        for t in owned:
            put(where_tech, t, f"techs[{p}]")
        used = doc["used"][p]
        if not isinstance(used, list) or len(used) != len(owned):
            _fail(f"used[{p}]", "must hold one list of flags per technology owned")
        for h, t in enumerate(owned):
            _bools(used[h], f"used[{p}][{h}]", len(data.technologies[t].abilities))
        tiles = _ints(doc["grid_tile"][p], f"grid_tile[{p}]", NUM_CELLS, -1, L + T - 1)
        _ints(doc["grid_rot"][p], f"grid_rot[{p}]", NUM_CELLS, 0, 3)
        _ints(doc["grid_cubes"][p], f"grid_cubes[{p}]", NUM_CELLS, 0, 10**6)
        _ints(doc["grid_citizens"][p], f"grid_citizens[{p}]", NUM_CELLS, 0, 7)
        _ints(doc["grid_bridge"][p], f"grid_bridge[{p}]", NUM_CELLS, -1, 3)
        _bools(doc["grid_new"][p], f"grid_new[{p}]", NUM_CELLS)
        if tiles[cell_index(*CENTRE)] != 0 or tiles.count(0) != 1:
            _fail(f"grid_tile[{p}]", "the starting tile (0) must be at the centre, once")
        for c, code in enumerate(tiles):
            entry = f"grid_tile[{p}][{c}]"
            if code < 0:
                if doc["grid_cubes"][p][c] or doc["grid_citizens"][p][c] or doc["grid_bridge"][p][c] >= 0:
                    _fail(entry, "an empty cell holds cubes, citizens or a bridge")
                continue
            tile = data.tile(code)
            if code >= L and (code - L) not in owned:
                _fail(entry, f"institution {tile.id} is not among seat {p}'s technologies")
            if code > 0 and code < L:
                put(where_land, code, entry)
            if doc["grid_citizens"][p][c] >> len(tile.cities):
                _fail(f"grid_citizens[{p}][{c}]", f"a citizen on a city tile {tile.id} does not have")
            if doc["grid_bridge"][p][c] >= len(tile.bridges):
                _fail(f"grid_bridge[{p}][{c}]", f"tile {tile.id} has {len(tile.bridges)} bridge placements")
            if code >= L and doc["grid_cubes"][p][c]:
                _fail(f"grid_cubes[{p}][{c}]", "an institution never holds cubes ('non ha mai ... cubi rifiuti')")
        pending = doc["pending"][p]
        if not isinstance(pending, list):
            _fail(f"pending[{p}]", "must be a list")
        for i, e in enumerate(pending):
            entry = f"pending[{p}][{i}]"
            if not isinstance(e, list) or len(e) != 3:
                _fail(entry, "must be [tile code, slot, cubes]")
            code = _int(e[0], entry + "[0]", 1, L + T - 1)
            _int(e[1], entry + "[1]", 0, lands - 1)
            _int(e[2], entry + "[2]", 0, lands)
            if code < L:
                put(where_land, code, entry)
            elif (code - L) not in owned:
                _fail(entry, "a pending institution not among the seat's technologies")
        prod = doc["production_now"][p]
        _ints(prod, f"production_now[{p}]", 3, 0, 10**6)
    for t in range(1, L):
        if t not in where_land:
            _fail("land", f"land tile {data.land[t].id} is nowhere: every tile is in exactly one place")
    for t in range(T):
        if t not in where_tech:
            _fail("technologies", f"technology {data.technologies[t].id} is nowhere")
    _ints(doc["sel"], "sel", None, -1, 10**6)
    _ints(doc["removed"], "removed", None, 0, NUM_CELLS - 1)
