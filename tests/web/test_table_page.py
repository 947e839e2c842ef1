"""The table's screens in headless Chromium (issue 50): the hot-seat hand-over screen hides the previous seat's hand
(the public view instead) until the next person takes the screen, the advisor's and the take-back's buttons answer
on the page, a spectators' link shows the public view, and a seat's link opened again after the server restarted
plays on."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from . import browser


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def _need_browser() -> None:
    why = browser.missing()
    if why:
        pytest.skip(f"the browser test needs a headless Chromium: {why}")


SHOWN = """
const picture = document.getElementById('picture');
return [document.getElementById('handover').hidden, picture.hidden, picture.textContent,
        document.querySelectorAll('#choices button.choice').length, document.getElementById('turn').textContent];
"""


def test_the_hot_seat_screen_hides_each_hand_until_its_person_takes_the_screen(tmp_path: Path) -> None:
    _need_browser()
    from selenium.webdriver.common.by import By

    with browser.server(tmp_path / "records", ("random",)) as base, browser.browser(1280, 900) as driver:
        browser.start_table(driver, base, "age_of_industry", ["you", "you", "random"])
        handed_over = set()
        for _ in range(12):
            browser.wait(driver, "document.body.dataset.busy === '0'")
            cover_hidden, display, text, choices, turn = driver.execute_script(SHOWN)
            if not cover_hidden:  # between two seats' turns: the public view, no hand, no choice
                due = int(driver.execute_script("return document.body.dataset.handover"))
                assert "Hands hidden" in text and "Hand of player" not in text, text[:200]
                assert choices == 0 and f"player {due}" in turn.lower(), turn
                driver.find_element(By.ID, "show").click()
                browser.wait(driver, f"document.body.dataset.seat === '{due}' && document.body.dataset.busy === '0'")
                cover_hidden, display, text, choices, turn = driver.execute_script(SHOWN)
                assert cover_hidden and choices and f"Hand of player {due}" in text
                assert f"Hand of player {1 - due}" not in text
                handed_over.add(due)
            browser.play_on(driver, 1)
        assert handed_over == {0, 1}


def test_the_advisor_and_a_take_back_answer_on_the_page(tmp_path: Path) -> None:
    _need_browser()
    from selenium.webdriver.common.by import By

    with browser.server(tmp_path / "records", ("random",)) as base, browser.browser(1280, 900) as driver:
        browser.start_table(driver, base, "industry", ["you", "random", "random"])
        assert driver.execute_script("return live.table.advisor")  # the form's default for a person alone: on
        driver.find_element(By.ID, "ask").click()
        browser.wait(driver, "document.querySelector('#advice table, #advice p') && document.body.dataset.busy === '0'")
        advice = driver.find_element(By.ID, "advice").text
        assert "would play" in advice, advice
        taken = refused = 0
        for _ in range(40):
            ply = int(driver.execute_script("return document.body.dataset.ply"))
            browser.play_on(driver, 1)
            driver.find_element(By.ID, "undo").click()
            browser.idle(driver)
            error = driver.find_element(By.ID, "error").text
            if error:
                assert "cannot be taken back" in error and "bag" in error, error
                refused += 1
            else:
                assert int(driver.execute_script("return document.body.dataset.ply")) == ply
                taken += 1
                browser.play_on(driver, 1)
            if taken and refused:
                break
        assert taken and refused


def test_a_spectators_link_and_a_seats_link_after_a_restart(tmp_path: Path) -> None:
    _need_browser()
    from selenium.webdriver.common.by import By

    records = tmp_path / "records"
    with browser.server(records, ("random",)) as base, browser.browser(1280, 900) as driver:
        tokens = browser.start_table(driver, base, "age_of_industry", ["you", "person", "random"], spectators=0)
        assert driver.execute_script("return live.table.advisor") is False  # two people: off unless all agreed
        links = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "#links input.link")]
        assert sorted(links) == sorted(f"{base}/#t={tokens[k]}" for k in ((1,), ()))
        # a person's decision (a game no person moved in is not saved), made by whichever person is to move
        to_move = driver.execute_script("return live.to_move")
        if to_move == 0:
            browser.play_on(driver, 1)
        else:
            mine = _get(f"{base}/api/play/{tokens[(to_move,)]}")
            _post(f"{base}/api/play/{mine['id']}/move", {"action": mine["groups"][0]["choices"][0]["action"],
                                                        "ply": mine["ply"]})  # fmt: skip
        browser.open_link(driver, base, tokens[()])
        turn = driver.find_element(By.ID, "turn").text
        text = driver.find_element(By.ID, "picture").text
        assert turn.startswith("Watching") and "Hand of player" not in text and "Hands hidden" in text
        assert not driver.find_elements(By.CSS_SELECTOR, "#choices button.choice")
        assert driver.find_element(By.ID, "links-card").get_attribute("hidden") is not None
    # the server stopped (the game saved); a new one on the same records folder: the seat's link plays on
    with browser.server(records, ("random",)) as base, browser.browser(1280, 900) as driver:
        browser.open_link(driver, base, tokens[(1,)])
        seat = driver.execute_script("return live.seat")
        assert seat == 1 and int(driver.execute_script("return document.body.dataset.ply")) > 0
