"""Differential tests: the batched engine and the reference engine agree step by step on the same games.

The CI run checks 100 games (``make slow``: 2,000), 3 and 4 players, both draw variants, uniform and
"developer" random play, stepped as one batch per player count and draw variant in the engine and one by one in
the reference (the harness of every game, :func:`industry_env.verify.differential_game`): every legal-action
mask, player to move, observation (a rotating seat each step), reward and terminal flag, and the final scores
and positions. The long run is ``industry-env verify --games 100000`` (:mod:`industry_env.verify`).
"""

from __future__ import annotations

import pytest

from industry_env.games.industry import numpy_rounds
from industry_env.registry import load_game
from industry_env.verify import differential, game_configs


def _agree(games: int, first_seed: int) -> None:
    rep = differential(games, first_seed=first_seed)
    assert rep.disagreements == []
    assert rep.games == games
    assert rep.steps > games * 300  # whole games were played (about 400 decisions each)
    assert rep.observations == rep.steps


def test_a_hundred_games_agree_with_the_reference() -> None:
    """The CI check: 100 games, every configuration and both policies, each configuration stepped as one batch."""
    _agree(100, first_seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_slow_two_thousand_games_agree_with_the_reference(chunk: int) -> None:
    """2,000 games in all, in four chunks of 500 so that two workers share them."""
    _agree(500, first_seed=500 * chunk)


def test_every_seat_observation_agrees() -> None:
    rep = differential(16, first_seed=10_000, all_seats=True)
    assert rep.disagreements == []
    assert rep.observations > 3 * rep.steps


@pytest.mark.slow
def test_slow_every_seat_observation_agrees_on_many_games() -> None:
    rep = differential(400, first_seed=10_000, all_seats=True)
    assert rep.disagreements == []
    assert rep.observations > 3 * rep.steps


def test_configs_cover_players_variants_and_policies() -> None:
    configs = game_configs(load_game("industry"), 8, first_seed=5)
    seeds, players, balanced, policy = zip(*((s, n, o["balanced_draws"], p) for s, n, o, p in configs), strict=True)
    assert list(seeds) == list(range(5, 13))
    combos = {(int(n), bool(b), int(p)) for n, b, p in zip(players, balanced, policy, strict=True)}
    assert len(combos) == 8


def test_harness_detects_a_disagreement(monkeypatch) -> None:
    """An engine with a planted bug (a subsidy worth 4 Talers) is caught, with seed and step. (The numpy rules:
    the compiled kernel's constants are fixed at compile time; tests/industry/test_kernel.py plants one in the
    reference.)"""
    monkeypatch.setattr(numpy_rounds, "SUBSIDY_MONEY", 4)  # the numpy rule of the Subsidy
    rep = differential(16, first_seed=0, backend="numpy")
    assert rep.disagreements
    assert all(d.startswith("seed ") and " step " in d for d in rep.disagreements)
