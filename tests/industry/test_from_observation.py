"""from_observation rebuilds, from what one seat observes, a State that observes and plays the same."""

from __future__ import annotations

import numpy as np
import pytest

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry import from_observation as FO
from industry_env.games.industry import observation as O
from industry_env.games.industry.components import load_board


def _positions(batch: int = 48, every: int = 9, seed: int = 0) -> engine.State:
    """Snapshots of random 3- and 4-player games (both draw variants) at every phase, finished ones included."""
    rng = np.random.default_rng(seed)
    n = np.where(np.arange(batch) % 2 == 0, 4, 3)
    s = engine.init(batch, num_players=n, seed=seed, balanced_draws=np.arange(batch) % 4 < 3)
    snaps, t = [], 0
    while not s.terminated.all():
        if t % every == 0:
            snaps.append(s)
        s = engine.step(s, engine.sample_legal(engine.legal_action_mask(s), rng))
        t += 1
    snaps.append(s)
    return engine.concat(snaps)


@pytest.fixture(scope="module")
def positions() -> engine.State:
    s = _positions()
    assert set(np.unique(s.phase).tolist()) == set(range(6)), "every phase is represented"
    assert set(np.unique(s.num_players).tolist()) == {3, 4}
    return s


def _observers(s: engine.State, seed: int) -> np.ndarray:
    return (np.random.default_rng(seed).integers(0, 12, s.batch_size) % s.num_players).astype(np.int64)


def test_observing_the_rebuilt_state_gives_back_the_observation(positions: engine.State) -> None:
    p = _observers(positions, 1)
    obs = engine.observe(positions, p)
    rebuilt = FO.from_observation(obs, np.random.default_rng(0))
    np.testing.assert_array_equal(engine.observe(rebuilt, 0), obs)
    # ... and from the observer's real seat
    rebuilt = FO.from_observation(obs, np.random.default_rng(0), player=p)
    np.testing.assert_array_equal(engine.observe(rebuilt, p), obs)


def test_rebuilt_state_is_the_position_but_for_the_hidden_bag_order(positions: engine.State) -> None:
    s = positions
    p = _observers(s, 2)
    r = FO.from_observation(engine.observe(s, p), np.random.default_rng(3), board=s.board, player=p)
    for name in engine._ARRAY_FIELDS:
        if name in ("seed", "bag", "rewards"):
            continue
        np.testing.assert_array_equal(getattr(r, name), getattr(s, name), err_msg=name)
    np.testing.assert_array_equal(r.current_player, s.current_player)
    left = np.arange(12)[None, :] >= s.bag_pos[:, None]
    for i in range(s.batch_size):  # the same tokens in the bag, dealt in some order
        assert sorted(r.bag[i][left[i]].tolist()) == sorted(s.bag[i][left[i]].tolist())
    assert (r.rewards == 0).all() and (r.seed >= 0).all()


def test_legal_actions_of_the_rebuilt_state_are_the_original_ones(positions: engine.State) -> None:
    s = positions
    mover = np.maximum(s.current_player, 0).astype(np.int64)
    obs = engine.observe(s, mover)
    mask = engine.legal_action_mask(s)
    # from the mover's real seat: the very same mask
    r = FO.from_observation(obs, np.random.default_rng(4), player=mover)
    np.testing.assert_array_equal(engine.legal_action_mask(r), mask)
    # the mover as player 0 (the default): the same mask once pay-to-player actions are renumbered
    r0 = FO.from_observation(obs, np.random.default_rng(4))
    mask0 = engine.legal_action_mask(r0)
    pay = A.PAY + np.arange(11)[:, None] * A.NUM_PAY_WAYS
    expect = mask.copy()
    n = s.num_players.astype(np.int64)
    expect[:, (pay + A.PAY_PLAYER + np.arange(4)).reshape(-1)] = False
    for q in range(4):
        rel = (q - mover) % n
        ok = q < n
        cols_from = (pay + A.PAY_PLAYER + q).reshape(-1)
        for i in np.flatnonzero(ok):
            expect[i, (pay + A.PAY_PLAYER + rel[i]).reshape(-1)] |= mask[i, cols_from]
    np.testing.assert_array_equal(mask0, expect)
    assert mask[:, A.PAY + A.PAY_PLAYER : A.SUBSIDY].any(), "some positions pay another player"


def test_rebuilt_games_play_on_to_the_end_and_the_bag_is_dealt_from_the_rng(positions: engine.State) -> None:
    s = engine.take(positions, np.arange(0, positions.batch_size, 37))
    obs = engine.observe(s)
    a = FO.from_observation(obs, np.random.default_rng(5))
    b = FO.from_observation(obs, np.random.default_rng(5))
    for name in engine._ARRAY_FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    c = FO.from_observation(obs, np.random.default_rng(6))
    assert (c.seed != a.seed).any()
    rng = np.random.default_rng(0)
    while not a.terminated.all():
        a = engine.step(a, engine.sample_legal(engine.legal_action_mask(a), rng))
    assert a.claimed.all()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.astype(np.int64), "float32"),
        (lambda o: o[0], r"shape \[B, 675\]"),
        (lambda o: o[:, :-1], r"shape \[B, 675\]"),
        (lambda o: o.tolist(), "numpy float32 array"),
        (lambda o: _set(o, "money", 0, np.nan), "NaN"),
        (lambda o: _set(o, "money", 0, 0.15), "'money' is not a whole count"),
        (lambda o: _set(o, "era", 4, 1.0), "'era' has more than one entry"),
        (lambda o: _set(o, "phase", slice(None), 0.0), "'phase' has no entry"),
        (lambda o: _set(o, "claimed", 3, 0.5), "'claimed' holds values other than 0/1"),
        (lambda o: _set(o, "seat_present", 3, 0.0), "'seat_present' does not match"),
        (lambda o: _set(o, "owner", (1, 3), 1.0), "an owned field is not claimed"),
        (lambda o: _set(o, "lot", 40, 1.0), "'lot' is set outside an auction"),
    ],
)
def test_malformed_observations_are_refused(change, message: str) -> None:
    s = engine.init(2, num_players=4, seed=0)  # auction phase, nobody owns anything
    obs = engine.observe(s)
    with pytest.raises(ValueError, match=message):
        FO.from_observation(change(obs), np.random.default_rng(0))


def _set(obs: np.ndarray, name: str, index: object, value: float) -> np.ndarray:
    out = obs.copy()
    O.views(out)[name][(slice(None), *(index if isinstance(index, tuple) else (index,)))] = value
    return out


def test_player_out_of_range_is_refused() -> None:
    obs = engine.observe(engine.init(1, num_players=3, seed=0))
    with pytest.raises(ValueError, match="player=3"):
        FO.from_observation(obs, np.random.default_rng(0), player=3)
    assert FO.from_observation(obs, np.random.default_rng(0), board=load_board()).batch_size == 1


def test_every_entry_of_the_layout_is_checked_as_a_flag_or_a_count() -> None:
    flags, counts = set(FO._BINARY_PARTS), set(FO._COUNT_PARTS)
    assert flags | counts == set(O.INDEX) and not flags & counts
