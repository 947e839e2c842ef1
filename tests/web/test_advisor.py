"""The advisor (issue 50): what the suite's search and heuristic would play in the seat's place, from the seat's
view alone (byte-identical when what it cannot see is redealt), off at a table of several people unless all agreed,
every bad request a 4xx naming the problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra: pip install -e '.[web]'")

from industry_env.agents import make_agent  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from industry_env import load_game  # noqa: E402
from industry_env.web import create_app  # noqa: E402

from .test_routes import error, local  # noqa: E402
from .test_table import redealt, table  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return local(create_app(tmp_path / "records", ["random", "heuristic"]))


def ask(client: TestClient, token: str, simulations: int = 16) -> Any:
    state = client.get(f"/api/play/{token}").json()
    return client.post(f"/api/play/{token}/advice", json={"ply": state["ply"], "simulations": simulations})


def advice_bytes(client: TestClient, token: str) -> bytes:
    r = ask(client, token)
    assert r.status_code == 200, r.text
    return r.content


def to_a_searched_decision(client: TestClient, state: dict[str, Any], most: int = 60) -> dict[str, Any]:
    """Play the last choice until the search has a decision worth searching (several moves listed)."""
    for _ in range(most):
        r = ask(client, state["id"])
        assert r.status_code == 200, r.text
        if len(r.json()["moves"]) > 1:
            return state
        choice = state["groups"][-1]["choices"][-1]["action"]
        state = client.post(f"/api/play/{state['id']}/move", json={"action": choice, "ply": state["ply"]}).json()
        assert not state["over"]
    raise AssertionError(f"no searched decision in {most} moves")


@pytest.mark.parametrize("game", ["age_of_industry", "twentieth_century"])
def test_the_advice_is_the_same_whatever_the_seat_cannot_see(client: TestClient, game: str) -> None:
    n = load_game(game).min_players
    doc, _ = table(client, game, ["you"] + ["random"] * (n - 1))
    assert doc["table"]["advisor"]  # a person alone with agents: on by default
    state = to_a_searched_decision(client, doc)
    truth, others, changed = redealt(client, state["id"], 0, ask=advice_bytes)
    assert changed and all(o == truth for o in others), "the advice differs when the unseen part is redealt"
    advice = json.loads(truth)
    legal = {c["action"] for g in state["groups"] for c in g["choices"]}
    assert advice["search"]["agent"] == {"age_of_industry": "ismcts", "twentieth_century": "az"}[game]
    assert advice["search"]["action"] in legal
    assert advice["heuristic"]["action"] in legal and advice["heuristic"]["label"]
    visits = [m["visits"] for m in advice["moves"]]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 16 and advice["moves"][0]["share"] > 0
    assert {m["action"] for m in advice["moves"]} <= legal and all(m["label"] for m in advice["moves"])
    assert all(abs(m["share"] - m["visits"] / 16) < 1e-3 for m in advice["moves"])  # of the 16 simulations asked
    assert advice["search"]["action"] == advice["moves"][0]["action"]  # the search plays its most visited choice


def test_the_search_says_what_its_root_holds() -> None:
    """root_statistics: the root's candidates with their visits (all the simulations) and mean values, the most
    visited first and the move played among them."""
    spec = load_game("industry")
    search = make_agent("mcts", seed=3, game="industry", simulations=32)
    game = spec.reference(4, seed=11)
    rng = np.random.default_rng(0)
    while True:
        stats = []
        if game.current_player >= 0:
            action = search.act_game(game)
            stats = search.root_statistics()
        if len(stats) > 1:
            break
        legal = game.legal_actions()
        game.apply(int(legal[rng.integers(len(legal))]))
    assert sum(v for _, v, _ in stats) == 32 and [v for _, v, _ in stats] == sorted((v for _, v, _ in stats),
                                                                                  reverse=True)  # fmt: skip
    assert action == stats[0][0] and all(game.legal_action_mask()[a] for a, _, _ in stats)
    assert all(0.0 <= value <= 1.0 for _, _, value in stats)  # Industry's values: shares of a softmax


def test_the_advisor_is_off_at_a_table_unless_every_person_agreed(client: TestClient) -> None:
    doc, tokens = table(client, "industry", ["you", "person", "random"])
    assert not doc["table"]["advisor"]
    mover = client.get(f"/api/play/{doc['id']}").json()["to_move"]
    assert mover in (0, 1)  # the agents have moved: a person is to move
    error(ask(client, tokens[(mover,)]), 403, "advisor is off", "agreed")
    agreed, tokens = table(client, "industry", ["you", "person", "random"], advisor=True)
    assert agreed["table"]["advisor"]
    state = client.get(f"/api/play/{agreed['id']}").json()
    assert ask(client, tokens[(state["to_move"],)]).status_code == 200
    alone, _ = table(client, "industry", ["you", "random", "random"], advisor=False)  # a person may decline it
    assert not alone["table"]["advisor"]


def test_bad_requests_for_advice_are_refused(client: TestClient) -> None:
    doc, tokens = table(client, "industry", ["you", "person", "random"], spectators=0, advisor=True)
    state = client.get(f"/api/play/{doc['id']}").json()
    url = f"/api/play/{tokens[(state['to_move'],)]}/advice"
    for simulations, words in ((0, "8 to 1024"), (10**6, "simulations"), ("many", "simulations"), (True, "=True")):
        error(client.post(url, json={"ply": state["ply"], "simulations": simulations}), 400, words)
    error(client.post(url, json={"ply": state["ply"] + 5}), 409, "earlier position")
    error(client.post(f"/api/play/{tokens[()]}/advice", json={"ply": state["ply"]}), 403, "spectator")
    waiting = tokens[(1 - state["to_move"],)]
    error(client.post(f"/api/play/{waiting}/advice", json={"ply": state["ply"]}), 409, "turn")
    assert client.get(f"/api/play/{doc['id']}").json()["ply"] == state["ply"]
