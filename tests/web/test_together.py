"""Several people at one table in headless Chromium (issue 50): each person in a browser of their own (a separate
Chromium profile: nothing shared but the server), the creator starting the table from the page's form and the others
opening their seats' links, every page clicking its seat's choices as the live-update stream brings the others'
moves, to the end of a whole game of each game, with agents in the other seats. Each page is checked all along to
show its own hand only (Age of Industry) and to hold no other person's link.

Two people play Age of Industry here (its hands private; the most seats, so the fewest of their decisions), and each
other game in the slow run (``pytest -m slow``), where three people play each game too."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from industry_env import available_games, load_game

from . import browser


def _need_browser() -> None:
    why = browser.missing()
    if why:
        pytest.skip(f"the browser test needs a headless Chromium: {why}")


def _tables(tmp_path: Path, people: int, games: list[str]) -> None:
    _need_browser()
    records = tmp_path / "records"
    with browser.server(records, ("random",)) as base, contextlib.ExitStack() as stack:
        drivers = [stack.enter_context(browser.browser(1280, 900)) for _ in range(people)]
        for game in games:
            n = load_game(game).max_players
            seats = ["you"] + ["person"] * (people - 1) + ["random"] * (n - people)
            out = browser.play_together(drivers, base, game, seats, timeout=300)
            finals = out["finals"]
            assert all(f["over"] and f["final"]["table"] for f in finals), game
            assert len({(tuple(f["scores"]), tuple(f["final"]["winners"])) for f in finals}) == 1  # one game
            assert [f["seat"] for f in finals] == list(range(people))
            if load_game(game).private_information and load_game(game).hidden_information:
                assert out["hands"] == {p: {p} for p in range(people)}  # each saw its own hand, never another's
            for f in finals:  # every page reads the same moves, each told as its seat may know them
                assert [h["text"] for h in f["history"]] == [h["text"] for h in finals[0]["history"]]
            for driver, final in zip(drivers, finals, strict=False):  # each page says who won, as its seat
                result = driver.find_element("id", "result").text
                assert driver.find_element("id", "final-table").text.strip() and result, game
                assert ("win" in result) == (final["seat"] in final["final"]["winners"]), (game, result)
    files = sorted(p.name for p in records.glob("*.json"))
    assert [f.split("-game-")[0] for f in files] == sorted(games)  # each game saved once


def test_two_people_play_a_whole_game_in_their_own_browsers(tmp_path: Path) -> None:
    """Age of Industry, whose hands are private: each page must show its own only."""
    _tables(tmp_path, 2, ["age_of_industry"])


@pytest.mark.slow
def test_two_people_play_a_whole_game_of_every_other_game_in_their_own_browsers(tmp_path: Path) -> None:
    _tables(tmp_path, 2, [g for g in available_games() if g != "age_of_industry"])


@pytest.mark.slow
def test_three_people_play_a_whole_game_of_each_game_in_their_own_browsers(tmp_path: Path) -> None:
    _tables(tmp_path, 3, available_games())
