"""One test per clause of the rulebook of Industry (Ystari, 2009), named after the clause.

Positions are built with :func:`.helpers.position` (a real starting position with entries overridden) or loaded
from ``tests/industry/positions/``; each is drawn in a comment. Fields are written ``<era><column>``; the cells of the
drawings read as in :mod:`industry_env.games.industry.render`: ``F0*`` a factory of player 0, developed; ``F0o``
undeveloped (clock side up); ``^`` face up for auction; ``J-`` a joker already taken. Every test asserts exact outcomes.

The shipped board, as far as these tests use it (era 1 and 2)::

    1A Joker Wood   1B Port x2 (1)   1C Port x2 (2)   1D Quarry ->Stone (2) 1pt river
    1E Sawmill ->Wood (2) 1pt river   1F Clay Pit ->Brick (1, Wood) 1pt tracks   1G Carpentry (1, Wood) 2pt river
    1H Windmill (2, Stone) 2pt   1I Textile Mill (2, Brick) 2pt river   1J Steam Engine T (Brick) 2pt
    1K Architecture T (Stone) 2pt   1L Engineering T (Wood) 2pt   roads 1D-1E, 1E-1G, 1H-1I; tech link 1K-1L
    2A Joker Brick   2B Joker ?   2C Port x2 (2, Wood)   2D Railway Station x2 (2, Stone)
    2E Iron Ore Mine ->Iron (2, Wood) 2pt tracks   2F Pottery ->Ceramic (2, Stone) 2pt   2G Glassworks ->Glass (2, Wood)
    2H Bank (3, Brick) 2pt, -1 cost   2I Brewery (2, Glass) 3pt   2J Steam Locomotive T (Iron) 3pt
    2K Metallurgy T (Iron, Stone) 3pt   2L Chemistry T (Glass) 3pt   3H Stock Exchange (4, Glass) 3pt, -1 cost
    (costs in brackets: Talers, then the resources needed; the frozen board tests/industry/positions/board_rules.toml)
"""

from __future__ import annotations

import pytest

from industry_env.games.industry import actions as A
from industry_env.games.industry.components import parse_board
from industry_env.games.industry.reference import Game, IllegalActionError
from industry_env.games.industry.rules import (
    MAX_BID,
    NUM_COLUMNS,
    rounds_in_game,
    tokens_per_round,
)

from .helpers import BOARD, BOARD_TEXT, F, R, hand, legal_names, load_position, play, position, two_stone_board

COL_E, COL_F, COL_I, COL_J = 4, 5, 8, 9  # columns face up in round 1 of seed 0 with 4 players: 1E, 1F, 1I, 1J


def money(g: Game) -> list[int]:
    return list(g.s.money)


# ====================================================================== Preparing the game
def test_setup_each_player_gets_four_talers_then_phase1_income():
    # "Give each player 4 Talers" and Phase 1 "Each player takes 1 Taler": 5 each at the first decision (6 if the
    # coin token came out of the bag in the first round).
    for seed in range(40):
        for n in (3, 4):
            g = Game(n, seed)
            coin = 1 if g.s.face_up[0] else 0
            assert money(g) == [5 + coin] * n
            assert g.s.points == [0] * n
            assert g.s.subsidy == [False] * n


def test_setup_starting_player_is_random_and_is_first_auctioneer():
    # "Randomly decide which player takes the Starting Player marker." "The Starting Player is the first Auctioneer"
    for n in (3, 4):
        seen = set()
        for seed in range(60):
            g = Game(n, seed)
            assert g.phase == "auction"
            assert g.current_player == g.s.starting_player == g.s.auctioneer
            seen.add(g.s.starting_player)
        assert seen == set(range(n))


def test_setup_same_seed_same_game_different_seeds_differ():
    a, b, c = Game(4, 7), Game(4, 7), Game(4, 8)
    assert a.to_json() == b.to_json()
    assert (a.s.bag, a.s.face_up, a.s.starting_player) != (c.s.bag, c.s.face_up, c.s.starting_player)


def test_setup_bad_player_count_or_seed_refused():
    for n in (1, 2, 5):
        with pytest.raises(ValueError, match="num_players"):
            Game(n)
    for seed in (-1, 2**63, 1.5, "0"):
        with pytest.raises(ValueError, match="seed"):
            Game(4, seed)


# ====================================================================== Phase 1 and 2
def _last_development_turn(**kw) -> Game:
    """Era 1, 4 players, the last development turn of a round (player 1 ends it); no field auctioned yet.

    Starting player 2, so the development order was 2, 3, 0, 1. The bag order decides the next draw.
    """
    kw.setdefault("money", [3, 4, 5, 6])
    return position(4, phase="develop", starting_player=2, auctioneer=2, developer=1, dev_turns=3, **kw)


def test_phase1_income_each_player_takes_one_taler():
    g = _last_development_turn(bag=[1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10, 11])
    play(g, "done")
    assert money(g) == [4, 5, 6, 7]
    assert g.s.round == 2


def test_phase2_draws_one_column_token_per_player_in_bag_order():
    g = _last_development_turn(bag=[7, 2, 11, 4, 0, 5, 6, 1, 8, 9, 10, 3])
    play(g, "done")
    assert [c for c in range(NUM_COLUMNS) if g.s.face_up[c]] == [2, 4, 7, 11]
    assert g.s.bag == [0, 5, 6, 1, 8, 9, 10, 3]
    assert legal_names(g) == ["auction 1C", "auction 1E", "auction 1H", "auction 1L", "subsidy"]


def test_phase2_three_players_draw_three_tokens():
    g = position(3, phase="develop", starting_player=0, developer=2, dev_turns=2,
                 bag=[5, 6, 7, 8, 0, 1, 2, 3, 4, 9, 10, 11])  # fmt: skip
    play(g, "done")
    assert [c for c in range(NUM_COLUMNS) if g.s.face_up[c]] == [5, 6, 7]


def test_phase2_coin_token_pays_every_player():
    # "If the Column token with a coin symbol is drawn, each player immediately takes one Taler from the bank."
    g = _last_development_turn(bag=[3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11])
    play(g, "done")
    assert money(g) == [5, 6, 7, 8]  # income 1 + coin 1


def test_phase2_coin_token_is_column_a():
    from industry_env.games.industry.rules import COIN_COLUMN

    assert COIN_COLUMN == 0


def test_balanced_draws_three_players_draw_four_in_eras_4_and_5():
    assert [tokens_per_round(3, e, True) for e in range(5)] == [3, 3, 3, 4, 4]
    assert [tokens_per_round(3, e, False) for e in range(5)] == [3, 3, 3, 3, 3]
    for era in (3, 4):
        g = position(3, era=era, phase="develop", starting_player=0, developer=2, dev_turns=2, past_owner=0)
        play(g, "done")
        assert sum(g.s.face_up) == 4


def test_balanced_draws_four_players_draw_three_in_era_5():
    assert [tokens_per_round(4, e, True) for e in range(5)] == [4, 4, 4, 4, 3]
    assert [tokens_per_round(4, e, False) for e in range(5)] == [4, 4, 4, 4, 4]
    g = position(4, era=4, phase="develop", starting_player=0, developer=3, dev_turns=3, past_owner=0)
    play(g, "done")
    assert sum(g.s.face_up) == 3
    g = position(4, era=4, phase="develop", starting_player=0, developer=3, dev_turns=3, past_owner=0,
                 balanced_draws=False)  # fmt: skip
    play(g, "done")
    assert sum(g.s.face_up) == 4


def test_rounds_per_game_follow_from_draws():
    # 12 fields an era / tokens a round: 3 players 4+4+4+3+3 = 18 rounds (20 unbalanced), 4 players 3+3+3+3+4 = 16
    assert rounds_in_game(3, True) == 18
    assert rounds_in_game(3, False) == 20
    assert rounds_in_game(4, True) == 16
    assert rounds_in_game(4, False) == 15


# ====================================================================== Phase 3: auction
def test_available_fields_are_current_era_with_face_up_token():
    # "A field is available if it lies in the current Era and has a face-up Column token above it."
    g = position(4, era=2, past_owner=0, face_up=[c in (0, 3, 11) for c in range(12)])
    assert legal_names(g) == ["auction 3A", "auction 3D", "auction 3L", "subsidy"]


def test_bidding_starts_left_of_auctioneer_and_skips_auctioneer():
    g = position(4, auctioneer=2, starting_player=2)
    play(g, "auction 1E")
    order = []
    while g.phase == "bid":
        order.append(g.current_player)
        play(g, "pass")
    assert order == [3, 0, 1]


def test_bid_must_be_higher_than_preceding_bid():
    g = position(4, money=[9, 9, 9, 9])
    play(g, "auction 1E", "bid 3")  # player 1 bids 3
    assert g.current_player == 2
    assert [a - A.BID + 1 for a in g.legal_actions() if A.BID <= a < A.SELL] == [4, 5, 6, 7, 8, 9]
    for k in (1, 2, 3):
        with pytest.raises(IllegalActionError):
            play(g, f"bid {k}")
    play(g, "bid 4", "pass")
    assert (g.s.high_bid, g.s.high_bidder) == (4, 2)


def test_cannot_bid_more_than_money():
    g = position(4, money=[5, 3, 0, 7])
    play(g, "auction 1E")
    assert [a - A.BID + 1 for a in g.legal_actions() if A.BID <= a < A.SELL] == [1, 2, 3]
    with pytest.raises(IllegalActionError):
        play(g, "bid 4")
    play(g, "pass")
    assert legal_names(g) == ["pass", "subsidy"]  # player 2 has no money: he can only pass


def test_each_player_bids_or_passes_once_then_auctioneer_decides():
    g = position(4, money=[5, 5, 5, 5])
    play(g, "auction 1E", "bid 1", "bid 2", "bid 3")
    assert g.phase == "sell_or_keep" and g.current_player == 0
    assert legal_names(g) == ["sell", "keep", "subsidy"]


def test_sell_highest_bidder_pays_auctioneer_who_remains_auctioneer():
    # Player 1 auctions 1E; 2 passes, 3 bids 6, 0 passes; 1 sells: 3 pays him 6 and he auctions again.
    g = position(4, money=[5, 8, 5, 6], starting_player=1, auctioneer=1)
    play(g, "auction 1E", "pass", "bid 6", "pass", "sell")
    assert money(g) == [5, 14, 5, 0]
    assert (g.s.owner[F("1E")], g.s.developed[F("1E")], g.s.claimed[F("1E")]) == (3, False, True)
    assert g.phase == "auction" and g.current_player == 1
    assert g.s.starting_player == 1


def test_keep_pays_out_one_taler_each_starting_left_including_himself():
    # Player 1 keeps at 6: the Talers go to 2, 3, 0, 1 (himself), 2, 3 -> he pays 5 net.
    g = position(4, money=[5, 8, 5, 6], starting_player=1, auctioneer=1)
    play(g, "auction 1E", "pass", "bid 6", "pass", "keep")
    assert money(g) == [6, 3, 7, 8]
    assert g.s.owner[F("1E")] == 1


def test_keep_auctioneer_keeps_marker_and_left_neighbour_auctions():
    g = position(4, money=[5, 8, 5, 6], starting_player=1, auctioneer=1)
    play(g, "auction 1E", "pass", "bid 6", "pass", "keep")
    assert g.phase == "auction" and g.current_player == 2 == g.s.auctioneer
    assert g.s.starting_player == 1


def test_keep_only_with_the_full_highest_bid():
    # Ruling: the auctioneer may keep only if he can pay the whole highest bid.
    g = position(4, money=[9, 5, 5, 5], starting_player=1, auctioneer=1)
    play(g, "auction 1E", "pass", "pass", "bid 6")
    assert legal_names(g) == ["sell", "subsidy"]
    with pytest.raises(IllegalActionError):
        play(g, "keep")
    play(g, "subsidy")  # 5 + 3 = 8 Talers: now he can
    assert legal_names(g) == ["sell", "keep"]


def test_keep_three_players_high_bid_wraps_round_the_table():
    # 3 players, auctioneer 0 keeps at 7: Talers to 1, 2, 0, 1, 2, 0, 1 -> +3, +2, -5 (he gets 2 back).
    g = position(3, money=[7, 2, 7], starting_player=0, auctioneer=0)
    play(g, "auction 1E", "pass", "bid 7", "keep")
    assert money(g) == [2, 5, 9]


def test_no_bids_auctioneer_claims_free_and_left_neighbour_auctions():
    g = position(4, money=[5, 5, 5, 5], starting_player=3, auctioneer=3)
    play(g, "auction 1I", "pass", "pass", "pass")
    assert money(g) == [5, 5, 5, 5]
    assert g.s.owner[F("1I")] == 3
    assert g.phase == "auction" and g.current_player == 0
    assert g.s.starting_player == 3


def test_claim_places_undeveloped_token_and_turns_column_face_down():
    g = position(4)
    play(g, "auction 1J", "bid 1", "pass", "pass", "sell")
    assert (g.s.owner[F("1J")], g.s.developed[F("1J")]) == (1, False)
    assert not g.s.face_up[COL_J]
    assert "auction 1J" not in legal_names(g)


def test_joker_field_gives_token_no_property():
    # Column A face up: 1A holds the Wood joker. Player 0 auctions it, player 2 buys it for 2.
    g = position(4, face_up=[c in (0, COL_E, COL_F, COL_I) for c in range(12)])
    play(g, "auction 1A", "pass", "bid 2", "pass", "sell")
    assert g.s.jokers[2] == hand({"Wood": 1})
    assert g.s.owner[F("1A")] == -1 and g.s.claimed[F("1A")]
    assert not g.s.face_up[0]
    assert money(g) == [7, 5, 3, 5]


def test_auctioneer_and_previous_auctioneer_may_win_several_fields_in_a_round():
    # "One player can auction and/or win several fields in any one round. The previous Auctioneer can bid"
    g = position(4, money=[9, 9, 9, 9])
    play(g, "auction 1E", "bid 1", "pass", "pass", "sell")  # player 1 wins 1E; 0 remains auctioneer
    play(g, "auction 1F", "bid 1", "pass", "pass", "sell")  # player 1 wins 1F too
    play(g, "auction 1I", "pass", "pass", "pass")  # nobody bids: 0 claims, 1 becomes auctioneer
    play(g, "auction 1J", "pass", "pass", "bid 2", "keep")  # 0, the previous auctioneer, bids
    assert [g.s.owner[F(x)] for x in ("1E", "1F", "1I", "1J")] == [1, 1, 0, 1]


def test_auction_phase_ends_when_all_available_fields_auctioned():
    g = position(4, starting_player=1, auctioneer=1)
    for fid in ("1E", "1F", "1I", "1J"):
        assert g.phase == "auction"
        play(g, f"auction {fid}", "pass", "pass", "pass")
    # "Beginning with the Starting Player, each player may in turn develop"
    assert g.phase == "develop" and g.current_player == 1
    assert [g.s.owner[F(x)] for x in ("1E", "1F", "1I", "1J")] == [1, 2, 3, 0]


def test_bids_never_reach_the_cap():
    assert MAX_BID == 112
    # All the money a game can hold, in the hands of the first bidder (the auctioneer's left neighbour).
    money = [0] * 4
    money[(position(4).s.starting_player + 1) % 4] = MAX_BID
    g = position(4, money=money)
    play(g, "auction 1E")
    assert max(g.legal_actions()[:-1]) == A.bid(MAX_BID)


# ====================================================================== Phase 4: development
def _develop(num_players=4, developer=0, **kw) -> Game:
    kw.setdefault("starting_player", developer)
    return position(num_players, phase="develop", developer=developer, **kw)


def test_development_begins_with_starting_player_and_goes_clockwise():
    g = _develop(developer=2, starting_player=2)
    order = []
    while g.phase == "develop":
        order.append(g.current_player)
        play(g, "done")
    assert order == [2, 3, 0, 1]
    assert g.s.starting_player == 3


def test_develop_up_to_two_fields():
    # Player 0 owns the undeveloped Quarry 1D (2), Sawmill 1E (2), Windmill 1H (2, Stone).
    #      A    B    C    D    E    F    G    H    I    J    K    L
    # >1   J.   B.   B.   F0o  F0o  F.   F.   F0o  F.   T.   T.   T.
    g = _develop(owned={"1D": 0, "1E": 0, "1H": 0}, money=[10, 5, 5, 5])
    play(g, "develop 1D")
    assert (money(g)[0], g.s.points[0], g.current_player) == (8, 1, 0)
    assert "develop 1H" in legal_names(g)  # Stone from his own, now developed, Quarry
    play(g, "develop 1E")
    assert (money(g)[0], g.s.points[0]) == (6, 2)
    assert g.current_player == 1  # two developments end his turn
    assert g.s.developed[F("1D")] and g.s.developed[F("1E")] and not g.s.developed[F("1H")]


def test_develop_may_stop_early_or_develop_nothing():
    g = _develop(owned={"1D": 0, "1E": 0}, money=[10, 5, 5, 5])
    play(g, "develop 1D", "done")
    assert g.current_player == 1 and not g.s.developed[F("1E")]
    assert legal_names(g) == ["done", "subsidy"]


def test_develop_only_own_undeveloped_fields():
    g = _develop(owned={"1D": (0, True), "1E": 1, "1H": 0}, money=[10, 5, 5, 5])
    assert legal_names(g) == ["develop 1H", "done", "subsidy"]
    for fid in ("1D", "1E", "1F"):
        with pytest.raises(IllegalActionError):
            play(g, f"develop {fid}")


def test_construction_cost_paid_to_bank():
    g = _develop(owned={"1D": 0}, money=[2, 5, 5, 5])
    play(g, "develop 1D")
    assert money(g) == [0, 5, 5, 5]


def test_cannot_develop_without_the_construction_cost():
    g = _develop(owned={"1D": 0}, money=[1, 5, 5, 5])
    assert legal_names(g) == ["done", "subsidy"]


def test_technologies_cost_no_talers():
    # 1L Engineering needs Wood; player 0 has no money and a Wood joker.
    assert all(BOARD.COST[f] == 0 for f in range(60) if BOARD.KIND[f] == 1)
    g = _develop(owned={"1L": 0}, money=[0, 5, 5, 5], jokers=[hand({"Wood": 1})] + [hand({})] * 3)
    play(g, "develop 1L", "pay Wood: joker")
    assert (money(g)[0], g.s.points[0], g.s.developed[F("1L")]) == (0, 2, True)


def test_technology_only_in_current_era():
    # Era 2: player 0 owns the era-1 Engineering (1L, Wood) and the era-2 Chemistry (2L, Glass), holds a ? joker.
    #      ...  K    L
    #  1   ...  T3o  T0o      (the rest of era 1 belongs to player 3, undeveloped)
    # >2   ...  T.   T0o
    g = _develop(era=1, owned={"1L": 0, "2L": 0}, money=[5, 5, 5, 5],
                 jokers=[hand({"?": 1})] + [hand({})] * 3)  # fmt: skip
    assert legal_names(g) == ["develop 2L", "done", "subsidy"]
    with pytest.raises(IllegalActionError):
        play(g, "develop 1L")
    play(g, "develop 2L", "pay Glass: ? joker")
    assert g.s.points[0] == 3


def test_technology_points_at_development():
    g = _develop(owned={"1K": 0}, money=[5, 5, 5, 5], jokers=[hand({"Stone": 1})] + [hand({})] * 3)
    play(g, "develop 1K", "pay Stone: joker")
    assert g.s.points == [2, 0, 0, 0]


def test_factory_points_only_in_own_era():
    # The Quarry (1D, 1 point) developed in era 1 scores 1; developed in era 2 it scores nothing.
    g = _develop(owned={"1D": 0}, money=[5, 5, 5, 5])
    play(g, "develop 1D")
    assert g.s.points[0] == 1
    g = _develop(era=1, owned={"1D": 0}, money=[5, 5, 5, 5])
    play(g, "develop 1D")
    assert (g.s.points[0], money(g)[0], g.s.developed[F("1D")]) == (0, 3, True)


def test_bonus_field_any_era_no_points_at_development():
    # Ports 1B (cost 1) in era 2 and 2C (cost 2, Wood from the bank) in era 2: developed, no points.
    g = _develop(era=1, owned={"1B": 0, "2C": 0}, money=[5, 5, 5, 5])
    play(g, "develop 1B", "develop 2C", "pay Wood: bank")
    assert g.s.developed[F("1B")] and g.s.developed[F("2C")]
    assert (g.s.points[0], money(g)[0]) == (0, 1)


# ---------------------------------------------------------------- procuring the required resources
def test_pay_resource_with_joker():
    # Clay Pit 1F (1, Wood): player 0 holds a Wood joker.
    g = _develop(owned={"1F": 0}, money=[5, 5, 5, 5], jokers=[hand({"Wood": 1})] + [hand({})] * 3)
    play(g, "develop 1F")
    assert g.phase == "pay" and g.current_player == 0
    assert legal_names(g) == ["pay Wood: joker", "subsidy"]
    play(g, "pay Wood: joker")
    assert g.s.jokers[0] == hand({})
    assert (money(g)[0], g.s.points[0], g.s.developed[F("1F")], g.phase) == (4, 1, True, "develop")


def test_pay_resource_with_wild_joker():
    g = _develop(owned={"1F": 0}, money=[5, 5, 5, 5], jokers=[hand({"?": 2})] + [hand({})] * 3)
    play(g, "develop 1F", "pay Wood: ? joker")
    assert g.s.jokers[0] == hand({"?": 1})
    assert g.s.developed[F("1F")]


def test_pay_resource_joker_or_wild_joker_holder_chooses():
    g = _develop(owned={"1F": 0}, money=[5, 5, 5, 5], jokers=[hand({"?": 1, "Wood": 1})] + [hand({})] * 3)
    play(g, "develop 1F")
    assert legal_names(g) == ["pay Wood: joker", "pay Wood: ? joker", "subsidy"]
    play(g, "pay Wood: ? joker")
    assert g.s.jokers[0] == hand({"Wood": 1})


def test_pay_resource_own_factory_automatic_and_free():
    # Player 0's developed Sawmill 1E makes Wood: the Clay Pit 1F costs him 1 Taler and nothing else, even though
    # he also holds a Wood joker (kept) and player 1 produces Wood too.
    g = _develop(owned={"1E": (0, True), "1F": 0, "1D": (1, True)}, money=[5, 5, 5, 5],
                 jokers=[hand({"Wood": 1})] + [hand({})] * 3)  # fmt: skip
    play(g, "develop 1F")
    assert g.phase == "develop" and g.s.developed[F("1F")]
    assert money(g) == [4, 5, 5, 5] and g.s.jokers[0] == hand({"Wood": 1})


def test_pay_resource_other_producer_one_taler():
    # Player 2's developed Sawmill makes Wood; era 1 has no bank: player 0 pays player 2 one Taler for the Wood.
    g = _develop(owned={"1E": (2, True), "1F": 0}, money=[5, 5, 5, 5])
    play(g, "develop 1F")
    assert legal_names(g) == ["pay Wood: player 2", "subsidy"]
    play(g, "pay Wood: player 2")
    assert money(g) == [3, 5, 6, 5]
    assert g.s.developed[F("1F")]


def test_pay_resource_other_producer_buyer_chooses_among_several():
    # Custom board: the Textile Mill 1I also makes Stone. Players 1 (Quarry 1D) and 3 (Textile Mill 1I) both make
    # Stone; player 0 develops the Windmill 1H (2, Stone) in era 2 and chooses to pay player 3. The bank is not
    # offered although Stone is an era-1 resource: other players produce it.
    g = position(4, board=two_stone_board(), era=1, phase="develop", developer=0, starting_player=0,
                 owned={"1D": (1, True), "1I": (3, True), "1H": 0}, past_owner=2, money=[5, 5, 5, 5])  # fmt: skip
    play(g, "develop 1H")
    assert legal_names(g) == ["pay Stone: player 1", "pay Stone: player 3", "subsidy"]
    play(g, "pay Stone: player 3")
    assert money(g) == [2, 5, 5, 6]


def test_pay_resource_other_producer_needs_one_taler():
    # With no money left after the construction cost, a resource bought from another player is unaffordable.
    g = _develop(owned={"1E": (2, True), "1F": 0}, money=[1, 5, 5, 5])
    assert legal_names(g) == ["done", "subsidy"]


def test_pay_resource_bank_only_when_no_other_player_produces():
    # Era 2: Iron Ore Mine 2E (2, Wood). Nobody makes Wood -> the bank sells it; player 1 makes Wood -> only he.
    g = _develop(era=1, owned={"2E": 0}, money=[5, 5, 5, 5], past_owner=3)
    play(g, "develop 2E")
    assert legal_names(g) == ["pay Wood: bank", "subsidy"]
    g = _develop(era=1, owned={"2E": 0, "1E": (1, True)}, money=[5, 5, 5, 5], past_owner=3)
    play(g, "develop 2E")
    assert legal_names(g) == ["pay Wood: player 1", "subsidy"]


def test_pay_resource_bank_only_resources_of_earlier_eras():
    # Era 1: no resource at the bank, so the Clay Pit (Wood) cannot be developed without Wood.
    g = _develop(owned={"1F": 0}, money=[5, 5, 5, 5])
    assert legal_names(g) == ["done", "subsidy"]
    # Era 2: Glass (produced in era 2) is not at the bank, Stone is: Brewery 2I (Glass) no, Pottery 2F (Stone) yes.
    g = _develop(era=1, owned={"2I": 0, "2F": 0}, money=[5, 5, 5, 5], past_owner=3)
    assert legal_names(g) == ["develop 2F", "done", "subsidy"]
    # Era 3: Glass is at the bank now.
    g = _develop(era=2, owned={"2I": 0}, money=[5, 5, 5, 5], past_owner=3)
    play(g, "develop 2I", "pay Glass: bank")
    assert money(g)[0] == 2


def test_bank_resources_by_era_table():
    # "Era 2: Stone, Brick and Wood; Era 3: Ceramic, Glass, Iron; Era 4: Cable, Steel, Cement; Era 5: Plastic,
    # Computers" (eras 1-based; BANK_ERA is 0-based).
    names = BOARD.resource_names
    table = {n: int(BOARD.BANK_ERA[i]) + 1 for i, n in enumerate(names)}
    assert table == {"Stone": 2, "Brick": 2, "Wood": 2, "Ceramic": 3, "Glass": 3, "Iron": 3,
                     "Cable": 4, "Steel": 4, "Cement": 4, "Plastic": 5, "Computers": 5}  # fmt: skip


def test_pay_bank_costs_one_taler_to_bank():
    # The rulebook's iron ore mine, developed in era 2 "for 2 Talers + 1 Wood", giving 2 VP.
    g = _develop(era=1, owned={"2E": 0}, money=[5, 5, 5, 5], past_owner=3)
    play(g, "develop 2E", "pay Wood: bank")
    assert money(g) == [2, 5, 5, 5]
    assert g.s.points[0] == 2


def test_pay_two_resources_in_order():
    # Metallurgy 2K (Iron, Stone) in era 2: Iron from player 2's Iron Ore Mine, Stone from the bank.
    g = _develop(era=1, owned={"2K": 0, "2E": (2, True)}, money=[5, 5, 5, 5], past_owner=3)
    play(g, "develop 2K")
    assert g.s.pending == [R("Iron"), R("Stone")]
    play(g, "pay Iron: player 2")
    assert legal_names(g) == ["pay Stone: bank", "subsidy"]
    play(g, "pay Stone: bank")
    assert money(g) == [3, 5, 6, 5] and g.s.points[0] == 3


def test_payment_choice_must_leave_remaining_resources_payable():
    # Custom board: Metallurgy 2K needs Stone, then Iron. Era 2, nobody makes Iron and the bank does not sell it
    # yet, so only player 0's ? joker can pay the Iron; he has 1 Taler (technologies cost nothing). Paying the
    # Stone with the ? joker would leave the Iron unpayable, so the Stone must come from the bank.
    board = parse_board(BOARD_TEXT.replace('needs = ["Iron", "Stone"]', 'needs = ["Stone", "Iron"]'), "stone_iron.toml")
    g = position(4, board=board, era=1, phase="develop", developer=0, starting_player=0, owned={"2K": 0},
                 money=[1, 5, 5, 5], past_owner=3, jokers=[hand({"?": 1})] + [hand({})] * 3)  # fmt: skip
    play(g, "develop 2K")
    assert g.s.pending == [R("Stone"), R("Iron")]
    assert legal_names(g) == ["pay Stone: bank", "subsidy"]
    with pytest.raises(IllegalActionError):
        play(g, "pay Stone: ? joker")
    play(g, "pay Stone: bank")
    assert legal_names(g) == ["pay Iron: ? joker", "subsidy"]
    play(g, "pay Iron: ? joker")
    assert money(g) == [0, 5, 5, 5] and g.s.developed[F("2K")] and g.s.points[0] == 3
    # Without the Taler the field cannot be developed at all.
    g = position(4, board=board, era=1, phase="develop", developer=0, starting_player=0, owned={"2K": 0},
                 money=[0, 5, 5, 5], past_owner=3, jokers=[hand({"?": 1})] + [hand({})] * 3)  # fmt: skip
    assert legal_names(g) == ["done", "subsidy"]


def test_cannot_develop_when_a_resource_is_unavailable():
    # Steam Locomotive 2J (Iron) in era 2: nobody makes Iron, Iron is not yet at the bank, no joker.
    g = _develop(era=1, owned={"2J": 0}, money=[9, 5, 5, 5], past_owner=3)
    assert legal_names(g) == ["done", "subsidy"]


# ---------------------------------------------------------------- Bank and Stock Exchange
def test_bank_discount_one_for_subsequent_developments():
    # Player 0 develops the Bank 2H (3, Brick joker): full price; then the Glassworks 2G (2, Wood joker) costs 1.
    g = _develop(era=1, owned={"2H": 0, "2G": 0}, money=[10, 5, 5, 5], past_owner=3,
                 jokers=[hand({"Brick": 1, "Wood": 1})] + [hand({})] * 3)  # fmt: skip
    play(g, "develop 2H", "pay Brick: joker")
    assert money(g)[0] == 7
    play(g, "develop 2G", "pay Wood: joker")
    assert money(g)[0] == 6
    assert g.s.points[0] == 4


def test_stock_exchange_discount_one():
    g = _develop(era=2, owned={"3H": (0, True), "1D": 0}, money=[5, 5, 5, 5], past_owner=3)
    assert g.construction_cost(0, F("1D")) == 1
    assert g.construction_cost(1, F("1D")) == 2  # only for the owner
    play(g, "develop 1D")
    assert money(g)[0] == 4


def test_bank_and_stock_exchange_discount_two_never_below_zero():
    g = _develop(era=2, owned={"2H": (0, True), "3H": (0, True), "1B": 0, "3F": 0}, money=[5, 5, 5, 5],
                 past_owner=3)  # fmt: skip
    assert g.construction_cost(0, F("3F")) == 1  # 3 - 2
    assert g.construction_cost(0, F("1B")) == 0  # 1 - 2, never below zero
    assert g.construction_cost(0, F("5G")) == 3  # 5 - 2
    play(g, "develop 1B")
    assert money(g)[0] == 5


def test_undeveloped_bank_gives_no_discount():
    g = _develop(era=1, owned={"2H": 0, "1D": 0}, money=[5, 5, 5, 5], past_owner=3)
    assert g.construction_cost(0, F("1D")) == 2


# ====================================================================== Phase 5 and the change of Era
def test_phase5_starting_player_moves_clockwise():
    g = _last_development_turn(bag=[1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10, 11])
    play(g, "done")
    assert g.s.starting_player == 3
    assert g.phase == "auction" and g.current_player == 3


def test_phase5_after_keep_marker_moves_from_the_starting_player():
    # The keeper kept the marker during the round; in Phase 5 it moves from him to his left.
    g = position(4, starting_player=1, auctioneer=1, money=[9, 9, 9, 9])
    play(g, "auction 1E", "pass", "pass", "bid 1", "keep")
    for fid in ("1F", "1I", "1J"):
        play(g, f"auction {fid}", "pass", "pass", "pass")
    assert g.phase == "develop" and g.current_player == 1
    play(g, "done", "done", "done", "done")
    assert g.s.starting_player == 2 and g.current_player == 2


def _era_end(era: int, num_players: int = 4, **kw) -> Game:
    """The last development turn of the last round of ``era`` (0-based): every field of the era auctioned.

    All of it belongs to player 0, undeveloped; player 3 (4 players) ends the round.
    """
    owned = {f"{era + 1}{c}": 0 for c in "BCDEFGHIJKL"}
    kw.setdefault("jokers_taken", (f"{era + 1}A",))
    kw.setdefault("developer", num_players - 1)
    kw.setdefault("dev_turns", num_players - 1)
    return position(num_players, era=era, phase="develop", starting_player=0, owned=owned, past_owner=0, **kw)


def test_change_of_era_after_twelve_auctions():
    g = _era_end(0)
    round_before = g.s.round
    play(g, "done")
    assert g.s.era == 1
    assert g.s.round == round_before + 1
    assert sum(g.s.face_up) == 4 and len(g.s.bag) == 8  # all 12 tokens back in the bag, 4 drawn
    assert sorted(g.s.bag + [c for c in range(12) if g.s.face_up[c]]) == list(range(12))
    assert all(a >= A.auction(12) for a in g.legal_actions() if a < A.PASS)  # era 2 fields for auction


def test_no_change_of_era_before_all_twelve_auctioned():
    g = _last_development_turn(owned={"1D": 0, "1E": 1, "1F": 2, "1G": 3},
                               bag=[1, 2, 7, 8, 0, 9, 10, 11])  # fmt: skip
    play(g, "done")
    assert g.s.era == 0 and sum(g.s.face_up) == 4


def test_technologies_of_previous_eras_dead_after_era_change():
    # End of era 1: player 0 owns all of era 1 undeveloped and holds Wood, Stone and Brick jokers. Before the
    # change he could develop Engineering 1L; after it only the era-1 factories and bonus fields remain.
    jokers = [hand({"Wood": 1, "Stone": 1, "Brick": 1})] + [hand({})] * 3
    g = _era_end(0, jokers=jokers, developer=0, dev_turns=0)
    assert {"develop 1J", "develop 1K", "develop 1L"} <= set(legal_names(g))
    play(g, "done", "done", "done", "done")  # era 2 begins; all four era-2 fields go unbid
    assert g.s.era == 1
    while g.phase != "develop":
        play(g, g.legal_actions()[0] if g.phase == "auction" else "pass")
    while g.current_player != 0:
        play(g, "done")
    names = legal_names(g)
    assert not {"develop 1J", "develop 1K", "develop 1L"} & set(names)
    assert {"develop 1B", "develop 1D", "develop 1E"} <= set(names)


def test_factories_and_bonus_fields_of_previous_eras_still_developable():
    g = _develop(era=3, owned={"1D": 0, "2C": 0}, money=[9, 5, 5, 5], past_owner=3)
    play(g, "develop 1D", "develop 2C", "pay Wood: bank")
    assert g.s.developed[F("1D")] and g.s.developed[F("2C")] and g.s.points[0] == 0


# ====================================================================== Subsidy
def test_subsidy_gives_three_talers_once():
    g = position(4, money=[5, 5, 5, 5])
    play(g, "subsidy")
    assert money(g) == [8, 5, 5, 5] and g.s.subsidy == [True, False, False, False]
    assert g.phase == "auction" and g.current_player == 0  # the decision is still his
    assert "subsidy" not in legal_names(g)
    with pytest.raises(IllegalActionError):
        play(g, "subsidy")


@pytest.mark.parametrize("phase", ["auction", "bid", "sell_or_keep", "develop", "pay"])
def test_subsidy_at_any_own_decision(phase):
    g = _develop(owned={"1F": 0}, money=[5, 5, 5, 5], jokers=[hand({"Wood": 1})] + [hand({})] * 3)
    if phase == "pay":
        play(g, "develop 1F")
    elif phase != "develop":
        g = position(4, money=[5, 5, 5, 5])
        play(g, *{"auction": [], "bid": ["auction 1E"], "sell_or_keep": ["auction 1E", "bid 1", "pass", "pass"]}[phase])
    assert g.phase == phase
    p = g.current_player
    before = money(g)
    play(g, "subsidy")
    assert money(g)[p] == before[p] + 3 and g.phase == phase and g.current_player == p


def test_subsidy_only_for_the_player_to_decide():
    # Only the current player can take it, and each of the others still may later.
    g = position(4, money=[5, 5, 5, 5], subsidy=[False, True, False, False])
    play(g, "auction 1E")
    assert g.current_player == 1 and legal_names(g)[-1] != "subsidy"
    play(g, "pass")
    assert legal_names(g)[-1] == "subsidy"


def test_subsidy_raises_the_bid_limit():
    g = position(4, money=[5, 2, 5, 5])
    play(g, "auction 1E")
    assert "bid 5" not in legal_names(g)
    play(g, "subsidy", "bid 5")
    assert (g.s.high_bid, g.s.high_bidder) == (5, 1)


# ====================================================================== End of the game and final scoring
def test_end_of_game_after_sixty_auctions_at_end_of_round():
    g = _era_end(4, jokers_taken=("5A",))
    assert not g.is_over
    play(g, "done")
    assert g.is_over and g.phase == "over"
    assert g.current_player == -1 and g.legal_actions() == [] and not g.legal_action_mask().any()
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(A.DONE)


def test_end_of_game_three_players():
    g = _era_end(4, num_players=3)
    play(g, "done")
    assert g.is_over and all(g.s.claimed)


def test_game_not_over_while_fields_of_era5_remain():
    g = _last_development_turn(era=4, past_owner=0, owned={"5B": 0}, bag=[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0])
    play(g, "done")
    assert not g.is_over and g.s.era == 4 and sum(g.s.face_up) == 3


def _over(**kw) -> Game:
    kw.setdefault("past_owner", 3)
    kw.setdefault("money", [0, 0, 0, 0])
    return position(4, era=4, phase="over", starting_player=0, developer=-1, auctioneer=0, **kw)


def test_final_scoring_money_one_point_per_three_talers_rounded_down():
    g = _over(money=[0, 2, 3, 11])
    assert [g.score_breakdown(p)["money"] for p in range(4)] == [0, 0, 1, 3]


def test_final_scoring_road_pairs_three_points():
    # Player 0: Quarry 1D, Sawmill 1E, Carpentry 1G developed: roads 1D-1E and 1E-1G -> 6.
    # Player 1: Windmill 1H developed, Textile Mill 1I undeveloped (removed): 0.
    g = _over(owned={"1D": (0, True), "1E": (0, True), "1G": (0, True), "1H": (1, True), "1I": 1})
    assert g.score_breakdown(0)["roads"] == 6
    assert g.score_breakdown(1)["roads"] == 0


def test_final_scoring_road_between_different_owners_scores_nothing():
    g = _over(owned={"1D": (0, True), "1E": (1, True)})
    assert g.score_breakdown(0)["roads"] == g.score_breakdown(1)["roads"] == 0


def test_final_scoring_technology_link_pairs_three_points():
    # Architecture 1K - Engineering 1L, Engineering 1L - Metallurgy 2K: a chain of 3 techs is 2 pairs -> 6.
    g = _over(owned={"1K": (0, True), "1L": (0, True), "2K": (0, True), "1J": (1, True)})
    assert g.score_breakdown(0)["tech_links"] == 6
    assert g.score_breakdown(1)["tech_links"] == 0


def test_final_scoring_bonus_field_points_per_connected_factory():
    # Player 0: Port 1B (x2) with river factories Quarry 1D and Carpentry 1G and the tracks-only Clay Pit 1F:
    # 2 x 2 = 4. Railway Station 4B (x3) with tracks factories Clay Pit 1F and Iron Ore Mine 2E: 3 x 2 = 6.
    g = _over(owned={"1B": (0, True), "1D": (0, True), "1G": (0, True), "1F": (0, True), "2E": (0, True),
                     "4B": (0, True), "1I": (1, True)})  # fmt: skip
    assert g.score_breakdown(0)["bonus"] == 10
    assert g.score_breakdown(1)["bonus"] == 0  # a factory on the river but no Port


def test_final_scoring_bonus_field_needs_a_factory_of_the_same_owner():
    g = _over(owned={"1B": (0, True), "1D": (1, True)})
    assert g.score_breakdown(0)["bonus"] == 0 and g.score_breakdown(1)["bonus"] == 0


def test_final_scoring_unused_jokers_two_points_each():
    g = _over(jokers=[hand({"Wood": 1, "?": 1}), hand({"Steel": 3}), hand({}), hand({})], jokers_taken=())
    assert [g.score_breakdown(p)["jokers"] for p in range(4)] == [4, 6, 0, 0]


def test_final_scoring_subsidy_minus_five():
    g = _over(subsidy=[True, False, False, True], money=[3, 0, 0, 3])
    assert [g.score_breakdown(p)["subsidy"] for p in range(4)] == [-5, 0, 0, -5]
    assert g.scores() == [-4, 0, 0, -4]


def test_final_scoring_undeveloped_fields_removed_before_scoring():
    # Player 0: Quarry 1D developed, Sawmill 1E and Port 1B undeveloped: no road, no bonus, one token.
    g = _over(owned={"1D": (0, True), "1E": 0, "1B": 0})
    b = g.score_breakdown(0)
    assert (b["roads"], b["bonus"]) == (0, 0)
    assert g.property_tokens(0) == 1
    assert g.property_tokens(3) == 0  # all his fields are undeveloped


def test_final_scoring_keeps_points_scored_during_the_game():
    g = _over(points=[7, 0, 3, 0])
    assert [g.score_breakdown(p)["development"] for p in range(4)] == [7, 0, 3, 0]


def test_final_scoring_all_sources_add_up():
    # Player 0: 11 Talers (3), development 7, roads 1D-1E-1G (6), tech link 1K-1L (3), Port 1B with river
    # factories 1D, 1E, 1G (6), two jokers (4), subsidy (-5): 24.
    g = _over(owned={"1B": (0, True), "1D": (0, True), "1E": (0, True), "1G": (0, True), "1K": (0, True),
                     "1L": (0, True)}, money=[11, 0, 0, 0], points=[7, 0, 0, 0], subsidy=[True, False, False, False],
              jokers=[hand({"Wood": 1, "?": 1})] + [hand({})] * 3)  # fmt: skip
    assert g.score_breakdown(0) == {"development": 7, "money": 3, "roads": 6, "tech_links": 3, "bonus": 6,
                                    "jokers": 4, "subsidy": -5}  # fmt: skip
    assert g.scores() == [24, 0, 0, 0]
    assert g.winners() == [0] and g.returns() == [1.0, -1.0, -1.0, -1.0]


def test_scores_during_game_are_the_scoring_track():
    g = position(4, points=[1, 2, 3, 4], money=[30, 30, 30, 30])
    assert g.scores() == [1, 2, 3, 4]
    assert g.score_breakdown(0) == {"development": 1}
    assert g.winners() == [] and g.returns() == [0.0] * 4


def test_most_points_wins():
    g = _over(points=[1, 5, 3, 0])
    assert g.winners() == [1]
    assert g.returns() == [-1.0, 1.0, -1.0, -1.0]


def test_tie_break_property_tokens():
    # Players 0 and 1 both score 10; player 0 has two developed fields on the board, player 1 one (and two
    # undeveloped, removed). Player 0 wins.
    g = _over(points=[10, 10, 0, 0], owned={"1H": (0, True), "1J": (0, True), "1K": (1, True), "1D": 1, "1E": 1})
    assert g.scores()[:2] == [10, 10]
    assert (g.property_tokens(0), g.property_tokens(1)) == (2, 1)
    assert g.winners() == [0]


def test_tie_break_then_money():
    # Equal points (money 4 and 5 both give 1 point) and equal tokens: the richer player 1 wins.
    g = _over(points=[10, 10, 0, 0], money=[4, 5, 0, 0], owned={"1H": (0, True), "1K": (1, True)})
    assert g.scores()[:2] == [11, 11]
    assert g.winners() == [1]


def test_shared_win_when_still_tied():
    g = _over(points=[10, 10, 0, 0], money=[4, 4, 0, 0], owned={"1H": (0, True), "1K": (1, True)})
    assert g.winners() == [0, 1]
    assert g.returns() == [1.0, 1.0, -1.0, -1.0]


def test_everyone_tied_returns_zero():
    g = _over(points=[0, 0, 0, 0], money=[0, 0, 0, 0])
    assert g.winners() == [0, 1, 2, 3]
    assert g.returns() == [0.0, 0.0, 0.0, 0.0]


# ====================================================================== the rulebook's own examples
def test_rulebook_example_three_ports_four_river_factories_score_24():
    # "A player has developed 3 Port Bonus fields (= 3 x 2 points) and 4 Factories which are connected to the
    # river ... For each of his 4 factories, he thus earns 6 points, for a total of 24 points from Bonus fields."
    #      A    B    C    D    E    F    G    H    I
    #  1   J-   B0*  B0*  F0*  F0*  F.   F0*  F.   F0*      Ports 1B, 1C; river factories 1D, 1E, 1G, 1I
    #  2   J-   J-   B0*  ...                                Port 2C
    g = load_position("rulebook_ports_example")
    assert g.is_over
    assert g.score_breakdown(0)["bonus"] == 24
    assert [int(BOARD.MULTIPLIER[F(x)]) for x in ("1B", "1C", "2C")] == [2, 2, 2]


def test_rulebook_example_keep_payout():
    # "starting with the player to his left, the Auctioneer gives each player - including himself - 1 Taler until
    # he has paid the full price. (With high bids, players might receive more than one coin.)"
    # Saved position: player 1 auctions 1E, player 3 bid 6; 4 players with 5, 8, 5, 6 Talers.
    g = load_position("keep_decision")
    assert g.phase == "sell_or_keep" and g.current_player == 1 and g.s.high_bid == 6
    keep, sell = g.clone(), g.clone()
    play(keep, "keep")
    play(sell, "sell")
    assert money(keep) == [6, 3, 7, 8]  # 2 and 3 receive 2 each, 0 and 1 one each
    assert money(sell) == [5, 14, 5, 0]


def test_rulebook_example_iron_ore_mine():
    # Review of Industry: an iron ore mine bought in era 2 was developed for 2 Talers + 1 Wood and gave 2 VP.
    g = load_position("era2_iron_ore_mine")
    before = money(g)[0]
    play(g, "develop 2E", "pay Wood: bank")
    assert money(g)[0] == before - 3 and g.s.points[0] == 2


def test_rulebook_twelve_fields_per_era_three_or_four_a_round():
    # "Depending on the number of players, 3 or 4 fields will be auctioned each round; in one complete Era, twelve
    # fields will be auctioned."
    for n in (3, 4):
        for balanced in (False, True):
            for era in range(5):
                k = tokens_per_round(n, era, balanced)
                assert k in (3, 4) and 12 % k == 0


def test_saved_position_bank_and_stock_exchange():
    # Era 3, player 0 owns the developed Bank 2H and Stock Exchange 3H, and the undeveloped Steelworks 3F
    # (3, Iron + Stone) and Port 1C (2): with -2 he pays 1 for the Steelworks and nothing for the Port.
    g = load_position("era3_bank_and_stock_exchange")
    before = money(g)
    play(g, "develop 1C")
    assert money(g) == before
    play(g, "develop 3F", "pay Iron: bank", "pay Stone: bank")
    assert money(g)[0] == before[0] - 3
    assert g.s.points[0] == 2


# ====================================================================== conventions
@pytest.mark.parametrize("action", [-1, A.NUM_ACTIONS, 4.0, 4.5, "4", "auction 1E", None, True, [4]])
def test_illegal_or_malformed_action_refused_and_changes_nothing(action):
    # Only whole numbers in 0..NUM_ACTIONS-1 that the mask allows are actions; anything else raises
    # IllegalActionError (never accepted after a silent int() conversion) and leaves the game as it was.
    g = position(4)
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply(action)
    assert g.to_json() == before


def test_numpy_integer_actions_accepted():
    import numpy as np

    g = position(4)
    g.apply(np.int64(A.auction(F("1E"))))
    assert g.phase == "bid" and g.s.lot == F("1E")
