"""The compiled strong heuristic (agents/industry/strong_kernel.py) chooses the numpy form's actions.

Positions: 3- and 4-player games played by the heuristic with 30% random moves, in every phase, under the
default and under other parameters, on the shipped board and on one where fields need a resource twice. Both
forms compute the same numbers in the same order but one: the synergy ``prob @ SYNERGY``, which BLAS sums in
its own order and the twin in field order, so the two may differ in the last bit and an exact tie may break
differently. So the test asserts equality on every position but near-ties, a near-tie being a position where
the numpy form itself takes the twin's action once the field values move by at most 1e-9; and that near-ties
are under 0.1% of the positions.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from industry_env.agents import make_agent
from industry_env.agents.industry import strong_heuristic
from industry_env.agents.industry.strong_heuristic import StrongParams, strong_actions

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine

from .test_double_needs import doubled_board

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the twin needs numba")

OTHER = StrongParams(taler_value=1.2, future_share=0.5, greed=1.3, deny=0.3, keep_margin=1.5, sell_weight=0.4)
DOUBLED = doubled_board()  # fields needing a resource twice (the shipped board has none)
CONFIGS = [(3, 11, StrongParams(), None), (4, 12, StrongParams(), None), (3, 13, OTHER, None), (4, 14, OTHER, None),
           (3, 15, StrongParams(), DOUBLED), (4, 16, OTHER, DOUBLED)]  # fmt: skip


def _positions(n: int, seed: int, games: int = 14, board=None):
    """Every position of ``games`` games of n players (heuristic moves, 30% random ones): (state, mask) batches."""
    rng = np.random.default_rng(seed)
    s = engine.init(games, seed=seed, num_players=n, board=board)
    while True:
        live = np.flatnonzero(~s.terminated & (s.phase != engine.OVER))
        if not live.size:
            return
        s = engine.take(s, live)
        mask = engine.legal_action_mask(s)
        yield s, mask
        a = strong_actions(s, seed, mask, compiled=True)
        a = np.where(rng.random(s.batch_size) < 0.3, engine.sample_legal(mask, rng), a)
        s = engine.step(s, a, mask=mask)


def _takes_with_nudged_values(state, seed, mask, prm, want, monkeypatch, tries=24) -> bool:
    """Does the numpy form choose ``want`` in this one-game state once the values move by at most 1e-9?"""
    real = strong_heuristic._assessment
    rng = np.random.default_rng(0)
    for _ in range(tries):
        delta = rng.uniform(-1e-9, 1e-9, size=(state.batch_size, 4, 60))

        def nudged(st, p, delta=delta):
            a = real(st, p)
            a.value = a.value + delta
            a.gross = a.gross + delta
            return a

        monkeypatch.setattr(strong_heuristic, "_assessment", nudged)
        got = strong_actions(state, seed, mask, prm, compiled=False)[0]
        monkeypatch.setattr(strong_heuristic, "_assessment", real)
        if got == want:
            return True
    return False


def test_the_twin_chooses_the_numpy_forms_actions_in_every_phase(monkeypatch) -> None:
    total, ties, phases, subsidies = 0, 0, np.zeros(5, np.int64), np.zeros(5, np.int64)
    for n, seed, prm, board in CONFIGS:
        for s, mask in _positions(n, seed, board=board):
            fast = strong_actions(s, seed, mask, prm, compiled=True)
            slow = strong_actions(s, seed, mask, prm, compiled=False)
            total += s.batch_size
            phases += np.bincount(s.phase, minlength=5)[:5]
            subsidies += np.bincount(s.phase[fast == A.SUBSIDY], minlength=5)[:5]
            for i in np.flatnonzero(fast != slow):
                one = engine.take(s, i)
                assert _takes_with_nudged_values(one, seed, mask[i : i + 1], prm, fast[i], monkeypatch), (
                    f"{n} players, seed {seed}, phase {s.phase[i]}: twin {fast[i]}, numpy {slow[i]} (not a near-tie)"
                )
                ties += 1
    assert total > 5000 and (phases > 200).all(), (total, phases)  # thousands of positions, every phase
    assert subsidies[[engine.BID, engine.SELL_OR_KEEP, engine.DEVELOP]].sum() > 0  # the subsidy branches ran
    assert ties <= 0.001 * total, f"{ties} near-ties in {total} positions"


def test_the_twin_refuses_what_the_numpy_form_refuses() -> None:
    s = engine.init(2, seed=5, num_players=4)
    mask = engine.legal_action_mask(s)
    for compiled in (True, False):
        with pytest.raises(ValueError, match="mask must be bool"):
            strong_actions(s, 0, mask[:1], compiled=compiled)
        with pytest.raises(ValueError, match="mask must be bool"):
            strong_actions(s, 0, mask.astype(np.int8), compiled=compiled)
        wrong = np.zeros_like(mask)
        wrong[:, A.PASS] = True  # an auction position with only "pass" legal: the mask is not this state's
        before = engine.copy(s)
        with pytest.raises(ValueError, match=r"does not match the state in game\(s\) \[0, 1\]"):
            strong_actions(s, 0, wrong, compiled=compiled)
        for k, v in before.arrays().items():
            np.testing.assert_array_equal(getattr(s, k), v, err_msg=k)  # the state is untouched
    over = engine.copy(s)
    over.phase[1] = engine.OVER
    for compiled in (True, False):
        with pytest.raises(ValueError, match=r"game\(s\) \[1\] are over"):
            strong_actions(over, 0, None, compiled=compiled)


def test_the_twin_reads_a_state_without_its_buffer_and_leaves_it_unchanged() -> None:
    s = next(g for g, _ in _positions(4, 3, games=4))
    loose = s.replace(money=s.money.copy())  # arrays no longer views of one buffer
    assert loose._buf is None
    want = strong_actions(s, 9, compiled=False)
    np.testing.assert_array_equal(strong_actions(loose, 9, compiled=True), want)
    np.testing.assert_array_equal(loose.money, s.money)


@pytest.mark.parametrize("n", [3, 4])
def test_the_heuristic_agent_moves_alike_on_both_backends(n: int) -> None:
    moves = {}
    for backend in ("numpy", "numba"):
        with engine.use_backend(backend):
            agent = make_agent("heuristic", seed=4)
            s, played = engine.init(1, seed=n, num_players=n), []
            while not s.terminated[0] and s.phase[0] != engine.OVER:
                p = int(s.current_player[0])
                a = agent.act(engine.observe(s, p)[0], engine.legal_action_mask(s)[0])
                played.append(a)
                s = engine.step(s, np.array([a]))
            moves[backend] = played
    assert len(moves["numpy"]) > 100
    assert moves["numpy"] == moves["numba"]
