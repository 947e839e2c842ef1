"""Saved positions: the JSON round trip is exact, and a corrupt position is refused with what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env.games.age_of_industry import Game, GameStateError
from industry_env.games.age_of_industry.tools import random_player


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
