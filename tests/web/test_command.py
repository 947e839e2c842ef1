"""``industry-env serve`` on the command line: it binds this machine by default and warns of another address,
prints where it listens, and refuses bad options and agents by name before anything listens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra: pip install -e '.[web]'")

import uvicorn  # noqa: E402

from industry_env.cli import main  # noqa: E402


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """uvicorn.run replaced: what it was asked to serve, instead of serving."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    return calls


def test_serve_binds_loopback_by_default_and_prints_its_address(served, tmp_path: Path, capsys) -> None:
    assert main(["serve", "--records", str(tmp_path), "--agents", "random"]) == 0
    (call,) = served
    assert call["host"] == "127.0.0.1" and call["port"] == 8765
    out, err = capsys.readouterr()
    assert "http://127.0.0.1:8765/" in out and "warning" not in err
    assert not any(tmp_path.iterdir())  # nothing written before a game is played


def test_serve_warns_when_told_to_listen_beyond_this_machine(served, tmp_path: Path, capsys) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--records", str(tmp_path), "--agents", "random"]) == 0
    assert served[0]["host"] == "0.0.0.0"
    assert "warning: --host 0.0.0.0" in capsys.readouterr().err


def test_serve_offers_the_game_named_first(served, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    main(["serve", "--records", str(tmp_path), "--agents", "random", "--game", "age_of_industry"])
    client = TestClient(served[0]["app"], base_url="http://127.0.0.1:8765")
    assert client.get("/api/games").json()["default"] == "age_of_industry"


@pytest.mark.parametrize(("argv", "words"), [
    (["--port", "70000"], "--port 70000"),
    (["--max-games", "0"], "--max-games 0"),
    (["--agents", "nobody"], "nobody"),
    (["--agents", "no_such_module:agent"], "no_such_module:agent"),
    (["--agents", " , "], "--agents"),
])  # fmt: skip
def test_serve_refuses_bad_options_before_listening(served, tmp_path: Path, capsys, argv, words) -> None:
    assert main(["serve", "--records", str(tmp_path), *argv]) == 2
    assert served == [] and words in capsys.readouterr().err
