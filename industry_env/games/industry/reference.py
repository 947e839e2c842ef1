"""The reference rules engine: one game of Industry in plain Python that reads like the rulebook.

This is the readable oracle that the fast batched engine (:mod:`industry_env.games.industry.engine`) is checked against
game by game. It favours clarity over speed: one method per phase or rule, named as the rulebook names it, and the
rulebook's sentence beside any line that is not obvious. Rulings on what the rulebook leaves open are listed,
with reasons, in ``docs/industry/rules.md``.

A game is a sequence of decisions, each made by ``current_player`` by choosing one of ``legal_actions()``
(integers of the one action encoding, :mod:`industry_env.games.industry.actions`). Phases with no decision (income,
drawing column tokens, the new starting player, the change of era, the final scoring) run by themselves. Chance (the
starting player and the bag) comes from :mod:`industry_env.games.industry.chance`, so a seed and a list of actions
reproduce a game exactly, in this engine and in the batched one.

Conventions: ``apply`` of a forbidden action raises :class:`IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ...core.textdata import TextDataError, parse_json
from . import actions as A
from . import chance
from .components import Board, load_board
from .observation import observe_game
from .positions import AUCTION, BID, DEVELOP, JSON_VERSION, OVER, PAY, SELL_OR_KEEP, GameStateError, Position
from .rules import (
    BONUS,
    COIN_COLUMN,
    COIN_TOKEN_MONEY,
    FACTORY,
    INCOME,
    JOKER,
    JOKER_POINTS,
    LINK_POINTS,
    MAX_BID,
    MAX_DEVELOPMENTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_COLUMNS,
    NUM_ERAS,
    NUM_FIELDS,
    NUM_JOKER_KINDS,
    RESOURCE_PRICE,
    STARTING_MONEY,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TALERS_PER_POINT,
    TECHNOLOGY,
    WILD_JOKER,
    tokens_per_round,
)


def _is_whole(x: object) -> bool:
    """A Python or numpy integer, not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class IllegalActionError(ValueError):
    """An action that the rules forbid at this decision; the game is left unchanged."""


class Game:
    """One game of Industry for 3 or 4 players; see the module docstring."""

    def __init__(
        self,
        num_players: int = 4,
        seed: int = 0,
        board: Board | None = None,
        balanced_draws: bool = True,
    ) -> None:
        # Whole numbers only (not 4.0, not True) and real booleans (a non-empty string would be true).
        if not _is_whole(num_players) or num_players not in (MIN_PLAYERS, MAX_PLAYERS):
            raise ValueError(f"num_players={num_players!r}: Industry is played by {MIN_PLAYERS} or {MAX_PLAYERS}")
        if not _is_whole(seed) or not 0 <= int(seed) < 2**63:
            raise ValueError(f"seed={seed!r}: must be a whole number from 0 to 2**63 - 1")
        if not isinstance(balanced_draws, (bool, np.bool_)):
            raise ValueError(f"balanced_draws={balanced_draws!r}: must be True or False")
        if board is not None and not isinstance(board, Board):
            raise ValueError(f"board={board!r}: must be a Board (industry_env.load_board(path)) or None")
        self.board = board if board is not None else load_board()
        s = Position(num_players=int(num_players), balanced_draws=bool(balanced_draws), seed=int(seed))
        self.s = s
        # Preparing the Game: "Give each player 4 Talers"; "Randomly decide which player takes the Starting
        # Player marker"; "Place the Column tokens in the bag and mix them."
        s.money = [STARTING_MONEY] * num_players
        s.points = [0] * num_players
        s.jokers = [[0] * NUM_JOKER_KINDS for _ in range(num_players)]
        s.subsidy = [False] * num_players
        s.starting_player = int(chance.starting_player(s.seed, num_players))
        s.bag = [int(c) for c in chance.bag_order(s.seed, 0)]
        self._begin_round()

    # ------------------------------------------------------------------ public API
    @property
    def num_players(self) -> int:
        return self.s.num_players

    @property
    def is_over(self) -> bool:
        """True once the last round of Era 5 has been played and the final scoring done."""
        return self.s.phase == OVER

    @property
    def current_player(self) -> int:
        """The player whose decision is awaited (-1 once the game is over)."""
        s = self.s
        return {AUCTION: s.auctioneer, BID: s.bidder, SELL_OR_KEEP: s.auctioneer,
                DEVELOP: s.developer, PAY: s.developer}.get(s.phase, -1)  # fmt: skip

    @property
    def phase(self) -> str:
        """The kind of decision awaited: auction, bid, sell_or_keep, develop, pay, or over."""
        return self.s.phase

    def legal_actions(self) -> list[int]:
        """The actions the current player may take, in increasing order (empty once the game is over)."""
        s, p = self.s, self.current_player
        if s.phase == OVER:
            return []
        out: list[int] = []
        if s.phase == AUCTION:
            out += [A.auction(f) for f in self._available_fields()]
        elif s.phase == BID:
            out.append(A.PASS)
            # "A bid must be higher than any preceding bid, and a player cannot bid more Talers than he can pay."
            out += [A.bid(k) for k in range(s.high_bid + 1, min(s.money[p], MAX_BID) + 1)]
        elif s.phase == SELL_OR_KEEP:
            out.append(A.SELL)
            if s.money[p] >= s.high_bid:  # ruling: he can keep only if he can pay the full price
                out.append(A.KEEP)
        elif s.phase == DEVELOP:
            out += [A.develop(f) for f in range(NUM_FIELDS) if self._can_develop(p, f)]
            out.append(A.DONE)
        elif s.phase == PAY:
            r = s.pending[0]
            out += [A.pay(r, way) for way in self._ways_to_pay(p, r) if self._feasible_after(p, r, way)]
        if not s.subsidy[p]:
            out.append(A.SUBSIDY)  # "At any time during the game, a player may take one Subsidy token"
        return sorted(out)

    def legal_action_mask(self) -> np.ndarray:
        """bool[NUM_ACTIONS]: True for each legal action."""
        mask = np.zeros(A.NUM_ACTIONS, bool)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player, then run every phase that needs no decision."""
        legal = self.legal_actions()
        # Only whole numbers (Python or numpy integers, not bools) are actions: int() would also accept 4.5 or "4".
        if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
            raise IllegalActionError(f"action {action!r} is not an action of Industry (0..{A.NUM_ACTIONS - 1})")
        if int(action) not in legal:
            raise IllegalActionError(self._why_illegal(action, legal))
        a, s, p = int(action), self.s, self.current_player
        if a == A.SUBSIDY:
            self._take_subsidy(p)
        elif s.phase == AUCTION:
            self._open_auction(a - A.AUCTION)
        elif s.phase == BID:
            self._bid_or_pass(p, 0 if a == A.PASS else a - A.BID + 1)
        elif s.phase == SELL_OR_KEEP:
            self._sell(p) if a == A.SELL else self._keep(p)
        elif s.phase == DEVELOP:
            self._end_development_turn() if a == A.DONE else self._develop(p, a - A.DEVELOP)
        elif s.phase == PAY:
            r, way = divmod(a - A.PAY, A.NUM_PAY_WAYS)
            self._pay_resource(p, r, way)

    def scores(self) -> list[int]:
        """Points of each player: the Scoring Track, plus the final scoring once the game is over."""
        if not self.is_over:
            return list(self.s.points)
        return [sum(self.score_breakdown(p).values()) for p in range(self.num_players)]

    def score_breakdown(self, player: int) -> dict[str, int]:
        """Points of ``player`` by source; the final-scoring entries count only once the game is over."""
        s, b = self.s, self.board
        out = {"development": s.points[player]}
        if not self.is_over:
            return out
        mine = [s.developed[f] and s.owner[f] == player for f in range(NUM_FIELDS)]  # clock tokens are removed
        out["money"] = s.money[player] // TALERS_PER_POINT  # "For every 3 Talers ... 1 victory point"
        out["roads"] = LINK_POINTS * sum(mine[a] and mine[c] for a, c in b.ROADS.tolist())
        out["tech_links"] = LINK_POINTS * sum(mine[a] and mine[c] for a, c in b.TECH_LINKS.tolist())
        # "For each Bonus field ... connected to a Factory that he also owns, he earns 2 or 3 bonus points",
        # per connected Factory (the rulebook's example: 3 Ports x 2 points x 4 river Factories = 24).
        out["bonus"] = sum(
            int(b.BONUS_CONNECT[g, f]) for g in range(NUM_FIELDS) if mine[g] and b.KIND[g] == BONUS
            for f in range(NUM_FIELDS) if mine[f]
        )  # fmt: skip
        out["jokers"] = JOKER_POINTS * sum(s.jokers[player])
        out["subsidy"] = SUBSIDY_POINTS if s.subsidy[player] else 0
        return out

    def property_tokens(self, player: int) -> int:
        """Property tokens of ``player`` on the board (after the game: developed fields only)."""
        s = self.s
        return sum(s.owner[f] == player and (s.developed[f] or not self.is_over) for f in range(NUM_FIELDS))

    def winners(self) -> list[int]:
        """The players who win: most points, then most Property tokens on the board, then most money.

        Empty while the game is running; several players only if they tie on all three.
        """
        if not self.is_over:
            return []
        scores = self.scores()
        key = [(scores[p], self.property_tokens(p), self.s.money[p]) for p in range(self.num_players)]
        best = max(key)
        return [p for p in range(self.num_players) if key[p] == best]

    def returns(self) -> list[float]:
        """Terminal reward per player: +1 for a winner, -1 for the others, 0 for all if everyone ties."""
        if not self.is_over:
            return [0.0] * self.num_players
        w = self.winners()
        if len(w) == self.num_players:
            return [0.0] * self.num_players
        return [1.0 if p in w else -1.0 for p in range(self.num_players)]

    def observe(self, seat: int) -> np.ndarray:
        """What ``seat`` sees, float32[675], egocentric (:func:`.observation.observe_game`): every seat sees the
        whole table."""
        return observe_game(self, seat)

    def clone(self) -> Game:
        """An independent copy of this game."""
        return Game.from_json(self.to_json(), board=self.board)

    # ------------------------------------------------------------------ Phase 1, 2 and 5
    def _begin_round(self) -> None:
        s = self.s
        s.round += 1
        # Phase 1: Income. "Each player takes 1 Taler from the bank."
        for p in range(s.num_players):
            s.money[p] += INCOME
        # Phase 2: New Column tokens. "The Starting Player draws one Column token per player from the bag".
        k = tokens_per_round(s.num_players, s.era, s.balanced_draws)
        drawn, s.bag = s.bag[:k], s.bag[k:]
        for c in drawn:
            s.face_up[c] = True
        if COIN_COLUMN in drawn:  # "If the Column token with a coin symbol is drawn, each player ... one Taler"
            for p in range(s.num_players):
                s.money[p] += COIN_TOKEN_MONEY
        # Phase 3: Auction. "The Starting Player is the first Auctioneer".
        s.phase, s.auctioneer = AUCTION, s.starting_player

    def _new_starting_player(self) -> None:
        """Phase 5, the change of Era, and the end of the game."""
        s = self.s
        # "the Starting Player marker moves clockwise to the next player"
        s.starting_player = (s.starting_player + 1) % s.num_players
        era_fields = range(s.era * NUM_COLUMNS, (s.era + 1) * NUM_COLUMNS)
        if all(s.claimed[f] for f in era_fields):
            if s.era == NUM_ERAS - 1:
                # "Once all fields in all eras have been auctioned, the game ends at the end of the round."
                s.phase = OVER
                return
            # Change of Era: "Move the Era token down one space." The tokens go back into the bag.
            s.era += 1
            s.bag = [int(c) for c in chance.bag_order(s.seed, s.era)]
        self._begin_round()

    # ------------------------------------------------------------------ Phase 3: Auction
    def _available_fields(self) -> list[int]:
        """'A field is available if it lies in the current Era and has a face-up Column token above it.'"""
        s = self.s
        return [s.era * NUM_COLUMNS + c for c in range(NUM_COLUMNS) if s.face_up[c]]

    def _open_auction(self, f: int) -> None:
        s = self.s
        s.phase, s.lot, s.high_bid, s.high_bidder = BID, f, 0, -1
        # "In turn, starting with the player to the left of the Auctioneer, each player ... bid or pass."
        s.bidder = (s.auctioneer + 1) % s.num_players

    def _bid_or_pass(self, p: int, amount: int) -> None:
        s = self.s
        if amount > 0:
            s.high_bid, s.high_bidder = amount, p
        s.bidder = (p + 1) % s.num_players
        if s.bidder != s.auctioneer:
            return
        if s.high_bidder < 0:
            # No Bids: "the Auctioneer must claim the field himself, although he pays nothing."
            self._claim(s.auctioneer, s.lot)
            self._next_auction(s.auctioneer + 1)
        else:
            s.phase = SELL_OR_KEEP

    def _sell(self, auctioneer: int) -> None:
        """'He can let the highest bidder claim the field and take the appropriate amount of money'."""
        s = self.s
        s.money[s.high_bidder] -= s.high_bid
        s.money[auctioneer] += s.high_bid
        self._claim(s.high_bidder, s.lot)
        self._next_auction(auctioneer)  # "He remains the Auctioneer"

    def _keep(self, auctioneer: int) -> None:
        """'He claims the field himself, paying an amount equal to the highest bid.'"""
        s = self.s
        # "starting with the player to his left, the Auctioneer gives each player - including himself - 1 Taler
        # until he has paid the full price."
        for i in range(s.high_bid):
            s.money[auctioneer] -= 1
            s.money[(auctioneer + 1 + i) % s.num_players] += 1
        self._claim(auctioneer, s.lot)
        self._next_auction(auctioneer + 1)  # "His left-hand neighbor becomes the new Auctioneer"

    def _claim(self, p: int, f: int) -> None:
        """Claim a Field: a Property token clock side up, or, on a Joker field, the Joker token in hand."""
        s, b = self.s, self.board
        s.claimed[f] = True
        if b.KIND[f] == JOKER:
            s.jokers[p][b.JOKER_KIND[f]] += 1
        else:
            s.owner[f] = p
        s.face_up[f % NUM_COLUMNS] = False  # "turn the corresponding Column token face-down"

    def _next_auction(self, auctioneer: int) -> None:
        s = self.s
        s.lot, s.bidder, s.high_bid, s.high_bidder = -1, -1, 0, -1
        s.auctioneer = auctioneer % s.num_players
        s.phase = AUCTION
        if not any(s.face_up):  # "When all available fields have been auctioned, this phase ends."
            self._begin_development()

    # ------------------------------------------------------------------ Phase 4: Development
    def _begin_development(self) -> None:
        s = self.s
        # "Beginning with the Starting Player, each player may in turn develop up to two of his undeveloped fields."
        s.phase, s.developer, s.developments, s.dev_turns = DEVELOP, s.starting_player, 0, 0

    def construction_cost(self, p: int, f: int) -> int:
        """Printed cost less 1 Taler for each of the Bank and Stock Exchange ``p`` has developed, never below 0."""
        s, b = self.s, self.board
        discount = sum(int(b.DISCOUNT[g]) for g in range(NUM_FIELDS) if s.owner[g] == p and s.developed[g])
        return max(0, int(b.COST[f]) - discount)

    def _produces(self, p: int, r: int) -> bool:
        """Does ``p`` have an already developed Factory that produces ``r``?"""
        s = self.s
        return any(s.owner[f] == p and s.developed[f] for f in self.board.PRODUCERS[r])

    def _ways_to_pay(self, p: int, r: int) -> list[int]:
        """The ways ``p`` may pay one ``r`` now (PAY_* codes), money aside; empty if it is free (own factory)."""
        s, b = self.s, self.board
        ways = []
        if s.jokers[p][r] > 0:  # "a Joker token of the required resource"
            ways.append(A.PAY_JOKER)
        if s.jokers[p][WILD_JOKER] > 0:  # "The Joker token labeled ? is worth one resource of your choice."
            ways.append(A.PAY_WILD)
        if s.money[p] >= RESOURCE_PRICE:
            others = [q for q in range(s.num_players) if q != p and self._produces(q, r)]
            # "Another player has an already developed Factory that produces the required resource. You can pay
            # this player 1 Taler" (the buyer chooses among several).
            ways += [A.PAY_PLAYER + q for q in others]
            # "any available resource from the bank for 1 Taler ... only for resources that are not produced by
            # other players and only for resources that appeared in previous Eras"
            if not others and s.era >= b.BANK_ERA[r]:
                ways.append(A.PAY_BANK)
        return ways

    def _can_pay_all(self, p: int, resources: list[int]) -> bool:
        """Can ``p`` pay every resource in ``resources`` (in order) with his jokers and money?"""
        if not resources:
            return True
        r, rest = resources[0], resources[1:]
        return any(self._feasible_after(p, r, way, rest) for way in self._ways_to_pay(p, r))

    def _feasible_after(self, p: int, r: int, way: int, rest: list[int] | None = None) -> bool:
        """Would the remaining resources still be payable after paying ``r`` by ``way``?"""
        s = self.s
        rest = s.pending[1:] if rest is None else rest
        if not rest:
            return True
        undo = self._spend(p, r, way)
        try:
            return self._can_pay_all(p, rest)
        finally:
            undo()

    def _spend(self, p: int, r: int, way: int):
        """Pay one ``r`` by ``way``; return a function that takes the payment back."""
        s = self.s
        if way == A.PAY_JOKER:
            s.jokers[p][r] -= 1
            return lambda: s.jokers[p].__setitem__(r, s.jokers[p][r] + 1)
        if way == A.PAY_WILD:
            s.jokers[p][WILD_JOKER] -= 1
            return lambda: s.jokers[p].__setitem__(WILD_JOKER, s.jokers[p][WILD_JOKER] + 1)
        q = way - A.PAY_PLAYER if way >= A.PAY_PLAYER else -1
        s.money[p] -= RESOURCE_PRICE
        if q >= 0:
            s.money[q] += RESOURCE_PRICE

        def undo() -> None:
            s.money[p] += RESOURCE_PRICE
            if q >= 0:
                s.money[q] -= RESOURCE_PRICE

        return undo

    def _resources_to_pay(self, p: int, f: int) -> list[int]:
        """Required resources of ``f`` that ``p`` must pay for: all but those his own developed factories make.

        A resource the field needs twice is listed twice: two payments, each by its own way (a Joker pays one);
        his own factory pays both, "automatically regarded as being paid" (ruling 7, docs/industry/rules.md).
        """
        return [int(r) for r in self.board.NEEDS[f] if r >= 0 and not self._produces(p, int(r))]

    def _can_develop(self, p: int, f: int) -> bool:
        s, b = self.s, self.board
        if s.owner[f] != p or s.developed[f]:
            return False
        if b.KIND[f] == TECHNOLOGY and b.ERA[f] != s.era:  # "Technologies may be developed only if ... current Era"
            return False
        cost = self.construction_cost(p, f)
        # "If you do not have enough money, or a required resource is not available, you may not develop"
        if s.money[p] < cost:
            return False
        s.money[p] -= cost
        try:
            return self._can_pay_all(p, self._resources_to_pay(p, f))
        finally:
            s.money[p] += cost

    def _develop(self, p: int, f: int) -> None:
        s = self.s
        s.money[p] -= self.construction_cost(p, f)  # "He must pay the construction costs ... to the bank"
        s.developing, s.pending = f, self._resources_to_pay(p, f)
        if s.pending:
            s.phase = PAY
        else:
            self._finish_development()

    def _pay_resource(self, p: int, r: int, way: int) -> None:
        self._spend(p, r, way)
        self.s.pending.pop(0)
        if not self.s.pending:
            self._finish_development()

    def _finish_development(self) -> None:
        """Flip the Property token and score the cogwheel's points."""
        s, b = self.s, self.board
        f, p = s.developing, s.developer
        s.developed[f] = True
        # "You receive points for developing a Factory only if that Factory is located in the current Era."
        # Technologies are developed only in their era; "Bonus fields earn victory points only at the end".
        if b.KIND[f] == TECHNOLOGY or (b.KIND[f] == FACTORY and b.ERA[f] == s.era):
            s.points[p] += int(b.POINTS[f])
        s.developing, s.pending, s.phase = -1, [], DEVELOP
        s.developments += 1
        if s.developments == MAX_DEVELOPMENTS:
            self._end_development_turn()

    def _end_development_turn(self) -> None:
        s = self.s
        s.dev_turns += 1
        if s.dev_turns == s.num_players:
            s.developer, s.developments, s.dev_turns = -1, 0, 0
            self._new_starting_player()
        else:
            s.developer, s.developments = (s.developer + 1) % s.num_players, 0

    # ------------------------------------------------------------------ Subsidy
    def _take_subsidy(self, p: int) -> None:
        """'a player may take one Subsidy token ... He immediately takes 3 Talers from the bank.'"""
        self.s.subsidy[p] = True
        self.s.money[p] += SUBSIDY_MONEY

    # ------------------------------------------------------------------ errors, saving, rendering
    def _why_illegal(self, action: Any, legal: list[int]) -> str:
        try:
            name = A.action_to_string(int(action), self.board.resource_names)
        except (TypeError, ValueError):
            return f"action {action!r} is not an action of Industry (0..{A.NUM_ACTIONS - 1})"
        if self.is_over:
            return f"action {name!r} refused: the game is over"
        names = ", ".join(A.action_to_string(a, self.board.resource_names) for a in legal[:12])
        more = "" if len(legal) <= 12 else f", ... ({len(legal)} in all)"
        return (f"action {name!r} is not legal for player {self.current_player} at this {self.phase} decision; "
                f"legal: {names}{more}")  # fmt: skip

    def to_json(self) -> str:
        """The whole position as JSON; ``Game.from_json`` gives back an identical game."""
        doc = {"version": JSON_VERSION, "board": self.board.path, **self.s.__dict__}
        return json.dumps(doc, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, board: Board | None = None) -> Game:
        """Build a game from ``to_json`` text (or a hand-written position); refuse corrupt or inconsistent input.

        ``board`` defaults to the shipped board; the file's ``board`` entry is informative only.
        """
        from .positions import state_from_dict

        try:
            doc = parse_json(text)
        except TextDataError as exc:
            raise GameStateError(f"saved game is {exc}") from None
        game = cls.__new__(cls)
        game.board = board if board is not None else load_board()
        game.s = state_from_dict(doc, game.board)
        return game

    def render(self) -> str:
        """A text picture of the position: board grid, owners, money, points, era and the awaited decision."""
        from .render import render_text

        return render_text(self)

    def __repr__(self) -> str:
        return (f"Game(num_players={self.num_players}, seed={self.s.seed}, era={self.s.era + 1}, "
                f"round={self.s.round}, phase={self.phase!r}, current_player={self.current_player})")  # fmt: skip
