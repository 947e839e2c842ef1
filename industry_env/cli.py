"""The ``industry-env`` command: play in the terminal, show the rules and the board, and run the tools.

Subcommands: ``demo`` (the short demonstration the README starts with), ``play``, ``rules``, ``board``,
``balance``, ``bench`` and ``verify``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from importlib import resources

from . import actions as A
from .board import BoardError, load_board


def _board_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", metavar="PATH", default=None, help="a board file (default: the shipped board)")


def _game_options(parser: argparse.ArgumentParser, players_default: int | None = 4) -> None:
    what = "default 4" if players_default else "default: 3 and 4 alternately"
    parser.add_argument("--players", type=int, choices=(3, 4), default=players_default,
                        help=f"number of players ({what})")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="seed of the bag and the starting player (default 0)")
    parser.add_argument("--plain-draws", action="store_true",
                        help="one token per player in every era (default: the recommended draws)")  # fmt: skip
    _board_option(parser)


# ---------------------------------------------------------------------------------------------- demo
def cmd_demo(args: argparse.Namespace) -> int:
    """Play random games with the reference engine and show one of them."""
    from .agents import RandomAgent
    from .reference import Game

    if args.games < 1:
        raise ValueError(f"--games {args.games}: the demonstration plays at least one game")
    board = load_board(args.board)
    t0, decisions, finals = time.perf_counter(), 0, []
    shown = None
    for g in range(args.games):
        n = args.players if args.players is not None else (4 if g % 2 == 0 else 3)
        game = Game(n, seed=args.seed + g, board=board, balanced_draws=not args.plain_draws)
        agent = RandomAgent(args.seed + g)
        while not game.is_over:
            game.apply(agent.act_game(game))
            decisions += 1
        finals.append((n, game.scores(), game.winners()))
        shown = shown or game
    dt = time.perf_counter() - t0
    print(shown.render())
    print()
    for p in range(shown.num_players):
        print(f"player {p}: {shown.score_breakdown(p)}")
    print()
    who = f"{args.players} players" if args.players is not None else "3 and 4 players"
    print(f"{args.games} random games ({who}) with the reference engine: "
          f"{decisions} decisions in {dt:.2f} s ({decisions / dt:,.0f} decisions/s, "
          f"{decisions / args.games:.0f} a game)")  # fmt: skip
    try:
        from . import engine
    except ImportError:
        return 0
    if hasattr(engine, "init"):
        import numpy as np

        rng = np.random.default_rng(args.seed)
        n = args.players if args.players is not None else 4
        state = engine.init(256, num_players=n, seed=args.seed, board=board, balanced_draws=not args.plain_draws)
        t0, steps = time.perf_counter(), 0
        while not bool(np.all(state.terminated)):
            mask = engine.legal_action_mask(state)
            live = ~np.asarray(state.terminated)
            logits = np.where(mask, rng.random(mask.shape), -1.0)
            state = engine.step(state, logits.argmax(axis=1))
            steps += int(live.sum())
        dt = time.perf_counter() - t0
        print(
            f"256 random {n}-player games with the batched engine: {steps} steps in {dt:.2f} s "
            f"({steps / dt:,.0f} steps/s)"
        )
    return 0


# ---------------------------------------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace, stdin=None, stdout=None) -> int:
    """A person plays one seat against random or heuristic opponents; bad input is answered, never a crash."""
    from .agents import make_agent
    from .reference import Game
    from .render import describe_action, describe_decision

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    game = Game(args.players, seed=args.seed, board=load_board(args.board), balanced_draws=not args.plain_draws)
    seat = args.seat if args.seat is not None else 0
    if not 0 <= seat < args.players:
        say(f"--seat {seat}: there are only seats 0 to {args.players - 1}")
        return 2
    choose = make_agent(args.opponents, seed=args.seed + 1).act_game  # every opponent seat: one seeded agent
    names = game.board.resource_names
    say(f"You are player {seat}. Type an action as listed (e.g. 'bid 3', 'auction 1D', 'pay Wood: bank'),")
    say("its number in the list, 'board' to see the board, 'help' for the list again, or 'quit'.")
    say(game.render())
    while not game.is_over:
        p = game.current_player
        legal = game.legal_actions()
        if p != seat:
            a = choose(game)
            say(f"player {p}: {describe_action(game, a)}")
            _apply_and_report(game, a, say)
            continue
        say("")
        say(describe_decision(game))
        for i, a in enumerate(legal):
            say(f"  [{i}] {describe_action(game, a)}")
        while True:
            out.write("> ")
            out.flush()
            line = stdin.readline()
            if not line:  # end of input
                say("\nend of input: leaving the game")
                return 0
            text = line.strip()
            if text in ("quit", "exit", "q"):
                say("leaving the game")
                return 0
            if text in ("board", "b"):
                say(game.render())
                continue
            if text in ("help", "?", ""):
                for i, a in enumerate(legal):
                    say(f"  [{i}] {describe_action(game, a)}")
                continue
            if text.lstrip("+-").isdigit():
                if text.isdigit() and int(text) < len(legal):
                    action = legal[int(text)]
                    break
                say(f"there is no choice [{text}]: pick 0 to {len(legal) - 1}")
                continue
            try:
                action = A.string_to_action(text, names)
            except ValueError as exc:
                say(str(exc))
                continue
            if action not in legal:
                say(f"'{A.action_to_string(action, names)}' is not legal now; type 'help' for the choices")
                continue
            break
        _apply_and_report(game, action, say)
    say(game.render())
    for p in range(game.num_players):
        say(f"player {p}: {game.score_breakdown(p)}")
    say("You win!" if seat in game.winners() else f"Winners: {game.winners()}")
    return 0


def _apply_and_report(game, action: int, say) -> None:
    """Apply ``action`` and say who claimed a field, and for how much, if an auction just ended."""
    s = game.s
    lot, price, bidder, auctioneer = s.lot, s.high_bid, s.high_bidder, s.auctioneer
    game.apply(action)
    if lot >= 0 and game.s.claimed[lot]:
        if action == A.SELL:
            say(
                f"  -> player {bidder} claims {game.board.field_label(lot)} "
                f"for {price} Talers paid to player {auctioneer}"
            )
        elif action == A.KEEP:
            say(
                f"  -> player {auctioneer} keeps {game.board.field_label(lot)}, "
                f"paying {price} Talers out around the table"
            )
        else:
            say(f"  -> nobody bid: player {auctioneer} claims {game.board.field_label(lot)} for nothing")


# ---------------------------------------------------------------------------------------------- rules / board
def cmd_rules(args: argparse.Namespace) -> int:
    """Print the rules summary and the rulings (the same text as docs/rules.md)."""
    print(resources.files("industry_env.data").joinpath("rules.md").read_text(encoding="utf-8"))
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    """Check a board file and print it as a table (markdown with --markdown, as in docs/board.md), or write a
    blank board file to fill in (--template). Likely typing slips of the file are noted on stderr."""
    import warnings
    from pathlib import Path

    from .board import BoardWarning, board_template
    from .boarddoc import board_markdown, board_text

    if args.template:
        target = Path(args.template)
        if target.exists():
            print(f"error: --template {target}: the file exists; give a new file name", file=sys.stderr)
            return 2
        if not target.parent.is_dir():
            print(f"error: --template {target}: the folder {target.parent} does not exist", file=sys.stderr)
            return 2
        target.write_text(board_template(), encoding="utf-8")
        print(f"wrote {target}: fill in the printed board, then check it with: industry-env board --board {target}")
        return 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoardWarning)  # printed below, once each, without a Python location
        board = load_board(args.board)
    for note in () if board.is_shipped else board.warnings:  # the shipped board's long links are documented
        print(f"note: {note}", file=sys.stderr)
    if args.markdown:
        sys.stdout.write(board_markdown(board))  # for the shipped board, exactly docs/board.md
    else:
        print(board_text(board))
    return 0


def _delegate(module: str):
    """A subcommand whose options and body live in ``industry_env.<module>`` (configure/run)."""

    def configure(parser: argparse.ArgumentParser) -> None:
        mod = importlib.import_module(f"industry_env.{module}")
        mod.configure(parser)
        parser.set_defaults(func=mod.run)

    return configure


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(prog="industry-env", description="Michael Schacht's Industry as an RL environment")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("demo", help="play random games and show one (the short demonstration)")
    _game_options(p, players_default=None)
    p.add_argument("--games", type=int, default=20, help="random games to play (default 20)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("play", help="play against random or heuristic opponents in the terminal")
    _game_options(p)
    p.add_argument("--seat", type=int, default=None, help="your seat, 0 to players-1 (default 0)")
    p.add_argument("--opponents", choices=("random", "heuristic"), default="random",
                   help="who plays the other seats (default random)")  # fmt: skip
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("rules", help="print the rules summary and the rulings on ambiguous rules")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("board", help="check a board file and print it as a table, or write a blank one")
    _board_option(p)
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--markdown", action="store_true",
                       help="print the board as markdown (for the shipped board: docs/board.md)")  # fmt: skip
    shown.add_argument("--template", metavar="PATH", default=None,
                       help="write a blank, commented board file to fill in from the printed board")  # fmt: skip
    p.set_defaults(func=cmd_board)

    p = sub.add_parser("balance", help="measure the board's balance over many games")
    _delegate("balance")(p)

    p = sub.add_parser("arena", help="a tournament between agents: win rates with intervals, ratings, seat effects")
    _delegate("arena")(p)

    for name, help_text in (("bench", "benchmark the batched engine against the reference engine"),
                            ("verify", "long differential check of the batched engine against the reference")):
        p = sub.add_parser(name, help=help_text)
        try:
            _delegate(name)(p)
        except ImportError as exc:  # only while a module is missing from a partial install
            p.set_defaults(func=lambda _args, exc=exc: print(f"unavailable: {exc}") or 1)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``industry-env`` console command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (BoardError, ValueError) as exc:  # a wrong option or a malformed board file
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a pager or head that stopped reading
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
