"""The reference rules engine of 20th Century: one game in plain Python that reads like the rulebook.

Vladimír Suchý, *20th Century*, Czech Games Edition 2010, rulebook (Italian edition); sections cited by their
names, the sentence beside any line that is not obvious. Rulings on what the book leaves open are numbered in
``docs/twentieth-century/rules.md``; the code cites them as "ruling N".

A game is a sequence of decisions, each made by ``current_player`` choosing one of ``legal_actions()`` (the flat
encoding of :mod:`.actions`). Everything else runs by itself, and so does a decision with a single legal action
(ruling 20: a leader short of the minimum withdraws, a one-city tile's citizen is placed, ...). Chance comes only
at set-up (:mod:`.chance`): a seed and the actions reproduce a game. ``apply`` of a forbidden action raises
:class:`IllegalActionError` and changes nothing.

:class:`Game` is this module's set-up, public API, legal actions, apply's dispatch, hidden information and saving,
and the rules of the modules it mixes in, one for each part of the rulebook: :mod:`.nation` (a nation's tiles,
cities, production markers and pollution track), :mod:`.auction` (Fase 1, the round's offers, and Fase 2, the land
auction and the technologies bought), :mod:`.catastrophes` (Fase 3), :mod:`.maintenance` (Fase 4: tiles attached,
citizens and cubes placed, the technologies' abilities), :mod:`.production` (Fase 5, production and recycling) and
:mod:`.scoring` (Fase 6, the bonus and final scoring).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import numpy as np

from ...core.batched import MAX_SEED, is_whole
from ...core.spec import check_seat
from ...core.textdata import TextDataError, parse_json
from . import actions as A
from . import chance
from .auction import LandAuction
from .catastrophes import Catastrophes
from .components import ERAS, GameData, load_data
from .geometry import MAX_TILES, START_CELL
from .maintenance import Maintenance
from .nation import Nation
from .observation import observe
from .positions import check_decision, check_position
from .production import Production
from .render import render_text
from .rules import CATASTROPHES_PER_ERA, OFFERS, SCORING_CARDS, START_COINS, START_CUBES, START_SCIENCE
from .scoring import Scoring, rank_bonus
from .state import CARD_CHOICES, FIELDS, GAME_NAME, JSON_VERSION, LEDGER, SCORE_SOURCES, GameStateError

__all__ = ["Game", "GameStateError", "IllegalActionError", "rank_bonus"]


class IllegalActionError(ValueError):
    """An action that is not legal in the position; the game is unchanged."""


def _card(option: str, seed: int, purpose: int) -> int:
    if option == "none":
        return -1
    if option == "random":
        return chance.draw(seed, purpose, len(SCORING_CARDS))
    return SCORING_CARDS.index(option)


class Game(Nation, LandAuction, Catastrophes, Maintenance, Production, Scoring):
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
        self.start_round(1)

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
            text += f" ({self.bid_base() + i} coins{more})"
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

    # ------------------------------------------------------------------------------------------- decisions
    def _legal(self) -> list[int]:
        p, ph = self.to_move, self.phase
        out: list[int] = []
        if ph == "lead":
            if self.coins[p] >= self.min_land_price():  # 'Se il giocatore iniziale non ha abbastanza monete ...'
                out += [A.LAND + s for s, t in enumerate(self.land_offer) if t >= 0]
            out.append(A.WITHDRAW)
        elif ph in ("open", "bid"):
            base = self.bid_base()
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
            out += self.second_targets(p)
        elif ph == "bridge":
            out += [A.BRIDGE + b for b in range(len(self.data.tile(self.grid_tile[p][self.sel[2]]).bridges))]
        elif ph == "recycle":
            out += [A.TILE + c for c in self.recycling_targets(p)]
            out.append(A.DONE)
        return out

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
                self.bid(p, self.bid_base() + i, more=i == A.NUM_BIDS - 1)
            elif name == "pass":
                self.pass_land(p)
            else:
                self.withdraw(p)
        elif ph == "tech":
            if name == "tech":
                self.buy_technology(p, i)
            else:
                self.after_withdrawal(p)
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
