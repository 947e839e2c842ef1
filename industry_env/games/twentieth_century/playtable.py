"""20th Century at the terminal (``industry-env play``; the spec's ``play_table``): the whole public position, each
choice with what it costs, what each move did, a look-up of any tile of any nation or offer, the offers, the
catastrophe, a nation's map, ``back`` inside a multi-step choice, and the final scoring by source (the words:
:mod:`.playtext`)."""

from __future__ import annotations

from typing import Any

from ...core.playtable import PlayTable
from . import actions as A
from . import playtext


class TwentiethCenturyTable(PlayTable):
    """20th Century: everything public (ruling 36), each choice with its cost, look-ups of tiles and offers."""

    intro = ("Type a choice's number or its action (e.g. 'land 2', 'bid +1', 'withdraw', 'catastrophe column 0 bid "
             "3', 'cell 1,-1'); a cell is 'x,y' from your starting tile's 0,0 (x east, y south); 'info 0,0' tells "
             "about a tile of your nation ('info 0,0 2': player 2's), 'offers' and 'catastrophe' show the round's "
             "offers and card, 'back' takes back a choice not yet complete, 'help' lists the commands, 'quit' "
             "leaves.")  # fmt: skip
    commands = (
        ("<number> or an action", "play that choice: '2', 'land 3', 'bid +0', 'pass', 'withdraw', 'tech 1', 'done', "
         "'catastrophe column 2 bid 4', 'cell 1,-1', 'rotate 90', 'city 1,-1 a', 'use 0.0', 'bridge 0' (a cell is "
         "x,y from your starting tile's 0,0, x east and y south; the agents' names 'place 0 NE', 'tile 3', 'city 3 "
         "a', by the tiles' slots, are read too)"),
        ("board  (b)", "the whole game in words: the scoring cards, the offers and the auction, the catastrophe, every "
         "player's points, coins, science, production, pollution, cubes, technologies and tiles, your nation's map"),
        ("cards", "the round-II and round-IV scoring cards and the final scoring, in words"),
        ("info X,Y [PLAYER]  (i)", "a cell of a nation (yours by default; 'info 1,-1'): its tile's cities, citizens, "
         "production, rails, bridge, cubes"),
        ("info land N / info tech N", "a tile or technology of the offer"),
        ("offers", "the land and technology offers with their prices, the auction under way"),
        ("catastrophe  (cat)", "this round's catastrophe card: its columns and the bids on them"),
        ("nation [PLAYER]", "a nation as a map of cells (yours by default)"),
    )  # fmt: skip
    verbs = frozenset({"land", "bid", "pass", "withdraw", "tech", "catastrophe", "cell", "place", "tile", "rotate",
                       "city", "use", "bridge", "done"})  # fmt: skip

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        super().__init__(spec, game, seat)
        self.T = playtext
        self._mover: int | None = None  # whose move is under way (whose nation its cells are of)

    def parse(self, text: str) -> int:
        """The action typed: a cell as a person names it ('cell 1,-1', 'city 0,1 b', from the starting tile's 0,0)
        or any action's name ('place 0 NE', 'tile 3', 'bid +2'); ValueError saying why it cannot be read."""
        return int(self.game.string_to_action(text))

    def board(self) -> str:
        return self.T.board_text(self.game, self.seat)

    def command(self, word: str, rest: str) -> str | None:
        if word in ("info", "i"):
            return self.T.parse_info(self.game, self.seat, rest)
        if word == "offers" and not rest:
            return self.T.offers_text(self.game)
        if word in ("catastrophe", "cat") and not rest:
            return self.T.catastrophe_text(self.game)
        if word == "cards" and not rest:
            return "\n".join(self.T.scoring_lines(self.game))
        if word == "nation":
            return self.T.nation_map(self.game, self._player(rest))
        return super().command(word, rest)

    def _player(self, text: str) -> int:
        n = self.game.num_players
        if not text:
            return self.seat
        if not (text.isascii() and text.isdigit() and int(text) < n):
            raise ValueError(f"no player {text!r}: players are 0 to {n - 1} ('nation 2')")
        return int(text)

    def decision(self) -> str:
        g, p = self.game, self.seat
        what = self.T.decision_words(g)
        if g.phase in ("open", "bid") and g.auction_slot >= 0:
            tile = g.data.land[g.land_offer[g.auction_slot]].id
            high = f"high bid {g.high_bid} by player {g.high_bidder}" if g.high_bidder >= 0 else "no bid yet"
            what += f" ({tile} is up: {high})"
        if g.phase == "garbage":
            where = "the land tiles you bought this round" if any(g.grid_new[p]) else "any of your land tiles"
            what += f" ({self.T.plural(g.pending_cubes[p], 'garbage cube')} to place, on {where})"
        return (f"round {self.T.ROMAN[g.round]}, your turn: {what} (you have {g.coins[p]} coins, "
                f"{g.science[p]} science)")  # fmt: skip

    def choices(self, legal: list[int]) -> list[str]:
        """Every choice with what it costs; a run of bids (coins on the tile, or science on one catastrophe
        column) is one block: what it is once, then the numbered amounts, eight a line; the clause every land tile
        shares (the cubes a tile won comes with) is said once, above them."""
        g, out, i = self.game, [], 0
        texts = {a: self.T.choice_text(g, a) for a in legal if A.block_of(a)[0] == "land" and g.phase == "lead"}
        tails = {t.rsplit("; ", 1)[-1] for t in texts.values()}
        if len(texts) > 1 and len(tails) == 1:
            tail = tails.pop()
            out.append(f"  whichever you {'put up' if tail.startswith('if you win') else 'buy'}: {tail}")
            texts = {a: t.rsplit("; ", 1)[0] for a, t in texts.items()}
        while i < len(legal):
            group = self._group(legal[i])
            j = i
            while group and j + 1 < len(legal) and self._group(legal[j + 1]) == group:
                j += 1
            if j - i < 2:
                out.append(f"  [{i}] {texts.get(legal[i]) or self.T.choice_text(g, legal[i])}")
                i += 1
                continue
            out.append(f"  {group}:")
            cells = [f"[{k}] {self._amount(legal[k])}" for k in range(i, j + 1)]
            out += ["      " + "  ".join(cells[r : r + 8]) for r in range(0, len(cells), 8)]
            i = j + 1
        return out

    def _group(self, action: int) -> str:
        """The block a choice is listed in ('' for a choice listed alone)."""
        name, i = A.block_of(action)
        g = self.game
        if name == "bid":
            return self.T.bid_heading(g)
        if name == "catastrophe":
            return self.T.column_heading(g, i // A.NUM_CAT_BIDS)
        return ""

    def _amount(self, action: int) -> str:
        """A bid's amount in a block: its coins (from its name, 'bid +2 (7 coins)') or its science."""
        name, i = A.block_of(action)
        if name == "bid":
            return self.game.action_to_string(action).partition(" (")[2].split(" ")[0]
        return str(i % A.NUM_CAT_BIDS)

    def scores(self) -> str:
        return "points so far by source:\n" + self.T.score_table(self.game)

    def final(self) -> str:
        return "final scores:\n" + self.T.score_table(self.game)

    def name(self, action: int) -> str:
        """The action's name as the echo shows it, after the move (a bid's coins are said in the move's effects), a
        cell as 'cell x,y' and a city as 'city x,y b' of the mover's nation (a tile's cell never changes)."""
        name = A.block_of(action)[0]
        if name in ("place", "tile", "city"):
            p = self.game.to_move if self._mover is None else self._mover
            return self.T.action_name(self.game, action, p)
        return A.action_to_string(action)

    def begin_move(self) -> Any:
        self._mover = self.game.current_player if not self.game.is_over else None
        return self.game.clone()

    def action_done(self, mover: int) -> bool:
        return self.T.move_done(self.game, mover)

    def summary(self, start: Any, actions: list[int], mover: int) -> list[str]:
        """Every step of the move and the forced decisions after it, each effect under the step that caused it."""
        return self.T.effect_lines(start, actions, self.game)

    def reveals(self, action: int) -> bool:
        """Ending the last recycling of a round deals the next round's tiles and catastrophe: never taken back."""
        return self.game.phase == "recycle" and action == A.DONE

    def restore(self, start: Any, actions: list[int]) -> None:
        self.game.__dict__.update(start.clone().__dict__)
