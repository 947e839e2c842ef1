"""20th Century's heuristic player: legal moves only to the end of whole games, seeded, clearly above random, bad
input refused by name, its move blind to what the seat cannot see, and the valuations its docs describe."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import AgentInputError, make_agent
from industry_env.agents.twentieth_century.checks import pieces
from industry_env.agents.twentieth_century.heuristic import HeuristicParams, heuristic_scores

from industry_env.arena import Arena
from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century.geometry import MAX_TILES
from industry_env.games.twentieth_century.reference import Game
from industry_env.registry import load_game

GAME = "twentieth_century"


def _heuristic(seed: int = 0, **params: float):
    return make_agent("heuristic", seed=seed, game=GAME, **params)


def _play(game: Game, agents: list, until: int | None = None) -> Game:
    """Plays ``game`` with one agent a seat (each answer checked legal by ``act_game``), to the end or ``until``
    decisions."""
    k = 0
    while not game.is_over and (until is None or k < until):
        game.apply(agents[game.current_player].act_game(game))
        k += 1
    return game


def _random_position(seed: int, steps: int) -> Game:
    game = Game(4, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def test_make_agent_builds_the_heuristic_of_20th_century() -> None:
    agent = make_agent("heuristic", game=GAME, seed=1)
    assert agent.game == GAME and agent.name == "heuristic"
    assert agent.observation_size == load_game(GAME).observation_size() and agent.num_actions == A.NUM_ACTIONS


@pytest.mark.parametrize(("num_players", "cards"), [(3, "a"), (5, "none")])
def test_heuristics_play_legal_moves_to_the_end_of_whole_games(num_players: int, cards: str) -> None:
    game = _play(Game(num_players, seed=11, r2=cards, r4=cards), [_heuristic(q) for q in range(num_players)])
    assert game.is_over and len(game.returns()) == num_players


def test_the_same_seed_gives_the_same_moves() -> None:
    a = _play(Game(4, seed=5), [_heuristic(7) for _ in range(4)], until=120)
    b = _play(Game(4, seed=5), [_heuristic(7) for _ in range(4)], until=120)
    assert a.to_json() == b.to_json()


def test_the_heuristic_wins_clearly_more_than_random_players() -> None:
    """Random players would win a quarter of these games; the heuristic wins at least three quarters of 24."""
    results = Arena(["heuristic", "random", "random", "random"], game=GAME, games=24, seed=3).run()
    assert results.win_share[:, 0].sum() >= 18


def test_its_move_does_not_depend_on_what_the_seat_cannot_see() -> None:
    """The true game and a redeal of the undealt stacks and face-down catastrophes (``spec.resample``) give the
    same observation, and so the same move from agents seeded alike."""
    spec = load_game(GAME)
    for seed in range(4):
        game = _random_position(seed, 60 + 25 * seed)
        seat = game.current_player
        other = spec.resample(game, seat, np.random.default_rng(100 + seed))
        assert (other.land_stacks, other.tech_stacks) != (game.land_stacks, game.tech_stacks)  # a different truth
        np.testing.assert_array_equal(other.observe(seat), game.observe(seat))
        assert _heuristic(21).act_game(game) == _heuristic(21).act_game(other)


def _observation(seed: int = 2, steps: int = 30) -> tuple[np.ndarray, np.ndarray]:
    game = _random_position(seed, steps)
    return game.observe(game.current_player), game.legal_action_mask()


def _entry(name: str) -> slice:
    return pieces()[name].slice


@pytest.mark.parametrize(
    ("corrupt", "named"),
    [
        (lambda o: o.__setitem__(_entry("seats").start, np.nan), "'seats'"),
        (lambda o: o.__setitem__(_entry("seats").start, -0.1), "'seats'"),
        (lambda o: o.__setitem__(_entry("seats").start, 0.123), "'seats'"),
        (lambda o: o.__setitem__(_entry("phase"), 1.0), "'phase'"),
        (lambda o: o.__setitem__(_entry("unseen").start, 0.5), "'unseen'"),
        (lambda o: o.__setitem__(_entry("to_move"), 0.0), "'to_move'"),
    ],
)
def test_observations_no_game_produces_are_refused_by_name(corrupt, named: str) -> None:
    obs, mask = _observation()
    obs = obs.copy()
    corrupt(obs)
    with pytest.raises(AgentInputError, match=named):
        _heuristic().act(obs, mask)


def test_an_observation_of_the_wrong_width_or_seen_from_another_seat_is_refused() -> None:
    obs, mask = _observation()
    with pytest.raises(AgentInputError, match="shape"):
        _heuristic().act(obs[:-1], mask)
    to_move = _entry("to_move")
    other = obs.copy()
    other[to_move] = 0
    other[to_move.start + 1] = 1
    with pytest.raises(AgentInputError, match="seat to move"):
        _heuristic().act(other, mask)


def test_the_games_observation_check_is_what_every_agent_of_it_calls() -> None:
    """The spec's observation_check (a PPO policy calls it, as Age of Industry's do) refuses what the heuristic
    refuses, and leaves observations of components of one's own (another layout) to the width check."""
    from industry_env.core.spec import import_path

    check = import_path(load_game(GAME).observation_check)
    obs, _ = _observation()
    check(obs[None])
    bad = obs.copy()
    bad[_entry("seats").start] = np.nan
    with pytest.raises(AgentInputError, match="'seats'"):
        check(bad[None], r2="a")
    check(bad[None], data="my_tiles.toml")


def test_bad_parameters_are_refused_by_name() -> None:
    with pytest.raises(AgentInputError, match="cube_cost"):
        _heuristic(cube_cost=-1.0)
    with pytest.raises(AgentInputError, match="coin_value"):
        _heuristic(coin_value=float("nan"))
    with pytest.raises(ValueError, match="greed"):
        make_agent("heuristic", game=GAME, greed=2.0)


# ----------------------------------------------------------------------------- the valuations, one per decision
def _first_position(phase: str, seed: int = 0) -> Game:
    """The first position of a random game (seed ``seed``) that awaits ``phase`` with two legal actions or more."""
    rng = np.random.default_rng(seed)
    for s in range(seed, seed + 50):
        game = Game(4, seed=s)
        while not game.is_over:
            if game.phase == phase:
                return game
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
    raise AssertionError(f"no {phase} position found")


def _scores(game: Game) -> tuple[np.ndarray, np.ndarray]:
    obs, mask = game.observe(game.current_player), game.legal_action_mask()
    return heuristic_scores(obs[None], mask[None], HeuristicParams())[0], mask


def test_catastrophe_it_bids_for_the_column_that_costs_it_least() -> None:
    """Among the legal bids, the one chosen costs least in cubes, pollution steps and science."""
    game = _first_position("catastrophe")
    data, p = game.data, game.current_player
    prm = HeuristicParams()
    chosen = _heuristic().act_game(game)
    column, bid = divmod(chosen - A.CATASTROPHE, A.NUM_CAT_BIDS)

    def cost(c: int, b: int) -> float:
        g, pol = data.catastrophes[game.cat_current].columns[c]
        return g * prm.cube_cost + pol * prm.pollution_cost + b * prm.science_value

    legal = [divmod(a - A.CATASTROPHE, A.NUM_CAT_BIDS) for a in game.legal_actions()]
    assert game.science[p] >= bid
    assert cost(column, bid) == pytest.approx(min(cost(c, b) for c, b in legal))


def test_citizen_goes_on_the_city_worth_most() -> None:
    game = _first_position("citizen")
    code, cell = game.sel
    cities = game.data.tile(code).cities
    chosen = _heuristic().act_game(game)
    j = (chosen - A.CITY) % 3
    prm = HeuristicParams()
    worth = [5 * c.vp * (7 - game.round) + 5 * (prm.coin_value * c.coins + prm.science_value * c.science)
             * (6 - game.round) for c in cities]  # fmt: skip
    assert worth[j] == pytest.approx(max(worth))


def test_garbage_goes_on_a_clean_tile_before_a_dirty_one() -> None:
    """A clean tile loses its 2-4 final points for its first cube; a second cube costs 5 (final scoring, F2)."""
    game = _first_position("garbage")
    p = game.current_player
    a, b = np.flatnonzero(game.legal_action_mask()[A.TILE : A.TILE + MAX_TILES])[:2]  # two tiles, by slot
    for clean, dirty in ((a, b), (b, a)):
        game.grid_cubes[p][clean], game.grid_cubes[p][dirty] = 0, 1
        assert _heuristic().act_game(game) == A.TILE + clean


def test_lead_it_withdraws_when_no_tile_is_worth_its_minimum_price() -> None:
    """With garbage made ruinous every offered tile is worth less than nothing, and it withdraws; with garbage free
    and coins cheap, it puts a tile up."""
    game = _first_position("lead")
    obs, mask = game.observe(game.current_player), game.legal_action_mask()
    assert mask[A.LAND : A.LAND + 8].any()
    dear = make_agent("heuristic", game=GAME, seed=0, cube_cost=100.0).act(obs, mask)
    cheap = make_agent("heuristic", game=GAME, seed=0, cube_cost=0.0, coin_value=0.05).act(obs, mask)
    assert dear == A.WITHDRAW
    assert A.LAND <= cheap < A.LAND + 8


def test_bid_it_passes_when_the_raise_exceeds_the_tiles_worth() -> None:
    game = _first_position("bid")
    obs, mask = game.observe(game.current_player), game.legal_action_mask()
    assert mask[A.BID] and mask[A.PASS]
    assert make_agent("heuristic", game=GAME, seed=0, cube_cost=100.0).act(obs, mask) in (A.PASS, A.WITHDRAW)
    assert (
        make_agent("heuristic", game=GAME, seed=0, cube_cost=0.0, coin_value=0.05).act(obs, mask) == A.BID
    )  # the smallest raise


def _rails_joined(game: Game, p: int, cell: tuple[int, int], code: int, rotation: int) -> int:
    """How many railed sides of ``cell``'s neighbours in seat ``p``'s nation tile ``code`` faces with its own."""
    from industry_env.games.twentieth_century.geometry import STEP, local_components, opposite

    railed = {s for c in local_components(game.data.tile(code), rotation, -1) for s in c.sides}
    (x, y), total = cell, 0
    for s, (dx, dy) in STEP.items():
        nb = game.slot_at(p, (x + dx, y + dy))
        if nb < 0:
            continue
        other = local_components(game.data.tile(game.grid_tile[p][nb]), game.grid_rot[p][nb], game.grid_bridge[p][nb])
        total += s in railed and any(opposite(s) in c.sides for c in other)
    return total


def test_attach_rotate_it_faces_railed_neighbours_with_railed_sides() -> None:
    """The tile being attached keeps its offer row, so the heuristic turns it to join the most rails."""
    choices = 0
    for seed in range(6):
        game = _first_position("attach_rotate", seed=seed)
        p, (code, placement) = game.current_player, game.sel[:2]
        cell = game.placed_cell(p, placement)  # the empty cell being attached on
        legal = [a - A.ROTATE for a in game.legal_actions()]
        chosen = _heuristic().act_game(game) - A.ROTATE
        joined = [_rails_joined(game, p, cell, code, r) for r in legal]
        assert _rails_joined(game, p, cell, code, chosen) == max(joined)
        choices += min(joined) < max(joined)
    assert choices >= 2  # positions where the rotation matters
