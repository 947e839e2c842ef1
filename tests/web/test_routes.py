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
from industry_env.records import MAX_RECORD_BYTES, Record, Recorder, replay  # noqa: E402
from industry_env.web import create_app  # noqa: E402

HIDDEN = [g for g in available_games() if load_game(g).hidden_information]


@pytest.fixture
def records(tmp_path: Path) -> Path:
    return tmp_path / "records"


@pytest.fixture
def client(records: Path) -> TestClient:
    return TestClient(create_app(records, ["random"]))


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


def test_the_least_recently_used_game_is_saved_and_closed_past_the_limit(records: Path) -> None:
    client = TestClient(create_app(records, ["random"], max_games=2))
    first = play(client, start(client, "industry", seat=2), moves=2)
    second = start(client, "industry", seat=2)  # the person never moves in it (the agents may have)
    client.get(f"/api/play/{second['id']}")
    third = start(client, "industry")
    error(client.get(f"/api/play/{first['id']}"), 404, "no such game")
    assert client.get(f"/api/play/{third['id']}").status_code == 200
    start(client, "industry")
    error(client.get(f"/api/play/{second['id']}"), 404, "no such game")
    saved = [Record.from_json(p.read_text()) for p in records.glob("*.json")]
    # the first game, kept as far as it went; the second, where the person never moved, left no file
    assert [len(r.actions) for r in saved] == [first["ply"]]


def test_leaving_a_game_saves_it_and_the_record_replays(client: TestClient, records: Path) -> None:
    state = play(client, start(client, "age_of_industry"), moves=4)
    r = client.post(f"/api/play/{state['id']}/quit", json={})
    name = r.json()["record_file"]
    record = Record.from_json((records / name).read_text())
    assert len(record.actions) == state["ply"] and record.final_scores is None
    replay(record)
    error(client.get(f"/api/play/{state['id']}"), 404)


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
    error(client.post("/api/play", content=b"{not json"), 400, "not JSON")
    error(client.post("/api/play", json=[1, 2]), 400, "object")
    error(client.post("/api/play", content=b" " * (70 << 10)), 413, "limit")


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
    error(client.post(url + "/move", content=b"\xff\xfe"), 400, "not JSON")
    error(client.post(url + "/move", content=b"[" * (1 << 17)), 413, "limit")
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
    client = TestClient(create_app(records, ["random"]))
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
    client = TestClient(create_app(records, ["random"]))
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
        error(client.post(url, content=b"[" * 60_000), 400, "nested")
    error(client.post("/api/replays", json={"record": "[" * 100_000}), 400, "nested")
    error(client.post("/api/arena", json={"text": "[" * 100_000}), 400, "nested")


def test_stopping_the_server_saves_every_game_the_person_moved_in(records: Path) -> None:
    with TestClient(create_app(records, ["random"])) as client:  # the context runs the app's start and stop
        moved = play(client, start(client, "age_of_industry"), moves=3)
        start(client, "industry")
        assert not records.exists() or not list(records.iterdir())
    (saved,) = records.glob("*.json")
    assert len(Record.from_json(saved.read_text()).actions) == moved["ply"]
