"""The six actions of Age of Industry (Prima Fase: Azioni dei giocatori), rules of the reference engine.

Where a player may build, lay a rail and sell; the cards played, drawn and discarded; and the handler of each
block of the action encoding (:mod:`.actions`) that ``Game.apply`` calls, which brings the coal and iron a build or
a rail needs and ends the action. Part of :class:`.reference.Game` (see its module for the rulebook cited and the
rulings).
"""

from __future__ import annotations

from collections.abc import Callable

from .components import MARKET_SPACE, TILE_ACCEPTS
from .rules import (
    ALLOWED,
    COAL,
    COAL_MINE,
    COTTON,
    COTTON_MILL,
    FACTORY,
    HAND_LIMIT,
    IRON,
    IRON_WORKS,
    MANUFACTURED,
    NUM_FACE_UP,
    NUM_INDUSTRIES,
    PORT,
    RAIL_COST,
    RAILS_PER_PLAYER,
    SHIP,
    spaces_allowed,
)
from .state import (
    ACTION,
    BUILD_WHERE,
    COAL_SOURCE,
    DEVELOP_WHICH,
    DRAW_SECOND,
    IRON_SOURCE,
    SELL_MORE,
    SELL_TO,
    GameStateError,
)
from .transport import DEMAND, LANE_COUNTERS


class PlayerActions:
    """The actions and their rules: a part of :class:`.reference.Game`, which mixes it in."""

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

    def hand_size(self, p: int) -> int:
        """Cards in the hand of ``p``."""
        return sum(self.s.hand[p])

    def deck_left(self) -> int:
        """Cards left in the deck (the face-up cards are not part of it)."""
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
        return any(self.port_counter_at(x) for x in self.map.SHIP_PORT_LOCS[sp])

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

    def _can_deliver(self, r: int, locs: tuple[int, ...]) -> bool:
        """Some cube of ``r`` can reach one of ``locs`` (each end checked alone: a cube reaching either will do)."""
        return any(self.nearest_sources(r, (x,)) for x in locs)

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
            self.network_changed()  # a port or a ship opens sea lanes: distances change
        return saved

    def _restore_counter(self, sp: int, saved: tuple) -> None:
        s = self.s
        placed = s.space_industry[sp]
        (s.space_owner[sp], s.space_industry[sp], s.space_level[sp], s.space_flipped[sp], s.space_no_flip[sp],
         s.space_cubes[sp], cubes_imp, imp) = saved  # fmt: skip
        s.space_cubes[imp] = cubes_imp if imp != sp else s.space_cubes[sp]
        if placed in LANE_COUNTERS or s.space_industry[sp] in LANE_COUNTERS:
            self.network_changed()

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
            if t in self.market_ship:
                self.check_ship(self.market_ship[t])

    # ============================================================================================ the actions
    def handler(self, block: str) -> Callable[[int, int], None]:
        """The method that carries out a choice in action block ``block`` (its name in :mod:`.actions`), given the
        seat and the choice's index in the block: ``_on_<block>``."""
        return getattr(self, f"_on_{block.lower()}")

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
        self.pay(p, c.SLOT_COST[d], spent=True)
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

    def delivery_locs(self) -> tuple[int, ...]:
        """Where the coal and iron of the build or rail in progress must reach: the space's location, or either end
        of the rail."""
        s, m = self.s, self.map
        if s.rail_link >= 0:  # "in una delle due località che la ferrovia mette in connessione"
            return (m.LINK_A[s.rail_link], m.LINK_B[s.rail_link])
        return (m.SPACE_LOC[s.build_space],)

    def _deliver(self, p: int) -> None:
        """Bring the coal, then the iron, each from its nearest source; stop for a decision on a tie."""
        s = self.s
        while s.need_coal or s.need_iron:
            r = COAL if s.need_coal else IRON
            sources = self.nearest_sources(r, self.delivery_locs())
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
        self.network_changed()

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
        self.end_action()

    def _on_rail(self, p: int, li: int) -> None:
        self.build_rail(p, li)

    def build_rail(self, p: int, li: int) -> None:
        """"Il primo tratto ferroviario ti costerà $1. In seguito ogni tratta ferroviaria costerà $1 e sarà
        necessario trasportare un cubetto di acciaio ed uno di carbone" (ruling 3: the player's first rail; the new
        link carries none of its own cubes)."""
        s = self.s
        self.pay(p, RAIL_COST, spent=True)
        s.rail_link = li
        if s.rails_left[p] < RAILS_PER_PLAYER:
            s.need_coal, s.need_iron = 1, 1
        self._deliver(p)

    def _finish_rail(self, p: int) -> None:
        s = self.s
        s.link_owner[s.rail_link] = p
        s.rails_left[p] -= 1
        self.network_changed()
        self.end_action()

    def _on_sell(self, p: int, sp: int) -> None:
        """AZIONE Vendere Beni: the first (or next) sale's cotton mill or factory."""
        self.s.sell_from = sp
        self.s.phase = SELL_TO

    def _on_sell_to(self, p: int, t: int) -> None:
        s = self.s
        self.sell_goods(p, s.sell_from, t)
        s.sell_from = -1
        self.network_changed()
        # "Puoi concludere un numero qualunque di vendite durante una singola azione."
        if self.sellers(p):
            s.phase = SELL_MORE
        else:
            self.end_action()

    def _on_done(self, p: int, _: int) -> None:
        self.end_action()

    def _on_develop(self, p: int, k: int) -> None:
        """AZIONE Sviluppo tecnologico: "Devi anche scartare una carta dalla tua mano come pagamento"."""
        self.play_card(p, k)
        self.s.phase = DEVELOP_WHICH

    def _on_remove(self, p: int, d: int) -> None:
        """"Puoi rimuovere uno qualsiasi dei segnalini dalla tua scheda."""
        self.s.display[p][d] -= 1
        self.end_action()

    def _on_draw(self, p: int, src: int) -> None:
        """AZIONE Pescare due carte: "Puoi scegliere di pescare dal mazzo o pescare carte scoperte in qualsiasi
        combinazione. Puoi pescare la prima carta dal mazzo prima di decidere da dove pescare la seconda." """
        s = self.s
        if s.phase == ACTION:
            s.draws_left = 2
        if src == 0:
            s.hand[p][self.take_from_deck()] += 1
        else:
            k = s.face_up[src - 1]
            s.face_up[src - 1] = -1
            s.hand[p][k] += 1
            s.known[p][k] += 1  # a face-up card taken stays known to everyone
        s.draws_left -= 1
        # "se hai otto carte in mano e decidi di effettuare questa azione pescherai una sola carta"
        if s.draws_left > 0 and self.hand_size(p) < HAND_LIMIT and self.draw_choices():
            s.phase = DRAW_SECOND
            return
        # "Dopo aver pescato due carte rimpiazza, prendendo dal mazzo, le carte scoperte eventualmente pescate"
        for j in range(NUM_FACE_UP):
            if s.face_up[j] < 0 and self.deck_left() > 0:
                s.face_up[j] = self.take_from_deck()
        self.end_action()

    def _on_pass(self, p: int, k: int) -> None:
        """AZIONE Passare: "Per fare ciò devi scartare una carta dalla tua mano."."""
        self.play_card(p, k)
        self.end_action()

    def _on_pass_free(self, p: int, _: int) -> None:
        self.end_action()
