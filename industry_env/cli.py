"""The ``industry-env`` command: play in the terminal, show the rules and the board, and run the tools.

Subcommands: ``demo`` (the short demonstration the README starts with), ``play``, ``rules``, ``board``,
``balance``, ``bench`` and ``verify``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from typing import Any

from .gameargs import add_game_arguments
from .games.industry.board import BoardError, load_board
from .play import cmd_play  # noqa: F401  (industry_env.cli.cmd_play, as before play had its module)
from .play import configure as configure_play


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
    """Play random games with the reference engine and show one of them (then a batch on the batched engine)."""
    import numpy as np

    from .gameargs import game_options

    if args.games < 1:
        raise ValueError(f"--games {args.games}: the demonstration plays at least one game")
    spec, options = game_options(args)
    if args.players is not None:
        spec.check_num_players(args.players, "--players")
    both = (spec.max_players, spec.min_players)  # by default, alternately the most and the fewest players
    t0, decisions, shown = time.perf_counter(), 0, None
    for g in range(args.games):
        n = args.players if args.players is not None else both[g % 2]
        game = spec.reference(n, seed=args.seed + g, **options)
        rng = np.random.default_rng(args.seed + g)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])  # uniformly random legal moves
            decisions += 1
        shown = shown or game
    dt = time.perf_counter() - t0
    print(spec.render_text(shown))
    print()
    for p in range(shown.num_players):
        breakdown = getattr(shown, "score_breakdown", None)
        print(f"player {p}: {breakdown(p) if breakdown else shown.scores()[p]}")
    print()
    who = (f"{args.players} players" if args.players is not None else f"{both[0]} players" if args.games == 1
           else f"{both[0]} and {both[1]} players")  # fmt: skip
    games = "1 random game" if args.games == 1 else f"{args.games} random games"
    print(f"{games} of {spec.name} ({who}) with the reference engine: "
          f"{decisions} decisions in {dt:.2f} s ({decisions / dt:,.0f} decisions/s, "
          f"{decisions / args.games:.0f} a game)")  # fmt: skip
    if spec.engine_module is None:
        return 0
    from .core import numba_cache

    engine = spec.engine
    rng = np.random.default_rng(args.seed)
    n = args.players if args.players is not None else spec.default_players
    # The first calls compile the engine (or load it from numba's disk cache): a step of its own, timed apart, so
    # the speed below is the speed of play. Two steps of the same batch size reach every kernel the loop calls.
    t0, before = time.perf_counter(), len(numba_cache.COMPILED)
    first = engine.init(256, num_players=n, seed=args.seed, **options)
    for _ in range(2):
        mask = engine.legal_action_mask(first)
        first = engine.step(first, np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))
    dt = time.perf_counter() - t0
    how = "compiled" if len(numba_cache.COMPILED) > before else "loaded from numba's disk cache"
    print(f"the batched engine: {how} in {dt:.1f} s (not counted in its speed below)")
    rng = np.random.default_rng(args.seed)
    state = engine.init(256, num_players=n, seed=args.seed, **options)
    t0, steps = time.perf_counter(), 0
    while not bool(np.all(state.terminated)):
        mask = engine.legal_action_mask(state)
        live = ~np.asarray(state.terminated)
        logits = np.where(mask, rng.random(mask.shape), -1.0)
        state = engine.step(state, logits.argmax(axis=1))
        steps += int(live.sum())
    dt = time.perf_counter() - t0
    print(f"256 random {n}-player games with the batched engine: {steps} steps in {dt:.2f} s "
          f"({steps / dt:,.0f} steps/s)")  # fmt: skip
    return 0


# ---------------------------------------------------------------------------------------------- replay
def _output_folder(option: str, path, create: bool) -> str | None:
    """Why ``path`` cannot receive output (a sentence), or None; ``create`` makes the folder if its parent exists."""
    import os

    folder = path if create else path.parent
    if create and not folder.exists() and folder.parent.is_dir():
        folder.mkdir()
    if not folder.is_dir():
        return f"{option} {path}: the folder {folder} does not exist"
    if not os.access(folder, os.W_OK):
        return f"{option} {path}: the folder {folder} is not writable"
    if not create and path.is_dir():
        return f"{option} {path}: is a folder, not a file name"
    return None


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a game record (of any game: the record names it) move by move, printing each move, and write its
    pictures (GIF, PNGs)."""
    from pathlib import Path

    from .records import iter_replay, load, opening, replay

    gif = Path(args.gif) if args.gif else None
    png_dir = Path(args.png_dir) if args.png_dir else None
    problems = [p for p in (gif and _output_folder("--gif", gif, create=False),
                            png_dir and _output_folder("--png-dir", png_dir, create=True)) if p]  # fmt: skip
    if args.frame_ms < 10:
        problems.append(f"--frame-ms {args.frame_ms}: a frame shows for at least 10 ms")
    if not 0.1 <= args.gif_scale <= 1.0:
        problems.append(f"--gif-scale {args.gif_scale}: must be from 0.1 to 1")
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        return 2
    record = load(args.file)
    spec = record.spec
    data = {"board": load_board(args.board)} if args.board is not None else {}
    if data and record.game != "industry":
        raise ValueError(f"--board: a board file of Industry; {args.file} is a game of {spec.name}")
    replay(record, **data)  # refuses a record that does not replay before anything is printed or written
    drawing = bool(gif or png_dir)
    if drawing:
        if not spec.has_pictures:
            raise ValueError(f"--gif/--png-dir: {spec.name} draws no pictures yet (its moves are printed)")
        from .games.industry import picture

        try:
            picture._matplotlib()  # the extra is needed before anything is written
        except ImportError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    game = opening(record, **data)
    print(f"{args.file}: {record.describe()}")
    writer = picture.GifWriter(gif, frame_ms=args.frame_ms, scale=args.gif_scale) if drawing and gif else None
    frames, last_look = 0, None

    def frame(g: Any, number: int) -> None:
        nonlocal frames, last_look
        look = spec.picture_key(g)
        if args.frames == "move" and look is not None and look == last_look and number < len(record.actions):
            return  # one frame per move: only when the board changed (and always the last position)
        last_look = look
        rgb = spec.to_rgb_array(g)
        if writer is not None:
            writer.add(rgb)
        if png_dir is not None:
            from PIL import Image

            Image.fromarray(rgb).save(png_dir / f"move-{number:04d}.png")
        frames += 1

    try:
        if drawing:
            frame(game, 0)
        for move in iter_replay(record, **data):
            print(f"{move.number:4d}  player {move.player}  {move.name}")
            if drawing:
                frame(move.game, move.number)
            game = move.game
    finally:
        if writer is not None:
            writer.close()
    if game.is_over:
        print(f"final scores: {game.scores()}; winners: {game.winners()}")
    else:
        print(f"the record ends before the game does (after move {len(record.actions)}); points now: {game.scores()}")
    if gif:
        print(f"wrote {gif} ({frames} frames, {gif.stat().st_size / 1e6:.1f} MB)")
    if png_dir:
        print(f"wrote {frames} pictures to {png_dir}/ (move-0000.png is the opening position)")
    return 0


# ---------------------------------------------------------------------------------------------- rules / board
def cmd_rules(args: argparse.Namespace) -> int:
    """Print the game's rules as implemented and the rulings (Industry: the same text as docs/rules.md)."""
    print(_game(args).rules_text())
    return 0


def _game(args: argparse.Namespace) -> Any:
    """The spec of ``--game`` (hidden games too: their rules and components are readable while they are built)."""
    from .registry import load_game

    return load_game(args.game)


def _game_option(p: argparse.ArgumentParser) -> None:
    from .registry import DEFAULT_GAME, available_games

    p.add_argument("--game", default=DEFAULT_GAME, choices=available_games(include_hidden=True),
                   help=f"the game (default {DEFAULT_GAME})")  # fmt: skip


def cmd_board(args: argparse.Namespace) -> int:
    """Check a board file and print it as a table (markdown with --markdown, as in docs/board.md), or write a
    blank board file to fill in (--template). Likely typing slips of the file are noted on stderr."""
    import warnings
    from pathlib import Path

    from .games.industry.board import BoardWarning, board_template
    from .games.industry.boarddoc import board_markdown, board_text

    if args.game != "industry":  # another game's components: its tables (the board file options are Industry's)
        if args.template is not None or args.board is not None:
            print(f"error: --template and --board are Industry's board file; {args.game} shows its components "
                  f"(write its templates with industry_env.games.{args.game}.tools.write_template)", file=sys.stderr)
            return 2
        sys.stdout.write(_game(args).components_text())
        return 0
    if args.template is not None:
        target = Path(args.template)
        if not args.template.strip() or target.is_dir():
            print(f"error: --template {args.template!r}: give the name of a new file", file=sys.stderr)
            return 2
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


def cmd_train(args: argparse.Namespace) -> int:
    """``train``: the SB3 trainer (industry_env.train.ppo) or the RLlib one (industry_env.rllib.train)."""
    if args.framework == "sb3":
        given = [flag for flag, v in (("--num-env-runners", args.num_env_runners), ("--address", args.address))
                 if v is not None]  # fmt: skip
        if given:
            raise ValueError(f"{' and '.join(given)}: options of --framework rllib (the SB3 trainer runs on one "
                             f"machine)")  # fmt: skip
        return importlib.import_module("industry_env.train.ppo").run(args)
    try:
        trainer = importlib.import_module("industry_env.rllib.train")
    except ImportError as exc:
        raise ValueError(f"--framework rllib needs the rllib extra: pip install 'industry_env[rllib]' ({exc})"
                         ) from None  # fmt: skip
    return trainer.run(args)


def _make_agent(name: str, seed: int | None = None, **params: Any) -> Any:
    """``industry_env.agents.make_agent``, imported when a tool first builds an agent."""
    from .agents import make_agent

    return make_agent(name, seed=seed, **params)


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
    add_game_arguments(p)
    p.add_argument("--players", type=int, default=None,
                   help="number of players (default: the game's most and fewest, alternately)")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--games", type=int, default=20, help="random games to play (default 20)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("play", help="play a game in the terminal against agents (any agent: heuristic, mcts, ppo, "
                                    "module:attr ...)")  # fmt: skip
    configure_play(p)

    p = sub.add_parser("replay", help="replay a game record move by move; write its pictures as a GIF or PNGs")
    p.add_argument("file", metavar="FILE", help="a game record (JSON, as written by 'play' or industry_env.records)")
    p.add_argument("--board", metavar="PATH", default=None,
                   help="Industry: the board file the record was played on (default: the shipped board)")
    p.add_argument("--gif", metavar="OUT.gif", default=None, help="write an animated GIF of the game")
    p.add_argument("--png-dir", metavar="DIR", default=None, help="write one PNG a frame into DIR (made if missing)")
    p.add_argument("--frames", choices=("move", "decision"), default="move",
                   help="a picture whenever the board changes (move: each auction won, each development; default) "
                        "or after every decision (each bid and pass too)")  # fmt: skip
    p.add_argument("--frame-ms", type=int, default=600, help="display time of a GIF frame in ms (default 600)")
    p.add_argument("--gif-scale", type=float, default=1.0,
                   help="size of the GIF frames relative to the 1280 x 800 pictures (default 1)")  # fmt: skip
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("rules", help="print the rules summary and the rulings on ambiguous rules")
    _game_option(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("board", help="check a board file and print it as a table, or write a blank one "
                                     "(--game: another game's components)")  # fmt: skip
    _board_option(p)
    _game_option(p)
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--markdown", action="store_true",
                       help="print the board as markdown (for the shipped board: docs/board.md)")  # fmt: skip
    shown.add_argument("--template", metavar="PATH", default=None,
                       help="write a blank, commented board file to fill in from the printed board")  # fmt: skip
    p.set_defaults(func=cmd_board)

    p = sub.add_parser("balance", help="measure the board's balance over many games")
    _delegate("games.industry.balance")(p)
    p.set_defaults(make_agent=_make_agent)  # the game's tool plays agents it does not import

    p = sub.add_parser("arena", help="a tournament between agents: win rates with intervals, ratings, seat effects")
    _delegate("arena")(p)

    p = sub.add_parser("train", help="train a PPO policy by self-play against a league (SB3: the train extra; "
                                     "Ray RLlib: the rllib extra)")  # fmt: skip
    _delegate("train.ppo")(p)
    p.add_argument("--framework", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: MaskablePPO on one machine (default); rllib: Ray RLlib, on many processes or machines")
    p.add_argument("--num-env-runners", type=int, default=None, metavar="N",
                   help="rllib: processes playing games (default 1; 0 plays them in the driver)")  # fmt: skip
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="rllib: join this Ray cluster ('auto' or HOST:6379) instead of starting Ray locally")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("warmup", help="compile every game's batched engine into numba's disk cache, once (before "
                                      "starting many processes)")  # fmt: skip
    _delegate("warmup")(p)

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
