"""The one flat action encoding: offsets, readable names both ways, and the bid cap that never binds."""

from __future__ import annotations

import random

import pytest

from industry_env.games.industry import actions as A
from industry_env.games.industry.actions import action_to_string, string_to_action
from industry_env.games.industry.reference import Game
from industry_env.games.industry.rules import MAX_BID, money_bound

from .helpers import F, R


def test_offsets_table():
    # The table of the module docstring, block by block.
    assert (A.AUCTION, A.PASS, A.BID, A.SELL, A.KEEP, A.DEVELOP, A.DONE, A.PAY, A.SUBSIDY) == (
        0, 60, 61, 173, 174, 175, 235, 236, 313)  # fmt: skip
    assert A.NUM_PAY_WAYS == 7 and A.NUM_ACTIONS == 314


def test_every_action_round_trips():
    names = set()
    for a in range(A.NUM_ACTIONS):
        name = action_to_string(a)
        assert string_to_action(name) == a, name
        names.add(name)
    assert len(names) == A.NUM_ACTIONS


@pytest.mark.parametrize(("text", "action"), [
    ("bid 5", A.BID + 4),
    ("bid 1", A.BID),
    (f"bid {MAX_BID}", A.SELL - 1),
    ("auction 3F", F("3F")),
    ("auction 1A", 0),
    ("keep", A.KEEP),
    ("sell", A.SELL),
    ("pass", A.PASS),
    ("done", A.DONE),
    ("subsidy", A.SUBSIDY),
    ("develop 2C", A.DEVELOP + F("2C")),
    ("develop 5L", A.DONE - 1),
    ("pay Glass: player 2", A.PAY + R("Glass") * 7 + 3 + 2),
    ("pay Wood: joker", A.PAY + R("Wood") * 7),
    ("pay Wood: ? joker", A.PAY + R("Wood") * 7 + 1),
    ("pay Stone: bank", A.PAY + R("Stone") * 7 + 2),
    ("pay Computers: player 0", A.SUBSIDY - 4),
])  # fmt: skip
def test_examples(text, action):
    assert string_to_action(text) == action
    assert action_to_string(action) == text


@pytest.mark.parametrize(("text", "action"), [
    ("  BID   5 ", A.BID + 4), ("Auction 3f", F("3F")), ("KEEP", A.KEEP),
    ("pay glass : player 2", A.pay(R("Glass"), 5)),
    ("pay Wood: ?joker", A.pay(R("Wood"), A.PAY_WILD)),
])  # fmt: skip
def test_case_and_spaces_forgiven(text, action):
    assert string_to_action(text) == action


@pytest.mark.parametrize(("text", "problem"), [
    ("bid 0", "out of range"),
    (f"bid {MAX_BID + 1}", "out of range"),
    ("bid five", "expected"),
    ("bid -3", "expected"),
    ("auction 6A", "not a field"),
    ("auction 1M", "not a field"),
    ("develop 12", "not a field"),
    ("develop", "not a field"),
    ("pay Gold: bank", "unknown resource 'gold'"),
    ("pay Glass: player 4", "no player 4"),
    ("pay Glass: neighbour", "expected"),
    ("pay Glass", "expected"),
    ("fly", "expected"),
    ("", "expected"),
])  # fmt: skip
def test_bad_text_raises_value_error_naming_the_problem(text, problem):
    with pytest.raises(ValueError, match="cannot read action") as info:
        string_to_action(text)
    assert problem in str(info.value)


@pytest.mark.parametrize("action", [-1, A.NUM_ACTIONS, 10**6])
def test_action_to_string_out_of_range(action):
    with pytest.raises(ValueError, match="out of range"):
        action_to_string(action)


def test_encoders_match_offsets():
    assert A.auction(F("3F")) == 29 and A.develop(0) == A.DEVELOP
    assert A.bid(1) == A.BID and A.bid(MAX_BID) == A.SELL - 1
    assert A.pay(10, A.PAY_PLAYER + 3) == A.SUBSIDY - 1
    for k in (0, MAX_BID + 1):
        with pytest.raises(ValueError, match="out of range"):
            A.bid(k)


def test_custom_resource_names():
    names = tuple(f"R{i}" for i in range(11))
    assert action_to_string(A.pay(4, A.PAY_BANK), names) == "pay R4: bank"
    assert string_to_action("pay R4: bank", names) == A.pay(4, A.PAY_BANK)


def test_max_bid_is_the_money_bound():
    # All the money that can exist in a game: 4 players, balanced draws, 16 rounds: 4 * (4 + 16 + 5 + 3) = 112.
    assert MAX_BID == max(money_bound(n, b) for n in (3, 4) for b in (False, True)) == 112
    assert money_bound(3, True) == 3 * (4 + 18 + 5 + 3)
    assert money_bound(4, False) == 4 * (4 + 15 + 5 + 3)


def _hoard(rng: random.Random, g: Game) -> int:
    """A policy that piles up money: subsidy at once, never develops, sells, keeps only free fields, bids 1."""
    legal = g.legal_actions()
    for a in (A.SUBSIDY, A.SELL, A.DONE):
        if a in legal:
            return a
    if g.phase == "bid":
        return A.BID if A.BID in legal and rng.random() < 0.5 else A.PASS
    return rng.choice(legal)


def test_bids_never_bind_largest_money_far_below_max_bid():
    # The largest purse seen in 100 random games and 50 hoarding games (every player takes the subsidy and never
    # develops) stays far below MAX_BID: the cap never limits a bid. Largest seen (shipped board at the time of
    # writing, 400 + 100 games): 61 Talers in random play, 49 when hoarding; MAX_BID is 112.
    _largest_purses_stay_below_max_bid(games=150, hoarding=50)


@pytest.mark.slow
def test_slow_bids_never_bind_in_thousands_of_games():
    _largest_purses_stay_below_max_bid(games=2_000, hoarding=400)


def _largest_purses_stay_below_max_bid(games: int, hoarding: int) -> None:
    """Seeds 0 to ``games - 1``, the first ``hoarding`` of them played by hoarders, the others at random."""
    largest = 0
    for seed in range(games):
        n, balanced = (3, 4)[seed % 2], seed % 4 < 2
        g, rng = Game(n, seed, balanced_draws=balanced), random.Random(seed)
        while not g.is_over:
            largest = max(largest, *g.s.money)
            g.apply(_hoard(rng, g) if seed < hoarding else rng.choice(g.legal_actions()))
        largest = max(largest, *g.s.money)
        assert sum(g.s.money) <= money_bound(n, balanced)
    assert largest < 80, f"largest money seen {largest}, MAX_BID {MAX_BID}"
    assert largest >= 30, f"largest money seen {largest}: the hoarding games should pile up money"
