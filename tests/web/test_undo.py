"""Taking a decision back against agents (issue 50): allowed while nothing hidden has come to light since, refused
with the reason otherwise, the record keeping what was taken back and replaying exactly."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra: pip install -e '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

from industry_env import load_game  # noqa: E402
from industry_env.records import Record, Recorder, RecordError, Undone, load, replay, undone_lines  # noqa: E402
from industry_env.web import create_app  # noqa: E402

from .test_routes import error, local  # noqa: E402
from .test_table import table  # noqa: E402


@pytest.fixture
def records(tmp_path: Path) -> Path:
    return tmp_path / "records"


@pytest.fixture
def client(records: Path) -> TestClient:
    return local(create_app(records, ["random", "heuristic"]))


def alone(client: TestClient, game: str, seat: int = 0) -> dict[str, Any]:
    n = load_game(game).min_players
    seats = ["random"] * n
    seats[seat] = "you"
    r = client.post("/api/play", json={"game": game, "players": n, "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def first(state: dict[str, Any]) -> int:
    return state["groups"][-1]["choices"][-1]["action"]  # the last choice: moves along (a pass ends an auction)


def unseen_stays_unseen(spec: Any, position: Any, actions: list[int], seat: int, seen: np.ndarray) -> bool:
    """Whether every redeal of what ``seat`` could not see at ``position``, played on by ``actions``, shows the seat
    what it was shown (``seen``: its observation then): nothing it could not see came to light."""
    for k in range(6):
        game = spec.resample(position, seat, np.random.default_rng(100 + k))
        for action in actions:
            if game.is_over or not game.legal_action_mask()[action]:
                return False
            game.apply(action)
        if not np.array_equal(spec.observe(game, seat), seen):
            return False
    return True


@pytest.mark.parametrize("game", ["age_of_industry", "twentieth_century"])
def test_a_take_back_is_allowed_only_while_nothing_hidden_came_to_light(client: TestClient, game: str) -> None:
    """Each allowed take-back is checked against redeals of what the seat could not see before its decision: played
    on by the same moves, every redeal shows the seat what it saw (so the moves taken back told it nothing); each
    refused one says what came to light."""
    state = alone(client, game)
    live = client.app.state.server.store.game(state["id"])
    spec = live.spec
    allowed = refused = 0
    for _ in range(60):
        if state["over"]:
            break
        k = state["ply"]
        before = live.game.clone()
        state = client.post(f"/api/play/{state['id']}/move", json={"action": first(state), "ply": k}).json()
        line = list(live.recorder.actions[k:])
        seen = None if live.game.is_over else spec.observe(live.game, 0)
        r = client.post(f"/api/play/{state['id']}/undo", json={"ply": state["ply"]})
        if seen is None:
            error(r, 409, "the game is over")
            break
        if r.status_code == 200:
            allowed += 1
            assert unseen_stays_unseen(spec, before, line, 0, seen), line
            back = r.json()
            assert back["ply"] == k and back["your_turn"] and live.game.to_json() == before.to_json()
            assert live.recorder.undone[-1] == Undone(k, tuple(line))
            # played again the same way, the game goes where it went (the agents are the same, their draws too)
            state = client.post(f"/api/play/{state['id']}/move", json={"action": line[0], "ply": k}).json()
        else:
            refused += 1
            message = error(r, 409, "cannot be taken back")
            assert any(w in message for w in ("drawn", "dealt", "turned", "played a card"))
    assert allowed and refused, (allowed, refused)


def test_industry_refuses_a_take_back_once_a_column_token_left_the_bag(client: TestClient) -> None:
    state = alone(client, "industry")
    live = client.app.state.server.store.game(state["id"])
    outcomes = set()
    for _ in range(80):
        if state["over"]:
            break
        k = state["ply"]
        bag = json.loads(live.game.to_json())["bag"]
        state = client.post(f"/api/play/{state['id']}/move", json={"action": first(state), "ply": k}).json()
        drawn = json.loads(live.game.to_json())["bag"] != bag
        r = client.post(f"/api/play/{state['id']}/undo", json={"ply": state["ply"]})
        if drawn:
            error(r, 409, "column token", "bag")
        else:
            assert r.status_code == 200 and r.json()["ply"] == k, r.text
            state = client.post(f"/api/play/{state['id']}/move", json={"action": first(r.json()), "ply": k}).json()
        outcomes.add(drawn)
    assert outcomes == {True, False}


def test_the_record_keeps_what_was_taken_back_and_replays(client: TestClient, records: Path) -> None:
    state = alone(client, "industry", seat=2)
    taken = 0
    while taken < 2 and not state["over"]:
        k = state["ply"]
        state = client.post(f"/api/play/{state['id']}/move", json={"action": first(state), "ply": k}).json()
        r = client.post(f"/api/play/{state['id']}/undo", json={"ply": state["ply"]})
        if r.status_code == 200:
            taken += 1
            state = r.json()
            choice = state["groups"][0]["choices"][0]["action"]
            state = client.post(f"/api/play/{state['id']}/move", json={"action": choice, "ply": k}).json()
    name = client.post(f"/api/play/{state['id']}/quit", json={}).json()["record_file"]
    record = load(records / name)
    assert len(record.undone) == 2 and len(record.actions) == state["ply"]
    replay(record)  # the line played, and every line taken back, legal
    for line, u in zip(undone_lines(record), record.undone, strict=True):
        assert line[u.at :] == u.actions
    doc = json.loads((records / name).read_text())
    assert doc["undone"] == [{"at": u.at, "actions": list(u.actions)} for u in record.undone]


def test_a_take_back_is_refused_saying_why(client: TestClient) -> None:
    state = alone(client, "industry", seat=2)  # seats 0 and 1 moved first: agents' decisions only
    url = f"/api/play/{state['id']}"
    error(client.post(url + "/undo", json={"ply": state["ply"]}), 409, "no decision")
    error(client.post(url + "/undo", json={"ply": state["ply"] + 1}), 409, "earlier position")
    error(client.post(url + "/undo", json={}), 400, "ply=None")
    doc, tokens = table(client, "industry", ["you", "person", "random"], spectators=0)
    error(client.post(f"/api/play/{doc['id']}/undo", json={"ply": doc["ply"]}), 409, "2 people")
    error(client.post(f"/api/play/{tokens[()]}/undo", json={"ply": doc["ply"]}), 403, "spectator")
    assert not doc["table"]["undo"] and state["table"]["undo"]


def test_records_without_take_backs_are_written_as_before_and_bad_ones_refused() -> None:
    recorder = Recorder(3, 5, game="industry")
    game = load_game("industry").reference(3, seed=5)
    for _ in range(6):
        a = game.legal_actions()[0]
        game.apply(a)
        recorder.append(a)
    plain = recorder.record()
    assert "undone" not in plain.to_dict() and plain.undone == ()
    taken = recorder.take_back(4)
    assert taken == plain.actions[4:] and recorder.record().undone == (Undone(4, taken),)
    again = Record.from_json(recorder.record().to_json())
    assert again == recorder.record() and undone_lines(again) == [plain.actions]
    replay(again)
    doc = again.to_dict()
    for bad, words in (({"at": -1, "actions": [1]}, "undone[0].at"), ({"at": 1, "actions": []}, "undone[0].actions"),
                       ({"at": 1, "actions": [10**6]}, "not an action"), ([1], "{at, actions}")):  # fmt: skip
        with pytest.raises(RecordError, match=words.replace("[", r"\[").replace("]", r"\]").replace("{", r"\{")):
            Record.from_dict({**doc, "undone": [bad] if not isinstance(bad, list) else bad})
    illegal = next(a for a in range(400) if not load_game("industry").reference(3, seed=5).legal_action_mask()[a])
    forged = dataclasses.replace(again, undone=(Undone(0, (illegal,)),))
    with pytest.raises(RecordError, match=r"undone\[0\]: move 1"):
        replay(forged)
    with pytest.raises(RecordError, match="only 4 moves"):
        undone_lines(dataclasses.replace(again, undone=(Undone(9, (1,)),)))
