"""Saved positions: the JSON round trip is exact, and a corrupt position is refused with what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env.games.age_of_industry import Game, GameStateError
from industry_env.games.age_of_industry.measuring import random_player


def saved(n: int = 4, seed: int = 5, steps: int = 50) -> dict:
    g = Game(n, seed, "new_england")
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        g.apply(random_player(g, rng))
    return json.loads(g.to_json())


def test_json_round_trip_gives_the_same_game():
    doc = saved()
    g = Game.from_json(json.dumps(doc))
    assert json.loads(g.to_json()) == doc


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("money"), "lacks entries"),
    (lambda d: d.update(extra=1), "unknown entries"),
    (lambda d: d.update(version=9), "version"),
    (lambda d: d.update(num_players=6), "num_players"),
    (lambda d: d.update(money=[1, 2]), "'money'"),
    (lambda d: d["money"].__setitem__(0, -3), "'money'"),
    (lambda d: d["hand"][0].__setitem__(0, d["hand"][0][0] + 1), "cards of kind"),
    (lambda d: d["known"][1].__setitem__(3, 9), "'known'"),
    (lambda d: d.update(order=[0, 0, 1, 2]), "'order'"),
    (lambda d: d["rails_left"].__setitem__(0, d["rails_left"][0] - 1), "rails"),
    (lambda d: (d["link_owner"].__setitem__(-1, 0), d["rails_left"].__setitem__(0, d["rails_left"][0] - 1)),
     "sea lane"),
    (lambda d: d["space_tile"].__setitem__(0, 1), "space_tile"),
    (lambda d: d.update(phase=4, sell_from=-1), "sell_from"),
    (lambda d: d.update(phase=8, card=-1, combined=0, build_space=-1, build_industry=-1, rail_link=-1, need_coal=0,
                        need_iron=0, sell_from=-1, draws_left=0, actions_left=0), "over only when"),
    (lambda d: d.update(map="atlantis"), "'map'"),
])  # fmt: skip
def test_a_corrupt_position_is_refused_with_what_is_wrong(change, message):
    doc = saved()
    change(doc)
    with pytest.raises(GameStateError, match=message):
        Game.from_json(json.dumps(doc))


def test_not_json_is_refused():
    with pytest.raises(GameStateError, match="not valid JSON"):
        Game.from_json("{")
    with pytest.raises(GameStateError, match="JSON object"):
        Game.from_json("[1]")


def test_the_state_maps_one_to_one_onto_declared_fixed_shape_integer_arrays():
    from industry_env.games.age_of_industry.state import FIELDS, shape_of

    for n, name in ((3, "germany"), (5, "new_england")):
        g = Game(n, 1, name)
        sizes = {"P": 5, "K": g.components.num_card_kinds, "D": g.components.num_slots, "C": 66,
                 "S": g.map.num_spaces, "L": g.map.num_links}  # fmt: skip
        arrays = g.s.arrays(sizes)
        assert list(arrays) == [f[0] for f in FIELDS]
        for key, dtype, spec, _ in FIELDS:
            assert arrays[key].dtype == np.dtype(dtype) and arrays[key].shape == shape_of(spec, sizes), key
            assert np.issubdtype(arrays[key].dtype, np.integer)
        assert (arrays["order"][n:] == -1).all() and not arrays["hand"][n:].any()
        assert all(np.issubdtype(a.dtype, np.integer) for a in g.map.arrays().values())


def _live(**entries) -> str:
    """A Germany game at round 2's first action, with ``entries`` overridden, as JSON."""
    from .helpers import position

    return json.dumps({**json.loads(position(3, hands={0: {"blue": 1}}).to_json()), **entries})


@pytest.mark.parametrize("entries, message", [
    # a build's space is set only once built, while its coal or iron is awaited
    (dict(phase=1, card=1, build_space=3, build_industry=0), "'build_space'"),
    (dict(phase=4, sell_from=-1, build_space=3, build_industry=0), "'build_space'"),
    # a rail is in progress only while its cubes come, on a free link, as a later rail with a counter left
    (dict(phase=1, card=1, rail_link=5), "'rail_link'"),
    (dict(phase=2, need_coal=1, need_iron=1, rail_link=5), "'rail_link'"),
    # a card is in play only for a build or a development; a combined build takes two actions
    (dict(card=1), "'card'"),
    (dict(phase=1, card=1, combined=1, actions_left=1), "'combined'"),
    # a ship card builds nothing on Germany (ruling 30)
    (dict(phase=1, card=5, combined=1), "ship card"),
])  # fmt: skip
def test_a_decision_in_progress_the_rules_cannot_reach_is_refused(entries, message):
    with pytest.raises(GameStateError, match=message):
        Game.from_json(_live(**entries))


def test_a_rail_awaiting_cubes_with_no_rail_counter_left_is_refused_before_any_move():
    # the batched engine would lay the rail and write rails_left = -1; the reference would fail mid-move
    from .helpers import position

    g = position(3, hands={0: {"blue": 1}}, rails={"Kiel-Hamburg": 0})
    doc = json.loads(g.to_json())
    doc.update(phase=2, need_coal=1, need_iron=1, rail_link=5, rails_left=[0, 12, 12])
    with pytest.raises(GameStateError, match="'rail"):
        Game.from_json(json.dumps(doc))


def test_a_live_game_with_no_legal_action_is_refused():
    # a build awaiting its space with a card that builds nowhere: nothing to do, yet the game is not over
    from .helpers import position

    doc = json.loads(position(3, hands={0: {"blue": 1}}, money=[0, 0, 0]).to_json())
    doc["display"][0] = [0] * len(doc["display"][0])  # every counter developed away: nothing can be built
    doc.update(phase=1, card=6)
    with pytest.raises(GameStateError, match="no legal action"):
        Game.from_json(json.dumps(doc))


def test_a_position_names_a_shipped_map_and_never_opens_a_file_it_names(tmp_path):
    from industry_env.games.age_of_industry import load_map

    doc = saved()
    for named in ("../../etc/hostname", "/etc/hostname", str(tmp_path / "map.toml")):
        with pytest.raises(GameStateError, match="not a shipped map"):
            Game.from_json(json.dumps({**doc, "map": named}))
    with pytest.raises(GameStateError, match="'map'"):  # named new_england, loaded on Germany
        Game.from_json(json.dumps(doc), game_map="germany")
    # a map file given by the user (here a copy of New England's) loads a position saved on it
    from importlib import resources

    text = resources.files("industry_env.games.age_of_industry.data").joinpath("new_england.toml").read_text("utf-8")
    (tmp_path / "map.toml").write_text(text, encoding="utf-8")
    g = Game.from_json(json.dumps({**doc, "map": str(tmp_path / "map.toml")}), game_map=tmp_path / "map.toml")
    assert g.map.key == load_map(tmp_path / "map.toml").key
    assert g.s.to_dict() == Game.from_json(json.dumps(doc)).s.to_dict()
