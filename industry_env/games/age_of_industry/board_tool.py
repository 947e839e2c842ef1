"""``industry-env board --game age_of_industry`` (its spec's ``tools["board"]``): the components and maps as
tables, or a blank template of the components file (``--template``) or of one map (``--map NAME --template``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...core.outputs import template_problem
from . import tools
from .components import MAPS, load_components, load_map


def run(args: argparse.Namespace) -> int:
    """Print the tables or write a template; the exit status."""
    if getattr(args, "board", None) is not None:
        print("error: --board is Industry's board file; Age of Industry takes --map NAME", file=sys.stderr)
        return 2
    if getattr(args, "part", None) is not None:
        print("error: --part: Age of Industry's data files are its components (the default) and its maps (--map "
              "NAME)", file=sys.stderr)  # fmt: skip
        return 2
    if args.map is not None and args.map not in MAPS:
        print(f"error: --map {args.map!r}: Age of Industry's maps are {', '.join(MAPS)}", file=sys.stderr)
        return 2
    if args.template is None:
        if args.map is None:
            sys.stdout.write(tools.components_markdown())
        else:
            print("\n".join(tools.map_markdown(load_map(args.map), load_components())))
        return 0
    target = Path(args.template)
    problem = template_problem(args.template, target)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    what = args.map or "components"
    tools.write_template(target, what)
    print(f"wrote {target}: a blank {what} file of Age of Industry to fill in from the printed "
          f"{'map' if args.map else 'components'}")  # fmt: skip
    return 0
