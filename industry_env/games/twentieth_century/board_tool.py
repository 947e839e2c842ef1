"""``industry-env board --game twentieth_century`` (its spec's ``tools["board"]``), as for every game: the
components as tables (the shipped ones, or an owner's data file checked with ``--board FILE``), or a data file to
type the printed components into (``--template FILE``). 20th Century has two data files: the tiles (the default,
``--part tiles``) and the tracks and catastrophe cards (``--part components``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...core.outputs import template_problem
from . import tools
from .components import load_data

PARTS = ("tiles", "components")


def run(args: argparse.Namespace) -> int:
    """Print the tables (of ``--board FILE``, checked) or write ``--template``; the exit status."""
    part = getattr(args, "part", None) or "tiles"
    if getattr(args, "map", None) is not None:
        print(f"error: --map: 20th Century has no maps; its data files are {' and '.join(PARTS)} (--part)",
              file=sys.stderr)  # fmt: skip
        return 2
    if part not in PARTS:
        print(f"error: --part {part!r}: 20th Century's data files are {', '.join(PARTS)}", file=sys.stderr)
        return 2
    again = "" if part == "tiles" else " --part components"
    if args.template is not None:
        if args.board is not None:
            print("error: --board and --template: check a file, or write a new one, not both", file=sys.stderr)
            return 2
        target = Path(args.template)
        problem = template_problem(args.template, target)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        tools.write_template(target, part)
        play = f" and play on it with: industry-env play --game twentieth_century -o data={target}" \
            if part == "tiles" else ""  # fmt: skip
        print(f"wrote {target}: 20th Century's {part} file, every reconstructed entry marked 'printed'; correct it "
              f"from your copy of the game, check it with: industry-env board --game twentieth_century --board "
              f"{target}{again}{play}")  # fmt: skip
        return 0
    if args.board is None:
        sys.stdout.write(tools.components_markdown())
        return 0
    # every problem of the file is listed at once (ComponentsError, a ValueError: the command says 'error: ...')
    try:
        data = load_data(tiles=args.board) if part == "tiles" else load_data(components=args.board)
    except ValueError as exc:
        other = "components" if part == "tiles" else "tiles"
        if f"unknown key '{'catastrophe' if part == 'tiles' else 'land'}'" in str(exc):
            raise ValueError(f"{exc}\n{args.board} looks like a {other} file: add --part {other}") from None
        raise
    sys.stdout.write(tools.components_markdown(data))
    print(f"checked {args.board}: no problem found ({len(data.land)} land tiles, {len(data.technologies)} "
          f"technologies, {len(data.catastrophes)} catastrophe cards)", file=sys.stderr)  # fmt: skip
    return 0
