"""The shipped board satisfies every constraint of the rulebook and the published facts; malformed board files are
refused with a BoardError naming the file, the field and the problem."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from industry_env.games.industry.components import (
    BONUS_NAMES,
    PROVENANCE_KINDS,
    BoardError,
    BoardWarning,
    adjacent,
    board_template,
    field_id,
    field_index,
    load_board,
    parse_board,
)
from industry_env.games.industry.rules import BONUS, BONUS_KINDS, FACTORY, JOKER, NUM_FIELDS, TECHNOLOGY, WILD_JOKER

from .helpers import BOARD_TEXT, SHIPPED_BOARD

B = SHIPPED_BOARD
# The copies of the board loaded below keep the shipped board's four long links; the warnings are tested apart.
pytestmark = pytest.mark.filterwarnings("ignore::industry_env.games.industry.components.BoardWarning")


def _named(name: str) -> list[int]:
    return [f for f in range(NUM_FIELDS) if B.field_names[f] == name]


def _resources(era: int) -> set[str]:
    """Resources produced by the factories of ``era`` (1-based)."""
    return {B.resource_names[B.PRODUCES[f]] for f in range(NUM_FIELDS) if B.ERA[f] == era - 1 and B.PRODUCES[f] >= 0}


# ---------------------------------------------------------------- the shipped board
def test_board_has_sixty_fields_five_eras_twelve_columns():
    assert len(B.field_names) == NUM_FIELDS == 60
    assert [field_id(f) for f in (0, 11, 12, 59)] == ["1A", "1L", "2A", "5L"]
    assert field_index("3F") == 29 and field_index(" 3f ") == 29
    assert B.ERA.tolist() == [f // 12 for f in range(60)] and B.COLUMN.tolist() == [f % 12 for f in range(60)]


def test_board_seven_jokers_one_wild():
    assert int((B.KIND == JOKER).sum()) == 7
    assert int((B.JOKER_KIND == WILD_JOKER).sum()) == 1
    assert all(B.JOKER_KIND[f] >= 0 for f in range(60) if B.KIND[f] == JOKER)


@pytest.mark.parametrize(("era", "resources"), [
    (1, {"Stone", "Brick", "Wood"}), (2, {"Ceramic", "Glass", "Iron"}), (3, {"Cable", "Steel", "Cement"}),
    (4, {"Plastic", "Computers"}), (5, set()),
])  # fmt: skip
def test_board_factories_of_each_era_make_the_rulebook_resources(era, resources):
    assert _resources(era) == resources


def test_board_bank_table_matches_rulebook():
    bank = {n: int(B.BANK_ERA[i]) + 1 for i, n in enumerate(B.resource_names)}
    assert bank == {"Stone": 2, "Brick": 2, "Wood": 2, "Ceramic": 3, "Glass": 3, "Iron": 3,
                    "Cable": 4, "Steel": 4, "Cement": 4, "Plastic": 5, "Computers": 5}  # fmt: skip
    assert (B.PRODUCER_ERA + 1 == B.BANK_ERA).all()


def test_board_bank_and_stock_exchange_discount_one():
    for name in ("Bank", "Stock Exchange"):
        (f,) = _named(name)
        assert B.KIND[f] == FACTORY and B.DISCOUNT[f] == 1
    assert int((B.DISCOUNT > 0).sum()) == 2


def test_board_no_field_needs_a_resource_produced_later():
    for f in range(NUM_FIELDS):
        for r in B.NEEDS[f]:
            if r >= 0:
                assert B.PRODUCER_ERA[r] <= B.ERA[f], B.field_label(f)


def test_board_era1_technologies_need_era1_resources_only():
    techs = [f for f in range(12) if B.KIND[f] == TECHNOLOGY]
    assert techs
    for f in techs:
        assert all(B.PRODUCER_ERA[r] == 0 for r in B.NEEDS[f] if r >= 0), B.field_label(f)


def test_board_needs_at_most_two_and_never_own_product():
    for f in range(NUM_FIELDS):
        need = [int(r) for r in B.NEEDS[f] if r >= 0]
        assert len(need) <= 2 and (B.NEEDS[f, len(need) :] == -1).all()  # -1 padded at the end
        assert B.PRODUCES[f] not in need
        assert B.NEEDS_MASK[f].sum() == len(set(need))


def test_board_at_least_three_ports_worth_two():
    ports = [f for f in range(NUM_FIELDS) if B.KIND[f] == BONUS and B.BONUS_KIND[f] == BONUS_KINDS.index("port")]
    assert sum(B.MULTIPLIER[f] == 2 for f in ports) >= 3


def test_board_bonus_fields_worth_two_or_three_and_connect_to_factories_of_their_network():
    for g in range(NUM_FIELDS):
        if B.KIND[g] == BONUS:
            assert B.MULTIPLIER[g] in (2, 3)
            on_net = (B.KIND == FACTORY) & B.NETWORK[:, B.BONUS_KIND[g]]
            assert (B.BONUS_CONNECT[g] == np.where(on_net, B.MULTIPLIER[g], 0)).all()
        else:
            assert not B.BONUS_CONNECT[g].any()


def test_board_technologies_cost_nothing_and_kinds_carry_only_their_attributes():
    for f in range(NUM_FIELDS):
        if B.KIND[f] == TECHNOLOGY:
            assert B.COST[f] == 0
        if B.KIND[f] != FACTORY:
            assert B.PRODUCES[f] == -1 and B.DISCOUNT[f] == 0 and not B.NETWORK[f].any()
        if B.KIND[f] == JOKER:
            assert B.COST[f] == 0 and B.POINTS[f] == 0 and (B.NEEDS[f] == -1).all()


def test_board_links_join_fields_of_the_right_kind():
    for a, c in B.ROADS.tolist():
        assert B.KIND[a] == B.KIND[c] == FACTORY and a < c
    for a, c in B.TECH_LINKS.tolist():
        assert B.KIND[a] == B.KIND[c] == TECHNOLOGY and a < c
    assert len({tuple(p) for p in B.LINKS.tolist()}) == len(B.LINKS) == len(B.ROADS) + len(B.TECH_LINKS)


def test_board_every_resource_has_a_producer():
    assert all(len(B.PRODUCERS[r]) >= 1 for r in range(11))


def test_board_facts_engineering_and_architecture():
    # katz2019 review: column L of era 1 is the Engineering technology (2 VP), its neighbour Architecture.
    f = field_index("1L")
    assert (B.field_names[f], B.KIND[f], B.POINTS[f]) == ("Engineering", TECHNOLOGY, 2)
    assert (B.field_names[field_index("1K")], B.KIND[field_index("1K")]) == ("Architecture", TECHNOLOGY)


def test_board_facts_iron_ore_mine():
    # An iron ore mine developed for 2 Talers + 1 Wood, giving 2 VP; Iron's producers lie in era 2.
    (f,) = _named("Iron Ore Mine")
    need = [B.resource_names[r] for r in B.NEEDS[f] if r >= 0]
    assert (B.ERA[f] + 1, B.COST[f], need, B.POINTS[f]) == (2, 2, ["Wood"], 2)
    assert B.resource_names[B.PRODUCES[f]] == "Iron"


def test_board_facts_sawmill_and_clay_pit_in_era1():
    (saw,) = _named("Sawmill")
    assert B.ERA[saw] == 0 and B.resource_names[B.PRODUCES[saw]] == "Wood"
    (clay,) = _named("Clay Pit")
    assert B.ERA[clay] == 0


def test_board_provenance_recorded_for_every_field_and_position():
    assert len(B.provenance) == 60
    for prov in B.provenance:
        assert all(v.startswith(PROVENANCE_KINDS) for v in prov.values())
        assert {"era", "column", "kind", "name"} <= set(prov)


def test_board_tables_read_only():
    with pytest.raises(ValueError):
        B.COST[0] = 9


def test_load_board_cached_and_frozen_board_valid():
    assert load_board() is load_board()
    parse_board(BOARD_TEXT)  # the frozen copy used by the rules tests is a valid board too


# ---------------------------------------------------------------- malformed board files
def _field_block(text: str, fid: str) -> tuple[int, int]:
    start = text.index(f'[[field]]\nid = "{fid}"\n')
    end = text.index("[[", start + 2)
    return start, end


def _replace_in_field(fid: str, old: str, new: str):
    def mutate(text: str) -> str:
        a, b = _field_block(text, fid)
        block = text[a:b]
        assert old in block, (fid, old)
        return text[:a] + block.replace(old, new, 1) + text[b:]

    return mutate


def _add_to_field(fid: str, line: str):
    return _replace_in_field(fid, f'id = "{fid}"\n', f'id = "{fid}"\n{line}\n')


def _drop_field(fid: str):
    def mutate(text: str) -> str:
        a, b = _field_block(text, fid)
        return text[:a] + text[b:]

    return mutate


def _append(extra: str):
    return lambda text: text + "\n" + extra + "\n"


MALFORMED = [
    # (description, mutation of a valid board file, where, problem)
    ("syntax error", _append("[[field"), "syntax", ""),
    ("missing field", _drop_field("3F"), "[[field]]", "['3F'] are missing"),
    ("bad kind", _replace_in_field("2C", 'kind = "bonus"', 'kind = "castle"'), "field 2C", "kind 'castle'"),
    (
        "unknown resource",
        _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Unobtainium"]'),
        "field 1H",
        "'Unobtainium' is not one of the resources",
    ),
    (
        "need produced only later",
        _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Steel"]'),
        "field 1H",
        "produced only from era 3",
    ),
    (
        "six jokers",
        _replace_in_field(
            "3B", 'kind = "joker"\nname = "Joker: Glass"\njoker = "Glass"', 'kind = "technology"\nname = "Optics"'
        ),
        "[[field]]",
        "6 joker fields",
    ),
    ("two wild jokers", _replace_in_field("3B", 'joker = "Glass"', 'joker = "?"'), "[[field]]", "exactly one joker"),
    ("duplicate road", _append('[[road]]\nfields = ["1E", "1D"]'), "road", "listed twice"),
    ("duplicate tech link", _append('[[tech_link]]\nfields = ["1L", "1K"]'), "tech_link", "listed twice"),
    ("road to a bonus field", _append('[[road]]\nfields = ["1B", "1D"]'), "road 15", "two different factory fields"),
    ("road to itself", _append('[[road]]\nfields = ["1D", "1D"]'), "road 15", "two different factory fields"),
    ("road to nowhere", _append('[[road]]\nfields = ["1D", "6A"]'), "road 15", "not a field"),
    ("bad provenance", _add_to_field("1G", 'provenance = { cost = "a guess" }'), "field 1G", "provenance 'a guess'"),
    (
        "provenance of unknown attribute",
        _add_to_field("1H", 'provenance = { colour = "rulebook" }'),
        "field 1H",
        "unknown attribute 'colour'",
    ),
    ("unknown key", _add_to_field("1D", 'colour = "red"'), "field 1D", "unknown keys ['colour']"),
    ("field listed twice", _replace_in_field("3G", 'id = "3G"', 'id = "3F"'), "field 3F", "listed twice"),
    ("bad field id", _replace_in_field("3G", 'id = "3G"', 'id = "3M"'), "field", "'3M'"),
    ("produces in the wrong era", _add_to_field("2H", 'produces = "Stone"'), "field 2H", "produces Stone"),
    ("multiplier 4", _replace_in_field("1B", "multiplier = 2", "multiplier = 4"), "field 1B", "multiplier = 4"),
    ("technology with a cost", _add_to_field("1L", "cost = 1"), "field 1L", "a technology has no ['cost']"),
    ("negative cost", _replace_in_field("1D", "cost = 2", "cost = -1"), "field 1D", "cost = -1"),
    (
        "three needs",
        _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Stone", "Wood", "Brick"]'),
        "field 1H",
        "at most 2",
    ),
    (
        "three needs, one twice",
        _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Stone", "Stone", "Stone"]'),
        "field 1H",
        "at most 2",
    ),
    (
        "needs its own product twice",
        _replace_in_field("1F", 'needs = ["Wood"]', 'needs = ["Brick", "Brick"]'),
        "field 1F",
        "needs the resource it produces",
    ),
    (
        "needs its own product",
        _replace_in_field("1F", 'needs = ["Wood"]', 'needs = ["Brick"]'),
        "field 1F",
        "needs the resource it produces",
    ),
    ("bad network", _replace_in_field("1D", 'networks = ["river"]', 'networks = ["canal"]'), "field 1D", "networks"),
    ("joker without resource", _replace_in_field("1A", 'joker = "Wood"\n', ""), "field 1A", "which resource"),
    ("no name", _replace_in_field("1D", 'name = "Quarry"', 'name = ""'), "field 1D", "name"),
    ("no resources", lambda t: t.replace("[[resource]]", "[[resourcex]]"), "[[resource]]", "missing"),
    (
        "bank before producer",
        lambda t: t.replace(
            'name = "Stone"\nproducer_era = 1\nbank_era = 2', 'name = "Stone"\nproducer_era = 1\nbank_era = 1', 1
        ),
        "resource 1 (Stone)",
        "bank_era",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("what", "mutate", "where", "problem"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_board_refused_naming_file_field_and_problem(tmp_path, what, mutate, where, problem):
    parse_board(BOARD_TEXT)  # the unmodified text is valid
    path = tmp_path / "bad_board.toml"
    path.write_text(mutate(BOARD_TEXT), encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    message = str(info.value)
    assert str(path) in message and "bad_board.toml" in message
    assert where in message and problem in message, message


def test_unreadable_board_file_refused(tmp_path):
    with pytest.raises(BoardError, match="missing.toml: file: cannot be read"):
        load_board(tmp_path / "missing.toml")


def test_parse_board_names_the_given_path():
    with pytest.raises(BoardError, match=r"^board file my_board\.toml: syntax"):
        parse_board("[[field", "my_board.toml")
    with pytest.raises(BoardError, match=r"^board file <string>: text: must be the TOML text .* not bytes"):
        parse_board(BOARD_TEXT.encode())


# ---------------------------------------------------------------- provenance that claims no more than it knows
SHIPPED_TEXT = (Path(__file__).resolve().parents[2] / "industry_env/games/industry/data/board.toml").read_text()


def test_shipped_provenance_marks_producers_as_reconstructed_with_their_constraint():
    # The bank table fixes the era of each resource's producer, not which named field produces it.
    for f in range(NUM_FIELDS):
        if B.PRODUCES[f] >= 0:
            src = B.provenance[f]["produces"]
            assert not src.startswith("rulebook"), (B.field_label(f), src)
            if src.startswith("reconstructed"):
                assert f"producer in Era {B.ERA[f] + 1}" in src, (B.field_label(f), src)


def test_shipped_provenance_of_positions_names_and_interpretations():
    iron = field_index("2E")
    assert B.provenance[iron]["era"].startswith("inferred:") and "Era 1" in B.provenance[iron]["era"]
    assert B.provenance[field_index("1L")]["era"].startswith("source:")  # "column L of the first era"
    assert B.provenance[field_index("1L")]["column"].startswith("source:")
    assert B.provenance[field_index("1K")]["column"].startswith("inferred:")
    for fid in ("4G", "5F"):  # automobile and fibre optics are technologies in Industria
        assert B.provenance[field_index(fid)]["kind"].startswith("interpretation:")
    # one name per bonus kind, the rulebook's
    for g in np.flatnonzero(B.KIND == BONUS):
        assert B.field_names[g] == BONUS_NAMES[BONUS_KINDS[B.BONUS_KIND[g]]]
        assert B.provenance[g]["name"].startswith("rulebook")
    assert B.default_provenance == "reconstructed" and B.is_shipped


def test_position_provenance_from_id_is_kept(tmp_path):
    text = _add_to_field("1G", 'provenance = { id = "printed", cost = "printed" }')(BOARD_TEXT)
    board = parse_board(text)
    prov = board.provenance[field_index("1G")]
    assert (prov["era"], prov["column"], prov["cost"]) == ("printed", "printed", "printed")
    assert prov["kind"] == "reconstructed"


def test_meta_default_provenance_applies_to_every_unmarked_value():
    text = BOARD_TEXT.replace("[meta]\n", '[meta]\nprovenance = "printed"\n', 1)
    board = parse_board(text, "mine.toml")
    assert board.default_provenance == "printed"
    assert board.provenance[field_index("1G")]["cost"] == "printed"
    assert board.provenance[field_index("1G")]["era"] == "printed"
    assert set(board.road_provenance) == {"printed"}
    with pytest.raises(BoardError, match=r"\[meta\]: provenance 'guessed'"):
        parse_board(BOARD_TEXT.replace("[meta]\n", '[meta]\nprovenance = "guessed"\n', 1))


# ---------------------------------------------------------------- owners of the printed board
def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = _replace_in_field("2C", 'kind = "bonus"', 'kind = "castle"')(BOARD_TEXT)
    text = _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Unobtainium"]')(text)
    text = _add_to_field("1D", 'colour = "red"')(text)
    text += '\n[[road]]\nfields = ["1D", "6A"]\n'
    path = tmp_path / "typed.toml"
    path.write_text(text)
    with pytest.raises(BoardError) as info:
        load_board(path)
    err = info.value
    wheres = [w for w, _ in err.problems]
    assert wheres[:3] == ["field 1D", "field 1H", "field 2C"] and wheres[3].startswith("road")
    lines = str(err).splitlines()
    assert lines[0] == f"board file {path}: 4 problems" and len(lines) == 5
    assert all(line.startswith(f"board file {path}: ") for line in lines[1:])
    assert "'Unobtainium'" in lines[2] and "kind 'castle'" in lines[3] and "not a field" in lines[4]


def test_discounts_are_exactly_the_bank_and_the_stock_exchange():
    no_exchange = _replace_in_field("3H", "discount = 1\n", "")(BOARD_TEXT)
    with pytest.raises(BoardError, match=r"\[\[field\]\]: no factory named 'Stock Exchange' with discount = 1.*3H"):
        parse_board(no_exchange)
    third = _add_to_field("1G", "discount = 1")(BOARD_TEXT)
    with pytest.raises(BoardError, match="field 1G: Carpentry has a discount"):
        parse_board(third)
    with pytest.raises(BoardError, match="field 2H: discount = 2 must be a whole number from 0 to 1"):
        parse_board(_replace_in_field("2H", "discount = 1", "discount = 2")(BOARD_TEXT))


def test_links_between_fields_that_do_not_touch_are_warned_about(tmp_path):
    pairs = {w.split(": ")[2].split(" ")[0] for w in B.warnings}
    assert pairs == {"1E-1G", "4G-4I", "5F-5H", "4L-5J"}  # the shipped board's four long links
    assert adjacent(field_index("2E"), field_index("3F")) and not adjacent(field_index("1E"), field_index("1G"))
    path = tmp_path / "long_road.toml"
    path.write_text(BOARD_TEXT + '\n[[road]]\nfields = ["1D", "3E"]\n')
    with pytest.warns(BoardWarning, match=r"road \d+: 1D-3E joins fields that do not touch"):
        load_board(path)
    near = tmp_path / "near_road.toml"
    near.write_text(BOARD_TEXT + '\n[[road]]\nfields = ["2E", "2F"]\n')
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        board = load_board(near)
    assert "2E-2F" not in " ".join(str(w.message) for w in caught) and "2E-2F" not in " ".join(board.warnings)


def test_two_separate_networks_of_one_kind():
    # Carpentry on a second river, served only by the Port 1C; the other Ports keep the first river.
    text = _replace_in_field("1G", 'networks = ["river"]', 'networks = ["river:2"]')(BOARD_TEXT)
    text = _add_to_field("1C", 'networks = ["river:2"]')(text)
    board = parse_board(text)
    g1b, g1c, carpentry, quarry = (field_index(x) for x in ("1B", "1C", "1G", "1D"))
    assert board.BONUS_CONNECT[g1c].nonzero()[0].tolist() == [carpentry]
    assert board.BONUS_CONNECT[g1b, carpentry] == 0 and board.BONUS_CONNECT[g1b, quarry] == 2
    assert board.networks[carpentry] == ("river:2",)
    assert board.NETWORK[carpentry].tolist() == [True, False, False, False]
    # "river" and "river:1" are one network: the shipped board's connections are unchanged in effect
    same = parse_board(_replace_in_field("1D", 'networks = ["river"]', 'networks = ["river:1"]')(BOARD_TEXT))
    assert (same.BONUS_CONNECT == parse_board(BOARD_TEXT).BONUS_CONNECT).all()
    with pytest.raises(BoardError, match="field 1C: a port serves river networks, not 'tracks'"):
        parse_board(_add_to_field("1C", 'networks = ["tracks"]')(BOARD_TEXT))


def test_a_field_needing_one_resource_twice_loads_as_two_units():
    # The printed board may show a resource twice on a field: two units, each paid separately (docs/industry/rules.md).
    b = parse_board(_replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Stone", "Stone"]')(BOARD_TEXT))
    f, stone = field_index("1H"), b.resource_names.index("Stone")
    assert b.NEEDS[f].tolist() == [stone, stone]
    assert b.NEEDS_MASK[f].tolist() == [r == stone for r in range(len(b.resource_names))]
    assert b.need_labels(f) == ["Stone x2"] and b.need_labels(field_index("2K")) == ["Iron", "Stone"]
    # every other field as in the unchanged file
    base = parse_board(BOARD_TEXT)
    other = np.arange(NUM_FIELDS) != f
    assert (b.NEEDS[other] == base.NEEDS[other]).all() and (b.COST == base.COST).all()


def _fill_template(template: str, board) -> str:
    """The owner's job: type the values of ``board`` into the blank template, line by line."""
    import json

    def values(f: int) -> dict[str, object]:
        names, kind = board.resource_names, board.KIND[f]
        return {
            "kind": ("factory", "technology", "bonus", "joker")[kind], "name": board.field_names[f],
            "cost": int(board.COST[f]), "needs": [names[r] for r in board.NEEDS[f] if r >= 0],
            "produces": names[board.PRODUCES[f]] if board.PRODUCES[f] >= 0 else "",
            "points": int(board.POINTS[f]), "discount": int(board.DISCOUNT[f]),
            "networks": list(board.networks[f]) if kind == FACTORY else [],
            "bonus": BONUS_KINDS[board.BONUS_KIND[f]] if kind == BONUS else "",
            "multiplier": int(board.MULTIPLIER[f]),
            "joker": "" if kind != JOKER else "?" if board.JOKER_KIND[f] == WILD_JOKER else names[board.JOKER_KIND[f]],
        }  # fmt: skip

    out, current = [], None
    for line in template.splitlines():
        if line.startswith("id = "):
            current = values(field_index(line.split('"')[1]))
        elif current is not None and " = " in line and not line.startswith("#"):
            key = line.split(" = ")[0]
            if key in current:
                line = f"{key} = {json.dumps(current[key])}"
        out.append(line)
    out += ["[[road]]\nfields = " + json.dumps([field_id(a), field_id(c)]) for a, c in board.ROADS.tolist()]
    out += ["[[tech_link]]\nfields = " + json.dumps([field_id(a), field_id(c)]) for a, c in board.TECH_LINKS.tolist()]
    return "\n".join(out) + "\n"


def test_template_is_blank_and_commented_and_loads_once_filled_with_the_shipped_values():
    template = board_template()
    assert 'provenance = "printed"' in template and "# factory, technology, bonus or joker" in template
    assert template.count("\n[[field]]\n") == 60 and 'kind = ""' in template
    with pytest.raises(BoardError) as info:
        parse_board(template, "blank.toml")
    assert len(info.value.problems) == 60  # one per field: its kind is not given
    filled = parse_board(_fill_template(template, B), "filled.toml")
    for table in ("KIND", "COST", "NEEDS", "PRODUCES", "POINTS", "DISCOUNT", "NETWORK", "BONUS_KIND", "MULTIPLIER",
                  "JOKER_KIND", "ROADS", "TECH_LINKS", "BANK_ERA", "PRODUCER_ERA", "BONUS_CONNECT"):  # fmt: skip
        assert (getattr(filled, table) == getattr(B, table)).all(), table
    assert filled.field_names == B.field_names and filled.default_provenance == "printed"


def test_schema_in_the_shipped_file_is_the_loader_schema():
    from industry_env.games.industry.components import SCHEMA

    assert SCHEMA in SHIPPED_TEXT


def test_load_board_refuses_an_empty_path_and_a_folder(tmp_path):
    with pytest.raises(BoardError, match="path: is empty") as info:
        load_board("")
    assert str(Path.cwd()) not in str(info.value)
    with pytest.raises(BoardError, match="path: is empty"):
        load_board("   ")
    with pytest.raises(BoardError, match="is a folder, not a board file"):
        load_board(tmp_path)
    with pytest.raises(BoardError, match="must be a path"):
        load_board(3)


def test_an_edited_board_file_is_read_again(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(BOARD_TEXT)
    assert load_board(path).COST[field_index("1G")] == 1
    path.write_text(_replace_in_field("1G", "cost = 1", "cost = 3")(BOARD_TEXT) + "\n")
    assert load_board(path).COST[field_index("1G")] == 3


# ---------------------------------------------------------------- the documents
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "industry"


def test_markdown_describes_the_file_given(tmp_path):
    from industry_env.games.industry.texts import board_markdown

    shipped = board_markdown(B)
    assert "**reconstructs the rest**" in shipped and "(board-sources.md)" in shipped
    assert "## Points in the cogwheel" in shipped
    text = BOARD_TEXT.replace('[meta]\nname = "Industry (Ystari 2009), reconstructed board"\n',
                              '[meta]\nname = "My printed board"\nprovenance = "printed"\n', 1)  # fmt: skip
    mine = board_markdown(parse_board(text, "my_board.toml"))
    assert mine.startswith("# The board: My printed board\n") and "`my_board.toml`" in mine
    assert "reconstructs the rest" not in mine and "Points in the cogwheel" not in mine
    assert "| `printed` | read off the printed board |" in mine and "marked `reconstructed`" not in mine
    copy = board_markdown(parse_board(SHIPPED_TEXT, "copy_of_shipped.toml"))
    assert copy.startswith("# The board: Industry (Ystari 2009), reconstructed board\n")
    assert "of its values are marked `reconstructed`: chosen so that every rule holds" in copy


def test_board_command_template_and_markdown_of_a_given_file(tmp_path, capsys):
    from industry_env.cli import main

    target = tmp_path / "my_board.toml"
    assert main(["board", "--template", str(target)]) == 0 and target.read_text() == board_template()
    assert main(["board", "--template", str(target)]) == 2  # never overwrites
    assert main(["board", "--template", str(tmp_path / "no" / "such.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err
    for bad in ("", str(tmp_path)):
        assert main(["board", "--template", bad]) == 2
        assert "give the name of a new file" in capsys.readouterr().err
    assert main(["board", "--board", ""]) == 2
    assert "path: is empty" in capsys.readouterr().err
    assert main(["board", "--board", str(target)]) == 2
    assert "60 problems" in capsys.readouterr().err
    filled = tmp_path / "filled.toml"
    filled.write_text(_fill_template(board_template(), B))
    assert main(["board", "--markdown", "--board", str(filled)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# The board: Industry (Ystari 2009), printed board") and "reconstructs the rest" not in out
    assert err.count("do not touch on the grid") == 4


def test_board_docs_stand_alone():
    for path in (DOCS / "board.md", DOCS / "board-sources.md", DOCS / "balance.md"):
        assert "shared/" not in path.read_text(), path
    for module in ("components", "texts", "balance"):
        source = (ROOT / "industry_env" / "games" / "industry" / f"{module}.py").read_text()
        assert "shared/" not in source, module
    sources = (DOCS / "board-sources.md").read_text()
    cited = {v.split(":", 1)[1].split(" ")[0]
             for prov in B.provenance for v in prov.values() if v.startswith("source:")}  # fmt: skip
    assert cited and all(site in sources for site in cited), cited - {s for s in cited if s in sources}


WRONG_VALUES = ['"x"', "7", '["?"]', "true", "{ a = 1 }", "-1", '[["a"]]', "1.5", '["Wood", 3]']


@pytest.mark.parametrize("value", WRONG_VALUES)
def test_any_wrong_value_is_a_board_error_never_a_crash(value):
    # Every key of a joker, a bonus field, a factory, a technology, a resource and a road, given a wrong value.
    text = BOARD_TEXT
    starts = [text.index('id = "1A"'), text.index('id = "1B"'), text.index('id = "1F"'), text.index('id = "2K"'),
              text.index("[[resource]]"), text.index("[[road]]")]  # fmt: skip
    for start in starts:
        block = text[start : text.index("[[", start + 2)]
        for line in block.splitlines():
            if " = " in line and not line.startswith("#"):
                key = line.split(" = ")[0]
                try:
                    parse_board(text.replace(block, block.replace(line, f"{key} = {value}", 1), 1))
                except BoardError:
                    pass


def _with_version(line: str) -> str:
    """The shipped file with its [meta] version line replaced by ``line``."""
    text, n = re.subn(r"(?m)^version = .*$", line, SHIPPED_TEXT, count=1)
    assert n == 1
    return text


def test_the_board_version_is_read_and_shown():
    from industry_env.games.industry.texts import board_markdown, board_text

    shipped = board_markdown(B)
    assert B.version == 2 and "This is board version 2" in shipped and "## Board versions" in shipped
    assert board_text(B).endswith(", version 2)")
    mine = parse_board(_with_version("version = 7"), "mine.toml")
    assert mine.version == 7 and "Board version 7 (its `[meta] version`)." in board_markdown(mine)
    assert "## Board versions" not in board_markdown(mine)  # the history belongs to the shipped file only
    unversioned = parse_board(_with_version(""), "unversioned.toml")
    assert unversioned.version == 0 and "Board version" not in board_markdown(unversioned)
    with pytest.raises(BoardError, match=r"\[meta\]: version = 'two' must be a whole number"):
        parse_board(_with_version('version = "two"'), "bad.toml")
