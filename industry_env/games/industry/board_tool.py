"""``industry-env board`` for Industry (its spec's ``tools["board"]``): check a board file and print it as a table
(markdown with ``--markdown``, as in docs/industry/board.md), or write a blank board file to fill in (``--template``).
Likely typing slips of a board file are noted on stderr."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from ...core.outputs import template_problem, write_text_atomic
from .components import BoardWarning, board_template, load_board
from .texts import board_markdown, board_text


def run(args: argparse.Namespace) -> int:
    """Print the board (``--board PATH``: a board file, checked) or write ``--template``; the exit status."""
    if getattr(args, "map", None) is not None:
        print("error: --map: Industry has one board (give your own with --board PATH)", file=sys.stderr)
        return 2
    if getattr(args, "part", None) is not None:
        print("error: --part: Industry has one data file, its board (give your own with --board PATH)",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.template is not None:
        target = Path(args.template)
        problem = template_problem(args.template, target)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
        write_text_atomic(target, board_template())
        print(f"wrote {target}: fill in the printed board, then check it with: industry-env board --board {target}")
        return 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoardWarning)  # printed below, once each, without a Python location
        board = load_board(args.board)
    for note in () if board.is_shipped else board.warnings:  # the shipped board's long links are documented
        print(f"note: {note}", file=sys.stderr)
    if args.markdown:
        sys.stdout.write(board_markdown(board))  # for the shipped board, exactly docs/industry/board.md
    else:
        print(board_text(board))
    return 0
