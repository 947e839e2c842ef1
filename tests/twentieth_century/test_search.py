"""20th Century's search player ("ismcts"): the suite's one search with this game's hooks; legal moves to the end
of whole games, seeded, blind to what its seat cannot see, bad parameters refused by name, clearly above random."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import AgentInputError, make_agent
from industry_env.agents.search import SearchAgent
from industry_env.agents.twentieth_century.ismcts import ISMCTSAgent, TwentiethCenturySearch, estimate

from industry_env.arena import Arena
from industry_env.games.twentieth_century import engine as E
from industry_env.games.twentieth_century.reference import Game
from industry_env.registry import load_game

GAME = "twentieth_century"
QUICK = {"simulations": 6, "batch": 3, "candidates": 3, "rollout_depth": 8}  # a small search, for speed
SEARCHED = {"lead", "open", "bid", "tech", "catastrophe", "attach_cell"}


def _search(seed: int = 0, **params: object) -> ISMCTSAgent:
    return make_agent("ismcts", seed=seed, game=GAME, **{**QUICK, **params})


def _positions(count: int, seed: int, searched: bool = True) -> list[Game]:
    """``count`` positions of random 4-player games standing at a decision with several legal moves (one the
    search searches, if ``searched``)."""
    rng = np.random.default_rng(seed)
    out: list[Game] = []
    while len(out) < count:
        game = Game(4, seed=int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(10, 400))):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
        if not game.is_over and len(game.legal_actions()) > 1 and (game.phase in SEARCHED) == searched:
            out.append(game)
    return out


def test_make_agent_builds_the_one_search_with_this_games_hooks() -> None:
    agent = make_agent("ismcts", game=GAME, seed=0)
    assert type(agent) is ISMCTSAgent and isinstance(agent, SearchAgent)
    assert isinstance(agent.search_game, TwentiethCenturySearch) and agent.game == GAME
    assert ISMCTSAgent._simulate is SearchAgent._simulate and ISMCTSAgent._select is SearchAgent._select
    assert "ismcts" in load_game(GAME).agents


@pytest.mark.parametrize("num_players", [3, pytest.param(5, marks=pytest.mark.slow)])  # 5 players: make slow
def test_it_plays_legal_moves_to_the_end_of_whole_games(num_players: int) -> None:
    """Every answer is checked legal by the arena; the games end with a score for every seat."""
    seats = [_search(), "heuristic", "random", "heuristic", "random"][:num_players]
    results = Arena(seats, game=GAME, games=num_players, seed=num_players).run()
    assert results.games == num_players and np.isfinite(results.points).all()


def test_the_same_seed_gives_the_same_moves() -> None:
    games = _positions(6, seed=1)
    obs = np.stack([g.observe(g.current_player) for g in games])
    mask = np.stack([g.legal_action_mask() for g in games])
    a = _search(3).act_batch(obs, mask)
    b = _search(3).act_batch(obs, mask)
    np.testing.assert_array_equal(a, b)
    assert mask[np.arange(a.size), a].all()
    one = _search(3)
    assert [one.act(o, m) for o, m in zip(obs[:1], mask[:1], strict=True)] == a[:1].tolist()


def test_its_move_does_not_depend_on_what_the_seat_cannot_see() -> None:
    """The true game and one with the undealt stacks reordered and the face-down catastrophes redrawn
    (``spec.resample``: another truth, the same observation) get the same move from agents seeded alike."""
    spec = load_game(GAME)
    searched = 0
    for k, game in enumerate(_positions(5, seed=2)):
        seat = game.current_player
        other = spec.resample(game, seat, np.random.default_rng(100 + k))
        assert (other.land_stacks, other.tech_stacks, other.cat_stack) != (
            game.land_stacks,
            game.tech_stacks,
            game.cat_stack,
        )
        np.testing.assert_array_equal(other.observe(seat), game.observe(seat))
        a, b = _search(21), _search(21)
        assert a.act_game(game) == b.act_game(other)
        searched += a.last_root is not None and b.last_root is not None
    assert searched >= 3


def test_the_small_steps_follow_the_heuristic_unsearched() -> None:
    games = _positions(4, seed=3, searched=False)
    agent = _search(4)
    for game in games:
        agent.act_game(game)
        assert agent.last_root is None, game.phase
    assert agent.simulated == 0


def test_the_value_of_a_finished_game_is_its_final_points() -> None:
    s = E.init(2, 3, seed=4)
    rng = np.random.default_rng(4)
    while not s.terminated.all():
        s, _ = E.random_step(s, rng, inplace=True)
    np.testing.assert_array_equal(estimate(E.observe(s, 0), s, _search().params), E.scores(s))
    values = _search().search_game.value(s)
    winners = E.ranking(s) == E.ranking(s).max(axis=1, keepdims=True)
    assert (values[:, :3][winners[:, :3]] >= 0).all() and (values[:, 3:] == 0).all()


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"simulations": 0}, "simulations=0"),
        ({"candidates": 1.5}, "candidates=1.5"),
        ({"temperature": 0.0}, "temperature=0.0"),
        ({"exploration": float("nan")}, "exploration=nan"),
        ({"rollout_depth": -1}, "rollout_depth=-1"),
        ({"opponents": "everyone"}, "opponents='everyone'"),
        ({"greed": 1}, "no parameter 'greed'"),
    ],
)
def test_bad_parameters_are_refused_by_name(params: dict, says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        make_agent("ismcts", game=GAME, **params)


def test_an_observation_no_game_produces_is_refused_by_name() -> None:
    from industry_env.agents.twentieth_century.checks import pieces

    game = _positions(1, seed=5)[0]
    obs = game.observe(game.current_player)
    obs[pieces()["seats"].slice.start] = np.nan
    with pytest.raises(AgentInputError, match="'seats'"):
        _search().act(obs, game.legal_action_mask())


def test_it_beats_random_players_clearly() -> None:
    """Random players would win a quarter of these games; the search wins at least seven of eight."""
    results = Arena([_search(), "random", "random", "random"], game=GAME, games=8, seed=6).run()
    assert results.win_share[:, 0].sum() >= 7
