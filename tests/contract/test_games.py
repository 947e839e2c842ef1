"""The contract every registered game keeps (a new game gets these tests by registering).

Spec: names, player range, options checked. Reference engine: games play to their end within the declared
longest game; the mask has ``num_actions`` entries; every seat's observation has the declared size and stays
within the declared bounds; a position survives its JSON round trip; action names read back; ``resample`` keeps
what the seat sees. Batched engine: game i of ``init(N, seed=s)`` is the reference game with seed ``s + i``,
decision by decision (legal actions, player to move, every seat's observation, final scores).
"""

from __future__ import annotations

import numpy as np
import pytest

import industry_env
from industry_env.core.spec import GameSpec
from industry_env.registry import available_games, load_game

GAMES = available_games(include_hidden=True)
PLAYER_COUNTS = [(g, n) for g in GAMES for n in range(load_game(g).min_players, load_game(g).max_players + 1)]
WITH_ENGINE = [(g, n) for g, n in PLAYER_COUNTS if load_game(g).engine_module is not None]


def _random_game(spec: GameSpec, n: int, seed: int, stop_after: int | None = None):
    """A reference game played by uniform random legal moves (to its end, or ``stop_after`` decisions)."""
    rng = np.random.default_rng(seed)
    game, moves = spec.reference(n, seed=seed), 0
    while not game.is_over and (stop_after is None or moves < stop_after):
        legal = game.legal_actions()
        game.apply(int(legal[rng.integers(len(legal))]))
        moves += 1
    return game, moves


def test_the_registry_lists_the_games_and_refuses_an_unknown_id():
    assert "industry" in available_games() and "age_of_industry" in GAMES
    assert set(available_games()) <= set(GAMES)
    assert industry_env.available_games() == available_games() and industry_env.load_game("industry").id == "industry"
    with pytest.raises(ValueError, match="not a game of the suite.*industry"):
        load_game("monopoly")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_spec_names_its_game_and_checks_players_and_options(game_id):
    spec = load_game(game_id)
    assert spec.id == game_id and spec.name and spec.citation and spec.version >= 0
    assert spec.gym_id == f"industry_env/{spec.camel_name}-v{spec.version}"
    assert spec.min_players <= spec.default_players <= spec.max_players
    for bad in (spec.min_players - 1, spec.max_players + 1, float(spec.min_players), True, "3"):
        with pytest.raises(ValueError, match="num_players"):
            spec.check_num_players(bad)
    with pytest.raises(ValueError, match="not an option of"):
        spec.check_options({"no_such_option": 1})
    assert set(spec.check_options()) == {o.name for o in spec.options}
    pieces = spec.observation_layout()
    assert all(a.offset + a.size == b.offset for a, b in zip(pieces, pieces[1:], strict=False))
    low, high = spec.observation_bounds()
    assert low.shape == high.shape == (spec.observation_size(),) and (low <= high).all()


@pytest.mark.parametrize(("game_id", "n"), PLAYER_COUNTS)
def test_random_games_end_within_the_longest_game_and_observations_keep_their_bounds(game_id, n):
    spec = load_game(game_id)
    low, high = spec.observation_bounds()
    for seed in range(2):
        rng = np.random.default_rng(seed)
        game, moves = spec.reference(n, seed=seed), 0
        while not game.is_over:
            mask = np.asarray(game.legal_action_mask())
            assert mask.shape == (spec.num_actions(),) and mask.any()
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(game.legal_actions())
            if moves % 7 == 0:
                for seat in range(n):
                    obs = spec.observe(game, seat)
                    assert obs.dtype == np.float32 and obs.shape == (spec.observation_size(),)
                    assert (obs >= low).all() and (obs <= high).all(), np.flatnonzero((obs < low) | (obs > high))
            legal = game.legal_actions()
            game.apply(int(legal[rng.integers(len(legal))]))
            moves += 1
        assert moves <= spec.max_game_length(n)
        assert game.current_player == -1 and len(game.scores()) == n
        returns = game.returns()
        assert sorted(set(returns)) in ([-1.0, 1.0], [0.0], [1.0])
        assert {i for i, r in enumerate(returns) if r > 0} == set(game.winners()) or set(returns) == {0.0}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_position_survives_its_json_round_trip_and_action_names_read_back(game_id):
    spec = load_game(game_id)
    game, _ = _random_game(spec, spec.default_players, seed=3, stop_after=40)
    again = spec.reference_from_json(game.to_json())
    assert again.to_json() == game.to_json()
    assert again.legal_actions() == game.legal_actions() and again.current_player == game.current_player
    for seat in range(game.num_players):
        assert np.array_equal(spec.observe(again, seat), spec.observe(game, seat))
    for a in game.legal_actions():
        assert spec.string_to_action(spec.action_to_string(a, game), game) == a
    with pytest.raises(ValueError):
        spec.reference_from_json('{"not": "a position"}')


@pytest.mark.parametrize("game_id", GAMES)
def test_resample_keeps_what_the_seat_sees(game_id):
    spec = load_game(game_id)
    game, _ = _random_game(spec, spec.default_players, seed=5, stop_after=30)
    for seat in range(game.num_players):
        guess = spec.resample(game, seat, np.random.default_rng(seat))
        assert np.array_equal(spec.observe(guess, seat), spec.observe(game, seat))
        assert guess.legal_actions() == game.legal_actions() or game.current_player != seat


@pytest.mark.parametrize("game_id", GAMES)
def test_observe_and_resample_refuse_a_seat_outside_the_game_naming_it(game_id):
    """20th Century's resample took seat -1, 9 or 1.5 (its hidden part is hidden from every seat alike), Industry's
    took any seat, and 1.5 reached 20th Century's observation: every game refuses them by name, the game untouched."""
    spec = load_game(game_id)
    game, _ = _random_game(spec, spec.default_players, seed=5, stop_after=10)
    before, n = game.to_json(), game.num_players
    for seat in (-1, n, 1.5, True, "0", None):
        for call, args in ((spec.observe, (game, seat)), (spec.resample, (game, seat, 0)), (game.observe, (seat,))):
            with pytest.raises(ValueError, match=f"seat {seat!r} is not a seat of this {n}-player game"):
                call(*args)
    assert game.to_json() == before
    assert spec.observe(game, np.int64(n - 1)).shape == spec.observe(game, n - 1).shape


def test_a_listed_game_has_a_batched_engine_and_a_hidden_one_says_it_has_none():
    for game_id in GAMES:
        spec = load_game(game_id)
        if game_id in available_games():
            assert spec.engine_module is not None, game_id
        elif spec.engine_module is None:
            with pytest.raises(ValueError, match="no batched engine yet"):
                spec.engine  # noqa: B018


@pytest.mark.parametrize(("game_id", "n"), WITH_ENGINE)
def test_the_batched_engine_plays_the_reference_games_decision_by_decision(game_id, n):
    spec = load_game(game_id)
    E = spec.engine
    batch, seed = 3, 11
    state = E.init(batch, num_players=n, seed=seed)
    games = [spec.reference(n, seed=seed + i) for i in range(batch)]
    rng = np.random.default_rng(0)
    for _ in range(spec.max_game_length(n)):
        mask = np.asarray(E.legal_action_mask(state))
        current = np.asarray(state.current_player)
        for i, g in enumerate(games):
            assert int(current[i]) == g.current_player
            if not g.is_over:
                assert np.flatnonzero(mask[i]).tolist() == sorted(g.legal_actions())
        for seat in range(n):
            obs = np.asarray(E.observe(state, np.full(batch, seat)))
            for i, g in enumerate(games):
                assert np.array_equal(obs[i], spec.observe(g, seat)), (i, seat)
        if all(g.is_over for g in games):
            break
        actions = np.zeros(batch, np.int64)
        for i, g in enumerate(games):
            if not g.is_over:
                legal = g.legal_actions()
                actions[i] = legal[rng.integers(len(legal))]
                g.apply(int(actions[i]))
        state = E.step(state, actions)
    assert all(g.is_over for g in games) and np.asarray(state.terminated).all()
    scores = np.asarray(E.scores(state))
    for i, g in enumerate(games):
        assert scores[i, :n].tolist() == list(g.scores())


@pytest.mark.parametrize("game_id", sorted({g for g, _ in WITH_ENGINE}))
def test_verify_checks_every_game_with_an_engine_against_its_reference(game_id):
    """``industry-env verify --game`` (its harness): a few games of every player count and option variant agree."""
    from industry_env.verify import differential_game, game_configs

    spec = load_game(game_id)
    games = len(spec.variants()) * (spec.max_players - spec.min_players + 1)  # one game of each
    configs = game_configs(spec, games)
    assert {(n, tuple(sorted(o.items()))) for _, n, o, _ in configs} == {
        (n, tuple(sorted(o.items()))) for n in range(spec.min_players, spec.max_players + 1) for o in spec.variants()}
    rep = differential_game(game_id, games, first_seed=5)
    assert rep.disagreements == [] and rep.games == games and rep.steps > games and rep.observations > rep.steps


@pytest.mark.parametrize("game_id", sorted({g for g, _ in WITH_ENGINE}))
def test_verify_compares_the_final_positions_not_only_the_scores(game_id, monkeypatch):
    """A batched engine whose final position differs from the reference's (here: another game altogether) is
    reported, though every decision, reward and score agreed."""
    from industry_env.verify import differential_game

    spec = load_game(game_id)
    E = spec.engine
    true_to_game = E.to_game

    def another_game(state, i):
        game = true_to_game(state, i)
        return spec.reference(game.num_players, seed=int(np.asarray(state.seed)[i]) + 1, **spec.setup_of(game)[2])

    monkeypatch.setattr(E, "to_game", another_game)
    rep = differential_game(game_id, 2, first_seed=5)
    assert len(rep.disagreements) == 2 and all("final position differs" in d for d in rep.disagreements)
