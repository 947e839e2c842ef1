"""Invariants over whole random games, 3 to 5 players, both maps: money and cubes are conserved, the 66 cards are
always all accounted for, scores are the sum of their parts, every decision has a legal action, and every game
ends. A fast version runs in the suite; the thousands of games run with ``-m slow``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from industry_env.games.age_of_industry import Game
from industry_env.games.age_of_industry.measuring import RuleBasedPlayer, random_player
from industry_env.games.age_of_industry.rules import COAL_MINE, HAND_LIMIT, IRON_WORKS

MAX_DECISIONS = 5_000  # a random game takes about 200 decisions; none may run on


def cubes_on_board(g: Game, r: int) -> int:
    s, m = g.s, g.map
    on_map = sum(s.space_cubes[sp] for sp in range(m.num_spaces)
                 if (r == 0 and (s.space_industry[sp] == COAL_MINE or m.SPACE_IMPORT[sp]))
                 or (r == 1 and s.space_industry[sp] == IRON_WORKS))  # fmt: skip
    return on_map + s.demand[r]


def check_invariants(g: Game, money0: int, cubes0: list[int]) -> None:
    s, c = g.s, g.components
    led = g.ledger
    assert sum(s.money) == money0 + led["bank_paid"] - led["bank_received"]
    assert min(s.money) >= 0 and min(s.loans) >= 0
    for r in (0, 1):
        assert cubes_on_board(g, r) == cubes0[r] + led["cubes_placed"][r] - led["cubes_removed"][r]
    deck = [k for k in s.deck[s.deck_pos:]]
    assert all(k < 0 for k in s.deck[: s.deck_pos])
    for k in range(c.num_card_kinds):
        held = deck.count(k) + sum(h[k] for h in s.hand) + s.face_up.count(k) + s.discard[k]
        assert held == c.CARD_COUNT[k]
    for q in range(s.num_players):
        assert sum(s.hand[q]) <= HAND_LIMIT
        assert all(kn <= h for kn, h in zip(s.known[q], s.hand[q], strict=True))
    for q in range(s.num_players):
        assert g.scores()[q] == sum(g.score_breakdown(q).values())
    if not g.is_over:
        legal = g.legal_actions()
        assert legal and np.flatnonzero(g.legal_action_mask()).tolist() == legal


def play_checked(n: int, seed: int, name: str, player: str = "random", edition: int = 2) -> Game:
    g = Game(n, seed, name, edition=edition)
    money0 = sum(g.s.money)
    cubes0 = [cubes_on_board(g, 0), cubes_on_board(g, 1)]
    rng = np.random.default_rng(seed)
    rule_based = RuleBasedPlayer(seed)
    for step in range(MAX_DECISIONS):
        check_invariants(g, money0, cubes0)
        if g.is_over:
            break
        if step % 37 == 5:  # now and then: the position survives a save and a load
            assert Game.from_json(g.to_json()).to_json() == g.to_json()
        g.apply(rule_based(g) if player == "rule_based" else random_player(g, rng))
    assert g.is_over, f"game {seed} ({n} players, {name}) did not end within {MAX_DECISIONS} decisions"
    assert len(g.winners()) == 1 and sorted(g.returns()) == [-1.0] * (n - 1) + [1.0]
    json.loads(g.to_json())
    return g


@settings(max_examples=12)
@given(st.integers(0, 2**31), st.sampled_from([3, 4, 5]), st.sampled_from(["germany", "new_england"]))
def test_random_games_keep_every_invariant_and_end(seed, n, name):
    play_checked(n, seed, name)


@pytest.mark.parametrize("name", ["germany", "new_england"])
def test_rule_based_and_first_edition_games_keep_every_invariant_and_end(name):
    play_checked(4, 1, name, "rule_based")
    play_checked(4, 2, name, "random", edition=1)


def test_the_same_seed_and_actions_give_the_same_game():
    a = Game(5, 77, "new_england")
    b = Game(5, 77, "new_england")
    rng = np.random.default_rng(0)
    while not a.is_over:
        action = random_player(a, rng)
        a.apply(action)
        b.apply(action)
    assert a.to_json() == b.to_json()


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([3, 4, 5]), st.sampled_from(["germany", "new_england"]),
       st.sampled_from(["random", "rule_based"]), st.sampled_from([1, 2]))
def test_thousands_of_games_keep_every_invariant_and_end(seed, n, name, player, edition):
    play_checked(n, seed, name, player, edition)
