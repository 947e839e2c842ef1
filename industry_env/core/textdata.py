"""Reading JSON and TOML that a user hands us (records, saved positions, board and map files, configs), safely.

The standard parsers fail on hostile input with errors that name neither the file nor the problem: nesting
deeper than the interpreter's stack gives ``RecursionError``, a number of more than 4,300 digits a bare
``ValueError`` (CPython's limit on converting long digit strings), and a huge file is read whole into memory.
The functions here turn each of these into a ``ValueError`` whose message says what is wrong; callers prefix
the file's name (or raise their own error class with it). :func:`read_text` caps how much is read.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any


class TextDataError(ValueError):
    """Text that cannot be read as the data it should hold; the message says why (callers add where)."""


def _digits_limit() -> int:
    import sys

    return sys.get_int_max_str_digits() or 4300


def _why(exc: BaseException, kind: str) -> str:
    if isinstance(exc, RecursionError):
        return f"not valid {kind}: nested too deep"
    text = str(exc)
    if "integer string conversion" in text or "Exceeds the limit" in text:
        return f"not valid {kind}: a number with more than {_digits_limit():,} digits"
    return f"not valid {kind} ({text})"


def parse_json(text: str | bytes) -> Any:
    """``json.loads(text)``; any failure (syntax, depth, giant numbers) is a :class:`TextDataError` saying why."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise TextDataError(_why(exc, "JSON")) from None
    except TypeError as exc:
        raise TextDataError(f"not JSON text ({exc})") from None


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; any failure (syntax, depth, giant numbers) is a :class:`TextDataError` saying why."""
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise TextDataError(_why(exc, "TOML")) from None
    except TypeError as exc:
        raise TextDataError(f"not TOML text ({exc})") from None


def read_text(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> str:
    """The UTF-8 text of the file at ``path``, refused (:class:`TextDataError`) if it is unreadable, not UTF-8,
    a folder, or longer than ``max_bytes`` (only that much is read, whatever the file's size)."""
    p = Path(path)
    try:
        if p.is_dir():
            raise TextDataError(f"is a folder, not a {what}")
        with p.open("rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as exc:
        raise TextDataError(f"cannot be read ({exc.strerror or exc})") from None
    if len(raw) > max_bytes:
        raise TextDataError(f"is over {max_bytes:,} bytes: too big to be a {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextDataError(f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


__all__ = ["TextDataError", "parse_json", "parse_toml", "read_text"]
