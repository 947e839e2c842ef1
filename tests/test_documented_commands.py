"""Every ``industry-env ...`` command line the README, the docs and the shipped data files show parses with
today's parser (parsed only, never run): a documented command the CLI refuses is a bug of the docs or the CLI."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from industry_env.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
           *sorted((ROOT / "industry_env").rglob("*.toml")), *sorted((ROOT / "train").glob("*.toml"))]  # fmt: skip
# a command in inline code (`industry-env ...`), or a line of a code block / comment starting with it
INLINE = re.compile(r"`((?:\.venv/bin/)?industry-env [^`]+)`")
LINE = re.compile(r"^\s*(?:\$ |#\s*)?(?:[A-Z_]+=\S+ )*((?:\.venv/bin/)?industry-env .+)$")


def _commands() -> list[tuple[str, str]]:
    found = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for i, line in enumerate(lines):
            hits = INLINE.findall(line)
            if not hits and "`" not in line:
                m = LINE.match(line)
                hits = [m.group(1)] if m else []
            for cmd in hits:
                cmd = cmd.split("  #")[0].split(" # ")[0].strip()
                while cmd.endswith("\\") and i + 1 < len(lines):  # a command continued on the next line
                    i += 1
                    cmd = cmd[:-1] + " " + lines[i].strip().split("  #")[0]
                found.append((f"{path.relative_to(ROOT)}:{i + 1}", cmd))
    return found


def _parseable(cmd: str) -> bool:
    """Whether the text is a whole command, not a sketch of several (``demo|arena``, ``...``, ``FILE|NAME``)."""
    return "..." not in cmd and "|" not in cmd and "<" not in cmd and "[" not in cmd


def _is_mention(cmd: str) -> bool:
    """Prose naming a subcommand or one of its options (`industry-env arena`, `industry-env replay --gif`), not a
    command to run: its subcommand and options must exist, but it is not parsed whole."""
    words = shlex.split(cmd)
    return len(words) <= 2 or (words[-1].startswith("--") and len(words) == 3)


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


PLACEHOLDERS = {"N": "2"}  # a number the text leaves to the reader
COMMANDS = [(where, cmd) for where, cmd in _commands() if _parseable(cmd)]


def test_the_docs_show_commands_of_every_kind() -> None:
    """The extraction finds the commands (a broken pattern would make the test below pass on nothing)."""
    subcommands = {shlex.split(cmd)[1] for _, cmd in COMMANDS if len(shlex.split(cmd)) > 1}
    assert {"arena", "train", "verify", "bench", "board", "play", "replay", "balance"} <= subcommands
    assert sum(not _is_mention(cmd) for _, cmd in COMMANDS) > 40


@pytest.mark.parametrize(("where", "cmd"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_documented_command_parses(where: str, cmd: str) -> None:
    argv = [PLACEHOLDERS.get(w, w) for w in shlex.split(cmd)[1:]]
    if _is_mention(cmd) and argv and not argv[0].startswith("-"):
        sub = _subparsers()
        assert argv[0] in sub, f"{where}: `{cmd}`: no subcommand {argv[0]!r}"
        flags = {o for a in sub[argv[0]]._actions for o in a.option_strings}
        unknown = [w for w in argv[1:] if w.startswith("-") and w not in flags]
        assert not unknown, f"{where}: `{cmd}`: {argv[0]} has no option {unknown}"
        return
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:
        if exc.code != 0:  # 0: --version or --help, which print and stop
            pytest.fail(f"{where}: `{cmd}` is refused by the parser (exit {exc.code})")
