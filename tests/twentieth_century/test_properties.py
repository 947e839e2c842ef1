"""Invariants of 20th Century over random games of 3, 4 and 5 players (every scoring-card variant), the action
space's names, and hidden information: what a seat observes never depends on what it cannot know."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from industry_env import load_game
from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century.reference import Game, IllegalActionError

SPEC = load_game("twentieth_century")
CARDS = ("a", "b", "c", "none")


def check_invariants(g: Game, position: bool = True) -> None:
    """Coins, science and cubes conserved; citizens conserved; scores the sum of their parts; with ``position``,
    every tile in exactly one place (the saved position's check, the costly part)."""
    for p in range(g.n):
        led = g.ledger[p]
        assert g.coins[p] == led["coins_in"] - led["coins_out"] >= 0
        assert g.science[p] == led["science_in"] - led["science_out"] >= 0
        on_tiles = g.total_cubes(p) + g.pending_cubes[p] + sum(e[2] for e in g.pending[p])
        assert on_tiles == led["cubes_in"] - led["cubes_out"]
        land_placed = len(g.land_cells(p)) - 1
        workers = sum(g.used[p][h][k] for h, t in enumerate(g.techs[p])
                      for k, ab in enumerate(g.data.technologies[t].abilities) if ab.kind == "workers")  # fmt: skip
        occupied = len(g.cities(p, occupied=True))
        citizen_pending = 1 if g.phase == "citizen" and g.to_move == p else 0
        assert occupied + citizen_pending == 2 + land_placed + workers
        assert g.scores()[p] == sum(g.score_parts(p).values())
        for c, code in enumerate(g.grid_tile[p]):
            if code >= 0 and not g.data.is_land(code):
                assert g.grid_cubes[p][c] == 0 and g.grid_citizens[p][c] == 0
    if position:
        Game.from_json(g.to_json())  # the position check: every tile in exactly one place


def play(n: int, seed: int, r: str, check_every: int = 1) -> tuple[Game, int]:
    """A random game checked as it goes: the cheap invariants at every move; the position check and a refused
    action every ``check_every`` moves; resample every ``5 * check_every``."""
    rng = np.random.default_rng(seed)
    g, moves = Game(n, seed=seed, r2=r, r4=r), 0
    while not g.is_over:
        legal = g.legal_actions()
        check_invariants(g, position=moves % check_every == 0)
        if moves % check_every == 0:
            before = g.to_json()
            illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
            with pytest.raises(IllegalActionError):
                g.apply(illegal)
            assert g.to_json() == before  # a refused action changes nothing
        if moves % (5 * check_every) == 0:
            seat = g.current_player
            guess = g.resample(seat, np.random.default_rng(moves))
            assert np.array_equal(guess.observe(seat), g.observe(seat)) and guess.legal_actions() == legal
        g.apply(legal[rng.integers(len(legal))])
        moves += 1
    check_invariants(g)
    return g, moves


@settings(max_examples=6, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10**6), card=st.sampled_from(CARDS))
def test_random_games_keep_every_invariant_and_end_within_the_longest_game(n, seed, card):
    g, moves = play(n, seed, card, check_every=5)
    assert g.round == 6 and moves <= SPEC.max_game_length(n)
    assert g.current_player == -1 and g.legal_actions() == []


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
@settings(max_examples=700, deadline=None)
@given(seed=st.integers(0, 10**9), card=st.sampled_from(CARDS))
def test_thousands_of_random_games_keep_every_invariant(n, seed, card):
    """2,100 games in all (700 a player count; docs/twentieth-century/balance.md gives the last run's time)."""
    g, moves = play(n, seed, card, check_every=25)
    assert g.round == 6 and moves <= SPEC.max_game_length(n)


def test_every_action_name_reads_back_and_the_space_has_749_actions():
    assert A.NUM_ACTIONS == 749 == SPEC.num_actions()
    for a in range(A.NUM_ACTIONS):
        assert A.string_to_action(A.action_to_string(a)) == a
    for bad in ("land 8", "bid +32", "tile 46", "place 0 up", "place 46 N", "city 0 d", "cell 9,0",
                "catastrophe column 5 bid 0", "fly"):  # fmt: skip
        with pytest.raises(ValueError):
            A.string_to_action(bad)


def test_a_game_names_cells_and_reads_them_back():
    """A person names cells ('cell 1,-1', 'city 0,0 b') and sees them beside the slots' names."""
    g = Game(3, seed=0)
    assert g.string_to_action("city 0,0 b") == A.city_action(0, 1)
    assert g.action_to_string(A.TILE + 0) == "tile 0 (cell 0,0)"
    g.phase, g.to_move = "attach_cell", 0  # as if a tile were being attached
    place = g.string_to_action("cell 1,-1")
    assert place == A.place_action(0, 1) and g.action_to_string(place) == "place 0 NE (cell 1,-1)"
    for bad in ("cell 2,0", "cell 0,0", "city 5,5 a"):  # not touching, taken, no tile there
        with pytest.raises(ValueError, match="cell"):
            g.string_to_action(bad)


def test_a_game_reads_its_bids_with_their_price():
    g = Game(3, seed=0)
    g.apply(g.legal_actions()[0])  # a land tile put up
    assert g.action_to_string(A.BID + 3) == "bid +3 (5 coins)" and g.string_to_action("bid +3 (5 coins)") == A.BID + 3


# ----------------------------------------------------------------------------------------------- hidden information
def _midgame(seed: int, moves: int = 60) -> Game:
    rng = np.random.default_rng(seed)
    g = Game(4, seed=seed)
    for _ in range(moves):
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
    return g


def test_resample_redeals_only_the_unseen_and_keeps_every_observation():
    g = _midgame(1)
    for seat in range(4):
        guess = g.resample(seat, np.random.default_rng(seat))
        for s in range(4):
            assert np.array_equal(guess.observe(s), g.observe(s))
        assert guess.legal_actions() == g.legal_actions()
        assert {e: sorted(v) for e, v in guess.land_stacks.items()} == {e: sorted(v) for e, v in g.land_stacks.items()}
        eras = [g.data.catastrophes[k].era for k in g.cat_stack]
        assert [g.data.catastrophes[k].era for k in guess.cat_stack] == eras
        assert not set(guess.cat_stack) & set(g.cat_revealed)


def test_resample_does_change_the_hidden_future():
    g = _midgame(2)
    guesses = [g.resample(0, np.random.default_rng(k)) for k in range(10)]
    assert any(x.land_stacks != g.land_stacks for x in guesses) and any(x.seed != g.seed for x in guesses)


def test_swapping_undealt_tiles_or_a_future_catastrophe_changes_no_observation():
    g = _midgame(3)
    other = g.clone()
    era = next(e for e, v in other.land_stacks.items() if len(v) >= 2)
    other.land_stacks[era][0], other.land_stacks[era][1] = other.land_stacks[era][1], other.land_stacks[era][0]
    other.seed += 1
    future = other.cat_stack[-1]  # the round-V card: swap it with an unrevealed one of its era
    same_era = [k for k, c in enumerate(g.data.catastrophes) if c.era == g.data.catastrophes[future].era]
    other.cat_stack[-1] = next(k for k in same_era if k != future)
    for s in range(4):
        assert np.array_equal(other.observe(s), g.observe(s))


def test_the_observation_follows_the_declared_layout_and_is_egocentric():
    g = _midgame(4, moves=30)
    pieces = SPEC.observation_layout()
    size = SPEC.observation_size()
    vp = next(p for p in pieces if p.name == "seat_vp")
    for seat in range(4):
        obs = g.observe(seat)
        assert obs.shape == (size,) and obs.dtype == np.float32
        assert obs[vp.slice][0] * 50 == pytest.approx(g.scores()[seat])  # the observer first
    with pytest.raises(ValueError, match="seat 4"):
        g.observe(4)


def test_a_position_round_trips_through_json_exactly():
    g = _midgame(5, moves=90)
    again = Game.from_json(g.to_json())
    assert again.to_json() == g.to_json() and again.legal_actions() == g.legal_actions()
    assert json.loads(g.to_json())["game"] == "twentieth_century"


def test_the_rule_based_player_of_the_balance_measurements_plays_legal_moves():
    from industry_env.games.twentieth_century.balance import rule_based_action

    g, rng = Game(4, seed=0), np.random.default_rng(0)
    while g.round == 1:
        a = rule_based_action(g, rng)
        assert a in g.legal_actions()
        g.apply(a)
    assert sum(len(g.land_cells(p)) for p in range(4)) > 4  # it bought and attached land tiles


@pytest.mark.slow
def test_the_balance_measurement_plays_whole_games():
    from industry_env.games.twentieth_century.balance import play

    g, stats = play(4, seed=0)
    assert g.is_over and len(stats["score"]) == 4 and stats["cat_bids"] and stats["price_r1"]


def test_a_tile_bought_and_not_yet_attached_keeps_its_offer_row_flagged_not_on_sale():
    """The seat attaching a tile must see what it attaches: its row stays, with 'on sale' 0, until it is placed."""
    rng = np.random.default_rng(3)
    layout = {p.name: p for p in SPEC.observation_layout()}
    land, pend = layout["land_offer"], layout["pending"]
    seen = 0
    for seed in range(6):
        g = Game(4, seed=seed)
        offer = list(g.land_offer)
        while g.round == 1 and not g.is_over:
            obs = g.observe(0)
            rows = obs[land.slice].reshape(land.shape)
            held = obs[pend.slice].reshape(pend.shape)[:, : land.shape[0]].any(axis=0)
            for slot, code in enumerate(offer):
                if g.land_offer[slot] >= 0:
                    assert rows[slot, 0] == 1 and not held[slot]
                elif any(c == code for q in range(4) for c, _, _ in g.pending[q]):
                    assert rows[slot, 0] == 0 and held[slot] and rows[slot, 1:].any()
                    seen += 1
                else:  # attached: the row is empty
                    assert not rows[slot].any()
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
    assert seen > 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seed": -1}, "seed=-1: must be a whole number from 0 to 2\\*\\*63 - 1"),
        ({"seed": 1.5}, "seed=1.5: must be a whole number"),
        ({"seed": True}, "seed=True: must be a whole number"),
        ({"seed": "a"}, "seed='a': must be a whole number"),
        ({"seed": 2**64}, "seed=18446744073709551616: must be a whole number"),
        ({"num_players": 4.0}, "num_players=4.0: 20th Century is played by 3 to 5 players"),
        ({"num_players": 6}, "num_players=6: 20th Century is played by 3 to 5 players"),
    ],
)
def test_a_reference_game_with_a_bad_seat_count_or_seed_is_refused_by_name(kwargs, message) -> None:
    """``Game(4, seed=-1)`` (or 1.5, or True) was played; a string or a seed past 2**63 failed inside ``int()``."""
    with pytest.raises(ValueError, match=message):
        Game(**{"num_players": 4, "seed": 0, **kwargs})
