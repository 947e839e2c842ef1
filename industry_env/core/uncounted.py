"""Arrays seen by compiled code without numba's reference count.

numba counts the references to an array argument at every call of a compiled function: an atomic add on entry and
a subtract on exit, for each array. A kernel that calls small per-game helpers (a link completed? a space holding
coal?) thousands of times a step pays more for those counts than for its rules, and when two threads count the
same array they fight over one cache line. A view of the same memory without a count (``numba.carray`` of the
data's address: a null ``meminfo``) costs nothing to pass. The caller keeps the counted array alive for as long as
the view is used: an entry point makes the views of its arguments and drops them when it returns.
"""

from __future__ import annotations

from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic

from . import uncompiled
from .numba_cache import njit


@intrinsic
def address(typingctx, src):
    """An integer address as a void pointer (for ``numba.carray``)."""

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(src), codegen


@njit(cache=True)
def uncounted(a):
    """The C-contiguous array ``a`` seen without a reference count (the caller keeps ``a`` alive)."""
    return carray(address(a.ctypes.data), a.shape, a.dtype)


if uncompiled.DISABLED:

    def uncounted(a):  # noqa: F811 (uncompiled: no count to avoid)
        """``a`` itself (uncompiled code counts nothing)."""
        return a
