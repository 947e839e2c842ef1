"""The reconstructed board plays well: no dead field, and scores shaped like the recorded Industria games."""

from __future__ import annotations

from industry_env import load_board
from industry_env.balance import INDUSTRIA_RANGES, study


def test_every_field_is_developed_in_heuristic_games_and_four_player_scores_fit_the_records() -> None:
    r = study("heuristic", 200, 0, load_board())
    assert r["never_developed"] == []
    low, high = INDUSTRIA_RANGES["total"]
    assert low <= r["total_by_players"][4] <= high
    for part in ("development", "roads", "tech_links", "bonus", "money"):
        lo, hi = INDUSTRIA_RANGES[part]
        assert lo <= r["split"][part]["mean"] <= hi, part
    assert all(e["developed"] > 0.5 for e in r["per_era"])
