"""The end of an action, a turn, a round and the game in Age of Industry, and the final scoring.

A round's Seconda Fase (the new turn order) and Terza Fase (interest), Fine del gioco, and Vincere il gioco: rules
of the reference engine, part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from .components import MARKET_SPACE
from .rules import ACTIONS_FIRST_ROUND, ACTIONS_PER_TURN, DOLLARS_PER_POINT, POINTS_PER_UNPAID_LOAN, RAIL_INCOME
from .state import ACTION, OVER


class Rounds:
    """Turns, rounds, the end and the final scoring: a part of :class:`.reference.Game`, which mixes it in."""

    # ============================================================================================ turns and rounds
    def end_action(self) -> None:
        """The action is done: the same player's next action, else the next player's turn, else the round's end."""
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
        if self.deck_left() > 0 or (s.edition == 1 and any(k >= 0 for k in s.face_up)):
            return False
        return any(self.hand_size(q) == 0 for q in range(s.num_players))

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
            self.pay(q, s.loans[q] * self.components.LOAN_INTEREST, spent=False)

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
