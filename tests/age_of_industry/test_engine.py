"""The batched engine of Age of Industry against the reference engine, and its verbs.

Differential: random games on both maps and both editions, 3, 4 and 5 players mixed in each batch, compared at
every decision (player to move, legal mask, every seat's observation, rewards, scores). Then the step conventions
(illegal actions raised or penalized, finished games left alone, the fast path with masks), reset, batch surgery,
the round trip through reference games, resample, bad input, and the kernel run uncompiled.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from industry_env.games.age_of_industry import Game
from industry_env.games.age_of_industry import engine as E
from industry_env.games.age_of_industry.observation import resample as reference_resample


def _played(batch: int, decisions: int, seed: int = 3, **options) -> tuple[E.State, list[Game]]:
    """A batch and its reference games after ``decisions`` random legal moves (or their end)."""
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


MAPS_AND_EDITIONS = [("germany", 2), ("germany", 1), ("new_england", 2), ("new_england", 1)]


@pytest.mark.parametrize(("game_map", "edition"), MAPS_AND_EDITIONS)
def test_the_engine_plays_the_reference_games_decision_by_decision(game_map, edition):
    decisions = E.check_against_reference(5, (3, 4, 5), seed=100 * edition, map=game_map, edition=edition,
                                          play_seed=edition)  # fmt: skip
    assert decisions > 5 * 100  # games of some hundred decisions each, all compared


@pytest.mark.slow
@pytest.mark.parametrize(("game_map", "edition"), MAPS_AND_EDITIONS)
def test_slow_the_engine_plays_many_reference_games_decision_by_decision(game_map, edition):
    decisions = E.check_against_reference(150, (3, 4, 5), seed=10_000 * edition, map=game_map, edition=edition,
                                          play_seed=edition)  # fmt: skip
    assert decisions > 150 * 100


def test_game_i_of_a_batch_is_the_reference_game_with_seed_plus_i():
    state = E.init(4, 4, seed=41, map="new_england")
    for i in range(4):
        assert E.to_game(state, i).to_json() == Game(4, seed=41 + i, map="new_england").to_json()
    assert state.current_player.tolist() == [Game(4, seed=41 + i, map="new_england").current_player for i in range(4)]


def test_an_illegal_action_is_refused_with_the_state_unchanged_or_penalized():
    state, _ = _played(3, 5)
    mask = E.legal_action_mask(state)
    acts = np.array([np.flatnonzero(m)[0] for m in mask])
    bad = acts.copy()
    bad[1] = np.flatnonzero(~mask[1])[0]
    before = state.backed().copy()
    with pytest.raises(E.IllegalActionError, match="game 1 .*is not legal for seat"):
        E.step(state, bad)
    with pytest.raises(E.IllegalActionError, match="game 1"):
        E.step(state, bad, inplace=True)
    with pytest.raises(E.IllegalActionError, match="not an action"):
        E.step(state, np.array([acts[0], -1, acts[2]]))
    assert np.array_equal(state.backed(), before)
    fault = int(state.current_player[1])
    out = E.step(state, bad, on_illegal="penalize", penalty=-2.0)
    assert np.array_equal(state.backed(), before)  # not in place: the input is untouched
    n = int(state.num_players[1])
    assert out.terminated[1] and not E.finished(out)[1] and out.current_player[1] == -1
    assert out.rewards[1, :n].tolist() == [-2.0 if q == fault else 2.0 for q in range(n)]
    assert not out.rewards[[0, 2]].any() and not out.terminated[[0, 2]].any()
    assert np.array_equal(out.take([0, 2]).backed(), E.step(state, acts).take([0, 2]).backed())
    after = E.step(out, np.zeros(3, np.int64), on_illegal="penalize")  # a finished game ignores its action
    assert not after.rewards[1].any() and np.array_equal(after.hand[1], out.hand[1])
    assert not E.legal_action_mask(after)[1].any()


def test_the_fast_path_with_masks_gives_the_plain_step():
    state, _ = _played(6, 12)
    rng = np.random.default_rng(1)
    for _ in range(40):
        mask = E.legal_action_mask(state)
        acts = E.sample_legal(mask, rng)
        plain = E.step(state, acts)
        next_mask = mask.copy()
        fast = E.step(state, acts, inplace=True, mask=mask, next_mask=next_mask)
        assert fast is state and np.array_equal(fast.backed(), plain.backed())
        assert np.array_equal(next_mask, E.legal_action_mask(plain))


def test_reset_starts_new_games_in_the_rows_given_and_leaves_the_others():
    state, _ = _played(4, 30, map="new_england")
    out = E.reset(state, np.array([False, True, False, True]))
    assert np.array_equal(out.take([0, 2]).backed(), state.take([0, 2]).backed())
    for i in (1, 3):
        want = Game(int(state.num_players[i]), seed=int(state.seed[i]) + 4, map="new_england")
        assert E.to_game(out, i).to_json() == want.to_json()
    mask = np.zeros((4, E.legal_action_mask(state).shape[1]), bool)
    same = E.reset(state, [2], seeds=np.arange(4) + 70, inplace=True, next_mask=mask)
    assert same is state and int(state.seed[2]) == 72
    assert np.array_equal(mask[2], E.legal_action_mask(state)[2]) and not mask[[0, 1, 3]].any()
    with pytest.raises(ValueError, match="out of range"):
        E.reset(state, [7])


def test_take_put_concat_and_copy_keep_every_game():
    state, _ = _played(5, 20)
    parts = [E.take(state, [0, 1]), E.take(state, 2), E.take(state, [3, 4])]
    assert np.array_equal(E.concat(parts).backed(), state.backed())
    swapped = E.put(state, [0], E.take(state, 4))
    assert np.array_equal(swapped.take(0).backed(), state.take(4).backed())
    assert np.array_equal(swapped.take([1, 2, 3, 4]).backed(), state.take([1, 2, 3, 4]).backed())
    c = E.copy(state)
    c.money[0, 0] += 5
    assert c.money[0, 0] != state.money[0, 0]
    with pytest.raises(ValueError, match="different maps"):
        E.concat([state, E.init(1, map="new_england")])


def test_to_game_and_from_games_round_trip():
    state, games = _played(6, 60, edition=1)
    for i, g in enumerate(games):
        assert E.to_game(state, i).to_json() == g.to_json()
    back = E.from_games(games)
    for name in state.SCHEMA.names:
        if name != "rewards":
            assert np.array_equal(getattr(back, name), getattr(state, name)), name
    assert np.array_equal(E.legal_action_mask(back), E.legal_action_mask(state))


def test_resample_redeals_what_the_seat_cannot_see_as_the_reference_does():
    state, games = _played(4, 40)
    seeds = np.arange(4) + 9
    out = E.resample(state, 1, seeds)
    for i, g in enumerate(games):
        want = reference_resample(g, 1, int(seeds[i]))
        assert E.to_game(out, i).to_json() == want.to_json()
    assert np.array_equal(E.observe(out, 1), E.observe(state, 1))
    assert np.array_equal(E.legal_action_mask(out)[state.current_player == 1],
                          E.legal_action_mask(state)[state.current_player == 1])  # fmt: skip


def test_bad_input_is_refused_naming_what_is_wrong():
    with pytest.raises(ValueError, match="num_players"):
        E.init(2, 6)
    with pytest.raises(ValueError, match="edition"):
        E.init(2, 4, edition=3)
    with pytest.raises(ValueError, match="seed"):
        E.init(2, 4, seed=-1)
    with pytest.raises(ValueError, match="map"):
        E.init(2, 4, map=7)
    state = E.init(2, 3)
    with pytest.raises(ValueError, match="seat 3 is not a seat of game 0"):
        E.observe(state, 3)
    with pytest.raises(ValueError, match="shape"):
        E.step(state, np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="on_illegal"):
        E.step(state, np.zeros(2, np.int64), on_illegal="ignore")
    with pytest.raises(E.IllegalActionError, match="integers"):
        E.step(state, np.zeros(2))


UNCOMPILED = """
import warnings; warnings.simplefilter("ignore", RuntimeWarning)  # uint64 hashing overflows on purpose
from industry_env.core import uncompiled
from industry_env.games.age_of_industry import engine as E, kernel, kernel_actions
assert uncompiled.DISABLED and not hasattr(kernel.mover, "_cache") and not hasattr(kernel_actions.deliver, "_cache")
for n, game_map, edition in ((3, "germany", 2), (5, "new_england", 1)):
    E.check_against_reference(1, n, seed=5, map=game_map, edition=edition, max_steps=50)
print("agree")
"""


def test_the_kernel_runs_uncompiled_and_plays_the_reference_games():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", UNCOMPILED], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "agree", out.stderr[-3000:]


def test_the_engine_doc_holds_the_state_table_of_the_germany_map():
    from pathlib import Path

    from industry_env.games.age_of_industry import load_map

    doc = (Path(__file__).resolve().parents[2] / "docs" / "age-of-industry" / "engine.md").read_text("utf-8")
    schema = E.state_class(load_map("germany")).SCHEMA
    assert schema.markdown() in doc and f"{schema.bytes_per_game} bytes a game on Germany" in doc
    assert f"{E.state_class(load_map('new_england')).SCHEMA.bytes_per_game} on New" in doc
