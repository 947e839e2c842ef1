"""The components and maps as data: the shipped files load, carry a provenance for every value, keep the numbers
the rulebook states, and a malformed file is refused with every problem listed at once."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

import pytest

from industry_env.games.age_of_industry.components import (
    MAPS,
    MAX_LINKS,
    MAX_LOCATIONS,
    MAX_SPACES,
    PROVENANCE_KINDS,
    ComponentsError,
    load_components,
    load_map,
    parse_components,
    parse_map,
)
from industry_env.games.age_of_industry.rules import INDUSTRIES
from industry_env.games.age_of_industry.texts import components_markdown, components_template, map_template

ROOT = Path(__file__).resolve().parents[2]
DATA = resources.files("industry_env.games.age_of_industry.data")


def slot(c, industry: str, level: int) -> int:
    return next(d for d in range(c.num_slots)
                if INDUSTRIES[c.SLOT_INDUSTRY[d]] == industry and c.SLOT_LEVEL[d] == level)  # fmt: skip


def test_shipped_components_count_66_cards_18_tiles_35_counters_and_12_kinds_of_card():
    c = load_components()
    assert sum(c.CARD_COUNT) == 66 and sum(c.TILE_COUNT) == 18 and sum(c.SLOT_COUNTERS) == 35
    assert c.num_card_kinds == 6 + len(c.colours)


def test_shipped_components_keep_every_number_the_rulebook_states():
    c = load_components()
    for level, cost, coal, iron in ((1, 4, 0, 0), (2, 6, 1, 0), (3, 12, 1, 1)):  # the cotton mill example
        d = slot(c, "cotton_mill", level)
        assert (c.SLOT_COST[d], c.SLOT_COAL[d], c.SLOT_IRON[d]) == (cost, coal, iron)
    assert (c.SLOT_CUBES[slot(c, "coal_mine", 1)], c.SLOT_INCOME[slot(c, "coal_mine", 1)]) == (3, 4)
    assert c.SLOT_CUBES[slot(c, "coal_mine", 2)] == 4 and c.SLOT_CUBES[slot(c, "iron_works", 2)] == 4
    assert c.SLOT_COST[slot(c, "iron_works", 1)] == 2 and c.SLOT_COUNTERS[slot(c, "ship", 0)] == 1
    assert c.SLOT_COUNTERS[slot(c, "factory", 0)] == 2 and c.SLOT_LEVEL[c.SLOTS_OF[1][1]] == 3
    assert (c.LOAN_VALUE, c.LOAN_INTEREST) == (10, 1)
    assert set(c.DEMAND_PRICES[0]) == {1, 2, 3} and c.DEMAND_PRICES[0].count(1) == 2  # $4 = $2 + $1 + $1
    assert {"green", "brown"} <= set(c.colours)


def test_every_value_has_a_provenance_of_a_known_kind():
    c = load_components()
    for entry in c.provenance.values():
        assert all(v.startswith(PROVENANCE_KINDS) for v in entry.values())
    for name in MAPS:
        m = load_map(name)
        assert all(v.startswith(PROVENANCE_KINDS) for e in m.provenance.values() for v in e.values())
    rulebook = [v for e in c.provenance.values() for v in e.values() if v.startswith("rulebook")]
    assert len(rulebook) >= 15


def test_germany_keeps_the_rulebooks_location_facts_and_has_no_ship_space():
    m = load_map("germany")
    names = list(m.location_names)

    def spaces(name: str) -> list[str]:
        return [("blank", "coal", "port", "ship", "market", "import")[m.SPACE_SYMBOL[s]]
                for s in m.LOC_SPACES[names.index(name)]]  # fmt: skip

    assert spaces("Köln") == ["blank", "blank"] and spaces("Kiel") == ["port"]
    assert set(spaces("Belgium")) == {"coal"} and "market" in spaces("Poland") and "coal" in spaces("Poland")
    assert any({m.location_names[m.LINK_A[li]], m.location_names[m.LINK_B[li]]} == {"Regensburg", "Bohemia"}
               for li in range(m.num_rail_links))  # fmt: skip
    assert load_components().colours[m.LOC_COLOUR[names.index("Regensburg")]] == "brown"
    assert m.LOC_DISTANT_PORT[names.index("France")] and not m.has_ships
    assert m.LOC_BUILD_SPACES[names.index("München")] <= 3


def test_new_england_has_ships_coal_imports_and_pennsylvania():
    m = load_map("new_england")
    assert m.has_ships and sum(m.SPACE_IMPORT) > 0
    assert m.LOC_NO_THROUGH[m.location_names.index("Pennsylvania")]
    assert sum(1 for s in m.SPACE_SYMBOL if s == 1) == 2  # two coal-mine spaces (public source)


def test_a_malformed_components_file_is_refused_with_every_problem_at_once():
    text = DATA.joinpath("components.toml").read_text("utf-8")
    text = text.replace("count = 6\n", "count = 7\n", 1)  # 67 cards
    text = text.replace('industry = "port"\nlevel = 2', 'industry = "harbour"\nlevel = 2')
    text = text.replace("repay = 11", "repay = 9")
    with pytest.raises(ComponentsError) as info:
        parse_components(text, "mine.toml")
    problems = "\n".join(info.value.errors)
    assert len(info.value.errors) >= 3 and all(e.startswith("file mine.toml: ") for e in info.value.errors)
    assert "harbour" in problems and "cards; the deck has 66" in problems and "repay = 9" in problems


def test_a_malformed_map_is_refused_with_every_problem_at_once():
    c = load_components()
    text = DATA.joinpath("germany.toml").read_text("utf-8")
    text = text.replace('between = ["Kiel", "Hamburg"]', 'between = ["Kiel", "Atlantis"]')
    text = text.replace('name = "Kassel"\ncolour = "orange"', 'name = "Kassel"\ncolour = "teal"')
    text = text.replace('spaces = ["port"]', 'spaces = ["harbour"]', 1)
    with pytest.raises(ComponentsError) as info:
        parse_map(text, "map.toml", c)
    problems = "\n".join(info.value.errors)
    assert "Atlantis" in problems and "teal" in problems and "harbour" in problems
    with pytest.raises(ComponentsError, match="neither"):
        load_map("atlantis")


def test_templates_keep_the_structure_and_blank_the_printed_numbers():
    blank = components_template()
    data = tomllib.loads(blank)
    assert all(row.get("cost", 0) == 0 for row in data["display"]) and data["meta"]["provenance"] == "printed"
    with pytest.raises(ComponentsError) as info:  # the loader then lists every number still to type in
        parse_components(blank, "template.toml")
    assert len(info.value.errors) >= 15
    for name in MAPS:
        parse_map(map_template(name), f"{name}-template.toml", load_components())


def test_components_doc_is_generated_from_the_data_files():
    assert (ROOT / "docs" / "age-of-industry" / "components.md").read_text("utf-8") == components_markdown(), (
        "regenerate: python -c 'from industry_env.games.age_of_industry.texts import components_markdown as f; "
        "print(f(), end=\"\")' > docs/age-of-industry/components.md"
    )


def test_write_template_is_atomic_and_never_replaces_a_file(tmp_path):
    from industry_env.games.age_of_industry.texts import write_template

    target = write_template(tmp_path / "mine.toml")
    assert tomllib.loads(target.read_text("utf-8"))["meta"]["provenance"] == "printed"
    target.write_text("my typing", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_template(target)
    assert target.read_text("utf-8") == "my typing" and not list(tmp_path.glob(".*tmp"))
    write_template(tmp_path / "g.toml", "germany")
    with pytest.raises(ValueError, match="components"):
        write_template(tmp_path / "x.toml", "mars")


def _germany_plus(extra: str) -> str:
    return DATA.joinpath("germany.toml").read_text("utf-8") + extra


def test_a_map_beyond_the_engines_integer_types_is_refused_with_the_limit():
    # Spaces are numbered in the State's int16 entries (build_space, sell_from): space 32,768 would wrap to -32,768
    # and a build there write another space. Germany has 105 spaces; a location of many more reaches the limit.
    c = load_components()
    base = load_map("germany").num_spaces
    many = ", ".join(['"blank"'] * (MAX_SPACES - base + 1))
    text = _germany_plus(f'[[location]]\nname = "Big"\ncolour = "blue"\nspaces = [{many}]\n'
                         '[[link]]\nbetween = ["Big", "Kiel"]\n')  # fmt: skip
    with pytest.raises(ComponentsError, match=f"{MAX_SPACES + 1:,} spaces.*at most {MAX_SPACES:,}"):
        parse_map(text, "big.toml", c)
    assert MAX_SPACES == 32_768 and MAX_LINKS == 32_768 and MAX_LOCATIONS == 32_768


def test_a_demand_track_beyond_the_engines_integer_types_is_refused_with_the_limit():
    text = DATA.joinpath("components.toml").read_text("utf-8")
    row = ", ".join(["1"] * 128)
    text = text.replace("iron = [3, 3, 2, 2, 1, 1]", f"iron = [{row}]", 1)
    with pytest.raises(ComponentsError, match="128 spaces.*at most 127"):
        parse_components(text, "mine.toml")


@pytest.mark.parametrize("second", ["BONN", "bonn", " Bonn", "Bonn "])
def test_location_names_that_differ_only_in_case_or_spacing_are_refused_naming_both(second):
    text = _germany_plus(f'[[location]]\nname = "Bonn"\ncolour = "blue"\nspaces = ["blank"]\n'
                         f'[[location]]\nname = "{second}"\ncolour = "blue"\nspaces = ["blank"]\n'
                         '[[link]]\nbetween = ["Bonn", "Kiel"]\n')  # fmt: skip
    with pytest.raises(ComponentsError, match=f"name '{second}' differs from location 'Bonn' only in case"):
        parse_map(text, "bonn.toml", load_components())


def test_card_colours_that_differ_only_in_case_from_another_card_are_refused():
    text = DATA.joinpath("components.toml").read_text("utf-8")
    for clash in ("BLUE", "Coal_Mine"):  # another colour's name, an industry card's name
        with pytest.raises(ComponentsError, match=f"colour '{clash}' differs from the card .* only in case"):
            parse_components(text.replace('colour = "green"', f'colour = "{clash}"', 1), "mine.toml")
