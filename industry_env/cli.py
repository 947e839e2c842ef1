"""The ``industry-env`` command, for every game of the suite (``--game ID``, default Industry): play in the
terminal, replay records, show the rules and components, and run the tools.

Subcommands: ``demo`` (the short demonstration the README starts with), ``play``, ``replay``, ``rules``,
``board``, ``balance`` (Industry's board), ``arena``, ``ladder``, ``train``, ``warmup``, ``bench``, ``verify`` and
``serve`` (play and watch in a browser: :mod:`industry_env.web`). The games' own tools come from their specs
(``GameSpec.tools``): ``board`` runs the ``--game``'s board tool where it has one, and a subcommand only some games
have (``balance``) refuses another game by name. Every subcommand takes ``--game`` the same way, and no parser
accepts an abbreviated option (``--game`` is never read as ``--games``). This module imports no game: it reaches
each through the registry."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path
from typing import Any

from .core.spec import import_path
from .gameargs import add_game_arguments
from .play import (
    cmd_play,  # noqa: F401  (industry_env.cli.cmd_play, as before play had its module)
    table_class,
)
from .play import configure as configure_play
from .registry import DEFAULT_GAME, load_game


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
    compile_seconds = 0.0
    if spec.engine_module is not None:  # the batched engine compiles before the first game, said once if it does
        from .warmup import prepare

        compile_seconds = prepare(spec.id, (), options, engine=True, who="the demo")
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
    print(table_class(spec)(spec, shown, 0).final())  # the points by source, as the game's table ends a game
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
    dt = time.perf_counter() - t0 + compile_seconds
    how = "compiled" if compile_seconds or len(numba_cache.COMPILED) > before else "loaded from numba's disk cache"
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
    if args.game is not None and args.game != record.game:
        raise ValueError(f"--game {args.game}: {args.file} is a game of {spec.name} ({record.game}), not of "
                         f"{_game(args).name}")  # fmt: skip
    if args.board is not None and "board" not in {o.name for o in spec.options}:
        raise ValueError(f"--board: {args.file} is a game of {spec.name}, which has no board option")
    data = {"board": args.board} if args.board is not None else {}
    replay(record, **data)  # refuses a record that does not replay before anything is printed or written
    drawing = bool(gif or png_dir)
    if drawing:
        from .core.gif import pillow

        try:
            pillow()  # the render extra is needed before anything is written
        except ImportError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    game = opening(record, **data)
    print(f"{args.file}: {record.describe()}")
    # each game draws its own pictures into its own writer (its players' colours kept in the GIF's palette)
    writer = spec.gif_writer(gif, frame_ms=args.frame_ms, scale=args.gif_scale) if drawing and gif else None
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
    """Print the game's rules as implemented and the rulings (Industry: the same text as docs/industry/rules.md)."""
    print(_game(args).rules_text())
    return 0


def _game(args: argparse.Namespace) -> Any:
    """The spec of ``--game`` (hidden games too: their rules and components are readable while they are built)."""
    from .registry import load_game

    return load_game(args.game)


def _game_option(p: argparse.ArgumentParser, default: str | None = DEFAULT_GAME, help_text: str | None = None) -> None:
    """``--game ID`` on ``p``, as every subcommand takes it (the games still being built are offered too)."""
    from .registry import available_games

    p.add_argument("--game", default=default, choices=available_games(include_hidden=True),
                   help=help_text or f"the game (default {default})")  # fmt: skip


def cmd_board(args: argparse.Namespace) -> int:
    """``board``: the game's own board tool (every listed game has one: its components or board as tables, an
    owner's data file checked and printed, a template to type the printed components into), else its components as
    tables."""
    spec = _game(args)
    if "board" in spec.tools:
        return import_path(spec.tools["board"]).run(args)
    given = [flag for flag, value in (("--board", args.board), ("--map", args.map), ("--template", args.template),
                                      ("--part", args.part)) if value is not None]  # fmt: skip
    if given:
        print(f"error: {' and '.join(given)}: {spec.name} has no data files to check or type in yet",
              file=sys.stderr)  # fmt: skip
        return 2
    sys.stdout.write(spec.components_text())
    return 0


def _game_tool(name: str) -> Any:
    """The body of a subcommand that is some games' own tool (``GameSpec.tools``): the ``--game``'s tool runs, a
    game without it is refused by name."""

    def run(args: argparse.Namespace) -> int:
        spec = _game(args)
        if name not in spec.tools:
            owners = [load_game(g).name for g in _tool_games(name)]
            raise ValueError(f"--game {args.game}: {name} is a tool of {', '.join(owners)}; {spec.name} has no "
                             f"{name} tool")  # fmt: skip
        return import_path(spec.tools[name]).run(args)

    return run


class _SharedOptions:
    """The parser of a subcommand that several games' tools configure: an option an earlier game defined is kept
    as that game defined it, so that each game's ``configure`` names every option its ``run`` reads."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser, self.names = parser, set()

    def add_argument(self, *names: str, **kwargs: Any) -> argparse.Action | None:
        if self.names.intersection(names):
            return None
        self.names.update(names)
        return self.parser.add_argument(*names, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.parser, attr)


def _tool_games(name: str) -> list[str]:
    """The games (listed ones first, then those still being built) that have the command-line tool ``name``."""
    from .registry import available_games

    listed = available_games()
    games = listed + [g for g in available_games(include_hidden=True) if g not in listed]
    return [g for g in games if name in load_game(g).tools]


def cmd_train(args: argparse.Namespace) -> int:
    """``train``: the native trainer (industry_env.train.native, the default), the SB3 one (industry_env.train.ppo)
    or the RLlib one (industry_env.rllib.train); ``--bench`` the first two side by side.

    ``--game ID`` is ``--set game=ID`` (the config's other keys keep their values); with a ``--set game=`` of
    another game it is refused, naming both."""
    if args.game is not None:
        named = [item.partition("=")[2].strip() for item in args.set if item.partition("=")[0].strip() == "game"]
        if any(g != args.game for g in named):
            raise ValueError(f"--game {args.game} and --set game={named[-1]}: two games; give one")
        args.set = [f"game={args.game}", *args.set]
    if args.framework in ("native", "sb3", "az"):
        given = [flag for flag, v in (("--num-env-runners", args.num_env_runners), ("--address", args.address))
                 if v is not None]  # fmt: skip
        if given:
            raise ValueError(f"{' and '.join(given)}: options of --framework rllib (the {args.framework} trainer "
                             f"runs on one machine)")  # fmt: skip
        return importlib.import_module("industry_env.train.command").run(args)
    if args.bench:
        raise ValueError("--bench runs the native and the SB3 trainers side by side: leave out --framework rllib")
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


def _sub(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    """A subcommand's parser: no abbreviated options (``--game`` must never be read as ``--games``)."""
    return sub.add_parser(name, help=help_text, description=help_text[:1].upper() + help_text[1:] + ".",
                          allow_abbrev=False)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The ``industry-env`` parser and its subcommands, none accepting abbreviated options."""
    from . import __version__
    from .registry import available_games

    games = ", ".join(load_game(g).name for g in available_games())
    parser = argparse.ArgumentParser(
        prog="industry-env", allow_abbrev=False,
        description=f"Board games as RL environments ({games}): play them in the terminal, replay records, run "
                    f"tournaments, train policies and check the engines. Every subcommand takes --game ID "
                    f"(default {DEFAULT_GAME}); 'industry-env SUBCOMMAND --help' tells more.")  # fmt: skip
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = _sub(sub, "demo", "play random games of a game and show one (the short demonstration)")
    add_game_arguments(p)
    p.add_argument("--players", type=int, default=None,
                   help="number of players (default: the game's most and fewest, alternately)")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--games", type=int, default=20, help="random games to play (default 20)")
    p.set_defaults(func=cmd_demo)

    p = _sub(sub, "play", "play a game in the terminal against agents (heuristic, a game's own, ppo, module:attr ...)")
    configure_play(p)

    p = _sub(sub, "replay", "replay a game record of any game move by move; write its pictures as a GIF or PNGs")
    p.add_argument("file", metavar="FILE", help="a game record (JSON, as written by 'play' or industry_env.records)")
    _game_option(p, default=None, help_text="check that the record is a game of this one (the record names its "
                                            "game; default: whichever it names)")  # fmt: skip
    p.add_argument(
        "--board",
        metavar="PATH",
        default=None,
        help="Industry: the board file the record was played on (default: the shipped board)",
    )
    p.add_argument("--gif", metavar="OUT.gif", default=None, help="write an animated GIF of the game")
    p.add_argument("--png-dir", metavar="DIR", default=None, help="write one PNG a frame into DIR (made if missing)")
    p.add_argument("--frames", choices=("move", "decision"), default="move",
                   help="a picture whenever the board changes (default), or after every decision")  # fmt: skip
    p.add_argument("--frame-ms", type=int, default=600, help="display time of a GIF frame in ms (default 600)")
    p.add_argument("--gif-scale", type=float, default=1.0,
                   help="size of the GIF frames relative to the game's pictures (default 1)")  # fmt: skip
    p.set_defaults(func=cmd_replay)

    p = _sub(sub, "rules", "print a game's rules as implemented and the rulings on ambiguous rules")
    _game_option(p)
    p.set_defaults(func=cmd_rules)

    p = _sub(sub, "board", "print a game's board or components as tables, check a board file, or write a blank "
                           "one to fill in")  # fmt: skip
    _game_option(p)
    p.add_argument("--board", metavar="PATH", default=None,
                   help="a data file of yours to check and print (Industry: a board file; 20th Century: a tiles "
                        "file, or with --part components a components file; default: the shipped data)")  # fmt: skip
    p.add_argument("--part", metavar="NAME", default=None,
                   help="20th Century: which data file --board and --template mean, tiles (default) or "
                        "components")  # fmt: skip
    p.add_argument(
        "--map",
        metavar="NAME",
        default=None,
        help="Age of Industry: one map's tables, or with --template a blank file of that map",
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument(
        "--markdown",
        action="store_true",
        help="Industry: print the board as markdown (for the shipped board: docs/industry/board.md)",
    )
    shown.add_argument("--template", metavar="PATH", default=None,
                       help="write a blank, commented data file to fill in from the printed one (Industry: a "
                            "board; Age of Industry: the components, or --map's map; 20th Century: the tiles, or "
                            "with --part components the tracks and catastrophes)")  # fmt: skip
    p.set_defaults(func=cmd_board)

    # the games' own tools that the command line does not define itself (Industry's balance), from their specs
    for name in sorted({t for g in available_games(include_hidden=True) for t in load_game(g).tools} - {"board"}):
        owners = _tool_games(name)
        tools = [import_path(load_game(g).tools[name]) for g in owners]
        p = _sub(sub, name, tools[0].HELP)
        shared = _SharedOptions(p)
        for tool in tools:  # each game's options; one that an earlier game defines keeps that game's help
            tool.configure(shared)
        _game_option(p, default=owners[0], help_text=f"the game (one with this tool: {', '.join(owners)}; another "
                                                     f"is refused by name)")  # fmt: skip
        p.set_defaults(func=_game_tool(name), make_agent=_make_agent)  # a game's tool plays agents it does not import

    p = _sub(sub, "arena", "a tournament between agents of a game: win rates with intervals, ratings, seat effects")
    _delegate("arena")(p)

    p = _sub(sub, "ladder", "every agent of a game against every other: a table of win rates with intervals and "
                            "ratings, as markdown and JSON")  # fmt: skip
    _delegate("ladder")(p)

    p = _sub(sub, "train", "train a PPO policy for a game by self-play against a league (the native trainer or SB3: "
                           "the train extra; Ray RLlib: the rllib extra)")  # fmt: skip
    _delegate("train.command")(p)
    _game_option(p, default=None, help_text="the game to train (the same as --set game=ID; default: the config's)")
    p.add_argument(
        "--framework",
        choices=("native", "sb3", "rllib", "az"),
        default="native",
        help="native: the suite's own batched trainer, CUDA where present (default); sb3: sb3-contrib's MaskablePPO "
             "on one machine; rllib: Ray RLlib, on many processes or machines; az: search self-play, the az agent's "
             "network trained on its own searches",
    )  # fmt: skip
    p.add_argument("--bench", action="store_true",
                   help="train the config with the native and the SB3 trainer for --seconds each, in this process, "
                        "and print each one's learner decisions a second, their ratio and where the time went")
    p.add_argument("--seconds", type=float, default=120.0, metavar="S",
                   help="--bench: seconds of training for each trainer (default 120)")  # fmt: skip
    p.add_argument("--num-env-runners", type=int, default=None, metavar="N",
                   help="rllib: processes playing games (default 1; 0 plays them in the driver)")  # fmt: skip
    p.add_argument(
        "--address",
        default=None,
        metavar="ADDR",
        help="rllib: join this Ray cluster ('auto' or HOST:6379) instead of starting Ray locally",
    )
    p.set_defaults(func=cmd_train)

    p = _sub(sub, "warmup", "compile the games' batched engines into numba's disk cache, once (before starting "
                            "many processes)")  # fmt: skip
    _delegate("warmup")(p)

    for name, help_text in (
        ("bench", "benchmark a game's batched engine against its reference engine"),
        ("verify", "long differential check of a game's batched engine against its reference"),
    ):
        p = _sub(sub, name, help_text)
        try:
            _delegate(name)(p)
        except ImportError as exc:  # only while a module is missing from a partial install
            p.set_defaults(func=lambda _args, exc=exc: print(f"unavailable: {exc}") or 1)
    p = _sub(sub, "serve", "play the games and watch their records in a browser (the web extra: Starlette, uvicorn)")
    _delegate("web")(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``industry-env`` console command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ValueError as exc:  # a wrong option or a malformed data file (a game's BoardError is a ValueError)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a pager or head that stopped reading
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
