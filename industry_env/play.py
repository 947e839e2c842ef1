"""``industry-env play``: a person plays one seat in the terminal against agents, in any game of the suite.

The other seats are played by one agent of any kind ``make_agent`` builds (``heuristic``, ``mcts``, ``ppo``,
``module:attr`` ...). Bad input is answered, never fatal; a game that stops before its end (``quit``, end of
input, Ctrl-C, an error) is saved first, so nothing played is lost. Each game has its own table: Industry's shows
the board's fields with what is printed on them, what each choice costs, a field lookup (``info 1E``); Age of
Industry's (:mod:`.games.age_of_industry.playtext`) every display, each choice's price, what each move did, a place
lookup (``info Boston``) and the links. Both echo every move, take back a move not yet complete (``back``), play a
decision with one option, and end with the scoring as a table. Another game shows its spec's text picture, a
hidden-information game only what the person's seat may see.
"""

from __future__ import annotations

import argparse
import inspect
import secrets
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from .core.outputs import write_text_atomic
from .gameargs import add_game_arguments, game_options
from .registry import DEFAULT_GAME, available_games, load_game

# The commands a person may type in every game besides a choice, and what they do (``help`` prints them with the
# game's own, :attr:`_Table.commands`).
COMMANDS = (
    ("list  (or an empty line)", "the choices again, with what each costs"),
    ("back", "take back the first part of a choice not yet complete (nothing hidden is ever taken back)"),
    ("scores", "the points so far"),
    ("help  (?)", "this list"),
    ("quit  (q)", "leave the game; it is saved first"),
)


def _game_help(game_id: str) -> str:
    """The commands of one game, for ``play --help``."""
    table = _TABLES.get(game_id, _Table)
    rows = [*table.commands, *COMMANDS]
    width = max(len(c) for c, _ in rows)
    return "\n".join(f"  {c:<{width}}  {w}" for c, w in rows)


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``industry-env play``, and the commands of each game in its help."""
    games = available_games(include_hidden=True)
    agents = "; ".join(f"{g}: {', '.join(load_game(g).agents)}" for g in games)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = "Play one seat in the terminal; the other seats are played by an agent."
    parser.epilog = "\n\n".join(f"during a game of {load_game(g).name} (--game {g}), type:\n{_game_help(g)}"
                                 for g in games)  # fmt: skip
    add_game_arguments(parser)
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the game's chance (default: a fresh one each game; the record keeps it)",
    )
    parser.add_argument("--seat", type=int, default=None, help="your seat: you are player SEAT, 0 to players-1 "
                        "(default 0)")  # fmt: skip
    parser.add_argument("--opponents", metavar="AGENT", default="random",
                        help=f"who plays the other seats: any agent make_agent builds: 'random', one of the "
                             f"game's own ({agents}), 'rllib:PATH', or 'module:attr' for your own (default "
                             f"random)")  # fmt: skip
    parser.add_argument("--record", metavar="PATH", default=None,
                        help="where the game record is saved ('none': not saved; default: a new "
                             "<game>-game-<date>-<time>.json in the current folder; an existing file is never "
                             "overwritten); 'industry-env replay' reads it")  # fmt: skip
    parser.set_defaults(func=cmd_play)


# ---------------------------------------------------------------------------------------------- what is shown
class _Table:
    """One game as the person at ``seat`` sees it, through the game's spec."""

    intro = ("Type a choice's number or the action as listed; 'help' lists the commands, 'board' shows the game, "
             "'quit' leaves.")  # fmt: skip
    # The game's own commands ((typed, what it does), for help); answered by :meth:`command`.
    commands: tuple[tuple[str, str], ...] = (("<number> or an action", "play that choice: '2', or its name as listed"),
                                             ("board  (b)", "the game as you may see it"))  # fmt: skip
    verbs: frozenset[str] = frozenset()  # first words of the game's actions (other words are not actions)

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        self.spec, self.game, self.seat = spec, game, seat

    def board(self) -> str:
        """The position, as much of it as the seat may see."""
        if self.spec.hidden_information:
            return self.spec.render_text(self.game, seat=self.seat)
        return self.spec.render_text(self.game)

    def command(self, word: str, rest: str) -> str | None:
        """The answer to one of the game's own commands (None: ``word`` is not one); ValueError for a bad one."""
        if word in ("board", "b") and not rest:
            return self.board()
        return None

    def decision(self) -> str:
        """Who decides now."""
        return f"player {self.game.current_player} to move"

    def name(self, action: int) -> str:
        """The action's readable name."""
        return self.spec.action_to_string(action, self.game)

    def choices(self, legal: list[int]) -> list[str]:
        """One line a choice, numbered as the person types them."""
        return [f"  [{i}] {self.name(a)}" for i, a in enumerate(legal)]

    def parse(self, text: str) -> int:
        """The action typed, or ValueError saying why it cannot be read."""
        return int(self.spec.string_to_action(text, self.game))

    def scores(self) -> str:
        """The points so far."""
        return "points so far: " + ", ".join(f"player {p}: {v}" for p, v in enumerate(self.game.scores()))

    def final(self) -> str:
        """The final scores, one row a player."""
        g, win = self.game, self.game.winners()
        rows = [f"  player {p}: {v:>4}{'  wins' if p in win else ''}" for p, v in enumerate(g.scores())]
        return "\n".join(["final scores:", *rows])

    # A move is one or more decisions of one player (Age of Industry: a card, then where to build, then which
    # cube). The loop groups them: ``snapshot`` before each decision, ``after`` for what one decision did,
    # ``action_done`` when the move is complete, ``begin_move`` before its first decision, ``summary`` for what the
    # whole move did.
    def snapshot(self) -> Any:
        """What :meth:`after` uses (taken before each decision)."""
        return None

    def after(self, action: int, before: Any) -> str | None:
        """What one decision did that its name does not say (None: nothing)."""
        return None

    def action_done(self, mover: int) -> bool:
        """Is ``mover``'s move complete (the next decision is a new move)?"""
        return True

    def begin_move(self) -> Any:
        """What :meth:`summary` and :meth:`restore` use (taken before a move's first decision)."""
        return None

    def summary(self, start: Any, actions: list[int], mover: int) -> list[str]:
        """What the whole move did, as lines (from :meth:`begin_move`'s snapshot)."""
        return []

    def reveals(self, action: int) -> bool:
        """Does ``action`` show the person something hidden (a card drawn): then it can never be taken back."""
        return False

    def restore(self, start: Any, actions: list[int]) -> None:
        """Put the game back where ``start`` was taken, before ``actions``; ValueError if it cannot be."""
        raise ValueError("this game cannot take a choice back")

    def saver(self) -> _Saver:
        """What saves this game: its record."""
        return _Saver(self.game, self.spec)


class _IndustryTable(_Table):
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
        from .games.industry import render
        from .games.industry.rules import NUM_ERAS

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
        from .games.industry import actions as A

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
        from .games.industry import actions as A

        return A.string_to_action(text, self.game.board.resource_names)

    def _fields(self, arg: str) -> list[int]:
        """Fields named by ``arg``: an id (``1E``) or part of a name (``saw``)."""
        from .games.industry.board import field_index

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
        from .games.industry import actions as A
        from .games.industry.rules import SUBSIDY_MONEY, SUBSIDY_POINTS

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


class _AgeOfIndustryTable(_Table):
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
        from .games.age_of_industry import playtext

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


_TABLES: dict[str, type[_Table]] = {"industry": _IndustryTable, "age_of_industry": _AgeOfIndustryTable}


# ---------------------------------------------------------------------------------------------- saving
class _Saver:
    """The game record, which ``industry-env replay`` reads, written atomically."""

    what = "record"

    def __init__(self, game: Any, spec: Any) -> None:
        from .records import Recorder

        self.game = game
        self.recorder = Recorder.for_game(game, spec)

    def saved(self, path: str) -> str:
        """The line saying where the game went."""
        return f"game record saved to {path} (replay it with: industry-env replay {path})"

    def append(self, action: int) -> None:
        """Note the next action played."""
        self.recorder.append(action)

    def take_back(self, count: int) -> None:
        """Forget the last ``count`` actions (taken back with ``back``)."""
        del self.recorder.actions[len(self.recorder.actions) - count :]

    def save(self, path: str) -> None:
        """Write the record so far to ``path`` (whole or not at all)."""
        record = self.recorder.record(self.game.scores() if self.game.is_over else None)
        write_text_atomic(path, record.to_json())


# ---------------------------------------------------------------------------------------------- the game
def _make_table(args: argparse.Namespace) -> _Table:
    """The game of the command line, at the person's seat; ValueError naming the option that is wrong."""
    spec, options = game_options(args)
    n = spec.check_num_players(spec.default_players if args.players is None else args.players, "--players")
    seat = 0 if args.seat is None else args.seat
    if not 0 <= seat < n:
        raise ValueError(f"--seat {seat}: there are only seats 0 to {n - 1}")
    if spec.hidden_information and spec.id not in _TABLES and \
            "seat" not in inspect.signature(spec.render_text).parameters:  # fmt: skip
        raise ValueError(f"{spec.name} has hidden information and its text picture cannot yet hide the other seats' "
                         f"part (its spec's render_text takes no seat): it cannot be played here")  # fmt: skip
    if getattr(args, "record", None) not in (None, "none", "-") and Path(args.record).exists():
        raise ValueError(f"--record {args.record}: the file exists and is never overwritten; name a new file")
    game = spec.reference(n, seed=args.seed, **options)
    return _TABLES.get(spec.id, _Table)(spec, game, seat)


def _record_path(args: argparse.Namespace, stamp: str) -> str | None:
    """Where ``play`` saves the game: --record PATH, none for --record none, else a new
    ``<game>-game-<stamp>.json``; never a file that exists (a number is added to the name)."""
    chosen = getattr(args, "record", None)
    if chosen is not None and chosen.lower() in ("none", "-"):
        return None
    base = Path(chosen) if chosen is not None else Path(f"{getattr(args, 'game', DEFAULT_GAME)}-game-{stamp}.json")
    path, k = base, 2
    while path.exists():  # never overwrite an earlier game's record
        path, k = base.with_name(f"{base.stem}-{k}{base.suffix}"), k + 1
    return str(path)


def _choice_number(text: str, count: int) -> int | None:
    """The choice a number typed picks, None if ``text`` is not a number; ValueError if there is no such choice."""
    digits = text.lstrip("+-")
    if not digits or not all(c.isnumeric() for c in digits):
        return None
    if text.isascii() and text.isdigit() and int(text) < count:
        return int(text)
    raise ValueError(f"there is no choice [{text}]: pick 0 to {count - 1}, typed with the digits 0-9")


class _Stopped(KeyboardInterrupt):
    """The terminal closed (SIGHUP) or the process was asked to stop (SIGTERM): the game ends as on Ctrl-C, saved."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop_signals(saving: list[bool]) -> dict[int, Any]:
    """SIGHUP and SIGTERM raise :class:`_Stopped` (deferred while the record is being written), instead of killing
    the process with the game unsaved or its record half written; the handlers they replace, to restore."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    pending: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        if saving[0]:
            pending.append(signum)  # the record is being written: it finishes first
            return
        raise _Stopped(signum)

    wanted = [getattr(signal, "SIGHUP", None), signal.SIGTERM]
    return {s: signal.signal(s, stop) for s in wanted if s is not None}


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """A person plays one seat against agents; bad input is answered, never a crash, and the game is saved if play
    stops before its end."""
    from .agents import make_agent

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def say(text: str = "") -> None:
        try:
            print(text, file=out, flush=True)
        except OSError:  # the terminal is gone (closed window, broken pipe): nobody reads, the game is still saved
            pass

    if args.seed is None:  # a fresh deal each game: the record keeps the seed, the screen never shows it
        args.seed = secrets.randbelow(2**31)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    table = _make_table(args)
    spec, game, seat = table.spec, table.game, table.seat
    # one agent for every other seat, told the game's options (a policy made for another map is refused here)
    choose = make_agent(args.opponents, seed=args.seed + 1, game=spec.id, options=game_options(args)[1]).act_game
    saver = table.saver()

    def finish(code: int) -> int:
        """Save the game played so far (--record), saying where; a failed write is reported only."""
        path = _record_path(args, stamp)
        if path is not None:
            saving[0] = True
            try:
                saver.save(path)
                say(saver.saved(path))
            except OSError as exc:
                say(f"could not save the game {saver.what} to {path}: {exc.strerror or exc}")
        return code

    saving = [False]
    replaced = _stop_signals(saving)
    try:
        return _play_loop(args, stdin, out, say, table, spec, game, seat, choose, saver, finish)
    finally:
        for signum, handler in replaced.items():
            signal.signal(signum, handler)


def _play_loop(args: argparse.Namespace, stdin: TextIO, out: TextIO, say: Any, table: Any, spec: Any, game: Any,
               seat: int, choose: Any, saver: Any, finish: Any) -> int:  # fmt: skip
    """The game, move by move, until its end or the person leaves (saved either way)."""
    move: list[int] = []  # the decisions of the move in progress
    notes: list[str] = []  # what they did (table.after)
    start: Any = None  # the game before it (table.begin_move)
    mover = -1
    hidden_seen = False  # the move showed the person something hidden: it cannot be taken back

    def play(action: int) -> None:
        nonlocal hidden_seen
        before = table.snapshot()
        if p == seat and table.reveals(action):
            hidden_seen = True
        game.apply(action)
        saver.append(action)
        move.append(action)
        note = table.after(action, before)
        if note:
            notes.append(note)

    def end_move() -> None:
        """Say what the move did once it is complete."""
        say(f"{'you' if mover == seat else f'player {mover}'}: {' -> '.join(table.name(a) for a in move)}")
        for line in [*notes, *table.summary(start, move, mover)]:
            say(line)
        move.clear()
        notes.clear()

    say(f"You are player {seat} of {game.num_players} in {spec.name}; the others play {args.opponents}.")
    say(table.intro)
    say(table.board())
    try:
        while not game.is_over:
            p = game.current_player
            if not move:
                start, mover, hidden_seen = table.begin_move(), p, False
            if p != seat:
                play(choose(game))
            else:
                legal = game.legal_actions()
                say("")
                say(table.decision())
                if len(legal) == 1:
                    say(f"  only one choice, played for you: {table.name(legal[0])}")
                    play(legal[0])
                else:
                    for line in table.choices(legal):
                        say(line)
                    action = None
                    while action is None:
                        out.write("> ")
                        out.flush()
                        try:
                            line = stdin.readline()
                        except UnicodeDecodeError:
                            say("could not read that line (it is not UTF-8 text); type a choice again")
                            continue
                        if not line:  # end of input
                            say("\nend of input: leaving the game")
                            return finish(0)
                        action = _answer(line.strip(), table, legal, say)
                        if action == "back":
                            action = None
                            if not move:
                                say("nothing to take back: 'back' undoes the first part of a choice not yet complete")
                            elif hidden_seen:
                                say("a card drawn from the deck cannot be put back: finish the move")
                            else:
                                table.restore(start, move)
                                saver.take_back(len(move))
                                say(f"taken back: {' -> '.join(table.name(a) for a in move)}")
                                move.clear()
                                notes.clear()
                                break
                        if action == "quit":
                            say("leaving the game")
                            return finish(0)
                    if action is None:  # taken back: the move starts again
                        continue
                    play(action)
            if table.action_done(mover):
                end_move()
    except _Stopped as stop:
        say(f"\n{'the terminal closed' if stop.signum != signal.SIGTERM else 'asked to stop'}: leaving the game")
        return finish(128 + stop.signum)
    except KeyboardInterrupt:
        say("\ninterrupted: leaving the game")
        return finish(130)
    except BaseException:
        finish(1)  # an agent's or the program's error: the game so far is kept, then the error shown
        raise
    say("")
    say(table.board())
    say("")
    say(table.final())
    winners = game.winners()
    if seat in winners:
        say("You win!" if len(winners) == 1 else f"You tie for the win with player(s) "
            f"{', '.join(str(w) for w in winners if w != seat)}.")  # fmt: skip
    else:
        say(f"Winner{'s' if len(winners) > 1 else ''}: player {', '.join(map(str, winners))}")
    return finish(0)


def _answer(text: str, table: _Table, legal: list[int], say: Any) -> int | str | None:
    """What the person typed: the action chosen, "quit", "back", or None after answering a command or bad input."""
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    try:
        if word in ("quit", "exit", "q") and not rest:
            return "quit"
        if word in ("back", "undo") and not rest:
            return "back"
        if word in ("help", "?") and not rest:
            rows = [*table.commands, *COMMANDS]
            width = max(len(c) for c, _ in rows)
            say("commands:")
            for command, what in rows:
                say(f"  {command:<{width}}  {what}")
            say("choices:")
            for line in table.choices(legal):
                say(line)
            return None
        if word in ("list", "l", "choices", "") and not rest:
            for line in table.choices(legal):
                say(line)
            return None
        if word == "scores" and not rest:
            say(table.scores())
            return None
        answer = table.command(word, rest)
        if answer is not None:
            say(answer)
            return None
        number = _choice_number(text, len(legal))
        if number is not None:
            return legal[number]
        if table.verbs and word not in table.verbs:
            say(f"'{text}' is neither a choice nor a command: type a choice's number or its action as listed, "
                f"or 'help' for the commands")  # fmt: skip
            return None
        action = table.parse(text)
    except ValueError as exc:
        say(str(exc))
        return None
    if action not in legal:
        say(f"'{table.spec.action_to_string(action, table.game)}' is not legal now; type 'list' for the choices")
        return None
    return action


run = cmd_play
