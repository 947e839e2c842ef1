"""``industry-env serve`` on the command line: it binds this machine by default and warns of another address,
prints where it listens, and refuses bad options and agents by name before anything listens."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
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


def test_serve_answers_only_its_names_and_warns_of_a_records_folder_others_can_read(served, tmp_path, capsys) -> None:
    from starlette.testclient import TestClient

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    assert main(["serve", "--records", str(shared), "--agents", "random", "--allow-host", "mybox.lan"]) == 0
    err = capsys.readouterr().err
    assert f"the records folder {shared} can be read by other users" in err and "chmod 700" in err
    (call,) = served
    assert TestClient(call["app"], base_url="http://mybox.lan:8765").get("/api/games").status_code == 200
    assert TestClient(call["app"], base_url="http://localhost:8765").get("/api/games").status_code == 200
    assert TestClient(call["app"], base_url="http://rebind.example:8765").get("/api/games").status_code == 400
    # uvicorn: no proxy's headers believed, connections capped, a half-sent head dropped
    assert call["proxy_headers"] is False and call["limit_concurrency"] == 100
    assert call["http"].__name__ == "HeadTimeoutProtocol"


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


@contextlib.contextmanager
def running(app: Any, head_timeout: float) -> Iterator[int]:
    """``app`` served by uvicorn with serve's options on a free loopback port, in a thread; the port."""
    from industry_env.web.guard import uvicorn_options

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, **uvicorn_options("127.0.0.1", port, head_timeout=head_timeout)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def _answer_then_close(s: socket.socket, deadline: float) -> tuple[bytes, bool]:
    """What the server sends on ``s`` until it closes the connection or ``deadline``; whether it closed it."""
    got = b""
    while (left := deadline - time.monotonic()) > 0:
        s.settimeout(left)
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            return got, True
        if not chunk:
            return got, True
        got += chunk
    return got, False


def _half_sent(port: int, starts: list[bytes], count: int) -> list[tuple[bytes, bool]]:
    """``count`` connections, each sending the next of ``starts`` and no more; what each got back, and whether
    the server closed it, within 8 s."""
    conns = []
    for k in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(starts[k % len(starts)])
        conns.append(s)
    t0 = time.monotonic()
    answers = [_answer_then_close(s, t0 + 8) for s in conns]
    for s in conns:
        s.close()
    return answers


def test_half_sent_requests_are_timed_out_and_hold_no_connection(tmp_path: Path) -> None:
    """Half-sent bodies were never timed out (300 connections still open after 20 s, each able to hold 8 MiB), and
    uvicorn waits for ever on a half-sent head: each connection is closed once its time is up (or at once past the
    cap on uploads and connections), at most 4 uploads are held at once, and the server answers as before."""
    from industry_env.web import create_app

    app = create_app(tmp_path / "records", ["random"], body_timeout=1.0)
    head = b"Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
    upload = b"POST /api/replays HTTP/1.1\r\n" + head + b"Content-Length: 8000000\r\n\r\n{\"record\": \""
    move = b"POST /api/play HTTP/1.1\r\n" + head + b"Content-Length: 60000\r\n\r\n{\"game\": "
    starts = [upload, move, b"GET /api/games HTTP/1.1\r\nHost: 127.", b""]  # a half-sent head; nothing at all
    with running(app, head_timeout=1.0) as port:
        answers = _half_sent(port, starts, 40)  # fewer than uvicorn's cap on connections
        assert [k for k, (_, closed) in enumerate(answers) if not closed] == [], "connections still open 8 s later"
        status = [a.split(b" ", 2)[1].decode() if a else None for a, _ in answers]
        assert status[1::4] == ["408"] * 10  # a body that does not arrive: refused after 1 s, connection closed
        assert all(b"did not arrive within 1 s" in a for a, _ in answers[1::4])
        uploads = status[0::4]
        assert set(uploads) == {"408", "503"} and uploads.count("408") <= 4  # the rest refused at once
        assert status[2::4] == status[3::4] == [None] * 10  # a half-sent head or none: dropped, unanswered
        flood = _half_sent(port, [upload, move, b"GET /api/games HTTP/1.1\r\nHost: 127."], 300)
        assert [k for k, (_, closed) in enumerate(flood) if not closed] == [], "connections still open 8 s later"
        with socket.create_connection(("127.0.0.1", port)) as s:  # and it serves as before
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer, closed = _answer_then_close(s, time.monotonic() + 10)
        assert answer.startswith(b"HTTP/1.1 200") and b'"games"' in answer
