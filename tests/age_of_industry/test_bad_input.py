"""Bad input gets a clear error naming what is wrong, and leaves the game unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from industry_env.games.age_of_industry import ComponentsError, Game, IllegalActionError


@pytest.mark.parametrize("kwargs, message", [
    (dict(num_players=2), "3 to 5"),
    (dict(num_players=4.0), "3 to 5"),
    (dict(seed=-1), "seed"),
    (dict(seed="7"), "seed"),
    (dict(edition=3), "edition"),
    (dict(components="mine.toml"), "components"),
])  # fmt: skip
def test_bad_game_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Game(**kwargs)


def test_an_unknown_map_is_refused():
    with pytest.raises(ComponentsError, match="neither"):
        Game(4, 0, "mars")


@pytest.mark.parametrize("action", [True, 2.5, "3", -1, 10**6, np.int64(10**6)])
def test_a_non_action_is_refused_and_changes_nothing(action):
    g = Game(4, 0)
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply(action)
    assert g.to_json() == before


def test_observe_and_resample_name_a_bad_seat():
    g = Game(3, 0)
    for seat in (3, -1, 1.0, True):
        with pytest.raises(ValueError, match="seat"):
            g.observe(seat)
    with pytest.raises(IllegalActionError, match="game is over"):
        over = Game(3, 0)
        over.s.phase = 8
        over.forget_cached()
        over.apply(0)
