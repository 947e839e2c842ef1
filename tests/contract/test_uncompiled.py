"""A kernel's code also runs uncompiled (``NUMBA_DISABLE_JIT=1``), for debugging: it plays the reference games."""

import os
import subprocess
import sys

CHECK = """
import warnings; warnings.simplefilter("ignore", RuntimeWarning)  # uint64 hashing overflows on purpose
import numpy as np
from industry_env.games.industry import engine as E
from industry_env.registry import load_game
assert E.backend() == "numba"
spec = load_game("industry")
for n in (3, 4):
    s = E.init(2, n, seed=7)
    games = [spec.reference(n, seed=7 + i) for i in range(2)]
    rng = np.random.default_rng(n)
    while not all(g.is_over for g in games):
        m = E.legal_action_mask(s)
        acts = np.zeros(2, np.int64)
        for i, g in enumerate(games):
            if not g.is_over:
                assert np.flatnonzero(m[i]).tolist() == sorted(g.legal_actions())
                seat = int(rng.integers(n))
                assert np.array_equal(E.observe(s, np.full(2, seat))[i], spec.observe(g, seat))
                legal = g.legal_actions()
                acts[i] = legal[rng.integers(len(legal))]
                g.apply(int(acts[i]))
        s = E.step(s, acts)
    assert E.scores(s)[:, :n].tolist() == [g.scores() for g in games]
print("agree")
"""


def test_industrys_kernel_runs_uncompiled_and_plays_the_reference_games():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", INDUSTRY_ENV_BACKEND="numba")
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "agree", out.stderr[-3000:]
