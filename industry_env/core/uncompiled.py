"""Running a numba kernel's Python as it is (``NUMBA_DISABLE_JIT=1``), for a debugger: arrays read as compiled
code reads them.

Compiled, numba widens int8 and int16 elements to int64 in arithmetic; uncompiled, numpy scalars keep their
width and overflow (``int8(100) + 500``) where the kernel does not. :class:`Scalars` wraps an array so that its
elements read as Python numbers; a kernel's helpers return such views when :data:`DISABLED` (and plain arrays,
at no cost, when compiled).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

DISABLED: bool = bool(numba.config.DISABLE_JIT)


class Scalars:
    """An array whose elements read as Python numbers (slices stay wrapped); writes go to the array."""

    __slots__ = ("a",)

    def __init__(self, a: np.ndarray) -> None:
        self.a = a

    def __getitem__(self, k: Any) -> Any:
        v = self.a[k]
        return v.item() if isinstance(v, np.generic) else Scalars(v)

    def __setitem__(self, k: Any, v: Any) -> None:
        self.a[k] = v

    def __len__(self) -> int:
        return len(self.a)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.a if dtype is None else self.a.astype(dtype)

    @property
    def size(self) -> int:
        return self.a.size

    def view(self, dtype: Any) -> Scalars:
        return Scalars(self.a.view(dtype))


def scalars(a: np.ndarray | Scalars) -> np.ndarray | Scalars:
    """``a`` wrapped as :class:`Scalars` (once)."""
    return a if isinstance(a, Scalars) else Scalars(a)
