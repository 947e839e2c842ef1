"""Industry at the terminal (``industry-env play``; the spec's ``play_table``): the grid and this era's fields,
what each choice costs, a field lookup (``info 1E``), the scoring table."""

from __future__ import annotations

from typing import Any

from ...core.playtable import PlayTable
from . import actions as A
from . import render
from .components import field_index
from .rules import NUM_ERAS, SUBSIDY_MONEY, SUBSIDY_POINTS


class IndustryTable(PlayTable):
    """Industry: the grid and this era's fields, what each choice costs, field lookup, the scoring table."""

    intro = ("Type a choice's number or its action (e.g. 'bid 3', 'auction 1D', 'pay Wood: bank'); 'info 1E' tells "
             "about a field, 'help' lists the commands, 'quit' leaves.")  # fmt: skip
    commands = (
        ("<number> or an action", "play that choice: '2', 'bid 3', 'auction 1D', 'pay Wood: bank', 'subsidy'"),
        ("board  (b)", "the board: the grid, the players, and the fields of this era"),
        ("info <field>  (i)", "everything about a field, by id or name: 'info 1E', 'info sawmill'"),
        ("era <N>", "the fields of era N, with what is printed on them and who holds them"),
    )
    verbs = frozenset({"auction", "pass", "bid", "sell", "keep", "develop", "done", "pay", "subsidy"})

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        super().__init__(spec, game, seat)
        self.R, self.eras = render, NUM_ERAS

    def board(self) -> str:
        return self.game.render() + "\n" + self.R.era_table(self.game, min(self.game.s.era, self.eras - 1))

    def command(self, word: str, rest: str) -> str | None:
        if word in ("info", "i"):
            return self.info(rest)
        if word == "era":
            return self.era(rest)
        return super().command(word, rest)

    def decision(self) -> str:
        return self.R.describe_decision(self.game)

    def name(self, action: int) -> str:
        return self.R.describe_action(self.game, action)

    def choices(self, legal: list[int]) -> list[str]:
        """Every choice with what it costs; a run of bids is one line (``[1]-[9] bid 1 to 9``)."""
        out, i = [], 0
        while i < len(legal):
            j = i
            while j + 1 < len(legal) and A.BID <= legal[j + 1] < A.SELL and legal[j + 1] == legal[j] + 1:
                j += 1
            if j > i + 1 and A.BID <= legal[i] < A.SELL:
                low, high = legal[i] - A.BID + 1, legal[j] - A.BID + 1
                money = self.game.s.money[self.game.current_player]
                out.append(f"  [{i}]-[{j}] bid {low} to {high} ([{i}] bids {low}, [{j}] bids {high}; or type "
                           f"'bid N'): pay your bid if you win (you have {self.R.talers(money)})")  # fmt: skip
                i = j + 1
                continue
            out.append(f"  [{i}] {self.R.describe_choice(self.game, legal[i])}")
            i += 1
        return out

    def parse(self, text: str) -> int:
        return A.string_to_action(text, self.game.board.resource_names)

    def _fields(self, arg: str) -> list[int]:
        """Fields named by ``arg``: an id (``1E``) or part of a name (``saw``)."""
        text = arg.strip()
        if not text:
            raise ValueError("name a field: 'info 1E' or 'info sawmill'")
        try:
            return [field_index(text)]
        except ValueError:
            names, low = self.game.board.field_names, text.lower()
            found = ([f for f, n in enumerate(names) if n.lower() == low]
                     or [f for f, n in enumerate(names) if n.lower().startswith(low)]
                     or [f for f, n in enumerate(names) if low in n.lower()])  # fmt: skip
            if not found:
                raise ValueError(f"no field {text!r}: give its id, era 1-5 and column A-L ('1E'), or part of its "
                                 f"name ('sawmill')") from None  # fmt: skip
            return found

    def info(self, arg: str) -> str:
        return "\n".join(self.R.field_info(self.game, f, self.seat) for f in self._fields(arg))

    def era(self, arg: str) -> str:
        text = arg.strip()
        if text == "":
            return self.R.era_table(self.game, min(self.game.s.era, self.eras - 1))
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= self.eras):
            raise ValueError(f"no era {text!r}: eras are 1 to {self.eras} ('era 2')")
        return self.R.era_table(self.game, int(text) - 1)

    def scores(self) -> str:
        g = self.game
        return "points so far: " + ", ".join(f"player {p}: {self.R.points(v)}" for p, v in enumerate(g.scores()))

    def final(self) -> str:
        return "final scores:\n" + self.R.score_table(self.game)

    def after(self, action: int, before: Any) -> str | None:
        """Who claimed a field and for how much when an auction ends; who received money for a resource; the
        subsidy taken."""
        s, b, talers = self.game.s, self.game.board, self.R.talers
        lot, price, bidder, auctioneer, mover, money = before
        if action == A.SUBSIDY:
            return (f"  -> player {mover} takes the subsidy: {talers(SUBSIDY_MONEY)} now, "
                    f"{self.R.points(SUBSIDY_POINTS)} at the end")  # fmt: skip
        if A.PAY <= action < A.SUBSIDY:
            gained = [(q, s.money[q] - money[q]) for q in range(len(money)) if q != mover and s.money[q] > money[q]]
            if gained:
                return "  -> " + ", ".join(f"player {q} receives {talers(k)}" for q, k in gained)
            return None
        if lot < 0 or not s.claimed[lot]:
            return None
        if action == A.SELL:
            return f"  -> player {bidder} claims {b.field_label(lot)} for {talers(price)} paid to player {auctioneer}"
        if action == A.KEEP:
            back = s.money[auctioneer] - money[auctioneer] + price
            comes = f"{talers(back)} of it comes back to him" if back else "none of it comes back to him"
            return (f"  -> player {auctioneer} keeps {b.field_label(lot)}, paying {talers(price)} out around the "
                    f"table ({comes})")  # fmt: skip
        return f"  -> nobody bid: player {auctioneer} claims {b.field_label(lot)} for nothing"

    def snapshot(self) -> tuple[int, int, int, int, int, list[int]]:
        """The auction's lot, price, highest bidder and auctioneer, the player to move, and everyone's money."""
        s = self.game.s
        return s.lot, s.high_bid, s.high_bidder, s.auctioneer, self.game.current_player, list(s.money)

    def action_done(self, mover: int) -> bool:
        """A development is one move with the payments of its resources."""
        return self.game.phase != "pay"

    def begin_move(self) -> Any:
        return self.game.clone().s

    def restore(self, start: Any, actions: list[int]) -> None:
        """Back to before the development whose resources are being paid (nothing hidden was shown)."""
        self.game.s = start
