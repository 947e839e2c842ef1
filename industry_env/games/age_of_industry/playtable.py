"""Age of Industry at the terminal (``industry-env play``; the spec's ``play_table``): every player's money,
loans and display, the known cards, the map by colour, what each choice costs and what each move did, a place
lookup and the links; only what the person's seat may see (the words: :mod:`.playtext`)."""

from __future__ import annotations

from typing import Any

from ...core.playtable import PlayTable
from . import playtext


class AgeOfIndustryTable(PlayTable):
    """Age of Industry: every player's money, loans and display, the known cards, the map by colour, what each
    choice costs and what each move did, a place lookup and the links; only what the person's seat may see."""

    intro = ("Type a choice's number or its action (e.g. 'build with coal_mine', 'draw deck'); 'info Boston' tells "
             "about a place, 'links' lists the rail links, 'back' takes back a choice not yet complete, 'help' lists "
             "the commands, 'quit' leaves.")  # fmt: skip
    commands = (
        (
            "<number> or an action",
            "play that choice: '2', 'build with coal_mine', 'build port at Boston:1', "
            "'rail Boston-Lowell', 'draw face-up 1'",
        ),  # fmt: skip
        ("board  (b)", "the players (money, loans, rails, cards, counters left), the cards, the demand track, the map"),
        ("info <place>  (i)", "everything about a place: its spaces, counters, links, what you could build there"),
        ("links", "every place's rail links and sea lanes, with the rails built"),
        ("display [N]", "the counters left on player N's display (default yours): level, cost, coal, iron, income"),
    )
    verbs = frozenset({"build", "rail", "sell", "develop", "draw", "pass", "source", "remove", "done", "repay"})

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        super().__init__(spec, game, seat)
        self.T = playtext

    def board(self) -> str:
        return self.T.board_text(self.game, self.seat) + "\n" + self.T.LEGEND

    def command(self, word: str, rest: str) -> str | None:
        if word in ("info", "i"):
            return "\n".join(
                self.T.location_info(self.game, x, self.seat) for x in self.T.find_locations(self.game, rest)
            )
        if word == "links" and not rest:
            return self.T.links_text(self.game)
        if word == "display":
            return self.display(rest)
        return super().command(word, rest)

    def display(self, arg: str) -> str:
        """Player ``arg``'s display as a table (default the person's)."""
        n = self.game.num_players
        text = arg.strip()
        if text and not (text.isascii() and text.isdigit() and int(text) < n):
            raise ValueError(f"no player {text!r}: players are 0 to {n - 1} ('display 2')")
        return self.T.display_table(self.game, int(text) if text else self.seat)

    def decision(self) -> str:
        g = self.game
        what = {"action": f"choose an action ({self.T.plural(g.s.actions_left, 'action')} left in your turn)",
                "build_where": "where to build", "coal_source": "which coal to take (equally near)",
                "iron_source": "which iron to take (equally near)", "sell_to": "where to sell",
                "sell_more": "sell again, or 'done'", "develop_which": "which counter to remove from your display",
                "draw_second": "your second card"}  # fmt: skip
        money = f"you have {self.T.dollars(g.s.money[self.seat])}, {self.T.plural(g.s.loans[self.seat], 'loan')}"
        return f"round {g.s.round}, your turn: {what.get(g.phase, g.phase)} ({money})"

    def choices(self, legal: list[int]) -> list[str]:
        """Every choice with what it costs; a run of builds of one industry at the same price is one block: the
        price once, then the numbered spaces, six a line."""
        texts = [self.T.choice_text(self.game, a) for a in legal]
        out, i = [], 0
        while i < len(legal):
            name, _, detail = texts[i].partition(": ")
            head = name.split(" at ")[0]
            j = i
            groups = name.startswith("build ") and " at " in name
            while groups and j + 1 < len(legal) and texts[j + 1].startswith(head + " at ") and \
                    texts[j + 1].partition(": ")[2] == detail:  # fmt: skip
                j += 1
            if j - i < 2:
                out.append(f"  [{i}] {texts[i]}")
                i += 1
                continue
            out.append(f"  {head} at one of these spaces, each: {detail}")
            cells = [f"[{k}] {texts[k].partition(': ')[0].split(' at ')[1]}" for k in range(i, j + 1)]
            out += ["      " + "  ".join(cells[r : r + 6]) for r in range(0, len(cells), 6)]
            i = j + 1
        return out

    def scores(self) -> str:
        g = self.game
        points = ", ".join(f"player {p}: {v}" for p, v in enumerate(g.scores()))
        return f"points if the game ended now (rail income and money, industries, unpaid loans): {points}"

    def final(self) -> str:
        return "final scores:\n" + self.T.score_table(self.game)

    def begin_move(self) -> Any:
        return self.game.clone()

    def action_done(self, mover: int) -> bool:
        g = self.game
        return g.is_over or g.phase == "action" or g.current_player != mover

    def summary(self, start: Any, actions: list[int], mover: int) -> list[str]:
        """What the move did as the person may know it; the end of a round (turn order, interest) apart."""
        g, T = self.game, self.T
        ended = g.is_over or g.s.round != start.s.round
        moved = T.action_result(start, actions) if ended else g
        words = T.effect_phrases(g, start.s, moved.s, mover, self.seat, actions=actions)
        lines = [f"  -> {', '.join(words)}"] if words else []
        if ended:
            lines += T.round_end_lines(moved.s, g.s, g, self.seat)
        return lines

    def reveals(self, action: int) -> bool:
        """A card drawn from the deck is seen: that draw is never taken back."""
        return self.game.space.block(action)[0] == "DRAW" and self.game.space.block(action)[1] == 0

    def restore(self, start: Any, actions: list[int]) -> None:
        g = self.game
        g.s = start.s.copy()
        g.forget_cached()
        del g.history[len(g.history) - len(actions) :]
