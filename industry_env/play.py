"""``industry-env play``: a person plays one seat in the terminal against agents, in any game of the suite.

The other seats are played by one agent of any kind ``make_agent`` builds (``heuristic``, ``mcts``, ``ppo``,
``module:attr`` ...). Bad input is answered, never fatal; a game that stops before its end (``quit``, end of
input, Ctrl-C, an error) is saved first, so nothing played is lost. Industry's view shows the board's fields with
what is printed on them, what each choice costs, a field lookup (``info 1E``) and the final scoring as a table;
another game shows its spec's text picture, a hidden-information game only what the person's seat may see.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any, TextIO

from .core.outputs import write_text_atomic
from .gameargs import add_game_arguments, game_options
from .registry import DEFAULT_GAME, load_game

# The commands a person may type besides a choice, and what they do (``help`` prints this).
COMMANDS = (
    ("<number> or an action", "play that choice: '2', 'bid 3', 'auction 1D', 'pay Wood: bank'"),
    ("list  (or an empty line)", "the choices again, with what each costs"),
    ("board  (b)", "the board: the grid, the players, and the fields of this era"),
    ("info <field>  (i)", "everything about a field, by id or name: 'info 1E', 'info sawmill'"),
    ("era <N>", "the fields of era N, with what is printed on them and who holds them"),
    ("scores", "the points so far"),
    ("help  (?)", "this list"),
    ("quit  (q)", "leave the game; it is saved first"),
)


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``industry-env play``, and the commands of the game in its help."""
    own = ", ".join(load_game(DEFAULT_GAME).agents)
    width = max(len(c) for c, _ in COMMANDS)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = "Play one seat in the terminal; the other seats are played by an agent."
    parser.epilog = "during the game, type:\n" + "\n".join(f"  {c:<{width}}  {w}" for c, w in COMMANDS)
    add_game_arguments(parser)
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the game's chance (default 0)")
    parser.add_argument("--seat", type=int, default=None, help="your seat, 0 to players-1 (default 0)")
    parser.add_argument("--opponents", metavar="AGENT", default="random",
                        help=f"who plays the other seats: any agent make_agent builds: 'random', one of the game's "
                             f"own ({DEFAULT_GAME}: {own}), 'rllib:PATH', or 'module:attr' for your own "
                             f"(default random)")  # fmt: skip
    parser.add_argument("--record", metavar="PATH", default=None,
                        help="where the game record is saved ('none': not saved; default: <game>-game-<seed>.json "
                             "in the current folder); 'industry-env replay' reads it")  # fmt: skip
    parser.set_defaults(func=cmd_play)


# ---------------------------------------------------------------------------------------------- what is shown
class _Table:
    """One game as the person at ``seat`` sees it, through the game's spec."""

    intro = ("Type a choice's number or the action as listed; 'help' lists the commands, 'board' shows the game, "
             "'quit' leaves.")  # fmt: skip

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        self.spec, self.game, self.seat = spec, game, seat

    def board(self) -> str:
        """The position, as much of it as the seat may see."""
        if self.spec.hidden_information:
            return self.spec.render_text(self.game, seat=self.seat)
        return self.spec.render_text(self.game)

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

    def info(self, arg: str) -> str:
        """A field looked up (Industry's view only: ValueError here)."""
        raise ValueError(f"'info' and 'era' show Industry's fields; {self.spec.name} has no such view: type 'board'")

    era = info

    def scores(self) -> str:
        """The points so far."""
        return "points so far: " + ", ".join(f"player {p}: {v}" for p, v in enumerate(self.game.scores()))

    def final(self) -> str:
        """The final scores, one row a player."""
        g, win = self.game, self.game.winners()
        rows = [f"  player {p}: {v:>4}{'  wins' if p in win else ''}" for p, v in enumerate(g.scores())]
        return "\n".join(["final scores:", *rows])

    def snapshot(self) -> Any:
        """What :meth:`after` compares with (taken before a move)."""
        return None

    def after(self, action: int, before: Any) -> str | None:
        """What a move did that its name does not say (None: nothing)."""
        return None

    def saver(self) -> _Saver:
        """What saves this game: its record."""
        return _Saver(self.game, self.spec)


class _IndustryTable(_Table):
    """Industry: the grid and this era's fields, what each choice costs, field lookup, the scoring table."""

    intro = ("Type a choice's number or its action (e.g. 'bid 3', 'auction 1D', 'pay Wood: bank'); 'info 1E' tells "
             "about a field, 'help' lists the commands, 'quit' leaves.")  # fmt: skip

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        super().__init__(spec, game, seat)
        from .games.industry import render
        from .games.industry.rules import NUM_ERAS

        self.R, self.eras = render, NUM_ERAS

    def board(self) -> str:
        return self.game.render() + "\n" + self.R.era_table(self.game, min(self.game.s.era, self.eras - 1))

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
        """Who claimed a field, and for how much, if an auction just ended."""
        from .games.industry import actions as A

        s, b, talers = self.game.s, self.game.board, self.R.talers
        lot, price, bidder, auctioneer = before
        if lot < 0 or not s.claimed[lot]:
            return None
        if action == A.SELL:
            return f"  -> player {bidder} claims {b.field_label(lot)} for {talers(price)} paid to player {auctioneer}"
        if action == A.KEEP:
            return f"  -> player {auctioneer} keeps {b.field_label(lot)}, paying {talers(price)} out around the table"
        return f"  -> nobody bid: player {auctioneer} claims {b.field_label(lot)} for nothing"

    def snapshot(self) -> tuple[int, int, int, int]:
        """The auction's lot, price, highest bidder and auctioneer."""
        s = self.game.s
        return s.lot, s.high_bid, s.high_bidder, s.auctioneer


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
    if spec.hidden_information and "seat" not in inspect.signature(spec.render_text).parameters:
        raise ValueError(f"{spec.name} has hidden information and its text picture cannot yet hide the other seats' "
                         f"part (its spec's render_text takes no seat): it cannot be played here")  # fmt: skip
    game = spec.reference(n, seed=args.seed, **options)
    return (_IndustryTable if spec.id == "industry" else _Table)(spec, game, seat)


def _record_path(args: argparse.Namespace) -> str | None:
    """Where ``play`` saves the game: --record PATH, none for --record none, else a new <game>-game-<seed>.json."""
    chosen = getattr(args, "record", None)
    if chosen is not None:
        return None if chosen.lower() in ("none", "-") else chosen
    game = getattr(args, "game", DEFAULT_GAME)
    path, k = Path(f"{game}-game-{args.seed}.json"), 1
    while path.exists():  # never overwrite an earlier game's record
        path, k = Path(f"{game}-game-{args.seed}-{k}.json"), k + 1
    return str(path)


def _choice_number(text: str, count: int) -> int | None:
    """The choice a number typed picks, None if ``text`` is not a number; ValueError if there is no such choice."""
    digits = text.lstrip("+-")
    if not digits or not all(c.isnumeric() for c in digits):
        return None
    if text.isascii() and text.isdigit() and int(text) < count:
        return int(text)
    raise ValueError(f"there is no choice [{text}]: pick 0 to {count - 1}, typed with the digits 0-9")


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """A person plays one seat against agents; bad input is answered, never a crash, and the game is saved if play
    stops before its end."""
    from .agents import make_agent

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    table = _make_table(args)
    spec, game, seat = table.spec, table.game, table.seat
    choose = make_agent(args.opponents, seed=args.seed + 1, game=spec.id).act_game  # one agent for every other seat
    saver = table.saver()

    def finish(code: int) -> int:
        """Save the game played so far (--record), saying where; a failed write is reported only."""
        path = _record_path(args)
        if path is not None:
            try:
                saver.save(path)
                say(saver.saved(path))
            except OSError as exc:
                say(f"could not save the game {saver.what} to {path}: {exc.strerror or exc}")
        return code

    def play(action: int) -> None:
        before = table.snapshot()
        game.apply(action)
        saver.append(action)
        note = table.after(action, before)
        if note:
            say(note)

    say(f"You are player {seat} of {game.num_players} in {spec.name}; the others play {args.opponents}.")
    say(table.intro)
    say(table.board())
    try:
        while not game.is_over:
            p = game.current_player
            if p != seat:
                a = choose(game)
                say(f"player {p}: {table.name(a)}")
                play(a)
                continue
            legal = game.legal_actions()
            say("")
            say(table.decision())
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
                if action == "quit":
                    say("leaving the game")
                    return finish(0)
            play(action)
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
    """What the person typed: the action chosen, "quit", or None after answering a command or bad input."""
    word, _, rest = text.partition(" ")
    word = word.lower()
    try:
        if word in ("quit", "exit", "q") and not rest:
            return "quit"
        if word in ("board", "b") and not rest:
            say(table.board())
            return None
        if word in ("help", "?") and not rest:
            width = max(len(c) for c, _ in COMMANDS)
            say("commands:")
            for command, what in COMMANDS:
                if table.spec.id == "industry" or not command.startswith(("info", "era")):
                    say(f"  {command:<{width}}  {what}")
            say("choices:")
            for line in table.choices(legal):
                say(line)
            return None
        if word in ("list", "l", "choices", "") and not rest:
            for line in table.choices(legal):
                say(line)
            return None
        if word in ("info", "i"):
            say(table.info(rest))
            return None
        if word == "era":
            say(table.era(rest))
            return None
        if word == "scores" and not rest:
            say(table.scores())
            return None
        number = _choice_number(text, len(legal))
        if number is not None:
            return legal[number]
        action = table.parse(text)
    except ValueError as exc:
        say(str(exc))
        return None
    if action not in legal:
        say(f"'{table.spec.action_to_string(action, table.game)}' is not legal now; type 'list' for the choices")
        return None
    return action


run = cmd_play
