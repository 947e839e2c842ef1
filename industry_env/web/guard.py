"""What the server answers, and to whom: the checks every request passes before a route sees it, and the
connection limits of uvicorn.

- **Host.** Only the names the server is reached by: the loopback names (``localhost``, ``127.0.0.1``, ``[::1]``,
  any port), the ``--host`` it listens on and each ``--allow-host``; listening on every address (``0.0.0.0``,
  ``::``), also any address written as numbers and the machine's own name. A page of another site that points
  its own name at this machine (DNS rebinding) is answered 400, so it can neither read nor play.
- **Origin.** A request that changes something (POST, PUT, PATCH, DELETE) must come from the server's own page:
  an ``Origin`` other than the server's own, or a browser's ``Sec-Fetch-Site: cross-site``/``same-site``, is 403;
  its body must be ``application/json`` (415), which a page of another site cannot send without the server's
  leave (a CORS preflight this server never grants).
- **Connections.** A request whose head does not arrive within :data:`HEAD_TIMEOUT` seconds is dropped (uvicorn
  waits for ever); a refusal sent before the request's body arrived whole closes the connection, so a half-sent
  body holds nothing; uvicorn answers 503 past :data:`MAX_CONNECTIONS` connections. The body's own time and size
  limits are the routes' (``app.py``).
"""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.parse
from collections.abc import Sequence
from typing import Any

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
HEAD_TIMEOUT = 10.0  # seconds for a request's line and headers to arrive, from the connection or the last answer
MAX_CONNECTIONS = 100  # open connections and requests in progress, past which uvicorn answers 503
KEEP_ALIVE = 5  # seconds an idle connection is kept between requests
# seconds the server waits, when told to stop, for the answers in progress (a page's live-update stream lasts minutes:
# without a bound uvicorn waited for every open page, and a second Ctrl-C skipped saving the games)
GRACEFUL_S = 3.0
# sent with every answer: no other origin may embed or sniff one
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"cross-origin-resource-policy", b"same-origin")]


def _name(host: str) -> str:
    """A host name as compared: lower case, no brackets, no final dot."""
    return host.strip().strip("[]").rstrip(".").lower()


def _split_host(header: str) -> tuple[str, int | None] | None:
    """(name, port) of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), None if it is not one."""
    try:
        parts = urllib.parse.urlsplit(f"http://{header}")
        if not parts.hostname or parts.username is not None or parts.path or parts.query or parts.fragment:
            return None
        return _name(parts.hostname), parts.port
    except ValueError:
        return None


def _is_address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


class Hosts:
    """The names this server answers to (module docstring)."""

    def __init__(self, host: str = "127.0.0.1", allow: Sequence[str] = ()) -> None:
        self.bound = _name(host)
        self.every_address = self.bound in WILDCARDS
        self.names = {*LOOPBACK_NAMES, *(_name(a) for a in allow if a.strip())}
        if not self.every_address:
            self.names.add(self.bound)
        else:
            self.names.add(_name(socket.gethostname()))

    def allows(self, name: str) -> bool:
        """Whether a request for host ``name`` (as :func:`_name` writes it) is answered."""
        if name in self.names:
            return True
        address = _is_address(name)
        if address is None:
            return False
        # a page can only be at an address written as numbers by being there: no name to rebind
        return address.is_loopback or self.every_address

    def shown(self) -> str:
        names = sorted(self.names - {"::1"}) + ["[::1]"]
        return ", ".join(names) + (", or any address in numbers" if self.every_address else "")


def _origin(text: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an ``Origin`` or a base address, the scheme's port when none is written."""
    try:
        parts = urllib.parse.urlsplit(text.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return None
        return parts.scheme, _name(parts.hostname), parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None


class Guard:
    """ASGI middleware: the Host and Origin checks (module docstring), answered as the routes answer, in JSON;
    a connection whose request body has not arrived whole when the answer starts is closed after it."""

    def __init__(self, app: Any, hosts: Hosts) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        for key, value in scope["headers"]:
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        length = headers.get("content-length", "0").strip()
        body_due = "transfer-encoding" in headers or (length != "0" and length != "")
        received = [not body_due]

        async def receive_noted() -> Any:
            message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                received[0] = True
            return message

        async def send_guarded(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                extra = list(HEADERS)
                if not received[0]:  # the body is still coming: nothing more is read on this connection
                    extra.append((b"connection", b"close"))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        refusal = self.refusal(scope, headers)
        if refusal is not None:
            status, error = refusal
            body = json.dumps({"error": error}).encode("utf-8")
            await send_guarded({"type": "http.response.start", "status": status,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})  # fmt: skip
            await send_guarded({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive_noted, send_guarded)

    def refusal(self, scope: dict[str, Any], headers: dict[str, str]) -> tuple[int, str] | None:
        """(status, message) for a request refused here, else None."""
        host = headers.get("host")
        if host is None:
            return 400, "the request names no host (a Host header): this server answers only to its own names"
        split = _split_host(host)
        if split is None or not self.hosts.allows(split[0]):
            return 400, (f"Host {host[:100]!r}: this server answers only to the names it is reached by "
                         f"({self.hosts.shown()}), so that a page of another site cannot reach it under a name of "
                         f"its own (DNS rebinding); start it with --allow-host NAME to answer to another "
                         f"name")  # fmt: skip
        if scope["method"] not in UNSAFE:
            return None
        origin, site = headers.get("origin"), headers.get("sec-fetch-site", "").strip().lower()
        if origin is not None:
            own = _origin(f"{scope.get('scheme', 'http')}://{host}")
            if _origin(origin) is None or _origin(origin) != own:
                return 403, (f"Origin {origin[:100]!r}: only this server's own page ({own[0]}://{host}) may start, "
                             f"play or close a game or open a file here")  # fmt: skip
        elif site in ("cross-site", "same-site"):
            return 403, (f"a request from a page of another site (Sec-Fetch-Site: {site}): only this server's own "
                         f"page may start, play or close a game or open a file here")  # fmt: skip
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, (f"Content-Type {kind or 'missing'!r}: a request that changes something sends a JSON object "
                         f"as application/json")  # fmt: skip
        return None


def protocol(head_timeout: float = HEAD_TIMEOUT) -> type:
    """uvicorn's h11 protocol, dropping a connection whose request head has not arrived within ``head_timeout``
    seconds of the connection or of the last answer (uvicorn's own waits for ever, so a client sending its headers
    a byte at a time kept its connection, and one of uvicorn's ``limit_concurrency`` places, indefinitely)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadTimeoutProtocol(H11Protocol):
        _head_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(head_timeout, self._head_late)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if (self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()

        def handle_events(self) -> None:
            before = self.cycle
            super().handle_events()
            if self.cycle is not before:  # a request's head arrived whole: the routes time its body
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeadTimeoutProtocol


def uvicorn_options(host: str, port: int, head_timeout: float = HEAD_TIMEOUT) -> dict[str, Any]:
    """The options ``industry-env serve`` runs uvicorn with (``uvicorn.run(app, **options)``)."""
    return {"host": host, "port": port, "log_level": "warning", "http": protocol(head_timeout), "proxy_headers": False,
            "server_header": False, "limit_concurrency": MAX_CONNECTIONS, "timeout_keep_alive": KEEP_ALIVE,
            "timeout_graceful_shutdown": GRACEFUL_S, "lifespan": "on"}  # fmt: skip
