"""20th Century's batched engine: its verbs on the shared front. Game i of a batch is the reference game seeded
seed + i; bad seeds, actions and masks are refused with the state unchanged (or penalized); reset, batch surgery,
the round trip through reference games, resample (what the seat sees kept), the State's declaration, and the
kernel run uncompiled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from industry_env.games.twentieth_century import engine as E
from industry_env.games.twentieth_century import kernel_layout as KL
from industry_env.games.twentieth_century.reference import Game
from industry_env.games.twentieth_century.state import BATCH_FIELDS

pytest.importorskip("numba")


def _played(batch: int, decisions: int, seed: int = 3, **options) -> tuple[E.State, list[Game]]:
    """A batch (3, 4 and 5 players mixed) and its reference games after ``decisions`` random legal moves."""
    n = np.array([3 + i % 3 for i in range(batch)])
    state = E.init(batch, n, seed=seed, **options)
    games = [Game(int(n[i]), seed=seed + i, **options) for i in range(batch)]
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        acts = np.zeros(batch, np.int64)
        for i, g in enumerate(games):
            if not g.is_over:
                legal = g.legal_actions()
                acts[i] = legal[rng.integers(len(legal))]
                g.apply(int(acts[i]))
        state = E.step(state, acts)
    return state, games


def _same(a: E.State, b: E.State) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in a.SCHEMA.names)


def _partition(labels: np.ndarray) -> list[int]:
    """Each node's network named by its first node: equal for two labellings of the same networks."""
    first: dict[int, int] = {}
    return [first.setdefault(int(x), k) for k, x in enumerate(labels)]


def test_game_i_of_a_batch_is_the_reference_game_with_seed_plus_i() -> None:
    state = E.init(4, 5, seed=41, r2="b", r4="none")
    for i in range(4):
        assert E.to_game(state, i).to_json() == Game(5, seed=41 + i, r2="b", r4="none").to_json()


def test_an_illegal_action_is_refused_with_the_state_unchanged() -> None:
    state, _ = _played(3, 10)
    before = state.copy()
    mask = E.legal_action_mask(state)
    bad = np.array([int(np.flatnonzero(~mask[i])[0]) for i in range(3)])
    with pytest.raises(E.IllegalActionError, match="game 0 .*is not legal for seat"):
        E.step(state, bad, inplace=True)
    assert _same(state, before)
    with pytest.raises(E.IllegalActionError, match="not an action of 20th Century"):
        E.step(state, np.array([9999, 0, 0]), inplace=True)
    assert _same(state, before)
    with pytest.raises(E.IllegalActionError, match="integers"):
        E.step(state, np.zeros(3))
    assert _same(state, before)


def test_an_illegal_action_penalized_ends_that_game_only() -> None:
    state, _ = _played(3, 10)
    mask = E.legal_action_mask(state)
    acts = np.array([int(np.flatnonzero(mask[i])[0]) for i in range(3)])
    acts[1] = int(np.flatnonzero(~mask[1])[0])
    fault = int(state.current_player[1])
    out = E.step(state, acts, on_illegal="penalize", penalty=-2.0)
    assert out.terminated.tolist() == [False, True, False]
    want = [2.0] * 4
    want[fault] = -2.0
    assert out.rewards[1, :4].tolist() == want and out.current_player[1] == -1
    assert not E.finished(out)[1]  # ended by the illegal move, not by the rules
    m2 = E.legal_action_mask(out)
    assert not m2[1].any()
    acts2 = np.array([int(np.flatnonzero(m2[0])[0]), 9999, int(np.flatnonzero(m2[2])[0])])
    again = E.step(out, acts2)  # a game already over ignores its action, even one out of range
    assert again.rewards[1].tolist() == [0.0] * 5


def test_a_wrong_mask_or_next_mask_is_refused() -> None:
    state = E.init(2, 3)
    with pytest.raises(ValueError, match="mask must be bool"):
        E.step(state, np.zeros(2, np.int64), mask=np.zeros((2, 5), bool))
    with pytest.raises(ValueError, match="next_mask must be a writable"):
        E.step(state, np.zeros(2, np.int64), next_mask=np.zeros((2, E.NUM_ACTIONS), np.int8))


def test_bad_options_and_seats_are_refused_naming_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="3 to 5 players"):
        E.init(2, 6)
    with pytest.raises(ValueError, match="r2='d'"):
        E.init(2, 4, r2="d")
    with pytest.raises(ValueError, match="seed=-1"):
        E.init(2, 4, seed=-1)
    state = E.init(2, 3)
    with pytest.raises(ValueError, match="seat 3 is not a seat of game 0"):
        E.observe(state, 3)


def test_the_masks_a_step_writes_are_the_masks_of_the_new_state() -> None:
    state, _ = _played(6, 20)
    rng = np.random.default_rng(0)
    mask = E.legal_action_mask(state)
    nm = np.zeros_like(mask)
    for _ in range(30):
        state = E.step(state, E.sample_legal(mask, rng), inplace=True, mask=mask, next_mask=nm)
        mask = E.legal_action_mask(state)
        assert np.array_equal(nm, mask)


def test_reset_starts_new_games_in_the_rows_given_and_leaves_the_others() -> None:
    state, _ = _played(3, 15, r2="c", r4="a")
    out = E.reset(state, np.array([False, True, False]), seeds=np.array([0, 77, 0]))
    assert _same(out.take([0, 2]), state.take([0, 2]))
    assert E.to_game(out, 1).to_json() == Game(4, seed=77, r2="c", r4="a").to_json()


def test_take_put_concat_and_copy_keep_every_game() -> None:
    state, _ = _played(4, 12)
    assert _same(E.concat([E.take(state, [0, 1]), E.take(state, [2, 3])]), state)
    swapped = E.put(state, [0, 3], E.take(state, [3, 0]))
    assert E.to_game(swapped, 0).to_json() == E.to_game(state, 3).to_json()
    c = E.copy(state)
    c.coins[0, 0] += 1
    assert c.coins[0, 0] != state.coins[0, 0]


def test_to_game_and_from_games_round_trip() -> None:
    state, games = _played(6, 150)
    for i, g in enumerate(games):
        assert E.to_game(state, i).to_json() == g.to_json()
    back = E.from_games(games)
    for i, g in enumerate(games):
        assert E.to_game(back, i).to_json() == g.to_json()
    assert np.array_equal(E.legal_action_mask(back), E.legal_action_mask(state))
    for i in range(6):  # the rail networks rebuilt from the grids join the same nodes (their labels may differ)
        for p in range(5):
            assert _partition(back.network[i, p]) == _partition(state.network[i, p])
    for seat in range(3):
        assert np.array_equal(E.observe(back, seat), E.observe(state, seat))


def test_resample_redeals_as_the_reference_does_and_keeps_what_the_seat_sees() -> None:
    state, games = _played(6, 60)
    seeds = np.arange(6) + 9
    out = E.resample(state, 1, seeds)
    for i, g in enumerate(games):
        assert E.to_game(out, i).to_json() == g.resample(1, int(seeds[i])).to_json()
    for seat in range(3):
        assert np.array_equal(E.observe(out, seat), E.observe(state, seat))
    assert np.array_equal(E.legal_action_mask(out), E.legal_action_mask(state))
    assert not np.array_equal(out.land_stack, state.land_stack)  # the unseen future did change


def test_scores_and_the_ranking_of_finished_games() -> None:
    state, games = _played(3, 2000)
    assert all(g.is_over for g in games) and E.finished(state).all()
    points, key = E.scores(state), E.ranking(state)
    for i, g in enumerate(games):
        assert points[i, : g.n].tolist() == g.scores()
        best = key[i, : g.n].max()
        assert [p for p in range(g.n) if key[i, p] == best] == g.winners()
        assert (key[i, g.n :] == -1).all()


def test_the_state_is_declared_once_and_its_table_is_in_the_engine_doc() -> None:
    schema = E.state_class(E.load_data()).SCHEMA
    assert schema.names == tuple(f[0] for f in BATCH_FIELDS)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "twentieth-century" / "engine.md").read_text("utf-8")
    assert schema.markdown() in doc and f"{schema.bytes_per_game} bytes a game" in doc


def test_the_tables_hold_the_geometrys_relations_for_every_tile_and_rotation() -> None:
    """The precomputed reach of each city and building agrees with geometry.reaches, at every rotation and bridge."""
    from industry_env.games.twentieth_century.geometry import Placed, reaches

    data = E.load_data()
    t, _ = KL.tables(data)
    for code in range(len(data.land)):
        tile = data.tile(code)
        for rot in range(4):
            for b in range(-1, len(tile.bridges)):
                q = KL.combo(code, rot, b)
                for j in range(len(tile.cities)):
                    for s in range(4):
                        assert t[t[KL.X_REACH] + q * 16 + j * 4 + s] == reaches(Placed(tile, rot, b), j, s)


UNCOMPILED = """
import warnings; warnings.simplefilter("ignore", RuntimeWarning)  # uint64 hashing overflows on purpose
import numpy as np
from industry_env.core import uncompiled
from industry_env.games.twentieth_century import engine as E, kernel, kernel_nation
from industry_env.games.twentieth_century.reference import Game
assert uncompiled.DISABLED and not hasattr(kernel.mask_row, "_cache")
assert not hasattr(kernel_nation.production, "_cache")
rng = np.random.default_rng(0)
for n in (3, 4, 5):
    state, game = E.init(1, n, seed=n, r2="a", r4="b"), Game(n, seed=n, r2="a", r4="b")
    for _ in range(80):
        assert np.array_equal(E.legal_action_mask(state)[0], game.legal_action_mask())
        assert all(np.array_equal(E.observe(state, k)[0], game.observe(k)) for k in range(n))
        legal = game.legal_actions()
        a = legal[int(rng.integers(len(legal)))]
        game.apply(a)
        state = E.step(state, np.array([a]))
    assert E.to_game(state, 0).to_json() == game.to_json()
print("agree")
"""


def test_the_kernel_runs_uncompiled_and_plays_the_reference_games() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", UNCOMPILED], capture_output=True, text=True, timeout=900, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "agree", out.stderr[-3000:]


def test_a_nation_far_wider_than_nine_cells_plays_alike_in_both_engines() -> None:
    """Ruling 18: no bound on a nation. Seat 0 takes every tile it can and lines them up east (a game a person can
    play by hand); the batched engine offers the same moves at every decision, ends in the same position, and
    observes the long nation's cells as the reference does."""
    from .helpers import greedy_line_game

    final, played = greedy_line_game()
    game = Game(3, seed=0)
    state = E.init(1, 3, seed=0)
    for a in played:
        assert np.flatnonzero(E.legal_action_mask(state)[0]).tolist() == game.legal_actions()
        game.apply(a)
        state = E.step(state, np.array([a]))
    assert E.ENGINE.to_game(state, 0).to_json() == final.to_json()
    assert max(final.grid_x[0]) > 15
    np.testing.assert_array_equal(E.observe(state, 0)[0], final.observe(0))
