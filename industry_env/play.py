"""``industry-env play``: a person plays one seat in the terminal against agents, in any game of the suite.

The other seats are played by one agent of any kind ``make_agent`` builds (``heuristic``, ``mcts``, ``ppo``,
``module:attr`` ...). Bad input is answered, never fatal; a game that stops before its end (``quit``, end of
input, Ctrl-C, an error) is saved first, so nothing played is lost. A game may bring its own table (its spec's
``play_table``, a :class:`~industry_env.core.playtable.PlayTable`): Industry's shows the board's fields with what
is printed on them, what each choice costs, a field lookup (``info 1E``); Age of Industry's every display, each
choice's price, what each move did, a place lookup (``info Boston``) and the links. Every table echoes every move,
takes back a move not yet complete (``back``), plays a decision with one option, and ends with the scoring as a
table. A game without its own table shows its spec's text picture, a hidden-information game only what the
person's seat may see. ``--resume FILE`` plays on an unfinished game from its record (and the private seed file
beside it), at the same seat against the same agents; it is saved back to that record.
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

from .core.playtable import PlayTable
from .core.spec import import_path
from .gameargs import add_game_arguments, game_options
from .registry import DEFAULT_GAME, available_games, load_game

# The commands a person may type in every game besides a choice, and what they do (``help`` prints them with the
# game's own, :attr:`PlayTable.commands`).
COMMANDS = (
    ("list  (or an empty line)", "the choices again, with what each costs"),
    ("back", "take back the first part of a choice not yet complete (nothing hidden is ever taken back)"),
    ("scores", "the points so far"),
    ("help  (?)", "this list"),
    ("quit  (q)", "leave the game; it is saved first"),
)


def _game_help(game_id: str) -> str:
    """The commands of one game, for ``play --help``."""
    table = _table_class(load_game(game_id))
    rows = [*table.commands, *COMMANDS]
    width = max(len(c) for c, _ in rows)
    return "\n".join(f"  {c:<{width}}  {w}" for c, w in rows)


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``industry-env play``, and the commands of each game in its help."""
    games = available_games(include_hidden=True)
    agents = "; ".join(f"{g}: {', '.join(load_game(g).agents) or 'none'}" for g in games)
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
    parser.add_argument("--opponents", metavar="AGENT", default=None,
                        help=f"who plays the other seats: any agent make_agent builds: 'random', one of the "
                             f"game's own ({agents}), 'rllib:PATH', or 'module:attr' for your own (default "
                             f"random; with --resume, the agent the game was played against)")  # fmt: skip
    parser.add_argument("--record", metavar="PATH", default=None,
                        help="where the game record is saved ('none': not saved; default: a new "
                             "<game>-game-<date>-<time>.json in the current folder; an existing file is never "
                             "overwritten); 'industry-env replay' reads it")  # fmt: skip
    parser.add_argument("--resume", metavar="FILE", default=None,
                        help="play on an unfinished game from its record (written by play or serve; its seed is in "
                             "the private FILE.seed beside it): the same game, seat and opponents (--seat for a "
                             "record that does not say); it is saved back to FILE (or to --record PATH)")  # fmt: skip
    parser.set_defaults(func=cmd_play)


# ---------------------------------------------------------------------------------------------- what is shown
def _table_class(spec: Any) -> type[PlayTable]:
    """The game's own terminal table (its spec's ``play_table``), else the one every game has."""
    if spec.play_table is None:
        return PlayTable
    return import_path(spec.play_table)


table_class = _table_class  # public: `demo` ends with the game's own score table, as play does


# ---------------------------------------------------------------------------------------------- saving
class _Saver:
    """The game record, which ``industry-env replay`` reads, written atomically and privately (an unfinished game's
    seed, and who plays each seat, in its seed file beside it: ``records.save``)."""

    what = "record"

    def __init__(self, game: Any, spec: Any, seats: list[str | None] | None = None) -> None:
        from .records import Recorder

        self.game, self.seats = game, seats
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
        from .records import save

        save(self.recorder.record(self.game.scores() if self.game.is_over else None), path, self.seats)


# ---------------------------------------------------------------------------------------------- the game
def _make_table(args: argparse.Namespace) -> PlayTable:
    """The game of the command line, at the person's seat; ValueError naming the option that is wrong."""
    spec, options = game_options(args)
    n = spec.check_num_players(spec.default_players if args.players is None else args.players, "--players")
    seat = 0 if args.seat is None else args.seat
    if not 0 <= seat < n:
        raise ValueError(f"--seat {seat}: there are only seats 0 to {n - 1}")
    if spec.hidden_information and spec.play_table is None and \
            "seat" not in inspect.signature(spec.render_text).parameters:  # fmt: skip
        raise ValueError(f"{spec.name} has hidden information and its text picture cannot yet hide the other seats' "
                         f"part (its spec's render_text takes no seat): it cannot be played here")  # fmt: skip
    if getattr(args, "record", None) not in (None, "none", "-") and Path(args.record).exists():
        raise ValueError(f"--record {args.record}: the file exists and is never overwritten; name a new file")
    game = spec.reference(n, seed=args.seed, **options)
    return _table_class(spec)(spec, game, seat)


def _resumed_table(args: argparse.Namespace) -> tuple[PlayTable, _Saver]:
    """The game of ``--resume FILE`` at its last position, at the person's seat, and its saver holding the moves so
    far (``args`` takes the record's game, seed and opponents); ValueError (a RecordError) naming what is wrong."""
    from .records import opening, replay, resume

    record, seats = resume(args.resume)
    numbers = (("--players", args.players), ("--seed", args.seed), ("--seat", args.seat if seats else None))
    fixed = [flag for flag, value in numbers if value is not None]
    fixed += [flag for flag, value in (("--option", args.option), ("--plain-draws", args.plain_draws)) if value]
    if fixed or args.game not in (DEFAULT_GAME, record.game):
        given = ", ".join(fixed) or f"--game {args.game}"
        raise ValueError(f"--resume {args.resume}: the record fixes the game ({record.spec.name}), the players, the "
                         f"seat, the options and the seed; {given} cannot change them")  # fmt: skip
    spec = record.spec
    data = {"board": args.board} if args.board is not None else {}
    replay(record, **data)  # every move checked legal from the seed's opening before anything is shown
    game = opening(record, **data)
    people = [p for p, who in enumerate(seats or []) if who is None]
    seat = people[0] if people else args.seat or 0  # a record that does not say: --seat
    opponents = args.opponents or next((who for who in seats or [] if who is not None), None) or "random"
    saver = _Saver(game, spec, [None if p == seat else opponents for p in range(record.num_players)])
    for action in record.actions:
        game.apply(action)
        saver.append(action)
    args.game, args.seed, args.opponents = spec.id, record.seed, opponents
    return _table_class(spec)(spec, game, seat), saver


def _record_path(args: argparse.Namespace, stamp: str) -> str | None:
    """Where ``play`` saves the game: --record PATH, none for --record none, the resumed record (--resume), else a
    new ``<game>-game-<stamp>.json``; never another file that exists (a number is added to the name)."""
    chosen = getattr(args, "record", None)
    if chosen is not None and chosen.lower() in ("none", "-"):
        return None
    if chosen is None and getattr(args, "resume", None):
        return str(args.resume)  # the same game, played on: its record is brought up to date
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
    from . import warmup
    from .agents import make_agent

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def say(text: str = "") -> None:
        try:
            print(text, file=out, flush=True)
        except OSError:  # the terminal is gone (closed window, broken pipe): nobody reads, the game is still saved
            pass

    stamp = time.strftime("%Y%m%d-%H%M%S")
    resumed = getattr(args, "resume", None)
    if resumed:
        if getattr(args, "record", None) not in (None, "none", "-") and Path(args.record).exists():
            raise ValueError(f"--record {args.record}: the file exists and is never overwritten; name a new file")
        table, saver = _resumed_table(args)
    else:
        if args.seed is None:  # a fresh deal each game: the record keeps the seed, the screen never shows it
            args.seed = secrets.randbelow(2**31)
        args.opponents = args.opponents or "random"
        table = _make_table(args)
        saver = _Saver(table.game, table.spec, [None if p == table.seat else args.opponents
                                                for p in range(table.game.num_players)])  # fmt: skip
    spec, game, seat = table.spec, table.game, table.seat
    options = saver.recorder.options
    # one agent for every other seat, told the game's options (a policy made for another map is refused here)
    warmup.prepare(spec.id, [args.opponents], options, who="this game")  # compiles before the prompt
    choose = make_agent(args.opponents, seed=args.seed + 1, game=spec.id, options=options).act_game

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
    if getattr(args, "resume", None):
        say(f"Resumed from {args.resume}: {len(saver.recorder.actions)} decisions played so far.")
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


def _answer(text: str, table: PlayTable, legal: list[int], say: Any) -> int | str | None:
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
