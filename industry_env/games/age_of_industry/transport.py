"""Age of Industry's networks and the transport of coal and iron (Carbone e acciaio), rules of the reference engine.

Completed links (rails, and sea lanes once open), distances by breadth-first search over the map's link tables, the
nearest sources of a cube and the demand track's access, then the cubes' moves: taken for a build or a rail, sold
to the demand track, a ship flipped once its coal is used. Part of :class:`.reference.Game` (see its module for the
rulebook cited and the rulings).
"""

from __future__ import annotations

from .components import IMPORT_SPACE, TILE_ACCEPTS
from .rules import COAL, COAL_MINE, EMPTY_DEMAND_PRICE, IRON_WORKS, PORT, SHIP, SHIP_SPACE

DEMAND = -1  # a source: the demand track

# the counters a sea lane reads (lane_open): placing or removing one changes which links are completed
LANE_COUNTERS = (PORT, SHIP)


class Transport:
    """The networks and the cubes: a part of :class:`.reference.Game`, which mixes it in."""

    # ============================================================================================ networks
    def network_changed(self) -> None:
        """Drop the distances and the completed links: a rail was laid, or a port or a ship came or went (what
        :meth:`link_completed` reads, :data:`LANE_COUNTERS`), or the position was replaced."""
        self._dist_cache: dict[tuple[int, ...], list[int]] = {}
        self._completed: list[bool] | None = None

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
                return not m.LOC_HAS_PORT_SPACE[other] or self.port_counter_at(other)
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

    def port_counter_at(self, loc: int) -> bool:
        """A port counter (anyone's, flipped or not) stands on location ``loc``."""
        s = self.s
        return any(s.space_industry[sp] == PORT for sp in self.map.LOC_SPACES[loc])

    def demand_track_access(self, dist: list[int]) -> bool:
        """Prelevare acciaio e carbone dall'area della richiesta: "la località in cui vuoi costruire deve essere
        connessa tramite una rete ferroviaria ad un segnalino porto o ad una località che ha un'icona Porto
        distante. Non ha importanza a chi appartiene il porto o se il segnalino sia girato o meno." """
        m = self.map
        return any(d >= 0 and (m.LOC_DISTANT_PORT[x] or self.port_counter_at(x)) for x, d in enumerate(dist))

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

    def cubes_anywhere(self, r: int) -> bool:
        """Any cube of ``r`` on the map or on the demand track (the condition for overbuilding an opponent)."""
        return self.s.demand[r] > 0 or any(self._holds(r, sp) for sp in range(self.map.num_spaces))

    # ============================================================================================ cubes
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
            self.pay(p, self.demand_price(r), spent=True)
            if s.demand[r] > 0:
                s.demand[r] -= 1
            else:  # "È possibile acquistare materie prime anche se non sono più disponibili cubetti": from the supply
                self.ledger["cubes_placed"][r] += 1
            return
        s.space_cubes[source] -= 1
        if s.space_cubes[source] == 0:
            if self.map.SPACE_SYMBOL[source] == IMPORT_SPACE:
                self.check_ship(self.import_ship[source])
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
            self.receive(owner, prices[s.demand[r]])
            s.demand[r] += 1
