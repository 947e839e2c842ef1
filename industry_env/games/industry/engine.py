"""The batched engine of Industry: B games as one dataclass of arrays, stepped together.

This is the fast engine for reinforcement learning; :mod:`industry_env.games.industry.reference` is the readable oracle
it is checked against, game by game (``tests/industry/test_engine_differential.py``, ``industry-env verify``). This
module is the front: the State, the backend's choice, and each verb's call to the compiled kernel (:mod:`.kernel`)
or to the numpy backend (:mod:`.numpy_backend`), where each rule is the reference's rule written as array code over
the batch, one function per phase named as the reference names it (:mod:`.numpy_rounds`, :mod:`.numpy_auction`,
:mod:`.numpy_development`).

Functional API
==============
=============================================  ==========================================================
``init(B, num_players=4, seed=0, board=None,    B new games; game i has seed ``seed + i`` (or ``seed[i]`` for
balanced_draws=True) -> State``                 an int array), so it equals ``reference.Game(n, seed + i)``
``step(state, actions, on_illegal="raise",      one action per game -> a new State (the input is unchanged;
inplace=False, mask=None)``                     ``inplace=True``: updated in place and returned, no copy;
                                                ``mask``: the state's legal-action mask, checked against it)
``legal_action_mask(state) -> bool[B, 314]``    legal actions of the player to move; all False once over
``observe(state, player=None) -> f32[B, D]``    :mod:`.observation` layout, seen from ``player``
``scores(state) -> int16[B, 4]``                Scoring Track; final scores once a game is over
``reset(state, done, seeds=None,                new games in the rows of ``done`` (a new State;
inplace=False) -> State``                       ``inplace=True``: in place)
``take / put / concat / copy``                  batch surgery: a game out (batch of 1), in, batches joined
``to_game(state, i) / from_games(games)``       to and from :class:`.reference.Game` (its JSON)
=============================================  ==========================================================

State fields: declared once in :mod:`.state` (``SCHEMA``: name, dtype, shape per game, fill, meaning; the table
is in ``docs/industry/engine.md``).

``state.current_player`` (int8[B], -1 once over) is derived from the phase. ``board`` is shared by the batch.
The state is 364 bytes per game (``State.state_bytes_per_game``); the caches are redundant with ``owner`` and
``developed`` and rebuilt by ``from_games``.

Conventions (enforced in :func:`step`)
======================================
* Illegal action, ``on_illegal="raise"`` (default): the step is refused with :class:`IllegalActionError`
  naming every offending game and its action (and the legal ones); the state is unchanged (``step`` never
  mutates its input, unless ``inplace=True``; a refused step leaves even that state unchanged).
* Illegal action, ``on_illegal="penalize"``: the Pgx convention (``Env._step_with_illegal_action`` in
  sotetsuk/pgx ``core.py``): the offending game ends at once (``terminated``), the player at fault receives
  ``penalty`` (default -1) and every other player ``-penalty`` (+1, a winner's reward); the position is
  otherwise left as it was. Legal games of the batch step normally. Pgx gives the others
  ``-penalty * (num_players - 1)``, written for two players, where both agree; with 3 or 4 players that would
  give +2 or +3, off the +-1 scale of a normal end, so the others get what a winner gets.
* Stepping a game that is already over does nothing and gives it zero rewards; its action is ignored, as in
  Pgx. Its legal-action mask is all False (the reference's empty ``legal_actions()``), unlike Pgx's all True.
* ``rewards`` are zero except on the step that ends a game: +1 for each winner, -1 for the others, 0 for all if
  every player ties (``Game.returns()``); slot 3 of a 3-player game is always 0.
* ``reset`` returns a new State with fresh games in the rows of ``done``; by default row i gets seed
  ``seed[i] + B``, so a batch started by ``init(B, seed=s)`` and reset after each game plays seeds
  ``s + k * B + i``.
* Fast path for training loops: ``step(state, actions, inplace=True, mask=mask)`` and
  ``reset(state, done, inplace=True)`` update ``state`` itself (no copy of the batch) and check the actions
  against ``mask``, which must be ``legal_action_mask(state)`` of this very state (the one the actions were
  sampled from); the result is identical to the functional calls.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
from collections.abc import Iterator, Sequence
from types import ModuleType

import numpy as np

from ...core import batched
from ...core.sampling import pick_uniform
from ...core.state import BatchState
from . import actions as A
from . import chance, numpy_backend, numpy_rounds
from .components import Board, load_board
from .numpy_tables import AUCTION, BID, DEVELOP, OVER, PAY, SELL_OR_KEEP, P, board_tables, rows_players
from .positions import JSON_VERSION, PHASES
from .reference import Game, IllegalActionError
from .rules import MAX_PLAYERS, MIN_PLAYERS, NUM_COLUMNS
from .state import SCHEMA

__all__ = [
    "State", "init", "step", "finished", "legal_action_mask", "observe", "scores", "reset", "take", "put", "concat",
    "copy", "to_game", "from_games", "ranking", "sample_legal", "random_step", "rollout", "backend", "set_backend",
    "use_backend",
    "IllegalActionError",
    "AUCTION", "BID", "SELL_OR_KEEP", "DEVELOP", "PAY", "OVER",
    "P", "board_tables", "rows_players",  # the numpy rules' (.numpy_tables), still importable from here
]  # fmt: skip


class State(BatchState):
    """B games of Industry as arrays, the fields of :data:`.state.SCHEMA`, and the ``board`` they share."""

    SCHEMA = SCHEMA
    EXTRAS = ("board",)

    @property
    def current_player(self) -> np.ndarray:
        """int8[B]: the player whose decision is awaited, -1 once the game is over (or ended by a penalty)."""
        if _backend == "numba":
            from . import observe_kernel

            return observe_kernel.current_player(self)
        ph = self.phase
        out = np.where(ph == BID, self.bidder, self.auctioneer)
        out = np.where(ph >= DEVELOP, self.developer, out)
        return np.where((ph == OVER) | self.terminated, np.int8(-1), out).astype(np.int8, copy=False)


_ARRAY_FIELDS = SCHEMA.names
_DTYPES = {f.name: f.dtype for f in SCHEMA.fields}


_LAYOUT, _BYTES_PER_GAME = SCHEMA.offset, SCHEMA.bytes_per_game


# ---------------------------------------------------------------------------------------------- backends
_BACKENDS = ("numpy", "numba")


def _check_backend(name: str, where: str) -> str:
    """``name`` if it is a usable backend, else a clear error saying what is wrong and how to fix it."""
    if name not in _BACKENDS:
        raise ValueError(f"{where}={name!r}: expected 'numpy' or 'numba'")
    if name == "numba" and importlib.util.find_spec("numba") is None:
        raise ValueError(f"{where}='numba' but numba is not installed: pip install 'industry_env[fast]'")
    return name


def _default_backend() -> str:
    """``INDUSTRY_ENV_BACKEND`` if set, else the compiled kernel where numba is installed, else numpy."""
    want = os.environ.get("INDUSTRY_ENV_BACKEND", "").strip().lower()
    if want:
        return _check_backend(want, "INDUSTRY_ENV_BACKEND")
    return "numba" if importlib.util.find_spec("numba") is not None else "numpy"


_backend = _default_backend()


def backend() -> str:
    """The backend that runs ``legal_action_mask``, ``step``, ``sample_legal`` and ``rollout``: 'numba' (the
    compiled kernel, :mod:`industry_env.games.industry.kernel`) or 'numpy' (the array rules of
    :mod:`.numpy_backend`); the results agree."""
    return _backend


def set_backend(name: str) -> None:
    """Switch the backend of this process ('numpy' or 'numba'; the default comes from ``INDUSTRY_ENV_BACKEND``)."""
    global _backend
    _backend = _check_backend(name, "backend")


def _kernel() -> ModuleType:
    """:mod:`industry_env.games.industry.kernel`, imported and warmed up (compiled, or loaded from numba's disk
    cache) once (an import statement per call costs a microsecond at batch 1)."""
    global _kernel_module
    if _kernel_module is None:
        from . import kernel

        kernel.warm_up(State, load_board())
        _kernel_module = kernel
    return _kernel_module


_kernel_module = None


@contextlib.contextmanager
def use_backend(name: str | None) -> Iterator[str]:
    """Run a block with backend ``name`` (None: keep the current one), then restore the previous one."""
    before = _backend
    set_backend(name or before)
    try:
        yield _backend
    finally:
        set_backend(before)


def _from_buffer(buf: np.ndarray, batch_size: int, board: Board) -> State:
    """The State whose arrays are the views of ``buf`` (uint8[B * bytes per game]) laid out by ``_LAYOUT``."""
    return State.from_buffer(buf, batch_size, board=board)  # fields viewed on first use


_FLAT_WRITTEN = ("claimed", "owner", "developed", "face_up", "money", "points", "jokers", "subsidy", "produces",
                 "discount")  # fmt: skip


def _to_write(state: State, inplace: bool) -> State:
    """The State a compiled step writes: ``state`` itself when in place on its buffer, else :func:`_writable`."""
    return state if inplace and state.buffer is not None else _writable(state, inplace)


def _writable(state: State, inplace: bool) -> State:
    """The State a step or reset writes: a copy, or (``inplace``) ``state`` itself, its arrays that the numpy rules
    write through :func:`.numpy_tables.flat_view` made C-contiguous (they always are, unless replaced by a strided
    view)."""
    if not inplace:
        return state.copy()
    for name in _FLAT_WRITTEN:
        a = getattr(state, name)
        if not a.flags.c_contiguous:
            setattr(state, name, np.ascontiguousarray(a))
    return state


# ---------------------------------------------------------------------------------------------- init
def _empty(batch_size: int, board: Board) -> State:
    """A batch of all-zero (or -1) arrays of the right dtypes and shapes, views of one buffer (``_from_buffer``)."""
    return State.empty(batch_size, board=board)


_MAX_SEED = batched.MAX_SEED
# The shared front's checks (core.batched), under this module's old names
_seeds, _is_whole, _rows_of = batched.seeds, batched.is_whole, batched.rows_of


def _new_games(
    s: State,
    rows: np.ndarray,
    seeds: np.ndarray,
    n: np.ndarray,
    balanced: np.ndarray,
    next_mask: np.ndarray | None = None,
) -> None:
    """Preparing the Game, in place, for the games ``rows`` of ``s`` (then the first round begins); their
    legal-action masks into the rows of ``next_mask`` if given."""
    if _backend == "numba":
        _kernel().new_games(s, rows, seeds, n, balanced, next_mask)
        return
    numpy_backend.new_games(s, rows, seeds, n, balanced, next_mask)


def _new_state(batch_size: int, board: Board | None = None,
               balanced_draws: bool | np.ndarray = True) -> tuple[State, tuple[np.ndarray]]:  # fmt: skip
    """``init``'s options checked: an empty State on ``board`` and each game's draw variant."""
    raw_b = np.asarray(balanced_draws)
    zero_one = np.issubdtype(raw_b.dtype, np.integer) and np.isin(raw_b, (0, 1)).all()  # 0/1 flags per game
    if (raw_b.dtype != bool and not zero_one) or raw_b.ndim > 1 or (raw_b.ndim == 1 and raw_b.size != batch_size):
        raise ValueError(f"balanced_draws={balanced_draws!r}: must be True or False (or one bool per game)")
    bal = np.broadcast_to(raw_b.astype(bool), (batch_size,)).copy()
    return _empty(batch_size, board if board is not None else load_board()), (bal,)


def ranking(state: State) -> np.ndarray:
    """int64[B, P]: the rules' order of the players of finished games (points, then Property tokens on the board,
    then money), as a key per seat: higher is better, equal keys tie on everything; -1 for absent seats."""
    return numpy_rounds.ranking(state, np.arange(state.batch_size))


def scores(state: State) -> np.ndarray:
    """int16[B, P]: the Scoring Track, or the final score (``Game.scores()``) once a game is over."""
    out = state.points.astype(np.int16).copy()
    over = np.flatnonzero(state.phase == OVER)
    if over.size:
        out[over] = numpy_rounds.final_scores(state, over)
    return out


def finished(state: State) -> np.ndarray:
    """bool[B]: the games ended by the rules (the final scoring done), not by an illegal action."""
    return state.phase == OVER


def legal_action_mask(state: State) -> np.ndarray:
    """bool[B, NUM_ACTIONS]: the legal actions of each game's player to move (all False once over)."""
    if _backend == "numba":
        return _kernel().legal_action_mask(state)
    return numpy_backend.mask_into(state, np.zeros((state.batch_size, A.NUM_ACTIONS), bool))


def _illegal_message(s: State, rows: np.ndarray, a: np.ndarray) -> str:
    """'game 3: action 'bid 9' is not legal for player 1 at this bid decision; legal: ...' for each game."""
    mask = legal_action_mask(s.take(rows))
    lines = []
    for j, (i, act) in enumerate(zip(rows.tolist(), a.tolist(), strict=True)):
        legal = np.flatnonzero(mask[j]).tolist()
        try:
            name = repr(A.action_to_string(act, s.board.resource_names))
        except ValueError:
            name = f"{act!r} (not an action of Industry, 0..{A.NUM_ACTIONS - 1})"
        shown = ", ".join(A.action_to_string(x, s.board.resource_names) for x in legal[:12])
        more = "" if len(legal) <= 12 else f", ... ({len(legal)} in all)"
        who = f"player {int(s.current_player[i])} at this {PHASES[int(s.phase[i])]} decision"
        lines.append(f"game {i} (seed {int(s.seed[i])}): action {name} is not legal for {who}; legal: {shown}{more}")
        if len(lines) == 10 and len(rows) > 10:
            lines.append(f"... and {len(rows) - 10} more games")
            break
    return f"step refused, state unchanged: {len(rows)} illegal action(s)\n" + "\n".join(lines)


# ---------------------------------------------------------------------------------------------- step
def _play(s: State, a_all: np.ndarray, mask: np.ndarray | None, raise_: bool, penalty: float,
          next_mask: np.ndarray | None) -> np.ndarray | None:  # fmt: skip
    """``step`` on the State it writes, its arguments checked (``ENGINE.play``): the rows refused, or None."""
    if _backend == "numba":
        return _kernel().step(s, a_all, raise_, penalty, True, mask, next_mask)[1]
    return numpy_backend.play(s, a_all, mask, raise_, penalty, next_mask)


# ---------------------------------------------------------------------------------------------- observation
def observe(state: State, player: int | np.ndarray | None = None) -> np.ndarray:
    """float32[B, OBS_DIM]: each game seen from ``player`` (None: the player to move; seat 0 once over).

    The layout is :mod:`industry_env.games.industry.observation`'s; ``observation.observe_game`` is the readable twin.
    """
    if _backend == "numba":
        from . import observe_kernel

        return observe_kernel.observe(state, player, _kernel().PARALLEL_FROM)
    return numpy_backend.observe(state, player)


# ---------------------------------------------------------------------------------------------- the reference
def to_game(state: State, i: int) -> Game:
    """Game ``i`` as a reference :class:`Game` (through its checked JSON form)."""
    i = state.check_row(i, "to_game")
    s, n = state, int(state.num_players[i])
    doc = {
        "version": JSON_VERSION,
        "board": s.board.path,
        "num_players": n,
        "balanced_draws": bool(s.balanced_draws[i]),
        "seed": int(s.seed[i]),
        "era": int(s.era[i]),
        "round": int(s.round[i]),
        "starting_player": int(s.starting_player[i]),
        "bag": s.bag[i, int(s.bag_pos[i]) :].astype(int).tolist(),
        "face_up": s.face_up[i].tolist(),
        "claimed": s.claimed[i].tolist(),
        "owner": s.owner[i].astype(int).tolist(),
        "developed": s.developed[i].tolist(),
        "money": s.money[i, :n].astype(int).tolist(),
        "points": s.points[i, :n].astype(int).tolist(),
        "jokers": s.jokers[i, :n].astype(int).tolist(),
        "subsidy": s.subsidy[i, :n].tolist(),
        "phase": PHASES[int(s.phase[i])],
        "auctioneer": int(s.auctioneer[i]),
        "lot": int(s.lot[i]),
        "bidder": int(s.bidder[i]),
        "high_bid": int(s.high_bid[i]),
        "high_bidder": int(s.high_bidder[i]),
        "developer": int(s.developer[i]),
        "developments": int(s.developments[i]),
        "dev_turns": int(s.dev_turns[i]),
        "developing": int(s.developing[i]),
        "pending": [int(r) for r in s.pending[i] if r >= 0],
    }
    return Game.from_json(json.dumps(doc), board=s.board)


def from_games(games: Sequence[Game]) -> State:
    """A State holding the reference games ``games`` (same board), caches rebuilt, rewards zero."""
    if not games:
        raise ValueError("from_games needs at least one game")
    board = games[0].board
    if any(g.board is not board for g in games):
        raise ValueError("from_games: the games use different boards")
    s = _empty(len(games), board)
    t = board_tables(board)
    for i, g in enumerate(games):
        d = g.s
        n = d.num_players
        s.seed[i], s.num_players[i], s.balanced_draws[i] = d.seed, n, d.balanced_draws
        s.era[i], s.round[i], s.starting_player[i] = d.era, d.round, d.starting_player
        drawn = NUM_COLUMNS - len(d.bag)
        s.bag_pos[i] = drawn
        full = chance.bag_order(d.seed, d.era)  # the seed's order, if the bag is its tail (else -1 before it)
        s.bag[i] = full if full[drawn:].tolist() == list(d.bag) else [-1] * drawn + list(d.bag)
        s.face_up[i], s.claimed[i], s.owner[i], s.developed[i] = d.face_up, d.claimed, d.owner, d.developed
        s.money[i, :n], s.points[i, :n], s.jokers[i, :n], s.subsidy[i, :n] = d.money, d.points, d.jokers, d.subsidy
        s.phase[i] = PHASES.index(d.phase)
        s.auctioneer[i], s.lot[i], s.bidder[i] = d.auctioneer, d.lot, d.bidder
        s.high_bid[i], s.high_bidder[i] = d.high_bid, d.high_bidder
        s.developer[i], s.developments[i], s.dev_turns[i] = d.developer, d.developments, d.dev_turns
        s.developing[i] = d.developing
        s.pending[i, : len(d.pending)] = d.pending
        s.terminated[i] = d.phase == "over"
        for q in range(n):
            mine = (s.owner[i] == q) & s.developed[i]
            s.discount[i, q] = int(t.DISCOUNT[mine].sum())
            made = t.PRODUCES[mine]
            s.produces[i, q, made[made >= 0]] = True
    return s


# ---------------------------------------------------------------------------------------------- random play
def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """int64[B]: one action per row drawn uniformly from the True entries of ``mask`` (0 for an empty row).

    For random play in benchmarks and tests: a few array operations, no loop over games (or one compiled
    call). Both backends draw ``rng.random(B)`` and pick the ``floor(u * count)``-th legal action of each row.
    """
    if _backend == "numba":
        return _kernel().sample_legal(mask, rng)
    return pick_uniform(mask, rng.random(mask.shape[0]))


def _random_step(state: State, rng: np.random.Generator, inplace: bool = False, mask: np.ndarray | None = None,
                 next_mask: np.ndarray | None = None) -> tuple[State, np.ndarray]:  # fmt: skip
    """Every live game plays one legal action drawn uniformly at random: ``(new State, int64[B] actions)``.

    The same draws and the same games as ``step(state, sample_legal(legal_action_mask(state), rng))``, in one
    pass: the compiled backend lists, draws and plays each game's action in one call (no mask is written unless
    ``next_mask`` asks for it, as in ``step``). For random opponents, benchmarks and balance studies at full
    speed. ``actions`` holds 0 for finished games; ``inplace`` as in ``step``; ``mask``: this state's legal masks,
    if the caller has them (then the draws pick among them and ``step`` plays them).
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    if mask is not None:
        a = sample_legal(mask, rng)
        return ENGINE.step(state, a, inplace=inplace, mask=mask, next_mask=next_mask), a
    if next_mask is not None:
        batched.check_next_mask(next_mask, state.batch_size, A.NUM_ACTIONS)
    if _backend == "numba":
        return _kernel().random_step(_to_write(state, inplace), rng, inplace, next_mask)
    u = rng.random(state.batch_size)
    m = legal_action_mask(state)
    a = pick_uniform(m, u)
    s = _writable(state, inplace)
    numpy_backend.play(s, a, m, True, -1.0, next_mask)
    return s, a


def rollout(
    state: State,
    max_steps: int,
    weights: np.ndarray | None = None,
    key: int = 0,
    inplace: bool = False,
    stop_at: np.ndarray | None = None,
) -> tuple[State, np.ndarray]:
    """Play every game at random for up to ``max_steps`` decisions or to its end: ``(new State, int64[B] steps)``.

    Each decision is drawn from the legal ones uniformly, or (``weights``, float[314], >= 0) with probability
    proportional to its weight; ``steps`` counts the decisions each game played. For search players (playouts)
    and balance studies; the compiled backend plays the games to the end in one call. The randomness is
    counter-based and seeded by the state: game ``i``'s ``k``-th decision of the call draws ``u`` in [0, 1)
    from the SplitMix64 hash of (its chance seed, ``key``, ``i``, ``k``) (see
    :mod:`industry_env.games.industry.kernel`), so both backends play the same games, rows holding the same game play
    differently, and ``key`` gives other playouts. ``rewards`` of the result: ``Game.returns()`` for the games that
    ended in this rollout, else 0.
    ``inplace=True`` plays in ``state`` itself. ``stop_at`` (int[B]): game ``i`` stops before a decision of player
    ``stop_at[i]`` (the learner's seat: random opponents played until the learner is to move); -1 never stops.
    """
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) or max_steps < 0:
        raise ValueError(f"max_steps={max_steps!r}: expected a whole number >= 0")
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key <= _MAX_SEED:
        raise ValueError(f"key={key!r}: expected a whole number from 0 to 2**63 - 1")
    if weights is not None:
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        if weights.shape != (A.NUM_ACTIONS,) or not (np.isfinite(weights).all() and (weights >= 0).all()):
            raise ValueError(f"weights must be {A.NUM_ACTIONS} finite numbers >= 0, one per action, got "
                             f"shape {list(weights.shape)}")  # fmt: skip
    if stop_at is not None:
        stop_at = np.asarray(stop_at)
        if stop_at.shape != (state.batch_size,) or not np.issubdtype(stop_at.dtype, np.integer):
            raise ValueError(f"stop_at must be int[{state.batch_size}], a seat (or -1) per game, got "
                             f"{stop_at.dtype}{list(stop_at.shape)}")  # fmt: skip
        stop_at = np.ascontiguousarray(stop_at, np.int64)
    if _backend == "numba":
        return _kernel().rollout(_writable(state, inplace), int(max_steps), weights, int(key), inplace, stop_at)
    return numpy_backend.rollout(_writable(state, inplace), int(max_steps), weights, int(key), stop_at)


# ---------------------------------------------------------------------------------------------- the engine
class Engine(batched.Engine):
    """Industry on the shared front (:class:`industry_env.core.batched.Engine`), with two backends behind it: the
    compiled kernel (:mod:`.kernel`, imported and warmed up by the first call that runs it) and the numpy rules
    (:mod:`.numpy_backend`, where nothing compiles; ``INDUSTRY_ENV_BACKEND=numpy``). The verbs that differ by backend
    are this module's functions; ``init``, ``reset``, ``step``'s checks and the batch surgery are the front's."""

    name, State, IllegalActionError = "Industry", State, IllegalActionError
    num_actions, players, default_players = A.NUM_ACTIONS, (MIN_PLAYERS, MAX_PLAYERS), 4
    players_rule = f"Industry is played by {MIN_PLAYERS} or {MAX_PLAYERS}"
    kept, shared = ("balanced_draws",), "boards"

    def new_state(self, batch_size: int, board: Board | None = None,  # type: ignore[override]
                  balanced_draws: bool | np.ndarray = True) -> tuple[State, tuple[np.ndarray]]:  # fmt: skip
        return _new_state(batch_size, board, balanced_draws)

    def new_games(self, s: State, rows: np.ndarray, seeds: np.ndarray, num_players: np.ndarray,
                  kept: tuple[np.ndarray, ...], next_mask: np.ndarray | None) -> None:  # fmt: skip
        _new_games(s, rows, seeds, num_players, kept[0], next_mask)

    def writable(self, state: State, inplace: bool) -> State:
        return _to_write(state, inplace) if _backend == "numba" else _writable(state, inplace)

    play = staticmethod(_play)  # (no frame of its own: at batch 1 each call is a tenth of a step)

    def illegal_message(self, state: State, bad: np.ndarray, actions: np.ndarray) -> str:
        return _illegal_message(state, bad, actions[bad].astype(np.int64))

    def legal_action_mask(self, state: State) -> np.ndarray:
        return legal_action_mask(state)

    def observe(self, state: State, player: int | np.ndarray | None = None) -> np.ndarray:
        return observe(state, player)

    def sample_legal(self, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return sample_legal(mask, rng)

    def random_step(self, state: State, rng: np.random.Generator, inplace: bool = False,
                    mask: np.ndarray | None = None, next_mask: np.ndarray | None = None) -> tuple[State, np.ndarray]:
        return _random_step(state, rng, inplace, mask, next_mask)

    def finished(self, state: State) -> np.ndarray:
        return finished(state)

    def scores(self, state: State) -> np.ndarray:
        return scores(state)

    def to_game(self, state: State, i: int) -> Game:
        return to_game(state, i)

    def from_games(self, games: Sequence[Game]) -> State:
        return from_games(games)


ENGINE = Engine()
init, reset, step, random_step = ENGINE.init, ENGINE.reset, ENGINE.step, ENGINE.random_step
copy, take, put, concat = ENGINE.copy, ENGINE.take, ENGINE.put, ENGINE.concat
