"""A game's batched State, declared once: each field's name, dtype, shape per game, fill and meaning.

A game writes one :class:`Schema` (its list of :class:`Field`) and one subclass of :class:`BatchState`; from
that declaration come the arrays of a batch of B games (each field an array ``[B, *shape]``), the byte layout
of the one ``uint8`` buffer every array views (so a compiled kernel steps the whole batch through a single
argument), each field's offset in that buffer (:meth:`Schema.units`, what a kernel indexes), the bytes per game,
and the batch surgery every engine needs (copy, take, put, concat).

Layout: each field is one contiguous block of the buffer; the widest dtypes come first (so every block is
aligned), fields of one width keep their declared order. Field ``f`` of a batch of B games starts at byte
``Schema.offset[f] * B``: game ``i``'s part of it is ``buffer[offset * B + i * size : ...]``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np


@dataclasses.dataclass(frozen=True)
class Field:
    """One per-game array of a State: ``dtype[B, *shape]``, filled with ``fill`` in a new game."""

    name: str
    dtype: Any
    shape: tuple[int, ...] = ()
    fill: int | float | bool = 0
    doc: str = ""

    @property
    def itemsize(self) -> int:
        return np.dtype(self.dtype).itemsize

    @property
    def size(self) -> int:
        """Elements per game."""
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        """Bytes per game."""
        return self.itemsize * self.size


class Schema:
    """The fields of a game's State, in declared order, and their layout in the one buffer of a batch."""

    def __init__(self, fields: Iterable[Field]) -> None:
        self.fields: tuple[Field, ...] = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"Schema: a field name appears twice in {names}")
        self.names: tuple[str, ...] = tuple(names)
        self.by_name: dict[str, Field] = {f.name: f for f in self.fields}
        offsets, at = {}, 0
        for f in sorted(self.fields, key=lambda f: -f.itemsize):  # stable: declared order within a width
            offsets[f.name] = at
            at += f.nbytes
        self.offset: dict[str, int] = offsets  # byte offset per game of the batch (times B)
        self.bytes_per_game: int = at
        units = np.array([self.units(name) for name in self.names], np.int64)
        sizes = np.array([self.by_name[name].size for name in self.names], np.int64)
        units.setflags(write=False)
        sizes.setflags(write=False)
        self.unit_offsets: np.ndarray = units  # int64[fields]: units(name) of each field in declared order
        self.sizes: np.ndarray = sizes  # int64[fields]: elements per game of each field in declared order

    def units(self, name: str) -> int:
        """Offset of field ``name`` in units of its own dtype, per game: where a kernel's view of that width
        (``buffer.view(dtype)``) finds the field, times B."""
        f = self.by_name[name]
        return self.offset[name] // f.itemsize

    def markdown(self) -> str:
        """The fields as a Markdown table (field, dtype[shape], meaning), for a game's docs."""
        rows = ["| field | dtype[shape] | meaning |", "|---|---|---|"]
        for f in self.fields:
            shape = "".join(f", {n}" for n in f.shape)
            rows.append(f"| {f.name} | {np.dtype(f.dtype).name}[B{shape}] | {f.doc} |")
        return "\n".join(rows)

    def table(self) -> str:
        """The fields as a reStructuredText table (name, dtype[shape], meaning) for docs and docstrings."""
        rows = [(f.name, f"{np.dtype(f.dtype).name}[B{''.join(f', {n}' for n in f.shape)}]", f.doc)
                for f in self.fields]  # fmt: skip
        w = [max(len(r[k]) for r in [*rows, ("field", "dtype[shape]", "meaning")]) for k in range(3)]
        line = "  ".join("=" * x for x in w)
        head = "  ".join(t.ljust(x) for t, x in zip(("field", "dtype[shape]", "meaning"), w, strict=True))
        body = ["  ".join(t.ljust(x) for t, x in zip(r, w, strict=True)).rstrip() for r in rows]
        return "\n".join([line, head.rstrip(), line, *body, line])


class BatchState:
    """B games of one game as arrays; a subclass sets ``SCHEMA`` (and ``EXTRAS``, shared non-array attributes).

    Arrays are made from the buffer on first use, so copying a batch of one is one buffer copy. Replacing a
    field by another array (``state.money = x``) lets the buffer go: the State then holds separate arrays, and
    :meth:`backed` moves them back into one buffer when a kernel needs it.
    """

    SCHEMA: ClassVar[Schema]
    EXTRAS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **values: Any) -> None:
        names = set(self.SCHEMA.names) | set(self.EXTRAS)
        unknown, missing = set(values) - names, names - set(values)
        if unknown or missing:
            raise TypeError(f"{type(self).__name__}: unknown fields {sorted(unknown)}, missing {sorted(missing)}")
        object.__setattr__(self, "_buf", None)
        for k, v in values.items():
            object.__setattr__(self, k, v)

    # ------------------------------------------------------------------------------------------ making
    @classmethod
    def from_buffer(cls, buf: np.ndarray, batch_size: int, **extras: Any) -> BatchState:
        """The State whose arrays view ``buf`` (uint8[B * bytes per game]) laid out by the schema."""
        need = batch_size * cls.SCHEMA.bytes_per_game
        if buf.dtype != np.uint8 or buf.shape != (need,):
            raise ValueError(f"a {cls.__name__} buffer of {batch_size} games is uint8[{need}], "
                             f"got {buf.dtype}{list(buf.shape)}")  # fmt: skip
        s = cls.__new__(cls)
        s.__dict__.update(extras, _buf=buf)
        return s

    @classmethod
    def empty(cls, batch_size: int, **extras: Any) -> BatchState:
        """A batch with every field at its fill value, its arrays views of one new buffer."""
        s = cls.from_buffer(np.zeros(batch_size * cls.SCHEMA.bytes_per_game, np.uint8), batch_size, **extras)
        for f in cls.SCHEMA.fields:
            if f.fill:
                getattr(s, f.name)[...] = f.fill
        return s

    # ------------------------------------------------------------------------------------------ arrays
    def __getattr__(self, name: str) -> np.ndarray:
        # only for a field not yet in the instance: view it from the buffer on first use
        f = type(self).SCHEMA.by_name.get(name)
        buf = self.__dict__.get("_buf")
        if f is None or buf is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        B = buf.size // type(self).SCHEMA.bytes_per_game
        a = np.ndarray((B, *f.shape), f.dtype, buf, type(self).SCHEMA.offset[name] * B)
        self.__dict__[name] = a
        return a

    def __setattr__(self, name: str, value: object) -> None:
        if name in type(self).SCHEMA.by_name and value is not self.__dict__.get(name):
            self._view_all()  # the other fields keep viewing the buffer
            object.__setattr__(self, "_buf", None)
        object.__setattr__(self, name, value)

    def _view_all(self) -> None:
        if self.__dict__.get("_buf") is not None:
            for name in self.SCHEMA.names:
                getattr(self, name)

    def __getstate__(self) -> dict[str, Any]:
        self._view_all()
        return {k: v for k, v in self.__dict__.items() if k != "_buf"}  # unpickled arrays no longer share one

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _buf=None)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.batch_size} games>"

    @property
    def buffer(self) -> np.ndarray | None:
        """The uint8 buffer every field views, or None once a field was replaced by another array."""
        return self.__dict__.get("_buf")

    def backed(self) -> np.ndarray:
        """The buffer behind the arrays; separate arrays are first moved into one (contents unchanged)."""
        buf = self.buffer
        if buf is None:
            fresh = self.copy()
            for name in self.SCHEMA.names:
                object.__setattr__(self, name, getattr(fresh, name))
            object.__setattr__(self, "_buf", fresh.buffer)
            buf = fresh.buffer
        return buf

    @property
    def batch_size(self) -> int:
        """Number of games B."""
        buf = self.__dict__.get("_buf")
        if buf is not None:
            return buf.size // self.SCHEMA.bytes_per_game
        return int(getattr(self, self.SCHEMA.names[0]).shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        """The per-game arrays by field name (not the extras)."""
        return {name: getattr(self, name) for name in self.SCHEMA.names}

    def extras(self) -> dict[str, Any]:
        return {k: self.__dict__[k] for k in self.EXTRAS}

    def replace(self, **changes: Any) -> BatchState:
        """A new State with some fields replaced (the others shared, not copied)."""
        values = {**self.arrays(), **self.extras(), **changes}
        return type(self)(**values)

    @property
    def state_bytes_per_game(self) -> int:
        """Bytes of array state per game."""
        return self.SCHEMA.bytes_per_game

    # ------------------------------------------------------------------------------------------ surgery
    def copy(self) -> BatchState:
        """An independent copy of the batch (every array copied, the extras shared)."""
        buf = self.buffer
        if buf is not None:
            return type(self).from_buffer(buf.copy(), self.batch_size, **self.extras())
        out = type(self).empty(self.batch_size, **self.extras())
        for k, v in self.arrays().items():
            getattr(out, k)[...] = v
        return out

    def check_rows(self, rows: int | np.ndarray | Sequence[int], verb: str) -> np.ndarray:
        """``rows`` as int64 indices, each a game of this batch (negative ones count from the end, as numpy's);
        IndexError naming the first that is not."""
        raw = np.atleast_1d(np.asarray(rows))
        if raw.size and (raw.dtype == bool or not np.issubdtype(raw.dtype, np.integer)):
            raise IndexError(f"{verb}: rows must be whole numbers, got {rows!r}")
        idx = raw.astype(np.int64).ravel()
        B = self.batch_size
        bad = idx[(idx < -B) | (idx >= B)]
        if bad.size:
            raise IndexError(f"{verb}: row {int(bad[0])} is out of range for a batch of {B} games")
        return idx

    def check_row(self, row: int, verb: str) -> int:
        """``row`` as the index of one game of this batch (negative counts from the end); IndexError naming it if it
        is not one whole number in range (numpy's own error named neither the verb nor the batch)."""
        if isinstance(row, bool) or not isinstance(row, int | np.integer):
            raise IndexError(f"{verb}: a row is one whole number, got {row!r}")
        return int(self.check_rows(row, verb)[0])

    def take(self, rows: int | np.ndarray | Sequence[int]) -> BatchState:
        """The games ``rows`` as a new State (an int gives a batch of one)."""
        idx = self.check_rows(rows, "take")
        out = type(self).empty(idx.size, **self.extras())
        for k, v in self.arrays().items():
            getattr(out, k)[...] = v[idx]
        return out

    def put(self, rows: int | np.ndarray | Sequence[int], games: BatchState) -> None:
        """Write the games of ``games`` over the rows ``rows`` of this State, in place (the buffer stays)."""
        idx = self.check_rows(rows, "put")
        if games.batch_size != idx.size:
            raise ValueError(f"put: {idx.size} rows given for {games.batch_size} games")
        for k, v in games.arrays().items():
            getattr(self, k)[idx] = v

    @classmethod
    def concat(cls, states: Sequence[BatchState]) -> BatchState:
        """One State holding the games of ``states`` in order (their extras must be the same objects)."""
        if not states:
            raise ValueError("concat needs at least one State")
        extras = states[0].extras()
        if any(any(s.extras()[k] is not v for k, v in extras.items()) for s in states):
            raise ValueError(f"concat: the states differ in {list(extras)}")
        out = cls.empty(sum(s.batch_size for s in states), **extras)
        for k in cls.SCHEMA.names:
            np.concatenate([getattr(s, k) for s in states], out=getattr(out, k))
        return out
