"""``industry-env warmup``: compile every game's batched engine (and its compiled agents) into numba's disk cache.

The first call of a compiled kernel compiles it (on the project's quiet 2-core machine Industry's in about 20 s,
Age of Industry's in about a minute; a busy machine takes several times longer) and caches it on disk; every later
process loads it in about a second. ``industry-env warmup`` prints, per game, each step it compiled and how long it
took; the first command that compiles suggests it. The games compile at the same time, one process each (``--jobs``,
default the cores): numba compiles a game on one core. Running it once before starting many processes at the same
time (training workers, test workers, a cluster's nodes sharing a cache folder) compiles each kernel once instead
of once per process. It plays a few random steps of each game at
batch 1 (the serial kernels) and at a batch large enough for the threaded ones, every verb an environment uses,
and one decision of each of the game's own agents that builds without an extra.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from .core import numba_cache
from .registry import available_games, load_game

BATCHES = (1, 1024)  # the serial and the threaded kernels (each game's threshold per layer: core.runtime)
_DONE: set = set()  # what prepare() has made ready in this process: a game's engine, (game, agent, engine) trials


def warm_game(game: str, agents: bool = True, report: Callable[[str, float, float, bool], None] | None = None) -> float:
    """Compile ``game``'s engine (and, with ``agents``, its own compiled agents); seconds it took. ``report`` is told
    each step as it ends: (what, seconds, seconds of CPU, whether a cold compile ran)."""
    t0 = time.perf_counter()
    spec = load_game(game)
    if spec.engine_module is None:
        return 0.0
    say = report or (lambda what, seconds, cpu, compiled: None)
    E = spec.engine
    rng = np.random.default_rng(0)
    n = spec.default_players
    for B in BATCHES:
        t, cpu, before = time.perf_counter(), time.process_time(), len(numba_cache.COMPILED)
        state = E.init(B, num_players=n, seed=0)
        next_mask = np.zeros((B, spec.num_actions()), bool)
        mask = np.asarray(E.legal_action_mask(state))
        for k in range(3):
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            state = E.step(state, actions, inplace=True, mask=mask if k % 2 else None, next_mask=next_mask)
            mask = next_mask.copy()
        for seat in range(n):
            E.observe(state, np.full(B, seat))
        E.scores(state)
        E.reset(state, np.ones(B, bool), inplace=True)
        kind = "serial kernels, batch 1" if B == 1 else f"threaded kernels, batch {B:,}"
        say(f"batched engine ({kind})", time.perf_counter() - t, time.process_time() - cpu,
            len(numba_cache.COMPILED) > before)  # fmt: skip
    if agents:
        from .agents import make_agent

        state = E.init(8, num_players=n, seed=1)
        obs, mask = np.asarray(E.observe(state)), np.asarray(E.legal_action_mask(state))
        for name in spec.agents:
            t, cpu, before = time.perf_counter(), time.process_time(), len(numba_cache.COMPILED)
            try:
                agent = make_agent(name, seed=0, game=spec.id)
            except (ImportError, ValueError):  # an agent that needs an extra or a file: nothing of ours to compile
                continue
            agent.act_batch(obs, mask)
            say(f"agent {name!r}, one decision", time.perf_counter() - t, time.process_time() - cpu,
                len(numba_cache.COMPILED) > before)  # fmt: skip
    return time.perf_counter() - t0


def engine_kernel(game: str) -> ModuleType | None:
    """The compiled kernel of ``game``'s batched engine (``games/<game>/kernel.py``, beside its engine), or None."""
    spec = load_game(game)
    if spec.engine_module is None:
        return None
    return importlib.import_module(spec.engine_module.rsplit(".", 1)[0] + ".kernel")


def compile_step(game: str, who: str) -> numba_cache.CompileStep:
    """The step that shows, as one notice, every compile of ``who``'s first moves in ``game``: when an agent's own
    kernel compiles first, the game's engine (which such kernels build on) is added to the estimate if it is due."""
    spec, kernel = load_game(game), engine_kernel(game)
    expected = []
    if kernel is not None:
        def due(k: ModuleType = kernel) -> bool:
            return not numba_cache.is_fresh(k.entries(), k.dispatchers(), k.sources(), k.CACHE_NAME)

        expected.append((f"{spec.name}'s batched engine", float(kernel.COLD_COMPILE_SECONDS), due))
    return numba_cache.CompileStep(f"what {who} needs", expected)


def prepare(game: str, agents: Sequence[str] = (), options: Mapping[str, Any] | None = None, engine: bool = False,
            who: str = "the game") -> float:  # fmt: skip
    """Compile, before a command's first prompt or first game, everything ``game`` will need: its batched engine
    (``engine``: the command plays on it) and whatever the ``agents`` (names) compile at their first decision (an
    agent that plans on the batched engine compiles it then, Industry's heuristic its own kernel). Each agent, a
    fresh one that the command does not use, decides once in an opening (a reference game, or a batch of the
    engine when ``engine``). Every compile is one step on stderr: one notice naming what compiles with the estimate
    of it all (:class:`.numba_cache.CompileStep`), then how long it took; nothing is said when everything loads
    from the disk cache. Returns the seconds the compiles took (0 when loaded)."""
    from .agents import agent_names, make_agent

    spec = load_game(game)
    options = dict(options or {})
    kernel = engine_kernel(game)
    known = set(agent_names(game))
    with compile_step(game, who) as step:
        if engine and kernel is not None and game not in _DONE:
            warm_game(game, agents=False)
            _DONE.add(game)
        n = spec.default_players
        for name in dict.fromkeys(a for a in agents if a in known):  # the suite's agents: a fresh one is cheap
            if (game, name, engine) in _DONE:
                continue
            _DONE.add((game, name, engine))
            agent = make_agent(name, seed=0, game=game, options=options)
            if engine and kernel is not None:
                E = spec.engine
                state = E.init(8, num_players=n, seed=1, **options)
                agent.act_batch(np.asarray(E.observe(state)), np.asarray(E.legal_action_mask(state)))
            else:
                agent.act_game(spec.reference(n, seed=0, **options))
    return step.seconds


def _report(what: str, seconds: float, cpu: float, compiled: bool) -> None:
    """One line of ``industry-env warmup``: a step, its time and CPU time (a busy machine changes it least)."""
    print(f"  {what}: {seconds:.1f} s ({cpu:.1f} s of CPU" + (", compiled)" if compiled else ")"), flush=True)


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env warmup``."""
    parser.add_argument("--game", action="append", default=None, choices=available_games(include_hidden=True),
                        help="only this game (repeatable; default every listed game: a game still being built, "
                        "not yet listed, compiles only when named)")  # fmt: skip
    parser.add_argument("--no-agents", action="store_true", help="the engines only, not the games' compiled agents")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="games compiled at the same time, each in a process of its own (numba compiles a "
                             "game on one core; default: the cores, at most the games)")  # fmt: skip
    parser.add_argument("--part", action="store_true", help=argparse.SUPPRESS)  # one game of a parallel warm-up


def run(args: argparse.Namespace) -> int:
    """Compile what is asked and say, per game, what it compiled and how long each step took."""
    numba_cache.SUGGEST_WARMUP = False  # this is the warm-up: the compile notices need not suggest it
    from .core import runtime

    games = list(dict.fromkeys(args.game or available_games()))  # a newcomer's first command: only what is listed
    compiled_games = [g for g in games if load_game(g).engine_module is not None]
    part, jobs = getattr(args, "part", False), getattr(args, "jobs", None)
    jobs = jobs if jobs is not None else max(1, min(os.cpu_count() or 1, len(compiled_games)))
    if jobs < 1:
        raise ValueError(f"--jobs {jobs}: at least one game at a time")
    if not part:
        print(runtime.describe(), flush=True)
        warning = runtime.workqueue_warning()
        if warning:
            print(warning, flush=True)
    if jobs > 1 and len(compiled_games) > 1 and not part:
        return _run_in_processes(games, jobs, args.no_agents)
    total, compiled = 0.0, 0
    for game in games:
        spec = load_game(game)
        if spec.engine_module is None:
            print(f"{spec.name}: no batched engine, nothing to compile", flush=True)
            continue
        print(f"{spec.name}:", flush=True)
        seconds = warm_game(game, agents=not args.no_agents, report=_report)
        total += seconds
        compiled += 1
        print(f"{spec.name}: ready ({seconds:.1f} s)", flush=True)
    if part:
        return 0
    if compiled:
        print(f"done in {total:.0f} s: numba's disk cache holds the compiled code, and every later process loads it "
              "(about a second)", flush=True)  # fmt: skip
    else:  # only games played by their reference engine: no compiled code, no cache to speak of
        print("done: nothing was compiled", flush=True)
    return 0


def _run_in_processes(games: list[str], jobs: int, no_agents: bool) -> int:
    """Each game compiled in a process of its own, ``jobs`` at a time (numba compiles a game on one core: on two
    cores two games take about as long as the longer one), each game's report printed when it is done."""
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor, as_completed

    t0 = time.perf_counter()
    print(f"{len(games)} games, {jobs} at a time, one process each (numba compiles a game on one core); each game's "
          f"report when it is done", flush=True)  # fmt: skip

    def one(game: str) -> subprocess.CompletedProcess:
        argv = [sys.executable, "-m", "industry_env.warmup", "--part", "--jobs", "1", "--game", game]
        return subprocess.run(argv + (["--no-agents"] if no_agents else []), capture_output=True, text=True)

    failed = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = {pool.submit(one, g): g for g in games}
        for done in as_completed(runs):
            result = done.result()
            print((result.stdout + result.stderr).rstrip("\n"), flush=True)
            if result.returncode != 0:
                failed.append(runs[done])
    if failed:
        print(f"warm-up failed for {', '.join(failed)} (its output above)", flush=True)
        return 1
    print(f"done in {time.perf_counter() - t0:.0f} s: numba's disk cache holds the compiled code, and every later "
          "process loads it (about a second)", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="python -m industry_env.warmup", description=__doc__.splitlines()[0])
    configure(_parser)
    raise SystemExit(run(_parser.parse_args()))
