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


class Checker:
    """Checks one data file a person typed in (a board, a map, components), collecting every problem as a ``(where,
    problem)`` pair instead of stopping at the first, so that the game's error names them all at once and its owner
    fixes them in one pass. ``PROVENANCE_KINDS``: the words the game lets a provenance start with."""

    PROVENANCE_KINDS: tuple[str, ...] = ("printed", "rulebook", "public", "inferred", "reconstructed")

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[tuple[str, str]] = []

    def fail(self, where: str, problem: str) -> None:
        self.problems.append((where, problem))

    def keys(self, where: str, spec: dict, known: set[str]) -> None:
        """Each key of ``spec`` not in ``known`` named."""
        for key in sorted(set(spec) - known):
            self.fail(where, f"unknown key {key!r} (known: {sorted(known)})")

    def integer(self, where: str, spec: dict, key: str, lo: int, hi: int, default: int = 0) -> int:
        """``spec[key]`` (``default`` where absent), a whole number from ``lo`` to ``hi``; ``lo`` where it is not."""
        value = spec.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            self.fail(where, f"{key} = {value!r} must be a whole number from {lo} to {hi}")
            return lo
        return value

    def flag(self, where: str, spec: dict, key: str) -> bool:
        """``spec[key]`` (False where absent), true or false."""
        value = spec.get(key, False)
        if not isinstance(value, bool):
            self.fail(where, f"{key} = {value!r} must be true or false")
            return False
        return value

    def provenance(self, where: str, value: object, default: str) -> str:
        """Where a number comes from (``printed ...``, ``reconstructed ...``), or ``default`` where not given."""
        if value is None:
            return default
        if not isinstance(value, str) or not value.startswith(self.PROVENANCE_KINDS):
            self.fail(where, f"provenance {value!r} must start with one of {list(self.PROVENANCE_KINDS)}")
            return default
        return value

    def provenance_table(self, where: str, spec: dict, attributes: set[str], default: str) -> dict[str, str]:
        """The provenance of each of ``attributes``: ``spec["provenance"]`` one string for them all, or a table of
        attribute = provenance (``default`` for those it leaves out)."""
        prov = spec.get("provenance", {})
        if isinstance(prov, str):  # one provenance for the whole entry
            return {key: self.provenance(where, prov, default) for key in attributes}
        if not isinstance(prov, dict):
            self.fail(where, "provenance must be a string or a table of attribute = provenance")
            prov = {}
        for key in prov:
            if key not in attributes:
                self.fail(where, f"provenance names unknown attribute {key!r} (known: {sorted(attributes)})")
        return {key: self.provenance(where, prov.get(key), default) for key in sorted(attributes)}


__all__ = ["Checker", "TextDataError", "parse_json", "parse_toml", "read_text"]
