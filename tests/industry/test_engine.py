"""Contract and scenario tests of the batched engine: API, dtypes, conventions, batch surgery, known positions."""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine as E
from industry_env.games.industry.observation import OBS_DIM
from industry_env.games.industry.reference import Game, IllegalActionError
from industry_env.games.industry.state import SCHEMA


def _play(state: E.State, steps: int, seed: int = 0) -> E.State:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        state = E.step(state, E.sample_legal(E.legal_action_mask(state), rng))
    return state


def _same(a: E.State, b: E.State) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True))


def _position(game: Game, **changes: object) -> Game:
    """A reference game with some saved entries replaced (checked by positions.state_from_dict)."""
    doc = json.loads(game.to_json())
    doc.update(changes)
    return Game.from_json(json.dumps(doc), board=game.board)


# ---------------------------------------------------------------------------------------------- API and dtypes
def test_init_shapes_and_dtypes() -> None:
    s = E.init(5, num_players=3, seed=11)
    assert s.batch_size == 5
    for name, arr in s.arrays().items():  # as the one declaration of the State says
        assert arr.dtype == np.dtype(SCHEMA.by_name[name].dtype), name
        assert arr.shape == (5, *SCHEMA.by_name[name].shape), name
    assert s.current_player.dtype == np.int8
    assert E.legal_action_mask(s).shape == (5, A.NUM_ACTIONS)
    assert E.legal_action_mask(s).dtype == bool
    obs = E.observe(s)
    assert obs.shape == (5, OBS_DIM) and obs.dtype == np.float32
    assert s.rewards.dtype == np.float32 and s.rewards.shape == (5, 4)
    assert s.state_bytes_per_game <= 512


@pytest.mark.parametrize("n,balanced", [(3, True), (3, False), (4, True), (4, False)])
def test_init_equals_reference(n: int, balanced: bool) -> None:
    s = E.init(6, num_players=n, seed=40, balanced_draws=balanced)
    for i in range(6):
        assert E.to_game(s, i).to_json() == Game(n, seed=40 + i, balanced_draws=balanced).to_json()


def test_seed_array_and_mixed_batch() -> None:
    s = E.init(3, num_players=np.array([3, 4, 3]), seed=np.array([7, 1000, 5]), balanced_draws=np.array([1, 0, 1]))
    assert E.to_game(s, 1).to_json() == Game(4, seed=1000, balanced_draws=False).to_json()
    assert E.to_game(s, 2).to_json() == Game(3, seed=5).to_json()
    with pytest.raises(ValueError, match=r"seeds of shape \[2\] given for a batch of 3"):
        E.init(3, seed=np.array([1, 2]))
    with pytest.raises(ValueError, match="3 or 4"):
        E.init(2, num_players=5)


def test_same_seed_same_game_whatever_the_batch() -> None:
    """Game i of init(B, seed=s) equals game 0 of init(1, seed=s+i) under the same actions."""
    big = E.init(16, seed=100)
    small = E.init(1, seed=107)
    rng = np.random.default_rng(1)
    for _ in range(300):
        m = E.legal_action_mask(big)
        assert np.array_equal(m[7], E.legal_action_mask(small)[0])
        a = E.sample_legal(m, rng)
        big, small = E.step(big, a), E.step(small, a[7:8])
    assert _same(E.take(big, 7), small)


def test_step_does_not_mutate_input() -> None:
    s = E.init(4, seed=3)
    before = E.copy(s)
    E.step(s, E.sample_legal(E.legal_action_mask(s), np.random.default_rng(0)))
    assert _same(s, before)


# ---------------------------------------------------------------------------------------------- conventions
def test_illegal_action_is_refused_naming_game_and_action() -> None:
    s = E.init(3, seed=0)
    a = E.sample_legal(E.legal_action_mask(s), np.random.default_rng(0))
    a[1] = A.DONE  # no development in the auction phase
    before = E.copy(s)
    with pytest.raises(IllegalActionError, match=r"game 1 \(seed 1\): action 'done' is not legal"):
        E.step(s, a)
    assert _same(s, before)
    with pytest.raises(IllegalActionError, match="not an action of Industry"):
        E.step(s, np.array([a[0], 9999, a[2]]))


def test_illegal_action_penalized_pgx_convention() -> None:
    s = E.init(3, num_players=np.array([4, 3, 4]), seed=0)
    a = E.sample_legal(E.legal_action_mask(s), np.random.default_rng(0))
    a[1] = A.DONE
    fault = int(s.current_player[1])
    out = E.step(s, a, on_illegal="penalize")
    assert out.terminated.tolist() == [False, True, False]
    want = np.zeros(4, np.float32)
    want[:3] = 1.0  # -penalty: every other seat of the 3-player game gets a winner's reward; slot 3 unused
    want[fault] = -1.0
    assert np.array_equal(out.rewards[1], want)
    assert not out.rewards[[0, 2]].any()
    assert not E.legal_action_mask(out)[1].any()
    # the legal games stepped normally
    assert np.array_equal(E.take(out, 0).phase, E.take(E.step(E.take(s, 0), a[:1]), 0).phase)


def test_finished_game_ignores_actions_and_gives_zero_rewards() -> None:
    s = E.init(2, seed=5)
    rng = np.random.default_rng(5)
    ended_with = None
    while not s.terminated.all():
        prev_done = s.terminated.copy()
        s = E.step(s, E.sample_legal(E.legal_action_mask(s), rng))
        new = s.terminated & ~prev_done
        if new.any() and ended_with is None:
            ended_with = np.flatnonzero(new)[0]
            g_rewards = s.rewards[ended_with].copy()
            assert set(g_rewards.tolist()) <= {-1.0, 0.0, 1.0} and g_rewards.any() == (g_rewards.max() == 1.0)
    assert not E.legal_action_mask(s).any()
    after = E.step(s, np.array([12345, -3]))  # any action is accepted and ignored
    assert not after.rewards.any()
    assert np.array_equal(after.points, s.points) and (after.phase == E.OVER).all()
    assert (after.current_player == -1).all()


def test_reset_in_rows_only() -> None:
    s = _play(E.init(3, seed=20), 50)
    r = E.reset(s, np.array([False, True, False]))
    assert _same(E.take(r, 0), E.take(s, 0)) and _same(E.take(r, 2), E.take(s, 2))
    assert E.to_game(r, 1).to_json() == Game(4, seed=21 + 3).to_json()  # default seed: seed + B
    r2 = E.reset(s, np.array([True, False, False]), seeds=np.array([99, 0, 0]))
    assert E.to_game(r2, 0).to_json() == Game(4, seed=99).to_json()


# ---------------------------------------------------------------------------------------------- batch surgery
def test_take_put_concat_copy() -> None:
    s = _play(E.init(4, seed=0), 80)
    one = E.take(s, 2)
    assert one.batch_size == 1
    back = E.put(E.init(4, seed=50), 1, one)
    assert _same(E.take(back, 1), one)
    both = E.concat([E.take(s, 0), E.take(s, [1, 2, 3])])
    assert _same(both, s)
    c = E.copy(s)
    c.money[0, 0] += 1
    assert c.money[0, 0] != s.money[0, 0]


def test_a_copy_views_its_own_buffer_field_by_field() -> None:
    """A State made from a buffer (a copy, a step's result) views each field on first use: every field reads the
    copy's values, writes stay in the copy, and replacing one field keeps the others' values (the buffer let go)."""
    import pickle

    s = _play(E.init(3, seed=4), 60)
    c = E.copy(s)
    assert _same(c, s)
    c.points[1, 2] += 5
    assert c.points[1, 2] == s.points[1, 2] + 5 and np.shares_memory(c.points, c._buf)
    money = c.money.copy()
    c.money = money  # the buffer no longer backs every field: it is let go, the other fields keep their values
    assert c._buf is None and c.money is money
    assert c.points[1, 2] == s.points[1, 2] + 5 and np.array_equal(c.phase, s.phase)
    fresh = E.copy(s)
    assert _same(pickle.loads(pickle.dumps(fresh)), s)  # fields never read are pickled too
    with pytest.raises(AttributeError, match="no attribute 'monies'"):
        fresh.monies  # noqa: B018
    with pytest.raises(ValueError, match=r"a State buffer of 3 games is uint8\[1092\], got uint8\[10\]"):
        E._from_buffer(np.zeros(10, np.uint8), 3, s.board)


def test_to_game_from_games_round_trip() -> None:
    s = _play(E.init(6, num_players=np.array([3, 4] * 3), seed=8), 150, seed=2)
    games = [E.to_game(s, i) for i in range(6)]
    back = E.from_games(games)
    assert _same(back.replace(rewards=s.rewards), s)  # caches (produces, discount) rebuilt identically
    # and the reference continues exactly like the engine
    rng = np.random.default_rng(9)
    for _ in range(100):
        m = E.legal_action_mask(s)
        a = E.sample_legal(m, rng)
        for i, g in enumerate(games):
            assert np.array_equal(g.legal_action_mask(), m[i])
            if not g.is_over:
                g.apply(int(a[i]))
        s = E.step(s, a)
    assert [E.to_game(s, i).to_json() for i in range(6)] == [g.to_json() for g in games]


def test_batch_of_one_plays_a_whole_game() -> None:
    s = E.init(1, num_players=3, seed=77)
    g = Game(3, seed=77)
    rng = np.random.default_rng(77)
    steps = 0
    while not s.terminated[0]:
        a = E.sample_legal(E.legal_action_mask(s), rng)
        g.apply(int(a[0]))
        s = E.step(s, a)
        steps += 1
    assert s.claimed.all() and g.is_over
    assert E.scores(s)[0, :3].tolist() == g.scores()
    assert s.rewards[0, :3].tolist() == g.returns()
    assert steps > 60


# ---------------------------------------------------------------------------------------------- scenarios
def _auction_position(n: int = 4) -> Game:
    g = Game(n, seed=3)
    f = next(a for a in g.legal_actions() if a < A.PASS and g.board.KIND[a] != 3)  # not a joker field
    g.apply(f)  # open an auction
    return g


def test_keep_pays_one_taler_per_player_from_the_left() -> None:
    """'the Auctioneer gives each player - including himself - 1 Taler until he has paid the full price.'"""
    g = _auction_position(4)
    auct = g.s.auctioneer
    money = [10, 10, 10, 10]
    g = _position(g, money=money, phase="sell_or_keep", high_bid=6, high_bidder=(auct + 2) % 4, bidder=auct)
    s = E.step(E.from_games([g]), np.array([A.KEEP]))
    got = s.money[0, :4].tolist()
    # 6 Talers: left neighbour 2 (1st and 5th), next 2 (2nd, 6th), next 1, himself 1: net 10 - 6 + 1
    want = [0] * 4
    for k, gain in zip((1, 2, 3, 0), (2, 2, 1, 1), strict=True):
        want[(auct + k) % 4] = 10 + gain
    want[auct] -= 6
    assert got == want
    assert sum(got) == sum(money)
    assert int(s.auctioneer[0]) == (auct + 1) % 4  # "His left-hand neighbor becomes the new Auctioneer"
    assert s.owner[0, g.s.lot] == auct


def test_sell_moves_the_bid_and_keeps_the_auctioneer() -> None:
    g = _auction_position(3)
    auct, buyer = g.s.auctioneer, (g.s.auctioneer + 1) % 3
    g = _position(g, money=[8, 8, 8], phase="sell_or_keep", high_bid=5, high_bidder=buyer, bidder=auct)
    s = E.step(E.from_games([g]), np.array([A.SELL]))
    assert s.money[0, auct] == 13 and s.money[0, buyer] == 3
    assert s.owner[0, g.s.lot] == buyer and int(s.auctioneer[0]) == auct


def test_no_bid_means_the_auctioneer_claims_for_free() -> None:
    s = E.init(1, num_players=3, seed=4)
    s = E.step(s, np.array([np.flatnonzero(E.legal_action_mask(s)[0])[0]]))
    lot, auct, money = int(s.lot[0]), int(s.auctioneer[0]), s.money.copy()
    s = E.step(s, np.array([A.PASS]))
    s = E.step(s, np.array([A.PASS]))
    assert s.claimed[0, lot] and np.array_equal(s.money, money)
    assert int(s.auctioneer[0]) == (auct + 1) % 3


def test_develop_pays_a_resource_to_its_producer() -> None:
    """Develop a field needing a resource that only another player produces: the mask offers paying him."""
    g = Game(4, seed=1)
    b = g.board
    need_f = next(f for f in range(12, 24) if b.NEEDS[f, 0] >= 0 and b.NEEDS[f, 1] < 0 and b.KIND[f] == 0)
    r = int(b.NEEDS[need_f, 0])
    producer = b.PRODUCERS[r][0]
    owner = [-1] * 60
    developed = [False] * 60
    claimed = [True] * 12 + [False] * 48
    for f in range(12):
        if b.KIND[f] != 3:
            owner[f] = 3
    owner[producer], developed[producer] = 2, True
    claimed[need_f], owner[need_f] = True, 0
    face_up = [False] * 12
    bag = [c for c in range(12) if c != need_f % 12]
    g = _position(g, era=1, owner=owner, developed=developed, claimed=claimed, face_up=face_up, bag=bag,
                  phase="develop", developer=0, money=[10, 10, 10, 10], lot=-1, bidder=-1, high_bidder=-1,
                  high_bid=0)  # fmt: skip
    s = E.from_games([g])
    assert E.legal_action_mask(s)[0, A.develop(need_f)]
    s = E.step(s, np.array([A.develop(need_f)]))
    assert s.phase[0] == E.PAY and s.pending[0].tolist() == [r, -1]
    m = E.legal_action_mask(s)[0]
    ways = np.flatnonzero(m[A.pay(r, 0) : A.pay(r, A.NUM_PAY_WAYS)]).tolist()
    assert ways == [A.PAY_PLAYER + 2]  # produced by player 2, so not at the bank
    cost = int(b.COST[need_f])
    s = E.step(s, np.array([A.pay(r, A.PAY_PLAYER + 2)]))
    assert s.developed[0, need_f] and s.money[0, 0] == 10 - cost - 1 and s.money[0, 2] == 11
    assert s.points[0, 0] == int(b.POINTS[need_f])
    assert s.produces[0, 0, int(b.PRODUCES[need_f])]


# ---------------------------------------------------------------------------------------------- fast paths
def test_inplace_and_given_mask_fast_path_equals_the_plain_step() -> None:
    """step(inplace=True, mask=...) and reset(inplace=True) give exactly the states of the plain calls,
    through whole games, with illegal actions penalised on the way and finished games reset."""
    rng = np.random.default_rng(3)
    plain = E.init(48, num_players=np.array([3, 4] * 24), seed=500, balanced_draws=np.arange(48) % 3 > 0)
    fast = E.copy(plain)
    for t in range(1200):
        mask = E.legal_action_mask(plain)
        actions = E.sample_legal(mask, rng)
        if t % 97 == 0:  # an illegal action in one live game: 'done' outside development, or 'pass' outside bids
            live = np.flatnonzero(~plain.terminated)
            g = int(live[t % live.size])
            actions[g] = A.DONE if plain.phase[g] != E.DEVELOP else A.PASS
        plain = E.step(plain, actions, on_illegal="penalize")
        fast_mask = E.legal_action_mask(fast)
        assert np.array_equal(fast_mask, mask)
        assert E.step(fast, actions, on_illegal="penalize", inplace=True, mask=fast_mask) is fast
        assert _same(fast, plain), f"step {t}"
        done = plain.terminated
        if done.any():
            plain = E.reset(plain, done)
            assert E.reset(fast, done, inplace=True) is fast
            assert _same(fast, plain), f"reset after step {t}"
    assert (plain.round > 1).all()


def test_refused_inplace_step_leaves_the_state_unchanged() -> None:
    s = _play(E.init(4, seed=9), 30)
    before = E.copy(s)
    mask = E.legal_action_mask(s)
    bad = E.sample_legal(mask, np.random.default_rng(0))
    bad[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        E.step(s, bad, inplace=True, mask=mask)
    assert _same(s, before)
    with pytest.raises(ValueError, match="mask must be bool"):
        E.step(s, bad, mask=mask[:2])
