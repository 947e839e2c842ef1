"""``industry-env verify --workers N`` starts the batched engine in one worker before any chunk runs, so that a cold
numba cache is compiled once, not once per worker at the same time."""

from __future__ import annotations

import argparse
import io
from typing import Any

import pytest

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


class _Prompts(io.StringIO):
    """A terminal that notes, in ``events``, each prompt ``play`` writes."""

    def __init__(self, events: list[str]) -> None:
        super().__init__()
        self.events = events

    def write(self, text: str) -> int:
        if text == "> ":
            self.events.append("prompt")
        return super().write(text)


def test_play_compiles_what_its_opponents_need_before_the_first_prompt(monkeypatch, capsys) -> None:
    """Age of Industry's first game froze for 46 s after the person's first move: the heuristic compiled the
    batched engine at its first decision. Every compile now comes first, said once, before the first prompt."""
    from industry_env.agents.industry.heuristic import HeuristicAgent

    from industry_env import warmup
    from industry_env.cli import build_parser
    from industry_env.core import numba_cache
    from industry_env.games.industry.reference import Game
    from industry_env.play import cmd_play

    events: list[str] = []
    act_game = HeuristicAgent.act_game

    def first_decision_compiles(self, game):  # a stand-in for a kernel compiled at the agent's first decision
        if "compile" not in events:
            events.append("compile")
            numba_cache.CompileNotice("the heuristic's kernel", 10).done()
        return act_game(self, game)

    monkeypatch.setattr(HeuristicAgent, "act_game", first_decision_compiles)
    monkeypatch.setattr(numba_cache, "COMPILED", [])
    monkeypatch.setattr(warmup, "_DONE", set())  # as in a new process: nothing made ready yet
    seed = 3
    seat = Game(4, seed=seed).current_player  # the person moves first: the prompt comes before any opponent's move
    args = build_parser().parse_args(["play", "--record", "none", "--seed", str(seed), "--seat", str(seat),
                                      "--opponents", "heuristic"])  # fmt: skip
    assert cmd_play(args, stdin=io.StringIO("0\nquit\n"), stdout=_Prompts(events)) == 0
    assert events[:2] == ["compile", "prompt"], events
    err = capsys.readouterr().err
    assert err.count("industry_env: compiling") == 1 and "what this game needs (the heuristic's kernel)" in err


def test_prepare_says_nothing_when_everything_is_in_the_cache(monkeypatch, capsys) -> None:
    """arena said "compiling Industry's kernels (first run only ...)" on every run, also when it only loaded them."""
    from industry_env import warmup
    from industry_env.arena import Arena

    monkeypatch.setattr(warmup, "_DONE", set())
    for game in ("industry", "age_of_industry"):
        warmup.warm_game(game)  # the test suite's machine compiled every game first (make test): this loads
        assert warmup.prepare(game, ["heuristic", "random"], engine=True) == 0.0
    Arena(["heuristic", "random", "random"], games=3, progress=True).run()
    assert "compil" not in capsys.readouterr().err


def test_serve_compiles_each_games_agents_when_it_starts_in_one_notice(monkeypatch, tmp_path, capsys) -> None:
    """serve's agents compiled at the first move a person asked of them, the page waiting on a compile."""
    pytest.importorskip("starlette")
    from industry_env.agents.industry.heuristic import HeuristicAgent

    from industry_env.core import numba_cache
    from industry_env.web.app import Server

    act_game = HeuristicAgent.act_game
    calls: list[int] = []

    def first_decision_compiles(self, game):  # a stand-in for a kernel compiled at the agent's first decision
        if not calls:
            numba_cache.CompileNotice("the heuristic's kernel", 10).done()
        calls.append(1)
        return act_game(self, game)

    monkeypatch.setattr(HeuristicAgent, "act_game", first_decision_compiles)
    Server(tmp_path, agents=("random", "heuristic"))
    err = capsys.readouterr().err
    assert calls and err.count("industry_env: compiling") == 1
    assert "compiling what serving Industry needs (the heuristic's kernel)" in err
