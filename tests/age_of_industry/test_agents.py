"""The agents of Age of Industry: legal moves only, seeded, the heuristic clearly above random, the search player
blind to the cards it cannot see, positions rebuilt from observations exactly, bad parameters refused."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import AgentInputError, make_agent

from industry_env.arena import Arena
from industry_env.games.age_of_industry import Game
from industry_env.games.age_of_industry import engine as E
from industry_env.games.age_of_industry.from_observation import from_observation, game_from_observation

GAME = "age_of_industry"
QUICK = {"simulations": 8, "batch": 4, "candidates": 3, "rollout_depth": 6}  # a small search, for speed


def _random_positions(n: int, num_players: int, seed: int, steps: int, game_map: str = "germany") -> E.State:
    """``n`` running games after up to ``steps`` random decisions each (finished games dropped)."""
    s = E.init(n, num_players, seed=seed, map=game_map)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        s, _ = E.random_step(s, rng, inplace=True)
    return E.take(s, np.flatnonzero(~s.terminated))


@pytest.mark.parametrize(("game_map", "num_players"), [("germany", 4), ("germany", 3), ("new_england", 5)])
def test_from_observation_rebuilds_what_the_seat_sees_and_its_legal_moves(game_map: str, num_players: int) -> None:
    s = E.init(24, num_players, seed=3, map=game_map)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(40):
        live = np.flatnonzero(~s.terminated)
        sub = E.take(s, live)
        obs = E.observe(sub)
        rebuilt = from_observation(obs, game_map)
        np.testing.assert_array_equal(E.observe(rebuilt, 0), obs)
        np.testing.assert_array_equal(E.legal_action_mask(rebuilt), E.legal_action_mask(sub))
        checked += live.size
        for _ in range(3):
            s, _ = E.random_step(s, rng, inplace=True)
    assert checked > 600
    game = game_from_observation(obs[0], game_map)
    assert isinstance(game, Game)
    np.testing.assert_array_equal(game.observe(0), obs[0])


def test_the_searchs_redeal_is_spec_resample_of_the_rebuilt_game() -> None:
    """The search redeals with the batched engine; it is ``spec.resample`` of the rebuilt game, card for card."""
    from industry_env import load_game

    s = _random_positions(3, 4, seed=6, steps=45)
    rebuilt = from_observation(E.observe(s))
    redealt = E.resample(rebuilt, 0, np.array([5, 6, 7]))
    for i in range(3):
        game = load_game(GAME).resample(E.to_game(rebuilt, i), 0, np.random.default_rng([5, 6, 7][i]))
        assert E.to_game(redealt, i).to_json() == game.to_json()


def test_from_observation_refuses_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="observations must be float"):
        from_observation(np.zeros((2, 5), np.float32))


def test_heuristic_plays_only_legal_moves_to_the_end_and_is_seeded() -> None:
    results = Arena(["heuristic"] * 4, game=GAME, games=4, seed=11).run()
    assert results.games == 4 and np.isfinite(results.points).all()
    s = _random_positions(32, 4, seed=2, steps=40)
    obs, mask = E.observe(s), E.legal_action_mask(s)
    a = make_agent("heuristic", seed=7, game=GAME).act_batch(obs, mask)
    b = make_agent("heuristic", seed=7, game=GAME).act_batch(obs, mask)
    np.testing.assert_array_equal(a, b)
    assert mask[np.arange(a.size), a].all()
    one = make_agent("heuristic", seed=7, game=GAME)
    assert [one.act(o, m) for o, m in zip(obs[:4], mask[:4], strict=True)] == a[:4].tolist()


def test_agents_read_the_map_from_the_observation_or_are_told_it() -> None:
    results = Arena(["heuristic"] * 3, game=GAME, games=3, seed=1, map="new_england").run()
    assert results.games == 3 and np.isfinite(results.points).all()
    s = _random_positions(4, 3, seed=1, steps=30, game_map="new_england")
    mask = E.legal_action_mask(s)
    a = make_agent("ismcts", seed=2, game=GAME, **QUICK).act_batch(E.observe(s), mask)
    assert mask[np.arange(a.size), a].all()
    with pytest.raises(AgentInputError, match="shape"):
        make_agent("heuristic", game=GAME, map="germany").act_batch(E.observe(s), E.legal_action_mask(s))
    with pytest.raises(AgentInputError, match="width 7 belong to no map"):
        make_agent("heuristic", game=GAME).act_batch(np.zeros((1, 7), np.float32), np.ones((1, 3), bool))


def test_heuristic_beats_three_random_players_clearly() -> None:
    results = Arena(["heuristic", "random", "random", "random"], game=GAME, games=40, seed=5).run()
    wins = results.win_share[:, 0].sum()
    assert wins >= 30, f"the heuristic won {wins} of 40 games against three random players"
    assert results.points[:, 0].mean() > results.points[:, 1:].mean() + 20


def test_ismcts_plays_legal_moves_and_is_seeded() -> None:
    s = _random_positions(6, 4, seed=4, steps=50)
    obs, mask = E.observe(s), E.legal_action_mask(s)
    a = make_agent("ismcts", seed=3, game=GAME, **QUICK).act_batch(obs, mask)
    b = make_agent("ismcts", seed=3, game=GAME, **QUICK).act_batch(obs, mask)
    np.testing.assert_array_equal(a, b)
    assert mask[np.arange(a.size), a].all()


def test_ismcts_cannot_see_the_hidden_cards() -> None:
    """Given the same random stream, its choice is the same whatever the opponents' true hands and the deck are:
    the true game and a redeal of what the seat cannot see give the very same observation, and so the same move."""
    rng = np.random.default_rng(8)
    searched = 0
    for seed in range(4):
        game = Game(4, seed=seed)
        for _ in range(40 + 7 * seed):
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
        seat = game.current_player
        other = game.resample(seat, rng=100 + seed)
        others = [q for q in range(4) if q != seat]
        assert any(game.s.hand[q] != other.s.hand[q] for q in others) or game.s.deck != other.s.deck
        obs = game.observe(seat)
        np.testing.assert_array_equal(obs, other.observe(seat))
        mask = game.legal_action_mask()
        np.testing.assert_array_equal(mask, other.legal_action_mask())
        a = make_agent("ismcts", seed=21, game=GAME, **QUICK).act(obs, mask)
        b = make_agent("ismcts", seed=21, game=GAME, **QUICK).act(other.observe(seat), other.legal_action_mask())
        assert a == b
        searched += 1
    assert searched == 4


def _depth(node) -> int:
    return 1 + max((_depth(c) for c in node.children.values()), default=0) if node.children else 0


def test_ismcts_searches_the_roots_candidates_unless_its_tree_may_grow() -> None:
    """By default (``tree_depth=1``) the search keeps to the root's candidates, as the first ismcts did; with
    ``tree_depth=None`` the one search grows the tree below them (the decisions it searches: actions and builds)."""
    s = _random_positions(6, 4, seed=4, steps=50)
    obs, mask = E.observe(s), E.legal_action_mask(s)
    deepest = {}
    for depth in (1, None):
        agent = make_agent("ismcts", seed=3, game=GAME, tree_depth=depth, **{**QUICK, "simulations": 24})
        deepest[depth] = 0
        for i in range(s.batch_size):
            agent.act(obs[i], mask[i])
            if agent.last_root is not None:
                deepest[depth] = max(deepest[depth], _depth(agent.last_root))
    assert deepest[1] == 1 and deepest[None] >= 2


def test_agents_refuse_the_state_of_a_hidden_information_game() -> None:
    s = E.init(2, 4, seed=0)
    with pytest.raises(AgentInputError, match="hidden information"):
        make_agent("heuristic", game=GAME).act_state(s)


@pytest.mark.parametrize(
    ("name", "params", "says"),
    [
        ("heuristic", {"sell_hope": 2.0}, "sell_hope=2.0"),
        ("heuristic", {"reserve": -1}, "reserve=-1"),
        ("heuristic", {"draw_below": 12}, "draw_below=12"),
        ("heuristic", {"map": "mars"}, "map='mars'"),
        ("heuristic", {"greed": 1}, "no parameter 'greed'"),
        ("ismcts", {"simulations": 0}, "simulations=0"),
        ("ismcts", {"temperature": 0.0}, "temperature=0.0"),
        ("ismcts", {"candidates": 1.5}, "candidates=1.5"),
        ("ismcts", {"exploration": float("nan")}, "exploration=nan"),
    ],
)
def test_bad_parameters_are_refused_with_a_clear_message(name: str, params: dict, says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        make_agent(name, game=GAME, **params)


def _malformed(obs: np.ndarray, how: str) -> np.ndarray:
    """A copy of ``obs`` made into something no game produces, in one of the ways a user's pipeline does."""
    from industry_env.registry import load_game

    at = {p.name: p.slice for p in load_game(GAME).observation_layout()}
    o = obs.copy()
    if how == "nan_money":
        o[:, at["money"].start] = np.nan
    elif how == "two_hot_phase":
        o[:, at["phase"].start : at["phase"].stop] = 0
        o[:, at["phase"].start : at["phase"].start + 2] = 1
    elif how == "noise":
        o += 0.01 * np.random.default_rng(0).random(o.shape, np.float32)
    elif how == "demand_100":
        o[:, at["demand"].start] = 100
    elif how == "display_minus_3":
        o[:, at["display"].start] = -3
    elif how == "standardised":  # what VecNormalize hands a policy
        o = ((o - o.mean(axis=0)) / (o.std(axis=0) + 1e-8)).astype(np.float32)
    return o


ENTRY = {"nan_money": "'money'", "two_hot_phase": "'phase'", "noise": "'", "demand_100": "'demand'",
         "display_minus_3": "'display'", "standardised": "'"}  # fmt: skip


@pytest.mark.parametrize("agent", ["heuristic", "ismcts", "ppo"])
@pytest.mark.parametrize("how", list(ENTRY))
def test_agents_refuse_malformed_observations_naming_the_entry(agent: str, how: str) -> None:
    """NaN money, a two-hot phase or noise got an answer; demand 100 or a standardised observation a raw
    IndexError; display -3 a message about a saved game entry: each an AgentInputError naming the entry."""
    s = _random_positions(6, 4, seed=11, steps=12)
    obs, mask = E.observe(s), E.legal_action_mask(s)
    a = make_agent(agent, seed=0, game=GAME, **(QUICK if agent == "ismcts" else {}))
    a.act_batch(obs, mask)  # the well-formed observations are answered
    with pytest.raises(AgentInputError, match=f"entry {ENTRY[how]}"):
        a.act_batch(_malformed(obs, how), mask)
    with pytest.raises(AgentInputError, match="observation row"):
        a.act(_malformed(obs, how)[0], mask[0])


def test_every_observation_of_random_games_passes_the_checks() -> None:
    from industry_env.agents.age_of_industry.checks import check_observations

    for game_map, n in (("germany", 3), ("new_england", 5)):
        s = E.init(16, n, seed=5, map=game_map)
        rng = np.random.default_rng(5)
        while not s.terminated.all():
            live = E.take(s, np.flatnonzero(~s.terminated))
            check_observations(E.observe(live), game_map)
            s, _ = E.random_step(s, rng, inplace=True)


def test_the_shipped_policy_is_refused_on_another_map_naming_both() -> None:
    """`arena -o map=new_england --agents ppo,...` stopped with a shape error at the first move: the agent is
    refused when it is made, naming the map it reads and the one asked for."""
    from industry_env.arena import ArenaError

    with pytest.raises(ValueError, match="map = 'germany'.*not map = 'new_england'"):
        make_agent("ppo", game=GAME, options={"map": "new_england", "edition": 2})
    with pytest.raises(ArenaError, match="agent 0 'ppo'.*map = 'germany'.*not map = 'new_england'"):
        Arena(["ppo", "heuristic", "heuristic"], games=3, game=GAME, map="new_england")
    assert make_agent("ppo", game=GAME, options={"map": "germany", "edition": 1}).options == {"map": "germany"}
    # agents that play either map are told the one played
    assert make_agent("heuristic", game=GAME, options={"map": "new_england"}).map == "new_england"
    assert make_agent("heuristic", game=GAME, options={"map": "new_england"}, map=None).map is None


def test_a_policy_file_names_its_game(tmp_path) -> None:
    """Loading an Age of Industry policy as Industry's said 'layers do not chain': it names the game, from the
    file's description (written since) or from the network's sizes (older files and MaskablePPO zips)."""
    from industry_env.agents.ppo import shipped_path

    own = tmp_path / "mine.npz"
    make_agent("ppo", game=GAME).save(own)
    with pytest.raises(AgentInputError, match="a policy of Age of Industry \\(its file says so\\), not of Industry"):
        make_agent(f"ppo:{own}")
    with pytest.raises(AgentInputError, match="a policy of Age of Industry \\(its network reads 2262 floats\\)"):
        make_agent("ppo", path=shipped_path(GAME))
    with pytest.raises(AgentInputError, match="a policy of Industry .*not of Age of Industry"):
        make_agent(f"ppo:{shipped_path('industry')}", game=GAME)
    agent = make_agent(f"ppo:{own}", game=GAME, seed=1)
    assert agent.name == f"ppo:{own}" and agent.options == {"map": "germany"}
    s = _random_positions(4, 4, seed=2, steps=5)
    np.testing.assert_array_equal(
        agent.act_batch(E.observe(s), E.legal_action_mask(s)),
        make_agent("ppo", game=GAME).act_batch(E.observe(s), E.legal_action_mask(s)),
    )
