"""The reference rules engine of Age of Industry: one game in plain Python that reads like the rulebook.

This is the readable oracle a batched kernel will be checked against game by game. One method per rule, named as
the rulebook names it (*Age of Industry*, Martin Wallace, Treefrog Games 2010, second edition; sections cited by
their names), the rulebook's sentence beside any line that is not obvious. Rulings on what the rulebook leaves
open are in ``docs/age-of-industry/rules.md``, numbered; the code cites them as "ruling N".

A game is a sequence of decisions, each made by ``current_player`` by choosing one of ``legal_actions()`` (integers
of the flat encoding, :mod:`.actions`). What needs no decision (a cube with one nearest source, the demand track's
filling, flips and their income, loans when money is short, the turn order, interest, the end) runs by itself.
Chance comes only at set-up, from :mod:`.chance`, so a seed and a list of actions reproduce a game exactly.

Networks are searched by breadth-first search over the map's link tables (plain loops over index lists, as a
kernel would), never over Python objects. ``apply`` of a forbidden action raises :class:`IllegalActionError` and
changes nothing.

:class:`Game` is this module's set-up, public API, legal actions, hidden information and saving, and the rules of
the modules it mixes in: :mod:`.transport` (networks, coal and iron), :mod:`.money` (loans, payments, income),
:mod:`.player_actions` (the six actions) and :mod:`.rounds` (turns, rounds, the end and the final scoring).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ...core.textdata import TextDataError, parse_json
from . import chance
from .actions import ActionSpace, action_space, action_to_string
from .components import IMPORT_SPACE, MAPS, Components, GameMap, load_components, load_map
from .money import Money
from .player_actions import PlayerActions
from .rounds import Rounds
from .rules import (
    ACTIONS_FIRST_ROUND,
    ACTIONS_PER_TURN,
    ALLOWED,
    COAL,
    HAND_LIMIT,
    HAND_SIZE,
    HAND_SIZE_FIRST_EDITION_4P,
    IRON,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_FACE_UP,
    RAILS_PER_PLAYER,
)
from .state import (
    ACTION,
    BUILD_WHERE,
    COAL_SOURCE,
    DEVELOP_WHICH,
    DRAW_SECOND,
    GAME_NAME,
    IRON_SOURCE,
    JSON_VERSION,
    OVER,
    PHASES,
    SELL_MORE,
    SELL_TO,
    GameStateError,
    State,
)
from .transport import Transport


def _is_whole(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class IllegalActionError(ValueError):
    """An action the rules forbid at this decision; the game is left unchanged."""


class Game(Transport, Money, PlayerActions, Rounds):
    """One game of Age of Industry for 3 to 5 players on the Germany or New England map; see the module docstring.

    ``edition=1`` plays the first edition's differences (docs/age-of-industry/rules.md, "First edition").
    """

    def __init__(
        self,
        num_players: int = 4,
        seed: int = 0,
        map: str = "germany",  # noqa: A002 (the suite's option name)
        *,
        edition: int = 2,
        components: Components | None = None,
    ) -> None:
        if not _is_whole(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ValueError(f"num_players={num_players!r}: Age of Industry is played by 3 to 5 players")
        if not _is_whole(seed) or not 0 <= int(seed) < 2**63:
            raise ValueError(f"seed={seed!r}: must be a whole number from 0 to 2**63 - 1")
        if edition not in (1, 2) or not _is_whole(edition):
            raise ValueError(f"edition={edition!r}: must be 2 (the second edition, default) or 1")
        if components is not None and not isinstance(components, Components):
            raise ValueError(f"components={components!r}: must be Components (load_components(path)) or None")
        self._attach(components or load_components(), map if isinstance(map, GameMap) else load_map(map, components))
        self.s = self._set_up(int(num_players), int(seed), int(edition))
        self.forget_cached()

    def _attach(self, components: Components, game_map: GameMap) -> None:
        """Tables derived once per (components, map): nothing here changes during a game."""
        self.components, self.map = components, game_map
        self.space: ActionSpace = action_space(components, game_map)
        m, c = game_map, components
        self.build_spaces = tuple(s for s, sym in enumerate(m.SPACE_SYMBOL) if sym in ALLOWED)
        # (industry, level) -> display slot, for a counter's cost, cubes and income
        self.slot_of = {(c.SLOT_INDUSTRY[d], c.SLOT_LEVEL[d]): d for d in range(c.num_slots)}
        self.import_ship = {m.SHIP_IMPORT[s]: s for s in range(m.num_spaces) if m.SHIP_IMPORT[s] >= 0}
        self.market_ship = {m.SHIP_MARKET[s]: s for s in range(m.num_spaces) if m.SHIP_MARKET[s] >= 0}
        self.history: list[int] = []
        # Money and cubes entering and leaving the bank and the supply since this object was made (for checks).
        self.ledger = {"bank_paid": 0, "bank_received": 0, "cubes_placed": [0, 0], "cubes_removed": [0, 0]}

    # ============================================================================================ set-up
    def _set_up(self, n: int, seed: int, edition: int) -> State:
        """Iniziare il gioco."""
        c, m = self.components, self.map
        S, L = m.num_spaces, m.num_links
        first = chance.first_player(seed, n)
        # "Mescola le carte. Distribuisci 6 carte a ciascun giocatore ... Pesca le prime due carte del mazzo e
        # posizionale scoperte": the deck in draw order; seat q (from the first player) is dealt a block of cards.
        cards = [k for k in range(c.num_card_kinds) for _ in range(c.CARD_COUNT[k])]
        deck = chance.shuffle(cards, seed, chance.DECK)
        tiles = [t for t in range(len(c.TILE_COUNT)) for _ in range(c.TILE_COUNT[t])]
        tiles = chance.shuffle(tiles, seed, chance.MARKETS)
        s = State(
            num_players=n, edition=edition, seed=seed, round=1, phase=ACTION, turn=0,
            actions_left=ACTIONS_FIRST_ROUND, card=-1, combined=0, build_space=-1, build_industry=-1,
            rail_link=-1, need_coal=0, need_iron=0, sell_from=-1, draws_left=0, deck_pos=0,
            # "L'ordine di gioco procederà in senso orario rispetto a questo giocatore."
            order=[(first + i) % n for i in range(n)], spent=[0] * n,
            money=[0] * n,  # "All'inizio della partita non vengono distribuite monete ai giocatori."
            loans=[0] * n, hand=[[0] * c.num_card_kinds for _ in range(n)],
            known=[[0] * c.num_card_kinds for _ in range(n)], deck=deck, face_up=[-1] * NUM_FACE_UP,
            discard=[0] * c.num_card_kinds, display=[list(c.SLOT_COUNTERS) for _ in range(n)],
            rails_left=[RAILS_PER_PLAYER] * n, space_owner=[-1] * S, space_industry=[-1] * S, space_level=[0] * S,
            space_flipped=[0] * S, space_no_flip=[0] * S, space_cubes=[0] * S, space_tile=[-1] * S,
            link_owner=[-1] * L,
            # "Posiziona un cubetto di carbone su ciascuna casella nera libera nell'area della richiesta"
            demand=[len(c.DEMAND_PRICES[0]), len(c.DEMAND_PRICES[1])],
        )  # fmt: skip
        self.s = s
        hand_size = HAND_SIZE_FIRST_EDITION_4P if edition == 1 and n == 4 else HAND_SIZE
        for i in range(n):
            for _ in range(hand_size):
                s.hand[s.order[i]][self.take_from_deck()] += 1
        for j in range(NUM_FACE_UP):
            s.face_up[j] = self.take_from_deck()
        # "Disponi una tessera mercato ... su ciascuna casella con l'icona mercato." (tiles left over go to the box)
        for j, sp in enumerate(m.market_spaces):
            s.space_tile[sp] = tiles[j]
        if edition == 1:  # first edition: import coal laid at set-up (ruling 14)
            for sp in range(S):
                if m.SPACE_SYMBOL[sp] == IMPORT_SPACE:
                    s.space_cubes[sp] = m.SPACE_IMPORT[sp]
        return s

    def take_from_deck(self) -> int:
        """The deck's top card, drawn."""
        s = self.s
        k = s.deck[s.deck_pos]
        s.deck[s.deck_pos] = -1  # a drawn card's place in the deck is blank: the state keeps no history of draws
        s.deck_pos += 1
        return k

    # ============================================================================================ public API
    @property
    def num_players(self) -> int:
        return self.s.num_players

    @property
    def is_over(self) -> bool:
        """True once the last round is played (the final scoring is :meth:`score_breakdown`)."""
        return self.s.phase == OVER

    @property
    def current_player(self) -> int:
        """The seat whose decision is awaited (-1 once the game is over)."""
        return -1 if self.s.phase == OVER else self.s.order[self.s.turn]

    @property
    def phase(self) -> str:
        """The decision awaited: one of :data:`.state.PHASES`."""
        return PHASES[self.s.phase]

    @property
    def num_actions(self) -> int:
        return self.space.size

    def legal_actions(self) -> list[int]:
        """The actions the current player may take, in increasing order (empty once the game is over)."""
        if self._legal is None:
            self._legal = sorted(self._compute_legal())
        return list(self._legal)

    def legal_action_mask(self) -> np.ndarray:
        """bool[num_actions]: True for each legal action."""
        mask = np.zeros(self.space.size, bool)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player, then run everything that needs no decision."""
        if not _is_whole(action):
            raise IllegalActionError(f"action {action!r} is not an action of this game (0..{self.num_actions - 1})")
        legal = self.legal_actions()
        if int(action) not in legal:
            raise IllegalActionError(self._why_illegal(int(action), legal))
        a = int(action)
        self.history.append(a)
        block, i = self.space.block(a)
        p = self.current_player
        handler = self.handler(block)
        try:
            handler(p, i)
        finally:
            self.forget_cached()

    def action_to_string(self, action: int) -> str:
        return action_to_string(action, self.space)

    def string_to_action(self, text: str) -> int:
        from .actions import string_to_action

        return string_to_action(text, self.space)

    def forget_cached(self) -> None:
        """Drop what was computed from the position (legal actions, distances): call after editing ``s`` by hand."""
        self._legal: list[int] | None = None
        self.network_changed()

    # ============================================================================================ legal actions
    def _compute_legal(self) -> list[int]:
        s, A = self.s, self.space
        if s.phase == OVER:
            return []
        p = self.current_player
        out: list[int] = []
        if s.phase == ACTION:
            out += self._action_choices(p)
        elif s.phase == BUILD_WHERE:
            out += [A.build_at(sp, i) for sp, i in self.build_options(p, s.card, bool(s.combined))]
        elif s.phase in (COAL_SOURCE, IRON_SOURCE):
            r = COAL if s.phase == COAL_SOURCE else IRON
            out += [A.source(h) for h in self.nearest_sources(r, self.delivery_locs())]
        elif s.phase == SELL_TO:
            out += [A.SELL_TO + t for t in self.sale_targets(s.sell_from)]
        elif s.phase == SELL_MORE:
            out += [A.SELL + sp for sp in self.sellers(p)] + [A.DONE]
        elif s.phase == DEVELOP_WHICH:
            out += [A.REMOVE + d for d, n in enumerate(s.display[p]) if n > 0]
        elif s.phase == DRAW_SECOND:
            out += self.draw_choices()
        # Prestiti: "Puoi ripagare il prestito in qualsiasi momento, durante il tuo turno"
        if s.loans[p] > 0 and s.money[p] >= self.components.LOAN_REPAY:
            out.append(A.REPAY)
        return out

    def draw_choices(self) -> list[int]:
        """The draws open now: the deck while it lasts, and each face-up card."""
        s, A = self.s, self.space
        out = [A.DRAW] if self.deck_left() > 0 else []
        return out + [A.DRAW + 1 + j for j in range(NUM_FACE_UP) if s.face_up[j] >= 0]

    def _action_choices(self, p: int) -> list[int]:
        """The six actions (Prima Fase), with the card each is taken with."""
        s, A = self.s, self.space
        out: list[int] = []
        hand = s.hand[p]
        combined_ok = any(hand) and s.actions_left == ACTIONS_PER_TURN and bool(self.build_options(p, 0, True))
        can_develop = any(s.display[p])
        for k in range(self.components.num_card_kinds):
            if hand[k] == 0:
                continue
            if self.card_builds(k):
                if self.build_options(p, k, False):
                    out.append(A.BUILD + k)
                if combined_ok:  # ruling 2: both actions of a turn, so never in round 1
                    out.append(A.BUILD_ANY + k)
            if can_develop:
                out.append(A.DEVELOP + k)
            out.append(A.PASS + k)
        out += [A.RAIL + li for li in self.rail_options(p)]
        out += [A.SELL + sp for sp in self.sellers(p)]
        if self.hand_size(p) < HAND_LIMIT:  # "Non puoi mai superare tale limite"
            out += self.draw_choices()
        # "Se non hai carte in mano e non è possibile pescare altre carte dal mazzo puoi effettuare quest'azione
        # senza dover scartare una carta."
        if not any(hand) and self.deck_left() == 0:
            out.append(A.PASS_FREE)
        return out

    # ============================================================================================ hidden information
    def observe(self, seat: int, full_information: bool = False) -> np.ndarray:
        """float32 observation of ``seat``: its own hand and everything public, never other hands or the deck
        (``full_information=True``: the oracle view, for debugging and centralized critics only)."""
        from .observation import observe

        return observe(self, seat, full_information)

    def resample(self, seat: int, rng: Any = None) -> Game:
        """A copy of the game where what ``seat`` cannot know is redealt at random (see :mod:`.observation`)."""
        from .observation import resample

        return resample(self, seat, rng)

    def full_view(self) -> dict[str, Any]:
        """Every entry of the position, hidden ones included: for debugging only, never for an agent."""
        return {"map": self.map.key, **self.s.to_dict()}

    # ============================================================================================ saving, errors
    def clone(self) -> Game:
        game = Game.__new__(Game)
        game._attach(self.components, self.map)
        game.s = self.s.copy()
        game.forget_cached()
        return game

    def to_json(self) -> str:
        """The whole position as JSON (hidden entries included); :meth:`from_json` gives back the same game."""
        doc = {"version": JSON_VERSION, "game": GAME_NAME, "map": self.map.key, **self.s.to_dict()}
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(
        cls, text: str, components: Components | None = None, game_map: str | Path | GameMap | None = None
    ) -> Game:
        """Build a game from :meth:`to_json` text (or a hand-written position); refuse a corrupt, inconsistent or
        unreachable one with :class:`GameStateError` saying which entry is wrong and why.

        The position's ``map`` entry names a shipped map; a position on a map file of one's own loads only with
        that file given here (``game_map``): a saved game never opens a file it names itself."""
        from .positions import state_from_dict

        try:
            doc = parse_json(text)
        except TextDataError as exc:
            raise GameStateError(f"saved game is {exc}") from None
        if not isinstance(doc, dict):
            raise GameStateError("saved game must be a JSON object")
        components = components or load_components()
        named = doc.get("map", "germany")
        if game_map is None and named not in MAPS:
            raise GameStateError(
                f"saved game entry 'map': {named!r} is not a shipped map ({', '.join(MAPS)}); a position on a map "
                "file of your own loads only with that file given (Game.from_json(text, game_map=PATH), the "
                "command line's --map PATH): a saved game never opens a file it names")
        try:
            game_map = game_map if isinstance(game_map, GameMap) else load_map(named if game_map is None else game_map,
                                                                               components)  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - any map problem is a problem of this document
            raise GameStateError(f"saved game entry 'map': {exc}") from None
        if named in MAPS and game_map.key != named:
            raise GameStateError(f"saved game entry 'map': {named!r}, but it is loaded on map {game_map.key!r}")
        game = cls.__new__(cls)
        game._attach(components, game_map)
        game.s = state_from_dict(doc, components, game_map)
        game.forget_cached()
        game._check_live()
        return game

    def _check_live(self) -> None:
        """A game not over awaits a decision the rules can answer: some legal action besides repaying a loan (which
        leaves the decision where it is). Positions the rules never reach are refused."""
        if self.is_over or any(a != self.space.REPAY for a in self.legal_actions()):
            return
        s = self.s
        card = f", card {self.components.card_label(s.card)!r}" if s.card >= 0 else ""
        raise GameStateError(f"saved game entry 'phase': at the {self.phase} decision{card}, seat "
                             f"{self.current_player} has no legal action, and the game is not over")  # fmt: skip

    def _why_illegal(self, action: int, legal: list[int]) -> str:
        try:
            name = self.action_to_string(action)
        except ValueError:
            return f"action {action} is not an action of Age of Industry on this map (0..{self.space.size - 1})"
        if self.is_over:
            return f"action {name!r} refused: the game is over"
        names = ", ".join(self.action_to_string(a) for a in legal[:10])
        more = "" if len(legal) <= 10 else f", ... ({len(legal)} in all)"
        return (f"action {name!r} is not legal for seat {self.current_player} at this {self.phase} decision; "
                f"legal: {names}{more}")

    def render(self) -> str:
        from .render import render_text

        return render_text(self)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return (f"Game(num_players={self.num_players}, seed={self.s.seed}, map={self.map.key!r}, round={self.s.round}, "
                f"phase={self.phase!r}, current_player={self.current_player})")  # fmt: skip
