"""Fase 3 of 20th Century (Impedire le catastrofi): the science bid on the catastrophe's columns.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from .rules import CATASTROPHE_BID_MAX


class Catastrophes:
    """The catastrophe bidding: a part of :class:`.reference.Game`, which mixes it in."""

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
        q = self.next_clockwise(p, lambda q: not self.on_top(q))  # a player on top 'passa' (is skipped)
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
        self.start_maintenance()
