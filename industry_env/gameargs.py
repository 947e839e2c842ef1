"""The command line's choice of game and options, shared by every tool that plays games (demo, play, arena,
bench, verify): ``--game ID``, ``--option NAME=VALUE`` (repeatable) and Industry's older ``--board`` and
``--plain-draws``, checked by the game's spec before anything runs."""

from __future__ import annotations

import argparse
from typing import Any

from .core.spec import GameSpec
from .registry import DEFAULT_GAME, available_games, load_game


def add_game_arguments(parser: argparse.ArgumentParser, hidden: bool = True) -> None:
    """``--game``, ``--option``, ``--board`` and ``--plain-draws`` on ``parser`` (``hidden``: games still being
    built are offered too)."""
    parser.add_argument("--game", default=DEFAULT_GAME, choices=available_games(include_hidden=hidden),
                        help=f"the game (default {DEFAULT_GAME})")  # fmt: skip
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the game, repeatable: e.g. -o map=new_england (Age of Industry), "
                             "-o balanced_draws=false (Industry)")  # fmt: skip
    parser.add_argument("--board", metavar="PATH", default=None,
                        help="Industry: a board file (default: the shipped board)")  # fmt: skip
    parser.add_argument(
        "--plain-draws",
        action="store_true",
        help="Industry: one token per player in every era (default: the recommended draws)",
    )


def option_value(text: str) -> Any:
    """An option's value from the command line: true/false, a whole number, or the text itself."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text)
    except ValueError:
        return text


def game_options(args: argparse.Namespace) -> tuple[GameSpec, dict[str, Any]]:
    """The spec of ``--game`` and its checked options; ValueError naming the option that is wrong."""
    spec = load_game(getattr(args, "game", DEFAULT_GAME))
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option {item!r}: expected NAME=VALUE (options of {spec.name}: "
                             f"{', '.join(o.name for o in spec.options) or 'none'})")  # fmt: skip
        options[name.strip()] = option_value(value.strip())
    known = {o.name for o in spec.options}
    for flag, name, value in (("--plain-draws", "balanced_draws", False if getattr(args, "plain_draws", False)
                                else None), ("--board", "board", getattr(args, "board", None))):  # fmt: skip
        if value is None:
            continue
        if name not in known:
            raise ValueError(f"{flag}: an option of Industry, not of {spec.name}")
        options[name] = value
    return spec, spec.check_options(options, where="--option ")


def given_options(args: argparse.Namespace) -> tuple[GameSpec, dict[str, Any]]:
    """The spec of ``--game`` and only the options the command line named (checked), without the defaults the
    game fills in: for the tools that otherwise play every variant of the game (verify, bench)."""
    spec, options = game_options(args)
    named = {item.partition("=")[0].strip() for item in getattr(args, "option", None) or []}
    named |= {"balanced_draws"} if getattr(args, "plain_draws", False) else set()
    named |= {"board"} if getattr(args, "board", None) is not None else set()
    return spec, {k: v for k, v in options.items() if k in named}
