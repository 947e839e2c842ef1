"""Money in Age of Industry (Prestiti, and the income of a flipped counter), rules of the reference engine.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations


class Money:
    """Loans, payments and income: a part of :class:`.reference.Game`, which mixes it in."""

    # ============================================================================================ money
    def receive(self, p: int, amount: int) -> None:
        """Money from the bank to ``p`` (income, loans, cubes sold to the demand track), kept in the ledger."""
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
            self.receive(p, k * value)

    def pay(self, p: int, amount: int, spent: bool) -> None:
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
        self.pay(p, self.components.LOAN_REPAY, spent=False)
        self.s.loans[p] -= 1

    # ============================================================================================ income
    def flip(self, sp: int) -> None:
        """Flip the counter on ``sp``: "Non appena giri un tuo edificio guadagni immediatamente la somma di denaro
        indicata sulla scheda giocatore" (its owner, even out of turn)."""
        s = self.s
        s.space_flipped[sp] = 1
        d = self.slot_of[(s.space_industry[sp], s.space_level[sp])]
        self.receive(s.space_owner[sp], self.components.SLOT_INCOME[d])
