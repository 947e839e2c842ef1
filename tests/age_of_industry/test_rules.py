"""One test per clause of the rulebook of Age of Industry (Treefrog Games 2010, second edition), named after it.

Positions are built by :func:`helpers.position` on the shipped maps (Germany unless named): a real set-up with the
entries a test needs overridden, each checked like a saved game. Costs used (the reconstructed display, see
docs/age-of-industry/components.md): cotton mill 1/2/3 = $4 / $6 + coal / $12 + coal + iron (the rulebook's
example); coal mine 1 = $4, 3 cubes, flips for $4; iron works 1 = $2, 3 cubes; port 1 = $4; factory 3 = $10 + coal +
iron; ship 1 = $5 + coal, flips for $8. Demand track: coal and iron spaces $3, $3, $2, $2, $1, $1 (dearest first).
"""

from __future__ import annotations

import pytest

from industry_env.games.age_of_industry import Game, IllegalActionError
from industry_env.games.age_of_industry.rules import COAL

from .helpers import legal_names, play, position, sp


def money(g: Game) -> list[int]:
    return list(g.s.money)


# ============================================================================ Iniziare il gioco
@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("game_map", ["germany", "new_england"])
def test_setup_no_money_six_cards_each_two_face_up_full_demand_track_market_tiles_laid(n, game_map):
    g = Game(n, 7, game_map)
    s = g.s
    assert s.money == [0] * n and s.loans == [0] * n
    assert [sum(h) for h in s.hand] == [6] * n
    assert all(k >= 0 for k in s.face_up) and s.deck_pos == 6 * n + 2
    assert s.demand == [6, 6]
    markets = g.map.market_spaces
    assert all(s.space_tile[t] >= 0 for t in markets) and s.space_tile.count(-1) == g.map.num_spaces - len(markets)
    assert sorted(s.order) == list(range(n)) and all((s.order[i + 1] - s.order[i]) % n == 1 for i in range(n - 1))


def test_setup_first_edition_deals_five_cards_with_four_players_and_lays_import_coal():
    g = Game(4, 3, "new_england", edition=1)
    assert [sum(h) for h in g.s.hand] == [5] * 4
    imports = [t for t in range(g.map.num_spaces) if g.map.SPACE_IMPORT[t]]
    assert [g.s.space_cubes[t] for t in imports] == [g.map.SPACE_IMPORT[t] for t in imports]
    assert [sum(h) for h in Game(5, 3, edition=1).s.hand] == [6] * 5


def test_setup_is_a_pure_function_of_the_seed():
    assert Game(4, 11).to_json() == Game(4, 11).to_json()
    assert Game(4, 11).s.deck != Game(4, 12).s.deck


# ============================================================================ Prima Fase: round structure
def test_first_round_each_player_takes_one_action():
    g = Game(3, 0)
    first = g.current_player
    play(g, f"pass with {g.components.card_label(g.s.hand[first].index(next(h for h in g.s.hand[first] if h)))}")
    assert g.current_player == g.s.order[1] and g.s.turn == 1


def test_two_actions_per_turn_after_the_first_round():
    g = position(3, hands={0: {"blue": 2}, 1: {"blue": 1}, 2: {"blue": 1}})
    play(g, "pass with blue")
    assert g.current_player == 0 and g.s.actions_left == 1
    play(g, "pass with blue")
    assert g.current_player == 1


# ============================================================================ Seconda Fase: turn order
def test_turn_order_least_money_spent_first_demand_cubes_included():
    # seat 0 builds a level-1 mill ($4); seat 1 a level-2 mill ($6 + a coal cube bought from the demand track at
    # $1: "contando anche i costi aggiuntivi per acquistare carbone"); seat 2 passes. New order: 2, 0, 1.
    g = position(3, round=1, hands={0: {"orange": 1}, 1: {"orange": 1}, 2: {"blue": 1}},
                 counters={"Hamburg:1": (1, "port", 1)}, rails={"Hamburg-Hannover": 1},
                 removed={1: ["cotton_mill 1", "cotton_mill 1"]})
    assert g.s.spent == [0, 0, 0]
    play(g, "build with orange", "build cotton_mill at Kassel:1")
    play(g, "build with orange", "build cotton_mill at Hannover:1")
    assert g.s.spent[:2] == [4, 7] and g.s.demand[COAL] == 5
    play(g, "pass with blue")
    assert g.s.order == [2, 0, 1] and g.s.spent == [0, 0, 0]


def test_turn_order_ties_keep_their_previous_relative_order():
    g = position(4, round=1, to_move=2, hands={q: {"blue": 1} for q in range(4)})
    for _ in range(4):
        play(g, "pass with blue")
    assert g.s.order == [2, 3, 0, 1]


# ============================================================================ Terza Fase: interest
def test_interest_one_dollar_per_loan_and_a_loan_taken_for_it_bears_none():
    g = position(3, round=1, hands={q: {"blue": 1} for q in range(3)}, loans=[2, 3, 0], money=[5, 1, 0])
    for _ in range(3):
        play(g, "pass with blue")
    # seat 0 pays $2; seat 1 owes $3 with $1: one more loan ($10), no interest on it this round
    assert g.s.money[:2] == [3, 8] and g.s.loans == [2, 4, 0]


# ============================================================================ Prestiti
def test_loans_are_taken_only_when_a_payment_is_short_and_the_fewest_that_cover_it():
    g = position(3, hands={0: {"grey": 1}}, money=[3, 0, 0])
    play(g, "build with grey", "build cotton_mill at Leipzig:1")  # $4 with $3: one loan
    assert g.s.money[0] == 9 and g.s.loans[0] == 1
    assert g.ledger["bank_paid"] == 10 and g.ledger["bank_received"] == 4


def test_repay_a_loan_with_the_tile_amount_at_any_decision_of_ones_turn():
    g = position(3, hands={0: {"grey": 1}}, money=[11, 20, 0], loans=[1, 1, 0])
    assert "repay loan" in legal_names(g)
    play(g, "build with grey")
    assert "repay loan" in legal_names(g)  # in the middle of a build too
    play(g, "repay loan")
    assert g.s.money[0] == 0 and g.s.loans[0] == 0 and g.s.spent[0] == 0  # repaying is not money spent
    g2 = position(3, to_move=1, hands={1: {"grey": 1}}, money=[11, 5, 0], loans=[1, 1, 0])
    assert "repay loan" not in legal_names(g2)  # seat 1 cannot pay $11; seat 0 may not repay out of turn


# ============================================================================ Costruire un'industria: cards
def test_industry_card_builds_only_its_industry():
    g = position(3, hands={0: {"cotton_mill": 1}})  # no counter on the map: anywhere
    play(g, "build with cotton_mill")
    assert {g.action_to_string(a).split(" at ")[0] for a in g.legal_actions()} == {"build cotton_mill"}


def test_location_card_builds_any_industry_in_its_colour_without_connection():
    g = position(3, hands={0: {"brown": 1}}, counters={"Kiel:1": (0, "port", 1)})
    play(g, "build with brown")
    where = {g.action_to_string(a).split(" at ")[1].split(":")[0] for a in g.legal_actions()}
    assert where == {"Stuttgart", "Nürnberg", "Augsburg", "München", "Regensburg"}


def test_industry_card_with_no_counter_on_the_map_builds_anywhere():
    g = position(3, hands={0: {"coal_mine": 1}})
    play(g, "build with coal_mine")
    where = {g.action_to_string(a).split(" at ")[1].split(":")[0] for a in g.legal_actions()}
    assert {"Belgium", "Poland", "Bohemia", "Ruhr", "Saar", "Mannheim", "Leipzig", "Chemnitz"} == where


def test_industry_card_needs_own_rail_to_the_location_or_two_counters_place_or_own_space():
    # "Puoi costruire in Kassel visto che hai un segnalino ferroviario che ti collega": seat 0 has a mill in
    # Hannover and a rail Hannover-Kassel; also the other Hannover space is out (one space in a small location).
    g = position(3, hands={0: {"cotton_mill": 1}}, counters={"Hannover:1": (0, "cotton_mill", 1)},
                 rails={"Hannover-Kassel": 0})
    play(g, "build with cotton_mill")
    assert sorted(legal_names(g)) == ["build cotton_mill at Kassel:1", "build cotton_mill at Kassel:2"]
    # a location of 4+ spaces where one already builds (Berlin), and one's own counter (overbuilding: level 2
    # over an iron works 1); coal from seat 1's mine in Poland and seat 2's in the Ruhr
    g = position(3, hands={0: {"cotton_mill": 1}}, counters={"Berlin:1": (0, "cotton_mill", 1),
                 "Köln:1": (0, "iron_works", 1), "Poland:1": (1, "coal_mine", 1, {"cubes": 2}),
                 "Ruhr:1": (2, "coal_mine", 1, {"cubes": 2})}, rails={"Berlin-Poland": 1, "Ruhr-Köln": 2},
                 removed={0: ["cotton_mill 1"]})  # fmt: skip
    play(g, "build with cotton_mill")
    where = sorted({a.split(" at ")[1] for a in legal_names(g)})
    assert where == ["Berlin:1", "Berlin:2", "Berlin:3", "Berlin:4", "Köln:1"]


def test_occupancy_one_space_in_one_to_three_spaces_two_in_four_or_more():
    g = position(3, hands={0: {"purple": 1}}, counters={"Köln:1": (0, "cotton_mill", 1),
                                                         "Ruhr:3": (0, "cotton_mill", 1)})
    play(g, "build with purple")
    names = legal_names(g)
    assert not any("Köln:2" in a for a in names)  # Köln has 2 spaces: one counter per player
    assert any("Ruhr:1" in a for a in names) and any("Ruhr:4" in a for a in names)  # Ruhr has 4: a second one
    g = position(3, hands={0: {"purple": 1}}, counters={"Ruhr:3": (0, "cotton_mill", 1),
                                                         "Ruhr:1": (0, "coal_mine", 1, {"cubes": 1})})
    play(g, "build with purple")
    assert not any(a.split(" at ")[1] in ("Ruhr:2", "Ruhr:4") for a in legal_names(g))


def test_space_symbols_blank_coal_port_ship():
    g = position(3, hands={0: {"purple": 1, "blue": 1}})
    play(g, "build with purple")
    names = legal_names(g)
    # "Il solo segnalino industria che può essere costruito in Belgium è la miniera di carbone"
    assert {a.split(" at ")[0] for a in names if "Belgium" in a} == {"build coal_mine"}
    # "in uno dei due spazi di Koln": cotton mills, factories or iron works (factories still level 0 here)
    assert {a.split(" at ")[0] for a in names if "Köln" in a} == {"build cotton_mill", "build iron_works"}
    g = position(3, hands={0: {"blue": 1}})
    play(g, "build with blue")
    # "Il solo segnalino industria che può essere costruito a Kiel è il porto"
    assert [a for a in legal_names(g) if "Kiel" in a] == ["build port at Kiel:1"]


def test_lowest_level_counter_first_and_level_zero_factories_cannot_be_built():
    g = position(3, hands={0: {"grey": 2}})
    play(g, "build with grey", "build cotton_mill at Leipzig:1")
    assert g.s.space_level[sp(g, "Leipzig:1")] == 1
    assert not any("factory" in a for a in legal_names(position(3, hands={0: {"grey": 1}})))


def test_cotton_mill_costs_4_then_6_and_a_coal_then_12_and_a_coal_and_an_iron():
    # Restrizioni riguardanti la scheda del giocatore, the worked example; cubes bought at the demand track ($1
    # each: the cheapest row) through seat 0's port in Hamburg.
    g = position(3, hands={0: {"blue": 2, "orange": 2}}, counters={"Hamburg:1": (1, "port", 1)},
                 rails={"Hamburg-Hannover": 1}, removed={0: ["cotton_mill 1"]})
    play(g, "build with blue", "build cotton_mill at Lübeck:2")
    assert g.s.money[0] == 10 - 4 and g.s.loans[0] == 1
    play(g, "build with orange", "build cotton_mill at Hannover:1")  # level 2: $6 + $1 for the coal
    assert g.s.space_level[sp(g, "Hannover:1")] == 2 and g.ledger["bank_received"] == 4 + 7
    assert g.s.demand == [5, 6] and g.s.money[0] == 9 and g.s.loans[0] == 2
    # level 3 ($12, a coal and an iron) in Bremen, linked to Hamburg's port by seat 1
    g = position(3, hands={0: {"blue": 1}}, counters={"Hamburg:1": (1, "port", 1)}, rails={"Hamburg-Bremen": 1},
                 removed={0: CM12}, money=[20, 0, 0])
    play(g, "build with blue", "build cotton_mill at Bremen:2")
    assert g.s.money[0] == 20 - 12 - 1 - 1 and g.s.demand == [5, 5]


def test_overbuild_own_counter_with_a_higher_level_of_any_industry():
    g = position(3, hands={0: {"grey": 1}}, counters={"Leipzig:1": (0, "iron_works", 1, {"cubes": 2})},
                 money=[20, 0, 0])
    play(g, "build with grey")
    names = legal_names(g)
    assert "build cotton_mill at Leipzig:1" not in names  # cotton mill 1 is not higher than iron works 1
    g = position(3, hands={0: {"grey": 1}}, counters={"Leipzig:1": (0, "iron_works", 1, {"cubes": 2}),
                 "Leipzig:3": (1, "coal_mine", 1, {"cubes": 2})}, money=[20, 0, 0],
                 removed={0: ["cotton_mill 1", "cotton_mill 1"]})  # fmt: skip
    play(g, "build with grey", "build cotton_mill at Leipzig:1")  # cotton mill 2 over own iron works 1
    s = g.s
    x = sp(g, "Leipzig:1")
    assert (s.space_industry[x], s.space_level[x], s.space_cubes[x]) == (0, 2, 0)  # its iron went to the supply
    assert s.space_cubes[sp(g, "Leipzig:3")] == 1 and g.ledger["cubes_removed"] == [1, 2]


def test_overbuild_opponent_mine_only_with_no_coal_on_the_map_or_the_demand_track():
    kw = dict(hands={0: {"coal_mine": 1}}, counters={"Poland:1": (1, "coal_mine", 1), "Poland:2": (2, "coal_mine", 1),
                                                     "Berlin:1": (0, "cotton_mill", 1), "Danzig:1": (1, "port", 1)},
              rails={"Berlin-Poland": 0, "Danzig-Poland": 1}, money=[20, 0, 0],
              removed={0: ["coal_mine 1", "coal_mine 1"]})  # fmt: skip
    g = position(3, **kw, demand=[1, 6])
    assert "build with coal_mine" not in legal_names(g)  # a coal cube on the demand track: Poland is taken
    g = position(3, **kw, demand=[0, 6])  # no coal anywhere: a level-2 mine may replace level-1 mines
    play(g, "build with coal_mine")
    assert {"build coal_mine at Poland:1", "build coal_mine at Poland:2"} <= set(legal_names(g))
    play(g, "build coal_mine at Poland:1")
    assert g.s.space_owner[sp(g, "Poland:1")] == 0 and g.s.space_level[sp(g, "Poland:1")] == 2


def test_combined_build_anywhere_with_any_card_takes_both_actions():
    g = position(3, hands={0: {"coal_mine": 1}}, counters={"Kiel:1": (0, "port", 1)})
    play(g, "build anywhere with coal_mine")
    assert "build cotton_mill at München:1" in legal_names(g)
    play(g, "build cotton_mill at München:1")
    assert g.current_player == 1


def test_combined_build_is_not_possible_in_round_one_when_a_turn_has_one_action():
    g = position(3, round=1, hands={0: {"ship": 1}})
    assert not any(a.startswith("build anywhere") for a in legal_names(g))


def test_ship_cards_cannot_build_on_germany_only_be_discarded():
    # "Nota che le navi non possono essere costruite se si utilizza la mappa della Germania ... Il loro unico
    # utilizzo è quello di essere scartate per fare uno sviluppo o per passare": not even in a combined build.
    g = position(3, hands={0: {"ship": 1, "coal_mine": 1}}, counters={"Kiel:1": (0, "port", 1)})
    names = legal_names(g)
    assert "build with ship" not in names and "build anywhere with ship" not in names
    assert "develop with ship" in names and "pass with ship" in names
    assert "build anywhere with coal_mine" in names  # the combined build itself is open, with another card
    with pytest.raises(IllegalActionError):
        g.apply(g.string_to_action("build anywhere with ship"))


def test_ship_cards_build_on_new_england_a_combined_build_included():
    g = position(3, NE, hands={0: {"ship": 1}}, counters={"Boston:1": (0, "port", 1)})
    assert "build anywhere with ship" in legal_names(g)


# ============================================================================ Carbone e acciaio
CM12 = ["cotton_mill 1", "cotton_mill 1", "cotton_mill 2", "cotton_mill 2"]  # developed away: level 3 comes next
F0 = ["factory 0", "factory 0"]
REGENSBURG = dict(
    counters={"Bohemia:1": (1, "coal_mine", 1, {"cubes": 2}), "Mannheim:1": (0, "coal_mine", 1, {"cubes": 2}),
              "München:1": (0, "iron_works", 1, {"cubes": 2}), "Augsburg:1": (1, "iron_works", 1, {"cubes": 1})},
    rails={"Bohemia-Regensburg": 1, "München-Regensburg": 0, "Augsburg-Regensburg": 1, "Mannheim-Stuttgart": 0,
           "Stuttgart-Nürnberg": 0, "Nürnberg-Regensburg": 0},
)  # fmt: skip


def test_nearest_source_in_completed_links_ties_are_the_builders_choice():
    # The rulebook's Regensburg example: the coal must come from yellow's (seat 1's) mine in Bohemia, one link
    # away, not from red's own mine in Mannheim; the iron from either iron works, both one link away.
    g = position(3, hands={0: {"brown": 1}}, money=[30, 0, 0], **REGENSBURG)
    play(g, "build with brown", "build cotton_mill at Regensburg:1")  # level 1 needs nothing: build level 2, 3
    g = position(3, hands={0: {"brown": 1}}, money=[30, 0, 0], removed={0: CM12}, **REGENSBURG)
    play(g, "build with brown", "build cotton_mill at Regensburg:1")
    assert g.s.space_cubes[sp(g, "Bohemia:1")] == 1 and g.s.space_cubes[sp(g, "Mannheim:1")] == 2
    assert g.phase == "iron_source"
    assert sorted(legal_names(g)) == ["source Augsburg:1", "source München:1"]
    play(g, "source München:1")
    assert g.s.space_cubes[sp(g, "München:1")] == 1 and g.s.money[0] == 30 - 12


def test_last_cube_flips_the_mine_and_pays_its_owner_at_once():
    g = position(3, hands={0: {"brown": 1}}, money=[30, 0, 0], removed={0: CM12},
                 **{**REGENSBURG, "counters": {**REGENSBURG["counters"], "Augsburg:1": (1, "iron_works", 1,
                                                                                        {"cubes": 1})}})  # fmt: skip
    play(g, "build with brown", "build cotton_mill at Regensburg:1", "source Augsburg:1")
    x = sp(g, "Augsburg:1")
    assert g.s.space_flipped[x] == 1 and g.s.money[1] == 4  # iron works 1 flips for $4, out of its owner's turn


def test_cubes_from_the_same_location_are_at_distance_zero():
    g = position(3, hands={0: {"grey": 1}}, money=[30, 0, 0],
                 counters={"Leipzig:3": (1, "coal_mine", 1, {"cubes": 3}), "Chemnitz:2": (2, "coal_mine", 1,
                                                                                          {"cubes": 3})},
                 rails={"Leipzig-Chemnitz": 1}, removed={0: ["cotton_mill 1", "cotton_mill 1"]})  # fmt: skip
    play(g, "build with grey", "build cotton_mill at Leipzig:1")
    assert g.s.space_cubes[sp(g, "Leipzig:3")] == 2 and g.s.space_cubes[sp(g, "Chemnitz:2")] == 3


def test_demand_track_only_when_no_cube_on_the_map_is_reachable_and_through_a_port_or_distant_port():
    kw = dict(hands={0: {"orange": 2}}, money=[30, 0, 0], removed={0: ["cotton_mill 1", "cotton_mill 1"]})
    g = position(3, **kw, counters={"Kiel:1": (1, "port", 1)})
    play(g, "build with orange")
    assert not any("cotton_mill" in a for a in legal_names(g))  # a level-2 mill: no coal can come
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="not legal"):
        g.apply(g.string_to_action("build cotton_mill at Hannover:1"))
    assert g.to_json() == before  # a refused action changes nothing
    g = position(3, **kw, counters={"Kiel:1": (1, "port", 1), "Hamburg:1": (2, "port", 1)},
                 rails={"Hamburg-Hannover": 2})
    play(g, "build with orange", "build cotton_mill at Hannover:1")
    assert g.s.demand[COAL] == 5 and g.s.money[0] == 30 - 6 - 1


def test_demand_track_cheapest_row_first_then_four_dollars_when_empty():
    g = position(3, hands={0: {"orange": 1}}, money=[30, 0, 0], demand=[3, 6],
                 counters={"Hamburg:1": (2, "port", 1)}, rails={"Hamburg-Hannover": 2},
                 removed={0: ["cotton_mill 1", "cotton_mill 1"]})
    assert g.demand_price(COAL) == 2  # spaces $3 $3 $2 filled: the $2 cube is the cheapest
    play(g, "build with orange", "build cotton_mill at Hannover:1")
    assert g.s.money[0] == 30 - 6 - 2 and g.s.demand[COAL] == 2
    g.s.demand[COAL] = 0
    assert g.demand_price(COAL) == 4


def test_new_mine_connected_to_a_port_fills_the_demand_track_dearest_space_first():
    # Cubetti di acciaio e carbone example: a level-2 mine (4 cubes) sends 3 cubes to the three empty spaces and
    # earns $4 ($2 + $1 + $1).
    g = position(3, hands={0: {"coal_mine": 1}}, money=[30, 0, 0], demand=[3, 6],
                 counters={"Hamburg:1": (1, "port", 1), "Ruhr:3": (0, "cotton_mill", 1)},
                 rails={"Hamburg-Bremen": 1, "Bremen-Osnabrück": 0, "Ruhr-Osnabrück": 0},
                 removed={0: ["coal_mine 1", "coal_mine 1"]})  # fmt: skip
    play(g, "build with coal_mine", "build coal_mine at Ruhr:1")
    x = sp(g, "Ruhr:1")
    assert g.s.space_level[x] == 2 and g.s.space_cubes[x] == 1 and g.s.demand[COAL] == 6
    assert g.s.money[0] == 30 - 6 - 1 + 4  # $6 and an iron bought at $1, then $4 from the track


def test_mine_not_connected_to_a_port_keeps_its_cubes_and_filling_happens_only_when_built():
    g = position(3, hands={0: {"coal_mine": 1}}, demand=[3, 6])
    play(g, "build with coal_mine", "build coal_mine at Saar:1")
    assert g.s.space_cubes[sp(g, "Saar:1")] == 3 and g.s.demand[COAL] == 3


def test_a_mine_emptied_into_the_demand_track_flips_and_pays_its_income():
    g = position(3, hands={0: {"purple": 1}}, demand=[0, 6], counters={"Hamburg:1": (1, "port", 1)},
                 rails={"Hamburg-Bremen": 1, "Bremen-Osnabrück": 1, "Ruhr-Osnabrück": 1})
    play(g, "build with purple", "build coal_mine at Ruhr:1")
    x = sp(g, "Ruhr:1")
    assert g.s.space_flipped[x] == 1 and g.s.demand[COAL] == 3
    assert g.s.money[0] == 10 - 4 + 3 + 3 + 2 + 4  # loan, cost, $3 + $3 + $2 for the cubes, $4 for the flip


# ============================================================================ Costruire una Ferrovia
def test_first_rail_costs_a_dollar_later_rails_a_dollar_and_a_coal_and_an_iron_to_either_end():
    # The rulebook's example: yellow's rail Regensburg-Bohemia, iron from his Augsburg iron works, coal bought
    # from the demand track through Bohemia's distant port: $2 in all.
    g = position(3, hands={0: {"blue": 1}}, money=[10, 0, 0],
                 counters={"Augsburg:1": (0, "iron_works", 1, {"cubes": 3})}, rails={"Augsburg-Regensburg": 0})
    play(g, "rail Regensburg-Bohemia")
    assert g.s.money[0] == 10 - 2 and g.s.space_cubes[sp(g, "Augsburg:1")] == 2 and g.s.demand == [5, 6]
    assert g.s.rails_left[0] == 10
    g = position(3, hands={0: {"blue": 1}}, money=[10, 0, 0], counters={"Kiel:1": (0, "port", 1)})
    play(g, "rail Kiel-Hamburg")
    assert g.s.money[0] == 9 and g.s.demand == [6, 6]  # the first rail: $1 and no cubes


def test_rails_only_from_a_location_with_own_industry_or_own_rail():
    g = position(3, hands={0: {"blue": 1}}, counters={"Kiel:1": (0, "port", 1)})
    assert sorted(a for a in legal_names(g) if a.startswith("rail")) == [
        "rail Kiel-Denmark", "rail Kiel-Hamburg", "rail Kiel-Lübeck"]
    assert not [a for a in legal_names(position(3, hands={0: {"blue": 1}})) if a.startswith("rail")]


def test_rails_through_a_village_and_twelve_rails_a_player():
    g = position(3, hands={0: {"blue": 1}}, money=[10, 0, 0], counters={"Ruhr:1": (0, "coal_mine", 1, {"cubes": 2}),
                 "Ruhr:3": (0, "iron_works", 1, {"cubes": 2})}, rails={"Ruhr-Osnabrück": 0})  # fmt: skip
    assert "rail Bremen-Osnabrück" in legal_names(g)  # Osnabrück is a village: rails go on from it
    g.s.rails_left[0] = 0
    g.forget_cached()
    assert not any(a.startswith("rail") for a in legal_names(g))


# ============================================================================ Vendere Beni
def test_sell_through_anyones_rails_flips_both_and_pays_the_port_owner():
    # The rulebook's sale example: red sells two mills (one to his port in Danzig, one to yellow's port in
    # Hamburg) and his factory to the Poland market: $8 + $8 + $16 + $5 to red, $5 to yellow.
    g = position(3, hands={0: {"blue": 1}},
                 counters={"Stettin:2": (0, "cotton_mill", 1), "Danzig:1": (0, "port", 1),
                           "Berlin:1": (0, "cotton_mill", 1), "Berlin:2": (0, "factory", 3),
                           "Hamburg:1": (1, "port", 1)},
                 rails={"Hamburg-Berlin": 1, "Berlin-Poland": 1, "Stettin-Danzig": 0}, removed={0: F0})  # fmt: skip
    g.s.space_tile[sp(g, "Poland:3")] = 1  # a goods tile
    g = Game.from_json(g.to_json())
    play(g, "sell from Berlin:2", "sell to Poland:3", "sell from Stettin:2", "sell to Danzig:1",
         "sell from Berlin:1", "sell to Hamburg:1")
    assert g.s.money[:2] == [37, 5] and g.current_player == 0 and g.s.actions_left == 1
    assert all(g.s.space_flipped[sp(g, x)] for x in ("Berlin:1", "Berlin:2", "Danzig:1", "Stettin:2",
                                                      "Hamburg:1", "Poland:3"))


def test_level_one_port_sells_cotton_only():
    g = position(3, counters={"Hamburg:2": (0, "factory", 3), "Hamburg:1": (1, "port", 1)}, removed={0: F0})
    assert not any(a.startswith("sell") for a in legal_names(g))
    g = position(3, counters={"Hamburg:2": (0, "cotton_mill", 1), "Hamburg:1": (1, "port", 1)})
    assert "sell from Hamburg:2" in legal_names(g)


def test_market_tiles_used_once_two_good_tiles_after_one_sale_no_demand_never():
    kw = dict(counters={"Berlin:1": (0, "cotton_mill", 1), "Berlin:2": (0, "cotton_mill", 1)},
              rails={"Berlin-Poland": 1})
    for tile, sales in ((2, 1), (0, 1), (1, 0), (3, 0)):  # both, cotton, goods, no demand
        g = position(3, **kw)
        g.s.space_tile[sp(g, "Poland:3")] = tile
        g = Game.from_json(g.to_json())
        assert ("sell from Berlin:1" in legal_names(g)) == (sales > 0)
        if sales:
            play(g, "sell from Berlin:1", "sell to Poland:3")
            assert g.s.space_flipped[sp(g, "Poland:3")] == 1 and g.s.actions_left == 1  # no second sale: ended


def test_sell_to_a_port_in_the_same_location():
    g = position(3, counters={"Stettin:2": (0, "cotton_mill", 1), "Stettin:1": (1, "port", 1)})
    play(g, "sell from Stettin:2", "sell to Stettin:1")
    assert g.s.money[:2] == [8, 5]


# ============================================================================ Sviluppo, Pescare, Passare
def test_develop_removes_any_counter_for_a_discarded_card_two_remove_the_level_zero_factories():
    g = position(3, hands={0: {"blue": 2, "grey": 1}})
    play(g, "develop with blue", "remove factory 0", "develop with blue", "remove factory 0")
    assert g.s.discard[g.components.card_labels.index("blue")] == 2
    assert g.lowest_counter(0, 1) >= 0 and g.components.SLOT_LEVEL[g.lowest_counter(0, 1)] == 3


def test_draw_two_from_deck_or_face_up_then_refill_the_face_up_cards():
    g = position(3, hands={0: {"blue": 1}})
    face = list(g.s.face_up)
    top = g.s.deck[g.s.deck_pos]
    play(g, "draw face-up 1")
    assert g.phase == "draw_second" and g.s.face_up[0] == -1  # refilled only after both draws
    play(g, "draw deck")
    assert g.s.hand[0][face[0]] >= 1 and g.s.hand[0][top] >= 1 and g.s.face_up[0] >= 0
    assert g.s.known[0][face[0]] == 1  # the face-up card taken stays known to every seat


def test_hand_limit_nine_draws_one_card_with_eight():
    g = position(3, hands={0: {"blue": 6, "grey": 2}})
    play(g, "draw deck")
    assert sum(g.s.hand[0]) == 9 and g.s.actions_left == 1
    assert not any(a.startswith("draw") for a in legal_names(g))


def test_pass_discards_a_card_and_is_free_only_with_no_card_and_an_empty_deck():
    g = position(3, hands={0: {"blue": 1}})
    play(g, "pass with blue")
    assert g.s.discard[g.components.card_labels.index("blue")] == 1
    g = position(3, hands={0: {}})
    assert "pass" not in legal_names(g) and "draw deck" in legal_names(g)


# ============================================================================ Fine del gioco, Vincere il gioco
def _end_position(**kw) -> Game:
    """Deck empty, seat 0 has no card, the last action of the round to play by seat 2."""
    hands = kw.pop("hands", {0: {}, 1: {"blue": 1}, 2: {"blue": 1}})
    g = position(3, hands=hands, to_move=0, **kw)
    # move every remaining deck card to the discard pile
    for k in g.s.deck[g.s.deck_pos:]:
        g.s.discard[k] += 1
    g.s.deck = [-1] * len(g.s.deck)
    g.s.deck_pos = len(g.s.deck)
    g.s.turn, g.s.actions_left = 2, 1
    return Game.from_json(g.to_json())


def test_game_ends_after_the_round_in_which_the_deck_is_empty_and_a_hand_is_empty():
    g = _end_position()
    play(g, "pass with blue")
    assert g.is_over and g.legal_actions() == [] and g.current_player == -1
    g = _end_position(hands={0: {"grey": 1}, 1: {"blue": 1}, 2: {"blue": 2}})
    play(g, "pass with blue")
    assert not g.is_over  # every hand still holds a card: play on (the face-up cards do not count)


def test_final_scoring_rails_then_loans_then_five_dollars_a_point_then_levels_then_unpaid_loans():
    g = _end_position(counters={"Hamburg:1": (0, "port", 2), "Hamburg:2": (1, "cotton_mill", 1),
                                "Kiel:1": (0, "port", 1, {"flipped": 1}), "Bremen:1": (2, "port", 1)},
                      rails={"Kiel-Hamburg": 0, "Hamburg-Bremen": 0, "Kiel-Denmark": 0},
                      money=[10, 3, 40], loans=[1, 2, 0])  # fmt: skip
    play(g, "pass with blue")
    # seat 0 paid the last round's $1 interest; rails: Kiel-Hamburg 2+1+2, Hamburg-Bremen 2+2+1, Kiel-Denmark 2+1+1
    # (the market space counts): $14
    acc = g.final_accounts(0)
    assert acc["rail_income"] == 14 and acc["loans_repaid"] == 1 and acc["money_left"] == 10 - 1 + 14 - 11
    assert g.score_breakdown(0) == {"money": 2, "industries": 3, "unpaid_loans": 0}
    assert g.score_breakdown(1) == {"money": 0, "industries": 1, "unpaid_loans": -10}  # $3 repays nothing
    assert g.scores() == [5, -9, 9] and g.winners() == [2] and g.returns() == [-1.0, -1.0, 1.0]


def test_a_tie_goes_to_the_player_higher_in_the_turn_order():
    g = _end_position(money=[10, 10, 10])
    play(g, "pass with blue")
    assert g.scores() == [2, 2, 2] and g.winners() == [g.s.order[0]] == [0]


def test_the_last_round_also_sets_the_new_turn_order_and_pays_interest():
    # "Ogni round è composto da tre fasi ... 2. Determinazione del nuovo ordine di gioco 3. Pagamento degli
    # interessi sui prestiti"; "Il gioco termina dopo un round completo": the last round is a round like any other.
    g = _end_position(money=[12, 10, 10], loans=[1, 0, 0], spent=[5, 0, 0])
    play(g, "pass with blue")
    assert g.is_over and g.s.order == [1, 2, 0] and g.s.spent == [0, 0, 0]
    assert g.s.money[0] == 11 and g.final_accounts(0)["loans_repaid"] == 1  # $1 interest, then $11 repaid


def test_the_final_tie_goes_by_the_turn_order_the_last_round_sets():
    # "In caso di pareggio vince il giocatore più in alto nell'ordine di gioco": seat 0 played first in the last
    # round but spent $5 in it, so the order set at its end puts seat 1 first.
    g = _end_position(money=[10, 10, 10], spent=[5, 0, 0])
    play(g, "pass with blue")
    assert g.scores() == [2, 2, 2] and g.s.order == [1, 2, 0] and g.winners() == [1]


# ============================================================================ New England
NE = "new_england"


def test_ship_needs_a_built_port_on_its_sea_lane_and_a_ship_card_needs_ones_own():
    kw = dict(hands={0: {"ship": 1, "purple": 1}}, money=[30, 0, 0], removed={0: ["ship 0"]})
    g = position(3, NE, **kw, counters={"Lowell:1": (0, "cotton_mill", 1)})
    assert "build with ship" not in legal_names(g)  # no port by any ship space
    g = position(3, NE, **kw, counters={"Lowell:1": (0, "cotton_mill", 1), "Boston:1": (1, "port", 1)})
    assert "build with ship" not in legal_names(g)  # a ship card needs one's own port (or rail) there
    play(g, "build with purple")  # a location card does not: the purple Massachusetts Bay
    assert "build ship at Massachusetts Bay:1" in legal_names(g)
    g = position(3, NE, **kw, counters={"Lowell:1": (0, "cotton_mill", 1), "Boston:1": (0, "port", 1)})
    play(g, "build with ship")
    assert legal_names(g) == ["build ship at Massachusetts Bay:1"]


def test_ship_lays_its_import_coal_uses_it_for_its_own_build_and_fills_the_demand_track():
    g = position(3, NE, hands={0: {"purple": 1}}, money=[30, 0, 0], demand=[4, 6],
                 counters={"Boston:1": (1, "port", 1)}, removed={0: ["ship 0"]})
    play(g, "build with purple", "build ship at Massachusetts Bay:1")
    imp = sp(g, "Cape Breton coal:1")
    # 3 cubes laid; one for the ship itself ("Il carbone presente può subito essere utilizzato"), then the two
    # others fill the two empty demand spaces ($1 + $1)
    assert g.s.space_cubes[imp] == 0 and g.s.demand[COAL] == 6 and g.s.money[0] == 30 - 5 + 2
    assert g.ledger["cubes_placed"][COAL] == 3


def test_sea_lanes_carry_cubes_only_with_a_port_at_each_end_and_a_ship_between():
    base = {"Long Island Sound:1": (1, "ship", 1), "New Haven:1": (1, "port", 1),
            "Narragansett:1": (2, "coal_mine", 1, {"cubes": 2})}  # fmt: skip
    kw = dict(hands={0: {"brown": 1}}, money=[30, 0, 0], rails={"Providence-Narragansett": 2,
              "Providence-New London": 2}, removed={1: ["ship 0"]})  # fmt: skip
    g = position(3, NE, **kw, counters={**base, "New York:1": (2, "port", 1)})
    g.s.space_cubes[sp(g, "Maryland coal:1")] = 0
    g = Game.from_json(g.to_json())
    # New London has no port counter: Narragansett's coal cannot go New London ~ Sound ~ New York
    assert g.distances((g.map.location_names.index("New York"),))[g.map.location_names.index("New London")] == -1
    g = position(3, NE, **kw, counters={**base, "New York:1": (2, "port", 1), "New London:1": (2, "port", 1)})
    d = g.distances((g.map.location_names.index("New York"),))
    assert d[g.map.location_names.index("Narragansett")] == 4  # NY ~ Sound ~ New London - Providence - Narragansett


def test_pennsylvania_cubes_and_sales_may_end_or_start_there_but_not_pass_through():
    g = position(3, NE, counters={"Albany:1": (0, "cotton_mill", 1), "New York:1": (1, "port", 1),
                                  "Pennsylvania:2": (2, "cotton_mill", 1)},
                 rails={"Albany-Pennsylvania": 0, "New York-Pennsylvania": 1})  # fmt: skip
    assert "sell from Albany:1" not in legal_names(g)  # Albany - Pennsylvania - New York passes through
    names = [x for x in g.map.location_names]
    d = g.distances((names.index("Pennsylvania"),))
    assert d[names.index("New York")] == 1 and d[names.index("Albany")] == 1  # from Pennsylvania: fine
    g2 = position(3, NE, to_move=2, counters={"New York:1": (1, "port", 1), "Pennsylvania:2": (2, "cotton_mill", 1)},
                  rails={"New York-Pennsylvania": 1})  # fmt: skip
    assert "sell from Pennsylvania:2" in legal_names(g2)  # "puoi vendere beni dalla Pennsylvania"


def test_ship_flips_when_its_coal_is_gone_and_its_market_used_at_once_if_no_demand():
    kw = dict(hands={0: {"purple": 1}}, money=[30, 0, 0], demand=[6, 6], counters={"Boston:1": (1, "port", 1)},
              removed={0: ["ship 0"]})
    g = position(3, NE, **kw)
    g.s.space_tile[sp(g, "West Indies:1")] = 3  # No demand
    g = Game.from_json(g.to_json())
    play(g, "build with purple", "build ship at Massachusetts Bay:1")
    x = sp(g, "Massachusetts Bay:1")
    assert g.s.space_cubes[sp(g, "Cape Breton coal:1")] == 2 and not g.s.space_flipped[x]
    g.s.space_cubes[sp(g, "Cape Breton coal:1")] = 1
    g.take_cube(1, COAL, sp(g, "Cape Breton coal:1"))  # the last import cube taken: the ship flips ($8)
    assert g.s.space_flipped[x] == 1 and g.s.money[0] == 30 - 5 + 8


def test_ship_built_over_a_ship_brings_no_coal_and_never_flips():
    g = position(3, NE, hands={0: {"purple": 1}}, money=[30, 0, 0], counters={"Boston:1": (1, "port", 1),
                 "Massachusetts Bay:1": (0, "ship", 1)}, removed={0: ["ship 0", "ship 1"]}, demand=[6, 6])  # fmt: skip
    g.s.space_cubes[sp(g, "Cape Breton coal:1")] = 0
    play(g, "build with purple", "build ship at Massachusetts Bay:1")
    x = sp(g, "Massachusetts Bay:1")
    assert g.s.space_level[x] == 2 and g.s.space_no_flip[x] == 1 and g.s.space_cubes[sp(g, "Cape Breton coal:1")] == 0
    g.s.space_tile[sp(g, "West Indies:1")] = 0
    g.s.space_flipped[sp(g, "West Indies:1")] = 1
    g.check_ship(x)
    assert g.s.space_flipped[x] == 0  # coal gone and market used, yet it never flips


def test_turn_order_example_the_two_dollar_iron_works_plays_before_the_four_dollar_mill():
    # Azioni dei giocatori example: in round 1 yellow builds a cotton mill for $4 and red an iron works for $2;
    # red plays before yellow in the next round.
    g = position(3, round=1, hands={0: {"orange": 1}, 1: {"grey": 1}, 2: {"blue": 1}})
    play(g, "build with orange", "build cotton_mill at Kassel:1", "build with grey", "build iron_works at Leipzig:1")
    assert g.s.spent[:2] == [4, 2]
    play(g, "pass with blue")
    assert g.s.order == [2, 1, 0]


def test_first_edition_ends_only_once_the_face_up_cards_are_gone_too():
    g = _end_position()
    g.s.edition = 1
    g = Game.from_json(g.to_json())
    play(g, "pass with blue")
    assert not g.is_over and all(k >= 0 for k in g.s.face_up)


def test_ship_flips_when_its_coal_is_gone_and_its_market_tile_is_used_by_a_sale():
    g = position(3, NE, hands={0: {"purple": 1}}, money=[30, 0, 0], demand=[6, 6],
                 counters={"Boston:1": (1, "port", 1), "Boston:2": (2, "cotton_mill", 1)}, removed={0: ["ship 0"]})
    g.s.space_tile[sp(g, "West Indies:1")] = 0  # a cotton tile
    g = Game.from_json(g.to_json())
    play(g, "build with purple", "build ship at Massachusetts Bay:1")
    x, imp = sp(g, "Massachusetts Bay:1"), sp(g, "Cape Breton coal:1")
    g.s.space_cubes[imp] = 0  # its coal used up
    g.check_ship(x)
    assert not g.s.space_flipped[x]  # the market tile is still unused
    g.sell_goods(2, sp(g, "Boston:2"), sp(g, "West Indies:1"))
    assert g.s.space_flipped[x] == 1 and g.s.money[0] == 30 - 5 + 8


def test_a_distance_asked_before_a_ship_is_built_does_not_hide_its_coal_afterwards():
    # regression: distances are cached per position; placing a ship opens sea lanes, so the cache must be dropped
    g = position(3, NE, hands={0: {"purple": 1}}, money=[30, 0, 0], demand=[0, 6],
                 counters={"Boston:1": (1, "port", 1)}, removed={0: ["ship 0"]})
    play(g, "build with purple")
    assert g.legal_actions()
    g.distances((g.map.location_names.index("Massachusetts Bay"),))  # as an agent might, before choosing
    play(g, "build ship at Massachusetts Bay:1")
    assert g.s.space_cubes[sp(g, "Cape Breton coal:1")] == 0 and g.s.demand[COAL] == 2


def test_a_port_needing_coal_may_buy_it_through_the_port_being_built():
    # Prelevare acciaio e carbone: "puoi prelevare le materie prime dall'area della richiesta utilizzando il porto che
    # stai costruendo"
    g = position(3, hands={0: {"blue": 1}}, money=[20, 0, 0], removed={0: ["port 1", "port 1"]})
    play(g, "build with blue", "build port at Kiel:1")
    assert g.s.space_level[sp(g, "Kiel:1")] == 2 and g.s.demand[COAL] == 5 and g.s.money[0] == 20 - 7 - 1
