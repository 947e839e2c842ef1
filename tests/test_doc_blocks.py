"""Every Python block of the README and the docs runs in the tests, as written (pytest-markdown-docs collects them
when pytest is given ``--markdown-docs README.md docs``, as ``make test`` and ``make slow`` do; ``conftest.py`` runs
each in an empty folder and marks ```` ```python slow ```` blocks slow). These tests check that the blocks are
collected so: a block skipped, or a command that forgot the docs, would otherwise pass unseen."""

from __future__ import annotations

import re
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


def test_the_plugin_finds_every_block_and_conftest_marks_the_slow_ones() -> None:
    """What pytest-markdown-docs collects (its own parser over each page), and which of those conftest.py marks
    slow, are exactly the blocks of the pages and the fences that say ``slow`` (in process: a collection run in a
    subprocess costs seconds of the suite's four minutes)."""
    import importlib.util

    plugin = pytest.importorskip("pytest_markdown_docs.plugin")
    from markdown_it import MarkdownIt

    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    found, slow = [], set()
    for page in PAGES:
        for fence in plugin.extract_fence_tests(MarkdownIt("commonmark"), page.read_text(encoding="utf-8"), 0, page):
            where = (str(page.relative_to(ROOT)), fence.start_line)  # the fence's line, counted from 1
            found.append(where)
            if "slow" in conftest.fence_words(page, fence.start_line):
                slow.add(where)
    blocks = _python_blocks()
    assert found == [(page, line) for page, line, _ in blocks]
    assert slow == {(page, line) for page, line, words in blocks if "slow" in words} and slow


@getattr(pytest.mark, "markdown-docs")  # the plugin's mark of a docs block: conftest.py moves it to an empty folder
def test_a_docs_block_runs_in_an_empty_folder_of_its_own() -> None:
    """A block that saves a file (records.md's game.json, the pictures) must not write into the checkout."""
    here = Path.cwd()
    assert here != ROOT and ROOT not in here.parents and list(here.iterdir()) == []
