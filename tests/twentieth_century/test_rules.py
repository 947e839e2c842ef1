"""20th Century's rules, clause by clause (ids as in docs/twentieth-century/rules.md), on hand-built positions; the
rulebook's worked examples (W...) as known answers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env import load_game
from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century.geometry import START_CELL, train_connected
from industry_env.games.twentieth_century.reference import Game, IllegalActionError, rank_bonus
from industry_env.games.twentieth_century.rules import consolation, extra_cube_penalty

from .helpers import act, game_led_by, greedy_line_game, land_code, put, tech_index, with_tiles

CENTRE_CELL = 0  # the starting tile's slot, on cell START_CELL (0, 0)
CENTRE = START_CELL


def _withdraw_all(g: Game) -> None:
    """Everyone withdraws at once, buying nothing (the auction phase ends)."""
    while g.phase in ("lead", "tech"):
        act(g, "withdraw" if g.phase == "lead" else "done")


# ----------------------------------------------------------------------------------------------- set-up
@pytest.mark.parametrize("n", [3, 4, 5])
def test_S7_S8_S9_each_player_starts_with_the_starting_tile_10_coins_and_10_science(n):  # W1
    g = Game(n, seed=1)
    for p in range(n):
        assert (g.coins[p], g.science[p], g.scores()[p], g.pollution[p]) == (10, 10, 0, 0)
        assert g.production(p) == (3, 2, 0)
        assert g.grid_tile[p][CENTRE_CELL] == 0 and g.total_cubes(p) == 1
        assert g.grid_citizens[p][CENTRE_CELL] == 0b011  # the two cities producing coins and science


@pytest.mark.parametrize(("n", "lands", "techs", "marker"), [(3, 5, 4, 1), (4, 6, 5, 0), (5, 8, 6, 0)])
def test_P3_P6_offers_and_the_cost_marker_by_player_count(n, lands, techs, marker):  # W2
    g = Game(n, seed=2)
    assert len(g.land_offer) == lands and len(g.tech_offer) == techs and g.cost_pos == marker
    assert all(g.data.land[t].stack == "I-II" for t in g.land_offer)


def test_S4_P4_five_catastrophes_stacked_by_era_and_the_round_one_is_revealed():
    g = Game(4, seed=3)
    eras = [g.data.catastrophes[k].era for k in [g.cat_current, *g.cat_stack]]
    assert eras == ["I-II", "I-II", "III-IV", "III-IV", "V"] and g.cat_revealed == [g.cat_current]


def test_S1_scoring_cards_are_drawn_or_fixed_or_left_out():
    assert {Game(3, seed=s).r2 for s in range(30)} == {0, 1, 2}
    g = Game(3, seed=0, r2="b", r4="none")
    assert (g.r2, g.r4) == (1, -1)
    with pytest.raises(ValueError, match="r2='d'"):
        Game(3, r2="d")


# ----------------------------------------------------------------------------------------------- the auction
def test_W3_A2_to_A7_T4_T5_the_rulebook_auction_example_three_players():
    g = game_led_by(3, 0)  # Blue 0, Green 1, Yellow 2, clockwise
    act(g, "land 0", "bid +0")  # Blue puts a tile up and offers 2
    act(g, "bid +0", "pass", "pass")  # Green 3, Yellow passes, Blue passes
    assert g.coins[1] == 7 and g.pending[1] == [[g.pending[1][0][0], 0, 1]] and g.cost_pos == 2
    assert g.to_move == 1 and g.phase == "lead"  # Green chooses the next tile
    act(g, "land 1", "bid +0", "bid +2", "pass", "pass")  # Green 2, Yellow 5, Blue and Green pass
    assert g.coins[2] == 5 and g.cost_pos == 3 and g.to_move == 2
    act(g, "land 2", "bid +3")  # Yellow opens with 5, all he has
    act(g, "bid +0", "bid +0")  # Blue 6, Green 7
    assert A.BID not in g.legal_actions() and g.to_move == 2  # Yellow cannot bid more
    act(g, "withdraw")
    assert g.phase == "tech" and g.tech_price() == 1
    act(g, "tech 0")  # 'ne compra una per 1 punto scienza'
    assert g.science[2] == 9
    act(g, "pass")  # Blue passes: Green wins with 7
    assert g.coins[1] == 0 and [e[2] for e in g.pending[1]] == [1, 2] and g.cost_pos == 4
    # Green has no coins: he must withdraw (played by itself), and takes a technology free ('Che ottiene gratis')
    assert g.phase == "tech" and g.to_move == 1 and g.tech_price() == 0
    act(g, "tech 1")
    assert g.science[1] == 10
    # Blue alone buys both remaining tiles at the minimum, 2 each, with 1 and then 2 cubes
    assert g.to_move == 0 and g.phase == "lead"
    act(g, "land 3", "land 4")
    assert g.coins[0] == 6 and [e[2] for e in g.pending[0]] == [1, 2]
    assert g.phase == "tech" and g.to_move == 0 and g.tech_price() == 0  # 'al limite destro della pista'
    act(g, "tech 2")
    assert g.phase == "catastrophe" and g.to_move == 0  # 'Il blu inizierà le offerte sulle catastrofi.'
    assert g.coins == [6, 0, 5]  # nobody gets consolation; Yellow kept the 5 he offered


def test_A6_no_bid_above_coins_and_a_pass_is_for_this_tile_only():
    g = game_led_by(3, 0)
    act(g, "land 0", "bid +7")  # Blue opens at 9
    assert g.legal_actions() == [A.BID, A.PASS, A.WITHDRAW]  # Green: only 10
    act(g, "pass", "pass")  # Green and Yellow pass: Blue pays 9
    assert g.passed == [False] * 3  # passes are forgotten on a new tile
    assert g.coins[0] == 1 and g.phase == "tech" and g.to_move == 0  # short of the minimum: withdrawn (A11)


def test_A8_A12_W22_the_kth_tile_of_a_round_carries_k_cubes():
    g = game_led_by(3, 0)
    act(g, "withdraw", "done")  # Blue out
    act(g, "withdraw", "done")  # Green out: Yellow alone
    act(g, "land 0", "land 1", "land 2", "land 3")
    assert [e[2] for e in g.pending[2]] == [1, 2, 3, 4] and g.coins[2] == 2  # 1 + 2 + 3 + 4 = 10 cubes


def test_A11_a_leader_short_of_the_minimum_must_withdraw():
    g = game_led_by(3, 0)
    g.coins[0] = 1
    g2 = Game.from_json(g.to_json())
    assert g2.legal_actions() == [A.WITHDRAW]


def test_A13_W4_consolation_for_a_player_who_won_no_tile():
    g = game_led_by(3, 0)
    _withdraw_all(g)
    assert g.coins == [14, 14, 14]
    assert (consolation(1), consolation(3), consolation(5)) == (4, 5, 6)


def test_T1_T3_T7_a_withdrawing_player_buys_one_technology_and_takes_its_immediate_effect():
    g = game_led_by(4, 0)
    g.tech_offer[0] = tech_index(g.data, "T01")  # mine: 1 cube, pollution one step left
    act(g, "withdraw")
    assert g.phase == "tech" and g.tech_price() == 4
    act(g, "tech 0")
    assert g.science[0] == 6 and g.pending_cubes[0] == 1 and g.pollution[0] == -1
    assert g.pending[0] == [[len(g.data.land) + g.techs[0][0], 0, 0]]  # an institution waits to be attached
    assert g.phase == "lead" and g.to_move == 1


def test_T8_pollution_stops_at_the_ends():
    g = Game(3, seed=0)
    g.move_pollution(0, -20)
    g.move_pollution(1, 20)
    assert (g.pollution[0], g.pollution[1]) == (-6, 6)


# ----------------------------------------------------------------------------------------------- catastrophes
def test_W5_C4_to_C7_C9_the_catastrophe_bidding_four_players():
    g = game_led_by(4, 1)
    _withdraw_all(g)  # 1, 2, 3 and 0 withdraw: seat 0 withdrew last and opens
    assert g.phase == "catastrophe" and g.to_move == 0
    yellow, green, red, blue = 0, 1, 2, 3
    act(g, "catastrophe column 4 bid 1")  # Yellow: the rightmost column
    act(g, "catastrophe column 2 bid 0")  # Green: the central one
    assert all(c != 1 for c, _ in g.catastrophe_bid_options(red))  # the five-player column is not used
    act(g, "catastrophe column 4 bid 2")  # Red above Yellow
    act(g, "catastrophe column 4 bid 3")  # Blue above both
    assert g.to_move == yellow and g.on_top(blue)  # Yellow, outbid, must bid again; Blue, on top, would be skipped
    options = set(g.catastrophe_bid_options(yellow))
    assert (2, 0) not in options and (2, 1) in options and (4, 3) not in options and (4, 4) in options
    assert (0, 0) in options and (3, 0) in options and not any(c == 1 for c, _ in options)
    act(g, "catastrophe column 2 bid 1")  # Yellow above Green
    assert g.to_move == green
    act(g, "catastrophe column 0 bid 0")
    assert g.to_move == red
    act(g, "catastrophe column 3 bid 0")  # one pawn in each used column: bidding ends
    # each pays his final bid; the rest of the round then plays itself (nothing to decide): +2 science produced
    assert g.science == [10 - 1 + 2, 10 + 2, 10 + 2, 10 - 3 + 2]
    assert g.next_leader == green  # the leftmost column's taker leads round II


def test_C8_each_taker_gets_his_columns_cubes_and_pollution():
    g = game_led_by(3, 0)
    _withdraw_all(g)
    card = g.data.catastrophes[g.cat_current]
    opener, worst = g.to_move, g.data.columns_used(3)[0]
    for k in range(3):
        act(g, f"catastrophe column {g.data.columns_used(3)[k]} bid 0")
    garbage, steps = card.columns[worst]
    assert g.ledger[opener]["cubes_in"] == 1 + garbage and g.pollution[opener] == -steps


# ----------------------------------------------------------------------------------------------- maintenance
def _to_maintenance(g: Game) -> None:
    """The leader, seat 0, wins land slot 0 at 2 (the others withdraw), then withdraws; zero catastrophe bids."""
    act(g, "land 0", "bid +0")
    for _ in range(g.n - 1):
        act(g, "withdraw", "done")
    act(g, "withdraw", "done")
    cols = g.data.columns_used(g.n)
    k = 0
    while g.phase == "catastrophe":
        act(g, f"catastrophe column {cols[k]} bid 0")
        k += 1


def test_M6_a_new_tile_touches_the_nation_by_an_edge_or_a_corner():
    g = game_led_by(3, 0)
    _to_maintenance(g)
    while g.to_move != 0:
        act(g, "done")
    assert g.phase == "attach_cell"
    cells = {g.placed_cell(0, a - A.PLACE) for a in g.legal_actions()}
    assert cells == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {CENTRE}
    act(g, "cell 1,1")
    assert g.legal_actions() == [A.ROTATE + r for r in range(4)]


def test_M6_ruling_18_a_nation_has_no_bound_a_line_of_tiles_grows_past_any_window():
    """The book sets no limit on a nation's shape: a seat taking every tile it can (the others withdrawing, A12)
    and attaching each at the east end grows a line 20 cells and more long, and each end keeps its cells."""
    g, _ = greedy_line_game()
    xs = sorted(g.cell_of(0, k)[0] for k in range(g.slots(0)))
    assert xs == list(range(len(xs))) and len(xs) > 15  # one line from the starting tile east
    cells = set(g.placement_cells(0))
    assert {(xs[-1] + 1, 0), (xs[-1] + 1, 1), (-1, -1), (-1, 0)} <= cells
    assert len(cells) == 2 * (len(xs) + 2) + 2  # above and below the line, and the three cells at each end


def test_M6_every_empty_cell_touching_the_nation_has_one_name():
    g = Game(3, seed=0)
    for x in range(1, 12):
        put(g, 0, (x, 0), land_code(g.data, f"L{x:02d}"))
    cells = g.placement_cells(0)
    assert len(set(cells.values())) == len(cells) == 2 * 14 + 2  # a line of 12: 14 above, 14 below, 2 at its ends
    assert cells[(12, 0)] == 11 * A.NUM_DIRECTIONS + 2  # east of the last tile, named from it (E = 2)
    assert cells[(1, 1)] == 0 * A.NUM_DIRECTIONS + 3  # south-east of the start: the lowest slot beside it names it


def test_M2_to_M5_new_garbage_goes_on_the_tiles_bought_this_round_and_purchase_cubes_stay():
    g = game_led_by(3, 0)
    _to_maintenance(g)
    while g.to_move != 0:
        act(g, "done")
    act(g, "cell -1,0", "rotate 90")
    if g.phase == "citizen":
        g.apply(g.legal_actions()[0])
    new = g.slot_at(0, (-1, 0))
    # the purchase cube stays on the new tile, and every cube from the catastrophe goes there too (the only tile
    # bought this round: each such cube was placed by itself)
    assert g.grid_cubes[0][CENTRE_CELL] == 1 and g.pending_cubes[0] == 0
    assert g.grid_cubes[0][new] == g.ledger[0]["cubes_in"] - 1 >= 1


def test_M3_with_no_new_tile_garbage_goes_on_any_land_tile_never_an_institution():
    g = Game(3, seed=0)
    lab = len(g.data.land) + tech_index(g.data, "T02")
    g.techs[0].append(tech_index(g.data, "T02"))
    g.used[0].append([False])
    put(g, 0, (-1, 0), lab)
    land = put(g, 0, (1, 0), land_code(g.data, "L01"), citizens=1)
    assert g.garbage_targets(0) == sorted([CENTRE_CELL, land])


def test_X6_workers_put_the_stored_citizen_on_any_free_city():
    g = Game(3, seed=0)
    h = _own(g, 0, "T05")
    put(g, 0, (-4, -4), land_code(g.data, "L02"), citizens=0b01)
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    assert A.use_action(h, 0) in g.legal_actions()
    act(g, f"use {h}.0")
    assert g.legal_actions() == [A.city_action(0, 2), A.city_action(1, 1)]  # any free city: the start's, the new one's
    act(g, f"city {CENTRE[0]},{CENTRE[1]} c")
    assert g.grid_citizens[0][CENTRE_CELL] == 0b111 and g.used[0][h] == [True]
    assert A.use_action(h, 0) not in g.legal_actions()  # once per game


def _own(g: Game, p: int, tech_id: str) -> int:
    g.techs[p].append(tech_index(g.data, tech_id))
    g.used[p].append([False] * len(g.data.technologies[g.techs[p][-1]].abilities))
    return len(g.techs[p]) - 1


def test_X13_to_X16_recycling_cleanup_quality_of_life_cost_coins_once_per_maintenance():
    g = Game(3, seed=0)
    rec, clean, qol = _own(g, 0, "T21"), _own(g, 0, "T22"), _own(g, 0, "T23")
    keep = A.use_action(_own(g, 0, "T07"), 0)  # an unused bridge keeps the decision open
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    act(g, f"use {rec}.0")  # the one tile with a cube is chosen by itself
    assert g.coins[0] == 8 and g.total_cubes(0) == 0
    act(g, f"use {clean}.0", f"use {qol}.0")
    assert g.coins[0] == 2 and g.pollution[0] == 1 and g.score_parts(0)["quality_of_life"] == 2
    assert g.legal_actions() == [keep, A.DONE]  # each once this maintenance
    g.coins[0] = 0
    g.begin_maintenance(0)  # the next maintenance: multiple-use abilities are fresh, but unaffordable
    assert g.legal_actions() == [keep, A.DONE]
    g.coins[0] = 10
    assert A.use_action(clean, 0) in g.legal_actions()


def test_X8_separated_collection_is_free_and_once_per_game():
    g = Game(3, seed=0)
    h = _own(g, 0, "T11")
    keep = A.use_action(_own(g, 0, "T07"), 0)  # an unused bridge keeps the decision open
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    act(g, f"use {h}.0")  # the one tile with a cube is chosen by itself
    assert g.coins[0] == 10 and g.total_cubes(0) == 0 and g.used[0][h] == [True]
    g.grid_cubes[0][CENTRE_CELL] = 1
    g.begin_maintenance(0)
    assert g.legal_actions() == [keep, A.DONE]


def test_X12_the_garbage_truck_moves_a_cube_between_any_two_land_tiles():
    g = Game(3, seed=0)
    h = _own(g, 0, "T10")
    far = put(g, 0, (-4, -4), land_code(g.data, "L01"), citizens=1)
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    put(g, 0, (-4, -3), land_code(g.data, "L03"), citizens=1)
    act(g, f"use {h}.0")  # from the one tile with a cube (by itself) ...
    assert g.phase == "use_target2" and g.legal_actions() == sorted([A.TILE + far, A.TILE + g.slot_at(0, (-4, -3))])
    act(g, "cell -4,-4")  # ... to any other land tile, however far
    assert g.grid_cubes[0][far] == 1 and g.grid_cubes[0][CENTRE_CELL] == 0


def test_X17_a_technology_is_usable_in_the_maintenance_of_the_round_it_is_bought():
    g = game_led_by(3, 0)
    g.tech_offer[0] = tech_index(g.data, "T22")  # Cleanup
    g.tech_offer[1] = tech_index(g.data, "T11")
    act(g, "withdraw", "tech 0")
    while g.phase not in ("use",) or g.to_move != 0:
        g.apply(g.legal_actions()[0])
    assert A.use_action(0, 0) in g.legal_actions()


# ----------------------------------------------------------------------------------------------- production
def test_Q1_W7_production_gives_the_markers():
    data = with_tiles(land=[{"id": "W7", "cities": [{"name": "a", "coins": 9, "science": 5, "vp": 8}],
                             "rails": [["a", "N"]]}])  # fmt: skip
    g = Game(3, seed=0, data=data)
    put(g, 0, (0, -1), land_code(data, "W7"), citizens=1)
    assert g.production(0) == (12, 7, 8)
    g.maint_order = [0, 1, 2]
    g.produce()
    assert (g.coins[0], g.science[0], g.score_parts(0)["production"]) == (22, 17, 8)


def test_W6_production_has_no_upper_limit():
    data = with_tiles(land=[{"id": f"W6{i}", "cities": [{"name": "a", "coins": 9}], "rails": [["a", "N"]]}
                            for i in range(3)])  # fmt: skip
    g = Game(3, seed=0, data=data)
    for i in range(3):
        put(g, 0, (i - 4, -4), land_code(data, f"W6{i}"), citizens=1)
    g.grid_citizens[0][CENTRE_CELL] = 0
    assert g.production(0)[0] == 27


def test_F1_round_six_produces_victory_points_only():
    data = with_tiles(land=[{"id": "F1", "cities": [{"name": "a", "coins": 2, "vp": 3}], "rails": [["a", "N"]]}])
    g = Game(3, seed=0, data=data)
    put(g, 0, (0, -1), land_code(data, "F1"), citizens=1)
    g.round, g.maint_order = 6, [0, 1, 2]
    g.produce()
    assert (g.coins[0], g.science[0], g.score_parts(0)["production"]) == (10, 10, 3)


def test_Q2_a_recycling_centre_works_only_with_a_citizen_and_removes_one_cube():
    g = Game(3, seed=0)
    g.maint_order, g.round = [0, 1, 2], 1
    g.produce()
    assert g.phase == "recycle" and g.legal_actions() == [A.DONE]  # the start tile's centre c is free
    g2 = Game(3, seed=0)
    g2.grid_citizens[0][CENTRE_CELL] = 0b111
    g2.grid_cubes[0][CENTRE_CELL] = 2
    g2.maint_order, g2.round = [0, 1, 2], 1
    g2.produce()
    assert g2.legal_actions() == [A.TILE + CENTRE_CELL, A.DONE]
    act(g2, f"cell {CENTRE[0]},{CENTRE[1]}")
    assert g2.grid_cubes[0][CENTRE_CELL] == 1 and g2.phase != "recycle"  # one centre removes one cube


# ----------------------------------------------------------------------------------------------- scoring
def _scored(g: Game, round_: int) -> dict[int, int]:
    g.round = round_
    g.production_now = [g.production(p) for p in range(g.n)]
    before = [g.score_parts(p) for p in range(g.n)]
    g.bonus_scoring()
    return {p: sum(g.score_parts(p).values()) - sum(before[p].values()) for p in range(g.n)}


@pytest.mark.parametrize(("card", "expected"), [("a", 5), ("b", 7), ("c", 0)])
def test_B3_B4_B5_W29_round_two_cards(card, expected):
    g = Game(3, seed=0, r2=card)
    g.vp[0]["production"] = 7
    assert _scored(g, 2)[0] == expected  # a: 3 coins + 2 science; b: doubles 7; c: the start tile has a cube


def test_B5_round_two_card_c_six_per_clean_land_tile():
    g = Game(3, seed=0, r2="c")
    g.grid_cubes[0][CENTRE_CELL] = 0
    assert _scored(g, 2)[0] == 6


def test_B6_B7_B8_W29_round_four_cards():
    g = Game(3, seed=0, r4="a")
    g.grid_citizens[0][CENTRE_CELL] = 0b111  # the recycling centre works
    assert _scored(g, 4)[0] == 2 + 3
    g = Game(3, seed=0, r4="b")
    g.pollution[0], g.pollution[1] = 2, -2
    s = _scored(g, 4)
    assert (s[0], s[1]) == (g.data.pollution_final[8], 0)  # no penalty on the left ('nessuna sanzione')
    g = Game(3, seed=0, r4="c")
    g.grid_cubes[1][CENTRE_CELL] = 0
    s = _scored(g, 4)
    assert (s[0], s[1]) == (-1 + 2, 3 + 2)  # one cube: -1; clean tile at pollution 0: 3; science produced 2


def test_F2_W25_final_scoring_of_land_tiles_by_their_cubes():
    assert [extra_cube_penalty(k) for k in (1, 2, 3, 4)] == [0, -5, -10, -15]
    data = with_tiles(land=[{"id": f"F2{i}", "cities": [{"name": "a", "vp": 1}], "rails": [["a", "N"]]}
                            for i in range(4)])  # fmt: skip
    g = Game(3, seed=0, data=data)
    for i, cubes in enumerate((0, 2, 3, 4)):
        put(g, 0, (i - 4, -4), land_code(data, f"F2{i}"), cubes=cubes)
    for pollution, clean in ((-6, 2), (0, 3), (6, 4)):
        g.pollution[0] = pollution
        g.vp[0]["land_tiles"] = 0
        g.round = 6
        g.final_scoring()
        assert g.score_parts(0)["land_tiles"] == clean - 5 - 10 - 15  # the start tile's one cube is neutral


def test_F3_final_scoring_of_the_pollution_track():
    g = Game(3, seed=0)
    g.pollution = [-6, 0, 6]
    g.final_scoring()
    assert [g.score_parts(p)["pollution"] for p in range(3)] == [-12, 0, 10]


def test_F4_F5_W26_W27_coins_and_science_rankings_share_ties_rounded_down():
    assert rank_bonus([17, 17, 12, 7], 4) == [6, 6, 3, 0]  # Green and Blue share 8 + 5
    assert rank_bonus([12, 9, 9, 9], 4) == [8, 2, 2, 2]  # the three share 5 + 3 + 0
    assert rank_bonus([5, 3, 1], 3) == [8, 5, 0]
    assert rank_bonus([0, 0, 3, 2, 1], 5) == [0, 0, 8, 5, 3]  # at least one coin to score


def test_F7_W28_ties_go_to_fewer_cubes_then_are_shared():
    g = Game(3, seed=0)
    g.phase = "over"
    g.vp[0]["production"] = g.vp[1]["production"] = 5
    g.grid_cubes[1][CENTRE_CELL] = 0
    assert g.winners() == [1] and g.returns() == [-1.0, 1.0, -1.0]
    g.grid_cubes[1][CENTRE_CELL] = 1
    assert g.winners() == [0, 1]
    g.vp[2]["production"] = 5
    assert g.returns() == [0.0, 0.0, 0.0]


# ----------------------------------------------------------------------------------------------- the protocol
def test_apply_refuses_a_forbidden_action_and_leaves_the_game_unchanged():
    g = game_led_by(3, 0)
    before = g.to_json()
    for bad in (A.PASS, A.DONE, A.NUM_ACTIONS, -1, "land 0", 3.0):
        with pytest.raises(IllegalActionError, match="not legal|is not an integer|over"):
            g.apply(bad)  # type: ignore[arg-type]
        assert g.to_json() == before


def test_a_corrupt_position_is_refused_naming_the_entry():
    g = game_led_by(3, 0)
    doc = json.loads(g.to_json())
    from industry_env.games.twentieth_century.reference import GameStateError

    bad = dict(doc, land_offer=[doc["land_offer"][0]] * 5)
    with pytest.raises(GameStateError, match="land_offer.*exactly one place"):
        Game.from_json(json.dumps(bad))
    with pytest.raises(GameStateError, match="phase"):
        Game.from_json(json.dumps(dict(doc, phase="nap")))
    with pytest.raises(GameStateError, match="coins"):
        Game.from_json(json.dumps(dict(doc, coins=[1, 2])))
    with pytest.raises(GameStateError, match="grid_citizens"):
        cit = [list(r) for r in doc["grid_citizens"]]
        cit[0][CENTRE_CELL] = 8
        Game.from_json(json.dumps(dict(doc, grid_citizens=cit)))
    with pytest.raises(GameStateError, match="not valid JSON"):
        Game.from_json("{")


# ----------------------------------------------------------------------------------------------- more clauses
def test_B2_ruling_35_the_first_game_has_no_round_two_or_four_scoring_but_the_final_one():
    g = Game(3, seed=0, r2="none", r4="none")
    g.vp[0]["production"] = 7
    assert _scored(g, 2)[0] == 0 and _scored(g, 4)[0] == 0
    g.round = 6
    g.final_scoring()
    assert g.score_parts(0)["coins"] == 4  # three tied at 10 coins share 8 + 5 + 0


def test_X9_the_park_has_only_its_immediate_effect():
    g = game_led_by(3, 0)
    park = tech_index(g.data, "T12")
    g.tech_offer[0] = park
    act(g, "withdraw", "tech 0")
    assert g.pollution[0] == g.data.technologies[park].pollution > 0
    assert not g.usable(0, 0, 0)  # nothing to use later


def test_M8_the_new_citizen_works_in_a_city_of_its_own_tile():
    g = game_led_by(3, 0)
    two = next(s for s, t in enumerate(g.land_offer) if len(g.data.land[t].cities) >= 2)
    act(g, f"land {two}", "bid +0")
    for _ in range(2):
        act(g, "withdraw", "done")
    act(g, "withdraw", "done")
    cols = g.data.columns_used(3)
    for k in range(3):
        act(g, f"catastrophe column {cols[k]} bid 0")
    while g.to_move != 0:
        act(g, "done")
    act(g, "cell 1,0", "rotate 0")
    assert g.phase == "citizen"
    cell = g.slot_at(0, (1, 0))
    cities = len(g.data.tile(g.grid_tile[0][cell]).cities)
    assert g.legal_actions() == [A.CITY + cell * 3 + j for j in range(cities)]


def test_M1_ruling_21_maintenance_runs_from_the_leftmost_column_clockwise():
    g = game_led_by(4, 0)
    _withdraw_all(g)
    cols = g.data.columns_used(4)
    opener = g.to_move
    bids = {}
    for col in (cols[2], cols[0], cols[3], cols[1]):
        bids[g.to_move] = col
        act(g, f"catastrophe column {col} bid 0")
    worst = next(p for p, c in bids.items() if c == cols[0])
    assert worst == (opener + 1) % 4 and g.next_leader == worst
    assert g.maint_order == [(worst + k) % 4 for k in range(4)]


def test_T6_ruling_10_with_no_tile_left_each_player_still_in_withdraws_in_turn():
    g = game_led_by(3, 0)
    act(g, "withdraw", "done", "withdraw", "done")  # Blue and Green out: Yellow alone buys everything
    for s in range(5):
        act(g, f"land {s}")
    assert g.phase == "tech" and g.to_move == 2 and g.withdrawn == [1, 2, 3]  # forced withdrawal, then his choice


# ----------------------------------------------------------------------------------------------- clause by clause
def test_T2_a_player_who_passed_may_withdraw_only_at_his_next_turn():
    g = game_led_by(3, 0)
    act(g, "land 0", "bid +0", "pass")  # Blue opens at 2, Green passes
    act(g, "bid +0", "bid +0")  # Yellow 3, Blue 4: Green, passed, is not asked (so cannot withdraw) ...
    assert g.to_move == 2 and g.withdrawn == [0, 0, 0]
    act(g, "pass")  # ... Yellow passes: Blue wins
    assert g.withdrawn[1] == 0 and g.to_move == 0 and g.phase == "lead"
    act(g, "land 1", "bid +0")
    assert g.to_move == 1 and A.WITHDRAW in g.legal_actions()  # his next turn: now he may withdraw
    act(g, "withdraw")
    assert g.withdrawn[1] == 1


def test_A10_passes_are_forgotten_on_a_new_tile_and_the_auction_ends_when_all_have_withdrawn():
    g = game_led_by(3, 0)
    act(g, "land 0", "bid +0", "pass", "pass")  # Green and Yellow pass: Blue buys at 2
    assert g.passed == [False] * 3 and g.phase == "lead" and g.to_move == 0
    act(g, "land 1", "bid +0")
    assert g.to_move == 1 and A.BID in g.legal_actions()  # Green passed the last tile, may bid on this one
    act(g, "withdraw", "done", "withdraw", "done")  # Green and Yellow out: Blue, alone, still in the auction
    assert g.phase == "lead" and g.to_move == 0 and g.withdrawn == [0, 1, 2]
    act(g, "withdraw", "done")
    assert g.phase == "catastrophe" and g.withdrawn == [3, 1, 2]


def test_C6_catastrophe_bidding_goes_on_clockwise_until_one_pawn_stands_in_each_used_column():
    g = game_led_by(3, 0)
    _withdraw_all(g)
    opener = g.to_move
    first, mid, last = g.data.columns_used(3)
    act(
        g, f"catastrophe column {first} bid 0", f"catastrophe column {first} bid 1", f"catastrophe column {first} bid 2"
    )
    # every player has a pawn, but three stand in one column: the bidding goes on with the outbid opener
    assert g.phase == "catastrophe" and g.to_move == opener
    act(g, f"catastrophe column {mid} bid 0")
    assert g.phase == "catastrophe" and g.to_move == (opener + 1) % 3  # still two pawns in the first column
    act(g, f"catastrophe column {last} bid 0")
    assert g.phase != "catastrophe"  # one pawn a column: resolved
    third = (opener + 2) % 3
    assert g.ledger[third]["science_out"] == 2 and g.next_leader == third
    assert g.ledger[opener]["science_out"] == g.ledger[(opener + 1) % 3]["science_out"] == 0


def test_X1_the_two_mixed_tiles_carry_two_abilities_each_treated_separately():
    g = Game(3, seed=0)
    mixed = [t for t in g.data.technologies if len(t.abilities) == 2]
    assert len(mixed) == 2  # 'C'è una coppia di tessere tecnologia miste'
    h = _own(g, 0, "T24")  # Workers (single use) and Train (multiple use)
    put(g, 0, (-1, 0), land_code(g.data, "L02"), citizens=0b01)
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    assert {A.use_action(h, 0), A.use_action(h, 1)} <= set(g.legal_actions())
    act(g, f"use {h}.0", "city -1,0 b")  # the workers' citizen on a free city
    assert g.used[0][h] == [True, False] and A.use_action(h, 1) in g.legal_actions()  # the train is still there
    g.grid_citizens[0][g.slot_at(0, (-1, 0))] = 0b01  # a free city again, for the next maintenance
    g.begin_maintenance(0)
    assert A.use_action(h, 0) not in g.legal_actions() and A.use_action(h, 1) in g.legal_actions()


_CROSS = {
    "id": "X2",
    "cities": [{"name": "a", "coins": 1, "science": 1, "vp": 1}],
    "rails": [["a", "N", "E", "S", "W"]],
}


@pytest.mark.parametrize(("tech", "expected"), [("T01", (2, 1, 1)), ("T02", (1, 2, 1)), ("T04", (1, 1, 2))])
def test_X2_mines_raise_coins_laboratories_science_hospitals_victory_points(tech, expected):
    data = with_tiles(land=[_CROSS])
    g = Game(3, seed=0, data=data)
    cell = put(g, 0, (-3, -3), land_code(data, "X2"), citizens=1)
    assert g.city_production(0, cell, 0) == (1, 1, 1)
    code = len(data.land) + tech_index(data, tech)
    # the institution on each side in turn, in each rotation: the bonus wherever its rails meet the city's line
    boosted = set()
    for xy in ((-3, -4), (-2, -3), (-3, -2), (-4, -3)):
        for rot in range(4):
            q = put(g, 0, xy, code, rot)
            boosted.add(g.city_production(0, cell, 0))
            g.grid_tile[0][q] = -1
    assert boosted == {(1, 1, 1), expected}


def test_X3_institutions_are_not_land_tiles_hold_nothing_and_carry_no_garbage_but_carry_citizens():
    data = with_tiles(land=[
        {"id": "X3r", "cities": [{"name": "a", "recycling": True}], "rails": [["a", "E"]]},
        {"id": "X3d", "cities": [{"name": "a", "coins": 1}], "rails": [["a", "W"]]},
    ])  # fmt: skip
    g = Game(3, seed=0, data=data)
    centre = put(g, 0, (-4, -4), land_code(data, "X3r"), citizens=1)
    put(g, 0, (-3, -4), len(data.land) + tech_index(data, "T01"))  # a mine, rails west to east through its building
    far = put(g, 0, (-2, -4), land_code(data, "X3d"), cubes=1)
    g.grid_cubes[0][CENTRE_CELL] = 0
    assert g.clean_land_tiles(0) == 2 and len(g.land_cells(0)) == 3  # the institution is not a land tile
    g.maint_order, g.round = [0, 1, 2], 1
    g.produce()
    assert g.legal_actions() == [A.DONE]  # 'Le ferrovie non possono trasportare rifiuti tramite le tessere istituzione'
    g.grid_citizens[0][centre] = 0  # ... but a train carries a citizen through it
    assert train_connected(g.nation(0), ((-2, -4), 0), ((-4, -4), 0))
    assert g.grid_cubes[0][far] == 1
    g.final_scoring()
    assert g.score_parts(0)["land_tiles"] == 2 * 3 + 0  # two clean land tiles at pollution 0, the cube neutral


def test_X10_a_multiple_use_ability_is_used_once_in_each_maintenance():
    g = Game(3, seed=0)
    truck = _own(g, 0, "T10")
    keep = A.use_action(_own(g, 0, "T07"), 0)  # an unused bridge keeps the decision open
    put(g, 0, (-1, 0), land_code(g.data, "L01"), citizens=1)
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    act(g, f"use {truck}.0")  # from the one dirty tile to the one other land tile: both targets forced
    assert g.grid_cubes[0][g.slot_at(0, (-1, 0))] == 1
    assert g.legal_actions() == [keep, A.DONE]  # not twice in one maintenance
    g.begin_maintenance(0)
    assert A.use_action(truck, 0) in g.legal_actions()  # again in the next one


def test_M10_the_production_markers_are_the_sum_over_occupied_cities_with_bonuses():
    data = with_tiles(land=[_CROSS])
    g = Game(3, seed=0, data=data)
    cell = put(g, 0, (-1, 0), land_code(data, "X2"), citizens=1)
    assert g.production(0) == (3 + 1, 2 + 1, 0 + 1)
    lab = put(g, 0, (-2, 0), len(data.land) + tech_index(data, "T02"))  # rails W-E: meets the city's west line
    assert g.production(0) == (4, 4, 1)
    g.grid_citizens[0][cell] = 0  # a free city produces nothing, bonus included
    assert g.production(0) == (3, 2, 0)
    g.grid_citizens[0][cell], g.grid_tile[0][lab] = 1, -1
    seats = next(p for p in load_game("twentieth_century").observation_layout() if p.name == "seats")
    obs = g.observe(0)[seats.slice].reshape(seats.shape)
    assert tuple(round(float(v) * 10) for v in obs[0][2:5]) == g.production(0) == (4, 3, 1)  # the markers shown


def test_B1_bonus_points_come_at_the_end_of_rounds_two_four_and_six_after_production():
    g, rng = Game(3, seed=4, r2="a", r4="a"), np.random.default_rng(4)
    changed: dict[str, set[int]] = {"round_2_card": set(), "round_4_card": set(), "coins": set(), "land_tiles": set()}
    while not g.is_over:
        before, round_ = [g.score_parts(p) for p in range(3)], g.round
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
        for source, rounds in changed.items():
            if any(g.score_parts(p)[source] != before[p][source] for p in range(3)):
                rounds.add(round_)
                if source == "round_2_card":  # card II-a scores this round's production: production came first
                    assert [g.score_parts(p)[source] for p in range(3)] == [c + s for c, s, _ in g.production_now]
    assert changed == {"round_2_card": {2}, "round_4_card": {4}, "coins": {6}, "land_tiles": {6}}


def test_F6_the_coin_and_science_awards_compare_holdings_not_production():
    data = with_tiles(land=[{"id": "F6", "cities": [{"name": "a", "coins": 9, "science": 9}], "rails": [["a", "N"]]}])
    g = Game(3, seed=0, data=data)
    put(g, 2, (0, -1), land_code(data, "F6"), citizens=1)  # seat 2 produces far more ...
    g.coins, g.science = [20, 12, 4], [3, 11, 5]  # ... but holds the least coins
    g.final_scoring()
    assert [g.score_parts(p)["coins"] for p in range(3)] == [8, 5, 0]
    assert [g.score_parts(p)["science"] for p in range(3)] == [0, 8, 5]


def test_P1_Q4_the_taker_of_the_worst_catastrophe_leads_the_next_round():
    g = game_led_by(3, 0)
    act(g, "land 0", "bid +0", "pass", "pass")  # Blue wins the last land auction and leads the next one
    _withdraw_all(g)
    first, mid, last = g.data.columns_used(3)
    cols = {g.to_move: mid}
    act(g, f"catastrophe column {mid} bid 0")
    cols[g.to_move] = last
    act(g, f"catastrophe column {last} bid 0")
    worst = g.to_move
    act(g, f"catastrophe column {first} bid 0")
    while g.round == 1:
        g.apply(g.legal_actions()[0])
    assert worst != 0 and g.leader == worst and (g.phase, g.to_move) == ("lead", worst)


def test_S2_S3_S5_each_stack_is_shuffled_separately_and_the_first_leader_is_drawn():
    games = [Game(3, seed=s) for s in range(30)]
    for g in games:
        for era, stack in g.land_stacks.items():
            assert {g.data.land[t].stack for t in stack} == {era}
        for era, stack in g.tech_stacks.items():
            assert {g.data.technologies[t].stack for t in stack} == {era}
    assert len({tuple(g.land_offer) for g in games}) > 20 and len({tuple(g.tech_offer) for g in games}) > 20
    assert {g.to_move for g in games} == {0, 1, 2}


def test_P2_unsold_tiles_leave_the_game_at_the_next_round():
    g = game_led_by(3, 0)
    lands, techs = list(g.land_offer), list(g.tech_offer)
    _withdraw_all(g)  # nothing sold
    while g.round == 1:
        g.apply(g.legal_actions()[0])
    assert g.discarded_land == lands and g.discarded_tech == techs
    assert not set(lands) & set(g.land_offer) and not set(techs) & set(g.tech_offer)
    assert all(g.data.land[t].stack == "I-II" for t in g.land_offer)


def _maintenance_of(g: Game, p: int) -> None:
    g.maint_order, g.maint_pos = [(p + k) % g.n for k in range(g.n)], 0
    g.begin_maintenance(p)


def test_M7_an_institution_is_attached_like_a_land_tile():
    g = Game(3, seed=0)
    mine = tech_index(g.data, "T01")
    g.techs[0].append(mine)
    g.used[0].append([False])
    g.pending[0] = [[len(g.data.land) + mine, 2, 0]]
    _own(g, 0, "T07")  # an unused bridge keeps the decision open after the attachment
    _maintenance_of(g, 0)
    act(g, "tech 2")
    assert g.phase == "attach_cell"
    cells = {g.placed_cell(0, a - A.PLACE) for a in g.legal_actions()}
    assert cells == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {CENTRE}  # as for a land tile (M6)
    act(g, "cell 1,-1", "rotate 270")
    c = g.slot_at(0, (1, -1))
    assert (g.grid_tile[0][c], g.grid_rot[0][c]) == (len(g.data.land) + mine, 3)
    assert g.grid_citizens[0][c] == 0 and g.phase == "use"  # no citizen comes with it


def test_M9_technologies_are_used_after_every_tile_citizen_and_cube_is_placed():
    g = Game(3, seed=0)
    clean = _own(g, 0, "T22")  # Cleanup: affordable and usable all along
    g.pending[0] = [[land_code(g.data, "L02"), 0, 1]]
    g.pending_cubes[0] = 1
    _maintenance_of(g, 0)
    seen = []
    while g.phase != "use":
        assert A.use_action(clean, 0) not in g.legal_actions()
        seen.append(g.phase)
        g.apply(g.legal_actions()[0])
    assert seen[:3] == ["attach_pick", "attach_cell", "attach_rotate"]  # then the citizen; the cube goes by itself
    assert not g.pending[0] and g.pending_cubes[0] == 0 and A.use_action(clean, 0) in g.legal_actions()
