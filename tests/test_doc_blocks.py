"""Every Python block of the README and the docs runs in the tests, as written (pytest-markdown-docs collects them
when pytest is given ``--markdown-docs README.md docs``, as ``make test`` and ``make slow`` do; ``conftest.py`` runs
each in an empty folder and marks ```` ```python slow ```` blocks slow). These tests check that the blocks are
collected so: a block skipped, or a command that forgot the docs, would otherwise pass unseen."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w+)([^\n`]*)$", re.MULTILINE)


def _python_blocks() -> list[tuple[str, int, list[str]]]:
    """(page, line of the fence, the fence's words after the language) of every Python block."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) in ("python", "py", "python3"):
                found.append((str(page.relative_to(ROOT)), text.count("\n", 0, m.start()) + 1, m.group(2).split()))
    return found


def test_no_block_is_left_out_and_only_slow_is_said_of_a_block() -> None:
    """A ``notest`` block would not run, and a ``continuation`` block would not work when copied alone: every block
    is a whole program; the only word a fence may add is ``slow``."""
    blocks = _python_blocks()
    assert len(blocks) >= 25
    assert [b for b in blocks if set(b[2]) - {"slow"}] == []


def test_make_test_and_make_slow_run_the_docs_blocks() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in ("test", "slow"):
        recipe = makefile.split(f"\n{target}: install-dev")[1].split("\n\n")[0].replace("\\\n", " ")
        assert "--markdown-docs README.md docs" in recipe, target


def test_the_plugin_collects_every_block_and_marks_the_slow_ones() -> None:
    pytest.importorskip("pytest_markdown_docs")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
                          "--collect-only", "--markdown-docs", "README.md", "docs", "-m", "slow"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    slow = [line for line in run.stdout.splitlines() if "[CodeFence#" in line]
    counts = re.search(r"(\d+)/(\d+) tests collected", run.stdout)
    blocks = _python_blocks()
    assert counts and int(counts.group(2)) == len(blocks), run.stdout[-500:]
    wanted_slow = {(page, line) for page, line, words in blocks if "slow" in words}
    got_slow = {(line.split("::")[0], int(re.search(r"\[line:(\d+)\]", line).group(1))) for line in slow}
    assert got_slow == wanted_slow and wanted_slow  # line: the block's first line, one below its fence


@getattr(pytest.mark, "markdown-docs")  # the plugin's mark of a docs block: conftest.py moves it to an empty folder
def test_a_docs_block_runs_in_an_empty_folder_of_its_own() -> None:
    """A block that saves a file (records.md's game.json, the pictures) must not write into the checkout."""
    here = Path.cwd()
    assert here != ROOT and ROOT not in here.parents and list(here.iterdir()) == []
