"""The shipped board satisfies every constraint of the rulebook and the published facts; malformed board files are
refused with a BoardError naming the file, the field and the problem."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import BOARD_TEXT, SHIPPED_BOARD

from industry_env.board import BoardError, field_id, field_index, load_board, parse_board
from industry_env.rules import BONUS, BONUS_KINDS, FACTORY, JOKER, NUM_FIELDS, TECHNOLOGY, WILD_JOKER

B = SHIPPED_BOARD


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


def test_board_needs_distinct_at_most_two_and_never_own_product():
    for f in range(NUM_FIELDS):
        need = [int(r) for r in B.NEEDS[f] if r >= 0]
        assert len(need) == len(set(need)) <= 2
        assert B.PRODUCES[f] not in need
        assert B.NEEDS_MASK[f].sum() == len(need)


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


def test_board_provenance_recorded_for_every_field():
    assert len(B.provenance) == 60
    for prov in B.provenance:
        assert all(v.startswith(("rulebook", "reconstructed", "source:")) for v in prov.values())


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
    ("unknown resource", _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Unobtainium"]'), "field 1H",
     "'Unobtainium' is not one of the resources"),
    ("need produced only later", _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Steel"]'), "field 1H",
     "produced only from era 3"),
    ("six jokers", _replace_in_field("3B", 'kind = "joker"\nname = "Joker: Glass"\njoker = "Glass"',
                                     'kind = "technology"\nname = "Optics"'), "[[field]]", "6 joker fields"),
    ("two wild jokers", _replace_in_field("3B", 'joker = "Glass"', 'joker = "?"'), "[[field]]", "exactly one joker"),
    ("duplicate road", _append('[[road]]\nfields = ["1E", "1D"]'), "road", "listed twice"),
    ("duplicate tech link", _append('[[tech_link]]\nfields = ["1L", "1K"]'), "tech_link", "listed twice"),
    ("road to a bonus field", _append('[[road]]\nfields = ["1B", "1D"]'), "road 15", "two different factory fields"),
    ("road to itself", _append('[[road]]\nfields = ["1D", "1D"]'), "road 15", "two different factory fields"),
    ("road to nowhere", _append('[[road]]\nfields = ["1D", "6A"]'), "road 15", "not a field"),
    ("bad provenance", _add_to_field("1G", 'provenance = { cost = "a guess" }'), "field 1G", "provenance 'a guess'"),
    ("provenance of unknown attribute", _add_to_field("1H", 'provenance = { colour = "rulebook" }'), "field 1H",
     "unknown attribute 'colour'"),
    ("unknown key", _add_to_field("1D", 'colour = "red"'), "field 1D", "unknown keys ['colour']"),
    ("field listed twice", _replace_in_field("3G", 'id = "3G"', 'id = "3F"'), "field 3F", "listed twice"),
    ("bad field id", _replace_in_field("3G", 'id = "3G"', 'id = "3M"'), "field", "'3M'"),
    ("produces in the wrong era", _add_to_field("2H", 'produces = "Stone"'), "field 2H", "produces Stone"),
    ("multiplier 4", _replace_in_field("1B", "multiplier = 2", "multiplier = 4"), "field 1B", "multiplier = 4"),
    ("technology with a cost", _add_to_field("1L", "cost = 1"), "field 1L", "a technology has no ['cost']"),
    ("negative cost", _replace_in_field("1D", "cost = 2", "cost = -1"), "field 1D", "cost = -1"),
    ("three needs", _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Stone", "Wood", "Brick"]'), "field 1H",
     "at most 2"),
    ("need listed twice", _replace_in_field("1H", 'needs = ["Stone"]', 'needs = ["Stone", "Stone"]'), "field 1H",
     "twice"),
    ("needs its own product", _replace_in_field("1F", 'needs = ["Wood"]', 'needs = ["Brick"]'), "field 1F",
     "needs the resource it produces"),
    ("bad network", _replace_in_field("1D", 'networks = ["river"]', 'networks = ["canal"]'), "field 1D", "networks"),
    ("joker without resource", _replace_in_field("1A", 'joker = "Wood"\n', ""), "field 1A", "which resource"),
    ("no name", _replace_in_field("1D", 'name = "Quarry"', 'name = ""'), "field 1D", "name"),
    ("no resources", lambda t: t.replace("[[resource]]", "[[resourcex]]"), "[[resource]]", "missing"),
    ("bank before producer", lambda t: t.replace('name = "Stone"\nproducer_era = 1\nbank_era = 2',
                                                 'name = "Stone"\nproducer_era = 1\nbank_era = 1', 1),
     "resource 1 (Stone)", "bank_era"),  # fmt: skip
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
    with pytest.raises(BoardError, match="missing.toml: cannot be read"):
        load_board(tmp_path / "missing.toml")


def test_parse_board_names_the_given_path():
    with pytest.raises(BoardError, match=r"^board file my_board\.toml: syntax"):
        parse_board("[[field", "my_board.toml")
