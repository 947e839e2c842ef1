"""``industry-env serve``'s routes through Starlette's test client: whole games, records, arena results, every bad
input answered with a 4xx that says what is wrong (the game unchanged), and each seat's responses holding nothing
that seat may not see."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra: pip install -e '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

from industry_env import available_games, load_game  # noqa: E402
from industry_env.records import MAX_RECORD_BYTES, Record, Recorder, default_folder, load, replay, seed_file  # noqa: E402
from industry_env.web import create_app  # noqa: E402

HIDDEN = [g for g in available_games() if load_game(g).hidden_information]
BASE = "http://127.0.0.1:8765"  # the server's own address: it answers to no other name (Starlette's "testserver")
JSON = {"Content-Type": "application/json"}


def local(app: Any, base_url: str = BASE) -> TestClient:
    """A client of ``app`` at its own address."""
    return TestClient(app, base_url=base_url)


@pytest.fixture
def records(tmp_path: Path) -> Path:
    return tmp_path / "records"


@pytest.fixture
def client(records: Path) -> TestClient:
    return local(create_app(records, ["random"]))


def start(client: TestClient, game: str, players: int | None = None, **extra: Any) -> dict[str, Any]:
    spec = load_game(game)
    n = players or spec.min_players
    body = {"game": game, "players": n, "seat": 0, "agents": ["random"] * (n - 1), **extra}
    r = client.post("/api/play", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def play(client: TestClient, state: dict[str, Any], moves: int | None = None) -> dict[str, Any]:
    """Play the first choice until the game is over (or ``moves`` times)."""
    made = 0
    while not state["over"] and (moves is None or made < moves):
        action = state["groups"][0]["choices"][0]["action"]
        r = client.post(f"/api/play/{state['id']}/move", json={"action": action, "ply": state["ply"]})
        assert r.status_code == 200, r.text
        state = r.json()
        made += 1
    return state


def error(r: Any, status: int, *words: str) -> str:
    """The refusal's message, checked: the status, JSON ``{"error": ...}`` naming each of ``words``."""
    assert r.status_code == status, (r.status_code, r.text)
    message = r.json()["error"]
    for w in words:
        assert w in message, (w, message)
    return message


# ---------------------------------------------------------------------------------------------- playing
def test_the_games_offered_are_the_listed_ones_with_their_options_and_the_servers_agents(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == available_games()
    aoi = next(g for g in games if g["id"] == "age_of_industry")
    assert {o["name"]: o["choices"] for o in aoi["options"]} == {"map": ["germany", "new_england"], "edition": [2, 1]}
    industry = next(g for g in games if g["id"] == "industry")
    assert [o["name"] for o in industry["options"]] == ["balanced_draws"]  # the board file is not chosen here
    assert all(g["agents"] == ["random"] for g in games)


@pytest.mark.parametrize("game", available_games())
def test_a_whole_game_is_played_saved_and_its_record_replays(client: TestClient, records: Path, game: str) -> None:
    state = start(client, game)
    assert state["your_turn"] and state["groups"] and state["picture"].startswith("<svg")
    assert all(c["label"] for g in state["groups"] for c in g["choices"])
    state = play(client, state)
    assert state["over"] and state["final"]["table"] and state["groups"] == []
    assert state["final"]["winners"] and state["record_file"]
    saved = records / state["record_file"]
    record = Record.from_json(saved.read_text())
    assert record.game == game and len(record.actions) == state["ply"] == len(state["history"])
    assert list(replay(record).scores()) == state["scores"] == list(record.final_scores)
    downloaded = client.get(f"/api/play/{state['id']}/record")
    assert downloaded.status_code == 200 and Record.from_dict(downloaded.json()) == record


def test_choices_are_grouped_as_the_games_decisions_with_what_each_costs(client: TestClient) -> None:
    from industry_env.core.webview import HEADINGS
    from industry_env.games.industry.webview import IndustryView

    headings = {**HEADINGS, **IndustryView.headings}
    state = start(client, "industry", options={"balanced_draws": True})
    for _ in range(6):
        for group in state["groups"]:
            words = {c["label"].split()[0] for c in group["choices"]}
            assert {headings[w] for w in words} == {group["title"]}  # one decision a group, named as the game does
        details = [c["detail"] for g in state["groups"] for c in g["choices"]]
        assert any("Taler" in d or "cost" in d for d in details)  # what a choice costs is said
        state = play(client, state, moves=1)


def test_a_field_and_a_location_are_looked_up_and_an_unknown_one_is_refused(client: TestClient) -> None:
    state = start(client, "industry")
    r = client.get(f"/api/play/{state['id']}/lookup", params={"key": "1D"})
    assert r.status_code == 200 and r.json()["text"].startswith("1D ")
    r = client.get(f"/api/play/{state['id']}/lookup", params={"key": "road-1D-1E"})  # an element of the picture
    assert r.json()["text"].startswith("1D ")
    error(client.get(f"/api/play/{state['id']}/lookup", params={"key": "9Z"}), 404, "9Z")
    state = start(client, "age_of_industry")
    r = client.get(f"/api/play/{state['id']}/lookup", params={"key": "space-Köln-1"})
    assert r.status_code == 200 and r.json()["text"].startswith("Köln")
    error(client.get(f"/api/play/{state['id']}/lookup", params={"key": "Atlantis"}), 404, "Atlantis")


def test_many_games_at_once_stay_separate(client: TestClient) -> None:
    a, b = start(client, "age_of_industry"), start(client, "age_of_industry")
    before = client.get(f"/api/play/{b['id']}").content
    play(client, a, moves=5)
    assert client.get(f"/api/play/{b['id']}").content == before


def test_a_new_game_takes_the_place_of_the_idlest_game_never_one_in_use(records: Path) -> None:
    """`--max-games` posts from a stranger pushed a person's live game out (saved unfinished, then 404): a game
    used in the last keep_s seconds is never pushed out (the new game is refused, 503); an idle one is, the idlest
    first, and it comes back from its record when its id is named again."""
    client = local(create_app(records, ["random"], max_games=2, keep_s=600))
    mine = play(client, start(client, "industry", seat=2), moves=2)
    other = start(client, "industry", seat=2)  # the person never moves in it
    for _ in range(40):  # a stranger's flood: each refused, nothing pushed out
        error(client.post("/api/play", json={"game": "industry", "players": 3}), 503, "--max-games", "minutes")
    assert client.get(f"/api/play/{mine['id']}").json()["ply"] == mine["ply"]
    assert not records.exists() or not list(records.iterdir())  # nothing was closed, so nothing saved
    store = client.app.state.server.store
    store.games[mine["id"]].used -= 3600  # an hour idle: its place may be taken
    store.games[other["id"]].used -= 1800
    third = start(client, "industry")
    assert set(store.games) == {other["id"], third["id"]}  # the idlest went, the other idle one stayed
    (saved,) = records.glob("*.json")
    assert len(load(saved).actions) == mine["ply"] and load(saved).final_scores is None
    store.games[other["id"]].used -= 3600
    back = client.post(f"/api/play/{mine['id']}/resume", json={})  # named again: back from its record, as it was
    assert back.status_code == 200, back.text
    assert {k: back.json()[k] for k in ("ply", "history", "groups", "seat", "agents")} == \
        {k: mine[k] for k in ("ply", "history", "groups", "seat", "agents")}  # fmt: skip
    # the other game, where the person never moved, was closed with no file: it is gone
    error(client.get(f"/api/play/{other['id']}"), 404, "no such game")
    moved = play(client, back.json(), moves=1)
    assert moved["ply"] > mine["ply"] and moved["record_file"] == saved.name
    for g in store.games.values():  # all idle again: a new game pushes the idlest out, and a GET brings it back
        g.used -= 7200
    store.games[third["id"]].used += 3600
    start(client, "industry")
    assert mine["id"] not in store.games and len(load(saved).actions) == moved["ply"]
    again = client.get(f"/api/play/{mine['id']}")
    assert again.status_code == 200 and again.json()["ply"] == moved["ply"] and mine["id"] in store.games


def test_leaving_a_game_saves_it_privately_and_it_is_resumed_from_the_records(client: TestClient,
                                                                               records: Path) -> None:  # fmt: skip
    state = play(client, start(client, "age_of_industry"), moves=4)
    r = client.post(f"/api/play/{state['id']}/quit", json={})
    name = r.json()["record_file"]
    record = load(records / name)
    assert len(record.actions) == state["ply"] and record.final_scores is None
    replay(record)
    error(client.get(f"/api/play/{state['id']}"), 404)
    assert (records.stat().st_mode & 0o777) == 0o700 and ((records / name).stat().st_mode & 0o777) == 0o600
    assert json.loads((records / name).read_text())["seed"] is None  # the seed is kept apart until the end
    assert (seed_file(records / name).stat().st_mode & 0o777) == 0o600
    (listed,) = client.get("/api/records").json()["files"]
    assert listed["name"] == name and listed["resumable"] and not listed["finished"]
    resumed = client.post("/api/resume", json={"file": name})
    assert resumed.status_code == 200, resumed.text
    doc = resumed.json()
    assert doc["ply"] == state["ply"] and doc["history"] == state["history"] and doc["groups"] == state["groups"]
    assert client.post("/api/resume", json={"file": name}).json()["id"] == doc["id"]  # one live game a record
    after = play(client, doc, moves=2)
    client.post(f"/api/play/{after['id']}/quit", json={})
    assert len(load(records / name).actions) == after["ply"]  # the same record, brought up to date
    error(client.post("/api/resume", json={"file": "../x.json"}), 400, "not a file name")
    error(client.post("/api/resume", json={"file": "none.json"}), 404, "none.json")


# ---------------------------------------------------------------------------------------------- bad input
def test_bad_new_games_are_refused_naming_what_is_wrong(client: TestClient) -> None:
    post = lambda body: client.post("/api/play", json=body)  # noqa: E731
    error(post({"game": "chess"}), 400, "chess", "industry")
    error(post({"game": "industry", "options": {"colour": 1}}), 400, "colour", "balanced_draws")
    error(post({"game": "age_of_industry", "options": {"map": "mars"}}), 400, "map", "mars")
    error(post({"game": "industry", "options": {"board": "/etc/passwd"}}), 400, "board")
    error(post({"game": "industry", "options": [1]}), 400, "options")
    error(post({"game": "industry", "players": 9}), 400, "players=9", "3 or 4")
    error(post({"game": "industry", "players": True}), 400, "players=True")
    error(post({"game": "industry", "players": 3, "seat": 3}), 400, "seat=3", "0 to 2")
    error(post({"game": "industry", "players": 3, "agents": ["random"]}), 400, "agents", "2")
    error(post({"game": "industry", "players": 3, "agents": ["os:system", "random"]}), 400, "os:system", "offered")
    error(post({"game": "industry", "players": 3, "agents": ["heuristic", "random"]}), 400, "heuristic")
    error(client.post("/api/play", content=b"{not json", headers=JSON), 400, "not JSON")
    error(client.post("/api/play", json=[1, 2]), 400, "object")
    error(client.post("/api/play", content=b" " * (70 << 10), headers=JSON), 413, "limit")


def test_bad_moves_are_refused_and_leave_the_game_unchanged(client: TestClient) -> None:
    state = start(client, "age_of_industry")
    url = f"/api/play/{state['id']}"
    before = client.get(url).content
    legal = [c["action"] for g in state["groups"] for c in g["choices"]]
    illegal = next(a for a in range(10_000) if a not in legal)
    good = {"action": legal[0], "ply": state["ply"]}
    error(client.post(url + "/move", json={**good, "action": illegal}), 400, f"action={illegal}")
    error(client.post(url + "/move", json={**good, "action": str(legal[0])}), 400, "action=")
    error(client.post(url + "/move", json={**good, "action": True}), 400, "action=True")
    error(client.post(url + "/move", json={**good, "action": float(legal[0])}), 400, "action=")
    error(client.post(url + "/move", json={**good, "action": -1}), 400, "action=-1")
    error(client.post(url + "/move", json={"action": legal[0]}), 400, "ply=None")
    error(client.post(url + "/move", json={**good, "ply": state["ply"] + 1}), 409, "earlier position")
    error(client.post(url + "/move", content=b"\xff\xfe", headers=JSON), 400, "not JSON")
    error(client.post(url + "/move", content=b"[" * (1 << 17), headers=JSON), 413, "limit")
    error(client.post("/api/play/forged-id/move", json=good), 404, "no such game")
    assert client.get(url).content == before
    moved = client.post(url + "/move", json=good)
    assert moved.status_code == 200
    error(client.post(url + "/move", json=good), 409, "earlier position")  # the same move again: stale


def test_a_finished_game_takes_no_move_and_an_unfinished_one_gives_no_record(client: TestClient) -> None:
    state = start(client, "industry")
    error(client.get(f"/api/play/{state['id']}/record"), 409, "over")
    state = play(client, state)
    error(client.post(f"/api/play/{state['id']}/move", json={"action": 0, "ply": state["ply"]}), 409, "over")


def test_unknown_routes_and_methods_are_answered_in_json(client: TestClient) -> None:
    error(client.get("/api/nothing"), 404)
    error(client.get("/api/play"), 405)
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/app.js").status_code == 200
    page = client.get("/")
    assert "industry-env" in page.text and "frame-ancestors 'none'" in page.headers["content-security-policy"]


# ---------------------------------------------------------------------------------------------- watching
def test_a_record_is_watched_move_by_move_in_every_view(client: TestClient) -> None:
    state = play(client, start(client, "age_of_industry"))
    opened = client.post("/api/replays", json={"file": state["record_file"]}).json()
    n = opened["moves"]
    assert n == state["ply"] and opened["finished"] and opened["views"] == ["public", 0, 1, 2, "full"]
    last = client.get(f"/api/replays/{opened['id']}/{n}", params={"view": "full"}).json()
    assert last["final"] and "full" == last["view"] and last["text"]
    for k in (n - 1, 0, 3):  # backwards and forwards
        doc = client.get(f"/api/replays/{opened['id']}/{k}", params={"view": "1"}).json()
        assert doc["move"] == k and doc["picture"].startswith("<svg")
        assert doc["description"] == (opened["names"][k - 1] if k else "the opening position")
    error(client.get(f"/api/replays/{opened['id']}/{n + 1}"), 400, str(n))
    error(client.get(f"/api/replays/{opened['id']}/2", params={"view": "7"}), 400, "view=")
    error(client.get("/api/replays/nope/0"), 404)


def test_the_full_view_of_an_unfinished_hidden_game_is_refused(client: TestClient) -> None:
    state = play(client, start(client, "age_of_industry"), moves=3)
    name = client.post(f"/api/play/{state['id']}/quit", json={}).json()["record_file"]
    opened = client.post("/api/replays", json={"file": name}).json()
    assert "full" not in opened["views"]
    error(client.get(f"/api/replays/{opened['id']}/1", params={"view": "full"}), 403, "finished")


def test_records_are_served_only_from_the_records_folder(client: TestClient, records: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text("{}")
    for name in ("../secret.json", "/etc/passwd", "sub/x.json", "..", "secret.json\x00.json", ".json", 7):
        r = client.post("/api/replays", json={"file": name})
        assert r.status_code in (400, 404), (name, r.text)
    assert client.get("/api/records").json()["files"] == []
    records.mkdir()
    (records / "link.json").symlink_to(secret)  # a link out of the folder is neither listed nor opened
    error(client.post("/api/replays", json={"file": "link.json"}), 404, "link.json")
    assert client.get("/api/records").json()["files"] == []


def test_uploaded_records_are_checked(client: TestClient) -> None:
    error(client.post("/api/replays", json={"record": "{"}), 400, "uploaded record")
    error(client.post("/api/replays", json={"record": json.dumps({"format": "x"})}), 400)
    opening = load_game("industry").reference(3, seed=1)
    illegal = next(a for a in range(1000) if a not in opening.legal_actions())
    blank = Recorder(3, 1, game="industry").record()
    bad = dataclasses.replace(blank, actions=(illegal,))
    error(client.post("/api/replays", json={"record": bad.to_json(), "name": "mine.json"}), 422, "mine.json", "move 1")
    bad = dataclasses.replace(blank, actions=(999_999,))
    error(client.post("/api/replays", json={"record": bad.to_json(), "name": "mine.json"}), 400, "999999")
    huge = " " * (MAX_RECORD_BYTES + 10)
    error(client.post("/api/replays", json={"record": huge}), 413, str(MAX_RECORD_BYTES))
    error(client.post("/api/replays", json={}), 400, "file")


# ---------------------------------------------------------------------------------------------- arena
def test_arena_results_are_read_and_a_malformed_one_refused(client: TestClient, records: Path) -> None:
    doc = {
        "arena": {"game": "industry", "num_players": 3, "games": 12, "agents": ["a", "b"]},
        "table": [
            {"agent": "a", "games": 12, "wins": 7, "win_rate": 0.58, "win_ci_low": 0.3, "win_ci_high": 0.8},
            {"agent": "b", "games": 12, "wins": 5, "win_rate": 0.42, "win_ci_low": 0.2, "win_ci_high": 0.7},
        ],
    }
    r = client.post("/api/arena", json={"text": json.dumps(doc)})
    assert r.status_code == 200 and [row["agent"] for row in r.json()["rows"]] == ["a", "b"]
    assert r.json()["fair_share"] == pytest.approx(1 / 3) and r.json()["title"].startswith("Industry")
    error(client.post("/api/arena", json={"text": "[]"}), 400, "arena")
    bad = {**doc, "table": [{**doc["table"][0], "win_rate": "lots"}]}
    error(client.post("/api/arena", json={"text": json.dumps(bad)}), 400, "win_rate")
    records.mkdir()
    (records / "arena.json").write_text(json.dumps(doc))
    assert client.post("/api/arena", json={"file": "arena.json"}).status_code == 200
    assert [f["kind"] for f in client.get("/api/records").json()["files"]] == ["arena"]


# ---------------------------------------------------------------------------------------------- hidden
def _resampled_states(client: TestClient, game_id: str, count: int = 4) -> tuple[list[bytes], list[bytes], bool]:
    """The seat's raw responses (state and every look-up) for the true position and for positions with all the
    seat cannot see redealt; and whether the redeals changed anything at all (the full text)."""
    app = client.app
    live = app.state.server.store.game(game_id)
    spec, seat = live.spec, live.seat

    def responses() -> list[bytes]:
        out = [client.get(f"/api/play/{game_id}").content]
        for place in live.view.places(live.game)[:12]:
            out.append(client.get(f"/api/play/{game_id}/lookup", params={"key": place["key"]}).content)
        return out

    def whole(game: Any) -> str:
        """Everything but the seed (a redeal draws a new one), the deck's order included: a redeal may keep every
        hand's kinds and change only the order of the deck."""
        if not hasattr(game, "to_json"):
            return spec.render_text(game)
        doc = json.loads(game.to_json())
        doc.pop("seed", None)
        return json.dumps(doc, sort_keys=True)

    true_game, truth = live.game, responses()
    full = whole(true_game)
    changed = False
    others = []
    try:
        for k in range(count):
            live.game = spec.resample(true_game, seat, np.random.default_rng(k))
            changed |= whole(live.game) != full
            others.append(responses())
    finally:
        live.game = true_game
    return truth, [b for o in others for b in o], changed


@pytest.mark.parametrize("game", HIDDEN)
def test_a_seats_responses_are_the_same_whatever_it_cannot_see(client: TestClient, game: str) -> None:
    state = start(client, game)
    for moves in (0, 9, 25):
        state = play(client, state, moves=moves)
        truth, redealt, changed = _resampled_states(client, state["id"])
        assert changed  # the redeals did change the other hands or the deck: the check can fail
        n = len(truth)
        for k, body in enumerate(redealt):
            assert body == truth[k % n], f"response {k % n} differs when the hidden cards are redealt"


@pytest.mark.parametrize("game", available_games())
def test_no_response_holds_the_seed(client: TestClient, game: str) -> None:
    state = start(client, game)
    live = client.app.state.server.store.game(state["id"])
    seed = live.record().seed
    body = client.get(f"/api/play/{state['id']}").json()
    assert "seed" not in json.dumps(body)
    if seed >= 10**6:  # a number that long shows only as the seed (1 game in 2,000 draws a shorter one)
        assert str(seed) not in json.dumps({k: v for k, v in body.items() if k != "picture"})


def test_an_agents_error_is_answered_in_json_and_the_server_goes_on(records: Path, monkeypatch) -> None:
    client = local(create_app(records, ["random"]))
    state = start(client, "industry", seat=2)  # seats 0 and 1 move before the person: their agents are asked
    live = client.app.state.server.store.game(state["id"])

    def broken(game: Any) -> int:
        raise RuntimeError("the agent fell over")

    live.choosers = [broken if c is not None else None for c in live.choosers]
    state = play(client, state, moves=0)
    while True:
        action = state["groups"][0]["choices"][0]["action"]
        r = client.post(f"/api/play/{state['id']}/move", json={"action": action, "ply": state["ply"]})
        if r.status_code != 200:
            break
        state = r.json()
    error(r, 500, "the agent fell over")
    assert client.get("/api/games").status_code == 200


def test_a_game_without_pictures_is_played_from_its_text_view(records: Path, monkeypatch) -> None:
    """A game that draws no pictures and has no view of its own (20th Century with its pictures and its view taken
    away) is played with no code of its own: the spec's text view of the seat instead of a picture, the actions'
    names as choices."""
    monkeypatch.setattr(load_game("twentieth_century"), "has_pictures", False)
    monkeypatch.setattr(load_game("twentieth_century"), "web_view", None)
    import industry_env.web.views as web_views

    monkeypatch.setattr(web_views, "_made", {})  # views are made once a process: not the one another test made
    client = local(create_app(records, ["random"]))
    state = start(client, "twentieth_century")
    assert state["picture"] is None and state["text"] and state["groups"]
    spec = load_game("twentieth_century")
    live = client.app.state.server.store.game(state["id"])
    assert state["text"] == spec.render_text(live.game, seat=0)
    state = play(client, state, moves=12)
    assert state["ply"] >= 12 and len(state["history"]) == state["ply"]
    truth, redealt, _ = _resampled_states(client, state["id"])  # its hidden part too stays hidden
    assert all(body == truth[k % len(truth)] for k, body in enumerate(redealt))


def test_hostile_numbers_and_nesting_are_refused_not_failed_on(client: TestClient) -> None:
    """Digits of other scripts ('²', '١') passed str.isdigit and failed int() (500); JSON nested past Python's
    recursion limit failed the parser (500): each is a 400 now."""
    state = play(client, start(client, "age_of_industry"), moves=2)
    name = client.post(f"/api/play/{state['id']}/quit", json={}).json()["record_file"]
    opened = client.post("/api/replays", json={"file": name}).json()
    for k, view in (("²", "public"), ("١", "public"), ("1", "²"), ("-1", "0"), ("99999999999999999999", "0")):
        r = client.get(f"/api/replays/{opened['id']}/{k}", params={"view": view})
        assert r.status_code == 400, (k, view, r.text)
        r = client.get(f"/api/replays/{opened['id']}/{k}/lookup", params={"view": view, "key": "Köln"})
        assert r.status_code in (200, 400), (k, view, r.text)
    for url in ("/api/play", "/api/replays", "/api/arena"):
        error(client.post(url, content=b"[" * 60_000, headers=JSON), 400, "nested")
    error(client.post("/api/replays", json={"record": "[" * 100_000}), 400, "nested")
    error(client.post("/api/arena", json={"text": "[" * 100_000}), 400, "nested")


def test_stopping_the_server_saves_every_game_the_person_moved_in(records: Path) -> None:
    with local(create_app(records, ["random"])) as client:  # the context runs the app's start and stop
        moved = play(client, start(client, "age_of_industry"), moves=3)
        start(client, "industry")
        assert not records.exists() or not list(records.iterdir())
    (saved,) = records.glob("*.json")
    assert len(Record.from_json(saved.read_text()).actions) == moved["ply"]


# ---------------------------------------------------------------------------------------------- who may ask
def test_a_request_for_another_host_is_refused_so_no_other_site_can_rebind_to_the_server(records: Path) -> None:
    """Any Host header was answered: a page of another site could point its own name at 127.0.0.1 (DNS
    rebinding) and read every answer, the records folder's path and every record, and play. Only the server's own
    names are answered now; every other is a 400 that names it, and nothing is started."""
    client = local(create_app(records, ["random"]))
    rebind = {"Host": "rebind.example"}
    for r in (client.get("/api/games", headers=rebind), client.get("/api/records", headers=rebind),
              client.get("/", headers=rebind), client.get("/static/app.js", headers=rebind),
              client.post("/api/play", json={"game": "industry"}, headers=rebind),
              client.get("/api/games", headers={"Host": "rebind.example:8765"}),
              client.get("/api/games", headers={"Host": "127.0.0.1.rebind.example"}),
              client.get("/api/games", headers={"Host": "localhost@rebind.example"})):  # fmt: skip
        error(r, 400, "Host", "rebind.example", "--allow-host")
    assert client.app.state.server.store.games == {}
    for host in ("localhost", "localhost:8765", "LOCALHOST:1", "127.0.0.1", "127.0.0.1:9", "[::1]:8765", "[::1]"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/games", headers={"Host": "192.168.1.20:8765"}).status_code == 400  # not bound there
    # listening on every address: any address in numbers (no name to rebind), the names given, nothing else
    wide = local(create_app(records, ["random"], host="0.0.0.0", allow_hosts=["mybox.lan"]))
    for host, status in (("192.168.1.20:8765", 200), ("[fe80::1]:8765", 200), ("mybox.lan:8765", 200),
                         ("MYBOX.LAN", 200), ("rebind.example", 400)):  # fmt: skip
        assert wide.get("/api/games", headers={"Host": host}).status_code == status, host
    named = local(create_app(records, ["random"], host="mybox.lan"), base_url="http://mybox.lan:8765")
    assert named.get("/api/games").status_code == 200


def test_a_page_of_another_origin_can_neither_start_move_nor_close_a_game(client: TestClient) -> None:
    """A text/plain form post from another origin started a game: every request that changes something must come
    from the server's own page (403) and carry JSON (415); the game is as it was."""
    state = start(client, "age_of_industry")
    url = f"/api/play/{state['id']}"
    before = client.get(url).content
    action = state["groups"][0]["choices"][0]["action"]
    body = json.dumps({"game": "industry", "action": action, "ply": state["ply"], "file": "x.json", "text": "{}"})
    attacker, plain = {"Origin": "http://attacker.example"}, {"Content-Type": "text/plain"}
    for path in ("/api/play", url + "/move", url + "/quit", "/api/resume", "/api/replays", "/api/arena"):
        error(client.post(path, content=body, headers={**attacker, **plain}), 403, "attacker.example", "own page")
        error(client.post(path, content=body, headers={**attacker, **JSON}), 403, "attacker.example")
        error(client.post(path, content=body, headers={"Origin": "null", **JSON}), 403, "null")
        error(client.post(path, content=body, headers={"Origin": "http://127.0.0.1:9999", **JSON}), 403)
        error(client.post(path, content=body, headers={"Sec-Fetch-Site": "cross-site", **JSON}), 403, "another site")
        error(client.post(path, content=body, headers={"Sec-Fetch-Site": "same-site", **JSON}), 403, "another site")
        error(client.post(path, content=body, headers=plain), 415, "text/plain", "application/json")
        error(client.post(path, content=body), 415, "missing")
        error(client.post(path, content=body, headers={"Content-Type": "application/x-www-form-urlencoded"}), 415)
    assert client.get(url).content == before and len(client.app.state.server.store.games) == 1
    own = {"Origin": BASE, "Sec-Fetch-Site": "same-origin", **JSON}  # the server's own page, as a browser sends it
    moved = client.post(url + "/move", content=json.dumps({"action": action, "ply": state["ply"]}), headers=own)
    assert moved.status_code == 200 and moved.json()["ply"] > state["ply"]
    page = client.get("/")  # nothing the server answers may be embedded or sniffed by another origin
    assert page.headers["cross-origin-resource-policy"] == "same-origin"
    assert page.headers["x-content-type-options"] == "nosniff"


# ---------------------------------------------------------------------------------------------- what may be read
def test_records_that_cannot_be_read_are_named_and_the_others_listed(client: TestClient, records: Path,
                                                                     tmp_path: Path) -> None:  # fmt: skip
    """One dangling symbolic link in the records folder made /api/records answer 500 (FileNotFoundError), so the
    Watch tab showed nothing."""
    state = play(client, start(client, "industry"), moves=1)
    name = client.post(f"/api/play/{state['id']}/quit", json={}).json()["record_file"]
    (records / "dangling.json").symlink_to(tmp_path / "gone.json")
    (records / "outside.json").symlink_to(client.app.state.server.store.records / name)
    (records / "folder.json").mkdir()
    r = client.get("/api/records")
    assert r.status_code == 200, r.text
    assert [f["name"] for f in r.json()["files"]] == [name]
    why = {s["name"]: s["why"] for s in r.json()["skipped"]}
    assert set(why) == {"dangling.json", "outside.json", "folder.json"}
    assert "symbolic link" in why["dangling.json"] and "plain file" in why["folder.json"]
    assert not any(n.endswith(".seed") for n in why)  # the seed files are the server's own, not listed


def test_an_unfinished_record_is_watched_without_its_seed_ever_sent(client: TestClient, records: Path) -> None:
    state = play(client, start(client, "age_of_industry"), moves=3)
    live = client.app.state.server.store.game(state["id"])
    seed = live.record().seed
    name = client.post(f"/api/play/{state['id']}/quit", json={}).json()["record_file"]
    opened = client.post("/api/replays", json={"file": name})
    assert opened.status_code == 200 and "seed" not in opened.json()["describe"]
    assert str(seed) not in opened.text or seed < 10**6
    answers = [client.get("/api/records").text, client.post("/api/resume", json={"file": name}).text]
    answers += [client.get(f"/api/replays/{opened.json()['id']}/{k}").text for k in range(3)]
    assert all('"seed"' not in a for a in answers)
    # the record's text alone (as a person would share it) holds no seed, and is refused as unplayable
    error(client.post("/api/replays", json={"record": (records / name).read_text(), "name": name}), 422, "no seed")


def test_huge_numbers_are_refused_naming_the_field(client: TestClient, records: Path) -> None:
    """A 5,000-digit integer in any JSON body answered 500, and an arena.json row with win_rate = 10**400 answered
    500 OverflowError: each is a 400 naming the field."""
    huge = "7" * 5000
    raw = lambda path, text: client.post(path, content=text, headers=JSON)  # noqa: E731
    error(raw("/api/play", f'{{"game": "industry", "players": {huge}}}'), 400, "players", "5,000 digits")
    error(raw("/api/play", f'{{"game": "industry", "options": {{"balanced_draws": {huge}}}}}'), 400,
          "options.balanced_draws")  # fmt: skip
    error(raw("/api/play", f'{{"game": "industry", "agents": ["random", -{huge}]}}'), 400, "agents[1]")
    error(raw("/api/play", '{"game": "industry", "seat": 1e400}'), 400, "seat", "not a finite number")
    error(raw("/api/play", '{"game": "industry", "seat": NaN}'), 400, "seat", "NaN")
    error(raw("/api/replays", f'{{"file": {huge}}}'), 400, "file", "digits")
    error(raw("/api/arena", f'{{"text": "x", "name": {huge}}}'), 400, "name", "digits")
    state = start(client, "industry")
    error(raw(f"/api/play/{state['id']}/move", f'{{"action": {huge}, "ply": 0}}'), 400, "action")
    row = {"agent": "a", "games": 2, "wins": 1, "win_rate": 0.5, "win_ci_low": 0.1, "win_ci_high": 0.9}
    arena = {"arena": {"game": "industry", "num_players": 3, "games": 2}, "table": [row]}
    text = json.dumps(arena).replace("0.5", str(10**400))
    error(client.post("/api/arena", json={"text": text, "name": "arena.json"}), 400, "arena.json",
          "table[0].win_rate")  # fmt: skip
    error(client.post("/api/arena", json={"text": json.dumps(arena).replace("0.5", "7" * 5000)}), 400, "win_rate")
    records.mkdir(exist_ok=True)
    (records / "arena.json").write_text(text)
    error(client.post("/api/arena", json={"file": "arena.json"}), 400, "table[0].win_rate")
    assert client.post("/api/arena", json={"text": json.dumps(arena)}).status_code == 200


def test_the_default_records_folder_is_the_users_own_and_private(tmp_path: Path, monkeypatch) -> None:
    """The default records folder was industry-env-records in the current folder (a shared temporary folder, as
    often as not), its records readable by every user of the machine."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    client = local(create_app(None, ["random"]))
    folder = client.app.state.server.store.records
    assert folder == default_folder() and folder.is_relative_to(tmp_path / "data")
    state = play(client, start(client, "industry"), moves=1)
    name = client.post(f"/api/play/{state['id']}/quit", json={}).json()["record_file"]
    assert (folder.stat().st_mode & 0o777) == 0o700 and ((folder / name).stat().st_mode & 0o777) == 0o600
    assert not (tmp_path / "industry-env-records").exists()
