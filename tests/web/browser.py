"""Drive ``industry-env serve`` in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``) with
Selenium: play whole games by clicking, watch their records, take screenshots.

The browser test (``test_browser.py``, run in CI) and ``make screenshot`` (the README's picture,
``docs/serve.png``) both use these functions, the screenshot included: ``python -m tests.web.browser
docs/serve.png`` plays into a game of Age of Industry and saves the page; ``--round-trip`` measures moves.
Selenium is told where chromedriver is, so it never downloads one (CI's network is closed).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Chromium as root in a container: no sandbox, no GPU, nothing fetched from the network
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")  # fmt: skip


def missing() -> str | None:
    """Why the browser cannot run here (a sentence naming what to install), or None."""
    absent = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if absent:
        return (f"{' and '.join(absent)} missing: install Debian's browser and its driver with "
                f"'apt-get install -y chromium chromium-driver' (.ci/run does this)")  # fmt: skip
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium missing: pip install -e '.[dev]'"
    return None


@contextlib.contextmanager
def server(records: Path, agents: tuple[str, ...] = ("random", "heuristic")) -> Iterator[str]:
    """``industry-env serve``'s application run by uvicorn on a free loopback port in a thread; its address."""
    with served(records, agents) as (base, _):
        yield base


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(records: Path, agents: tuple[str, ...] = ("random", "heuristic"),
           **options: Any) -> Iterator[tuple[str, Any]]:  # fmt: skip
    """:func:`server` with uvicorn's options of ``industry-env serve``, and ``create_app``'s ``options``
    (``max_games`` ...); its address and the application (whose ``state.server`` holds the games)."""
    import uvicorn

    from industry_env.web import create_app
    from industry_env.web.guard import uvicorn_options

    port = free_port()
    app = create_app(records, agents, **options)
    srv = uvicorn.Server(uvicorn.Config(app, **uvicorn_options("127.0.0.1", port)))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start within 30 s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        srv.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def other_origin(page: str) -> Iterator[int]:
    """A second web server on another loopback port serving ``page`` (HTML) at ``/``: another origin than the
    game server's, as a site a person visits would be; its port."""
    import http.server

    body = page.encode("utf-8")

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


# A page of another site that tries to start, play, close and read a game of the server at TARGET: fetches with
# JSON and text/plain bodies (no-cors too, which a browser sends without asking), more new games than the
# server keeps (to push the person's game out), then a text/plain form post; document.title is "done" once every
# try is answered, and window.results holds what each fetch saw.
ATTACK = """<!doctype html><html><head><title>elsewhere</title></head><body>
<p id="error"></p>
<form id="form" method="post" enctype="text/plain" target="sink"><input name='{"game": "industry", "x": "'
 value='"}'></form><iframe name="sink" id="sink"></iframe>
<script>
const target = __TARGET__, id = __GAME_ID__, ply = __PLY__, action = __ACTION__, floods = __FLOODS__;
const start = JSON.stringify({game: "industry", players: 3, seat: 0, agents: ["random", "random"]});
const move = JSON.stringify({action: action, ply: ply});
const tries = [];
function attempt(label, path, init) {
  tries.push(fetch(target + path, init).then((r) => r.text().then((t) => `${label}: ${r.type} ${r.status} ${t}`),
                                             (e) => `${label}: refused (${e})`));
}
const plain = {"Content-Type": "text/plain"}, json = {"Content-Type": "application/json"};
for (let i = 0; i < floods; i++)
  attempt("start no-cors", "/api/play", {method: "POST", mode: "no-cors", headers: plain, body: start});
attempt("start cors", "/api/play", {method: "POST", mode: "cors", headers: json, body: start});
attempt("start no-cors bare", "/api/play", {method: "POST", mode: "no-cors", body: start});
attempt("move no-cors", `/api/play/${id}/move`, {method: "POST", mode: "no-cors", headers: plain, body: move});
attempt("move cors", `/api/play/${id}/move`, {method: "POST", mode: "cors", headers: json, body: move});
attempt("quit no-cors", `/api/play/${id}/quit`, {method: "POST", mode: "no-cors", headers: plain, body: "{}"});
attempt("read cors", `/api/play/${id}`, {mode: "cors"});
attempt("records cors", "/api/records", {mode: "cors"});
Promise.all(tries).then((results) => {
  window.results = results;
  const form = document.getElementById("form");
  form.action = target + "/api/play";
  document.getElementById("sink").onload = () => { document.title = "done"; };
  form.submit();
});
</script></body></html>"""


def attack_page(target: str, game_id: str, ply: int, action: int, floods: int) -> str:
    """:data:`ATTACK` aimed at the game server ``target`` and at the person's game ``game_id`` (as if its id had
    leaked: the worst case), with ``floods`` new games."""
    import json

    page = ATTACK
    for key, value in (("TARGET", target), ("GAME_ID", game_id), ("PLY", ply), ("ACTION", action),
                       ("FLOODS", floods)):  # fmt: skip
        page = page.replace(f"__{key}__", json.dumps(value))
    return page


@contextlib.contextmanager
def browser(width: int = 1600, height: int = 1000) -> Iterator[Any]:
    """A headless Chromium driven by Debian's chromedriver, in a fresh profile folder."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    why = missing()
    if why:
        raise RuntimeError(why)
    profile = tempfile.mkdtemp(prefix="industry-env-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait(driver: Any, script: str, timeout: float = 30.0) -> Any:
    """Wait until ``script`` (a JavaScript expression) is true; its value. TimeoutError with the page's error."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(f"return {script};")
        if value:
            return value
        if time.monotonic() > deadline:
            error = driver.execute_script("return document.getElementById('error').textContent;")
            raise TimeoutError(f"waited {timeout} s for {script}; the page says: {error!r}")
        time.sleep(0.01)


def idle(driver: Any) -> None:
    wait(driver, "document.body.dataset.busy === '0'")


def start_game(driver: Any, base: str, game: str, players: int, agent: str = "random", seat: int = 0) -> None:
    """Open the page and start a game by choosing in its form."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(base + "/")
    wait(driver, "document.body.dataset.ready === '1'")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    Select(driver.find_element(By.ID, "seat")).select_by_value(str(seat))
    for select in driver.find_elements(By.CSS_SELECTOR, "select.opponent"):
        Select(select).select_by_value(agent)
    driver.find_element(By.ID, "start").click()
    wait(driver, "document.body.dataset.ply !== undefined")
    idle(driver)


# Resolves, in one WebDriver call, when the page has answered a click: the game moved on (or ended) or an error
# is shown; its value is [over, ply, error].
_ANSWERED = """
const [ply, done] = arguments;
const body = document.body, error = document.getElementById("error");
(function poll() {
  if (body.dataset.busy === "0" && (body.dataset.ply !== ply || body.dataset.over === "1" || error.textContent))
    done([body.dataset.over === "1", body.dataset.ply, error.textContent]);
  else setTimeout(poll, 5);
})();
"""


def play_on(driver: Any, clicks: int | None = None) -> int:
    """Click a choice (the first of the first group) until the game is over, or ``clicks`` times; clicks made."""
    from selenium.webdriver.common.by import By

    driver.set_script_timeout(30)
    made = 0
    over, ply = driver.execute_script("return [document.body.dataset.over === '1', document.body.dataset.ply]")
    while not over and (clicks is None or made < clicks):
        driver.find_element(By.CSS_SELECTOR, "#choices button.choice").click()
        over, ply, error = driver.execute_async_script(_ANSWERED, ply)
        if error:
            raise AssertionError(f"after {made} clicks the page says: {error}")
        made += 1
    return made


def watch_record(driver: Any) -> dict[str, Any]:
    """From a finished game, open its record and step through it: to the end, back one, the slider, play/pause."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.ID, "watch-this").click()
    wait(driver, "!document.getElementById('player').hidden && document.body.dataset.replayMove === '0'")
    idle(driver)
    moves = int(driver.find_element(By.ID, "slider").get_attribute("max"))
    driver.find_element(By.ID, "last").click()
    wait(driver, f"document.body.dataset.replayMove === '{moves}' && document.body.dataset.busy === '0'")
    final = driver.find_element(By.ID, "replay-final").text
    driver.find_element(By.ID, "back").click()
    wait(driver, f"document.body.dataset.replayMove === '{moves - 1}' && document.body.dataset.busy === '0'")
    text = driver.find_element(By.ID, "move-text").text
    driver.find_element(By.ID, "first").click()
    wait(driver, "document.body.dataset.replayMove === '0' && document.body.dataset.busy === '0'")
    driver.find_element(By.ID, "playpause").click()  # plays at the chosen speed
    wait(driver, "Number(document.body.dataset.replayMove) >= 1", timeout=10)
    driver.find_element(By.ID, "playpause").click()
    idle(driver)
    return {"moves": moves, "final": final, "second_last": text}


def not_blank(png: Path) -> dict[str, float]:
    """The screenshot's size, its distinct colours and how much it varies (a blank page has one colour)."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(png).convert("RGB"))
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    return {"width": pixels.shape[1], "height": pixels.shape[0], "colours": colours, "std": float(pixels.std())}


SCREENSHOT_GAME = "age_of_industry"


def screenshot(out: Path, driver: Any = None, base: str | None = None, game: str = SCREENSHOT_GAME,
               clicks: int = 12) -> Path:  # fmt: skip
    """The README's picture: ``clicks`` choices into a game of the most players against random players, the page
    saved at the next decision (with a browser and server of its own unless given them)."""
    if driver is None or base is None:
        with tempfile.TemporaryDirectory() as records, server(Path(records), ("random",)) as url, browser() as made:
            return screenshot(out, made, url, game, clicks)
    start_game(driver, base, game, players=most_players(game), agent="random")
    play_on(driver, clicks)
    driver.execute_script("document.querySelector('.side').scrollTop = 0; window.scrollTo(0, 0)")
    out.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(out))
    return out


def round_trips(game: str, moves: int = 60, agent: str = "heuristic") -> list[float]:
    """Milliseconds from a click to the new picture painted (the page measures it: the request, the agents'
    replies, the drawing), for ``moves`` clicks into a game of ``game`` against ``agent``."""
    with tempfile.TemporaryDirectory() as records, server(Path(records)) as base, browser() as driver:
        times: list[float] = []
        while len(times) < moves:
            start_game(driver, base, game, players=load_players(game), agent=agent)
            while len(times) < moves and play_on(driver, 1):
                times.append(float(driver.execute_script("return document.body.dataset.moveMs")))
    return times


def load_players(game: str) -> int:
    from industry_env import load_game

    return load_game(game).min_players


def most_players(game: str) -> int:
    """The game's most players: the fewest decisions for the person's seat, so the fewest clicks to its end."""
    from industry_env import load_game

    return load_game(game).max_players


# ---------------------------------------------------------------------------------------------- several people
def start_table(driver: Any, base: str, game: str, seats: list[str], **choices: Any) -> dict[tuple[int, ...], str]:
    """Open the page and start a table by its form: ``seats[p]`` is ``"you"``, ``"person"`` (another person, with
    a link of their own) or an agent's name; ``choices``: ``advisor`` (bool), ``spectators`` (a delay). The
    links' tokens by the seats they play (``()``: the spectators'); the creator's is the page's own."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(base + "/")
    wait(driver, "document.body.dataset.ready === '1'")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(len(seats)))
    Select(driver.find_element(By.ID, "seat")).select_by_value(str(seats.index("you")))
    for select in driver.find_elements(By.CSS_SELECTOR, "select.opponent"):
        Select(select).select_by_value(seats[int(select.get_attribute("data-seat"))])
    if "advisor" in choices and driver.find_element(By.ID, "advisor").is_selected() != choices["advisor"]:
        driver.find_element(By.ID, "advisor").click()
    if "spectators" in choices:
        driver.find_element(By.ID, "spectate").click()
        delay = driver.find_element(By.ID, "delay")
        delay.clear()
        delay.send_keys(str(choices["spectators"]))
    driver.find_element(By.ID, "start").click()
    wait(driver, "document.body.dataset.ply !== undefined && live !== null")
    idle(driver)
    links = driver.execute_script("return live.links")
    return {tuple(link["seats"]): link["token"] for link in links}


def open_link(driver: Any, base: str, token: str) -> None:
    """Open a seat's (or the spectators') link, as its person would: the page at ``/#t=TOKEN``."""
    driver.get("about:blank")  # a new page, not the same page at another fragment
    driver.get(f"{base}/#t={token}")
    wait(driver, "document.body.dataset.ready === '1' && !document.getElementById('table').hidden")
    idle(driver)


# In the page: whenever it is its seat's turn (after the live-update stream brought the others' moves), click the
# last choice listed, as a person would (it is most often a pass: the game's shortest way to its end); on a hot-seat
# screen, take the screen first. Runs until the game is over.
AUTOPLAY = """
if (!window.autoplaying) {
  window.autoplaying = setInterval(() => {
    if (document.body.dataset.busy === "1" || !live || live.over) return;
    if (live.table.handover !== null) { document.getElementById("show").click(); return; }
    const all = document.querySelectorAll("#choices button.choice");
    if (all.length && live.your_turn) all[all.length - 1].click();
  }, 10);
}
"""

# What a page shows and holds: its seat, the hands its picture draws, and every token found in the page and its
# state (its own link's, and, for the creator, the links it hands out)
SEEN = """
const text = document.getElementById('picture').textContent;
const hands = [...text.matchAll(/Hand of player (\\d)/g)].map((m) => Number(m[1]));
const html = document.documentElement.outerHTML + JSON.stringify(live);
return [live.seat, live.your_seats, hands, html, document.body.dataset.over === '1', live.ply,
        document.getElementById('error').textContent];
"""


def play_together(drivers: list[Any], base: str, game: str, seats: list[str], timeout: float = 600.0,
                  **choices: Any) -> dict[str, Any]:  # fmt: skip
    """A whole game of several people, each in their own browser (``drivers``: the first starts the table, each
    next one opens the next person's link), each page clicking its choices when its seat is to move; what each page
    showed meanwhile is checked: its own hand only, and no other seat's link. The pages' final states."""
    people = [p for p, who in enumerate(seats) if who in ("you", "person")]
    tokens = start_table(drivers[0], base, game, seats, **choices)
    mine = {0: tokens[(people[0],)]}
    for i, p in enumerate(people[1:], start=1):
        mine[i] = tokens[(p,)]
        open_link(drivers[i], base, mine[i])
    used = drivers[: len(people)]
    for driver in used:
        driver.execute_script(AUTOPLAY)
    hands_seen: dict[int, set[int]] = {p: set() for p in people}
    deadline = time.monotonic() + timeout
    while True:
        over = True
        for i, driver in enumerate(used):
            seat, seats_of, hands, html, done, ply, error = driver.execute_script(SEEN)
            assert seats_of == [people[i]] and seat == people[i], (game, i, seat, seats_of)
            assert set(hands) <= {seat}, f"{game}: player {seat}'s page drew the hand of {hands}"
            hands_seen[seat].update(hands)
            for j, token in mine.items():
                if j != i and i != 0:  # the creator's page lists the links it hands out; no other page holds one
                    assert token not in html, f"{game}: player {seat}'s page holds player {people[j]}'s link"
            over &= done
        if over:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"{game}: the game did not end within {timeout} s (at decision {ply}; {error!r})")
        time.sleep(0.2)
    finals = [driver.execute_script("return live") for driver in used]
    return {"tokens": tokens, "finals": finals, "hands": hands_seen}


def table_screenshots(folder: Path) -> list[Path]:
    """docs/serve.md's pictures of a table: the creator's page at a table of two people and an agent of Age of
    Industry (the links it hands out, the seats with the agent's strength and thinking time, the advisor's answer),
    and a hot-seat screen's hand-over."""
    from selenium.webdriver.common.by import By

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as records, server(Path(records), ("random", "heuristic")) as base:
        with browser(1400, 1700) as driver, browser(1400, 1700) as other:
            tokens = start_table(driver, base, "age_of_industry", ["you", "person", "heuristic"], advisor=True,
                                 spectators=4)  # fmt: skip
            open_link(other, base, tokens[(1,)])
            decisions = 0  # a few decisions each, the other person's through their own page, to the creator's turn
            while decisions < 8 or not driver.execute_script("return live.your_turn"):
                for page in (driver, other):
                    page.execute_script("return refresh()")
                    if page.execute_script("return live.your_turn"):
                        play_on(page, 1)
                        decisions += 1
            driver.find_element(By.ID, "ask").click()
            wait(driver, "document.querySelector('#advice table') && document.body.dataset.busy === '0'")
            driver.execute_script("document.querySelector('.side').scrollTop = 0; window.scrollTo(0, 0)")
            made.append(folder / "serve-table.png")
            driver.save_screenshot(str(made[-1]))
        with browser(1400, 900) as driver:
            start_table(driver, base, "age_of_industry", ["you", "you", "random"])
            wait(driver, "document.body.dataset.handover !== ''")
            made.append(folder / "serve-handover.png")
            driver.save_screenshot(str(made[-1]))
    return made


def main(argv: list[str]) -> int:
    """``python -m tests.web.browser OUT.png`` writes the README's screenshot; ``--table FOLDER`` docs/serve.md's
    pictures of a table; ``--round-trip`` measures moves."""
    if argv[:1] == ["--table"]:
        for path in table_screenshots(Path(argv[1] if len(argv) > 1 else "docs")):
            print(f"wrote {path}: {not_blank(path)}")
        return 0
    if argv[:1] == ["--round-trip"]:
        import numpy as np

        from industry_env import available_games

        for game in available_games():
            ms = np.array(round_trips(game))
            print(f"{game}: {len(ms)} moves against the heuristic, click to new picture: median {np.median(ms):.0f} "
                  f"ms, 90th percentile {np.percentile(ms, 90):.0f} ms, slowest {ms.max():.0f} ms")  # fmt: skip
        return 0
    target = Path(argv[0] if argv else "docs/serve.png")
    print(f"wrote {screenshot(target)}: {not_blank(target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
