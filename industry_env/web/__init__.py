"""``industry-env serve``: play the suite's games, against agents or with other people at one table (each seat
reached by its own link), and watch their records in a browser (the ``web`` extra: Starlette and uvicorn).

:func:`create_app` makes the application (:mod:`.app`); :func:`configure` and :func:`run` are the subcommand's
options and body. The server binds the loopback address unless told otherwise, answers only to its own names and
its own page (:mod:`.guard`), offers only the agents it was started with, and shows a seat nothing it may not see
(docs/serve.md).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8765


def create_app(records: str | Path | None = None, agents: Any = None, max_games: int = 32,
               game: str | None = None, host: str = "127.0.0.1", allow_hosts: Sequence[str] = (),
               **limits: Any) -> Any:  # fmt: skip
    """The Starlette application (see :mod:`.app`; ``game``: the one the page offers first; ``host``: the address
    it listens on, and ``allow_hosts``: other names it answers to besides the loopback ones; ``limits``:
    ``keep_s``, ``body_timeout``); ImportError naming the extra if Starlette is missing. ``records`` None: the
    user's records folder (``records.default_folder()``)."""
    try:
        from .app import DEFAULT_AGENTS
        from .app import create_app as make
    except ImportError as exc:
        raise ImportError(f"industry-env serve needs the web extra: pip install 'industry_env[web]' ({exc})") from None
    from .sessions import records_folder

    return make(records_folder(records), DEFAULT_AGENTS if agents is None else agents, max_games, game, host=host,
                allow_hosts=allow_hosts, **limits)  # fmt: skip


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of ``industry-env serve``."""
    from ..registry import available_games

    parser.add_argument("--game", default=None, choices=available_games(),
                        help="the game the page offers first (default: the first listed); every listed game can be "
                             "played")  # fmt: skip
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; another is warned of)",
    )
    parser.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                        help="a name the server answers to besides localhost, 127.0.0.1, [::1] and --host "
                             "(repeatable; e.g. this machine's name on the network): a request for any other name "
                             "is refused, so that no other site's page can reach it (DNS rebinding)")  # fmt: skip
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--records",
        metavar="DIR",
        default=None,
        help="the folder of game records: games played are saved there (readable by you only), records there can "
        "be watched and unfinished games resumed (default: industry_env/records in your data folder, e.g. "
        "~/.local/share/industry_env/records, made when needed)",
    )
    parser.add_argument("--agents", metavar="NAMES", default=",".join(("random", "heuristic")),
                        help="comma-separated agents a player may choose for the other seats: any agent 'industry-env "
                             "play --opponents' takes, 'module:attr' too (loaded here, never from a request); "
                             "default random,heuristic")  # fmt: skip
    parser.add_argument(
        "--max-games",
        type=int,
        default=32,
        help="live games kept at once (default 32): a new one takes the place of a game idle for 10 minutes (saved, "
        "and resumed when played again), or is refused while every game is in use",
    )
    parser.set_defaults(func=run)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace) -> int:
    """Start the server, print its address, serve until Ctrl-C; every unfinished game is saved on the way out."""
    if not 1 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: a port is from 1 to 65535")
    if args.max_games < 1:
        raise ValueError(f"--max-games {args.max_games}: at least 1")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not agents:
        raise ValueError("--agents: name at least one agent (e.g. random)")
    try:
        import uvicorn
    except ImportError:
        print("error: industry-env serve needs the web extra: pip install 'industry_env[web]'", file=sys.stderr)
        return 2
    from .guard import uvicorn_options

    app = create_app(args.records, agents, args.max_games, args.game, host=args.host, allow_hosts=args.allow_host)
    if not _loopback(args.host):
        print(f"warning: --host {args.host}: anyone who can reach this address can play and read the records "
              f"folder; the server has no passwords", file=sys.stderr)  # fmt: skip
    folder = app.state.server.store.records
    open_to_others = _open_to_others(folder)
    if open_to_others:
        print(f"warning: the records folder {folder} can be read by other users of this machine "
              f"({open_to_others}): the records are written readable by you only, but the folder lists them "
              f"(chmod 700 {folder})", file=sys.stderr)  # fmt: skip
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"industry-env serve: http://{shown}:{args.port}/  (records: {folder}; Ctrl-C stops it)", flush=True)
    uvicorn.run(app, **uvicorn_options(args.host, args.port))
    return 0


def _open_to_others(folder: Path) -> str | None:
    """How an existing folder is open to others (``mode 0755``), None if it is not (or does not exist yet)."""
    try:
        mode = stat.S_IMODE(os.stat(folder).st_mode)
    except OSError:
        return None
    return f"mode {mode:04o}" if os.name == "posix" and mode & 0o077 else None


__all__ = ["DEFAULT_PORT", "configure", "create_app", "run"]
