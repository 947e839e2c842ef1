"""A 20th Century position rebuilt from what one seat observes: the starting point of its search player.

An agent is handed only its observation and the legal mask (the stacks' order and the face-down catastrophes are
hidden from every seat, ruling 36). :func:`from_observation` rebuilds, for a batch of observations, positions of
the batched engine that agree with everything the seat sees: the observer becomes seat 0 (the observation is
egocentric; the rules depend only on the order of play, which is observed), and observing the rebuilt position
from seat 0 gives back the observation, float for float (``tests/twentieth_century/test_from_observation.py``).

The observation shows tiles by their features, not by their codes: each land tile, technology and placed tile (a
nation's tiles by slot, each with its cell) is recognised by the features the observation itself gives every code
(computed once per set of components with the public ``observation.observe`` on made-up positions), and the tiles
that look alike are matched to the dealt codes (those not ``unseen``), each used once. What the observation does
not show is filled in:

- **arbitrarily, for ``engine.resample`` to redeal**: the order of each stack (its ``unseen`` tiles, sorted), the
  face-down catastrophes (each era's first unrevealed cards) and the seed (0);
- **derived as well as the observation allows** (these are public to a player with perfect recall, but the
  observation lacks them): the order in which a seat bought its technologies, which names its ``use h.k`` actions (by
  era, as one technology is bought a round, then consistent with the abilities marked used and with an ability in use
  that has something to act on; two technologies of one era whose flags do not tell them apart keep their code order,
  so the two may swap labels: the same abilities stay legal, under each other's ``use`` action); the order in which a
  seat won its pending land tiles and so the cubes each will bring (A8: the cube counts not yet on an attached tile,
  given in slot order); the tiles a seat has already recycled from in this production (a set of that many removals
  the working centres can make, chosen to leave the most tiles open; the true set may leave fewer); the tiles left
  over in earlier rounds (every dealt tile not in play, in code order); the victory points by source (all counted as
  production: only their sum is shown and used); the ledger (receipts equal to holdings); bookkeeping the rules
  overwrite before reading (the next leader before the catastrophe is resolved, the maintenance order before
  maintenance, the phase a withdrawal came from outside the technology purchase).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import combinations_with_replacement, permutations, product
from typing import Any

import numpy as np

from ...core.matching import assign_distinct
from ...core.spec import Piece, layout
from . import engine
from .actions import MAX_ABILITIES, NUM_DIRECTIONS
from .components import ERAS, MAX_CITIES, MULTI_USE, SINGLE_USE, GameData, load_data
from .geometry import MAX_TILES, placements, recycling_reaches
from .observation import layout as observation_pieces
from .observation import observe
from .reference import Game
from .rules import MAX_LAND_OFFER, MAX_PLAYERS, OFFERS, ROUNDS
from .state import CARD_CHOICES, GAME_NAME, JSON_VERSION, LEDGER, PHASES, SCORE_SOURCES

P = MAX_PLAYERS
Q = 720.0  # features are multiples of 1/3, 1/4, 1/5, 1/8, 1/9: scaled by 720 they are whole, keys exact
CUBES_COL, BOUGHT_COL = 5, 4  # a grid slot's cubes / 4 and 'bought this round'
X_COL, Y_COL = 54, 55  # a grid slot's cell: x / 8, y / 8 from the starting tile's
OCCUPIED_COLS = tuple(14 + 6 * j + 5 for j in range(MAX_CITIES))  # per city: exists, coins, science, VP, rec., occ.
CAT_ERAS = ("I-II", "I-II", "III-IV", "III-IV", "V")  # the catastrophe stack's five cards by era, top first (S4)
USABLE = frozenset(SINGLE_USE + MULTI_USE) - {"park"}  # abilities a player uses (the park: its effect only)
# the abilities that ask for each target decision (Cleanup and Quality of life act at once)
TARGET_KINDS = {"use_target": USABLE - {"cleanup", "quality_of_life"}, "bridge": frozenset({"bridge"})}


def _key(row: np.ndarray) -> bytes:
    return np.rint(np.asarray(row, np.float64) * Q).astype(np.int32).tobytes()


@dataclass(frozen=True)
class _Looks:
    """Which codes each look of a tile stands for: on offer (land, technology) and placed on a grid."""

    land: dict[bytes, list[int]]  # a land offer row ('on sale' 0) -> land codes
    tech: dict[bytes, list[int]]  # a technology offer row ('on sale' 0) -> technology indices
    cell: dict[bytes, list[tuple[int, int]]]  # a grid row (cubes, bought, occupied, cell 0) -> (tile code, bridge)


_PIECES: dict[str, dict[str, Piece]] = {}
_LOOKS: dict[str, _Looks] = {}


def _pieces(data: GameData) -> dict[str, Piece]:
    """The observation's pieces by name (kept per set of components)."""
    hit = _PIECES.get(data.sha256)
    if hit is None:
        hit = _PIECES[data.sha256] = {p.name: p for p in layout(observation_pieces(data))}
    return hit


def _view(obs: np.ndarray, at: dict[str, Piece], name: str) -> np.ndarray:
    p = at[name]
    return obs[p.slice].reshape(p.shape)


def _looks(data: GameData) -> _Looks:
    """Every code's look, read from observations of made-up five-player positions holding each tile on offer and
    each placement (tile, rotation, bridge) on a grid: the observation's own features, one source of truth (kept
    per set of components)."""
    hit = _LOOKS.get(data.sha256)
    if hit is None:
        hit = _LOOKS[data.sha256] = _read_looks(data)
    return hit


def _offer_looks(data: GameData, at: dict, piece: str, codes: list[int]) -> dict[bytes, list[int]]:
    """The codes (land tiles or technologies) that look alike in the offer ``piece``, by their row ('on sale' 0)."""
    looks: dict[bytes, list[int]] = {}
    per_game = at[piece].shape[0]
    for i in range(0, len(codes), per_game):
        g = Game(5, seed=0, data=data)
        setattr(g, piece, codes[i : i + per_game])
        rows = _view(observe(g, 0), at, piece)
        for s, code in enumerate(getattr(g, piece)):
            r = rows[s].copy()
            r[0] = 0
            looks.setdefault(_key(r), []).append(code)
    return looks


def _read_looks(data: GameData) -> _Looks:
    at = _pieces(data)
    L = len(data.land)
    cell: dict[bytes, list[tuple[int, int]]] = {}
    land = _offer_looks(data, at, "land_offer", list(range(1, L)))
    tech = _offer_looks(data, at, "tech_offer", list(range(len(data.technologies))))
    codes = list(range(L)) + [L + t for t, tt in enumerate(data.technologies) if tt.institution]
    placements = [(code, rot, b) for code in codes for rot in range(4) for b in range(-1, len(data.tile(code).bridges))]
    per_game = P * MAX_TILES
    for i in range(0, len(placements), per_game):
        g = Game(5, seed=0, data=data)
        chunk = placements[i : i + per_game]
        for k, (code, rot, b) in enumerate(chunk):
            q, c = divmod(k, MAX_TILES)  # seat q's slot c, on a cell of its own: a row of tiles going east
            g.grid_tile[q][c], g.grid_rot[q][c], g.grid_bridge[q][c] = code, rot, b
            g.grid_citizens[q][c], g.grid_cubes[q][c] = 0, 0
            g.grid_x[q][c], g.grid_y[q][c] = c, 0
        grids = _view(observe(g, 0), at, "grids")
        for k, (code, _, b) in enumerate(chunk):
            q, c = divmod(k, MAX_TILES)
            cell.setdefault(_key(_plain_cell(grids[q, c])), []).append((code, b))
    return _Looks(land, tech, cell)


def _plain_cell(row: np.ndarray) -> np.ndarray:
    """A grid row without what is not the tile's own: its cubes, 'bought this round', citizens and cell."""
    r = np.array(row, np.float32)
    r[[CUBES_COL, BOUGHT_COL, *OCCUPIED_COLS, X_COL, Y_COL]] = 0
    return r


class _Refused(ValueError):
    """What does not add up in an observation (said again with the observation's row)."""


def _match(items: list[tuple[str, list[int]]], what: str) -> list[int]:
    """A distinct code for every item (name, candidate codes); ValueError naming the first item left without one."""
    for name, cands in items:
        if not cands:
            raise _Refused(f"{name} is no {what} of these components that was dealt and not elsewhere")
    codes = assign_distinct([cands for _, cands in items])
    if -1 in codes:
        raise _Refused(f"{items[codes.index(-1)][0]}: more {what}s look like it than were dealt")
    return codes


def _offer_rows(name: str, rows: np.ndarray, looks_of: dict, pend: np.ndarray, pend_from: int, on_sale: set[int],
                held_by: Any) -> tuple[list[tuple[str, list[int]]], list[tuple[str, int, int]]]:  # fmt: skip
    """The tiles an offer's rows show, each with the codes it may be (a tile on sale: one of ``on_sale``; a tile
    bought and not yet attached: one ``held_by(seat)`` of the seat whose ``pending`` flag holds its slot; ``pend``:
    the flags of the game's seats), and where
    each goes: ('offer', -1, slot) or ('pending', seat, slot)."""
    items: list[tuple[str, list[int]]] = []
    where: list[tuple[str, int, int]] = []
    for s, row in enumerate(rows):
        if row.max() == 0:
            continue
        plain = row.copy()
        plain[0] = 0  # the "on sale" flag: the tile's look is the rest
        looks_like = looks_of.get(_key(plain), [])
        if row[0] > 0.5:
            items.append((f"{name} slot {s}", [c for c in looks_like if c in on_sale]))
            where.append(("offer", -1, s))
            continue
        who = [q for q in range(pend.shape[0]) if pend[q, pend_from + s]]
        if len(who) != 1:
            raise _Refused(f"{name} slot {s} is neither on sale nor pending for one seat")
        items.append((f"{name} slot {s} (pending)", [c for c in looks_like if c in held_by(who[0])]))
        where.append(("pending", who[0], s))
    return items, where


def _whole(x: Any, scale: float = 1.0) -> int:
    return int(np.rint(float(x) * scale))


def _onehot(x: np.ndarray) -> int:
    """The index of the 1 of a one-hot vector, -1 where it is all zeros."""
    return int(np.argmax(x)) if x.max() > 0.5 else -1


def _tech_orders(data: GameData, owned: list[int], used: np.ndarray, in_hand: tuple[int, int], in_use: int,
                 kinds: frozenset[str], coins: int) -> list[list[int]]:  # fmt: skip
    """The purchase orders of the technologies ``owned`` (one a round, so by era; code order first) agreeing with the
    abilities marked used (``used``: [5, 2] flags by position), the Workers and bridges still in hand and the ability
    in use (``in_use`` = h * 2 + k, -1 none; one of ``kinds``, those that ask for the decision awaited, and one the
    seat's ``coins`` pay for: a Recycling is paid on taking its target). Whether the ability in use has something
    to act on is the nation's to say: :func:`_game` takes the first order whose position passes the checks."""
    by_era = [sorted(t for t in owned if data.technologies[t].stack == e) for e in ERAS]

    def fits(order: list[int]) -> bool:
        for h, t in enumerate(order):
            abilities = data.technologies[t].abilities
            for k in range(MAX_ABILITIES):
                if used[h, k] > 0.5 and (k >= len(abilities) or abilities[k].kind not in USABLE):
                    return False
        for kind, count in zip(("workers", "bridge"), in_hand, strict=True):
            left = sum(used[h, k] < 0.5 and ab.kind == kind for h, t in enumerate(order)
                       for k, ab in enumerate(data.technologies[t].abilities))  # fmt: skip
            if left != count:
                return False
        if in_use >= 0:
            h, k = divmod(in_use, MAX_ABILITIES)
            if h >= len(order) or k >= len(data.technologies[order[h]].abilities) or used[h, k] > 0.5:
                return False
            if data.technologies[order[h]].abilities[k].kind not in kinds:
                return False
            if data.technologies[order[h]].abilities[k].cost > coins:
                return False
        return True

    orders = [order for parts in product(*(permutations(e) for e in by_era))
              if fits(order := [t for part in parts for t in part])]  # fmt: skip
    if not orders:
        raise _Refused("its technologies cannot be ordered to agree with the abilities marked used and in hand")
    return orders


def _used(data: GameData, flags: np.ndarray, order: list[int]) -> list[list[bool]]:
    """The abilities used of a seat's technologies bought in ``order``, from the flags by position ([5, 2])."""
    return [[bool(flags[h, k] > 0.5) for k in range(len(data.technologies[t].abilities))] for h, t in enumerate(order)]


def _removals(game: Game, p: int, count: int) -> list[int]:
    """``count`` tiles (slots) seat ``p``'s working centres can have recycled from (each removal its own centre,
    ruling 28), chosen to leave the most tiles open to the next removal."""
    if count == 0:
        return []
    centres = game.working_centres(p)
    nation = game.nation(p)
    cells = game.land_cells(p)
    reach = {c: {i for i, (rc, j) in enumerate(centres)
                 if recycling_reaches(nation, game.cell_of(p, rc), j, game.cell_of(p, c))} for c in cells}  # fmt: skip
    best: tuple[int, list[int]] | None = None
    for combo in combinations_with_replacement([c for c in cells if reach[c]], count):
        if not _assignable(list(combo), reach):
            continue
        left = sum(_assignable([*combo, c], reach) for c in cells if game.grid_cubes[p][c])
        if best is None or left > best[0]:
            best = (left, list(combo))
    if best is None:
        raise _Refused(f"{count} cubes recycled, more than seat {p}'s working centres can remove")
    return best[1]


def _assignable(cells: list[int], reach: dict[int, set[int]]) -> bool:
    """Can each removal get its own centre that reaches its tile?"""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for centre in reach[cells[i]]:
            if centre not in seen:
                seen.add(centre)
                if centre not in owner or augment(owner[centre], seen):
                    owner[centre] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(cells)))


def _document(obs: np.ndarray, data: GameData) -> tuple[dict[str, Any], int, list[tuple[list[int], list]]]:
    """The saved position (``Game.to_json``'s document) of one observation, the number of removals in this
    production (the tiles are chosen once the nations are built) and the purchase orders the seat to move may have,
    each with its abilities used (the document holds the first)."""
    at = _pieces(data)
    v = {name: _view(obs, at, name) for name in at}
    L, T = len(data.land), len(data.technologies)
    if v["num_players"].max() < 0.5:
        raise _Refused("'num_players' is not one-hot")
    n = int(np.argmax(v["num_players"])) + 3
    rnd = _onehot(v["round"]) + 1
    phase = PHASES[_onehot(v["phase"])]
    if phase == "over" or v["to_move"].max() < 0.5:
        raise _Refused("it is of a finished game (no seat to move)")
    to_move = _onehot(v["to_move"])
    if not 0 <= to_move < n or not (v["seat_present"][:n] > 0.5).all() or (v["seat_present"][n:] > 0.5).any():
        raise _Refused(f"'to_move' or 'seat_present' does not fit its {n} players")
    cards = [_onehot(v["scoring_cards"][k]) for k in range(2)]
    r2, r4 = (c if c < 3 else -1 for c in cards)
    lands_n, techs_n = OFFERS[n]
    if rnd > 5:
        lands_n = techs_n = 0
    unseen = v["unseen"] > 0.5
    unseen_land = [t for t in range(1, L) if unseen[t]]
    unseen_tech = [t for t in range(T) if unseen[L + t]]
    # -------------------------------------------------------------------------------- holdings and techs
    seats = v["seats"]
    track = len(data.pollution_final)
    owned_at = 5 + track + 8
    owned = [[t for t in range(T) if seats[q, owned_at + t] > 0.5] for q in range(n)]
    used_flags = seats[:, owned_at + T :].reshape(P, -1, MAX_ABILITIES)
    sel_v = v["selection"]
    n_land_slots, n_tech_slots = at["land_offer"].shape[0], at["tech_offer"].shape[0]
    in_use = _onehot(sel_v[6 + n_land_slots + n_tech_slots : -1])
    kinds = TARGET_KINDS.get(phase, frozenset())
    if phase == "use_target2":  # a train's first target is a city, a garbage truck's a cell
        kinds = frozenset({"train"} if sel_v[3:6].max() > 0.5 else {"garbage_truck"})
    techs = []
    orders: list[list[int]] = []
    for q in range(n):
        try:
            in_hand = (_whole(seats[q, owned_at - 2]), _whole(seats[q, owned_at - 1]))
            fitting = _tech_orders(data, owned[q], used_flags[q], in_hand, in_use if q == to_move else -1, kinds,
                                   _whole(seats[q, 0], 10))  # fmt: skip
        except _Refused as exc:
            raise _Refused(f"seat {q}: {exc}") from None
        techs.append(fitting[0])
        if q == to_move:
            orders = fitting
    looks = _looks(data)
    # -------------------------------------------------------------------------------- tiles: offers, grids
    land_rows, tech_rows = v["land_offer"], v["tech_offer"]
    pend = v["pending"] > 0.5
    dealt_land = set(range(1, L)) - set(unseen_land)
    owned_all = {t for o in owned for t in o}
    dealt_free_tech = set(range(T)) - set(unseen_tech) - owned_all
    land_items, land_where = _offer_rows("land_offer", land_rows, looks.land, pend[:n], 0, dealt_land,
                                         lambda q: dealt_land)  # fmt: skip
    tech_items, tech_where = _offer_rows("tech_offer", tech_rows, looks.tech, pend[:n], n_land_slots, dealt_free_tech,
                                         lambda q: owned[q])  # fmt: skip
    grids = v["grids"]
    grid_tile = [[-1] * MAX_TILES for _ in range(n)]
    grid_x = [[0] * MAX_TILES for _ in range(n)]
    grid_y = [[0] * MAX_TILES for _ in range(n)]
    grid_rot = [[0] * MAX_TILES for _ in range(n)]
    grid_bridge = [[-1] * MAX_TILES for _ in range(n)]
    grid_cubes = [[0] * MAX_TILES for _ in range(n)]
    grid_citizens = [[0] * MAX_TILES for _ in range(n)]
    grid_new = [[False] * MAX_TILES for _ in range(n)]
    cell_bridges: dict[tuple[int, int], dict[int, int]] = {}
    for q in range(n):
        for c in np.flatnonzero(grids[q, :, 0] > 0.5).tolist():
            row = grids[q, c]
            grid_x[q][c], grid_y[q][c] = _whole(row[X_COL], 8), _whole(row[Y_COL], 8)
            grid_rot[q][c] = _onehot(row[6:10])
            grid_cubes[q][c] = _whole(row[CUBES_COL], 4)
            grid_new[q][c] = bool(row[BOUGHT_COL] > 0.5)
            grid_citizens[q][c] = sum(1 << j for j, col in enumerate(OCCUPIED_COLS) if row[col] > 0.5)
            looked = looks.cell.get(_key(_plain_cell(row)), [])
            bridge_of: dict[int, int] = {}
            for code, b in looked:
                bridge_of.setdefault(code, b)
            cell_bridges[(q, c)] = bridge_of
            name = f"seat {q}'s grid slot {c} (cell {grid_x[q][c]},{grid_y[q][c]})"
            if row[3] > 0.5:  # the starting tile
                if 0 not in bridge_of:
                    raise _Refused(f"{name} is marked the starting tile but does not look like it")
                grid_tile[q][c], grid_bridge[q][c] = 0, bridge_of[0]
            elif row[1] > 0.5:
                land_items.append((name, [code for code in bridge_of if code in dealt_land]))
                land_where.append(("grid", q, c))
            else:
                tech_items.append((name, [code - L for code in bridge_of if code >= L and code - L in owned[q]]))
                tech_where.append(("grid", q, c))
    land_codes = _match(land_items, "land tile")
    tech_codes = _match(tech_items, "technology")
    land_offer = [-1] * lands_n
    tech_offer = [-1] * techs_n
    pending: list[list[list[int]]] = [[] for _ in range(n)]
    pending_tech: list[list[list[int]]] = [[] for _ in range(n)]
    for (kind, q, at_), code in zip(land_where, land_codes, strict=True):
        if kind == "offer":
            if at_ >= lands_n:
                raise _Refused(f"land_offer slot {at_}: a {n}-player game in round {rnd} offers {lands_n} tiles")
            land_offer[at_] = code
        elif kind == "pending":
            pending[q].append([code, at_, 0])
        else:
            grid_tile[q][at_], grid_bridge[q][at_] = code, cell_bridges[(q, at_)][code]
    for (kind, q, at_), t in zip(tech_where, tech_codes, strict=True):
        if kind == "offer":
            if at_ >= techs_n:
                raise _Refused(f"tech_offer slot {at_}: a {n}-player game in round {rnd} offers {techs_n} tiles")
            tech_offer[at_] = t
        elif kind == "pending":
            pending_tech[q].append([L + t, at_, 0])
        else:
            grid_tile[q][at_], grid_bridge[q][at_] = L + t, cell_bridges[(q, at_)][L + t]
    on_grid = {code for q in range(n) for code in grid_tile[q] if 0 < code < L}
    in_play = on_grid | {t for t in land_offer if t >= 0} | {e[0] for q in range(n) for e in pending[q]}
    discarded_land = sorted(dealt_land - in_play)
    discarded_tech = sorted(dealt_free_tech - {t for t in tech_offer if t >= 0})
    # -------------------------------------------------------------------------------- the auction
    auc = v["auction"]
    base = MAX_LAND_OFFER
    seat_col = lambda k: auc[base + 1 + k * P : base + 1 + (k + 1) * P]  # noqa: E731
    won = [_whole(x, 5) for x in seat_col(5)[:n]]
    for q in range(n):  # the k-th land tile won this round carries k cubes (A8); those attached show theirs
        attached = [grid_cubes[q][c] for c in range(MAX_TILES) if grid_new[q][c]]
        left = list(range(1, won[q] + 1))
        for k in attached:
            if k in left:
                left.remove(k)
        pending[q].sort(key=lambda e: e[1])
        for e, k in zip(pending[q], left[len(left) - len(pending[q]) :] if len(left) >= len(pending[q]) else
                        [0] * len(pending[q]), strict=True):  # fmt: skip
            e[2] = k
        pending[q] += pending_tech[q]
    auction_slot = _onehot(auc[:base])
    high_bidder = _onehot(seat_col(0)[:n])
    leader = _onehot(seat_col(1)[:n])
    withdrawn = [_whole(x, 5) for x in seat_col(3)[:n]]
    passed = [bool(x > 0.5) for x in seat_col(4)[:n]]
    # -------------------------------------------------------------------------------- catastrophes
    cat = v["catastrophe"]
    K = len(data.catastrophes)
    revealed = [k for k in range(K) if cat[15 + 7 * P + k] > 0.5]
    current = -1
    cols = cat[:15].reshape(5, 3)
    if cols.max() > 0:  # the card whose columns (garbage, pollution) are shown
        shown = [(_whole(cols[c, 0], 5), _whole(cols[c, 1], 3)) for c in range(5)]
        current = next((k for k in revealed if list(data.catastrophes[k].columns) == shown), -1)
    elif revealed:
        current = max(revealed, key=lambda k: ERAS.index(data.catastrophes[k].era))
    if current < 0 and revealed:
        raise _Refused("the catastrophe card shown is none of the revealed cards")
    order = sorted((k for k in revealed if k != current), key=lambda k: ERAS.index(data.catastrophes[k].era))
    cat_revealed = order + ([current] if current >= 0 else [])
    if [data.catastrophes[k].era for k in cat_revealed] != list(CAT_ERAS[: len(cat_revealed)]):
        raise _Refused("the revealed catastrophes are not the top of a stack of two I-II, two III-IV and one V")
    spare = {e: [k for k in range(K) if data.catastrophes[k].era == e and k not in revealed] for e in ERAS}
    cat_stack = [spare[e].pop(0) for e in CAT_ERAS[len(cat_revealed) :]]
    cat_col = [_onehot(cat[15 + 5 * q : 20 + 5 * q]) for q in range(n)]
    cat_bid = [_whole(cat[15 + 5 * P + q], 25) for q in range(n)]
    # -------------------------------------------------------------------------------- leaders and order
    resolved = phase not in ("lead", "open", "bid", "tech", "catastrophe")
    if resolved:
        if min(cat_col) < 0:
            raise _Refused("a pawn is missing from the catastrophe columns after the bidding")
        next_leader = min(range(n), key=lambda q: cat_col[q])
        maint_order = [(next_leader + k) % n for k in range(n)]
        maint_pos = (to_move - next_leader) % n
    else:  # overwritten by the rules before they read it (resolve_catastrophe, start_maintenance)
        next_leader = max(leader, 0)
        maint_order = [] if rnd == 1 else [(next_leader + k) % n for k in range(n)]
        maint_pos = 0 if rnd == 1 else n
    resume = ("bid" if auction_slot >= 0 else "lead") if phase == "tech" else ""
    # -------------------------------------------------------------------------------- the sub-decision
    sel: list[int] = []
    cell_sel = (_whole(sel_v[1], 8), _whole(sel_v[2], 8)) if sel_v[0] > 0.5 else None
    city_sel = _onehot(sel_v[3:6])
    slot_of = {(grid_x[to_move][k], grid_y[to_move][k]): k for k in range(MAX_TILES) if grid_tile[to_move][k] >= 0}
    slot_sel = slot_of.get(cell_sel, -1) if cell_sel is not None else -1  # the slot of the tile on the selected cell
    if phase in ("citizen", "use_target2", "bridge") and slot_sel < 0:
        raise _Refused(f"'selection' names cell {cell_sel}, which holds no tile of the seat to move")
    if phase in ("attach_cell", "attach_rotate"):
        slot = _onehot(sel_v[6 : 6 + n_land_slots + n_tech_slots])
        code = next((e[0] for e in pending[to_move] if (e[1] if e[0] < L else n_land_slots + e[1]) == slot
                     and slot >= 0), -1)  # fmt: skip
        if code < 0:
            raise _Refused("'selection' names no pending tile of the seat to move")
        sel = [code]
        if phase == "attach_rotate":  # the cell being attached on, named by its placement (slot x 8 + direction)
            named = placements(list(slot_of))  # the cells by slot (slots fill from 0: checked with the position)
            if cell_sel not in named:
                raise _Refused(f"'selection' names cell {cell_sel}, which is no empty cell touching the nation")
            slot, direction = named[cell_sel]
            sel.append(slot * NUM_DIRECTIONS + direction)
    elif phase == "citizen":
        sel = [grid_tile[to_move][slot_sel], slot_sel]
    elif phase in ("use_target", "use_target2", "bridge"):
        sel = list(divmod(in_use, MAX_ABILITIES))
        if phase != "use_target":
            sel.append(slot_sel * 3 + city_sel if city_sel >= 0 else slot_sel)
    removed_count = _whole(sel_v[-1], 5) if phase == "recycle" else 0
    # -------------------------------------------------------------------------------- holdings
    coins = [_whole(seats[q, 0], 10) for q in range(n)]
    science = [_whole(seats[q, 1], 10) for q in range(n)]
    markers = [[_whole(seats[q, 2 + r], 10) for r in range(3)] for q in range(n)]
    pollution = [_onehot(seats[q, 5 : 5 + track]) + data.pollution_low for q in range(n)]
    pending_cubes = [_whole(seats[q, 5 + track], 5) for q in range(n)]
    vp_total = [_whole(x, 50) for x in v["seat_vp"][:n]]
    used = [_used(data, used_flags[q], techs[q]) for q in range(n)]
    prices = v["prices"]
    cost_pos = max(_onehot(prices[8:]), 0)
    tech_stacks = {e: sorted(t for t in unseen_tech if data.technologies[t].stack == e) for e in ERAS}
    land_stacks = {e: sorted(t for t in unseen_land if data.land[t].stack == e) for e in ERAS}
    doc: dict[str, Any] = {
        "game": GAME_NAME, "version": JSON_VERSION, "data_sha256": data.sha256, "n": n, "seed": 0,
        "options": {"r2": CARD_CHOICES[r2 + 1] if r2 >= 0 else "none",
                    "r4": CARD_CHOICES[r4 + 1] if r4 >= 0 else "none"},
        "r2": r2, "r4": r4, "land_stacks": land_stacks, "tech_stacks": tech_stacks, "cat_stack": cat_stack,
        "cat_revealed": cat_revealed, "cat_current": current, "round": rnd, "phase": phase, "to_move": to_move,
        "next_leader": next_leader, "leader": max(leader, 0), "land_offer": land_offer, "tech_offer": tech_offer,
        "discarded_land": discarded_land, "discarded_tech": discarded_tech, "cost_pos": cost_pos,
        "auction_slot": auction_slot, "high_bid": _whole(auc[base], 10), "high_bidder": high_bidder,
        "withdrawn": withdrawn, "passed": passed, "won": won, "resume": resume, "cat_col": cat_col,
        "cat_bid": cat_bid, "maint_order": maint_order, "maint_pos": maint_pos, "coins": coins, "science": science,
        "pollution": pollution, "pending_cubes": pending_cubes, "pending": pending, "techs": techs, "used": used,
        "vp": [{**dict.fromkeys(SCORE_SOURCES, 0), "production": vp_total[q]} for q in range(n)],
        "ledger": [{**dict.fromkeys(LEDGER, 0), "coins_in": coins[q], "science_in": science[q],
                    "cubes_in": sum(grid_cubes[q]) + pending_cubes[q]} for q in range(n)],
        "grid_tile": grid_tile, "grid_x": grid_x, "grid_y": grid_y, "grid_rot": grid_rot, "grid_bridge": grid_bridge,
        "grid_cubes": grid_cubes, "grid_citizens": grid_citizens, "grid_new": grid_new, "sel": sel, "removed": [],
        "production_now": markers,
    }  # fmt: skip
    if rnd > ROUNDS - 1 and phase not in ("use", "use_target", "use_target2", "bridge", "recycle", "attach_pick",
                                          "attach_cell", "attach_rotate", "citizen", "garbage"):  # fmt: skip
        raise _Refused(f"round VI has no {phase} decision")
    return doc, removed_count, [(order, _used(data, used_flags[to_move], order)) for order in orders]


def game_from_observation(observation: np.ndarray, data: GameData | None = None) -> Game:
    """One observation (float32[D]) as a reference :class:`.reference.Game` seen by seat 0 (see
    :func:`from_observation`); ValueError naming what does not add up."""
    return _game(np.asarray(observation), data or load_data(), 0)


def _first_position(doc: dict[str, Any], orders: list[tuple[list[int], list]], data: GameData) -> Game:
    """The game of ``doc`` with the first purchase order of the seat to move (and its abilities used) that makes a
    position the checks pass (the ability in use must have something to act on); the first order's error if none
    does."""
    first: ValueError | None = None
    for techs, used in orders:
        doc["techs"][doc["to_move"]], doc["used"][doc["to_move"]] = techs, used
        try:
            return Game.from_json(json.dumps(doc), data=data)
        except ValueError as exc:
            first = first or exc
    assert first is not None  # _tech_orders gives at least one order
    raise first


def _game(obs: np.ndarray, data: GameData, i: int) -> Game:
    try:
        doc, removals, orders = _document(obs, data)
        game = _first_position(doc, orders, data)
        if removals:
            game.removed = _removals(game, game.to_move, removals)
    except ValueError as exc:
        raise ValueError(f"from_observation: observation {i}: {exc} (not an observation of 20th Century with "
                         f"these components?)") from None  # fmt: skip
    return game


def from_observation(observations: np.ndarray, data: GameData | None = None) -> engine.State:
    """A State of B positions, game i consistent with ``observations[i]`` (float32[B, D]) as seat 0 sees it.

    The observer is seat 0 and the other seats follow clockwise, as in the observation. Refuses with ValueError
    an array of the wrong shape, a finished game (its observation no longer says whose turn it is) or an
    observation whose pieces do not add up (tiles that were not dealt, pending tiles no seat holds, ...)."""
    data = data or load_data()
    at = _pieces(data)
    size = at["unseen"].offset + at["unseen"].size
    obs = np.asarray(observations)
    if obs.ndim != 2 or obs.shape[1] != size or obs.shape[0] == 0:
        raise ValueError(f"from_observation: observations must be float[B, {size}] with B >= 1, got shape "
                         f"{list(obs.shape)}")  # fmt: skip
    if not np.isfinite(obs).all():
        bad = int(np.flatnonzero(~np.isfinite(obs).all(axis=1))[0])
        raise ValueError(f"from_observation: observation {bad} holds NaN or an infinity")
    return engine.from_games([_game(obs[i], data, i) for i in range(obs.shape[0])])


__all__ = ["from_observation", "game_from_observation"]
