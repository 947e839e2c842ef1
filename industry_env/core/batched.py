"""The front every game's batched engine shares: the checks of its arguments, the illegal-move convention, and
the warm-up of its compiled kernel, written once over a game's small, documented set of kernel entries.

A game's batched engine (``games/<game>/engine.py``) keeps what is its own: the State's fields, ``init``'s options,
the rules' calls into its kernel, ``to_game``/``from_games``. Everything a caller passes to ``init``, ``step`` and
``reset`` is checked here, with one message for every game, before anything is written:

==========================================  =====================================================================
:func:`batch_size_of`                       ``B``: a whole number >= 0
:func:`seeds`                               ``seed + i`` for an int, else one seed a game, 0 to 2**63 - 1
:func:`per_game`                            an option given once or per game (players, edition), each allowed
:func:`rows_of`                             ``reset``'s ``done``: a bool mask of length B or row indices in range
:func:`reset_seeds`                         ``reset``'s new seeds (default: the old ones + B, checked in range)
:func:`step_actions`                        ``step``'s ``on_illegal``, ``actions`` (B integers), ``mask``
:func:`check_next_mask`                     a writable C-contiguous bool[B, A] the kernel writes the new masks to
:func:`writable`                            the State a call writes: ``state`` itself when in place, else a copy
:func:`sample_legal`                        uniformly random legal actions through the kernel's ``sample_rows``
:func:`put`, :func:`concat`                 batch surgery between States of the same components or map
==========================================  =====================================================================

The illegal-move convention (:data:`ON_ILLEGAL`): ``"raise"`` refuses the whole step with the game's
``IllegalActionError`` naming each offending game, the state unchanged; ``"penalize"`` ends each offending game at
once, ``penalty`` to the player at fault and ``-penalty`` to the others (the Pgx convention); a game already over
ignores its action and gets zero rewards.

A game's compiled kernel (``games/<game>/kernel.py``) provides exactly the entries of :data:`KERNEL_ENTRIES`
(``tests/contract/test_engine_front.py`` checks every game that has one): its per-layer parallel thresholds for
:mod:`.runtime`, its cold-compile estimate, and what :func:`warm_up` needs to keep numba's disk cache fresh
(:mod:`.numba_cache`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from . import numba_cache, runtime, sampling, uncompiled

MAX_SEED = 2**63 - 1
ON_ILLEGAL = ("raise", "penalize")

KERNEL_ENTRIES: dict[str, str] = {
    "PARALLEL_FROM_BY_LAYER": "dict: for each layer of core.runtime.LAYERS, the batch from which a call launches",
    "PARALLEL_FROM": "int: runtime.parallel_from(PARALLEL_FROM_BY_LAYER), this process's threshold",
    "COLD_COMPILE_SECONDS": "number: about what a cold compile takes on a quiet 2-core machine (the notice's estimate)",
    "CACHE_NAME": "str: the name of the kernel's stamp in numba's cache folder (unique among the games)",
    "sources": "() -> list[str]: the files whose content the compiled code depends on",
    "dispatchers": "() -> list: every compiled function of the kernel (and the shared ones it calls)",
    "entries": "() -> list: the compiled functions called from Python, each with numba's disk cache",
}


def check_kernel(kernel: ModuleType) -> list[str]:
    """What ``kernel`` lacks of :data:`KERNEL_ENTRIES`, or gets wrong; empty when it provides them all."""
    problems = [f"{name} is missing ({what})" for name, what in KERNEL_ENTRIES.items() if not hasattr(kernel, name)]
    if problems:
        return problems
    layers = kernel.PARALLEL_FROM_BY_LAYER
    if not isinstance(layers, dict) or set(layers) != set(runtime.LAYERS):
        problems.append(f"PARALLEL_FROM_BY_LAYER must name exactly the layers {list(runtime.LAYERS)}, got {layers!r}")
    elif kernel.PARALLEL_FROM != runtime.parallel_from(layers):
        problems.append("PARALLEL_FROM is not runtime.parallel_from(PARALLEL_FROM_BY_LAYER)")
    entries, dispatchers = kernel.entries(), kernel.dispatchers()
    for f in entries:
        if not hasattr(f, "_cache"):
            problems.append(f"entries(): {getattr(f, '__name__', f)!r} is not a compiled (numba) function")
        elif f not in dispatchers:
            problems.append(f"entries(): {f.__name__!r} is not among dispatchers()")
    return problems


# ---------------------------------------------------------------------------------------------- the kernel's cache
def warm_up(kernel: ModuleType, what: str, compile_all: Callable[[], None], note: str = "") -> float:
    """Make ``kernel``'s compiled code ready in this process: nothing to do where numba's disk cache holds it,
    built from these very sources (each entry then loads at its first call); else ``compile_all()`` compiles every
    entry at once, shown as one step on stderr (:class:`.numba_cache.CompileNotice`), and the cache is stamped.
    Returns the seconds taken."""
    t0 = time.perf_counter()
    if numba_cache.is_fresh(kernel.entries(), kernel.dispatchers(), kernel.sources(), kernel.CACHE_NAME):
        return time.perf_counter() - t0
    notice = numba_cache.CompileNotice(what, kernel.COLD_COMPILE_SECONDS, note)
    compile_all()
    numba_cache.mark_fresh(kernel.entries(), kernel.sources(), kernel.CACHE_NAME)
    notice.done()
    return time.perf_counter() - t0


# ---------------------------------------------------------------------------------------------- checks
def is_whole(x: object) -> bool:
    """A Python or numpy integer, not a bool (``True`` is not a seed or a count)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def batch_size_of(batch_size: Any) -> int:
    """``batch_size`` if it is a whole number >= 0, else a ValueError naming it."""
    if not is_whole(batch_size) or batch_size < 0:
        raise ValueError(f"batch_size={batch_size!r} must be a whole number >= 0")
    return int(batch_size)


def seeds(batch_size: int, seed: Any) -> np.ndarray:
    """int64[B] seeds: ``seed + i`` for an int, else the given array, checked (whole numbers, 0 to 2**63 - 1)."""
    if np.ndim(seed) == 0:
        if isinstance(seed, np.ndarray) and np.issubdtype(seed.dtype, np.integer):
            seed = seed.item()  # a 0-d integer array
        if not is_whole(seed) or not 0 <= int(seed) <= MAX_SEED:
            raise ValueError(f"seed={seed!r}: must be a whole number from 0 to 2**63 - 1")
        if batch_size and int(seed) + batch_size - 1 > MAX_SEED:
            raise ValueError(f"seed={seed!r}: game i of the batch gets seed + i, and seed + {batch_size - 1} is beyond "
                             f"2**63 - 1; use a seed at most {MAX_SEED - batch_size + 1}")  # fmt: skip
        return int(seed) + np.arange(batch_size, dtype=np.int64)
    raw = np.asarray(seed)
    if raw.ndim != 1 or raw.shape[0] != batch_size:
        raise ValueError(f"seeds of shape {list(raw.shape)} given for a batch of {batch_size}: expected one seed per "
                         f"game, shape [{batch_size}]")  # fmt: skip
    if raw.size and (not np.issubdtype(raw.dtype, np.integer) or (raw.dtype == np.uint64 and raw.max() > MAX_SEED)):
        raise ValueError(f"seeds must be whole numbers from 0 to 2**63 - 1, got dtype {raw.dtype}")
    s = raw.astype(np.int64)
    if s.size and s.min() < 0:
        bad = int(np.flatnonzero(s < 0)[0])
        raise ValueError(f"seeds must be whole numbers from 0 to 2**63 - 1; seed[{bad}] is {int(s[bad])}")
    return s


def per_game(value: Any, batch_size: int, allowed: Sequence[int], what: str, rule: str = "") -> np.ndarray:
    """int8[B] from one whole number or one per game, each in ``allowed``; ``rule`` says why (the game's words)."""
    raw = np.asarray(value)
    why = rule or f"must be one of {list(allowed)}"
    if raw.dtype == bool or not np.issubdtype(raw.dtype, np.integer) or raw.ndim > 1 or (
            raw.ndim == 1 and raw.size != batch_size):  # fmt: skip
        raise ValueError(f"{what}={value!r}: {why} (a whole number, or one per game)")
    if batch_size and not np.isin(raw, allowed).all():
        raise ValueError(f"{what}={value!r}: {why}")
    return np.broadcast_to(raw.astype(np.int8), (batch_size,)).copy()


def rows_of(done: Any, batch_size: int) -> np.ndarray:
    """int64 row indices from a bool mask of length B, or from integer indices in range; anything else refused."""
    d = np.asarray(done)
    if d.dtype == bool:
        if d.shape != (batch_size,):
            raise ValueError(f"done mask of shape {list(d.shape)} for a batch of {batch_size}: expected "
                             f"bool[{batch_size}] (or integer row indices)")  # fmt: skip
        return np.flatnonzero(d)
    if d.size == 0 and d.ndim == 1:
        return np.zeros(0, np.int64)
    if not np.issubdtype(d.dtype, np.integer) or d.ndim != 1:
        raise ValueError(f"done must be a bool mask of length {batch_size} or a 1-D array of integer row indices, "
                         f"got dtype {d.dtype} shape {list(d.shape)}")  # fmt: skip
    if ((d < 0) | (d >= batch_size)).any():
        bad = d[(d < 0) | (d >= batch_size)]
        raise ValueError(f"done: row indices {bad[:5].tolist()} are out of range for a batch of {batch_size}")
    return np.unique(d.astype(np.int64))


def reset_seeds(old: np.ndarray, rows: np.ndarray, given: Any) -> np.ndarray | None:
    """``reset``'s new seeds, checked before anything is written: ``given`` (one a game, only ``rows`` read), or
    None for the default (old + B), refused where that passes 2**63 - 1."""
    B = old.shape[0]
    if given is None:
        if rows.size and (old[rows] > MAX_SEED - B).any():
            raise ValueError("reset: the default new seed (old seed + batch size) is beyond 2**63 - 1; pass seeds")
        return None
    return seeds(B, given)


def step_actions(on_illegal: str, actions: Any, batch_size: int, num_actions: int, mask: Any,
                 error: type[Exception]) -> np.ndarray:  # fmt: skip
    """``step``'s checked ``actions`` (as given, shape [B], integer dtype), after ``on_illegal`` (one of
    :data:`ON_ILLEGAL`) and ``mask`` (None or bool[B, A]); integers of another dtype raise ``error``. One call at
    batch 1: these checks are most of a compiled step's Python."""
    if on_illegal != "raise" and on_illegal != "penalize":
        raise ValueError(f"on_illegal={on_illegal!r}: expected 'raise' or 'penalize'")
    a_all = actions if type(actions) is np.ndarray else np.asarray(actions)
    if a_all.shape != (batch_size,):
        raise ValueError(f"actions of shape {list(a_all.shape)} given for a batch of {batch_size}: expected one action "
                         f"per game, shape [{batch_size}]")  # fmt: skip
    if a_all.dtype.kind not in "iu":
        raise error(f"actions must be integers, got dtype {a_all.dtype}")
    if mask is not None and (mask.shape != (batch_size, num_actions) or mask.dtype != bool):
        raise ValueError(f"mask must be bool[{batch_size}, {num_actions}], got {mask.dtype}{list(mask.shape)}")
    return a_all


def check_next_mask(next_mask: Any, batch_size: int, num_actions: int) -> None:
    """``next_mask`` must be None or a writable C-contiguous bool[B, A] array (the kernel writes it in place)."""
    if next_mask is None:
        return
    if (
        not isinstance(next_mask, np.ndarray)
        or next_mask.shape != (batch_size, num_actions)
        or next_mask.dtype != bool
        or not next_mask.flags.c_contiguous
        or not next_mask.flags.writeable
    ):
        raise ValueError(f"next_mask must be a writable C-contiguous bool[{batch_size}, {num_actions}] array, got "
                         f"{getattr(next_mask, 'dtype', type(next_mask).__name__)}"
                         f"{list(getattr(next_mask, 'shape', ()))}")  # fmt: skip


def writable(state: Any, inplace: bool) -> Any:
    """The State a call writes: ``state`` itself when ``inplace``, else an independent copy."""
    return state if inplace else state.copy()


def sample_legal(mask: Any, rng: np.random.Generator, sample_rows: Callable[..., None]) -> np.ndarray:
    """int64[B]: one action per row drawn uniformly from the True entries of ``mask`` (0 for an empty row), by the
    kernel's ``sample_rows(mask, u, out)`` on ``rng.random(B)`` (the ``floor(u * count)``-th legal action)."""
    m = np.ascontiguousarray(mask, bool)
    if m.ndim != 2:
        raise ValueError(f"mask must be bool[B, num_actions], got shape {list(m.shape)}")
    out = np.zeros(m.shape[0], np.int64)
    sample_rows(m, rng.random(m.shape[0]), out)
    return out


# ---------------------------------------------------------------------------------------------- batch surgery
def _same_extras(a: Any, b: Any) -> bool:
    """Two States play with the same shared parts (components, map): the same objects, or ones read from the same
    file (their ``sha256``)."""
    theirs = b.extras()

    def same(x: Any, y: Any) -> bool:
        return x is y or (bool(getattr(x, "sha256", "")) and getattr(x, "sha256", "") == getattr(y, "sha256", None))

    return all(same(v, theirs[k]) for k, v in a.extras().items())


def put(state: Any, rows: Any, games: Any, shared: str) -> Any:
    """A new State equal to ``state`` with the games ``rows`` replaced by those of ``games``, which must play with
    the same shared parts (``shared`` names them in the error: "components", "maps")."""
    if not _same_extras(state, games):
        raise ValueError(f"put: the two states are played with different {shared}")
    out = state.copy()
    out.put(rows, games)
    return out


def concat(states: Sequence[Any], shared: str) -> Any:
    """One State holding all the games of ``states`` in order; they must play with the same ``shared`` parts."""
    if not states:
        raise ValueError("concat needs at least one State")
    if any(not _same_extras(states[0], s) for s in states[1:]):
        raise ValueError(f"concat: the states are played with different {shared}")
    first = states[0].extras()
    same = [s if all(v is first[k] for k, v in s.extras().items()) else s.replace(**first) for s in states]
    return type(states[0]).concat(same)


def observers(state: Any, player: Any) -> np.ndarray:
    """int64[B]: the seat each game is seen from: ``player`` (a seat, or one per game), checked against each game's
    players; None: the player to move (seat 0 once over)."""
    B = state.batch_size
    if player is None:
        return np.maximum(state.current_player, 0).astype(np.int64)
    raw = np.asarray(player)
    if raw.dtype == bool or not np.issubdtype(raw.dtype, np.integer) or raw.ndim > 1 or (
            raw.ndim == 1 and raw.size != B):  # fmt: skip
        raise ValueError(f"player={player!r}: a seat number, or one per game (int[{B}])")
    seats = np.broadcast_to(raw.astype(np.int64), (B,)).copy()
    n = state.num_players.astype(np.int64)
    if B and ((seats < 0) | (seats >= n)).any():
        bad = int(np.flatnonzero((seats < 0) | (seats >= n))[0])
        raise ValueError(f"player={player!r}: seat {int(seats[bad])} is not a seat of game {bad} "
                         f"({int(n[bad])} players: 0..{int(n[bad]) - 1})")  # fmt: skip
    return seats


def kernel_view(state: Any, make: Callable[[Any], Any]) -> Any:
    """``make(state)``, the batch as a kernel reads it (views of the State's one buffer), made once and kept on the
    State while its buffer stays the same: a call at batch 1 does not rebuild it."""
    buf = state.backed()
    hit = state.__dict__.get("_kernel_view")
    if hit is None or hit[0] is not buf:
        hit = state.__dict__["_kernel_view"] = (buf, make(state))
    return hit[1]


def fields_of(state: Any, games: Callable[..., Any]) -> Any:
    """The State's arrays as the named tuple class ``games`` (whose names are the State's fields), the batch as a
    kernel that reads fields by name takes it (:func:`kernel_view`: made once per buffer)."""
    return kernel_view(state, lambda s: games(*(getattr(s, name) for name in games._fields)))


def int64_actions(actions: np.ndarray) -> np.ndarray:
    """``step``'s checked actions as C-contiguous int64 (itself when it is one); uint64 values beyond 2**62, which
    int64 would wrap to small numbers, become -1 (not an action)."""
    if actions.dtype == np.uint64:
        return np.where(actions > np.uint64(2**62), -1, actions.astype(np.int64))
    if actions.dtype != np.int64 or not actions.flags.c_contiguous:
        return np.ascontiguousarray(actions, np.int64)
    return actions


# ---------------------------------------------------------------------------------------------- the engine
class Engine:
    """Every verb of a batched engine (:class:`industry_env.core.spec.BatchedEngine`), written once over a game's
    hooks: a game's ``engine.py`` subclasses it with its rules' calls and exports the verbs of one instance
    (``init = ENGINE.init``, ...), so that ``spec.engine`` stays a module.

    What a game declares (class attributes): ``name`` (its name in messages), ``State`` (its
    :class:`industry_env.core.state.BatchState`), ``IllegalActionError``, ``kernel`` (its compiled kernel beside
    ``engine.py``, warmed up before the first call reaches it; None: nothing to compile), ``num_actions``,
    ``players``, ``default_players`` and ``players_rule`` (the player counts allowed, ``init``'s default, and why),
    ``kept`` (the State's fields that hold a game's options: ``reset`` keeps them), ``shared`` (what the games
    of a batch share, for ``put``/``concat``'s messages) and ``Games`` (where the kernel reads the State's arrays
    by name: their named tuple, :func:`fields_of`).

    The hooks a game writes (see each): :meth:`finished`, :meth:`scores`, :meth:`to_game`, :meth:`from_games`, and
    :meth:`new_state` where it has options. The rest have defaults: :meth:`new_games` calls the kernel's
    ``new_games``, and :meth:`kernel_args` (the named tuple ``Games``), :meth:`mask_into`, :meth:`play` and
    :meth:`observe_into` drive the kernel's standard entries (:data:`STANDARD_ENTRIES`); a kernel of another shape
    overrides them, an engine with more to do any verb.
    """

    name: str = "this game"
    State: type
    IllegalActionError: type[Exception] = ValueError
    kernel: ModuleType | None = None
    num_actions: int = 0
    players: tuple[int, ...] = ()
    default_players: int = 0
    players_rule: str = ""
    kept: tuple[str, ...] = ()
    shared: str = "components"
    Games: type | None = None

    def __init__(self) -> None:
        self._ready = False  # the kernel warmed up in this process
        self._forced_chunks = 0  # compile_all: the parallel entry run as one chunk, whatever the batch

    # ------------------------------------------------------------------------------------------ hooks
    def new_state(self, batch_size: int, **options: Any) -> tuple[Any, tuple[np.ndarray, ...]]:
        """An empty State of ``batch_size`` games for ``options`` (checked here: a ValueError naming the option)
        and each game's option values, one array per field of ``kept``. Default: a game without options."""
        if options:
            raise ValueError(f"{', '.join(options)}: not an option of {self.name} (it has none)")
        return self.State.empty(batch_size), ()

    def new_games(self, s: Any, rows: np.ndarray, seeds: np.ndarray, num_players: np.ndarray,
                  kept: tuple[np.ndarray, ...], next_mask: np.ndarray | None) -> None:  # fmt: skip
        """Start new games in the rows ``rows`` of ``s`` in place: game ``rows[j]`` seeded ``seeds[j]`` with
        ``num_players[j]`` players (int8) and the options ``kept[k][j]``; its legal mask into ``next_mask[rows[j]]``
        when ``next_mask`` is given. The kernel is warm. Default: the kernel's ``new_games(*kernel_args(s), rows,
        seeds, num_players, *kept, next_mask, write_next)``, ``next_mask`` an empty array where none is asked for."""
        if self.kernel is None:
            raise NotImplementedError(f"{type(self).__name__}.new_games: the game starts its games here")
        nm = np.zeros((0, self.num_actions_of(s)), bool) if next_mask is None else next_mask
        self.kernel.new_games(*self.kernel_args(s), rows, seeds, num_players, *kept, nm, next_mask is not None)

    def finished(self, state: Any) -> np.ndarray:
        """bool[B]: the games ended by the rules (not by an illegal action)."""
        raise NotImplementedError(f"{type(self).__name__}.finished")

    def scores(self, state: Any) -> np.ndarray:
        """int[B, max_players]: ``Game.scores()`` of each game (0 in absent seats)."""
        raise NotImplementedError(f"{type(self).__name__}.scores")

    def to_game(self, state: Any, i: int) -> Any:
        """Game ``i`` as a reference game (``state.check_row(i, "to_game")`` first)."""
        raise NotImplementedError(f"{type(self).__name__}.to_game")

    def from_games(self, games: Sequence[Any]) -> Any:
        """A State holding the reference games ``games``, rewards zero."""
        raise NotImplementedError(f"{type(self).__name__}.from_games")

    def num_actions_of(self, state: Any) -> int:
        """The size of the action space of ``state``'s games (where it depends on the options, e.g. a map)."""
        return self.num_actions

    def kernel_args(self, state: Any) -> tuple:
        """The arguments every standard kernel entry takes first (the batch as the kernel reads it, its tables).
        Default: the State's arrays as the game's named tuple ``Games`` (:func:`fields_of`), where it declares one."""
        if self.Games is None:
            raise NotImplementedError(f"{type(self).__name__}.kernel_args: what the kernel's entries take first")
        return (fields_of(state, self.Games),)

    def mask_into(self, state: Any, out: np.ndarray) -> None:
        """Every game's legal mask into ``out`` (bool[B, A], all False): the kernel's ``mask_range``, or its
        ``run_parallel(OP_MASK, ...)`` on numba's threads."""
        K, B = self.kernel, state.batch_size
        nc = self.chunks(B)
        if nc:
            none = np.zeros(0, np.int64)
            K.run_parallel(K.OP_MASK, *self.kernel_args(state), none, out, False, np.zeros(B, bool), 0.0, out, True,
                           nc)  # fmt: skip
        else:
            K.mask_range(*self.kernel_args(state), out, 0, B)

    def play(self, s: Any, actions: np.ndarray, mask: np.ndarray | None, raise_: bool, penalty: float,
             next_mask: np.ndarray | None) -> np.ndarray | None:  # fmt: skip
        """Check each game's action (against ``mask`` where given); unless some are illegal and ``raise_``, step
        every running game (an illegal action penalized), writing the new masks into ``next_mask`` where given.
        Returns the rows refused (nothing applied), or None. ``actions``: integers, one a game (checked)."""
        K, B = self.kernel, s.batch_size
        actions = int64_actions(actions)
        A = self.num_actions_of(s)
        args = self.kernel_args(s)
        legal = np.empty(B, bool)
        m = np.zeros((0, A), bool) if mask is None else np.ascontiguousarray(mask)
        nm = np.zeros((0, A), bool) if next_mask is None else next_mask
        use_mask, write = mask is not None, next_mask is not None
        nc = self.chunks(B)
        if nc:
            n_bad = K.run_parallel(K.OP_CHECK, *args, actions, m, use_mask, legal, float(penalty), nm, write, nc)
        else:
            n_bad = K.check_range(*args, actions, m, use_mask, legal, 0, B)
        if n_bad and raise_:
            return np.flatnonzero(~legal)
        if nc:
            K.run_parallel(K.OP_STEP, *args, actions, m, use_mask, legal, float(penalty), nm, write, nc)
        else:
            K.step_range(*args, actions, legal, float(penalty), nm, write, 0, B)
        return None

    def observation_size(self, state: Any) -> int:
        """Floats in one observation of ``state``'s games: the kernel's ``NUM_OBS`` by default."""
        return int(self.kernel.NUM_OBS)

    def observe_into(self, state: Any, seats: np.ndarray, out: np.ndarray) -> None:
        """Each game seen from ``seats[i]`` into ``out`` (float32[B, D], zeros): the kernel's ``observe_rows``."""
        self.kernel.observe_rows(*self.kernel_args(state), seats, out)

    def compile_all(self) -> None:
        """Compile every entry of the kernel the verbs reach, each with the arguments' types the verbs pass: two
        games of the fewest and most players played through every verb, on this thread and as one chunk on the
        threads. A kernel with entries no verb reaches overrides it."""
        rng = np.random.default_rng(0)
        for forced in (0, 1):
            self._forced_chunks = forced
            try:
                s = self.init(2, num_players=np.array([min(self.players), max(self.players)]))
                mask = self.legal_action_mask(s)
                self.step(s, self.sample_legal(mask, rng), inplace=True)
                mask = self.legal_action_mask(s)
                self.step(s, self.sample_legal(mask, rng), inplace=True, mask=mask, next_mask=mask)
                self.observe(s)
                self.scores(s)
                self.reset(s, np.ones(2, bool), inplace=True, next_mask=mask)
            finally:
                self._forced_chunks = 0

    def verb(self, name: str) -> Any:
        """The verb ``name`` of this engine (one of :class:`industry_env.core.spec.BatchedEngine`'s, or an optional
        one it has), or AttributeError."""
        from .spec import ENGINE_VERBS

        if name in ENGINE_VERBS or (name in OPTIONAL_VERBS and callable(getattr(self, name, None))):
            return getattr(self, name)
        raise AttributeError(f"the batched engine of {self.name} has no {name!r}")

    def module_getattr(self, module: str) -> Callable[[str], Any]:
        """The ``__getattr__`` (PEP 562) of a game's ``engine.py`` that gives this engine's verbs as the module's
        functions (``engine.init``, ``engine.step``, ...), each set on the module at its first use:
        ``__getattr__ = ENGINE.module_getattr(__name__)``."""
        import sys

        def __getattr__(name: str) -> Any:
            verb = self.verb(name)
            setattr(sys.modules[module], name, verb)
            return verb

        return __getattr__

    # ------------------------------------------------------------------------------------------ the kernel
    def chunks(self, batch_size: int) -> int:
        """Chunks of a call on numba's threads (0: this thread): :func:`.runtime.chunks` from the kernel's
        ``PARALLEL_FROM`` (read at each call)."""
        return self._forced_chunks or runtime.chunks(batch_size, self.kernel.PARALLEL_FROM)

    def warm_up(self) -> None:
        """Make the kernel ready in this process, once: loaded from numba's disk cache where it is fresh, else
        compiled (:meth:`compile_all`) as one step shown on stderr (:func:`warm_up`)."""
        if self._ready:
            return
        self._ready = True
        if self.kernel is not None and not uncompiled.DISABLED:
            warm_up(self.kernel, f"{self.name}'s batched engine", self.compile_all)

    def writable(self, state: Any, inplace: bool) -> Any:
        """The State a call writes: ``state`` itself when ``inplace``, else a copy."""
        return state if inplace else state.copy()

    # ------------------------------------------------------------------------------------------ the verbs
    def init(self, batch_size: int, num_players: Any = None, seed: Any = 0, **options: Any) -> Any:
        """B new games; game i equals the reference game of ``num_players`` seeded ``seed + i`` (or ``seed[i]``),
        with these options. ``num_players`` None: ``default_players``."""
        batch_size = batch_size_of(batch_size)
        n = per_game(self.default_players if num_players is None else num_players, batch_size, self.players,
                     "num_players", self.players_rule)  # fmt: skip
        game_seeds = seeds(batch_size, seed)
        s, kept = self.new_state(batch_size, **options)
        self.warm_up()
        self.new_games(s, np.arange(batch_size, dtype=np.int64), game_seeds, n, kept, None)
        return s

    def reset(self, state: Any, done: Any, seeds: Any = None, inplace: bool = False,
              next_mask: np.ndarray | None = None) -> Any:  # fmt: skip
        """A State where the games in rows ``done`` (bool mask or row indices) start afresh, the others unchanged.

        ``seeds`` (int[B], only the ``done`` rows read) defaults to ``state.seed + B``; players and options are kept
        per row. ``inplace=True`` resets the rows of ``state`` itself; ``next_mask`` receives the new games'
        masks."""
        rows = rows_of(done, state.batch_size)
        new = reset_seeds(state.seed, rows, seeds)
        check_next_mask(next_mask, state.batch_size, self.num_actions_of(state))
        s = self.writable(state, inplace)
        if rows.size:
            new = s.seed[rows] + s.batch_size if new is None else new[rows]  # the reset rows' only (no [B] temporary)
            self.warm_up()
            kept = tuple(getattr(s, f)[rows].copy() for f in self.kept)
            self.new_games(s, rows, new, s.num_players[rows].copy(), kept, next_mask)
        return s

    def legal_action_mask(self, state: Any) -> np.ndarray:
        """bool[B, num_actions]: the legal actions of each game's player to move (all False once over)."""
        self.warm_up()
        out = np.zeros((state.batch_size, self.num_actions_of(state)), bool)
        self.mask_into(state, out)
        return out

    def step(self, state: Any, actions: Any, on_illegal: str = "raise", penalty: float = -1.0, inplace: bool = False,
             mask: np.ndarray | None = None, next_mask: np.ndarray | None = None) -> Any:  # fmt: skip
        """Play one action in every game that is not over; the new State (``inplace=True``: ``state`` itself).

        ``on_illegal``: ``"raise"`` refuses the step with ``IllegalActionError`` (state unchanged); ``"penalize"``
        ends each offending game, ``penalty`` to the player at fault and ``-penalty`` to the others. ``mask``:
        ``legal_action_mask(state)`` of this very state, if the caller has it (actions are checked against it).
        ``next_mask``: a C-contiguous bool[B, num_actions] array receiving the new state's legal masks."""
        B = state.batch_size
        A = self.num_actions or self.num_actions_of(state)
        a_all = step_actions(on_illegal, actions, B, A, mask, self.IllegalActionError)
        if next_mask is not None:
            check_next_mask(next_mask, B, A)
        if not self._ready:
            self.warm_up()
        s = self.writable(state, inplace)
        bad = self.play(s, a_all, mask, on_illegal == "raise", penalty, next_mask)
        if bad is not None:
            raise self.IllegalActionError(self.illegal_message(state, bad, a_all))
        return s

    def illegal_message(self, state: Any, bad: np.ndarray, actions: np.ndarray) -> str:
        """What ``step`` says of the games ``bad`` whose ``actions`` are illegal: each game, its action's name, the
        seat and decision, and the legal actions (the first ten games)."""
        mask = self.legal_action_mask(state.take(bad))
        lines = []
        for j, i in enumerate(bad.tolist()):
            game = self.to_game(state, i)
            a = actions[i]
            legal = np.flatnonzero(mask[j]).tolist()
            try:
                name = repr(game.action_to_string(int(a)))
            except (ValueError, OverflowError):
                name = f"{a!r} (not an action of {self.name}, 0..{mask.shape[1] - 1})"
            shown = ", ".join(game.action_to_string(x) for x in legal[:12])
            more = "" if len(legal) <= 12 else f", ... ({len(legal)} in all)"
            phase = getattr(game, "phase", "")
            who = f"seat {game.current_player}" + (f" at this {phase} decision" if phase else "")
            lines.append(f"game {i} (seed {int(state.seed[i])}): action {name} is not legal for {who}; "
                         f"legal: {shown}{more}")  # fmt: skip
            if len(lines) == 10 and bad.size > 10:
                lines.append(f"... and {bad.size - 10} more games")
                break
        return "\n".join(lines)

    def observe(self, state: Any, player: Any = None) -> np.ndarray:
        """float32[B, observation_size]: each game seen from ``player`` (a seat, or one per game; None: the player to
        move, seat 0 once over), egocentric: the reference game's ``observe``."""
        self.warm_up()
        seats = observers(state, player)
        out = np.zeros((state.batch_size, self.observation_size(state)), np.float32)
        self.observe_into(state, seats, out)
        return out

    def sample_legal(self, mask: Any, rng: np.random.Generator) -> np.ndarray:
        """int64[B]: one action per row drawn uniformly from the True entries of ``mask`` (0 for an empty row): the
        ``floor(u * count)``-th legal action for ``u`` of ``rng.random(B)`` (the kernel's ``sample_rows`` where it
        has one, else :func:`.sampling.sample_rows`)."""
        self.warm_up()
        return sample_legal(mask, rng, getattr(self.kernel, "sample_rows", None) or sampling.sample_rows)

    def random_step(self, state: Any, rng: np.random.Generator, inplace: bool = False, mask: np.ndarray | None = None,
                    next_mask: np.ndarray | None = None) -> tuple[Any, np.ndarray]:  # fmt: skip
        """Every running game plays a uniformly drawn legal action (``sample_legal``); returns the new State and the
        actions. ``mask``: this state's legal masks, if the caller has them; ``next_mask`` as in ``step``."""
        m = self.legal_action_mask(state) if mask is None else mask
        acts = self.sample_legal(m, rng)
        return self.step(state, acts, inplace=inplace, mask=m, next_mask=next_mask), acts

    def copy(self, state: Any) -> Any:
        """An independent copy of the batch (every array copied; the shared parts shared)."""
        return state.copy()

    def take(self, state: Any, rows: Any) -> Any:
        """The games ``rows`` as a new State (an int gives a batch of 1)."""
        return state.take(rows)

    def put(self, state: Any, rows: Any, games: Any) -> Any:
        """A new State equal to ``state`` with the games ``rows`` replaced by those of ``games`` (which must share
        the same parts)."""
        return put(state, rows, games, self.shared)

    def concat(self, states: Sequence[Any]) -> Any:
        """One State holding all the games of ``states`` in order (they must share the same parts)."""
        return concat(states, self.shared)

    def bench(self, batch_size: int = 4096, num_players: int | None = None, seconds: float = 5.0, seed: int = 0,
              **options: Any) -> dict[str, float]:  # fmt: skip
        """Steps per second of ``batch_size`` games playing uniformly random legal actions (finished games reset),
        measured for about ``seconds`` after one warm-up step; and the State's bytes per game."""
        rng = np.random.default_rng(seed)
        state = self.init(batch_size, num_players, seed=seed, **options)
        mask = self.legal_action_mask(state)
        self.step(state, self.sample_legal(mask, rng), inplace=True, mask=mask, next_mask=mask)
        steps, t0, c0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < seconds:
            self.step(state, self.sample_legal(mask, rng), inplace=True, mask=mask, next_mask=mask)
            steps += batch_size
            if state.terminated.any():
                self.reset(state, state.terminated, inplace=True, next_mask=mask)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        return {"batch_size": batch_size, "steps_per_second": steps / dt, "steps_per_cpu_second": steps / cpu,
                "bytes_per_game": state.state_bytes_per_game}  # fmt: skip


#: The verbs an engine may have besides those of :class:`industry_env.core.spec.BatchedEngine` (tools look for them).
OPTIONAL_VERBS = ("ranking", "rollout", "resample", "bench")

#: The kernel entries the default hooks of :class:`Engine` call (a kernel of another shape overrides the hooks).
STANDARD_ENTRIES: dict[str, str] = {
    "check_range": "(*args, actions, mask, use_mask, legal, lo, hi) -> int: legal[i] of games lo:hi, the illegal count",
    "step_range": "(*args, actions, legal, penalty, next_mask, write_next, lo, hi): step games lo:hi",
    "mask_range": "(*args, out, lo, hi): the legal masks of games lo:hi into out",
    "run_parallel": "(op, *args, actions, mask, use_mask, legal, penalty, next_mask, write_next, nc) -> int: "
                    "OP_CHECK, OP_STEP or OP_MASK over nc chunks on numba's threads",
    "observe_rows": "(*args, seats, out): each game seen from seats[i] into out",
    "NUM_OBS": "int: floats in one observation",
}
