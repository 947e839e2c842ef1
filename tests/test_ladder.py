"""The ladder: every agent against every other through the arena (its seats, seeds and intervals), one rating for an
agent seated several times, the table written whole, an existing ladder kept, bad input refused before any game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from industry_env.arena import Arena, ArenaError, openskill_ratings
from industry_env.cli import main
from industry_env.ladder import Ladder, playable_agents

AGENTS = ["random", "heuristic", "heuristic-v0"]


@pytest.fixture(scope="module")
def ladder():
    return Ladder(AGENTS, game="industry", games=8, seed=3).run()


def test_every_agent_meets_every_other_in_the_arena_with_its_seeds(ladder) -> None:
    assert sorted(ladder.matches) == [(a, b) for a in range(3) for b in range(3) if a != b]
    # a match is the arena of one agent against three of the other, with the ladder's seed
    alone = Arena(["heuristic", "random", "random", "random"], game="industry", games=8, seed=3).run()
    assert ladder.cell(1, 0) == {**alone.table()[0], "ms_per_move": ladder.cell(1, 0)["ms_per_move"]}
    for (a, b), res in ladder.matches.items():
        assert res.games == 8 and res.labels[0] == AGENTS[a] and res.labels[1].startswith(AGENTS[b])
        np.testing.assert_array_equal(res.game_seed, alone.game_seed)  # every match plays the same deals
    assert ladder.cell(1, 0)["win_rate"] >= 0.75 and ladder.cell(0, 1)["win_rate"] <= 0.25
    assert ladder.mean_win_rate(1) == pytest.approx((ladder.cell(1, 0)["win_rate"] + ladder.cell(1, 2)["win_rate"]) / 2)
    assert ladder.order()[-1] == 0  # the random player rates last


def test_the_ratings_pool_every_game_and_an_agent_in_three_seats_takes_its_seats_mean(ladder) -> None:
    from openskill.models import PlackettLuce

    ranks = np.array([[1.0, 2.0, 3.0, 4.0], [4.0, 1.0, 2.5, 2.5]])
    who = np.array([[0, 1, 1, 1], [1, 0, 0, 0]])
    got = openskill_ratings(ranks, who, 2)
    model = PlackettLuce()
    mu, sigma = [25.0, 25.0], [25 / 3, 25 / 3]
    for r, w in zip(ranks.tolist(), who.tolist(), strict=True):
        new = model.rate([[model.rating(mu=mu[p], sigma=sigma[p])] for p in w], ranks=r)
        for p in (0, 1):
            mine = [t[0] for t, q in zip(new, w, strict=True) if q == p]
            mu[p], sigma[p] = np.mean([x.mu for x in mine]), np.mean([x.sigma for x in mine])
    assert [g["mu"] for g in got] == pytest.approx(mu) and [g["sigma"] for g in got] == pytest.approx(sigma)
    # without ``who`` the arena's ratings are those of entries in fixed seats, as before
    assert openskill_ratings(ranks) == openskill_ratings(ranks, np.tile(np.arange(4), (2, 1)), 4)
    # the ladder's ratings are those of all its matches' games, interleaved: game k of every match, then game k + 1
    ranks, who = ladder.rated_games()
    matches = list(ladder.matches.items())
    for k in (0, 7):
        for m, ((a, b), res) in enumerate(matches):
            np.testing.assert_array_equal(ranks[k * len(matches) + m], res.rank[k])
            assert who[k * len(matches) + m].tolist() == [a, b, b, b]
    assert ladder.ratings == openskill_ratings(ranks, who, 3)


def test_the_table_shows_every_cell_with_its_interval_and_the_json_holds_every_match(ladder) -> None:
    md = ladder.to_markdown()
    c = ladder.cell(1, 0)
    assert f"{100 * c['win_rate']:.1f}% [{100 * c['win_ci_low']:.1f}, {100 * c['win_ci_high']:.1f}]" in md
    rows = [line for line in md.splitlines() if line.startswith("| `")]
    assert [r.split("|")[1].strip() for r in rows] == [f"`{AGENTS[i]}`" for i in ladder.order()]
    doc = ladder.to_dict()
    assert len(doc["matches"]) == 6 and doc["ladder"]["games_per_match"] == 8
    assert doc["table"][0]["agent"] == AGENTS[ladder.order()[0]]


def test_the_command_writes_the_ladder_and_keeps_an_existing_one(tmp_path: Path, capsys) -> None:
    out = tmp_path / "ladder"
    args = ["ladder", "--game", "industry", "--agents", "random,heuristic", "--games", "4", "--seed", "1",
            "--output-dir", str(out), "--no-progress"]  # fmt: skip
    assert main(args) == 0
    doc = json.loads((out / "ladder.json").read_text())
    assert [m["opponent"] for m in doc["matches"]] == ["heuristic", "random"]
    md = (out / "ladder.md").read_text()
    assert "| `heuristic` |" in md and md in capsys.readouterr().out
    assert main(args) == 2  # a ladder is there: kept, the command says how to replace it
    assert "pass --overwrite" in capsys.readouterr().err and (out / "ladder.md").read_text() == md
    assert main([*args, "--overwrite", "--seed", "2"]) == 0
    assert json.loads((out / "ladder.json").read_text())["ladder"]["seed"] == 2


@pytest.mark.parametrize(
    ("agents", "says"),
    [
        (["heuristic"], "at least two"),
        (["random", "random"], "random named twice"),
        (["random", "nobody"], "unknown agent 'nobody'"),
        (["random", ""], "none empty"),
    ],
)
def test_bad_agents_are_refused_before_any_game(agents: list[str], says: str) -> None:
    with pytest.raises(ArenaError, match=says):
        Ladder(agents, game="industry", games=4)


def test_without_agents_the_ladder_plays_those_that_need_no_file_and_says_which_it_left_out(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:  # fmt: skip
    import industry_env.agents.az as az

    monkeypatch.setattr(az, "shipped_network", lambda game: tmp_path / "none.npz")  # as a game that ships none
    names, left = playable_agents("twentieth_century")
    assert {"random", "heuristic", "ismcts"} <= set(names)
    assert set(left) == {"az", "net"} and all("pass path=" in why for why in left.values())
    ladder = Ladder(None, game="twentieth_century", games=4)
    assert ladder.agents == names and ladder.left_out == left
