"""A table of several people: who sits where, and the links through which each person plays.

Whoever starts a game chooses, seat by seat, who plays it: ``"you"`` (the creator: one seat, or several on one
screen, *hot-seat*), ``"person"`` (another person, who gets a link of their own) or an agent's name. Every person's
seat is reached through a **link**: an unguessable token (``secrets.token_urlsafe``, 144 random bits) that the page
carries in its address's fragment (``/#t=TOKEN``, which a browser never sends to a server) and puts in the path of
every request it makes (``/api/play/TOKEN``). A link is a bearer secret: whoever holds it plays its seats. It names
the seats it plays (one; several for a hot-seat screen) or none (a **spectator**'s, who sees the public view, as
many decisions behind as the link says). The creator's link also lists the others (the creator hands them out),
and it alone closes the table or issues a seat a new link; no other link's answer ever holds another link.

The server keeps the tokens themselves in memory only. What it writes beside an unfinished game's record (its
private seed file, :func:`industry_env.records.save`) is each link's SHA-256 digest: a record file alone, or its
seed file, grants no seat; a link presented after the server restarted is found by its digest and its game played
on from the record.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

TOKEN_BYTES = 18  # 144 random bits: as many as a live game's id always had
MAX_DELAY = 500  # decisions a spectator's link may lag behind the game
MAX_LINKS = 32  # links of one table (a seat's new link replaces its old one; spectators' links add up to this)


def new_token() -> str:
    """A new link's token: unguessable, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """The SHA-256 (hex) of a token: how the server finds a link, and all it writes of one."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Link:
    """One link to a table: the seats it plays (none: a spectator's), the delay of a spectator's view, whether it is
    the creator's; ``token`` only while the server that made it runs (None once read back from a seed file)."""

    digest: str
    seats: tuple[int, ...]
    delay: int = 0
    creator: bool = False
    token: str | None = field(default=None, repr=False)
    #: a hot-seat screen: the seat it is seen from now; in a game of private hands, None between two of its seats'
    #: turns (the hand-over screen: no hand shown until the next person asks for theirs)
    shown: int | None = None

    @property
    def spectator(self) -> bool:
        return not self.seats

    @property
    def hotseat(self) -> bool:
        return len(self.seats) > 1

    @classmethod
    def made(cls, seats: tuple[int, ...], delay: int = 0, creator: bool = False) -> Link:
        """A new link with a new token."""
        token = new_token()
        return cls(digest(token), tuple(seats), delay, creator, token, shown=seats[0] if seats else None)

    def to_doc(self) -> dict[str, Any]:
        """What the seed file keeps of it (no token)."""
        return {"sha256": self.digest, "seats": list(self.seats), "delay": self.delay, "creator": self.creator}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def links_from_doc(doc: Any, num_players: int, where: str) -> list[Link]:
    """The links kept in a seed file's ``table`` (ValueError naming ``where`` and the entry if one is malformed)."""
    if not isinstance(doc, list) or len(doc) > MAX_LINKS:
        raise ValueError(f"{where}: links must be a list of at most {MAX_LINKS} links")
    links = []
    for i, entry in enumerate(doc):
        ok = isinstance(entry, dict) and isinstance(entry.get("sha256"), str) and len(entry["sha256"]) == 64
        seats = entry.get("seats") if ok else None
        ok = ok and isinstance(seats, list) and all(_whole(s) and 0 <= s < num_players for s in seats)
        ok = ok and len(set(seats)) == len(seats) and _whole(entry.get("delay", 0))
        ok = ok and 0 <= entry.get("delay", 0) <= MAX_DELAY and isinstance(entry.get("creator", False), bool)
        if not ok:
            raise ValueError(f"{where}: links[{i}] is not a link ({{sha256, seats, delay, creator}})")
        links.append(Link(entry["sha256"], tuple(seats), entry.get("delay", 0), entry.get("creator", False),
                          shown=seats[0] if seats else None))  # fmt: skip
    return links


__all__ = ["MAX_DELAY", "MAX_LINKS", "Link", "digest", "links_from_doc", "new_token"]
