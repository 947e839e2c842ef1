"""``industry-env verify --workers N`` starts the batched engine in one worker before any chunk runs, so that a cold
numba cache is compiled once, not once per worker at the same time."""

from __future__ import annotations

import argparse
from typing import Any

from industry_env import verify


class RecordingPool:
    """A stand-in for multiprocessing.Pool that runs nothing and records, in order, what the parent asks of it."""

    calls: list[tuple[str, Any]] = []

    def __init__(self, processes: int, initializer: Any = None) -> None:
        self.calls.clear()

    def apply(self, fn: Any, args: tuple) -> None:
        self.calls.append((fn.__name__, args[0]))

    def imap(self, fn: Any, jobs: list) -> Any:
        for job in jobs:
            self.calls.append((fn.__name__, job))
            yield verify.Report(games=job[1], steps=1)

    def close(self) -> None: ...

    def join(self) -> None: ...

    def terminate(self) -> None: ...


def test_verify_starts_the_engine_once_before_the_first_chunk(monkeypatch, capsys) -> None:
    monkeypatch.setattr(verify.multiprocessing, "Pool", RecordingPool)
    parser = argparse.ArgumentParser()
    verify.configure(parser)
    args = parser.parse_args(["--game", "twentieth_century", "--games", "4", "--chunk", "2", "--workers", "2"])
    assert verify.run(args) == 0
    names = [name for name, _ in RecordingPool.calls]
    assert names == ["_warm", "_chunk", "_chunk"]
    assert RecordingPool.calls[0][1] == ("twentieth_century", None, {})
