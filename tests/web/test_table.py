"""A table of several people in ``industry-env serve`` (issue 50), through Starlette's test client: each seat's own
link and nothing of another's, each seat's answers (and the spectators', and the advisor's) byte-identical when what
it cannot see is redealt, turns kept, hot-seat hand-overs, seats handed to an agent and taken back, spectators with a
delay, links after a restart, and every bad request a 4xx naming the problem, the game unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra: pip install -e '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

from industry_env import load_game  # noqa: E402
from industry_env.records import load, read_seed_file, seed_file  # noqa: E402
from industry_env.web import create_app  # noqa: E402
from industry_env.web.table import digest  # noqa: E402

from .test_routes import BASE, JSON, error, local  # noqa: E402

TOKEN = re.compile(r"[A-Za-z0-9_-]{24}")  # a link's token: 18 random bytes, URL-safe


@pytest.fixture
def records(tmp_path: Path) -> Path:
    return tmp_path / "records"


@pytest.fixture
def client(records: Path) -> TestClient:
    return local(create_app(records, ["random", "heuristic"]))


def table(client: TestClient, game: str, seats: list[str], **extra: Any) -> tuple[dict[str, Any], dict[Any, str]]:
    """A new table: the creator's answer, and each link's token by its seats (a tuple; () for the spectators')."""
    r = client.post("/api/play", json={"game": game, "players": len(seats), "seats": seats, **extra})
    assert r.status_code == 200, r.text
    doc = r.json()
    tokens = {tuple(link["seats"]): link["token"] for link in doc["links"]}
    assert tokens[tuple(p for p, who in enumerate(seats) if who == "you")] == doc["id"]
    return doc, tokens


def owner(tokens: dict[Any, str], seat: int) -> str:
    return next(t for seats, t in tokens.items() if seat in seats)


def play_round(client: TestClient, tokens: dict[Any, str], moves: int) -> dict[str, Any]:
    """``moves`` decisions made by whichever person is to move, through their own link (the first choice)."""
    state: dict[str, Any] = {}
    for _ in range(moves):
        anyone = client.get(f"/api/play/{next(iter(tokens.values()))}").json()
        if anyone["over"]:
            return anyone
        mine = client.get(f"/api/play/{owner(tokens, anyone['to_move'])}").json()
        if mine["table"]["handover"] is not None:
            mine = client.post(f"/api/play/{mine['id']}/show", json={"seat": mine["to_move"]}).json()
        action = mine["groups"][0]["choices"][0]["action"]
        r = client.post(f"/api/play/{mine['id']}/move", json={"action": action, "ply": mine["ply"]})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def answers(client: TestClient, token: str) -> list[bytes]:
    """A link's raw answers: its view of the game and a dozen look-ups."""
    out = [client.get(f"/api/play/{token}").content]
    doc = json.loads(out[0])
    for place in doc["places"][:12]:
        out.append(client.get(f"/api/play/{token}/lookup", params={"key": place["key"]}).content)
    return out


def redealt(client: TestClient, token: str, seat: int, ask: Any = answers, count: int = 3) -> tuple[Any, list, bool]:
    """``ask(client, token)`` for the true game, and for games where all that ``seat`` cannot see is redealt; and
    whether a redeal changed anything (so that the comparison can fail)."""
    live = client.app.state.server.store.game(token)
    spec, true_game = live.spec, live.game

    def whole(game: Any) -> str:
        doc = json.loads(game.to_json())
        doc.pop("seed", None)
        return json.dumps(doc, sort_keys=True)

    truth, others, changed = ask(client, token), [], False
    try:
        for k in range(count):
            live.game = spec.resample(true_game, seat, np.random.default_rng(k))
            changed |= whole(live.game) != whole(true_game)
            others.append(ask(client, token))
    finally:
        live.game = true_game
    return truth, others, changed


# ---------------------------------------------------------------------------------------------- links
def test_each_person_gets_a_link_of_their_own_and_no_answer_holds_another(client: TestClient) -> None:
    doc, tokens = table(client, "age_of_industry", ["you", "person", "person", "random"], spectators=0)
    assert set(tokens) == {(0,), (1,), (2,), ()} and all(TOKEN.fullmatch(t) for t in tokens.values())
    assert len(set(tokens.values())) == 4
    assert doc["table"]["creator"] and doc["agents"] == ["you", "person", "person", "random"]
    play_round(client, tokens, 6)
    for seats, token in tokens.items():
        if seats == (0,):
            continue  # the creator hands the links out: its answer lists them
        said = b"".join(answers(client, token))
        for other in tokens.values():
            assert (other.encode() in said) == (other == token), (seats, "holds another link")
        doc = json.loads(answers(client, token)[0])
        assert "links" not in doc and doc["your_seats"] == list(seats) and doc["id"] == token
        assert doc["seat"] == (seats[0] if seats else None) and doc["role"] == ("player" if seats else "spectator")
        assert doc["agents"] == [("you" if p in seats else "person" if p < 3 else "random") for p in range(4)]


@pytest.mark.parametrize("game", ["age_of_industry", "twentieth_century"])
def test_each_seats_answers_are_the_same_whatever_it_cannot_see(client: TestClient, game: str) -> None:
    """The test of tests/web/test_routes.py, at a table of three people and a spectator: every seat's answers, and
    the spectators' for a redeal of any seat's unseen part, byte-identical."""
    doc, tokens = table(client, game, ["you", "person", "person", "random"], spectators=0)
    for moves in (0, 7, 13):
        play_round(client, tokens, moves)
        for seat in range(3):
            truth, others, changed = redealt(client, tokens[(seat,)], seat)
            assert changed
            assert all(o == truth for o in others), f"seat {seat}'s answers differ when its unseen part is redealt"
            truth, others, _ = redealt(client, tokens[()], seat)
            assert all(o == truth for o in others), "the spectators' answers differ when a hand is redealt"


def test_a_seat_plays_only_its_own_turns_and_a_spectator_none(client: TestClient) -> None:
    doc, tokens = table(client, "industry", ["you", "person", "random"], spectators=0)
    state = client.get(f"/api/play/{doc['id']}").json()
    mover = state["to_move"]
    other = 1 - mover if mover in (0, 1) else 0
    mine = client.get(f"/api/play/{tokens[(mover,)]}").json()
    theirs = client.get(f"/api/play/{tokens[(other,)]}").json()
    assert mine["your_turn"] and mine["groups"] and not theirs["your_turn"] and theirs["groups"] == []
    action = mine["groups"][0]["choices"][0]["action"]
    before = client.get(f"/api/play/{doc['id']}").content
    error(client.post(f"/api/play/{tokens[(other,)]}/move", json={"action": action, "ply": mine["ply"]}), 409,
          f"player {mover}'s turn")  # fmt: skip
    error(client.post(f"/api/play/{tokens[()]}/move", json={"action": action, "ply": mine["ply"]}), 403, "spectator")
    error(client.post(f"/api/play/{'x' * 24}/move", json={"action": action, "ply": mine["ply"]}), 404, "no such game")
    assert client.get(f"/api/play/{doc['id']}").content == before
    moved = client.post(f"/api/play/{tokens[(mover,)]}/move", json={"action": action, "ply": mine["ply"]})
    assert moved.status_code == 200 and moved.json()["ply"] > mine["ply"]
    spectator = client.get(f"/api/play/{tokens[()]}").json()
    assert spectator["ply"] == moved.json()["ply"] and spectator["groups"] == [] and spectator["seat"] is None


def test_bad_tables_are_refused_naming_what_is_wrong(client: TestClient) -> None:
    post = lambda body: client.post("/api/play", json={"game": "industry", "players": 3, **body})  # noqa: E731
    error(post({"seats": ["you", "person"]}), 400, "seats", "3 entries")
    error(post({"seats": ["person", "person", "random"]}), 400, "'you'")
    error(post({"seats": ["you", "nobody", "random"]}), 400, "seats[1]", "nobody")
    error(post({"seats": ["you", "person", "random"], "seat": 0}), 400, "either seats")
    error(post({"seats": ["you", "person", "random"], "advisor": "yes"}), 400, "advisor")
    error(post({"seats": ["you", "person", "random"], "budget": 0}), 400, "budget", "1 to")
    error(post({"seats": ["you", "person", "random"], "budget": 10**6}), 400, "budget")
    error(post({"seats": ["you", "person", "random"], "spectators": -1}), 400, "spectators")
    error(post({"seats": ["you", "person", "random"], "spectators": 10**4}), 400, "spectators")
    assert client.app.state.server.store.games == {}


def test_only_the_creator_closes_the_table_or_hands_out_links(client: TestClient, records: Path) -> None:
    doc, tokens = table(client, "industry", ["you", "person", "random"])
    play_round(client, tokens, 4)
    other = tokens[(1,)]
    before = client.get(f"/api/play/{doc['id']}").content
    error(client.post(f"/api/play/{other}/quit", json={}), 403, "creator")
    error(client.post(f"/api/play/{other}/links", json={"spectators": 0}), 403, "creator")
    error(client.post(f"/api/play/{doc['id']}/links", json={"seat": 0}), 400, "seat=0", "1")
    error(client.post(f"/api/play/{doc['id']}/links", json={}), 400, "spectators")
    assert client.get(f"/api/play/{doc['id']}").content == before
    # a person who lost their link gets a new one from the creator: the old one reaches nothing any more
    renewed = client.post(f"/api/play/{doc['id']}/links", json={"seat": 1}).json()
    fresh = next(link["token"] for link in renewed["links"] if link["seats"] == [1])
    assert fresh != other and client.get(f"/api/play/{fresh}").json()["seat"] == 1
    error(client.get(f"/api/play/{other}"), 404, "no such game")
    watch = client.post(f"/api/play/{doc['id']}/links", json={"spectators": 3}).json()
    spectators = [link for link in watch["links"] if link["seats"] == []]
    assert len(spectators) == 1 and spectators[0]["delay"] == 3
    # the creator adjourns the table: saved, and each seat's link brings it back
    name = client.post(f"/api/play/{doc['id']}/quit", json={}).json()["record_file"]
    assert (records / name).exists() and client.app.state.server.store.games == {}
    back = client.get(f"/api/play/{fresh}")
    assert back.status_code == 200 and back.json()["ply"] == json.loads(before)["ply"]


# ---------------------------------------------------------------------------------------------- hot-seat
def test_a_hot_seat_screen_shows_no_hand_until_the_next_person_takes_it(client: TestClient) -> None:
    """Two people at one screen in Age of Industry: between their turns the screen shows the public view and no
    choices (the hand-over screen); the seat to move is shown once its person asks, never the other's hand."""
    doc, tokens = table(client, "age_of_industry", ["you", "you", "random"])
    screen = doc["id"]
    assert doc["table"]["hotseat"] and doc["your_seats"] == [0, 1] and tokens == {(0, 1): screen}
    seen = set()
    for _ in range(30):
        state = client.get(f"/api/play/{screen}").json()
        if state["over"]:
            break
        if state["to_move"] not in (0, 1):
            continue
        due = state["table"]["handover"]
        if due is not None:  # the hand-over screen: public view, no choice, no move
            assert state["seat"] is None and state["groups"] == [] and "Hand of player" not in state["picture"]
            assert due == state["to_move"]
            error(client.post(f"/api/play/{screen}/move", json={"action": 0, "ply": state["ply"]}), 409, "hand")
            error(client.post(f"/api/play/{screen}/show", json={"seat": 1 - due}), 400, f"player {due}")
            state = client.post(f"/api/play/{screen}/show", json={"seat": due}).json()
            error(client.post(f"/api/play/{screen}/show", json={"seat": due}), 409, "no hand-over")  # shown already
            seen.add(due)
        seat = state["seat"]
        assert seat == state["to_move"] and state["groups"]
        assert f"Hand of player {seat}" in state["picture"] and f"Hand of player {1 - seat}" not in state["picture"]
        action = state["groups"][0]["choices"][0]["action"]
        client.post(f"/api/play/{screen}/move", json={"action": action, "ply": state["ply"]})
    assert seen == {0, 1}


# ---------------------------------------------------------------------------------------------- agents in seats
def test_a_person_hands_their_seat_to_an_agent_and_takes_it_back(client: TestClient) -> None:
    doc, tokens = table(client, "industry", ["you", "person", "random"])
    other = tokens[(1,)]
    error(client.post(f"/api/play/{other}/hand", json={"seat": 0, "agent": "random"}), 400, "seat=0")
    error(client.post(f"/api/play/{other}/hand", json={"agent": "os:system"}), 400, "os:system")
    error(client.post(f"/api/play/{other}/hand", json={"agent": None}), 409, "yours already")
    handed = client.post(f"/api/play/{other}/hand", json={"agent": "heuristic"}).json()
    assert handed["table"]["handed"] == {"1": "heuristic"} and handed["seats"][1]["agent"] == "heuristic"
    # seat 1 no longer waits for its person: the game goes on whenever seat 0 moves
    state = client.get(f"/api/play/{doc['id']}").json()
    for _ in range(8):
        assert state["to_move"] in (0, -1)
        if state["over"]:
            break
        action = state["groups"][0]["choices"][0]["action"]
        state = client.post(f"/api/play/{doc['id']}/move", json={"action": action, "ply": state["ply"]}).json()
    assert state["seats"][1]["thinking"]["decisions"] > 0  # the agent played seat 1, its time shown
    error(client.post(f"/api/play/{other}/move", json={"action": 0, "ply": state["ply"]}), 409)
    back = client.post(f"/api/play/{other}/hand", json={"agent": None}).json()
    assert back["table"]["handed"] == {}


def test_agents_show_their_strength_and_the_search_plays_at_the_budget_chosen(records: Path) -> None:
    client = local(create_app(records, ["random", "heuristic", "mcts"]))
    lines = json.loads((Path(__file__).parents[2] / "industry_env" / "web" / "strength.json").read_text())
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games["industry"]["strength"]["heuristic"] == lines["games"]["industry"]["heuristic"]["line"]
    assert games["industry"]["searches"] == ["mcts"] and games["industry"]["advisor"] == "mcts"
    doc, _ = table(client, "industry", ["you", "mcts", "heuristic"], budget=8)
    info = {s["seat"]: s for s in doc["seats"]}
    assert info[1]["simulations"] == 8 and "simulations" not in info[2]
    assert info[2]["strength"] == lines["games"]["industry"]["heuristic"]["line"] and info[0]["strength"] is None
    live = client.app.state.server.store.game(doc["id"])
    assert live.choosers[1].__self__.simulations == 8


# ---------------------------------------------------------------------------------------------- spectators
def test_a_spectators_link_sees_the_public_view_the_moves_behind(client: TestClient) -> None:
    doc, tokens = table(client, "age_of_industry", ["you", "person", "random"], spectators=3)
    live_view = client.post(f"/api/play/{doc['id']}/links", json={"spectators": 0}).json()
    now = next(link["token"] for link in live_view["links"] if link["seats"] == [] and link["delay"] == 0)
    behind = tokens[()]
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(10):
        state = client.get(f"/api/play/{now}").json()
        seen[state["ply"]] = state
        late = client.get(f"/api/play/{behind}").json()
        assert late["ply"] == max(0, state["ply"] - 3) and late["table"]["delay"] == 3
        if late["ply"] in seen:  # the view of then, as the spectators saw it then
            then = seen[late["ply"]]
            assert {k: late[k] for k in ("picture", "history", "scores", "to_move")} == \
                {k: then[k] for k in ("picture", "history", "scores", "to_move")}  # fmt: skip
        assert "Hand of player" not in late["picture"] and "Hand of player" not in state["picture"]
        play_round(client, tokens, 1)


# ---------------------------------------------------------------------------------------------- after a restart
def test_each_link_plays_on_after_the_server_restarts(records: Path) -> None:
    with local(create_app(records, ["random"])) as client:
        doc, tokens = table(client, "age_of_industry", ["you", "person", "random"], spectators=0)
        state = play_round(client, tokens, 9)
        before = {seats: client.get(f"/api/play/{t}").json() for seats, t in tokens.items()}
    (saved,) = records.glob("*.json")
    text = saved.read_text() + seed_file(saved).read_text()
    for token in tokens.values():  # neither file holds a link: only the seed file its digest
        assert token not in text
        assert digest(token) in seed_file(saved).read_text()
    assert json.loads(saved.read_text())["seed"] is None
    client = local(create_app(records, ["random"]))  # a new server on the same records folder
    for seats, token in tokens.items():
        after = client.get(f"/api/play/{token}")
        assert after.status_code == 200, after.text
        keep = ("ply", "history", "groups", "seat", "agents", "picture", "your_turn")
        assert {k: after.json()[k] for k in keep} == {k: before[seats][k] for k in keep}, seats
    assert len(client.app.state.server.store.games) == 1  # one game, reached by each link
    listed = client.get("/api/records").json()["files"]
    assert listed[0]["people"] == 2 and not listed[0]["resumable"]  # a table: by its links only
    error(client.post("/api/resume", json={"file": saved.name}), 409, "2 people", "link")
    line = load(saved).actions
    play_round(client, tokens, 3)
    live = client.app.state.server.store.game(tokens[(1,)])
    assert tuple(live.recorder.actions[: len(line)]) == line and live.ply > len(line) == state["ply"]
    error(local(create_app(records, ["random"])).get(f"/api/play/{'A' * 24}"), 404, "no such game")


def test_a_seed_file_alone_grants_no_seat(records: Path) -> None:
    """A forged link (a digest from the seed file used as if it were the link) reaches nothing."""
    with local(create_app(records, ["random"])) as client:
        doc, tokens = table(client, "industry", ["you", "person", "random"])
        play_round(client, tokens, 3)
    (saved,) = records.glob("*.json")
    kept = read_seed_file(saved)
    assert kept is not None and kept.table is not None
    client = local(create_app(records, ["random"]))
    for link in kept.table["links"]:
        error(client.get(f"/api/play/{link['sha256']}"), 404, "no such game")


# ---------------------------------------------------------------------------------------------- who may ask
def test_a_page_of_another_origin_can_neither_hand_undo_show_nor_ask_for_advice(client: TestClient) -> None:
    doc, tokens = table(client, "industry", ["you", "person", "random"])
    url = f"/api/play/{doc['id']}"
    before = client.get(url).content
    body = json.dumps({"seat": 0, "agent": "random", "ply": 0, "spectators": 0})
    for path in ("/hand", "/undo", "/show", "/links", "/advice", "/quit"):
        error(client.post(url + path, content=body, headers={"Origin": "http://attacker.example", **JSON}), 403,
              "attacker.example")  # fmt: skip
        error(client.post(url + path, content=body, headers={"Content-Type": "text/plain"}), 415, "text/plain")
    assert client.get(url).content == before
    own = {"Origin": BASE, **JSON}
    assert client.post(url + "/links", content=json.dumps({"spectators": 0}), headers=own).status_code == 200


def test_every_game_offers_a_table(client: TestClient) -> None:
    for game in ("industry", "age_of_industry", "twentieth_century"):
        spec = load_game(game)
        seats = ["you", "person"] + ["random"] * (spec.min_players - 2)
        doc, tokens = table(client, game, seats)
        state = play_round(client, tokens, 4)
        assert state["ply"] >= 4 and state["version"] > 0


def test_an_unfinished_tables_record_shows_no_seats_hand(client: TestClient) -> None:
    """The Watch tab opened an unfinished game's record in any seat's view: a person at a table (or anyone who
    reaches the server) saw another seat's hand there. Only the public view is shown until the game is over."""
    doc, tokens = table(client, "age_of_industry", ["you", "person", "random"])
    play_round(client, tokens, 5)
    name = client.post(f"/api/play/{doc['id']}/quit", json={}).json()["record_file"]
    opened = client.post("/api/replays", json={"file": name}).json()
    assert opened["views"] == ["public"]
    for view in ("0", "1", "2", "full"):
        error(client.get(f"/api/replays/{opened['id']}/3", params={"view": view}), 403)
    error(client.get(f"/api/replays/{opened['id']}/3/lookup", params={"view": "1", "key": "Köln"}), 403, "seat")
    public = client.get(f"/api/replays/{opened['id']}/3", params={"view": "public"}).json()
    assert "Hand of player" not in public["picture"]
