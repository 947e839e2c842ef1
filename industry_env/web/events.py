"""Live updates: a stream of server-sent events per link, saying only that its game changed.

Each open page of a table holds one stream (``GET /api/play/{link}/events``, ``text/event-stream``). The stream
carries nothing but the game's version, a number that grows with every change (a move, a take-back, a seat handed
to an agent or taken back): ``event: version`` / ``data: {"version": N}``. The page then asks for its own view, as
any request of its link does, so no hidden information ever travels on a stream, and a stream tells every link the
same. A stream ends when its game is closed (``event: closed``) and after :data:`STREAM_S` seconds (the browser
opens it again by itself); between changes a comment line every :data:`KEEPALIVE_S` seconds keeps the connection
alive. Open streams are bounded, per game and in all (503 past either), below uvicorn's connection limit: a stream
holds a connection for as long as it is open, and no request body (so it is never counted as an upload).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable

from .sessions import RequestError

STREAM_S = 300.0  # a stream ends after 5 minutes: the browser opens a new one (EventSource's own reconnection)
KEEPALIVE_S = 15.0
MAX_PER_GAME = 16  # five seats' pages, a hot-seat screen and spectators
MAX_STREAMS = 64  # in all: uvicorn answers 503 past 100 connections (guard.MAX_CONNECTIONS)


class Watchers:
    """The open streams of each game (by the game's key) and the wake-up of each; notified from any thread."""

    def __init__(self, per_game: int = MAX_PER_GAME, total: int = MAX_STREAMS) -> None:
        self.per_game, self.total = per_game, total
        self._streams: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._lock = threading.Lock()

    def count(self, key: str | None = None) -> int:
        """Streams open (of game ``key``, or in all)."""
        with self._lock:
            return len(self._streams.get(key, ())) if key is not None else sum(map(len, self._streams.values()))

    def check(self, key: str) -> None:
        """503 if a new stream of game ``key`` would pass the limits (checked before a stream's answer starts)."""
        with self._lock:
            if sum(map(len, self._streams.values())) >= self.total:
                raise RequestError(503, f"{self.total} live-update streams are open on this server, its most: the "
                                        f"page will try again by itself")  # fmt: skip
            if len(self._streams.get(key, ())) >= self.per_game:
                raise RequestError(503, f"{self.per_game} live-update streams are open on this game, its most (a "
                                        f"page per seat and spectators): close a page of it")  # fmt: skip

    def open(self, key: str) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        """A new stream's wake-up, in the running event loop (the limits are :meth:`check`'s)."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._streams.setdefault(key, set()).add(entry)
        return entry

    def close(self, key: str, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self._lock:
            mine = self._streams.get(key)
            if mine is not None:
                mine.discard(entry)
                if not mine:
                    del self._streams[key]

    def notify(self, key: str) -> None:
        """Wake every stream of game ``key`` (from any thread)."""
        with self._lock:
            entries = list(self._streams.get(key, ()))
        for loop, event in entries:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # its loop has closed: the stream is gone
                pass


def sse(event: str, data: dict) -> str:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


async def stream(watchers: Watchers, key: str, version: Callable[[], int], closed: Callable[[], bool],
                 stream_s: float = STREAM_S, keepalive_s: float = KEEPALIVE_S) -> AsyncIterator[str]:  # fmt: skip
    """The events of game ``key``'s stream: its version now, then each new one; ``closed`` ends it. The caller has
    checked the limits (``watchers.check``) before answering."""
    entry = watchers.open(key)
    loop, wake = entry
    try:
        yield "retry: 1000\n\n"
        last = None
        end = loop.time() + stream_s
        while True:
            wake.clear()  # before reading: a change made after this wakes the wait below
            now = version()
            if now != last:
                yield sse("version", {"version": now})
                last = now
            if closed():
                yield sse("closed", {})
                return
            left = end - loop.time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(wake.wait(), min(keepalive_s, left))
            except TimeoutError:
                yield ": still here\n\n"
    finally:
        watchers.close(key, entry)


__all__ = ["KEEPALIVE_S", "MAX_PER_GAME", "MAX_STREAMS", "STREAM_S", "Watchers", "sse", "stream"]
