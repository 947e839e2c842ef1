"""Speed of the environments, measured against the raw engine and PettingZoo's connect four in the same run.

Used by ``industry-env bench`` (section "environments"): the AEC ``env()`` in moves per second (every agent's
``last()`` and ``step()``, as a self-play loop does) next to PettingZoo's classic connect four ``env()`` on the
same machine; the Gymnasium env; the native vector env at N games with random and (where the game has one) with
heuristic opponents, as learner steps and all steps (the learner's and the opponents') per second, next to the raw
engine's random play at the same batch size. Every game with a batched engine, through the registry (``game=``,
``options``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.sampling import sample_legal
from ..registry import load_game


def _timed(run: Callable[[], int], seconds: float) -> tuple[float, int]:
    """Call ``run`` (returns units of work) until ``seconds`` pass; units per second and units done."""
    done, t0 = 0, time.perf_counter()
    while True:
        done += run()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return done / elapsed, done


def aec_moves_per_second(make_env: Callable[[], Any], seconds: float, seed: int = 0) -> float:
    """Moves per second of a PettingZoo AEC env played to the end by the first legal action of each agent."""
    env = make_env()
    games = iter(range(seed, seed + 10**9))

    def one_game() -> int:
        env.reset(seed=next(games))
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
            n += 1
        return n

    one_game()  # warm-up
    return _timed(one_game, seconds)[0]


def connect_four_moves_per_second(seconds: float) -> float | None:
    """The same loop on PettingZoo's classic connect four (None if it cannot be imported: it needs pygame)."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    return aec_moves_per_second(connect_four_v3.env, seconds)


def gym_steps_per_second(
    seconds: float, opponents: str = "random", game: str = "industry", options: dict[str, Any] | None = None
) -> float:
    """Learner steps per second of the Gymnasium env (batch of one), uniformly random legal learner actions."""
    from .single import LearnerEnv

    env = LearnerEnv(opponents=opponents, game=game, **(options or {}))
    rng = np.random.default_rng(0)
    state = {"info": env.reset(seed=0)[1]}

    def burst() -> int:
        for _ in range(100):
            legal = np.flatnonzero(state["info"]["action_mask"])
            _, _, term, _, info = env.step(int(legal[int(rng.random() * legal.size)]))
            state["info"] = env.reset()[1] if term else info
        return 100

    return _timed(burst, seconds)[0]


def vector_steps_per_second(
    num_envs: int, seconds: float, opponents: str = "random", game: str = "industry",
    options: dict[str, Any] | None = None,
) -> dict[str, float]:  # fmt: skip
    """The vector env at ``num_envs`` games: learner steps/s and all engine steps/s (learner + opponents)."""
    from .vector import LearnerVectorEnv

    env = LearnerVectorEnv(num_envs, opponents=opponents, game=game, **(options or {}))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    box = {"mask": info["action_mask"]}

    def one_step() -> int:
        _, _, _, _, info = env.step(sample_legal(box["mask"], rng))
        box["mask"] = info["action_mask"]
        return num_envs

    one_step()
    games = env.games
    before = games.learner_steps + games.opponent_steps
    rate, learner_steps = _timed(one_step, seconds)
    all_steps = games.learner_steps + games.opponent_steps - before
    return {"learner_steps_per_second": rate, "all_steps_per_second": rate * all_steps / learner_steps}


def engine_steps_per_second(
    batch_size: int, seconds: float, game: str = "industry", options: dict[str, Any] | None = None
) -> float:
    """The raw engine's random play at ``batch_size`` (mask, uniform legal action, step, reset in place)."""
    E = load_game(game).engine
    state = E.init(batch_size, seed=0, **(options or {}))
    rng = np.random.default_rng(0)

    def one_step() -> int:
        mask = E.legal_action_mask(state)
        E.step(state, sample_legal(mask, rng), inplace=True, mask=mask)
        if state.terminated.any():
            E.reset(state, state.terminated, inplace=True)
        return batch_size

    one_step()
    return _timed(one_step, seconds)[0]


def bench_envs(
    seconds: float = 2.0, num_envs: int = 4096, game: str = "industry", options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every figure of the environments section of ``game``, as a dict (printed by :func:`print_envs`)."""
    from .aec import env as aec_env

    E = load_game(game).engine
    backend = E.backend() if hasattr(E, "backend") else "numba"
    out: dict[str, Any] = {"game": game, "backend": backend, "num_envs": num_envs}
    out["aec_moves_per_second"] = aec_moves_per_second(lambda: aec_env(game=game, **(options or {})), seconds)
    out["connect_four_moves_per_second"] = connect_four_moves_per_second(seconds)
    out["gym_steps_per_second_random"] = gym_steps_per_second(seconds, "random", game, options)
    out["engine_steps_per_second"] = engine_steps_per_second(num_envs, seconds, game, options)
    out["vector_random"] = vector_steps_per_second(num_envs, seconds, "random", game, options)
    if "heuristic" in load_game(game).agents:  # a game without a heuristic of its own is measured with random only
        out["vector_heuristic"] = vector_steps_per_second(num_envs, seconds, "heuristic", game, options)
    return out


def print_envs(r: dict[str, Any]) -> None:
    """The environments section of ``industry-env bench``, with ratios measured in the same run."""
    c4 = r["connect_four_moves_per_second"]
    ratio = f" ({r['aec_moves_per_second'] / c4:.2f}x connect four's {c4:,.0f})" if c4 else \
        " (connect four not measured: pip install pygame)"  # fmt: skip
    print(f"environments of {r.get('game', 'industry')} ({r['backend']} backend)")
    print(f"  PettingZoo AEC env(): {r['aec_moves_per_second']:,.0f} moves/s{ratio}")
    print(f"  Gymnasium env, random opponents: {r['gym_steps_per_second_random']:,.0f} learner steps/s")
    eng = r["engine_steps_per_second"]
    for name in ("random", "heuristic"):
        v = r.get(f"vector_{name}")
        if v is None:
            print(f"  vector env N={r['num_envs']}, {name} opponents: not measured (the game has no {name} agent)")
            continue
        print(f"  vector env N={r['num_envs']}, {name} opponents: {v['learner_steps_per_second']:,.0f} learner "
              f"steps/s, {v['all_steps_per_second']:,.0f} steps/s in all ({v['all_steps_per_second'] / eng:.2f}x "
              f"the raw engine's {eng:,.0f} at the same batch)")  # fmt: skip
