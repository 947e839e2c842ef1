"""Property tests of the batched engine over random games: invariants that hold in every game, at every step.

Every game ends after exactly 60 auctions; money is never negative; every Taler is accounted for (the money
in hand changes only by income, the coin token, subsidies, construction costs and resources bought from the
bank); each field is claimed once and keeps its owner; the mask is non-empty while a game is live.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine as E
from industry_env.games.industry.rules import COIN_COLUMN, INCOME, JOKER, SUBSIDY_MONEY
from industry_env.registry import load_game
from industry_env.verify import _sample

_WEIGHTS = load_game("industry").exploration_weights()  # the "developer" policy: develop often, bid low


def _expected_bank_flow(s: E.State, a: np.ndarray) -> np.ndarray:
    """Talers entering (+) or leaving (-) the players' hands through the bank on this action, before income."""
    b = s.board
    flow = np.zeros(s.batch_size, np.int64)
    live = ~s.terminated
    p = s.current_player.astype(np.int64)
    flow += np.where(live & (a == A.SUBSIDY), SUBSIDY_MONEY, 0)
    dev = live & (a >= A.DEVELOP) & (a < A.DONE) & (s.phase == E.DEVELOP)
    for i in np.flatnonzero(dev):
        f = a[i] - A.DEVELOP
        mine = (s.owner[i] == p[i]) & s.developed[i]
        flow[i] -= max(0, int(b.COST[f]) - int(b.DISCOUNT[mine].sum()))  # discount recomputed from the board
    pay = live & (a >= A.PAY) & (a < A.SUBSIDY)
    flow -= np.where(pay & ((a - A.PAY) % A.NUM_PAY_WAYS == A.PAY_BANK), 1, 0)
    return flow


def _check_random_games(state: E.State, policy: np.ndarray, rng: np.random.Generator) -> None:
    B = state.batch_size
    n = state.num_players.astype(np.int64)
    auctions = np.zeros(B, np.int64)
    jokers_total = int((state.board.KIND == JOKER).sum())
    steps = 0
    while not state.terminated.all():
        mask = E.legal_action_mask(state)
        live = ~state.terminated
        assert (mask.any(axis=1) == live).all(), "mask empty in a live game (or not in a finished one)"
        a = _sample(mask, policy, rng, _WEIGHTS)
        before = state
        state = E.step(state, a)
        steps += 1
        auctions += live & (a < A.PASS) & (before.phase == E.AUCTION)
        # money never negative; every Taler accounted for
        assert (state.money >= 0).all()
        new_rounds = (state.round - before.round).astype(np.int64)
        coin = (new_rounds > 0) & state.face_up[:, COIN_COLUMN]
        expected = before.money.sum(1) + _expected_bank_flow(before, a) + n * (INCOME * new_rounds + coin)
        assert np.array_equal(state.money.sum(1), expected)
        # each field is claimed once: claims and owners are never undone or changed
        assert not (before.claimed & ~state.claimed).any()
        assert ((before.owner == -1) | (before.owner == state.owner)).all()
        assert ((state.claimed.sum(1) - before.claimed.sum(1)) <= 1).all()
        assert (state.jokers >= 0).all()
        assert ((state.developed & (state.owner >= 0)) == state.developed).all()
        assert steps < 5000
    assert (auctions == 60).all(), "every game ends after exactly 60 auctions"
    assert state.claimed.all()
    assert state.jokers.sum(axis=(1, 2)).max() <= jokers_total
    assert (state.current_player == -1).all()
    # rewards: +1 winners, -1 others, 0 for all if everyone ties
    assert np.isin(state.rewards, (-1.0, 0.0, 1.0)).all()


def test_random_games_keep_every_invariant() -> None:
    B = 96
    i = np.arange(B)
    state = E.init(B, num_players=np.where(i % 2 == 0, 3, 4), seed=500, balanced_draws=(i // 2) % 2 == 0)
    _check_random_games(state, (i // 4) % 2, np.random.default_rng(0))


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    num_players=st.sampled_from([3, 4]),
    balanced=st.booleans(),
    policy=st.integers(0, 1),
    batch=st.integers(1, 6),
)
def test_hypothesis_games_keep_every_invariant(seed: int, num_players: int, balanced: bool, policy: int,
                                               batch: int) -> None:  # fmt: skip
    state = E.init(batch, num_players=num_players, seed=seed, balanced_draws=balanced)
    _check_random_games(state, np.full(batch, policy), np.random.default_rng(seed))


def test_rewards_only_on_the_final_step() -> None:
    state = E.init(32, num_players=3, seed=9)
    rng = np.random.default_rng(9)
    total = np.zeros((32, 4), np.float32)
    while not state.terminated.all():
        was = state.terminated.copy()
        state = E.step(state, E.sample_legal(E.legal_action_mask(state), rng))
        ended = state.terminated & ~was
        assert not state.rewards[~ended].any()
        total += state.rewards
    assert not total[:, 3].any()  # no fourth player in a 3-player game
    assert ((total == 1.0).any(1) | (total == 0.0).all(1)).all()  # a winner, or everyone tied
