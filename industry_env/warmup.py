"""``industry-env warmup``: compile every game's batched engine (and its compiled agents) into numba's disk cache.

The first call of a compiled kernel compiles it (Industry's in about 20 s, Age of Industry's in about a minute on
a 2-core machine) and caches it on disk; every later process loads it in under a second. Running this once
before starting many processes at the same time (training workers, test workers, a cluster's nodes sharing a
cache folder) compiles each kernel once instead of once per process. It plays a few random steps of each game at
batch 1 (the serial kernels) and at a batch large enough for the threaded ones, every verb an environment uses,
and one decision of each of the game's own agents that builds without an extra.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .registry import available_games, load_game

BATCHES = (1, 1024)  # the serial and the threaded kernels (Industry threads from 512 games, or 8192 without TBB)


def warm_game(game: str, agents: bool = True) -> float:
    """Compile ``game``'s engine (and, with ``agents``, its own compiled agents); seconds it took."""
    t0 = time.perf_counter()
    spec = load_game(game)
    if spec.engine_module is None:
        return 0.0
    E = spec.engine
    rng = np.random.default_rng(0)
    n = spec.default_players
    for B in BATCHES:
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
    if agents:
        from .agents import make_agent

        state = E.init(8, num_players=n, seed=1)
        obs, mask = np.asarray(E.observe(state)), np.asarray(E.legal_action_mask(state))
        for name in spec.agents:
            try:
                agent = make_agent(name, seed=0, game=spec.id)
            except (ImportError, ValueError):  # an agent that needs an extra or a file: nothing of ours to compile
                continue
            agent.act_batch(obs, mask)
    return time.perf_counter() - t0


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env warmup``."""
    parser.add_argument("--game", action="append", default=None, choices=available_games(include_hidden=True),
                        help="only this game (repeatable; default every game with a batched engine)")  # fmt: skip
    parser.add_argument("--no-agents", action="store_true", help="the engines only, not the games' compiled agents")


def run(args: argparse.Namespace) -> int:
    """Compile what is asked and say how long each game took."""
    for game in args.game or available_games(include_hidden=True):
        seconds = warm_game(game, agents=not args.no_agents)
        print(f"{load_game(game).name}: ready ({seconds:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    _parser = argparse.ArgumentParser(prog="python -m industry_env.warmup", description=__doc__.splitlines()[0])
    configure(_parser)
    raise SystemExit(run(_parser.parse_args()))
