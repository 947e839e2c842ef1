"""20th Century's batched engine against its reference engine, game by game, through the suite's harness
(:func:`industry_env.verify.differential_game`, what ``industry-env verify --game twentieth_century`` runs): the
player to move, the legal mask, every seat's observation, rewards, terminal flags, final scores and the final
position, for 3, 4 and 5 players and every variant of the scoring cards."""

from __future__ import annotations

import numpy as np
import pytest

from industry_env.games.twentieth_century import engine as E
from industry_env.registry import available_games, load_game
from industry_env.verify import differential_game, game_configs

pytest.importorskip("numba")


@pytest.mark.slow
def test_slow_a_dozen_games_agree_with_the_reference_at_every_seat() -> None:
    """12 games: 3, 4 and 5 players under each scoring-card variant, every seat's observation at every step. CI plays
    the same dozen from another seed (tests/contract/test_games.py, ``test_verify_checks_every_game_...``)."""
    rep = differential_game("twentieth_century", 12, first_seed=0, all_seats=True)
    assert rep.disagreements == []
    assert rep.games == 12
    assert rep.steps > 12 * 100  # whole games were played (about 200 decisions each)
    assert rep.observations > 3 * rep.steps


@pytest.mark.slow
def test_slow_three_hundred_games_agree_with_the_reference() -> None:
    rep = differential_game("twentieth_century", 300, first_seed=1000, all_seats=True)
    assert rep.disagreements == []


def test_the_configs_cover_every_player_count_and_variant() -> None:
    configs = game_configs(load_game("twentieth_century"), 12)
    assert {(n, o["r2"]) for _, n, o, _ in configs} == {(n, c) for n in (3, 4, 5) for c in "abc"} | {
        (n, "none") for n in (3, 4, 5)
    }


def test_a_bridge_rebuilds_the_nations_rail_network() -> None:
    """A Train's moves read the network kept in the State. Rebuilt after a bridge from the grid (also what
    from_games does), it once joined every tile with the tiles not yet rebuilt, offering moves the reference
    refuses; the masks of reference positions written into a State must equal the reference's."""
    from industry_env.games.twentieth_century.reference import Game

    rng = np.random.default_rng(5)
    positions, checked = [], 0
    for seed in range(12):
        g = Game(3 + seed % 3, seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
            if g.phase == "use_target" and any(any(row >= 0 for row in grid) for grid in g.grid_bridge):
                positions.append(g.clone())
        if len(positions) > 8:
            break
    state = E.from_games(positions)
    mask = E.legal_action_mask(state)
    for i, g in enumerate(positions):
        assert np.array_equal(mask[i], g.legal_action_mask()), i
        checked += 1
    assert checked > 5


def test_the_game_is_listed_now_that_its_hundred_thousand_games_agree() -> None:
    """Registered hidden while it was built; listed once 100,000 games agreed with the reference (engine.md)."""
    assert "twentieth_century" in available_games()
    assert set(available_games(include_hidden=True)) - set(available_games()) == {"nim"}  # the template alone
    assert load_game("twentieth_century").engine is E
