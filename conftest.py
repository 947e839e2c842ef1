"""The README's and the docs' Python blocks run as tests (pytest-markdown-docs, the dev extra): ``make test`` and
``make slow`` pass ``--markdown-docs README.md docs``. Each block runs as written, alone, in a fresh namespace and in
an empty temporary folder (a block that saves a file writes it there, never into the checkout). A block whose fence
reads ```` ```python slow ```` (training, a long arena) is marked slow: it runs in ``make slow``, not in CI.
``tests/test_doc_blocks.py`` checks that every block is collected this way."""

from __future__ import annotations

from pathlib import Path

import pytest

DOCS_MARKER = "markdown-docs"  # the plugin's marker of a docs block


def fence_words(path: Path, start_line: int) -> list[str]:
    """The words after the three backticks of the fence that opens the block whose code starts at ``start_line``
    (counted from 0, as the plugin counts): ``["python", "slow"]``."""
    line = path.read_text(encoding="utf-8").splitlines()[start_line - 1]
    return line.strip().lstrip("`~").split()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker(DOCS_MARKER) and item.path.suffix == ".md":
            if "slow" in fence_words(item.path, item.start_line):
                item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _docs_block_in_an_empty_folder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A docs block runs where a reader would run it: an empty folder of its own (the checkout stays clean)."""
    if request.node.get_closest_marker(DOCS_MARKER):
        monkeypatch.chdir(request.getfixturevalue("tmp_path"))


@pytest.hookimpl(optionalhook=True)
def pytest_markdown_docs_globals() -> dict[str, str]:
    """A block runs as a reader's script runs: as ``__main__`` (a block that starts worker processes guards them
    with ``if __name__ == "__main__":``, as a script must)."""
    return {"__name__": "__main__"}
