"""Bad input to the engines is refused with a message naming what is wrong, and nothing changes.

Each test is one hole found by trying the project as a new user would (wrong types, wrong shapes, values beyond
what a game can hold), so that a silent wrong answer cannot come back.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env.games.industry import engine as E
from industry_env.games.industry import numpy_rounds
from industry_env.games.industry.reference import Game, GameStateError
from industry_env.games.industry.rules import MAX_BID


def _same(a: E.State, b: E.State) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True))


# ---------------------------------------------------------------------------------------------- engine.reset
def test_reset_takes_integer_row_indices() -> None:
    s = E.init(8, seed=0)
    r = E.reset(s, np.array([2, 5]))
    changed = np.flatnonzero(r.seed != s.seed).tolist()
    assert changed == [2, 5]


def test_reset_refuses_a_mask_of_the_wrong_length() -> None:
    s = E.init(4, seed=0)
    before = E.copy(s)
    with pytest.raises(ValueError, match=r"done mask of shape \[2\] for a batch of 4"):
        E.reset(s, np.array([True, False]), inplace=True)
    assert _same(s, before)


@pytest.mark.parametrize("done", [np.array([0.0, 1.0, 0.0, 1.0]), np.array([[1, 2]]), np.array([1, 4]), ["a"]])
def test_reset_refuses_what_is_neither_mask_nor_indices(done) -> None:
    s = E.init(4, seed=0)
    before = E.copy(s)
    with pytest.raises(ValueError, match="done"):
        E.reset(s, done, inplace=True)
    assert _same(s, before)


# ---------------------------------------------------------------------------------------------- engine.step
def test_step_refuses_actions_of_the_wrong_shape() -> None:
    s = E.init(4, seed=0)
    before = E.copy(s)
    a = E.sample_legal(E.legal_action_mask(s), np.random.default_rng(0))
    for bad in (a.reshape(2, 2), a[:3], a[0]):
        with pytest.raises(ValueError, match=r"actions of shape .* for a batch of 4"):
            E.step(s, bad, inplace=True)
    assert _same(s, before)


# ---------------------------------------------------------------------------------------------- engine.init
def test_init_blames_seed_plus_i_overflow_not_the_seed() -> None:
    with pytest.raises(ValueError, match=r"seed \+ 3 is beyond 2\*\*63 - 1"):
        E.init(4, seed=2**63 - 2)
    assert E.init(4, seed=2**63 - 4).seed[-1] == 2**63 - 1


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"seed": True}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": -1}, "seed"),
        ({"num_players": 4.0}, "num_players"),
        ({"num_players": "4"}, "num_players"),
        ({"balanced_draws": "no"}, "balanced_draws"),
        ({"balanced_draws": np.array([2, 0])}, "balanced_draws"),
    ],
)
def test_init_refuses_wrong_types(kwargs, word) -> None:
    with pytest.raises(ValueError, match=word):
        E.init(2, **kwargs)


def test_init_refuses_a_batch_size_that_is_not_a_count() -> None:
    for bad in (-1, 2.0, True):
        with pytest.raises(ValueError, match="batch_size"):
            E.init(bad)


# ---------------------------------------------------------------------------------------------- reference Game
@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"seed": True}, "seed"),
        ({"seed": 2.0}, "seed"),
        ({"balanced_draws": "no"}, "balanced_draws"),
        ({"balanced_draws": 1}, "balanced_draws"),
        ({"num_players": 4.0}, "num_players"),
        ({"num_players": True}, "num_players"),
        ({"board": "board.toml"}, "board"),
    ],
)
def test_game_refuses_wrong_types(kwargs, word) -> None:
    with pytest.raises(ValueError, match=word):
        Game(**kwargs)


# ---------------------------------------------------------------------------------------------- saved games
def _doc(**entries) -> str:
    doc = json.loads(Game(4, seed=0).to_json())
    doc.update(entries)
    return json.dumps(doc)


@pytest.mark.parametrize(
    "entries, word",
    [
        ({"money": [MAX_BID + 1, 5, 5, 5]}, "money"),
        ({"money": [10_000, 5, 5, 5]}, "money"),
        ({"points": [999, 0, 0, 0]}, "points"),
        ({"jokers": [[50] + [0] * 11] + [[0] * 12] * 3}, "jokers"),
        ({"jokers": [[4] + [0] * 11, [4] + [0] * 11, [0] * 12, [0] * 12]}, "jokers"),
        ({"round": 17}, "round"),
    ],
)
def test_saved_game_beyond_what_a_game_can_hold_is_refused(entries, word) -> None:
    with pytest.raises(GameStateError, match=f"entry '{word}'"):
        Game.from_json(_doc(**entries))


def test_a_player_holding_all_the_money_of_a_game_can_bid_all_of_it() -> None:
    """The bid cap never binds for any game that loads: money is bounded by MAX_BID."""
    doc = json.loads(_doc())
    bidder = (doc["starting_player"] + 1) % 4
    doc["money"] = [0] * 4
    doc["money"][bidder] = MAX_BID
    g = Game.from_json(json.dumps(doc))
    g.apply(g.legal_actions()[0])  # open an auction
    assert g.current_player == bidder
    assert max(a for a in g.legal_actions() if a < 173) == 60 + MAX_BID  # bid MAX_BID


def test_tie_break_key_orders_tokens_and_money_for_every_loadable_state() -> None:
    """Two players tie on points and tokens: the richer wins, even holding all the money a game can hold."""
    from industry.helpers import position  # positions on the frozen rules board (tests/industry/)

    over = position(4, phase="over", era=4, past_owner=3)
    doc = json.loads(over.to_json())
    doc["points"] = [0, 0, 0, 0]
    doc["developed"] = [False] * 60
    doc["money"] = [108, 110, 0, 0]  # both score 36 points from money; 110 Talers wins the second tie-break
    g = Game.from_json(json.dumps(doc), board=over.board)
    assert g.scores()[0] == g.scores()[1]
    assert g.winners() == [1]
    s = E.from_games([g])
    assert numpy_rounds.returns(s, np.array([0]))[0].tolist() == [-1.0, 1.0, -1.0, -1.0]


# ---------------------------------------------------------------------------------------------- the command
def _run(capsys, *argv: str) -> tuple[int, str]:
    from industry_env.cli import main

    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["verify", "--games", "10", "--chunk", "-5"], "--chunk -5: must be at least 1"),
        (["verify", "--games", "10", "--chunk", "0"], "--chunk 0: must be at least 1"),
        (["verify", "--games", "0"], "--games 0: must be at least 1"),
        (["verify", "--games", "4", "--workers", "0"], "--workers 0: must be at least 1"),
        (["demo", "--games", "0"], "--games 0"),
        (["demo", "--games", "-2"], "--games -2"),
        (["bench", "--quick", "--output", "no/such/folder/bench.json"], "folder no/such/folder does not exist"),
        (["bench", "--quick", "--seconds", "0"], "--seconds 0"),
    ],
)
def test_command_refuses_options_that_would_check_or_play_nothing(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, text = _run(capsys, *argv)
    assert code == 2
    assert message in text and "Traceback" not in text
    assert not list(tmp_path.glob("bench-results*.json"))


def test_demo_honours_the_number_of_players(capsys) -> None:
    code, text = _run(capsys, "demo", "--games", "2", "--players", "3")
    assert code == 0
    assert "2 random games of Industry (3 players)" in text and "256 random 3-player games" in text


def test_verify_that_checked_games_says_ok(capsys) -> None:
    code, text = _run(capsys, "verify", "--games", "4", "--chunk", "2", "--workers", "1")
    assert code == 0 and "OK: checked 4 games" in text


def test_verify_stops_at_once_on_ctrl_c_and_says_how_many_games_it_checked(tmp_path) -> None:
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    import time

    cmd = [sys.executable, "-m", "industry_env", "verify", "--games", "100000", "--chunk", "5", "--workers", "2",
           "--backend", "numpy"]  # fmt: skip
    # a shell that runs the tests in the background leaves SIGINT ignored in its children: give this one Ctrl-C
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
    try:
        first = proc.stdout.readline()  # the backend line
        second = proc.stdout.readline()  # a first chunk checked: the workers are busy with the next ones
        assert "backend" in first and "checked" in second, (first, second)
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        stopped = time.perf_counter() - t0
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the workers too, whatever happened
    assert proc.returncode == 130, err
    assert stopped < 10, f"took {stopped:.1f} s to stop"
    assert "interrupted: checked" in err and "Traceback" not in err


def test_version_and_python_dash_m() -> None:
    import subprocess
    import sys

    from industry_env import __version__

    out = subprocess.run([sys.executable, "-m", "industry_env", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"industry-env {__version__}"


def test_play_answers_a_negative_choice_with_the_range() -> None:
    import io

    from industry_env.cli import build_parser, cmd_play

    args = build_parser().parse_args(["play", "--record", "none", "--players", "3", "--seed", "2"])
    out = io.StringIO()
    cmd_play(args, stdin=io.StringIO("-1\nquit\n"), stdout=out)
    assert "there is no choice [-1]: pick 0 to" in out.getvalue()
