"""Live updates (issue 50): each page's stream of server-sent events says only that its game changed (its version),
the same to every link, so no hidden information travels on it; streams are bounded, and end when the table is
closed. Against a real server (uvicorn, as ``industry-env serve`` runs it)."""

from __future__ import annotations

import http.client
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra: pip install -e '.[web]'")

from industry_env.web.events import Watchers  # noqa: E402

from . import browser  # noqa: E402


def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return json.loads(r.read())


class Stream:
    """One page's event stream, read line by line."""

    def __init__(self, base: str, token: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=20)
        self.conn.request("GET", f"/api/play/{token}/events")
        self.response = self.conn.getresponse()
        self.raw: list[str] = []

    def event(self) -> tuple[str, dict[str, Any]]:
        """The next event (its name and data), comments and the reconnection delay skipped."""
        name, data = None, None
        while True:
            line = self.response.readline().decode("utf-8")
            if not line:
                raise EOFError("the stream ended")
            self.raw.append(line)
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: "):
                data = json.loads(line[len("data: ") :])
            elif line == "" and name is not None:
                return name, data  # type: ignore[return-value]

    def close(self) -> None:
        self.conn.close()


def test_each_link_hears_that_the_game_changed_and_nothing_else(tmp_path: Path) -> None:
    with browser.served(tmp_path / "records", ("random",)) as (base, app):
        status, doc = post(base, "/api/play", {"game": "age_of_industry", "players": 3, "spectators": 0,
                                               "seats": ["you", "person", "random"]})  # fmt: skip
        assert status == 200, doc
        tokens = {tuple(link["seats"]): link["token"] for link in doc["links"]}
        streams = {seats: Stream(base, token) for seats, token in tokens.items()}
        try:
            assert all(s.response.status == 200 for s in streams.values())
            assert streams[(1,)].response.getheader("Content-Type").startswith("text/event-stream")
            first = {seats: s.event() for seats, s in streams.items()}
            assert all(e == ("version", {"version": doc["version"]}) for e in first.values()), first
            for _ in range(3):  # a move by whoever is to move reaches every page as a new version
                state = get(base, f"/api/play/{doc['id']}")
                token = tokens[(state["to_move"],)]
                mine = get(base, f"/api/play/{token}")
                choice = mine["groups"][0]["choices"][0]["action"]
                status, moved = post(base, f"/api/play/{token}/move", {"action": choice, "ply": mine["ply"]})
                assert status == 200, moved
                for s in streams.values():
                    name, data = s.event()
                    while data["version"] < moved["version"]:  # an earlier change's notice may come first
                        name, data = s.event()
                    assert (name, data) == ("version", {"version": moved["version"]})
            status, _ = post(base, f"/api/play/{doc['id']}/quit", {})  # the creator closes the table
            assert status == 200
            for s in streams.values():
                events = []
                while True:
                    try:
                        events.append(s.event()[0])
                    except EOFError:
                        break
                assert events[-1] == "closed"
            # what travelled: events, their version and nothing of any seat (no token, no card, no picture)
            for s in streams.values():
                for line in s.raw:
                    assert line in ("\n", "retry: 1000\n", "event: version\n", "event: closed\n", "data: {}\n",
                                    ": still here\n") or line.startswith('data: {"version": '), line  # fmt: skip
        finally:
            for s in streams.values():
                s.close()


def test_streams_are_bounded_per_game_and_in_all(tmp_path: Path) -> None:
    with browser.served(tmp_path / "records", ("random",)) as (base, app):
        app.state.server.watchers = Watchers(per_game=2, total=3)
        _, a = post(base, "/api/play", {"game": "industry", "players": 3, "seats": ["you", "random", "random"]})
        _, b = post(base, "/api/play", {"game": "industry", "players": 3, "seats": ["you", "random", "random"]})
        opened = [Stream(base, a["id"]), Stream(base, a["id"])]
        try:
            for s in opened:
                assert s.event()[0] == "version"
            third = Stream(base, a["id"])
            body = json.loads(third.response.read())
            assert third.response.status == 503 and "2 live-update streams are open on this game" in body["error"]
            third.close()
            opened.append(Stream(base, b["id"]))
            assert opened[-1].event()[0] == "version"
            fourth = Stream(base, b["id"])
            body = json.loads(fourth.response.read())
            assert fourth.response.status == 503 and "3 live-update streams" in body["error"]
            fourth.close()
        finally:
            for s in opened:
                s.close()
        deadline = time.monotonic() + 10  # a closed page's stream is let go
        while app.state.server.watchers.count() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.state.server.watchers.count() == 0


def test_the_server_stops_at_once_and_saves_the_games_while_pages_are_open(tmp_path: Path) -> None:
    """uvicorn waited, when told to stop, for every answer in progress: an open page's stream (minutes), so the
    server hung at Ctrl-C, and a second Ctrl-C skipped saving the games. It waits 3 s now, then saves them."""
    import threading

    import uvicorn

    from industry_env.web import create_app
    from industry_env.web.guard import uvicorn_options

    records = tmp_path / "records"
    port = browser.free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(records, ["random"]), **uvicorn_options("127.0.0.1", port)))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    _, doc = post(base, "/api/play", {"game": "industry", "players": 3, "seats": ["you", "person", "random"]})
    state = get(base, f"/api/play/{doc['id']}")
    token = doc["id"] if state["to_move"] == 0 else doc["links"][1]["token"]
    mine = get(base, f"/api/play/{token}")
    post(base, f"/api/play/{token}/move", {"action": mine["groups"][0]["choices"][0]["action"], "ply": mine["ply"]})
    page = Stream(base, doc["id"])
    assert page.event()[0] == "version"
    t0 = time.monotonic()
    srv.should_exit = True
    thread.join(30)
    page.close()
    assert not thread.is_alive() and time.monotonic() - t0 < 10
    assert len(list(records.glob("*.json"))) == 1  # the game, saved as the server stopped
