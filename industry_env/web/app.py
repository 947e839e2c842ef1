"""The web application (Starlette): the page, and the JSON routes it calls to play, watch and read arena results.

Routes (every answer JSON; a refused request is a 4xx whose ``{"error": ...}`` says what is wrong, the game as
it was):

==========================================  ===================================================================
``GET  /api/games``                         the games (``available_games()``), their options and agents offered
``POST /api/play``                          start a game: ``{"game", "options", "players", "seats"}`` (or ``"seat"``
                                            and ``"agents"``), ``"advisor"``, ``"budget"``, ``"spectators"``
``GET  /api/play/{id}``                     the game as the link ``id`` sees it (:mod:`.playing`)
``POST /api/play/{id}/move``                ``{"action", "ply"}``: play a choice; the agents reply
``POST /api/play/{id}/undo``                ``{"ply"}``: take the seat's last decision back (:mod:`.undo`)
``POST /api/play/{id}/advice``              ``{"ply", "simulations"}``: the advisor's answer (:mod:`.advisor`)
``POST /api/play/{id}/hand``                ``{"seat", "agent"}``: a seat handed to an agent, or taken back
``POST /api/play/{id}/show``                ``{"seat"}``: a hot-seat screen's hand-over
``POST /api/play/{id}/links``               the creator's: a seat's new link, or a spectators' link
``GET  /api/play/{id}/events``              the link's live-update stream (:mod:`.events`)
``GET  /api/play/{id}/lookup?key=``         a field or location, as the seat knows it
``GET  /api/play/{id}/record``              the record of the finished game (``industry-env replay`` plays it)
``POST /api/play/{id}/quit``                the creator's: save the game and close it
``POST /api/play/{id}/resume``              the game, brought back from its record if newer games pushed it out
``POST /api/resume``                        ``{"file": name}``: play on an unfinished game of the records folder
``GET  /api/records``                       the records folder's files (and those that cannot be read, with why)
``POST /api/replays``                       open a record: ``{"file": name}`` or ``{"record": text}``
``GET  /api/replays/{id}/{k}?view=``        the position after move k, in a view (a seat, public, full)
``POST /api/arena``                         an arena's results: ``{"file": name}`` or ``{"text": arena.json}``
==========================================  ===================================================================

Every request first passes :class:`.guard.Guard` (the Host and Origin checks); a body is read within
``body_timeout`` seconds, at most :data:`MAX_UPLOADS` large ones at a time, and any number in it beyond 20 digits
(or not finite) is refused naming its field.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import warmup
from ..records import MAX_RECORD_BYTES, RecordError, load
from ..registry import available_games, load_game
from .advisor import search_name
from .events import STREAM_S, Watchers
from .events import stream as live_stream
from .guard import Guard, Hosts
from .playing import ADVISORS_AT_ONCE, Tables, strength_lines
from .sessions import KEEP_S, LiveGame, RequestError, Store, read_record
from .table import Link

STATIC = Path(__file__).parent / "static"
REQUEST_LIMIT = 64 << 10  # a move or a new game is a few hundred bytes
UPLOAD_LIMIT = MAX_RECORD_BYTES  # a record or an arena.json uploaded
MAX_UPLOADS = 4  # large bodies (records, arena.json) received at once: at most 4 x 8 MiB held
BODY_TIMEOUT = 10.0  # seconds for a request's whole body to arrive
MAX_DIGITS = 20  # a number of a request (or of an uploaded arena.json) has at most 20 digits: 2**64 has 20
DEFAULT_AGENTS = ("random", "heuristic")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(text: str | None) -> int | None:
    """A number written with the digits 0-9 (no sign, no other script's digits), or None."""
    return int(text) if text and len(text) < 12 and text.isascii() and text.isdigit() else None


class _Refused:
    """A number of a JSON text that no field takes (too many digits, not finite), kept to be named by its place."""

    def __init__(self, text: str) -> None:
        self.text = text

    def why(self) -> str:
        digits = sum(c.isdigit() for c in self.text)
        if self.text.lstrip("-").isdigit():
            return f"a number of {digits:,} digits: too large (a field here takes at most {MAX_DIGITS} digits)"
        return f"{self.text[:40]} is not a finite number"


def _parse_int(text: str) -> int | _Refused:
    return int(text) if len(text) <= MAX_DIGITS + 1 and len(text.lstrip("-")) <= MAX_DIGITS else _Refused(text)


def _parse_float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused(text)


def _loads(text: str | bytes, what: str) -> Any:
    """JSON ``text``, every number checked: RequestError 400 naming the place of one that is too long or not finite
    (``players``, ``table[0].win_rate``), or why the text is not JSON; ``what`` names the text."""
    try:
        text = text.decode("utf-8") if isinstance(text, bytes) else text
        doc = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_Refused)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RequestError(400, f"{what} is not JSON: {exc}") from None
    except RecursionError:
        raise RequestError(400, f"{what}: its JSON is nested too deeply") from None
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:  # iteratively: a document as deep as the parser allows does not exhaust the recursion limit
        where, value = stack.pop()
        if isinstance(value, _Refused):
            shown = where if len(where) <= 100 else where[:97] + "..."
            raise RequestError(400, f"{what}: {shown or 'the value'}: {value.why()}")
        if isinstance(value, dict):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
    return doc


async def _body(request: Request, limit: int, timeout: float = BODY_TIMEOUT) -> dict[str, Any]:
    """The request's JSON object, read up to ``limit`` bytes within ``timeout`` seconds (413 naming the limit past
    it, 408 past the time, 400 if not JSON or a number in it is out of bounds)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RequestError(413, f"the request has {int(declared)} bytes; the limit is {limit} bytes")

    async def read() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise RequestError(413, f"the request has more than {limit} bytes; the limit is {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        raw = await asyncio.wait_for(read(), timeout)
    except TimeoutError:
        raise RequestError(408, f"the request's body did not arrive within {timeout:g} s") from None
    except ClientDisconnect:
        raise RequestError(400, "the request's body was cut short (the client went away)") from None
    doc = _loads(raw, "the request")
    if not isinstance(doc, dict):
        raise RequestError(400, f"the request must be a JSON object, not {type(doc).__name__}")
    return doc


class Server(Tables):
    """The routes' state: the store of games and records, the agents offered per game, the live-update streams."""

    def __init__(self, records: Path, agents: Sequence[str] = DEFAULT_AGENTS, max_games: int = 32,
                 game: str | None = None, keep_s: float = KEEP_S) -> None:  # fmt: skip
        from ..agents import agent_names, make_agent

        if game is not None and game not in available_games():
            raise ValueError(f"--game {game}: not a listed game ({', '.join(available_games())})")
        self.default_game = game or available_games()[0]
        self.store = Store(records, max_games=max_games, keep_s=keep_s)
        self.resuming = threading.Lock()  # one game brought back from its record at a time
        self.watchers = Watchers()
        self.strength = strength_lines()
        self.advising = threading.BoundedSemaphore(ADVISORS_AT_ONCE)
        self.agents = list(dict.fromkeys(agents))
        # per game, the agents of --agents that play it: each is built once now, so that a name that cannot be
        # (a typing slip, a module:attr that does not import, another game's agent) is known before any request
        self.offered: dict[str, list[str]] = {}
        problems = []
        for g in available_games():
            self.offered[g] = []
            with warmup.compile_step(g, f"serving {load_game(g).name}"):  # one notice, only if one compiles
                for name in self.agents:
                    if name not in agent_names(g) and ":" not in name:
                        continue
                    try:
                        # one move now: a compiled agent loads its code here (seconds), not at a person's first move
                        spec = load_game(g)
                        make_agent(name, seed=0, game=g).act_game(spec.reference(spec.min_players, seed=0))
                    except (ValueError, ImportError, AttributeError, TypeError) as exc:
                        problems.append(f"{name} for {load_game(g).name}: {exc}")
                        continue
                    self.offered[g].append(name)
        unknown = [a for a in self.agents if not any(a in names for names in self.offered.values())]
        if unknown:
            known = sorted({a for g in available_games() for a in agent_names(g)})
            why = "; ".join(problems) or f"known agents: {', '.join(known)}, or module:attr"
            raise ValueError(f"--agents: {', '.join(unknown)} play none of the games ({why})")
        for g, names in self.offered.items():
            if not names:
                raise ValueError(f"--agents {','.join(self.agents)}: none of them plays {load_game(g).name} (its "
                                 f"agents: {', '.join(agent_names(g))})")  # fmt: skip

    # ------------------------------------------------------------------------------------------ games
    def games(self) -> dict[str, Any]:
        out = []
        for g in available_games():
            spec = load_game(g)
            values: dict[str, list[Any]] = {}
            for variant in [{}, *spec.variants()]:
                for name, value in spec.options_to_json(spec.check_options(variant)).items():
                    values.setdefault(name, [])
                    if value not in values[name]:
                        values[name].append(value)
            options = [{"name": o.name, "doc": o.doc, "default": values[o.name][0], "choices": values[o.name]}
                       for o in spec.options if not o.data]  # fmt: skip
            out.append({"id": g, "name": spec.name, "citation": spec.citation, "min_players": spec.min_players,
                        "max_players": spec.max_players, "default_players": spec.default_players,
                        "hidden_information": spec.hidden_information,
                        "private_information": spec.hidden_information and spec.private_information, "options": options,
                        "agents": self.offered[g], "advisor": search_name(spec) or ("heuristic" if "heuristic" in
                        spec.agents else None), "searches": [a for a in self.offered[g] if self._searches(g, a)],
                        "strength": {a: line["line"] for a, line in self.strength.get(g, {}).items()
                                     if a in self.offered[g]}})  # fmt: skip
        return {"games": out, "default": self.default_game}

    # ------------------------------------------------------------------------------------------ watching
    def open_record(self, doc: dict[str, Any]) -> dict[str, Any]:
        if "file" in doc:
            path = self.store.record_path(doc["file"])
            try:
                record = load(path)  # an unfinished game's seed from its seed file: the server's own, never sent
            except RecordError as exc:
                raise RequestError(400, str(exc).replace(str(path), path.name)) from None
            source = path.name
        elif isinstance(doc.get("record"), str):
            source = str(doc.get("name") or "uploaded record")[:80]
            record = read_record(doc["record"], source)
        else:
            raise RequestError(400, "give {'file': a name of the records folder} or {'record': a record's text}")
        replay = self.store.open_replay(record, source)
        spec = replay.spec
        views: list[Any] = ["full"]
        if spec.hidden_information:
            # an unfinished game's hands are shown to no one: whoever reaches the server may open its records, and a
            # person at its table would see another seat's hand
            views = ["public", *range(record.num_players), "full"] if replay.finished else ["public"]
        return {"id": replay.id, "source": source, "game": spec.id, "game_name": spec.name, "describe":
                record.describe(), "players": record.num_players, "moves": len(record.actions),
                "movers": replay.players, "names": replay.names, "finished": replay.finished, "views": views,
                "hidden_information": spec.hidden_information}  # fmt: skip

    def at_move(self, replay_id: str, k_text: str, view_text: str | None) -> dict[str, Any]:
        replay = self.store.replay(replay_id)
        k = _number(k_text)
        if k is None or k > len(replay.record.actions):
            raise RequestError(400, f"move {k_text!r}: a number from 0 (the opening) to {len(replay.record.actions)}")
        spec = replay.spec
        view = view_text or ("public" if spec.hidden_information else "full")
        seat: int | None = None
        number = _number(view)
        if number is not None and number < replay.record.num_players:
            seat = number
            _seat_view_allowed(replay)
        elif view == "full":
            if spec.hidden_information and not replay.finished:
                raise RequestError(403, "the full view (every hand) is shown only for records of finished games")
        elif view != "public":
            raise RequestError(400, f"view={view!r}: 'public', 'full' or a seat from 0 to "
                                    f"{replay.record.num_players - 1}")  # fmt: skip
        with replay.lock:
            game = replay.position(k)
            picture = replay.view.picture(game, seat)
            full = view == "full" and spec.hidden_information
            text = replay.view.text(game, seat, full=full) if picture is None or full else None
            out = {"move": k, "moves": len(replay.record.actions), "view": view,
                   "player": replay.players[k - 1] if k else None, "description": replay.names[k - 1] if k else
                   "the opening position", "decision": replay.view.decision(game), "picture": picture, "text": text,
                   "scores": [int(v) for v in game.scores()], "places": replay.view.places(game),
                   "final": replay.view.final(game) if game.is_over else None}  # fmt: skip
            return out

    def replay_lookup(self, replay_id: str, k_text: str, view_text: str, key: str) -> dict[str, Any]:
        replay = self.store.replay(replay_id)
        k = _number(k_text)
        if k is None or k > len(replay.record.actions):
            raise RequestError(400, f"move {k_text!r}: a number from 0 to {len(replay.record.actions)}")
        seat = _number(view_text)
        seat = seat if seat is not None and seat < replay.record.num_players else None
        if seat is not None:
            _seat_view_allowed(replay)
        with replay.lock:
            return {"key": key, "text": self._lookup(replay.view, replay.position(k), key, seat)}

    # ------------------------------------------------------------------------------------------ arena
    def arena(self, doc: dict[str, Any]) -> dict[str, Any]:
        if "file" in doc:
            path = self.store.record_path(doc["file"])
            if path.stat().st_size > UPLOAD_LIMIT:
                raise RequestError(413, f"{path.name}: more than {UPLOAD_LIMIT} bytes")
            text, source = path.read_text(encoding="utf-8", errors="replace"), path.name
        elif isinstance(doc.get("text"), str):
            text, source = doc["text"], str(doc.get("name") or "arena.json")[:80]
        else:
            raise RequestError(400, "give {'file': a name of the records folder} or {'text': an arena.json's text}")
        results = _loads(text, source)
        settings = results.get("arena") if isinstance(results, dict) else None
        table = results.get("table") if isinstance(results, dict) else None
        if not isinstance(settings, dict) or not isinstance(table, list) or not table:
            raise RequestError(400, f"{source}: not an arena's results ('industry-env arena' writes arena.json with "
                                    f"'arena' and 'table')")  # fmt: skip
        need = ("agent", "games", "wins", "win_rate", "win_ci_low", "win_ci_high")
        rows = []
        for i, row in enumerate(table):
            if not isinstance(row, dict) or any(k not in row for k in need):
                raise RequestError(400, f"{source}: table row {i}: needs {', '.join(need)}")
            bad = [k for k, v in row.items() if k != "agent" and not (isinstance(v, (int, float)) and
                   not isinstance(v, bool) and math.isfinite(v))]  # fmt: skip
            if bad or not isinstance(row["agent"], str):
                raise RequestError(400, f"{source}: table row {i}: {', '.join(bad) or 'agent'} is not a number"
                                        f"{'' if bad else ' (agent: a name)'}")  # fmt: skip
            rows.append(row)
        game = settings.get("game")
        name = load_game(game).name if game in available_games(include_hidden=True) else str(game)
        shown = {k: settings[k] for k in ("game", "options", "agents", "num_players", "games", "seed",
                                          "elapsed_seconds") if k in settings}  # fmt: skip
        return {"source": source, "title": f"{name}: {settings.get('games', '?')} games, "
                f"{settings.get('num_players', '?')} players", "settings": shown, "columns": list(rows[0]),
                "rows": rows, "fair_share": 1 / settings["num_players"] if _is_int(settings.get("num_players"))
                and settings["num_players"] > 0 else None}  # fmt: skip


def create_app(records: Path, agents: Sequence[str] = DEFAULT_AGENTS, max_games: int = 32,
               game: str | None = None, host: str = "127.0.0.1", allow_hosts: Sequence[str] = (),
               keep_s: float = KEEP_S, body_timeout: float = BODY_TIMEOUT,
               stream_s: float = STREAM_S) -> Starlette:  # fmt: skip
    """The application: the page and its routes, games kept in memory, records read from and written to
    ``records``; ``agents``: the agents a request may name (``module:attr`` ones loaded here, never from a
    request); ``host`` (the address it listens on) and ``allow_hosts``: the names it answers to besides the
    loopback ones (:mod:`.guard`); ``keep_s``: a game used within that many seconds is never closed for a new one;
    ``body_timeout``: seconds for a request's body to arrive; ``stream_s``: seconds a live-update stream stays open
    (the browser opens a new one)."""
    server = Server(records, agents, max_games, game, keep_s)
    uploads = [0]  # large bodies being received now (the event loop's thread only)

    def answer(call: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                result = await call(request)
                return result if isinstance(result, Response) else JSONResponse(result)
            except RequestError as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)
            except RecordError as exc:
                return JSONResponse({"error": str(exc)}, status_code=422)
            except Exception as exc:  # an agent's or the program's error: said, not a bare 500 page
                return JSONResponse({"error": f"the server failed: {type(exc).__name__}: {exc}"}, status_code=500)

        return endpoint

    async def index(request: Request) -> Response:
        # the page runs only its own script and style, and no other site may frame it
        policy = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store",
                                                            "Content-Security-Policy": policy})  # fmt: skip

    async def games(request: Request) -> Any:
        return server.games()

    async def body(request: Request) -> dict[str, Any]:
        return await _body(request, REQUEST_LIMIT, body_timeout)

    async def upload(request: Request) -> dict[str, Any]:
        if uploads[0] >= MAX_UPLOADS:
            raise RequestError(503, f"{MAX_UPLOADS} uploads are being received already: try again in a moment")
        uploads[0] += 1
        try:
            return await _body(request, UPLOAD_LIMIT, body_timeout)
        finally:
            uploads[0] -= 1

    async def entry(request: Request) -> tuple[LiveGame, Link, str]:
        token = request.path_params["game_id"]
        live, link = await run_in_threadpool(server.entry, token)  # may replay a record
        return live, link, token

    async def start(request: Request) -> Any:
        doc = await body(request)

        def made() -> dict[str, Any]:
            live = server.start(doc)
            return _locked(live, lambda g: server.state(g, g.links[0], g.id))

        return await run_in_threadpool(made)

    async def resume_game(request: Request) -> Any:
        doc = await body(request)

        def resumed() -> dict[str, Any]:
            live, link, token = server.resume_listed(doc.get("file"))
            return _locked(live, lambda g: server.state(g, link, token))

        return await run_in_threadpool(resumed)

    async def state(request: Request) -> Any:
        live, link, token = await entry(request)
        return await run_in_threadpool(lambda: _locked(live, lambda g: server.state(g, link, token)))

    def change(method: Any) -> Any:
        async def call(request: Request) -> Any:
            live, link, token = await entry(request)
            doc = await body(request)
            return await run_in_threadpool(method, live, link, token, doc)

        return call

    async def advice(request: Request) -> Any:
        live, link, _ = await entry(request)
        doc = await body(request)
        return await run_in_threadpool(server.advice, live, link, doc)

    async def lookup(request: Request) -> Any:
        live, link, _ = await entry(request)
        return await run_in_threadpool(server.lookup, live, link, request.query_params.get("key", ""))

    async def events(request: Request) -> Any:
        live, _, _ = await entry(request)
        server.watchers.check(live.id)
        stream = live_stream(server.watchers, live.id, lambda: live.version, lambda: live.closed, stream_s)
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})  # fmt: skip

    def finished_record(live: LiveGame) -> Any:
        with live.lock:
            if not live.game.is_over:
                raise RequestError(409, "the record is given once the game is over (it holds the seed, which "
                                        "tells every hidden card and draw to come)")  # fmt: skip
            return json.loads(live.record().to_json())

    async def record(request: Request) -> Any:
        live, _, _ = await entry(request)
        return await run_in_threadpool(finished_record, live)  # the lock may be held by a move in progress

    async def quit_game(request: Request) -> Any:
        live = None
        with contextlib.suppress(RequestError):
            live = server.store.game(request.path_params["game_id"])
        name = await run_in_threadpool(server.store.close_game, request.path_params["game_id"])
        if live is not None:
            server.watchers.notify(live.id)  # its pages' streams end: the table is closed
        return {"closed": True, "record_file": name}

    async def records(request: Request) -> Any:
        files, skipped = await run_in_threadpool(server.store.record_files)  # reading files: off the event loop
        return {"folder": str(server.store.records), "files": files, "skipped": skipped}

    async def open_replay(request: Request) -> Any:
        doc = await upload(request)
        return await run_in_threadpool(server.open_record, doc)

    async def at_move(request: Request) -> Any:
        p, q = request.path_params, request.query_params
        return await run_in_threadpool(server.at_move, p["replay_id"], p["k"], q.get("view"))

    async def replay_lookup(request: Request) -> Any:
        p, q = request.path_params, request.query_params
        return await run_in_threadpool(server.replay_lookup, p["replay_id"], p["k"], q.get("view", "public"),
                                       q.get("key", ""))  # fmt: skip

    async def arena(request: Request) -> Any:
        doc = await upload(request)
        return await run_in_threadpool(server.arena, doc)

    routes = [
        Route("/", index),
        Route("/api/games", answer(games)),
        Route("/api/play", answer(start), methods=["POST"]),
        Route("/api/play/{game_id}", answer(state)),
        Route("/api/play/{game_id}/move", answer(change(server.move)), methods=["POST"]),
        Route("/api/play/{game_id}/undo", answer(change(server.undo)), methods=["POST"]),
        Route("/api/play/{game_id}/hand", answer(change(server.hand)), methods=["POST"]),
        Route("/api/play/{game_id}/show", answer(change(server.show)), methods=["POST"]),
        Route("/api/play/{game_id}/links", answer(change(server.new_link)), methods=["POST"]),
        Route("/api/play/{game_id}/advice", answer(advice), methods=["POST"]),
        Route("/api/play/{game_id}/events", answer(events)),
        Route("/api/play/{game_id}/lookup", answer(lookup)),
        Route("/api/play/{game_id}/record", answer(record)),
        Route("/api/play/{game_id}/quit", answer(quit_game), methods=["POST"]),
        Route("/api/play/{game_id}/resume", answer(state), methods=["POST"]),
        Route("/api/resume", answer(resume_game), methods=["POST"]),
        Route("/api/records", answer(records)),
        Route("/api/replays", answer(open_replay), methods=["POST"]),
        Route("/api/replays/{replay_id}/{k}", answer(at_move)),
        Route("/api/replays/{replay_id}/{k}/lookup", answer(replay_lookup)),
        Route("/api/arena", answer(arena), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "not found")
        return JSONResponse({"error": f"{request.method} {request.url.path}: {detail}"}, status_code=status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        server.store.close_all()  # the server stops: every unfinished game is saved

    guard = Middleware(Guard, hosts=Hosts(host, allow_hosts))
    app = Starlette(routes=routes, middleware=[guard], exception_handlers={404: not_found, 405: not_found},
                    lifespan=lifespan)  # fmt: skip
    app.state.server = server
    return app


def _seat_view_allowed(replay: Any) -> None:
    """403 for a seat's view of an unfinished game with hidden information: it would show that seat's hand to
    whoever opens the record (another person at its table too)."""
    if replay.spec.hidden_information and not replay.finished:
        raise RequestError(403, "a seat's view of an unfinished game is shown to no one (it would show that seat's "
                                "hand to whoever opens the record, another person at its table too): watch the "
                                "public view, or play on by the seat's link")  # fmt: skip


def _locked(live: LiveGame, call: Any) -> Any:
    with live.lock:
        return call(live)
