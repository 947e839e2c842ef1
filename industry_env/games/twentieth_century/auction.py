"""Fase 1 (Disposizione iniziale: the round's offers) and Fase 2 (Asta dei territori, ed acquisto tecnologia)
of 20th Century.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from collections.abc import Callable

from .rules import ERA_OF_ROUND, LAST_FULL_ROUND, MIN_LAND_PRICE, OFFERS, consolation


class LandAuction:
    """A round's start, the land auction and the technologies bought: a part of :class:`.reference.Game`."""

    # ------------------------------------------------------------------------------------------- phase 1
    def start_round(self, r: int) -> None:
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
            self.start_maintenance()
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
        """The smallest opening bid for land this round ('2 monete nei round uno e due, 3 ... tre e quattro e 4 ...
        cinque'); 0 in round VI, which has no auction."""
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

    def bid_base(self) -> int:
        """What 'bid +0' offers: the minimum to open, the high bid + 1 to raise, the bid itself to add to one's own
        bid (ruling 19)."""
        if self.phase == "open":
            return self.min_land_price()
        return self.high_bid if self.raising_own_bid() else self.high_bid + 1

    def next_clockwise(self, after: int, ok: Callable[[int], bool]) -> int:
        """The first seat clockwise after ``after`` (``after`` itself last) for which ``ok`` holds, -1 if none."""
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
        q = self.next_clockwise(after, lambda q: not self.withdrawn[q] and not self.passed[q] and q != self.high_bidder)
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
        self.after_withdrawal(p)

    def after_withdrawal(self, p: int) -> None:
        """After a withdrawal (and the technology bought or not): the bidding goes on if he withdrew from it, else
        the next player clockwise still in leads the next auction; when none is left the auction ends."""
        if self.resume == "bid":
            self._next_bidder(p)
            return
        # 'il nuovo giocatore iniziale sarà il giocatore seguente in ordine in senso orario che non si è ritirato'
        q = self.next_clockwise(p, lambda q: not self.withdrawn[q])
        if q < 0:
            self.end_auction()
        else:
            self.leader, self.phase, self.to_move = q, "lead", q

    def end_auction(self) -> None:
        """Consolation to every player who won no land tile (ruling 13); the last to withdraw opens the catastrophe
        bidding ('L'ultimo giocatore ritirato ottiene lo spazio giocatore iniziale')."""
        for p in range(self.n):
            if self.won[p] == 0:
                self.coins[p] += consolation(self.round)
                self.ledger[p]["coins_in"] += consolation(self.round)
        self.phase = "catastrophe"
        self.to_move = max(range(self.n), key=lambda p: self.withdrawn[p])
