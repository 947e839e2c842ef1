"""20th Century's components: the shipped data meets every constraint the rulebook states, every entry has its
provenance, and the loader reports every error of a bad file at once."""

from __future__ import annotations

import copy

import pytest

from industry_env.games.twentieth_century.components import (
    ComponentsError,
    data_from_docs,
    load_data,
    read_docs,
)

DOCS = read_docs()


def test_K1_the_shipped_components_have_the_rulebooks_counts():
    d = load_data()
    assert len(d.land) == 41 and len(d.technologies) == 30 and len(d.catastrophes) == 9  # 45 = 5 starting + 40
    assert [len(d.stack("land", e)) for e in ("I-II", "III-IV", "V")] == [16, 16, 8]
    assert [len(d.stack("tech", e)) for e in ("I-II", "III-IV", "V")] == [12, 12, 6]
    assert sum(len(t.abilities) == 2 for t in d.technologies) == 2  # 'una coppia di tessere tecnologia miste'
    assert sum(a.kind == "bridge" for t in d.technologies for a in t.abilities) <= 4  # '4 ponti'
    assert sum(bool(t.garbage or t.pollution) for t in d.technologies) > 15  # 'La maggior parte'


def test_S7_the_starting_tile_as_the_rulebook_states_it():
    start = load_data().land[0]
    producing = sorted((c.coins, c.science) for c in start.cities if c.coins or c.science)
    assert start.stack == "start" and producing == [(1, 1), (2, 1)]
    assert not any(c.vp for c in start.cities)


def test_every_component_entry_has_its_provenance():
    d = load_data()
    for i, t in enumerate(d.land):
        assert any(k.startswith(f"land[{i}] {t.id!r}") for k in d.provenance), t.id
    for i, t in enumerate(d.technologies):
        assert f"technology[{i}] {t.id!r}" in d.provenance, t.id
    for key in ("tech_cost.I-II", "tech_cost.start", "pollution.final", "pollution.clean_tile", "catastrophe.columns"):
        assert d.provenance[key].split(" ")[0] in ("rulebook", "public", "inferred", "reconstructed", "printed")


def test_P5_W3_the_first_price_track_meets_the_auction_example():
    d = load_data()
    track, start = d.tech_cost["I-II"], d.tech_cost_start[3]
    assert track[start + 2] == 1 and track[start + 3] == 0 and track[-1] == 0  # Yellow pays 1, Green 0
    assert all(a >= b for t in d.tech_cost.values() for a, b in zip(t, t[1:], strict=False))


def test_C1_C3_catastrophe_columns_used_per_player_count_first_full_last_empty():
    d = load_data()
    assert [len(d.columns_used(n)) for n in (3, 4, 5)] == [3, 4, 5]
    assert all(0 in d.columns_used(n) and 4 in d.columns_used(n) for n in (3, 4, 5))
    for c in d.catastrophes:
        assert c.columns[-1] == (0, 0) and all(g <= c.columns[0][0] and p <= c.columns[0][1] for g, p in c.columns)


def test_the_loader_reports_every_error_at_once():
    tiles, comps = copy.deepcopy(DOCS)
    tiles["land"][1]["cities"].append({"name": "c", "coins": 1})
    tiles["land"][1]["cities"].append({"name": "d", "coins": 1})  # four cities
    tiles["land"][2]["colour"] = "red"  # an unknown key
    tiles["technology"][0]["abilities"] = [{"kind": "teleport"}]
    tiles["land"][3]["provenance"] = "guessed"
    comps["catastrophe"][0]["columns"][4] = {"garbage": 1}
    comps["tech_cost"]["I-II"] = [4, 3, 2, 2, 2]
    with pytest.raises(ComponentsError) as exc:
        data_from_docs(tiles, comps)
    text = str(exc.value)
    for expected in ("land[1] 'L01'.cities: must be a list of 1 to 3 cities", "unknown key 'colour'",
                     "kind: must be one of", "provenance: must start with one of", "the last column is empty",
                     "its 4th space costs 1 and its 5th 0"):  # fmt: skip
        assert expected in text, expected
    assert len(text.splitlines()) >= 6


def test_the_loader_refuses_a_wrong_starting_tile_and_a_bridge_joining_what_is_joined():
    tiles, comps = copy.deepcopy(DOCS)
    tiles["land"][0]["cities"][0]["coins"] = 3
    tiles["land"][1]["bridges"] = [["a", "r1"]]  # r1 already touches a
    with pytest.raises(ComponentsError) as exc:
        data_from_docs(tiles, comps)
    assert "two producing cities must make 1 coin and 1 science" in str(exc.value)
    assert "joins a and r1, which the tile already joins" in str(exc.value)


def test_the_loader_names_the_file_of_unreadable_toml(tmp_path):
    bad = tmp_path / "tiles.toml"
    bad.write_text("[[land]\n", "utf-8")
    with pytest.raises(ComponentsError, match="tiles.toml: not valid TOML"):
        load_data(bad)


def test_an_owners_template_loads_marks_reconstructed_entries_printed_and_is_never_written_over(tmp_path):
    from industry_env.games.twentieth_century.texts import components_template, write_template

    tiles = write_template(tmp_path / "tiles.toml", "tiles")
    comps = write_template(tmp_path / "components.toml", "components")
    d = load_data(tiles, comps)
    assert len(d.land) == 41 and not any(v.startswith("reconstructed") for v in d.provenance.values())
    assert d.provenance["land[0] 'S'.cities.a"].startswith("rulebook")  # the known facts keep their provenance
    with pytest.raises(FileExistsError):
        write_template(tiles, "tiles")
    with pytest.raises(ValueError, match="'tiles' or 'components'"):
        components_template("cards")


def test_the_data_option_plays_an_owners_files_and_refuses_a_broken_one(tmp_path):
    from industry_env import load_game
    from industry_env.games.twentieth_century.texts import write_template

    spec = load_game("twentieth_century")
    tiles = write_template(tmp_path / "tiles.toml", "tiles")
    comps = write_template(tmp_path / "components.toml", "components")
    g = spec.reference(3, seed=0, data=(tiles, comps))
    assert g.data.provenance["land[1] 'L01'"] == "printed" and spec.setup_of(g)[2]["data"] is g.data
    again = spec.reference_from_json(g.to_json(), data=(tiles, comps))
    assert again.to_json() == g.to_json()
    assert spec.data_digests(data=(tiles, comps))["data"]["sha256"] == g.data.sha256
    tiles.write_text(tiles.read_text("utf-8").replace('id = "L01"', 'id = "L02"'), "utf-8")
    with pytest.raises(ValueError, match="data=.*must be a unique string"):
        spec.reference(3, seed=0, data=str(tiles))
