"""The observation layout: named index table, the readable reference twin, and what must not leak."""

from __future__ import annotations

import json

import numpy as np

from industry_env.games.industry import engine as E
from industry_env.games.industry import observation as O
from industry_env.games.industry.reference import Game


def test_layout_is_contiguous_and_documented() -> None:
    offset = 0
    for name, shape in O.LAYOUT:
        sl = O.INDEX[name]
        assert sl.start == offset and sl.stop - sl.start == int(np.prod(shape))
        assert f"{name} " in O.__doc__ and f" {sl.start} " in O.__doc__  # the docstring table lists it
        offset = sl.stop
    assert offset == O.OBS_DIM == 675


def test_views_write_through() -> None:
    obs = np.zeros((2, O.OBS_DIM), np.float32)
    O.views(obs)["money"][1, 2] = 3.0
    assert obs[1, O.INDEX["money"].start + 2] == 3.0


def test_engine_observe_matches_observe_game_for_every_seat() -> None:
    s = E.init(12, num_players=np.array([3, 4] * 6), seed=300)
    rng = np.random.default_rng(3)
    for t in range(400):
        if t % 20 == 0:
            for k in range(4):
                batch = E.observe(s, k % s.num_players.astype(np.int64))
                for i in range(12):
                    n = int(s.num_players[i])
                    if k < n:
                        assert np.array_equal(batch[i], O.observe_game(E.to_game(s, i), k)), (t, i, k)
        s = E.step(s, E.sample_legal(E.legal_action_mask(s), rng))


def test_observer_sits_in_seat_zero() -> None:
    g = Game(4, seed=1)
    doc = json.loads(g.to_json())
    doc["money"] = [11, 22, 33, 44]
    g = Game.from_json(json.dumps(doc))
    for p in range(4):
        v = O.views(O.observe_game(g, p))
        assert v["money"][0] * 10 == [11, 22, 33, 44][p]
        assert v["money"][1] * 10 == [11, 22, 33, 44][(p + 1) % 4]
    s = E.from_games([g])
    assert np.array_equal(E.observe(s, 2)[0], O.observe_game(g, 2))
    assert np.array_equal(E.observe(s)[0], O.observe_game(g, g.current_player))


def test_bag_order_does_not_leak() -> None:
    """Two positions that differ only in the order of the bag look the same to every player."""
    g = Game(4, seed=2)
    doc = json.loads(g.to_json())
    assert len(doc["bag"]) > 1
    doc["bag"] = list(reversed(doc["bag"]))
    h = Game.from_json(json.dumps(doc))
    assert h.s.bag != g.s.bag
    for p in range(4):
        assert np.array_equal(O.observe_game(g, p), O.observe_game(h, p))
    both = E.from_games([g, h])
    assert np.array_equal(E.observe(both, 1)[0], E.observe(both, 1)[1])
    # but the set of tokens in the bag is public
    assert O.views(O.observe_game(g, 0))["in_bag"].sum() == len(g.s.bag)


def test_three_player_game_leaves_seat_three_empty() -> None:
    s = E.init(1, num_players=3, seed=4)
    v = O.views(E.observe(s, 1)[0])
    assert v["seat_present"].tolist() == [1, 1, 1, 0]
    assert v["money"][3] == 0 and not v["owner"][:, 3].any() and not v["jokers"][3].any()
    assert "money" in O.describe(E.observe(s, 1)[0])


def test_compiled_observe_and_player_to_move_equal_the_numpy_ones() -> None:
    """The compiled backend's observe (industry_env.games.industry.observe_kernel) writes exactly numpy's floats."""
    import pytest

    pytest.importorskip("numba")
    from industry_env.games.industry import engine as E

    s = E.init(64, num_players=np.arange(64) % 2 + 3, seed=7)
    rng = np.random.default_rng(0)
    for _ in range(250):
        for player in (None, 0, 2, np.arange(64) % 3):
            with E.use_backend("numpy"):
                want, want_p = E.observe(s, player), s.current_player
            with E.use_backend("numba"):
                got, got_p = E.observe(s, player), s.current_player
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(got_p, want_p)
            assert got_p.dtype == want_p.dtype == np.int8
        s = E.step(s, E.sample_legal(E.legal_action_mask(s), rng))
    for backend in ("numpy", "numba"):
        with E.use_backend(backend):
            for bad in (3, -1, 1.5, np.array([0, 1])):
                with pytest.raises(ValueError):
                    E.observe(s, bad)
