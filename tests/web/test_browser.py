"""A real browser: headless Chromium plays a whole game by clicking (the README's screenshot game here, every other
listed game in the slow run), watches its record and saves screenshots (the README's among them) that are checked
not to be blank; and a page of another origin, in the
same browser, tries to start, play, close and read a game. It runs wherever the suite runs (CI installs Debian's
chromium and chromium-driver): a machine without them skips it, saying what to install, except under CI (the
variable CI set), where it fails."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest

from industry_env import available_games

from . import browser


def _need_browser() -> None:
    why = browser.missing()
    if why:  # CI installs them (.ci/run): there a missing browser is a failure, elsewhere a skip that says what
        (pytest.fail if os.environ.get("CI") else pytest.skip)(f"the browser test needs a headless Chromium: {why}")


def _click_through(game: str, tmp_path: Path) -> None:
    """Headless Chromium plays a whole game of ``game`` by clicking, watches its record and checks its screenshot
    (the screenshot game's start is the README's, made as make screenshot makes it)."""
    _need_browser()
    records = tmp_path / "records"
    t0 = time.perf_counter()
    with browser.server(records, agents=("random",)) as base, browser.browser() as driver:
        players = browser.most_players(game)  # the fewest decisions for the person: the fewest clicks
        if game == browser.SCREENSHOT_GAME:
            readme = browser.not_blank(browser.screenshot(tmp_path / "serve.png", driver, base))
            assert readme["colours"] > 200 and readme["std"] > 10, readme  # a blank page is one colour
        else:
            browser.start_game(driver, base, game, players=players, agent="random", seat=players - 1)
        clicks = browser.play_on(driver)  # to the end of the game
        assert clicks > 10
        final = driver.find_element("id", "final-table").text
        assert driver.find_element("id", "result").text and final, game
        ply = int(driver.execute_script("return document.body.dataset.ply"))
        seen = browser.watch_record(driver)
        assert seen["moves"] == ply and seen["final"] and seen["second_last"].startswith(f"Move {ply - 1}:")
        shot = tmp_path / f"{game}.png"
        driver.save_screenshot(str(shot))
        look = browser.not_blank(shot)
        assert look["colours"] > 200 and look["std"] > 10, (game, look)
    assert [f.name.split("-game-")[0] for f in records.glob("*.json")] == [game]  # the game's record, saved
    assert time.perf_counter() - t0 < 90  # 25 s on the 2-core machine: a stuck page shows here


def test_chromium_plays_a_whole_game_by_clicking_and_replays_its_record(tmp_path: Path) -> None:
    """The README's screenshot game here; every other listed game in the slow run (each game's end is reached in
    the browser in make test too, at laptop size: test_page.py)."""
    _click_through(browser.SCREENSHOT_GAME, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in available_games() if g != browser.SCREENSHOT_GAME])
def test_chromium_plays_a_whole_game_of_every_other_listed_game(game: str, tmp_path: Path) -> None:
    _click_through(game, tmp_path)


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:  # no Origin: a program on this machine, as curl
        return json.loads(r.read())


def test_a_page_of_another_origin_cannot_start_move_close_or_push_out_a_game(tmp_path: Path) -> None:
    """A page of another site posted text/plain forms and no-cors fetches to the server, which started games from
    them (and, past --max-games, pushed a person's game out). The person plays in one tab; a page of another origin
    (another port, served by this test; named localhost, another site, then 127.0.0.1, the same site) tries every
    way a page can, even knowing the game's id: no game is started, moved, closed or pushed out, and it reads
    nothing."""
    _need_browser()
    from selenium.webdriver.common.by import By

    records = tmp_path / "records"
    with browser.served(records, ("random",), max_games=2) as (base, app), browser.browser() as driver:
        browser.start_game(driver, base, "industry", players=3, agent="random")
        browser.play_on(driver, 1)
        game_id = driver.execute_script("return live.id")
        ply = int(driver.execute_script("return document.body.dataset.ply"))
        action = int(driver.find_element(By.CSS_SELECTOR, "#choices button.choice").get_attribute("data-action"))
        before = _get(f"{base}/api/play/{game_id}")
        page = browser.attack_page(base, game_id, ply, action, floods=4)
        with browser.other_origin(page) as port:
            for site in (f"http://localhost:{port}/", f"http://127.0.0.1:{port}/"):
                driver.get(site)
                browser.wait(driver, "document.title === 'done'", timeout=30)
                results = driver.execute_script("return window.results")
                assert len(results) == 4 + 7, results
                for r in results:  # what a fetch saw: refused, or an opaque answer with nothing to read
                    seen = r.split(": ", 1)[1]
                    assert seen == "opaque 0 " or seen.startswith("refused"), r
        assert set(app.state.server.store.games) == {game_id}  # nothing started, nothing pushed out
        after = _get(f"{base}/api/play/{game_id}")
        assert after == before and after["ply"] == ply  # not moved, not closed
        assert not records.exists() or not any(records.iterdir())  # nothing saved: nothing was closed
        # the person leaves the game, then plays it on from the records list of the server's own page
        driver.get(base + "/")
        browser.wait(driver, "document.body.dataset.ready === '1'")
        name = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'})"
            ".then((r) => r.json()).then((doc) => done(doc.record_file));", f"/api/play/{game_id}/quit")  # fmt: skip
        driver.find_element(By.ID, "tab-watch").click()
        browser.wait(driver, f"document.querySelector('button.resume[data-file=\"{name}\"]')")
        browser.idle(driver)
        driver.find_element(By.CSS_SELECTOR, f'button.resume[data-file="{name}"]').click()
        browser.wait(driver, f"document.body.dataset.ply === '{ply}' && !document.getElementById('table').hidden")
        browser.idle(driver)
        assert browser.play_on(driver, 1) == 1
        again = driver.execute_script("return live.id")  # a new id: the old one was closed with the game
        assert _get(f"{base}/api/play/{again}")["ply"] > ply and _get(f"{base}/api/play/{again}")["seat"] == 0


def test_without_chromium_the_browser_test_skips_naming_the_packages_but_fails_under_ci(monkeypatch) -> None:
    """A newcomer's `make test` failed on a machine without Chromium; CI must still run it, never skip it."""
    monkeypatch.setattr(browser, "missing", lambda: "/usr/bin/chromium missing: apt-get install -y chromium "
                        "chromium-driver")  # fmt: skip
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium chromium-driver"):
        test_chromium_plays_a_whole_game_by_clicking_and_replays_its_record(Path("unused"))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium chromium-driver"):
        test_chromium_plays_a_whole_game_by_clicking_and_replays_its_record(Path("unused"))
