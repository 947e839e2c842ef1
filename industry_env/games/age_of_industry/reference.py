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
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ...core.textdata import TextDataError, parse_json
from . import chance
from .actions import ActionSpace, action_space, action_to_string
from .components import (
    IMPORT_SPACE,
    MAPS,
    MARKET_SPACE,
    TILE_ACCEPTS,
    Components,
    GameMap,
    load_components,
    load_map,
)
from .rules import (
    ACTIONS_FIRST_ROUND,
    ACTIONS_PER_TURN,
    ALLOWED,
    COAL,
    COAL_MINE,
    COTTON,
    COTTON_MILL,
    DOLLARS_PER_POINT,
    EMPTY_DEMAND_PRICE,
    FACTORY,
    HAND_LIMIT,
    HAND_SIZE,
    HAND_SIZE_FIRST_EDITION_4P,
    IRON,
    IRON_WORKS,
    MANUFACTURED,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_FACE_UP,
    NUM_INDUSTRIES,
    POINTS_PER_UNPAID_LOAN,
    PORT,
    RAIL_COST,
    RAIL_INCOME,
    RAILS_PER_PLAYER,
    SHIP,
    SHIP_SPACE,
    spaces_allowed,
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

DEMAND = -1  # a source: the demand track


def _is_whole(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


# the counters a sea lane reads (lane_open): placing or removing one changes which links are completed
LANE_COUNTERS = (PORT, SHIP)

class IllegalActionError(ValueError):
    """An action the rules forbid at this decision; the game is left unchanged."""


class Game:
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
        self._import_ship = {m.SHIP_IMPORT[s]: s for s in range(m.num_spaces) if m.SHIP_IMPORT[s] >= 0}
        self._market_ship = {m.SHIP_MARKET[s]: s for s in range(m.num_spaces) if m.SHIP_MARKET[s] >= 0}
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
                s.hand[s.order[i]][self._take_from_deck()] += 1
        for j in range(NUM_FACE_UP):
            s.face_up[j] = self._take_from_deck()
        # "Disponi una tessera mercato ... su ciascuna casella con l'icona mercato." (tiles left over go to the box)
        for j, sp in enumerate(m.market_spaces):
            s.space_tile[sp] = tiles[j]
        if edition == 1:  # first edition: import coal laid at set-up (ruling 14)
            for sp in range(S):
                if m.SPACE_SYMBOL[sp] == IMPORT_SPACE:
                    s.space_cubes[sp] = m.SPACE_IMPORT[sp]
        return s

    def _take_from_deck(self) -> int:
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
        handler = getattr(self, f"_on_{block.lower()}")
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
        self._network_changed()

    def _network_changed(self) -> None:
        """Drop the distances and the completed links: a rail was laid, or a port or a ship came or went (what
        :meth:`link_completed` reads, :data:`LANE_COUNTERS`), or the position was replaced."""
        self._dist_cache: dict[tuple[int, ...], list[int]] = {}
        self._completed: list[bool] | None = None

    # ============================================================================================ networks
    def lane_open(self, link: int) -> bool:
        """A sea lane counts as a completed link once its ship space holds a ship and, where its other end is a
        port location, a port counter stands there (Carbone e acciaio: "purchè sia presente un segnalino porto ad
        ogni estremità ed un segnalino nave nelle località intermedie"; ruling 11)."""
        m, s = self.map, self.s
        for here, other in ((m.LINK_A[link], m.LINK_B[link]), (m.LINK_B[link], m.LINK_A[link])):
            spaces = m.LOC_SPACES[here]
            if len(spaces) == 1 and m.SPACE_SYMBOL[spaces[0]] == SHIP_SPACE:  # the ship end
                if s.space_industry[spaces[0]] != SHIP:
                    return False
                return not m.LOC_HAS_PORT_SPACE[other] or self._port_counter_at(other)
        return False

    def link_completed(self, link: int) -> bool:
        """A rail link with a rail counter (anyone's), or an open sea lane."""
        return self.lane_open(link) if self.map.LINK_SEA[link] else self.s.link_owner[link] >= 0

    def distances(self, starts: tuple[int, ...]) -> list[int]:
        """Completed links from the nearest of ``starts`` to every location (-1: unreachable), by breadth-first
        search. "misurando la distanza in tratte ferroviarie completate"; "Una linea di mare conta come una
        tratta ferroviaria completata". A no-through location (Pennsylvania) is reached but never passed
        through ("Quello che non puoi fare è far attraversare questa località")."""
        cached = self._dist_cache.get(starts)
        if cached is not None:
            return cached
        m = self.map
        if self._completed is None:  # every link's state, once per position
            self._completed = [self.link_completed(link) for link in range(m.num_links)]
        completed = self._completed
        dist = [-1] * m.num_locations
        queue = list(starts)
        for x in starts:
            dist[x] = 0
        head = 0
        while head < len(queue):
            x = queue[head]
            head += 1
            if m.LOC_NO_THROUGH[x] and dist[x] > 0:
                continue
            for link in m.LOC_LINKS[x]:
                y = m.LINK_B[link] if m.LINK_A[link] == x else m.LINK_A[link]
                if dist[y] < 0 and completed[link]:
                    dist[y] = dist[x] + 1
                    queue.append(y)
        self._dist_cache[starts] = dist
        return dist

    def _port_counter_at(self, loc: int) -> bool:
        s = self.s
        return any(s.space_industry[sp] == PORT for sp in self.map.LOC_SPACES[loc])

    def demand_track_access(self, dist: list[int]) -> bool:
        """Prelevare acciaio e carbone dall'area della richiesta: "la località in cui vuoi costruire deve essere
        connessa tramite una rete ferroviaria ad un segnalino porto o ad una località che ha un'icona Porto
        distante. Non ha importanza a chi appartiene il porto o se il segnalino sia girato o meno." """
        m = self.map
        return any(d >= 0 and (m.LOC_DISTANT_PORT[x] or self._port_counter_at(x)) for x, d in enumerate(dist))

    def _holds(self, r: int, sp: int) -> bool:
        """Can space ``sp`` give a cube of resource ``r``: a mine's coal, an iron works' iron, an import's coal."""
        s = self.s
        if s.space_cubes[sp] <= 0:
            return False
        if r == COAL:
            return s.space_industry[sp] == COAL_MINE or self.map.SPACE_SYMBOL[sp] == IMPORT_SPACE
        return s.space_industry[sp] == IRON_WORKS

    def nearest_sources(self, r: int, starts: tuple[int, ...]) -> list[int]:
        """Carbone e acciaio: "Il materiale deve essere prelevato dalla fonte più vicina ... Se ci sono due o più
        fonti alla stessa distanza puoi scegliere quale utilizzare." The spaces holding ``r`` at the least distance
        from ``starts``; if none is reachable, ``[DEMAND]`` when the demand track may be used; else []."""
        dist = self.distances(starts)
        cubes, space_loc = self.s.space_cubes, self.map.SPACE_LOC
        best, out = -1, []
        for sp in range(self.map.num_spaces):
            if cubes[sp] <= 0:  # most spaces hold no cube: the cheap test first
                continue
            d = dist[space_loc[sp]]
            if d < 0 or not self._holds(r, sp):
                continue
            if best < 0 or d < best:
                best, out = d, [sp]
            elif d == best:
                out.append(sp)
        if out:
            return out
        # "Ti potresti trovare nella condizione di aver bisogno di carbone e/o acciaio e non poterlo prelevare dalla
        # mappa. In questa situazione puoi prelevare le materie prime dall'area della richiesta."
        return [DEMAND] if self.demand_track_access(dist) else []

    def _can_deliver(self, r: int, locs: tuple[int, ...]) -> bool:
        """Some cube of ``r`` can reach one of ``locs`` (each end checked alone: a cube reaching either will do)."""
        return any(self.nearest_sources(r, (x,)) for x in locs)

    def cubes_anywhere(self, r: int) -> bool:
        """Any cube of ``r`` on the map or on the demand track (the condition for overbuilding an opponent)."""
        return self.s.demand[r] > 0 or any(self._holds(r, sp) for sp in range(self.map.num_spaces))

    # ============================================================================================ money
    def _receive(self, p: int, amount: int) -> None:
        self.s.money[p] += amount
        self.ledger["bank_paid"] += amount

    def take_loans(self, p: int, amount: int) -> None:
        """Prestiti: "Ogni volta che hai bisogno di pagare per qualcosa puoi ottenere uno o più prestiti, in base a
        quanto denaro ti occorre. Ogni singolo prestito ti consente di prendere $10": just enough loans to pay
        ``amount`` (ruling 4: loans only when a payment is due, and then the fewest that cover it)."""
        s, value = self.s, self.components.LOAN_VALUE
        if s.money[p] < amount:
            k = -(-(amount - s.money[p]) // value)
            s.loans[p] += k
            self._receive(p, k * value)

    def _pay(self, p: int, amount: int, spent: bool) -> None:
        """Pay the bank, borrowing first if short; ``spent`` counts it for the turn order ("posiziona le monete
        che hai speso durante il round nella casella di fianco al tuo gettone")."""
        if amount <= 0:
            return
        self.take_loans(p, amount)
        s = self.s
        s.money[p] -= amount
        self.ledger["bank_received"] += amount
        if spent:
            s.spent[p] += amount

    def repay_loan(self, p: int) -> None:
        """Prestiti: "Puoi ripagare il prestito in qualsiasi momento, durante il tuo turno, restituendo la somma
        indicata sulla tessera prestito." Not money spent for the turn order (ruling 5)."""
        self._pay(p, self.components.LOAN_REPAY, spent=False)
        self.s.loans[p] -= 1

    # ============================================================================================ flips and cubes
    def flip(self, sp: int) -> None:
        """Flip the counter on ``sp``: "Non appena giri un tuo edificio guadagni immediatamente la somma di denaro
        indicata sulla scheda giocatore" (its owner, even out of turn)."""
        s = self.s
        s.space_flipped[sp] = 1
        d = self.slot_of[(s.space_industry[sp], s.space_level[sp])]
        self._receive(s.space_owner[sp], self.components.SLOT_INCOME[d])

    def check_ship(self, ship_sp: int) -> None:
        """Vendere Beni: "La tessera nave deve essere girata non appena vengono prelevati tutti i cubetti di carbone
        e girata la tessera mercato. Se la tessera mercato è una tessera 'No demand' la tessera nave deve essere
        girata quando viene utilizzato tutto il carbone disponibile." A ship built over a ship never flips."""
        s, m = self.s, self.map
        if s.space_industry[ship_sp] != SHIP or s.space_flipped[ship_sp] or s.space_no_flip[ship_sp]:
            return
        imp, mkt = m.SHIP_IMPORT[ship_sp], m.SHIP_MARKET[ship_sp]
        coal_gone = imp < 0 or s.space_cubes[imp] == 0
        market_done = mkt < 0 or s.space_flipped[mkt] or not any(TILE_ACCEPTS[s.space_tile[mkt]])
        if coal_gone and market_done:
            self.flip(ship_sp)

    def demand_price(self, r: int) -> int:
        """"Devi prendere le materie dalla riga meno costosa a disposizione"; "$4" once the track is empty."""
        n = self.s.demand[r]
        return self.components.DEMAND_PRICES[r][n - 1] if n > 0 else EMPTY_DEMAND_PRICE

    def take_cube(self, p: int, r: int, source: int) -> None:
        """Move one cube of ``r`` from ``source`` (a space, or DEMAND) to the build: "rimuovi la risorsa e riponila
        nella riserva"; a bought cube is money spent ("contando anche i costi aggiuntivi per acquistare carbone
        e acciaio dall'area della richiesta"); the last cube of a mine or iron works flips it."""
        s = self.s
        self.ledger["cubes_removed"][r] += 1
        if source == DEMAND:
            self._pay(p, self.demand_price(r), spent=True)
            if s.demand[r] > 0:
                s.demand[r] -= 1
            else:  # "È possibile acquistare materie prime anche se non sono più disponibili cubetti": from the supply
                self.ledger["cubes_placed"][r] += 1
            return
        s.space_cubes[source] -= 1
        if s.space_cubes[source] == 0:
            if self.map.SPACE_SYMBOL[source] == IMPORT_SPACE:
                self.check_ship(self._import_ship[source])
            else:  # "Quando viene prelevato l'ultimo cubetto ... il segnalino ... viene immediatamente girato"
                self.flip(source)

    def fill_demand_track(self, r: int, sp: int, owner: int) -> None:
        """Cubetti di acciaio e carbone: "Se ... ci sono degli spazi vuoti sull'area della richiesta dovrai
        trasportare le materie prime direttamente su quest'area ... Per ogni materia prima posizionata sull'area
        riceverai del denaro, pari al prezzo indicato sulla riga corrispondente. Riempi dal basso verso l'alto."
        The dearest empty space first (ruling 8)."""
        s, prices = self.s, self.components.DEMAND_PRICES[r]
        while s.space_cubes[sp] > 0 and s.demand[r] < len(prices):
            s.space_cubes[sp] -= 1
            self._receive(owner, prices[s.demand[r]])
            s.demand[r] += 1

    # ============================================================================================ cards
    def play_card(self, p: int, k: int) -> None:
        """Play or discard a card: "posizionandola scoperta in cima al mazzo degli scarti". The other seats knew
        ``known`` cards of this kind in the hand; one fewer now, whether or not the hand held another, unseen copy:
        they cannot tell which copy was played (ruling 18)."""
        s = self.s
        s.hand[p][k] -= 1
        s.known[p][k] = max(s.known[p][k] - 1, 0)
        s.discard[k] += 1
        s.card = k

    def _hand_size(self, p: int) -> int:
        return sum(self.s.hand[p])

    def _deck_left(self) -> int:
        return len(self.s.deck) - self.s.deck_pos

    # ============================================================================================ build rules
    def lowest_counter(self, p: int, i: int) -> int:
        """Restrizioni riguardanti la scheda del giocatore: "devi prendere quello del livello tecnologico più
        basso": the display slot of ``p``'s lowest counter of industry ``i``, -1 if none is left."""
        c, row = self.components, self.s.display[p]
        for d in c.SLOTS_OF[i]:
            if row[d] > 0:
                return d
        return -1

    def _own_counters_at(self, p: int, loc: int) -> int:
        return sum(self.s.space_owner[sp] == p for sp in self.map.LOC_SPACES[loc])

    def _own_rail_at(self, p: int, loc: int) -> bool:
        s, m = self.s, self.map
        return any(not m.LINK_SEA[li] and s.link_owner[li] == p for li in m.LOC_LINKS[loc])

    def _has_industry_on_map(self, p: int) -> bool:
        return p in self.s.space_owner

    def industry_card_reaches(self, p: int, sp: int, i: int) -> bool:
        """Restrizioni carte edificio: where an industry card of ``i`` lets ``p`` build (one condition suffices)."""
        m, s = self.map, self.s
        loc = m.SPACE_LOC[sp]
        if not self._has_industry_on_map(p):
            return True  # "Se non hai nessun segnalino industria sulla mappa puoi costruire ovunque."
        if self._own_rail_at(p, loc):
            return True  # "Se sei connesso con una tua ferrovia alla località." (ruling 12)
        if self._own_counters_at(p, loc) and m.LOC_BUILD_SPACES[loc] >= 4:
            return True  # "Se hai già costruito un'industria in quella località E la località è composta da quattro..."
        if s.space_owner[sp] == p:
            return True  # "Se la casella contiene già un tuo segnalino industria"
        # "Se hai giocato una carta Nave e la casella nave in questione è connessa ad una località con una casella
        # porto sulla quale è già presente un tuo segnalino (può essere un porto o una ferrovia ...)"
        return i == SHIP and any(
            self._own_rail_at(p, x) or any(s.space_owner[t] == p and s.space_industry[t] == PORT
                                           for t in m.LOC_SPACES[x])
            for x in m.SHIP_PORT_LOCS[sp]
        )  # fmt: skip

    def may_occupy(self, p: int, sp: int, level: int) -> bool:
        """The space itself: occupancy limit and overbuilding (Restrizioni imposte dalla casella/località,
        Modernizzare un'industria)."""
        s, m = self.s, self.map
        loc, owner = m.SPACE_LOC[sp], s.space_owner[sp]
        if owner == p:
            # "Puoi sempre costruire sopra una tua industria a patto di costruire un'industria di livello
            # tecnologico superiore a quella che stai sostituendo." (ruling 13)
            return level > s.space_level[sp]
        # "Se la località contiene fino a tre caselle puoi occuparne solamente una ... quattro o più ... due."
        if self._own_counters_at(p, loc) >= spaces_allowed(m.LOC_BUILD_SPACES[loc]):
            return False
        if owner < 0:
            return True
        # "Puoi sostituire una miniera avversaria se non ci sono cubetti di carbone a disposizione sulla mappa e
        # sull'area della richiesta ... Lo stesso vale per le acciaierie"
        if s.space_industry[sp] == COAL_MINE:
            return level > s.space_level[sp] and not self.cubes_anywhere(COAL)
        if s.space_industry[sp] == IRON_WORKS:
            return level > s.space_level[sp] and not self.cubes_anywhere(IRON)
        return False

    def ship_has_port(self, sp: int) -> bool:
        """"la casella deve essere connessa tramite linea marittima ad un segnalino porto" (anyone's)."""
        return any(self._port_counter_at(x) for x in self.map.SHIP_PORT_LOCS[sp])

    def can_build(self, p: int, sp: int, i: int) -> bool:
        """Everything but the card: display, space, occupancy, overbuilding, and the coal and iron it needs."""
        d = self.lowest_counter(p, i)
        c = self.components
        if d < 0 or c.SLOT_LEVEL[d] == 0:
            return False  # "Questi segnalini non possono essere costruiti."
        if i == SHIP and not self.ship_has_port(sp):
            return False
        if not self.may_occupy(p, sp, c.SLOT_LEVEL[d]):
            return False
        if not (c.SLOT_COAL[d] or c.SLOT_IRON[d]):
            return True
        s = self.s
        loc = (self.map.SPACE_LOC[sp],)
        # A new port or ship changes the network (a port opens the demand track: "puoi prelevare le materie prime
        # dall'area della richiesta utilizzando il porto che stai costruendo"; a ship opens its sea lanes and
        # brings its coal), and a replaced counter leaves the map first: try the counter in place.
        if i in (PORT, SHIP) or s.space_industry[sp] in (COAL_MINE, IRON_WORKS, PORT, SHIP):
            saved = self._place_counter(p, sp, i, c.SLOT_LEVEL[d])
            try:
                return self._deliverable(d, loc)
            finally:
                self._restore_counter(sp, saved)
        return self._deliverable(d, loc)

    def _deliverable(self, d: int, locs: tuple[int, ...]) -> bool:
        c = self.components
        return (not c.SLOT_COAL[d] or self._can_deliver(COAL, locs)) and (
            not c.SLOT_IRON[d] or self._can_deliver(IRON, locs))

    def _place_counter(self, p: int, sp: int, i: int, level: int) -> tuple:
        """Put a counter on ``sp`` (removing what stood there, cubes back to the supply); return what to restore.
        A ship's import coal is laid when the ship is first built (Carbone e acciaio: "Non appena un segnalino nave
        viene costruito, vengono posizionati tanti segnalini carbone quanti indicati"); a ship over a ship brings
        none and never flips (Modernizzare: "Non piazzerai i cubetti di carbone")."""
        s, m = self.s, self.map
        imp = m.SHIP_IMPORT[sp] if m.SHIP_IMPORT[sp] >= 0 else sp
        saved = (s.space_owner[sp], s.space_industry[sp], s.space_level[sp], s.space_flipped[sp],
                 s.space_no_flip[sp], s.space_cubes[sp], s.space_cubes[imp], imp)  # fmt: skip
        over_ship = s.space_industry[sp] == SHIP
        s.space_owner[sp], s.space_industry[sp], s.space_level[sp] = p, i, level
        s.space_flipped[sp], s.space_no_flip[sp], s.space_cubes[sp] = 0, int(over_ship), 0
        if i == SHIP and not over_ship and s.edition == 2 and imp != sp:
            s.space_cubes[imp] = m.SPACE_IMPORT[imp]
        if i in LANE_COUNTERS or saved[1] in LANE_COUNTERS:
            self._network_changed()  # a port or a ship opens sea lanes: distances change
        return saved

    def _restore_counter(self, sp: int, saved: tuple) -> None:
        s = self.s
        placed = s.space_industry[sp]
        (s.space_owner[sp], s.space_industry[sp], s.space_level[sp], s.space_flipped[sp], s.space_no_flip[sp],
         s.space_cubes[sp], cubes_imp, imp) = saved  # fmt: skip
        s.space_cubes[imp] = cubes_imp if imp != sp else s.space_cubes[sp]
        if placed in LANE_COUNTERS or s.space_industry[sp] in LANE_COUNTERS:
            self._network_changed()

    def card_builds(self, k: int) -> bool:
        """Descrizione delle carte: "Nota che le navi non possono essere costruite se si utilizza la mappa della
        Germania, ma le carte Nave non vengono rimosse dal mazzo. Il loro unico utilizzo è quello di essere scartate
        per fare uno sviluppo o per passare." On a map without ship spaces a ship card builds nothing, not even
        in a combined build (this sentence overrides "una carta qualunque"; ruling 30)."""
        return self.map.has_ships or self.components.CARD_INDUSTRY[k] != SHIP

    def build_options(self, p: int, k: int, combined: bool) -> list[tuple[int, int]]:
        """(space, industry) pairs where card kind ``k`` lets ``p`` build now (Costruire un'industria, and
        Combinare due azioni in una: "costruire in una qualsiasi località della mappa utilizzando una carta
        qualunque dalla tua mano. Tutte le altre regole ... continuano ad essere valide")."""
        c, m = self.components, self.map
        card_industry, card_colour = c.CARD_INDUSTRY[k], c.CARD_COLOUR[k]
        out = []
        for sp in self.build_spaces:
            loc = m.SPACE_LOC[sp]
            # "Se hai giocato una carta località allora puoi costruire in una qualunque casella che abbia il bordo
            # dello stesso colore della carta che hai giocato. Non hai bisogno di essere connesso"
            if not combined and card_colour >= 0 and m.LOC_COLOUR[loc] != card_colour:
                continue
            for i in ALLOWED[m.SPACE_SYMBOL[sp]]:
                if not combined and card_industry >= 0:
                    # "giocando una carta cotonificio sarà possibile costruire solamente un cotonificio"
                    if i != card_industry or not self.industry_card_reaches(p, sp, i):
                        continue
                if self.can_build(p, sp, i):
                    out.append((sp, i))
        return out

    # ============================================================================================ rails and sales
    def rail_options(self, p: int) -> list[int]:
        """Costruire una Ferrovia: "solo su dei collegamenti che connettono una località su cui hai già costruito un
        edificio o una località a cui sei già connesso tramite un altro segnalino binario"; one counter a link; the
        first costs $1, every later one also a coal and an iron delivered to either end."""
        s, m = self.s, self.map
        if s.rails_left[p] <= 0:
            return []
        first = s.rails_left[p] == RAILS_PER_PLAYER
        out = []
        for li in range(m.num_rail_links):
            if s.link_owner[li] >= 0:
                continue
            ends = (m.LINK_A[li], m.LINK_B[li])
            if not any(self._own_counters_at(p, x) or self._own_rail_at(p, x) for x in ends):
                continue
            if first or (self._can_deliver(COAL, ends) and self._can_deliver(IRON, ends)):
                out.append(li)
        return out

    def _good(self, sp: int) -> int:
        return COTTON if self.s.space_industry[sp] == COTTON_MILL else MANUFACTURED

    def sale_targets(self, sp: int) -> list[int]:
        """Vendere Beni: the unused ports and market tiles that take the goods of ``sp`` over completed links
        (anyone's rails; "Puoi anche vendere in un porto o mercato presente nella stessa località")."""
        s, m = self.s, self.map
        good = self._good(sp)
        dist = self.distances((m.SPACE_LOC[sp],))
        out = []
        for t in range(m.num_spaces):
            if dist[m.SPACE_LOC[t]] < 0 or s.space_flipped[t]:
                continue
            if s.space_industry[t] == PORT:
                # "Un porto di livello tecnologico 1 può vendere solo cotone."
                if good == COTTON or s.space_level[t] > 1:
                    out.append(t)
            elif m.SPACE_SYMBOL[t] == MARKET_SPACE and TILE_ACCEPTS[s.space_tile[t]][good]:
                out.append(t)
        return out

    def sellers(self, p: int) -> list[int]:
        """"puoi vendere beni da uno o più dei tuoi cotonifici e/o fabbriche" not yet flipped, with a buyer."""
        s = self.s
        return [sp for sp in self.build_spaces
                if s.space_owner[sp] == p and s.space_industry[sp] in (COTTON_MILL, FACTORY)
                and not s.space_flipped[sp] and self.sale_targets(sp)]  # fmt: skip

    def sell_goods(self, p: int, sp: int, t: int) -> None:
        """"Il segnalino dal quale stai vendendo e quello verso il quale stai vendendo devono essere girati";
        "Se hai utilizzato un porto per la vendita il proprietario del porto ... riceve la somma"."""
        s = self.s
        self.flip(sp)
        if s.space_industry[t] == PORT:
            self.flip(t)
        else:  # a market tile, used once: "vengono voltate una volta che un tipo di bene è stato venduto"
            s.space_flipped[t] = 1
            if t in self._market_ship:
                self.check_ship(self._market_ship[t])

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
            out += [A.source(h) for h in self.nearest_sources(r, self._delivery_locs())]
        elif s.phase == SELL_TO:
            out += [A.SELL_TO + t for t in self.sale_targets(s.sell_from)]
        elif s.phase == SELL_MORE:
            out += [A.SELL + sp for sp in self.sellers(p)] + [A.DONE]
        elif s.phase == DEVELOP_WHICH:
            out += [A.REMOVE + d for d, n in enumerate(s.display[p]) if n > 0]
        elif s.phase == DRAW_SECOND:
            out += self._draw_choices()
        # Prestiti: "Puoi ripagare il prestito in qualsiasi momento, durante il tuo turno"
        if s.loans[p] > 0 and s.money[p] >= self.components.LOAN_REPAY:
            out.append(A.REPAY)
        return out

    def _draw_choices(self) -> list[int]:
        s, A = self.s, self.space
        out = [A.DRAW] if self._deck_left() > 0 else []
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
        if self._hand_size(p) < HAND_LIMIT:  # "Non puoi mai superare tale limite"
            out += self._draw_choices()
        # "Se non hai carte in mano e non è possibile pescare altre carte dal mazzo puoi effettuare quest'azione
        # senza dover scartare una carta."
        if not any(hand) and self._deck_left() == 0:
            out.append(A.PASS_FREE)
        return out

    # ============================================================================================ the actions
    def _on_repay(self, p: int, _: int) -> None:
        self.repay_loan(p)

    def _on_build(self, p: int, k: int) -> None:
        """AZIONE Costruire un'industria: "Devi giocare una carta per compiere quest'azione."."""
        self.play_card(p, k)
        self.s.phase = BUILD_WHERE

    def _on_build_any(self, p: int, k: int) -> None:
        """Combinare due azioni in una."""
        self.play_card(p, k)
        self.s.combined = 1
        self.s.phase = BUILD_WHERE

    def _on_build_at(self, p: int, index: int) -> None:
        sp, i = divmod(index, NUM_INDUSTRIES)
        self.build_industry(p, sp, i)

    def build_industry(self, p: int, sp: int, i: int) -> None:
        """Pay the printed cost, put the lowest counter on the space, then bring its coal and iron."""
        s, c = self.s, self.components
        d = self.lowest_counter(p, i)
        level = c.SLOT_LEVEL[d]
        self._pay(p, c.SLOT_COST[d], spent=True)
        if s.space_owner[sp] >= 0 and s.space_cubes[sp]:
            r = COAL if s.space_industry[sp] == COAL_MINE else IRON
            self.ledger["cubes_removed"][r] += s.space_cubes[sp]
        # "Il segnalino sostituito viene rimosso dalla mappa ... non viene riposizionato sulla scheda"
        imp = self.map.SHIP_IMPORT[sp]
        before = s.space_cubes[imp] if imp >= 0 else 0
        self._place_counter(p, sp, i, level)
        if imp >= 0:
            self.ledger["cubes_placed"][COAL] += s.space_cubes[imp] - before
        s.display[p][d] -= 1
        s.build_space, s.build_industry = sp, i
        s.need_coal, s.need_iron = c.SLOT_COAL[d], c.SLOT_IRON[d]
        self._deliver(p)

    def _delivery_locs(self) -> tuple[int, ...]:
        s, m = self.s, self.map
        if s.rail_link >= 0:  # "in una delle due località che la ferrovia mette in connessione"
            return (m.LINK_A[s.rail_link], m.LINK_B[s.rail_link])
        return (m.SPACE_LOC[s.build_space],)

    def _deliver(self, p: int) -> None:
        """Bring the coal, then the iron, each from its nearest source; stop for a decision on a tie."""
        s = self.s
        while s.need_coal or s.need_iron:
            r = COAL if s.need_coal else IRON
            sources = self.nearest_sources(r, self._delivery_locs())
            if len(sources) > 1:
                s.phase = COAL_SOURCE if r == COAL else IRON_SOURCE
                return
            if not sources:  # legality guarantees a source; a hand-built position may not
                raise GameStateError(f"no {('coal', 'iron')[r]} can reach the build in progress")
            self._deliver_one(p, r, sources[0])
        if s.rail_link >= 0:
            self._finish_rail(p)
        else:
            self._finish_build(p)

    def _deliver_one(self, p: int, r: int, source: int) -> None:
        s = self.s
        self.take_cube(p, r, source)
        if r == COAL:
            s.need_coal -= 1
        else:
            s.need_iron -= 1
        self._network_changed()

    def _on_source(self, p: int, h: int) -> None:
        r = COAL if self.s.phase == COAL_SOURCE else IRON
        self._deliver_one(p, r, DEMAND if h == self.map.num_spaces else h)
        self._deliver(p)

    def _finish_build(self, p: int) -> None:
        """Cubes on a new mine or iron works, the demand track's filling, the ship's coal, then flips."""
        s, c, m = self.s, self.components, self.map
        sp, i = s.build_space, s.build_industry
        connected = self.demand_track_access(self.distances((m.SPACE_LOC[sp],)))
        if i in (COAL_MINE, IRON_WORKS):
            r = COAL if i == COAL_MINE else IRON
            # "Quando costruisci una miniera o un'acciaieria devi porre sull'edificio un certo numero di cubetti"
            s.space_cubes[sp] = c.SLOT_CUBES[self.slot_of[(i, s.space_level[sp])]]
            self.ledger["cubes_placed"][r] += s.space_cubes[sp]
            if connected:  # "ma solo se l'edificio è connesso ad un porto edificato o ad un porto distante"
                self.fill_demand_track(r, sp, p)
            if s.space_cubes[sp] == 0:
                self.flip(sp)
        if i == SHIP and not s.space_no_flip[sp]:
            imp = m.SHIP_IMPORT[sp]
            # "Se costruisci una nave questa, di norma, connette una riserva di carbone. Questo caso viene trattato
            # come se fosse appena stata costruita una miniera" (second edition: its cubes were just laid)
            if imp >= 0 and s.edition == 2 and connected:
                self.fill_demand_track(COAL, imp, p)
            self.check_ship(sp)
        self._end_action()

    def _on_rail(self, p: int, li: int) -> None:
        self.build_rail(p, li)

    def build_rail(self, p: int, li: int) -> None:
        """"Il primo tratto ferroviario ti costerà $1. In seguito ogni tratta ferroviaria costerà $1 e sarà
        necessario trasportare un cubetto di acciaio ed uno di carbone" (ruling 3: the player's first rail; the new
        link carries none of its own cubes)."""
        s = self.s
        self._pay(p, RAIL_COST, spent=True)
        s.rail_link = li
        if s.rails_left[p] < RAILS_PER_PLAYER:
            s.need_coal, s.need_iron = 1, 1
        self._deliver(p)

    def _finish_rail(self, p: int) -> None:
        s = self.s
        s.link_owner[s.rail_link] = p
        s.rails_left[p] -= 1
        self._network_changed()
        self._end_action()

    def _on_sell(self, p: int, sp: int) -> None:
        """AZIONE Vendere Beni: the first (or next) sale's cotton mill or factory."""
        self.s.sell_from = sp
        self.s.phase = SELL_TO

    def _on_sell_to(self, p: int, t: int) -> None:
        s = self.s
        self.sell_goods(p, s.sell_from, t)
        s.sell_from = -1
        self._network_changed()
        # "Puoi concludere un numero qualunque di vendite durante una singola azione."
        if self.sellers(p):
            s.phase = SELL_MORE
        else:
            self._end_action()

    def _on_done(self, p: int, _: int) -> None:
        self._end_action()

    def _on_develop(self, p: int, k: int) -> None:
        """AZIONE Sviluppo tecnologico: "Devi anche scartare una carta dalla tua mano come pagamento"."""
        self.play_card(p, k)
        self.s.phase = DEVELOP_WHICH

    def _on_remove(self, p: int, d: int) -> None:
        """"Puoi rimuovere uno qualsiasi dei segnalini dalla tua scheda."""
        self.s.display[p][d] -= 1
        self._end_action()

    def _on_draw(self, p: int, src: int) -> None:
        """AZIONE Pescare due carte: "Puoi scegliere di pescare dal mazzo o pescare carte scoperte in qualsiasi
        combinazione. Puoi pescare la prima carta dal mazzo prima di decidere da dove pescare la seconda." """
        s = self.s
        if s.phase == ACTION:
            s.draws_left = 2
        if src == 0:
            s.hand[p][self._take_from_deck()] += 1
        else:
            k = s.face_up[src - 1]
            s.face_up[src - 1] = -1
            s.hand[p][k] += 1
            s.known[p][k] += 1  # a face-up card taken stays known to everyone
        s.draws_left -= 1
        # "se hai otto carte in mano e decidi di effettuare questa azione pescherai una sola carta"
        if s.draws_left > 0 and self._hand_size(p) < HAND_LIMIT and self._draw_choices():
            s.phase = DRAW_SECOND
            return
        # "Dopo aver pescato due carte rimpiazza, prendendo dal mazzo, le carte scoperte eventualmente pescate"
        for j in range(NUM_FACE_UP):
            if s.face_up[j] < 0 and self._deck_left() > 0:
                s.face_up[j] = self._take_from_deck()
        self._end_action()

    def _on_pass(self, p: int, k: int) -> None:
        """AZIONE Passare: "Per fare ciò devi scartare una carta dalla tua mano."."""
        self.play_card(p, k)
        self._end_action()

    def _on_pass_free(self, p: int, _: int) -> None:
        self._end_action()

    # ============================================================================================ turns and rounds
    def _end_action(self) -> None:
        s = self.s
        actions = 0 if s.combined else s.actions_left - 1
        s.card, s.combined, s.build_space, s.build_industry, s.rail_link = -1, 0, -1, -1, -1
        s.need_coal, s.need_iron, s.sell_from, s.draws_left = 0, 0, -1, 0
        s.phase = ACTION
        s.actions_left = actions
        if actions > 0:
            return
        s.turn += 1  # "Quando un giocatore termina le proprie due azioni il turno passa al giocatore successivo."
        if s.turn < s.num_players:
            s.actions_left = ACTIONS_FIRST_ROUND if s.round == 1 else ACTIONS_PER_TURN
            return
        self._end_of_round()

    def game_end_reached(self) -> bool:
        """Fine del gioco: "Il gioco termina alla fine di un turno completo di gioco in cui uno o più giocatori non
        hanno più carte in mano ed il mazzo di carte è vuoto ... Le due carte scoperte non sono considerate parte del
        mazzo" (the first edition waits for the face-up cards too)."""
        s = self.s
        if self._deck_left() > 0 or (s.edition == 1 and any(k >= 0 for k in s.face_up)):
            return False
        return any(self._hand_size(q) == 0 for q in range(s.num_players))

    def _end_of_round(self) -> None:
        """Il gioco: "Ogni round è composto da tre fasi ... 1. Azioni dei giocatori 2. Determinazione del nuovo
        ordine di gioco 3. Pagamento degli interessi sui prestiti"; "Il gioco termina dopo un round completo": the
        last round too sets the new order and pays interest, then the game ends (ruling 9)."""
        s = self.s
        self.determine_turn_order()
        self.pay_interest()
        if self.game_end_reached():
            s.phase, s.turn, s.actions_left = OVER, 0, 0
            return
        s.round += 1
        s.turn, s.actions_left = 0, ACTIONS_PER_TURN

    def determine_turn_order(self) -> None:
        """Seconda Fase: "Il giocatore che ha speso meno occuperà la posizione più in alto ... In caso di pareggio
        tra due o più giocatori, questi occuperanno le posizioni relative che ricoprivano nel turno appena concluso."
        """
        s = self.s
        s.order = sorted(s.order, key=lambda q: s.spent[q])  # a stable sort keeps tied players' previous order
        s.spent = [0] * s.num_players

    def pay_interest(self) -> None:
        """Terza Fase: "$1 alla banca per ogni prestito da $10 ancora in corso. Potresti dover chiedere un altro
        prestito per pagare gli interessi ma in questo caso non dovrai pagare gli interessi sul debito appena
        contratto." (the interest is counted before any loan taken to pay it)"""
        s = self.s
        for q in s.order:
            self._pay(q, s.loans[q] * self.components.LOAN_INTEREST, spent=False)

    # ============================================================================================ final scoring
    def occupied_spaces(self, loc: int) -> int:
        """Vincere il gioco: "Non ha importanza se un segnalino sia girato o meno ... Una casella mercato (girata o
        meno) conta sempre come una casella occupata ... Un villaggio conta sempre come una casella occupata." """
        s, m = self.s, self.map
        n = sum(1 for sp in m.LOC_SPACES[loc] if s.space_owner[sp] >= 0 or m.SPACE_SYMBOL[sp] == MARKET_SPACE)
        return n + int(m.LOC_VILLAGE[loc])

    def rail_income(self, p: int) -> int:
        """"Un segnalino ferrovia varrà per il proprietario $2 più il numero di caselle occupate a ciascuna
        estremità della tratta." """
        s, m = self.s, self.map
        return sum(RAIL_INCOME + self.occupied_spaces(m.LINK_A[li]) + self.occupied_spaces(m.LINK_B[li])
                   for li in range(m.num_rail_links) if s.link_owner[li] == p)  # fmt: skip

    def final_accounts(self, p: int) -> dict[str, int]:
        """The final scoring of ``p`` in dollars and points, in the rulebook's order (Vincere il gioco): rail
        income, then loans repaid while the money lasts, then $5 a point, then the industries' levels, then
        5 points per loan still unpaid (ruling 7). Computed from the position: it changes nothing."""
        s, c = self.s, self.components
        rails = self.rail_income(p)
        money = s.money[p] + rails
        repaid = min(s.loans[p], money // c.LOAN_REPAY)  # "Tutti i giocatori dovranno quindi ripagare i prestiti"
        money -= repaid * c.LOAN_REPAY
        levels = sum(s.space_level[sp] for sp in self.build_spaces if s.space_owner[sp] == p)
        unpaid = s.loans[p] - repaid
        return {
            "rail_income": rails, "loans_repaid": repaid, "money_left": money,
            "money": money // DOLLARS_PER_POINT,  # "Non guadagni nessun punto vittoria per il denaro ... avanzato"
            "industries": levels,  # "Ogni edificio garantisce un numero di punti vittoria pari al suo livello"
            "unpaid_loans": -POINTS_PER_UNPAID_LOAN * unpaid,
        }  # fmt: skip

    def score_breakdown(self, p: int) -> dict[str, int]:
        """Points of ``p`` by source; their sum is ``scores()[p]`` (before the end: as if the game ended now)."""
        acc = self.final_accounts(p)
        return {k: acc[k] for k in ("money", "industries", "unpaid_loans")}

    def scores(self) -> list[int]:
        """Final points of each seat (before the end: the points the final scoring would give now)."""
        return [sum(self.score_breakdown(p).values()) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """The winner: most points; "In caso di pareggio vince il giocatore più in alto nell'ordine di gioco" (the
        order set at the end of the last round, ruling 10). Empty while the game runs."""
        if not self.is_over:
            return []
        scores = self.scores()
        best = max(scores)
        return [next(q for q in self.s.order if scores[q] == best)]

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the others, once the game is over (0 for all before)."""
        if not self.is_over:
            return [0.0] * self.num_players
        w = self.winners()
        return [1.0 if p in w else -1.0 for p in range(self.num_players)]

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
