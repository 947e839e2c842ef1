"""A2, A6, ruling 19: a bid of any amount the bidder's coins allow («il giocatore iniziale può offrire di più se lo
desidera»; «non può offrire più monete che non ha»). ``bid +31`` bids 31 over the smallest and asks the bidder
again what to add; both engines agree, and so do the observation, its rebuilt position and the names."""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century import engine as E
from industry_env.games.twentieth_century.from_observation import from_observation
from industry_env.games.twentieth_century.reference import Game

from .helpers import act, game_led_by


def _rich(coins: list[int]) -> Game:
    """Round I of a 3-player game led by seat 0, the seats holding ``coins``."""
    g = game_led_by(3, 0)
    g.coins = list(coins)
    for p, c in enumerate(coins):
        g.ledger[p]["coins_in"] = c
    return g


def test_A2_ruling_19_a_leader_holding_45_coins_opens_at_40():
    g = _rich([45, 10, 10])
    act(g, "land 0", "bid +31")  # the minimum 2 plus 31: 33, or more
    assert g.high_bid == 33 and g.high_bidder == 0 and g.to_move == 0 and g.phase == "bid"
    assert g.legal_actions() == [A.BID + k for k in range(13)]  # adds 0 to 12: at most his 45 coins
    assert g.action_to_string(A.BID + 7) == "bid +7 (40 coins)"
    act(g, "bid +7")
    assert g.high_bid == 40 and g.high_bidder == 0 and g.to_move == 1
    assert g.legal_actions() == [A.PASS, A.WITHDRAW]  # 10 coins cannot beat 40


def test_ruling_19_a_raise_of_more_than_31_over_the_high_bid():
    g = _rich([45, 120, 10])
    act(g, "land 0", "bid +7")  # Blue opens at 9
    assert g.action_to_string(A.BID + 31) == "bid +31 (41 coins or more)"
    act(g, "bid +31", "bid +31")  # Green: 10 + 31, then 31 more
    assert g.high_bid == 72 and g.to_move == 1
    act(g, "bid +28")
    assert g.high_bid == 100 and g.high_bidder == 1 and g.to_move == 2
    act(g, "pass", "pass")
    assert g.coins[1] == 20 and g.pending[1][0][1] == 0  # Green paid 100 for the tile of slot 0


def test_ruling_19_every_bid_up_to_the_coins_is_one_sequence_of_decisions():
    coins = 80
    g = _rich([coins, 10, 10])
    act(g, "land 0")
    finals: list[int] = []
    todo = [g]
    while todo:
        h = todo.pop()
        for a in h.legal_actions():
            k = h.clone()
            k.apply(a)
            if k.phase == "bid" and k.to_move == k.high_bidder:
                todo.append(k)
            else:
                finals.append(k.high_bid)
    assert sorted(finals) == list(range(2, coins + 1))  # each amount from the minimum up once


def test_the_high_bidder_adding_to_his_bid_neither_passes_nor_withdraws_and_a_full_purse_closes_it():
    g = _rich([33, 10, 10])
    act(g, "land 0", "bid +31")  # 33, all he has: 'bid +0' is the only addition, and plays itself (ruling 20)
    assert g.high_bid == 33 and g.to_move == 1


def _both(g: Game, plays: list[str]) -> tuple[Game, E.State]:
    state = E.from_games([g])
    for text in plays:
        a = g.string_to_action(text)
        assert np.flatnonzero(E.legal_action_mask(state)[0]).tolist() == g.legal_actions()
        for seat in range(g.n):
            np.testing.assert_array_equal(E.observe(state, seat)[0], g.observe(seat))
        g.apply(a)
        state = E.step(state, np.array([a]))
    return g, state


def test_ruling_19_both_engines_agree_on_a_bid_of_more_than_the_minimum_plus_31():
    g, state = _both(_rich([45, 120, 10]), ["land 0", "bid +31", "bid +7", "bid +31", "bid +31"])
    assert state.high_bid[0] == 41 + 62 and state.to_move[0] == 1  # Green asked again at 103
    assert E.position(state, 0)["high_bid"] == g.high_bid == 103
    np.testing.assert_array_equal(E.legal_action_mask(state)[0], g.legal_action_mask())
    g, state = _both(g, ["bid +16", "pass", "pass"])
    assert E.to_game(state, 0).to_json() == g.to_json()
    assert g.coins[1] == 1 and g.leader == 1


def test_a_position_rebuilt_from_the_bidders_observation_asks_him_again():
    g = _rich([45, 120, 10])
    act(g, "land 0", "bid +31")
    rebuilt = from_observation(np.array([g.observe(0)]))
    np.testing.assert_array_equal(E.legal_action_mask(rebuilt)[0], g.legal_action_mask())
    assert rebuilt.high_bid[0] == 33 and rebuilt.to_move[0] == rebuilt.high_bidder[0] == 0


@pytest.mark.parametrize("text", ["bid +31", "bid +0"])
def test_the_bid_names_read_back(text):
    assert A.action_to_string(A.string_to_action(text)) == text


def test_a_saved_position_of_the_high_bidder_asked_again_loads_only_after_a_bid_of_31_or_more():
    from industry_env.games.twentieth_century.state import GameStateError

    g = _rich([45, 120, 10])
    act(g, "land 0", "bid +31")
    assert Game.from_json(g.to_json()).legal_actions() == g.legal_actions()
    doc = json.loads(g.to_json())
    doc["high_bid"] = 20  # a bid under the minimum + 31 was never asked to be added to
    with pytest.raises(GameStateError, match="to_move"):
        Game.from_json(json.dumps(doc))


@pytest.mark.parametrize("n, seed", [(3, 0), (4, 1), (5, 2)])
def test_random_games_of_rich_players_bidding_in_parts_agree_in_both_engines(n, seed):
    """Every seat starts with 200 coins, so random bids of 31 or more over the smallest are common: the engines agree
    at every decision (mask, the observation of the seat to move) and on the whole final position."""
    g = Game(n, seed=seed)
    for p in range(n):
        g.coins[p] = g.ledger[p]["coins_in"] = 200
    state = E.from_games([g])
    rng = np.random.default_rng(seed)
    asked_again = 0
    while not g.is_over:
        mask = E.legal_action_mask(state)[0]
        assert np.flatnonzero(mask).tolist() == g.legal_actions()
        np.testing.assert_array_equal(E.observe(state)[0], g.observe(g.to_move))
        asked_again += g.phase == "bid" and g.to_move == g.high_bidder
        a = int(rng.choice(np.flatnonzero(mask)))
        g.apply(a)
        state = E.step(state, np.array([a]))
    assert asked_again > 0
    assert E.position(state, 0) == json.loads(g.to_json())


def test_ruling_19_the_follow_up_decision_is_worded_as_adding_to_the_bid():
    """After 'bid +31' the terminal and the picture asked the bidder to "raise, pass or withdraw", which he cannot."""
    from industry_env.games.twentieth_century import playtext as T

    g = _rich([45, 10, 10])
    act(g, "land 0", "bid +31")
    assert T.decision_words(g) == "the land auction: say what to add to the bid of 33 coins"
    assert T.decision_words(g, T.PHASE_WORDS) == T.decision_words(g)
    assert "adding 7 to your bid of 33" in T.choice_text(g, A.BID + 7)
    act(g, "bid +7")
    assert T.decision_words(g) == T.DECISIONS["bid"]
