"""The arena: seats rotated exactly, same seed same table, legal play only, winners as the rules say, the 95%
intervals, clear errors on bad input, and the command writes its three files."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest

from industry_env import agents as agents_module
from industry_env.arena import Arena, ArenaError, ArenaResults, outcome, wilson_interval
from industry_env.cli import main
from industry_env.games.industry import chance, engine
from industry_env.games.industry import observation as O
from industry_env.games.industry.actions import NUM_ACTIONS


# ---------------------------------------------------------------------------------------------- test doubles
class RandomDouble:
    """Uniform over the legal actions; checks what the arena hands it (the agent interface's shapes)."""

    name = "rand"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        B = len(observations)
        assert observations.dtype == np.float32 and observations.shape == (B, O.OBS_DIM)
        assert action_masks.dtype == bool and action_masks.shape == (B, NUM_ACTIONS)
        assert action_masks.any(axis=1).all()
        # seen from the seat to move: relative seat 0 is the one to move
        assert (O.views(observations)["to_move"][:, 0] == 1).all()
        self.calls += 1
        return engine.sample_legal(action_masks, self.rng)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(observation[None], action_mask[None])[0])


class FirstLegal:
    """The lowest legal action: deterministic, so a game can be replayed outside the arena."""

    name = "first"

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return action_masks.argmax(axis=1)


class LastLegal:
    """The highest legal action."""

    name = "last"

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return NUM_ACTIONS - 1 - action_masks[:, ::-1].argmax(axis=1)


class FirstLegalOneByOne:
    """FirstLegal through the one-game method only (no act_batch)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.argmax(action_mask))


class Cheater:
    """Always action 0 (an auction of field 0), illegal in most decisions."""

    name = "cheater"

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.zeros(len(observations), np.int64)


@pytest.fixture
def named_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents by name: the project's ``make_agent`` when it exists, else a stand-in with the same interface."""
    if hasattr(agents_module, "make_agent"):
        return

    def make_agent(name: str, seed: int | None = None, **params):
        if name != "random":
            raise ValueError(f"unknown agent {name!r}")
        return RandomDouble(seed)

    monkeypatch.setattr(agents_module, "make_agent", make_agent, raising=False)
    monkeypatch.setattr(agents_module, "AGENTS", ("random",), raising=False)


# ---------------------------------------------------------------------------------------------- seats
@pytest.mark.parametrize("n", [3, 4])
def test_every_agent_plays_every_position_equally_often_on_the_same_deals(n: int) -> None:
    games = 6 * n
    r = Arena([FirstLegal(), *[RandomDouble(k) for k in range(n - 1)]], num_players=n, games=games, seed=3).run()
    assert r.games == games
    for j in range(n):
        assert np.bincount(r.position[:, j], minlength=n).tolist() == [games // n] * n
    assert (np.sort(r.position, axis=1) == np.arange(n)).all()  # one agent per position in every game
    # positions count from the first Starting Player, which the engine draws from the game's seed
    assert (r.starting_player == chance.starting_player(r.game_seed, n)).all()
    assert (r.seat == (r.starting_player[:, None] + r.position) % n).all()
    # a deal (one engine seed) is played once in each rotation
    deals = r.game_seed.reshape(-1, n)
    assert (deals == deals[:, :1]).all() and len(set(deals[:, 0].tolist())) == games // n
    assert (r.seating.reshape(-1, n) == np.arange(n)).all()
    assert sorted(map(tuple, r.seatings.tolist())) == [tuple((j + k) % n for j in range(n)) for k in range(n)]


def test_all_orders_also_balance_who_sits_next_to_whom() -> None:
    n = 3
    r = Arena([FirstLegal(), LastLegal(), RandomDouble(0)], num_players=n, games=12, seed=0, all_orders=True).run()
    assert r.games == 12 and len(r.seatings) == 6
    left = np.zeros((n, n), int)  # left[i, j]: games in which entry j sits just after entry i, clockwise
    for pos in r.position:
        at = np.argsort(pos)  # entry at each position
        for k in range(n):
            left[at[k], at[(k + 1) % n]] += 1
    assert (left[~np.eye(n, dtype=bool)] == 6).all()  # with rotations only, each entry always has the same left
    for j in range(n):
        assert np.bincount(r.position[:, j], minlength=n).tolist() == [4] * n


def test_games_are_rounded_up_to_whole_rotations() -> None:
    with pytest.warns(UserWarning, match="rounded up to 8"):
        arena = Arena([FirstLegal(), LastLegal(), LastLegal(), LastLegal()], games=5)
    assert (arena.games, arena.games_requested) == (8, 5)
    r = arena.run()
    assert r.games == 8 and "5 games asked" in str(r)


def test_the_arena_seats_each_agent_where_it_says() -> None:
    """Replayed outside the arena with the recorded seats, every game ends with the recorded points and winners."""
    n = 4
    r = Arena([LastLegal(), FirstLegal(), FirstLegal(), FirstLegal()], num_players=n, games=8, seed=1).run()
    state = engine.init(r.games, num_players=n, seed=r.game_seed)
    last_seat = r.seat[:, 0]
    while not state.terminated.all():
        mask = engine.legal_action_mask(state)
        first = mask.argmax(axis=1)
        last = NUM_ACTIONS - 1 - mask[:, ::-1].argmax(axis=1)
        state = engine.step(state, np.where(state.current_player == last_seat, last, first))
    seat_points = engine.scores(state)[:, :n]
    rows = np.arange(r.games)[:, None]
    assert (r.points == seat_points[rows, r.seat]).all()
    for g in range(r.games):
        winners = engine.to_game(state, g).winners()
        assert sorted(r.seat[g, np.flatnonzero(r.win_share[g])].tolist()) == winners


# ---------------------------------------------------------------------------------------------- determinism
def _without_timing(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "ms_per_move"} for row in rows]


def test_same_seed_same_results_and_another_seed_other_games() -> None:
    def play(seed: int) -> ArenaResults:
        return Arena([FirstLegal(), RandomDouble(1), RandomDouble(2)], num_players=3, games=12, seed=seed).run()

    a, b, c = play(5), play(5), play(6)
    assert _without_timing(a.table()) == _without_timing(b.table())
    assert a.seat_effects() == b.seat_effects()
    for name in ("points", "rank", "win_share", "seat", "game_seed", "seating"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert not np.array_equal(a.game_seed, c.game_seed)


def test_small_batches_play_the_same_games() -> None:
    """Played 5 games at a time (several batches, games ending at different steps), deterministic agents give the
    same games as in one batch: the bookkeeping of which game is which holds across batches."""
    agents = [FirstLegal(), LastLegal(), LastLegal(), FirstLegal()]
    one = Arena(agents, games=12, seed=7).run()
    many = Arena(agents, games=12, seed=7, batch_size=5).run()
    for name in ("points", "rank", "win_share", "seat", "position", "starting_player", "moves"):
        assert np.array_equal(getattr(one, name), getattr(many, name))
    assert len(set(one.points[:, 0].tolist())) > 1  # the games differ from one another


def test_agents_by_name_get_seeds_from_the_arena_seed(named_agents: None) -> None:
    a = Arena(["random"] * 4, games=4, seed=2).run()
    b = Arena(["random"] * 4, games=4, seed=2).run()
    assert a.labels == ["random#1", "random#2", "random#3", "random#4"]
    assert np.array_equal(a.points, b.points)


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A plain-function policy, for the ``module:callable`` names."""
    return int(np.argmax(action_mask))


def test_a_users_policy_plugs_in_by_module_and_name(named_agents: None) -> None:
    if not hasattr(agents_module, "CallableAgent"):
        pytest.skip("industry_env.agents has no module:callable names yet")
    a = Arena([FirstLegal(), LastLegal(), LastLegal()], num_players=3, games=3, seed=4).run()
    b = Arena([f"{__name__}:first_legal", LastLegal(), LastLegal()], num_players=3, games=3, seed=4).run()
    assert b.labels[0] == f"{__name__}:first_legal" and np.array_equal(a.points, b.points)
    c = Arena([FirstLegal(), LastLegal(), FirstLegal()], num_players=3, games=3, seed=4).run()
    d = Arena([FirstLegal(), LastLegal(), first_legal], num_players=3, games=3, seed=4).run()  # a plain function
    assert np.array_equal(c.points, d.points) and not np.array_equal(a.points, c.points)


def test_one_game_agents_play_as_their_batched_twin() -> None:
    a = Arena([FirstLegal(), LastLegal(), LastLegal()], num_players=3, games=6, seed=4).run()
    b = Arena([FirstLegalOneByOne(), LastLegal(), LastLegal()], num_players=3, games=6, seed=4).run()
    assert np.array_equal(a.points, b.points) and np.array_equal(a.moves, b.moves)


# ---------------------------------------------------------------------------------------------- legality
def test_an_illegal_action_stops_the_arena_naming_the_agent() -> None:
    with pytest.raises(ArenaError, match=r"agent 2 \(cheater\) chose illegal action 0"):
        Arena([FirstLegal(), FirstLegal(), Cheater()], num_players=3, games=3).run()


@pytest.mark.parametrize("name", ["random", "heuristic", "heuristic-v0"])
def test_each_project_agent_plays_only_legal_actions(name: str) -> None:
    if name not in getattr(agents_module, "AGENTS", ()):
        pytest.skip(f"industry_env.agents has no agent {name!r} yet")
    r = Arena([name, "random", "random"], num_players=3, games=3, seed=0).run()  # the arena checks every action
    assert r.games == 3 and (r.moves > 0).all()


# ---------------------------------------------------------------------------------------------- accounting
def _finished_random_games(n: int, count: int, seed: int) -> engine.State:
    state = engine.init(count, num_players=n, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.terminated.all():
        state = engine.step(state, engine.sample_legal(engine.legal_action_mask(state), rng))
    return state


@pytest.mark.parametrize("n", [3, 4])
def test_winners_and_ranks_follow_the_reference_rules(n: int) -> None:
    state = _finished_random_games(n, 12, seed=10 * n)
    points, rank, share = outcome(state)
    for i in range(state.batch_size):
        game = engine.to_game(state, i)
        winners = game.winners()
        assert points[i].tolist() == game.scores()
        assert np.flatnonzero(share[i]).tolist() == winners
        assert np.allclose(share[i][winners], 1 / len(winners))
        assert sorted(np.flatnonzero(rank[i] == rank[i].min()).tolist()) == winners
        assert math.isclose(rank[i].sum(), n * (n + 1) / 2)


def _tied(state: engine.State, points: list[int], money: list[int]) -> engine.State:
    """Finished games with no developed field (no Property token stays), so the score is the track + money // 3."""
    s = engine.copy(state)
    s.developed[:] = False
    s.jokers[:] = 0
    s.subsidy[:] = False
    s.points[:, : len(points)] = points
    s.money[:, : len(money)] = money
    return s


def test_ties_share_the_win_and_the_mean_rank() -> None:
    state = _finished_random_games(4, 2, seed=1)
    # players 0 and 1 tie on points, tokens and money; 2 has as many points but less money; 3 trails
    s = _tied(state, [10, 10, 11, 3], [5, 5, 2, 0])
    points, rank, share = outcome(s)
    assert points[0].tolist() == [11, 11, 11, 3]
    assert share[0].tolist() == [0.5, 0.5, 0.0, 0.0]
    assert rank[0].tolist() == [1.5, 1.5, 3.0, 4.0]
    assert engine.to_game(s, 0).winners() == [0, 1]
    s = _tied(state, [7, 7, 7, 7], [1, 1, 1, 1])  # everyone ties
    _, rank, share = outcome(s)
    assert share[0].tolist() == [0.25] * 4 and rank[0].tolist() == [2.5] * 4
    assert engine.to_game(s, 0).winners() == [0, 1, 2, 3]


def test_the_table_adds_up() -> None:
    r = Arena([FirstLegal(), RandomDouble(1), RandomDouble(2), RandomDouble(3)], games=16, seed=0).run()
    t = r.table()
    assert math.isclose(sum(row["wins"] for row in t), r.games)
    assert math.isclose(sum(row["win_rate"] for row in t), 1.0)
    assert math.isclose(sum(row["mean_rank"] for row in t), 10.0)
    for row in t:
        assert (row["win_ci_low"], row["win_ci_high"]) == wilson_interval(row["wins"], r.games)
        assert row["win_ci_low"] <= row["win_rate"] <= row["win_ci_high"]
        assert row["moves"] > 0 and row["ms_per_move"] >= 0
    # the first-legal player beats three random ones (it wins nearly every game), and is rated above them
    assert t[0]["win_rate"] > 0.8 and t[0]["mu"] > max(row["mu"] for row in t[1:])
    assert t[0]["ordinal"] == pytest.approx(t[0]["mu"] - 3 * t[0]["sigma"])
    overall = [e for e in r.seat_effects() if e["agent"] == "all"]
    assert math.isclose(sum(e["win_rate"] for e in overall), 1.0)


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(8, 10)  # the textbook case: 8 of 10, 95%: 0.490 to 0.943
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson_interval(50, 100)
    assert math.isclose(lo + hi, 1.0) and round(lo, 4) == 0.4038
    assert wilson_interval(0, 0) == (0.0, 1.0)


# ---------------------------------------------------------------------------------------------- bad input
def test_bad_arena_input_is_refused_clearly(named_agents: None) -> None:
    with pytest.raises(ArenaError, match="4 players need 4 agents"):
        Arena([FirstLegal(), FirstLegal()], num_players=4)
    with pytest.raises(ArenaError, match="played by 3 or 4"):
        Arena([FirstLegal(), FirstLegal()])  # the player count is the number of agents
    with pytest.raises(ArenaError, match="played by 3 or 4"):
        Arena([FirstLegal()] * 5, num_players=5)
    with pytest.raises(ArenaError, match="at most 1,000,000 games"):
        Arena([FirstLegal()] * 4, games=10**12)
    with pytest.raises(ArenaError, match="nosuch: not an option of Industry"):
        Arena([FirstLegal()] * 4, nosuch=1)
    with pytest.raises(ArenaError, match="'chess': not a game"):
        Arena([FirstLegal()] * 4, game="chess")
    for games in (0, -3, 2.5):
        with pytest.raises(ArenaError, match="games="):
            Arena([FirstLegal()] * 4, games=games)
    with pytest.raises(ArenaError, match="seed="):
        Arena([FirstLegal()] * 4, seed=-1)
    with pytest.raises(ArenaError, match="agent 1 'no-such-agent'"):
        Arena(["random", "no-such-agent", "random"], num_players=3, games=3)
    with pytest.raises(ArenaError, match="agent 0: 42 is neither a name nor an agent"):
        Arena([42, FirstLegal(), FirstLegal()], num_players=3, games=3)


def test_the_command_refuses_bad_input_with_exit_2(named_agents: None, tmp_path, capsys) -> None:
    out = str(tmp_path / "out")
    assert main(["arena", "--agents", "random,nope,random,random", "--output-dir", out]) == 2
    assert "'nope'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # refused before anything was written
    assert main(["arena", "--agents", "random,random", "--output-dir", out]) == 2
    assert "num_players=2: Industry is played by 3 or 4" in capsys.readouterr().err
    assert main(["arena", "--agents", "random,random,random", "--players", "4", "--output-dir", out]) == 2
    assert "3 agents for --players 4" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["arena", "--agents", "random,random,random", "--games", "0"])
    assert exc.value.code == 2 and "must be above 0" in capsys.readouterr().err
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert main(["arena", "--agents", "random,random,random", "--output-dir", str(a_file)]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_the_command_writes_json_csv_and_png(named_agents: None, tmp_path, capsys) -> None:
    out = tmp_path / "results"
    argv = ["arena", "--agents", "random,random,random", "--games", "4", "--seed", "1", "--output-dir", str(out),
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "rounded up to 6" in text and "win rate [95% CI]" in text
    doc = json.loads((out / "arena.json").read_text())
    assert doc["arena"]["games"] == 6 and len(doc["table"]) == 3 and len(doc["per_game"]["points"]) == 6
    lines = (out / "arena.csv").read_text().splitlines()
    assert lines[0].startswith("agent,games,wins") and len(lines) == 4
    assert (out / "arena.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_plot_shows_a_sweep_without_negative_error_bars(tmp_path) -> None:
    r = Arena([FirstLegal(), LastLegal(), LastLegal(), LastLegal()], games=4).run()
    assert r.win_share.sum(axis=0).tolist() == [4, 0, 0, 0]  # win rates of exactly 1 and 0
    fig = r.plot(tmp_path / "sweep.png")
    assert len(fig.axes) == 2 and (tmp_path / "sweep.png").stat().st_size > 0


def test_the_progress_bar_is_optional(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a terminal: tqdm's bar
    r = Arena([FirstLegal(), LastLegal(), LastLegal()], num_players=3, games=3, progress=True).run()
    assert "3/3" in capsys.readouterr().err  # tqdm counted every game
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # as if tqdm were not installed
    again = Arena([FirstLegal(), LastLegal(), LastLegal()], num_players=3, games=3, progress=True).run()
    assert capsys.readouterr().err == "" and np.array_equal(r.points, again.points)


def test_an_output_file_that_is_a_folder_is_refused_before_any_game(named_agents: None, tmp_path, capsys,
                                                                     monkeypatch) -> None:  # fmt: skip
    out = tmp_path / "out"
    (out / "arena.json").mkdir(parents=True)
    played = []
    monkeypatch.setattr(Arena, "run", lambda self: played.append(1))
    assert main(["arena", "--agents", "random,random,random", "--output-dir", str(out), "--no-plot"]) == 2
    assert "arena.json: is a folder" in capsys.readouterr().err and not played


def test_the_arena_runs_without_openskill_and_says_which_extra_rates(named_agents: None, tmp_path, capsys,
                                                                      monkeypatch) -> None:  # fmt: skip
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    out = tmp_path / "out"
    argv = ["arena", "--agents", "random,random,random", "--games", "3", "--output-dir", str(out), "--no-plot",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "pip install 'industry_env[arena]'" in text and "mu" not in json.loads((out / "arena.json").read_text(
        ))["table"][0]  # fmt: skip


def test_the_api_takes_the_player_count_from_the_agents_as_the_command_does() -> None:
    r = Arena([FirstLegal(), LastLegal(), LastLegal()], games=3).run()
    assert r.num_players == 3 and r.game == "industry" and r.options == {"balanced_draws": True}
    plain = Arena([FirstLegal(), LastLegal(), LastLegal()], games=3, balanced_draws=False).run()
    assert plain.options == {"balanced_draws": False} and not plain.balanced_draws


def test_each_game_writes_to_its_own_default_folder_and_its_plot_names_it(tmp_path, monkeypatch, capsys) -> None:
    """Both games wrote to one arena-results/ folder and the plot's title did not name the game."""
    monkeypatch.chdir(tmp_path)
    for game in ("industry", "age_of_industry"):
        assert main(["arena", "--game", game, "--agents", "random,random,random", "--games", "3", "--no-plot",
                     "--no-progress"]) == 0  # fmt: skip
        assert (tmp_path / "arena-results" / game / "arena.json").is_file()
        assert json.loads((tmp_path / "arena-results" / game / "arena.json").read_text())["arena"]["game"] == game
    assert not (tmp_path / "arena-results" / "arena.json").exists()
    r = Arena(["random"] * 3, games=3, game="age_of_industry", map="new_england").run()
    title = r.plot().axes[0].get_title()
    assert title.startswith("Age of Industry (map new_england): 3 games"), title


def test_the_progress_shows_no_estimate_before_a_game_ends(capsys, monkeypatch) -> None:
    """The arena sat at 0% with an ETA of 33:05:17 while it compiled and while the first batch played (the compile
    is now a step before the bar, said only when something compiles: tests/test_verify_warm_up.py)."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a terminal: tqdm's bar
    Arena([FirstLegal(), LastLegal(), LastLegal()], num_players=3, games=6, batch_size=3, progress=True).run()
    err = capsys.readouterr().err.replace("\r", "\n")
    frames = [line for line in err.splitlines() if "arena (Industry)" in line]
    before = [f for f in frames if " 0/6 games" in f]
    assert before and all("<?" in f for f in before)  # no estimate until a game has ended
    assert "6/6 games" in frames[-1]


def test_an_agent_object_of_another_map_is_refused_naming_the_agent_and_both_maps() -> None:
    """An arena on New England with an agent object made for Germany stopped at the first move with
    'observations must have shape [B, 2262], got [1, 2108]', naming neither the agent nor the maps."""
    from industry_env.agents import Agent, make_agent

    germany = make_agent("heuristic", game="age_of_industry", map="germany")
    with pytest.raises(ArenaError, match="agent 1 'heuristic'.*map = 'germany'.*not map = 'new_england'"):
        Arena(["random", germany, "random"], games=3, game="age_of_industry", map="new_england")

    class Fixed(Agent):  # says nothing of its map, reads Germany's observation size all the same
        name, game = "fixed", "age_of_industry"
        observation_size = 2262

        def _choose(self, observations, masks):
            return masks.argmax(axis=1)

    with pytest.raises(ArenaError, match=r"agent 2 \(fixed\).*map new_england.*2108 floats.*\[B, 2262\]"):
        Arena(["random", "random", Fixed()], games=3, game="age_of_industry", map="new_england").run()


def test_where_stderr_is_not_a_terminal_the_progress_is_whole_lines(capsys) -> None:
    """Piped into a log, tqdm's bar redrawn with \\r ran into one long line."""
    Arena([FirstLegal(), LastLegal(), LastLegal()], num_players=3, games=12, batch_size=3, progress=True).run()
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = [line for line in err.splitlines() if line.startswith("arena (Industry): ")]
    assert [line.split(",")[0] for line in lines] == [f"arena (Industry): {k}/12 games" for k in (3, 6, 9, 12)]
