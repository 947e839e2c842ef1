"""The flat action encoding: sizes derived from the live data, names that read back to the same action."""

from __future__ import annotations

import pytest

from industry_env.games.age_of_industry import Game, load_components, load_map
from industry_env.games.age_of_industry.actions import action_space, action_to_string, num_actions, string_to_action
from industry_env.games.age_of_industry.components import MAPS


@pytest.mark.parametrize("name", MAPS)
def test_action_space_size_is_derived_from_the_map_and_components(name):
    c, m = load_components(), load_map(name)
    K, S, L, D = c.num_card_kinds, m.num_spaces, m.num_rail_links, c.num_slots
    assert num_actions(m) == 4 * K + L + S + 3 + 1 + 6 * S + (S + 1) + S + D + 2
    assert all(Game(n, 0, name).num_actions == num_actions(m) for n in (3, 4, 5))


@pytest.mark.parametrize("name", MAPS)
def test_every_action_name_reads_back_to_the_same_action(name):
    space = action_space(load_components(), load_map(name))
    for a in range(space.size):
        text = action_to_string(a, space)
        assert string_to_action(text, space) == a, text
        assert string_to_action("  " + text.upper() + " ", space) == a


def test_parser_accepts_a_rail_either_way_and_explains_what_it_could_not_read():
    space = action_space(load_components(), load_map("germany"))
    assert string_to_action("rail Bohemia-Regensburg", space) == string_to_action("rail Regensburg-Bohemia", space)
    for bad, why in (("build with teal", "unknown card"), ("sell to Atlantis:1", "unknown space"),
                     ("rail Kiel-München", "no potential rail link"), ("fly", "expected")):  # fmt: skip
        with pytest.raises(ValueError, match=why):
            string_to_action(bad, space)
    with pytest.raises(ValueError, match="out of range"):
        action_to_string(space.size, space)


def test_names_can_be_read_with_a_game_a_map_or_a_map_name():
    g = Game(3, 0, "new_england")
    a = g.string_to_action("rail Boston-Lowell")
    assert action_to_string(a, g) == action_to_string(a, "new_england") == action_to_string(a, g.map)
    assert string_to_action("rail Boston-Lowell", g) == a
    assert action_to_string(0) == "build with cotton_mill"  # Germany by default


def test_the_package_exposes_what_a_registry_needs():
    import importlib

    game = importlib.import_module("industry_env.games.age_of_industry")
    g = game.reference(num_players=5, seed=3, map="new_england")
    assert game.NAME == "age_of_industry" and g.num_actions == game.num_actions(g.map)
    assert g.observe(0).shape == (game.observation_size(g.map),)
    assert callable(game.print_components) and callable(game.print_rules) and callable(game.write_template)
