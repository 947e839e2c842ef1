"""balance.measure: every entry in every seat, figures that agree with the final scoring, bad input refused."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import make_agent

from industry_env.games.age_of_industry.balance import measure


def test_measure_reports_the_final_scoring_of_every_game_and_is_seeded() -> None:
    m = measure(make_agent, ["random", "heuristic", "random"], game_map="new_england", games=4, seed=7)
    assert m.games == 6  # rounded up to a multiple of the 3 rotations
    assert (m.win.sum(axis=1) == 1).all()  # one winner a game
    winner = m.win.argmax(axis=1)
    assert (m.points[np.arange(m.games), winner] == m.points.max(axis=1)).all()
    assert ((0 <= m.unpaid) & (m.unpaid <= m.loans)).all() and (m.rail_income >= 0).all()
    # the points are the final scoring's: money points are never negative, so points >= industries - 5 * unpaid
    assert (m.points >= m.industries - 5 * m.unpaid).all()
    again = measure(make_agent, ["random", "heuristic", "random"], game_map="new_england", games=4, seed=7)
    np.testing.assert_array_equal(m.points, again.points)
    assert "| 1 | heuristic |" in str(m)


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"agents": ["random"] * 2}, "3 to 5 players"),
    ({"game_map": "mars"}, "game_map='mars'"),
    ({"games": 0}, "games=0"),
    ({"seed": -1}, "seed=-1"),
    ({"agent_options": [{}]}, "1 given for 3 agents"),
])  # fmt: skip
def test_measure_refuses_bad_input_naming_it(kwargs: dict, says: str) -> None:
    args = {"agents": ["random"] * 3} | kwargs
    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        measure(make_agent, **args)


def test_run_is_the_balance_command_for_this_game(tmp_path, capsys) -> None:
    """What ``industry-env balance --game age_of_industry`` runs, with the options Industry's balance defines."""
    import argparse
    import json

    from industry_env.games.age_of_industry.balance import run

    out = tmp_path / "aoi.json"
    args = argparse.Namespace(games=3, seed=1, players="3", policies="heuristic", output=str(out), board=None,
                              map="germany", make_agent=make_agent)  # fmt: skip
    assert run(args) == 0
    assert "heuristic in every seat" in capsys.readouterr().out
    tables = json.loads(out.read_text())
    assert [(t["policy"], t["map"], t["players"], t["games"]) for t in tables] == [("heuristic", "germany", 3, 3)]
    bad = argparse.Namespace(**{**vars(args), "players": "2,4"})
    assert run(bad) == 2 and "3 to 5 players" in capsys.readouterr().err
    folder = argparse.Namespace(**{**vars(args), "output": str(tmp_path)})
    assert run(folder) == 2 and "is a folder" in capsys.readouterr().err
