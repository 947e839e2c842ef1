"""Properties of every game: thousands of random 3- and 4-player games, with and without the balanced draws.

Coverage (default run, ``-m "not slow"``, kept short for ``make test``): ``test_random_games_invariants`` plays
4 x 40 = 160 whole games with the cheap invariants checked at every decision; ``test_random_games_mask_and_state``
plays 4 x 3 = 12 games checking every allowed action and a sample of forbidden ones at every decision; the
hypothesis test plays 40 more, the round-trip test 30 and ``test_replay_is_deterministic`` 12: 254 games in all.
``make slow`` (``-m slow``) plays the long versions: 2,400 games with the invariants, 160 checked deeply, 20,000
more with every 100th checked deeply, and the hypothesis test with 600 examples.

The games are played by a random policy that prefers to act (bid, develop) over passing and takes the subsidy
rarely, so that long development chains, pay decisions with several options and big purses occur often.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from industry_env.games.industry import actions as A
from industry_env.games.industry.reference import Game, IllegalActionError
from industry_env.games.industry.rules import (
    COIN_TOKEN_MONEY,
    INCOME,
    MAX_BID,
    NUM_COLUMNS,
    NUM_FIELDS,
    RESOURCE_PRICE,
    STARTING_MONEY,
    SUBSIDY_MONEY,
    rounds_in_game,
    tokens_per_round,
)

CONFIGS = [(3, False), (3, True), (4, False), (4, True)]


def choose(rng: random.Random, legal: list[int]) -> int:
    """A random policy that prefers acting over passing and takes the subsidy rarely."""
    acts = [a for a in legal if a not in (A.SUBSIDY, A.PASS, A.DONE)]
    r = rng.random()
    if A.SUBSIDY in legal and r < 0.03:
        return A.SUBSIDY
    if acts and r < 0.7:
        return rng.choice(acts)
    return rng.choice(legal)


class Ledger:
    """Every Taler that enters or leaves the players' hands, by source, checked after every decision."""

    def __init__(self, g: Game) -> None:
        n = g.num_players
        self.start = STARTING_MONEY * n
        self.income = INCOME * n  # round 1's income came before the first decision
        self.coin = COIN_TOKEN_MONEY * n if g.s.face_up[0] else 0
        self.subsidy = self.construction = self.bank = 0
        self.round = g.s.round

    def total(self) -> int:
        return self.start + self.income + self.coin + self.subsidy - self.construction - self.bank

    def record(self, g: Game, action: int, p: int) -> None:
        """Before ``action`` is applied by ``p``: note what it takes from or gives to the bank."""
        if action == A.SUBSIDY:
            self.subsidy += SUBSIDY_MONEY
        elif A.DEVELOP <= action < A.DONE:
            self.construction += g.construction_cost(p, action - A.DEVELOP)
        elif A.PAY <= action < A.SUBSIDY and (action - A.PAY) % A.NUM_PAY_WAYS == A.PAY_BANK:
            self.bank += RESOURCE_PRICE

    def after(self, g: Game) -> None:
        """After a decision: a new round pays income (and the coin token if it was drawn)."""
        if g.s.round != self.round:
            assert g.s.round == self.round + 1
            self.round = g.s.round
            self.income += INCOME * g.num_players
            if g.s.face_up[0]:
                self.coin += COIN_TOKEN_MONEY * g.num_players
        assert sum(g.s.money) == self.total(), (g.s.money, vars(self))


def play_checked(n: int, seed: int, balanced: bool, deep: bool = False, rng: random.Random | None = None) -> dict:
    """Play one random game, checking the invariants at every decision; ``deep`` adds the expensive checks."""
    rng = rng or random.Random(seed * 8 + n * 2 + balanced)
    g = Game(n, seed, balanced_draws=balanced)
    ledger = Ledger(g)
    owners = [-1] * NUM_FIELDS
    claimed = [False] * NUM_FIELDS
    auctions = decisions = 0
    max_money = max(g.s.money)
    draws: list[tuple[int, int]] = [(g.s.era, sum(g.s.face_up))]
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, "no legal action while the game is live"
        mask = g.legal_action_mask()
        assert mask.dtype == bool and mask.shape == (A.NUM_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == legal
        if deep:
            check_mask_against_apply(g, legal, rng)
        p = g.current_player
        a = choose(rng, legal)
        ledger.record(g, a, p)
        round_before = g.s.round
        g.apply(a)
        decisions += 1
        ledger.after(g)
        assert min(g.s.money) >= 0, g.s.money
        max_money = max(max_money, max(g.s.money))
        # each field is claimed once, and its Property token never moves
        for f in range(NUM_FIELDS):
            if g.s.claimed[f] and not claimed[f]:
                claimed[f], owners[f] = True, g.s.owner[f]
                auctions += 1
            assert g.s.claimed[f] == claimed[f] and g.s.owner[f] == owners[f]
            assert not g.s.developed[f] or g.s.owner[f] >= 0
        if g.s.round != round_before and not g.is_over:
            draws.append((g.s.era, sum(g.s.face_up)))
    assert auctions == NUM_FIELDS == sum(g.s.claimed)
    assert g.s.round == rounds_in_game(n, balanced) == len(draws)
    assert all(k == tokens_per_round(n, era, balanced) for era, k in draws)
    assert g.legal_actions() == [] and not g.legal_action_mask().any() and g.current_player == -1
    assert sum(g.s.money) == ledger.total()
    scores = g.scores()
    assert len(scores) == n and g.winners() and sum(g.returns()) in _possible_return_sums(n)
    return {"max_money": max_money, "decisions": decisions, "subsidies": sum(g.s.subsidy)}


def _possible_return_sums(n: int) -> set[float]:
    return {0.0} | {float(w - (n - w)) for w in range(1, n)}


def check_mask_against_apply(g: Game, legal: list[int], rng: random.Random) -> None:
    """Every allowed action is accepted; forbidden ones (a sample) are refused and change nothing."""
    before = g.to_json()
    legal_set = set(legal)
    for a in legal:
        h = g.clone()
        h.apply(a)
    forbidden = [a for a in rng.sample(range(A.NUM_ACTIONS), 12) if a not in legal_set][:4]
    junk = [-1, A.NUM_ACTIONS, 10**9, 1.5, float(legal[0]), str(legal[0]), None, True, [legal[0]]]
    for a in forbidden + [rng.choice(junk)]:
        with pytest.raises(IllegalActionError):
            g.apply(a)
        assert g.to_json() == before
    # JSON round trip and clone independence
    copy = Game.from_json(before)
    assert copy.to_json() == before and copy.legal_actions() == legal
    clone = g.clone()
    clone.apply(legal[-1])
    assert g.to_json() == before


def _invariants_over(n: int, balanced: bool, seeds: range) -> None:
    seen = [play_checked(n, seed, balanced) for seed in seeds]
    assert sum(s["subsidies"] for s in seen) > 0
    largest = max(s["max_money"] for s in seen)
    assert largest < MAX_BID, f"largest money seen {largest}"  # 55-61 in these games: bids never bind


@pytest.mark.parametrize(("n", "balanced"), CONFIGS)
def test_random_games_invariants(n, balanced):
    # 40 games per config in CI (160 in all, with the 40 hypothesis games below); `make slow` plays 2,400.
    _invariants_over(n, balanced, range(40))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
@pytest.mark.parametrize(("n", "balanced"), CONFIGS)
def test_slow_random_games_invariants(n, balanced, chunk):
    # 300 games per (config, chunk): 2,400 games in all.
    _invariants_over(n, balanced, range(chunk * 300, chunk * 300 + 300))


@pytest.mark.parametrize(("n", "balanced"), CONFIGS)
def test_random_games_mask_and_state(n, balanced):
    # 3 games per config in CI with every allowed action tried and forbidden ones sampled at every decision.
    for seed in range(10_000, 10_003):
        play_checked(n, seed, balanced, deep=True)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "balanced"), CONFIGS)
def test_slow_random_games_mask_and_state(n, balanced):
    # 40 games per config, every decision checked deeply.
    for seed in range(10_000, 10_040):
        play_checked(n, seed, balanced, deep=True)


RANDOM_GAMES = given(
    n=st.sampled_from([3, 4]),
    seed=st.integers(0, 2**63 - 1),
    balanced=st.booleans(),
    policy_seed=st.integers(0, 2**32),
)


@settings(max_examples=40)
@RANDOM_GAMES
def test_hypothesis_random_games(n, seed, balanced, policy_seed):
    play_checked(n, seed, balanced, deep=False, rng=random.Random(policy_seed))


@pytest.mark.slow
@settings(max_examples=600)
@RANDOM_GAMES
def test_slow_hypothesis_random_games(n, seed, balanced, policy_seed):
    play_checked(n, seed, balanced, deep=False, rng=random.Random(policy_seed))


@settings(max_examples=30)
@given(n=st.sampled_from([3, 4]), seed=st.integers(0, 2**40), cut=st.floats(0, 1), policy_seed=st.integers(0, 99))
def test_json_round_trip_and_clone_at_random_points(n, seed, cut, policy_seed):
    # Play to a random point, save and load; the loaded game and a clone then play on exactly like the original.
    rng = random.Random(policy_seed)
    g = Game(n, seed)
    for _ in range(int(cut * 450)):
        if g.is_over:
            break
        g.apply(choose(rng, g.legal_actions()))
    text = g.to_json()
    loaded, clone = Game.from_json(text), g.clone()
    assert loaded.to_json() == text == clone.to_json()
    assert json.loads(text)["version"] == 1
    while not g.is_over:
        a = choose(rng, g.legal_actions())
        for h in (g, loaded, clone):
            h.apply(a)
    assert loaded.to_json() == g.to_json() == clone.to_json()
    assert loaded.scores() == g.scores() and loaded.winners() == g.winners()


def test_clone_is_independent():
    g = Game(4, 3)
    c = g.clone()
    before = g.to_json()
    c.apply(A.SUBSIDY)
    c.s.money[0] += 100
    c.s.jokers[0][0] += 1
    assert g.to_json() == before and c.to_json() != before


def test_replay_is_deterministic():
    # The same seed and the same actions give the same game, move for move.
    for seed in range(6):
        for n in (3, 4):
            rng = random.Random(seed)
            g, h = Game(n, seed), Game(n, seed)
            while not g.is_over:
                a = choose(rng, g.legal_actions())
                g.apply(a)
                h.apply(a)
                assert g.to_json() == h.to_json()


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(5))
@pytest.mark.parametrize(("n", "balanced"), CONFIGS)
def test_slow_many_random_games(n, balanced, chunk):
    # 20 x 1,000 = 20,000 games, with the deep checks on every 100th.
    for seed in range(100_000 + chunk * 1_000, 100_000 + (chunk + 1) * 1_000):
        play_checked(n, seed, balanced, deep=seed % 100 == 0)


def test_every_round_draws_tokens_of_the_current_era_only():
    # Rounds never straddle eras: the face-up tokens of a round are always 3 or 4 columns of the current era.
    g = Game(3, 11, balanced_draws=True)
    rng = random.Random(0)
    while not g.is_over:
        if g.phase == "auction":
            assert all(g.s.era * NUM_COLUMNS <= a < (g.s.era + 1) * NUM_COLUMNS for a in g.legal_actions()
                       if a < A.PASS)  # fmt: skip
        g.apply(choose(rng, g.legal_actions()))
