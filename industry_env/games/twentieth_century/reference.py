"""The reference rules engine of 20th Century: one game in plain Python that reads like the rulebook.

Vladimír Suchý, *20th Century*, Czech Games Edition 2010, rulebook (Italian edition); sections cited by their
names, the sentence beside any line that is not obvious. Rulings on what the book leaves open are numbered in
``docs/twentieth-century/rules.md``; the code cites them as "ruling N".

A game is a sequence of decisions, each made by ``current_player`` choosing one of ``legal_actions()`` (the flat
encoding of :mod:`.actions`). Everything else runs by itself, and so does a decision with a single legal action
(ruling 20: a leader short of the minimum withdraws, a one-city tile's citizen is placed, ...). Chance comes only
at set-up (:mod:`.chance`): a seed and the actions reproduce a game. ``apply`` of a forbidden action raises
:class:`IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import numpy as np

from ...core.batched import MAX_SEED, is_whole
from ...core.matching import assign_distinct
from ...core.spec import check_seat
from ...core.textdata import TextDataError, parse_json
from . import actions as A
from . import chance
from .components import ERAS, INSTITUTIONS, MULTI_USE, GameData, load_data
from .geometry import (
    DIRECTIONS,
    MAX_TILES,
    START_CELL,
    Placed,
    global_components,
    institution_bonus,
    placements,
    recycling_reaches,
    train_connected,
)
from .observation import observe
from .positions import check_decision, check_position
from .render import render_text
from .rules import (
    BONUS_ROUNDS,
    CATASTROPHE_BID_MAX,
    CATASTROPHES_PER_ERA,
    ERA_OF_ROUND,
    LAST_FULL_ROUND,
    MIN_LAND_PRICE,
    OFFERS,
    R2_CARD_C_CLEAN_TILE,
    R4_CARD_A_PER_CENTRE,
    ROUNDS,
    SCORING_CARDS,
    START_COINS,
    START_CUBES,
    START_SCIENCE,
    consolation,
    extra_cube_penalty,
    rank_awards,
)
from .state import CARD_CHOICES, FIELDS, GAME_NAME, JSON_VERSION, LEDGER, SCORE_SOURCES, GameStateError


class IllegalActionError(ValueError):
    """An action that is not legal in the position; the game is unchanged."""


def _card(option: str, seed: int, purpose: int) -> int:
    if option == "none":
        return -1
    if option == "random":
        return chance.draw(seed, purpose, len(SCORING_CARDS))
    return SCORING_CARDS.index(option)


class Game:
    """One game of 20th Century for 3 to 5 players (seats 0..n-1 clockwise)."""

    def __init__(self, num_players: int = 4, seed: int = 0, r2: str = "random", r4: str = "random",
                 data: GameData | None = None) -> None:  # fmt: skip
        # whole numbers only (not 4.0, not True), as every game of the suite
        if not is_whole(num_players) or num_players not in OFFERS:
            raise ValueError(f"num_players={num_players!r}: 20th Century is played by 3 to 5 players")
        if not is_whole(seed) or not 0 <= int(seed) <= MAX_SEED:
            raise ValueError(f"seed={seed!r}: must be a whole number from 0 to 2**63 - 1")
        for name, v in (("r2", r2), ("r4", r4)):
            if v not in CARD_CHOICES:
                raise ValueError(f"{name}={v!r}: must be one of {', '.join(CARD_CHOICES)}")
        self.data = data or load_data()
        self._set_up(int(num_players), int(seed), r2, r4)
        self._advance()

    # ------------------------------------------------------------------------------------------- set-up
    def _set_up(self, n: int, seed: int, r2: str, r4: str) -> None:
        """Disposizione iniziale: scoring cards, shuffled stacks, five catastrophes, starting tiles, holdings."""
        d = self.data
        self.n, self.seed, self.options = n, seed, {"r2": r2, "r4": r4}
        self.r2, self.r4 = _card(r2, seed, chance.R2_CARD), _card(r4, seed, chance.R4_CARD)
        self.land_stacks = {e: chance.shuffle(d.stack("land", e), seed, chance.LAND + i) for i, e in enumerate(ERAS)}
        self.tech_stacks = {e: chance.shuffle(d.stack("tech", e), seed, chance.TECH + i) for i, e in enumerate(ERAS)}
        # 'Scegli casualmente cinque carte catastrofe: due etichettate I-II, due etichettate III-IV, e una
        # etichettata V. Impilale con I-II in cima, III-IV nel mezzo, e V sul fondo.'
        self.cat_stack: list[int] = []
        for i, era in enumerate(ERAS):
            cards = [k for k, c in enumerate(d.catastrophes) if c.era == era]
            self.cat_stack += chance.shuffle(cards, seed, chance.CATASTROPHE + i)[: CATASTROPHES_PER_ERA[era]]
        self.cat_revealed: list[int] = []
        self.cat_current = -1
        self.round, self.phase, self.to_move = 0, "lead", 0
        self.next_leader = chance.draw(seed, chance.FIRST_PLAYER, n)  # ruling 40: 'Il giocatore che odia di più'
        self.leader = self.next_leader
        self.land_offer: list[int] = []
        self.tech_offer: list[int] = []
        self.discarded_land: list[int] = []
        self.discarded_tech: list[int] = []
        self.cost_pos = 0
        self.auction_slot, self.high_bid, self.high_bidder = -1, 0, -1
        self.withdrawn, self.passed, self.won = [0] * n, [False] * n, [0] * n
        self.resume = ""
        self.cat_col, self.cat_bid = [-1] * n, [0] * n
        self.maint_order: list[int] = []
        self.maint_pos = 0
        self.coins, self.science = [START_COINS] * n, [START_SCIENCE] * n
        self.pollution = [d.pollution_start] * n
        self.pending_cubes = [0] * n
        self.pending: list[list[list[int]]] = [[] for _ in range(n)]  # [code, slot, purchase cubes]
        self.techs: list[list[int]] = [[] for _ in range(n)]
        self.used: list[list[list[bool]]] = [[] for _ in range(n)]
        self.vp = [dict.fromkeys(SCORE_SOURCES, 0) for _ in range(n)]
        self.ledger = [dict.fromkeys(LEDGER, 0) for _ in range(n)]
        for p in range(n):
            self.ledger[p].update(coins_in=START_COINS, science_in=START_SCIENCE, cubes_in=START_CUBES)
        cells = MAX_TILES  # a nation's tiles by slot, the order attached (ruling 18)
        self.grid_tile = [[-1] * cells for _ in range(n)]
        self.grid_x = [[0] * cells for _ in range(n)]  # each tile's cell, from the starting tile's (0, 0)
        self.grid_y = [[0] * cells for _ in range(n)]
        self.grid_rot = [[0] * cells for _ in range(n)]
        self.grid_bridge = [[-1] * cells for _ in range(n)]
        self.grid_cubes = [[0] * cells for _ in range(n)]
        self.grid_citizens = [[0] * cells for _ in range(n)]  # bit j: city j occupied
        self.grid_new = [[False] * cells for _ in range(n)]  # bought this round
        centre = 0  # the starting tile's slot, on cell START_CELL
        start = self.data.land[0]
        for p in range(n):
            # 'Ogni giocatore prende la tessera territorio iniziale e ci mette sopra un cubo rifiuti e due gettoni
            # cittadino ... nelle due città che producono monete e punti scienza.'
            self.grid_tile[p][centre] = 0
            self.grid_x[p][centre], self.grid_y[p][centre] = START_CELL
            self.grid_cubes[p][centre] = START_CUBES
            self.grid_citizens[p][centre] = sum(1 << j for j, c in enumerate(start.cities) if c.coins or c.science)
        self.sel: list[int] = []  # the sub-decision in progress (tile code, placement or slot, ability, from)
        self.removed: list[int] = []  # slots recycled from in this production, by the player recycling
        self.production_now = [(0, 0, 0)] * n  # the markers of this round's production
        self._start_round(1)

    # ------------------------------------------------------------------------------------------- protocol
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.to_move

    @property
    def num_actions(self) -> int:
        return A.NUM_ACTIONS

    def legal_actions(self) -> list[int]:
        """The legal actions of the player to move, ascending."""
        return [] if self.is_over else sorted(self._legal())

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, bool)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, action: int) -> None:
        """Play ``action`` for the player to move; IllegalActionError (game unchanged) if it is not legal."""
        if isinstance(action, (np.integer,)):
            action = int(action)
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"action {action!r} is not an integer action")
        if self.is_over:
            raise IllegalActionError(f"action {action!r}: the game is over")
        legal = self._legal()
        if action not in legal:
            what = A.action_to_string(action) if isinstance(action, int) and 0 <= action < A.NUM_ACTIONS else action
            names = ", ".join(map(A.action_to_string, sorted(legal)))
            raise IllegalActionError(f"action {action!r} ({what}) is not legal for seat {self.to_move} in phase "
                                     f"{self.phase!r}: legal are {names}")  # fmt: skip
        self._do(action)
        self._advance()

    def _advance(self) -> None:
        """Forced moves play themselves (ruling 20)."""
        while not self.is_over:
            legal = self._legal()
            if len(legal) != 1:
                return
            self._do(legal[0])

    def action_to_string(self, action: int) -> str:
        """The action's name, with what it means in this position as a comment: a bid's coins, a cell's place."""
        text = A.action_to_string(action)
        name, i = A.block_of(action)
        p = self.to_move
        if name == "bid" and self.phase in ("open", "bid"):
            more = " or more" if i == A.NUM_BIDS - 1 else ""
            text += f" ({self._bid_base() + i} coins{more})"
        elif p >= 0 and name == "place" and i // A.NUM_DIRECTIONS < self.slots(p):
            text += " (cell {},{})".format(*self.placed_cell(p, i))
        elif p >= 0 and name in ("tile", "city") and (k := i // (3 if name == "city" else 1)) < self.slots(p):
            text += " (cell {},{})".format(*self.cell_of(p, k))
        return text

    def string_to_action(self, text: str) -> int:
        """An action from its name (``A.string_to_action``), or from the cell it acts on: ``cell x,y`` (the empty
        cell a tile is attached on, or the tile on it) and ``city x,y b``, cells counted from the starting tile's
        (0, 0), x east and y south."""
        core = str(text).split(" (", 1)[0].strip().lower()
        m = re.fullmatch(r"(cell|city) (-?\d+) ?, ?(-?\d+)(?: ([abc]))?", core)
        if m is None or (m[1] == "city") != (m[4] is not None) or self.is_over:
            return A.string_to_action(text)
        p, cell = self.to_move, (int(m[2]), int(m[3]))
        if m[1] == "cell" and self.phase == "attach_cell":
            placement = self.placement_cells(p).get(cell)
            if placement is None:
                raise ValueError(f"{text!r}: cell {cell[0]},{cell[1]} is not an empty cell touching the nation")
            return A.PLACE + placement
        slot = self.slot_at(p, cell)
        if slot < 0:
            raise ValueError(f"{text!r}: no tile of seat {p}'s nation is on cell {cell[0]},{cell[1]}")
        return A.city_action(slot, "abc".index(m[4])) if m[1] == "city" else A.TILE + slot

    def scores(self) -> list[int]:
        """Each seat's victory points (the sum of :meth:`score_parts`)."""
        return [sum(v.values()) for v in self.vp]

    def score_parts(self, seat: int) -> dict[str, int]:
        """A seat's victory points by source."""
        return dict(self.vp[seat])

    def ranking_key(self, seat: int) -> tuple[int, int]:
        """Higher wins: points, then fewer cubes ('I pareggi sono superati in favore del giocatore con meno cubi')."""
        return (self.scores()[seat], -self.total_cubes(seat))

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        best = max(self.ranking_key(p) for p in range(self.n))
        return [p for p in range(self.n) if self.ranking_key(p) == best]

    def returns(self) -> list[float]:
        if not self.is_over:
            return [0.0] * self.n
        win = self.winners()
        if len(win) == self.n:
            return [0.0] * self.n
        return [1.0 if p in win else -1.0 for p in range(self.n)]

    def clone(self) -> Game:
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> Game:
        out = Game.__new__(Game)
        for k, v in self.__dict__.items():
            out.__dict__[k] = v if k == "data" else copy.deepcopy(v, memo)
        return out

    # ------------------------------------------------------------------------------------------- the nation
    def nation(self, p: int) -> dict[tuple[int, int], Placed]:
        """Seat ``p``'s placed tiles by cell."""
        out = {}
        for c, code in enumerate(self.grid_tile[p]):
            if code >= 0:
                out[self.cell_of(p, c)] = Placed(self.data.tile(code), self.grid_rot[p][c], self.grid_bridge[p][c])
        return out

    def cell_of(self, p: int, slot: int) -> tuple[int, int]:
        """The cell (x east, y south of the starting tile) of seat ``p``'s tile in ``slot``."""
        return self.grid_x[p][slot], self.grid_y[p][slot]

    def slots(self, p: int) -> int:
        """How many tiles seat ``p``'s nation holds (slots 0 to this - 1)."""
        return sum(code >= 0 for code in self.grid_tile[p])

    def slot_at(self, p: int, cell: tuple[int, int]) -> int:
        """The slot of seat ``p``'s tile on ``cell``, -1 if it is empty."""
        return next((k for k in range(self.slots(p)) if self.cell_of(p, k) == tuple(cell)), -1)

    def land_cells(self, p: int) -> list[int]:
        return [c for c, code in enumerate(self.grid_tile[p]) if code >= 0 and self.data.is_land(code)]

    def total_cubes(self, p: int) -> int:
        return sum(self.grid_cubes[p])

    def cities(self, p: int, occupied: bool | None = None) -> list[tuple[int, int]]:
        """(cell, city) of every city of the nation (only occupied or only free ones if asked)."""
        out = []
        for c in self.land_cells(p):
            for j in range(len(self.data.tile(self.grid_tile[p][c]).cities)):
                busy = bool(self.grid_citizens[p][c] >> j & 1)
                if occupied is None or busy == occupied:
                    out.append((c, j))
        return out

    def city_production(self, p: int, cell: int, city: int, nation: dict | None = None) -> tuple[int, int, int]:
        """What a city makes: nothing if free ('Le città libere non producono niente'); else its icons plus each
        adjacent institution's bonus on a resource it makes itself (BONUS; ruling 5)."""
        if not self.grid_citizens[p][cell] >> city & 1:
            return (0, 0, 0)
        nation = self.nation(p) if nation is None else nation
        base = list(self.data.tile(self.grid_tile[p][cell]).cities[city].production)
        out = list(base)
        xy = self.cell_of(p, cell)
        for q in range(len(self.grid_tile[p])):
            code = self.grid_tile[p][q]
            if code < 0 or self.data.is_land(code):
                continue
            tile = self.data.tile(code)
            r = INSTITUTIONS[tile.building]
            # 'Una città non ottiene un premio produzione per qualcosa che non può produrre da se.'
            if base[r] > 0 and institution_bonus(nation, self.cell_of(p, q), xy, city):
                out[r] += tile.bonus
        return (out[0], out[1], out[2])

    def production(self, p: int) -> tuple[int, int, int]:
        """The production markers: coins, science and VP of every occupied city (Aggiornamento degli indicatori)."""
        nation = self.nation(p)
        total = [0, 0, 0]
        for c, j in self.cities(p, occupied=True):
            for r, v in enumerate(self.city_production(p, c, j, nation)):
                total[r] += v
        return (total[0], total[1], total[2])

    def working_centres(self, p: int) -> list[tuple[int, int]]:
        """Occupied recycling cities ('Soltanto i centri riciclaggio delle città occupate sono in funzione')."""
        return [(c, j) for c, j in self.cities(p, occupied=True)
                if self.data.tile(self.grid_tile[p][c]).cities[j].recycling]  # fmt: skip

    def clean_land_tiles(self, p: int) -> int:
        return sum(self.grid_cubes[p][c] == 0 for c in self.land_cells(p))

    # ------------------------------------------------------------------------------------------- phase 1
    def _start_round(self, r: int) -> None:
        """Fase 1, Disposizione iniziale: leftovers out, new offers dealt, the catastrophe revealed, prices set."""
        self.round = r
        self.leader = self.next_leader  # 'la persona che ha ottenuto la catastrofe peggiore nel turno precedente'
        for p in range(self.n):
            self.grid_new[p] = [False] * len(self.grid_new[p])
        # 'Se delle tessere territorio, tecnologia, o carte catastrofe sono rimaste sulla plancia ... rimuovile.'
        self.discarded_land += [t for t in self.land_offer if t >= 0]
        self.discarded_tech += [t for t in self.tech_offer if t >= 0]
        if r > LAST_FULL_ROUND:  # 'Si salta l'asta territori e catastrofe e si va direttamente alla manutenzione.'
            self.land_offer, self.tech_offer = [], []
            self._start_maintenance()
            return
        era = ERA_OF_ROUND[r]
        lands, techs = OFFERS[self.n]
        self.land_offer = [self.land_stacks[era].pop(0) for _ in range(min(lands, len(self.land_stacks[era])))]
        self.tech_offer = [self.tech_stacks[era].pop(0) for _ in range(min(techs, len(self.tech_stacks[era])))]
        self.cat_current = self.cat_stack.pop(0)  # 'Rivela la carta superiore dalla pila catastrofe'
        self.cat_revealed.append(self.cat_current)
        self.cost_pos = self.data.tech_cost_start[self.n]
        self.withdrawn, self.passed, self.won = [0] * self.n, [False] * self.n, [0] * self.n
        self.auction_slot, self.high_bid, self.high_bidder = -1, 0, -1
        self.cat_col, self.cat_bid = [-1] * self.n, [0] * self.n
        self.phase, self.to_move = "lead", self.leader

    def min_land_price(self) -> int:
        return MIN_LAND_PRICE.get(self.round, 0)

    def tech_price(self) -> int:
        """The science under the technology cost marker."""
        return self.data.tech_cost[ERA_OF_ROUND.get(self.round, "V")][self.cost_pos]

    # ------------------------------------------------------------------------------------------- phase 2
    def _still_in(self) -> list[int]:
        return [p for p in range(self.n) if not self.withdrawn[p]]

    def raising_own_bid(self) -> bool:
        """The high bidder is asked again: his last bid was 'bid +31', 31 or more over the smallest (ruling 19)."""
        return self.phase == "bid" and self.to_move == self.high_bidder

    def _bid_base(self) -> int:
        """What 'bid +0' offers: the minimum to open, the high bid + 1 to raise, the bid itself to add to one's own
        bid (ruling 19)."""
        if self.phase == "open":
            return self.min_land_price()
        return self.high_bid if self.raising_own_bid() else self.high_bid + 1

    def _next_clockwise(self, after: int, ok: Any) -> int:
        for k in range(1, self.n + 1):
            q = (after + k) % self.n
            if ok(q):
                return q
        return -1

    def put_up_land(self, p: int, slot: int) -> None:
        """'Il giocatore iniziale ... sceglie il primo territorio per l'asta e lo sposta sullo spazio asta'; alone,
        he buys it at the minimum price ('può acquisti quante tessere territorio restanti vuole, al prezzo minimo';
        ruling 12)."""
        if self._still_in() == [p]:
            self.win_land(p, slot, self.min_land_price())
            return
        self.auction_slot = slot
        self.phase = "open"

    def bid(self, p: int, amount: int, more: bool = False) -> None:
        """'Offrire più monete': the bid becomes the highest; bidding goes on clockwise. With ``more`` (the
        block's last action, 31 or more over the smallest bid) the bidder is asked again what to add to it: 'il
        giocatore iniziale può offrire di più se lo desidera', limited only by his coins (ruling 19)."""
        self.high_bid, self.high_bidder = amount, p
        self.phase = "bid"
        if more:
            self.to_move = p
        else:
            self._next_bidder(p)

    def pass_land(self, p: int) -> None:
        """'Se un giocatore passa, non può più offrire successivamente per quella tessera territorio'."""
        self.passed[p] = True
        self._next_bidder(p)

    def _next_bidder(self, after: int) -> None:
        q = self._next_clockwise(
            after, lambda q: not self.withdrawn[q] and not self.passed[q] and q != self.high_bidder
        )
        if q < 0:  # 'Una volta che tutti gli altri giocatori hanno passato o si sono ritirati'
            self.win_land(self.high_bidder, self.auction_slot, self.high_bid)
        else:
            self.phase, self.to_move = "bid", q

    def win_land(self, p: int, slot: int, price: int) -> None:
        """The auction's winner pays, takes the tile with a citizen and k cubes (his k-th this round), moves the
        cost marker right and leads the next auction."""
        self.coins[p] -= price
        self.ledger[p]["coins_out"] += price
        self.won[p] += 1
        # 'Un giocatore ottiene un cubo rifiuti per la prima tessera territorio acquista in questo round, due per la
        # seconda, tre per la terza, ecc.'
        self.pending[p].append([self.land_offer[slot], slot, self.won[p]])
        self.ledger[p]["cubes_in"] += self.won[p]
        self.land_offer[slot] = -1
        track = self.data.tech_cost[ERA_OF_ROUND[self.round]]
        self.cost_pos = min(self.cost_pos + 1, len(track) - 1)  # 'a meno che non sia già sull'ultimo spazio'
        self.auction_slot, self.high_bid, self.high_bidder = -1, 0, -1
        self.passed = [False] * self.n  # 'chi ha passato ... avrà ancora la possibilità di fare offerte'
        self.leader = p  # 'diviene il nuovo giocatore iniziale per l'asta seguente'
        self.phase, self.to_move = "lead", p

    def withdraw(self, p: int) -> None:
        """'Ritirarsi dall'asta dei territori (e possibilmente comprare la tecnologia)': at once, a chance to buy one
        technology (ruling 11)."""
        self.resume = self.phase
        self.withdrawn[p] = 1 + sum(1 for w in self.withdrawn if w)
        self.phase = "tech"

    def buy_technology(self, p: int, slot: int) -> None:
        """'Un giocatore può comprare qualunque tecnologia disponibile pagando il numero di punti scienza riportati
        dall'indicatore di costo tecnologia', and takes its immediate ecological effect."""
        t = self.tech_offer[slot]
        tech = self.data.technologies[t]
        price = self.tech_price()
        self.science[p] -= price
        self.ledger[p]["science_out"] += price
        self.tech_offer[slot] = -1
        self.techs[p].append(t)
        self.used[p].append([False] * len(tech.abilities))
        # 'Prendi il numero indicato di cubi rifiuti e ponili vicino alle tue tessere territorio.'
        self.pending_cubes[p] += tech.garbage
        self.ledger[p]["cubes_in"] += tech.garbage
        self.move_pollution(p, tech.pollution)
        if tech.institution:
            self.pending[p].append([len(self.data.land) + t, slot, 0])
        self._after_withdrawal(p)

    def _after_withdrawal(self, p: int) -> None:
        if self.resume == "bid":
            self._next_bidder(p)
            return
        # 'il nuovo giocatore iniziale sarà il giocatore seguente in ordine in senso orario che non si è ritirato'
        q = self._next_clockwise(p, lambda q: not self.withdrawn[q])
        if q < 0:
            self.end_auction()
        else:
            self.leader, self.phase, self.to_move = q, "lead", q

    def move_pollution(self, p: int, steps: int) -> None:
        """Negative steps left (worse), positive right (better), stopping at the ends (ruling 34)."""
        self.pollution[p] = max(self.data.pollution_low, min(self.data.pollution_high, self.pollution[p] + steps))

    def end_auction(self) -> None:
        """Consolation to every player who won no land tile (ruling 13); the last to withdraw opens the catastrophe
        bidding ('L'ultimo giocatore ritirato ottiene lo spazio giocatore iniziale')."""
        for p in range(self.n):
            if self.won[p] == 0:
                self.coins[p] += consolation(self.round)
                self.ledger[p]["coins_in"] += consolation(self.round)
        self.phase = "catastrophe"
        self.to_move = max(range(self.n), key=lambda p: self.withdrawn[p])

    # ------------------------------------------------------------------------------------------- phase 3
    def on_top(self, p: int) -> bool:
        """Seat ``p``'s pawn stands in a column above every other pawn there (he is skipped while it does)."""
        c = self.cat_col[p]
        return c >= 0 and all(
            self.cat_bid[q] < self.cat_bid[p] for q in range(self.n) if q != p and self.cat_col[q] == c
        )

    def catastrophe_bid_options(self, p: int) -> list[tuple[int, int]]:
        """(column, bid): any used column, above every other pawn there, at most 25 and what he can pay."""
        top = min(CATASTROPHE_BID_MAX, self.science[p])
        out = []
        for c in self.data.columns_used(self.n):
            others = [self.cat_bid[q] for q in range(self.n) if q != p and self.cat_col[q] == c]
            low = max(others) + 1 if others else 0
            out += [(c, b) for b in range(low, top + 1)]
        return out

    def bid_on_catastrophe(self, p: int, column: int, amount: int) -> None:
        """Place (or move) the pawn; bidding goes on clockwise until one pawn stands in each used column."""
        self.cat_col[p], self.cat_bid[p] = column, amount
        q = self._next_clockwise(p, lambda q: not self.on_top(q))  # a player on top 'passa' (is skipped)
        if q < 0:
            self.resolve_catastrophe()
        else:
            self.to_move = q

    def resolve_catastrophe(self) -> None:
        """'Paghi i punti scienza offerti alla banca e raccogli i risultati della catastrofe scelta.'"""
        card = self.data.catastrophes[self.cat_current]
        for p in range(self.n):
            garbage, steps = card.columns[self.cat_col[p]]
            self.science[p] -= self.cat_bid[p]
            self.ledger[p]["science_out"] += self.cat_bid[p]
            self.pending_cubes[p] += garbage
            self.ledger[p]["cubes_in"] += garbage
            self.move_pollution(p, -steps)
        # 'La colonna estrema a sinistra è la catastrofe peggiore. Il giocatore che "vince" questo disastro aprirà il
        # prossimo round di asta dei territori.'
        self.next_leader = min(range(self.n), key=lambda p: self.cat_col[p])
        self._start_maintenance()

    # ------------------------------------------------------------------------------------------- phase 4
    def _start_maintenance(self) -> None:
        """In sequence from the leftmost column's player clockwise (ruling 21)."""
        first = self.next_leader
        self.maint_order = [(first + k) % self.n for k in range(self.n)]
        self.maint_pos = 0
        self._begin_maintenance(self.maint_order[0])

    def _begin_maintenance(self, p: int) -> None:
        for h, t in enumerate(self.techs[p]):  # multiple-use: 'una volta durante ogni fase manutenzione'
            for k, ab in enumerate(self.data.technologies[t].abilities):
                if ab.kind in MULTI_USE:
                    self.used[p][h][k] = False
        self.to_move = p
        self._next_maintenance_step(p)

    def _next_maintenance_step(self, p: int) -> None:
        """Attach tiles (with their citizens), then place the new cubes, then use technologies (ruling 16)."""
        self.sel = []
        if self.pending[p]:
            self.phase = "attach_pick"
        elif self.pending_cubes[p]:
            self.phase = "garbage"
        else:
            self.phase = "use"

    def placement_cells(self, p: int) -> dict[tuple[int, int], int]:
        """Empty cells touching seat ``p``'s nation by an edge or a corner ('bordo con bordo o angolo con angolo'),
        anywhere (ruling 18), each with its placement: slot x 8 + direction of the lowest slot beside it."""
        cells = [self.cell_of(p, k) for k in range(self.slots(p))]
        return {cell: k * A.NUM_DIRECTIONS + d for cell, (k, d) in placements(cells).items()}

    def placed_cell(self, p: int, placement: int) -> tuple[int, int]:
        """The cell a placement (slot x 8 + direction) names."""
        slot, d = divmod(placement, A.NUM_DIRECTIONS)
        x, y = self.cell_of(p, slot)
        return x + DIRECTIONS[d][0], y + DIRECTIONS[d][1]

    def attach_tile(self, p: int, placement: int, rotation: int) -> None:
        """Aggancio: the tile goes on an empty cell touching the nation by an edge or a corner, in any rotation, in
        the nation's next slot; a land tile keeps its purchase cubes ('devono rimanere su quelle tessere')."""
        code = self.sel[0]
        entry = next(e for e in self.pending[p] if e[0] == code)
        self.pending[p].remove(entry)
        cell = self.slots(p)
        self.grid_x[p][cell], self.grid_y[p][cell] = self.placed_cell(p, placement)
        self.grid_tile[p][cell], self.grid_rot[p][cell] = code, rotation
        self.grid_bridge[p][cell], self.grid_cubes[p][cell] = -1, entry[2]
        self.grid_new[p][cell] = self.data.is_land(code)
        if self.data.is_land(code):
            self.sel = [code, cell]
            self.phase = "citizen"  # 'Ogni territorio porta un gettone cittadino'
        else:
            self._next_maintenance_step(p)

    def place_citizen(self, p: int, cell: int, city: int) -> None:
        """'Il suo nuovo cittadino può lavorare solo in uno di esse' (a city of the tile it came with)."""
        self.grid_citizens[p][cell] |= 1 << city
        self._next_maintenance_step(p)

    def garbage_targets(self, p: int) -> list[int]:
        """'I rifiuti accumulati in questo turno dovrebbe essere disposti sulle tessere territori acquistate in questo
        turno ... Se non ha acquistato nuove tessere territorio ... sui territori che sono già parte della sua
        nazione' (ruling 15)."""
        new = [c for c in self.land_cells(p) if self.grid_new[p][c]]
        return new or self.land_cells(p)

    def place_garbage(self, p: int, cell: int) -> None:
        self.grid_cubes[p][cell] += 1
        self.pending_cubes[p] -= 1
        self._next_maintenance_step(p)

    def end_maintenance(self, p: int) -> None:
        self.maint_pos += 1
        if self.maint_pos < self.n:
            self._begin_maintenance(self.maint_order[self.maint_pos])
        else:
            self.produce()

    # ------------------------------------------------------------------------------------------- technologies
    def ability(self, p: int, h: int, k: int) -> Any:
        return self.data.technologies[self.techs[p][h]].abilities[k]

    def _train_moves(self, p: int) -> list[tuple[int, int, int, int]]:
        nation = self.nation(p)
        roots = global_components(nation)
        free = self.cities(p, occupied=False)
        out = []
        for c, j in self.cities(p, occupied=True):
            for c2, j2 in free:
                if train_connected(nation, (self.cell_of(p, c), j), (self.cell_of(p, c2), j2), roots):
                    out.append((c, j, c2, j2))
        return out

    def _bridge_cells(self, p: int) -> list[int]:
        """Tiles where a bridge still fits: at most one a tile (ruling 6)."""
        return [c for c, code in enumerate(self.grid_tile[p])
                if code >= 0 and self.grid_bridge[p][c] < 0 and self.data.tile(code).bridges]  # fmt: skip

    def usable(self, p: int, h: int, k: int) -> bool:
        """An ability not yet used (this maintenance, or ever for a single-use one), with something to act on and
        its cost affordable (ruling 25)."""
        if self.used[p][h][k]:
            return False
        ab = self.ability(p, h, k)
        lands = self.land_cells(p)
        dirty = [c for c in lands if self.grid_cubes[p][c]]
        match ab.kind:
            case "workers":
                return bool(self.cities(p, occupied=False))
            case "bridge":
                return bool(self._bridge_cells(p))
            case "train":
                return bool(self._train_moves(p))
            case "garbage_truck":
                return bool(dirty) and len(lands) >= 2
            case "separated_collection":
                return bool(dirty)
            case "recycling":
                return bool(dirty) and self.coins[p] >= ab.cost
            case "cleanup":
                return self.coins[p] >= ab.cost and self.pollution[p] < self.data.pollution_high
            case "quality_of_life":
                return self.coins[p] >= ab.cost
        return False  # institutions and the park have no ability to use

    def _pay_coins(self, p: int, amount: int) -> None:
        self.coins[p] -= amount
        self.ledger[p]["coins_out"] += amount

    def _remove_cube(self, p: int, cell: int) -> None:
        self.grid_cubes[p][cell] -= 1
        self.ledger[p]["cubes_out"] += 1

    def use_ability(self, p: int, h: int, k: int) -> None:
        """Uso delle tecnologie: Cleanup and Quality of life act at once; the others ask for their targets."""
        ab = self.ability(p, h, k)
        if ab.kind == "cleanup":  # 'spostare il tuo indicatore di inquinamento uno spazio a destra'
            self._pay_coins(p, ab.cost)
            self.move_pollution(p, 1)
            self.used[p][h][k] = True
        elif ab.kind == "quality_of_life":  # 'pagare il costo indicato per il numero di punti vittoria indicato'
            self._pay_coins(p, ab.cost)
            self.vp[p]["quality_of_life"] += ab.vp
            self.used[p][h][k] = True
        else:
            self.sel = [h, k]
            self.phase = "use_target"

    def _finish_use(self, p: int) -> None:
        h, k = self.sel[:2]
        self.used[p][h][k] = True
        self.sel = []
        self.phase = "use"

    def use_target(self, p: int, target: int) -> None:
        """The first target of the ability in use (a city for Workers and Train, a cell for the others)."""
        h, k = self.sel[:2]
        kind = self.ability(p, h, k).kind
        if kind == "workers":  # 'puoi mettere questo gettone cittadino in una qualsiasi città libera'
            cell, city = divmod(target, 3)
            self.grid_citizens[p][cell] |= 1 << city
            self._finish_use(p)
        elif kind in ("separated_collection", "recycling"):  # 'rimuovere 1 cubo rifiuti da qualsiasi tessera'
            if kind == "recycling":
                self._pay_coins(p, self.ability(p, h, k).cost)
            self._remove_cube(p, target)
            self._finish_use(p)
        else:  # bridge: the tile; train: the city left; garbage truck: the tile the cube leaves
            self.sel = [h, k, target]
            self.phase = "bridge" if kind == "bridge" else "use_target2"

    def use_target2(self, p: int, target: int) -> None:
        h, k, first = self.sel
        if self.ability(p, h, k).kind == "train":  # 'spostare un gettone cittadino in una città libera'
            cell, city = divmod(first, 3)
            self.grid_citizens[p][cell] &= ~(1 << city)
            cell2, city2 = divmod(target, 3)
            self.grid_citizens[p][cell2] |= 1 << city2
        else:  # garbage truck: 'spostare 1 cubo rifiuti da qualunque tessera territorio verso qualunque altra'
            self.grid_cubes[p][first] -= 1
            self.grid_cubes[p][target] += 1
        self._finish_use(p)

    def place_bridge(self, p: int, placement: int) -> None:
        """'Una volta che il ponte è messo, diventa una parte permanente del territorio'."""
        self.grid_bridge[p][self.sel[2]] = placement
        self._finish_use(p)

    # ------------------------------------------------------------------------------------------- phase 5
    def produce(self) -> None:
        """Fase 5: every nation produces its markers' coins, science and VP (round VI: VP only), then each player in
        maintenance order may use his working recycling centres."""
        for p in range(self.n):
            prod = self.production(p)
            self.production_now[p] = prod
            if (
                self.round <= LAST_FULL_ROUND
            ):  # 'Nel sesto round, i giocatori non ottengono nuove monete o punti scienza'
                self.coins[p] += prod[0]
                self.science[p] += prod[1]
                self.ledger[p]["coins_in"] += prod[0]
                self.ledger[p]["science_in"] += prod[1]
            self.vp[p]["production"] += prod[2]
        self.maint_pos = 0
        self._begin_recycling(self.maint_order[0])

    def _begin_recycling(self, p: int) -> None:
        self.removed = []
        self.phase, self.to_move = "recycle", p

    def recycling_targets(self, p: int) -> list[int]:
        """Cells a cube can still be removed from: the removals so far plus this one can each be given a distinct
        working centre that reaches them (RECYCLE; ruling 28)."""
        centres = self.working_centres(p)
        if len(self.removed) >= len(centres):
            return []
        nation = self.nation(p)
        reach = {}
        for c in self.land_cells(p):
            reach[c] = [i for i, (rc, j) in enumerate(centres)
                        if recycling_reaches(nation, self.cell_of(p, rc), j, self.cell_of(p, c))]  # fmt: skip
        return [c for c in self.land_cells(p) if self.grid_cubes[p][c] and _matchable([*self.removed, c], reach)]

    def removals_matchable(self, p: int) -> bool:
        """The cubes recycled so far in this production (``removed``) are on land tiles and can each be given a
        distinct working centre that reaches them (ruling 28)."""
        lands = self.land_cells(p)
        if any(c not in lands for c in self.removed):
            return False
        centres = self.working_centres(p)
        nation = self.nation(p)
        reach = {}
        for c in set(self.removed):
            reach[c] = [i for i, (rc, j) in enumerate(centres)
                        if recycling_reaches(nation, self.cell_of(p, rc), j, self.cell_of(p, c))]  # fmt: skip
        return _matchable(list(self.removed), reach)

    def recycle(self, p: int, cell: int) -> None:
        self._remove_cube(p, cell)
        self.removed.append(cell)

    def end_recycling(self) -> None:
        self.maint_pos += 1
        if self.maint_pos < self.n:
            self._begin_recycling(self.maint_order[self.maint_pos])
            return
        self.removed = []
        if self.round in BONUS_ROUNDS:
            self.bonus_scoring()
        if self.round == ROUNDS:
            self.phase, self.to_move = "over", -1
        else:
            self._start_round(self.round + 1)

    # ------------------------------------------------------------------------------------------- phase 6
    def bonus_scoring(self) -> None:
        """Fase 6: the round-II or round-IV card drawn at set-up (none in the first-game variant), or the final
        scoring after round VI."""
        for p in range(self.n):
            coins, science, vp = self.production_now[p]
            if self.round == 2 and self.r2 >= 0:
                self.vp[p]["round_2_card"] += [
                    coins + science,  # a: 'un punti vittoria per ogni moneta e ogni punto scienza ... prodotto'
                    sum(self.vp[p].values()),  # b: 'in modo da raddoppiare il numero di punti vittoria'
                    R2_CARD_C_CLEAN_TILE * self.clean_land_tiles(p),  # c: '6 punti ... senza cubi rifiuti'
                ][self.r2]
            elif self.round == 4 and self.r4 >= 0:
                pol = self.data.pollution_final[self.pollution[p] - self.data.pollution_low]
                clean = self.data.clean_tile[self.pollution[p] - self.data.pollution_low]
                self.vp[p]["round_4_card"] += [
                    R4_CARD_A_PER_CENTRE * len(self.working_centres(p)) + coins,  # a (ruling 29)
                    max(0, pol) + vp,  # b: 'In caso contrario, ottieni zero punti' (ruling 30)
                    clean * self.clean_land_tiles(p) - self.total_cubes(p) + science,  # c
                ][self.r4]
        if self.round == ROUNDS:
            self.final_scoring()

    def final_scoring(self) -> None:
        """Punteggio bonus del sesto round: land tiles by their cubes, the pollution track, coins and science."""
        for p in range(self.n):
            i = self.pollution[p] - self.data.pollution_low
            tiles = 0
            for c in self.land_cells(p):
                cubes = self.grid_cubes[p][c]
                tiles += self.data.clean_tile[i] if cubes == 0 else extra_cube_penalty(cubes)
            self.vp[p]["land_tiles"] += tiles
            self.vp[p]["pollution"] += self.data.pollution_final[i]
        for source, holdings in (("coins", self.coins), ("science", self.science)):
            for p, award in enumerate(rank_bonus(holdings, self.n)):
                self.vp[p][source] += award

    # ------------------------------------------------------------------------------------------- decisions
    def _legal(self) -> list[int]:
        p, ph = self.to_move, self.phase
        out: list[int] = []
        if ph == "lead":
            if self.coins[p] >= self.min_land_price():  # 'Se il giocatore iniziale non ha abbastanza monete ...'
                out += [A.LAND + s for s, t in enumerate(self.land_offer) if t >= 0]
            out.append(A.WITHDRAW)
        elif ph in ("open", "bid"):
            base = self._bid_base()
            out += [A.BID + k for k in range(A.NUM_BIDS) if base + k <= self.coins[p]]  # A6; ruling 19
            if ph == "bid" and not self.raising_own_bid():
                out += [A.PASS, A.WITHDRAW]
        elif ph == "tech":
            if self.tech_price() <= self.science[p]:
                out += [A.TECH + s for s, t in enumerate(self.tech_offer) if t >= 0]
            out.append(A.DONE)
        elif ph == "catastrophe":
            out += [A.catastrophe_action(c, b) for c, b in self.catastrophe_bid_options(p)]
        elif ph == "attach_pick":
            out += [(A.LAND if self.data.is_land(code) else A.TECH) + slot for code, slot, _ in self.pending[p]]
        elif ph == "attach_cell":
            out += [A.PLACE + k for k in self.placement_cells(p).values()]
        elif ph == "attach_rotate":
            out += [A.ROTATE + r for r in range(4)]
        elif ph == "citizen":
            code, cell = self.sel
            out += [A.CITY + cell * 3 + j for j in range(len(self.data.tile(code).cities))]
        elif ph == "garbage":
            out += [A.TILE + c for c in self.garbage_targets(p)]
        elif ph == "use":
            out += [A.use_action(h, k) for h in range(len(self.techs[p])) for k in range(len(self.used[p][h]))
                    if self.usable(p, h, k)]  # fmt: skip
            out.append(A.DONE)
        elif ph == "use_target":
            out += self.first_targets(p)
        elif ph == "use_target2":
            out += self._second_targets(p)
        elif ph == "bridge":
            out += [A.BRIDGE + b for b in range(len(self.data.tile(self.grid_tile[p][self.sel[2]]).bridges))]
        elif ph == "recycle":
            out += [A.TILE + c for c in self.recycling_targets(p)]
            out.append(A.DONE)
        return out

    def first_targets(self, p: int) -> list[int]:
        """The actions naming the first target of the ability in use (``sel``)."""
        h, k = self.sel[:2]
        kind = self.ability(p, h, k).kind
        lands = self.land_cells(p)
        if kind == "workers":
            return [A.CITY + c * 3 + j for c, j in self.cities(p, occupied=False)]
        if kind == "bridge":
            return [A.TILE + c for c in self._bridge_cells(p)]
        if kind == "train":
            return sorted({A.CITY + c * 3 + j for c, j, _, _ in self._train_moves(p)})
        return [A.TILE + c for c in lands if self.grid_cubes[p][c]]  # truck, collection, recycling

    def _second_targets(self, p: int) -> list[int]:
        h, k, first = self.sel
        if self.ability(p, h, k).kind == "train":
            return [A.CITY + c2 * 3 + j2 for c, j, c2, j2 in self._train_moves(p) if c * 3 + j == first]
        return [A.TILE + c for c in self.land_cells(p) if c != first]

    def _do(self, action: int) -> None:
        p, ph = self.to_move, self.phase
        name, i = A.block_of(action)
        if ph == "lead":
            if name == "land":
                self.put_up_land(p, i)
            else:
                self.withdraw(p)
        elif ph in ("open", "bid"):
            if name == "bid":
                self.bid(p, self._bid_base() + i, more=i == A.NUM_BIDS - 1)
            elif name == "pass":
                self.pass_land(p)
            else:
                self.withdraw(p)
        elif ph == "tech":
            if name == "tech":
                self.buy_technology(p, i)
            else:
                self._after_withdrawal(p)
        elif ph == "catastrophe":
            self.bid_on_catastrophe(p, *divmod(i, A.NUM_CAT_BIDS))
        elif ph == "attach_pick":
            land = name == "land"
            code = next(c for c, s, _ in self.pending[p] if s == i and self.data.is_land(c) == land)
            self.sel = [code]
            self.phase = "attach_cell"
        elif ph == "attach_cell":
            self.sel = [self.sel[0], i]
            self.phase = "attach_rotate"
        elif ph == "attach_rotate":
            code, cell = self.sel
            self.sel = [code]
            self.attach_tile(p, cell, i)
        elif ph == "citizen":
            self.place_citizen(p, *divmod(i, 3))
        elif ph == "garbage":
            self.place_garbage(p, i)
        elif ph == "use":
            if name == "done":
                self.end_maintenance(p)
            else:
                self.use_ability(p, *divmod(i, A.MAX_ABILITIES))
        elif ph == "use_target":
            self.use_target(p, i)
        elif ph == "use_target2":
            self.use_target2(p, i)
        elif ph == "bridge":
            self.place_bridge(p, i)
        elif ph == "recycle":
            if name == "done":
                self.end_recycling()
            else:
                self.recycle(p, i)

    # ------------------------------------------------------------------------------------------- hidden information
    def resample(self, seat: int, rng: Any = None) -> Game:
        """A game consistent with all that ``seat`` knows: every stack's undealt tiles reshuffled and each future
        round's catastrophe redrawn from its era's unrevealed cards ('Nessuno deve sapere quali carte catastrofe
        sono impilate'); a fresh seed. Nothing else is hidden (ruling 36), so every seat gets the same kind of
        redeal; ``seat`` is checked all the same."""
        check_seat(seat, self.n)
        rng = np.random.default_rng(rng)
        out = self.clone()
        for era in ERAS:
            out.land_stacks[era] = [int(x) for x in rng.permutation(out.land_stacks[era])]
            out.tech_stacks[era] = [int(x) for x in rng.permutation(out.tech_stacks[era])]
        future_eras = [self.data.catastrophes[k].era for k in out.cat_stack]
        unseen = {era: [k for k, c in enumerate(self.data.catastrophes) if c.era == era and k not in out.cat_revealed]
                  for era in ERAS}  # fmt: skip
        for era in ERAS:
            unseen[era] = [int(x) for x in rng.permutation(unseen[era])]
        out.cat_stack = [unseen[era].pop() for era in future_eras]
        out.seed = int(rng.integers(0, 2**62))
        return out

    def unseen_land(self) -> list[int]:
        return sorted(t for era in ERAS for t in self.land_stacks[era])

    def unseen_technologies(self) -> list[int]:
        return sorted(t for era in ERAS for t in self.tech_stacks[era])

    def observe(self, seat: int) -> np.ndarray:
        return observe(self, seat)

    # ------------------------------------------------------------------------------------------- saving
    _FIELDS = FIELDS

    def to_json(self) -> str:
        """The position as JSON (``from_json`` reads it back, refusing a corrupt one)."""
        doc: dict[str, Any] = {"game": GAME_NAME, "version": JSON_VERSION, "data_sha256": self.data.sha256}
        for k in self._FIELDS:
            v = getattr(self, k)
            doc[k] = [list(x) for x in v] if k == "production_now" else v
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, data: GameData | None = None) -> Game:
        """A game from ``to_json``'s text; :class:`GameStateError` naming the entry if it is corrupt."""
        try:
            doc = parse_json(text)
        except TextDataError as exc:
            raise GameStateError(f"saved game is {exc}") from None
        data = data or load_data()
        check_position(doc, data)
        game = cls.__new__(cls)
        game.data = data
        for k in cls._FIELDS:
            setattr(game, k, copy.deepcopy(doc[k]))
        game.production_now = [tuple(x) for x in doc["production_now"]]
        game.cat_stack = list(doc["cat_stack"])
        check_decision(game)
        return game

    def __str__(self) -> str:
        return render_text(self)


def rank_bonus(holdings: list[int], n: int) -> list[int]:
    """Coins or science ranking: awards by place, tied players sharing the sum of their places' awards rounded
    down ('sommare i punti in questione e dividerli per il numero dei giocatori pari, arrotondando per difetto'); a
    player needs at least 1 to score (ruling 31)."""
    awards = rank_awards(n)
    order = sorted(range(n), key=lambda p: -holdings[p])
    out = [0] * n
    place = 0
    while place < n:
        tied = [p for p in order if holdings[p] == holdings[order[place]]]
        share = sum(awards[place : place + len(tied)]) // len(tied)
        for p in tied:
            out[p] = share if holdings[p] >= 1 else 0
        place += len(tied)
    return out


def _matchable(cubes: list[int], reach: dict[int, list[int]]) -> bool:
    """Can each cube (a cell, repeated for several) get a distinct centre that reaches it?"""
    return -1 not in assign_distinct([reach[c] for c in cubes])
