"""The batched engine of Age of Industry: B games as one State of arrays, stepped by a numba kernel (:mod:`.kernel`).

:class:`.reference.Game` is the readable oracle it is checked against, game by game
(``tests/age_of_industry/test_engine.py``): game i of ``init(B, seed=s)`` is ``Game(n, seed=s + i)``, and every
legal mask, player to move, observation of every seat, reward and score agrees with it at every decision.

Functional API
==============
================================================  ====================================================
``init(B, num_players=4, seed=0, map="germany",   B new games; game i seeded ``seed + i`` (or ``seed[i]``)
edition=2) -> State``
``step(state, actions, on_illegal="raise",        one action per game -> a new State (``inplace=True``:
penalty=-1.0, inplace=False, mask=None,           ``state`` itself); ``mask``: the state's legal mask;
next_mask=None)``                                 ``next_mask``: receives the new state's legal masks
``legal_action_mask(state) -> bool[B, A]``        legal actions of the player to move; all False once over
``observe(state, player=None) -> f32[B, D]``      :mod:`.observation` of any seat (None: the one to move)
``scores(state) -> int32[B, 5]``                  ``Game.scores()`` (final points once over)
``reset(state, done, seeds=None, inplace=False,   new games in the rows ``done`` (default seeds: old + B)
next_mask=None)``
``finished / take / put / concat / copy``         games over by the rules; batch surgery
``to_game(state, i) / from_games(games)``         to and from :class:`.reference.Game` (its checked JSON)
``resample(state, seat, seeds)``                  what ``seat`` cannot see redealt, game i from ``seeds[i]``
================================================  ====================================================

State: the entries of :data:`.state.FIELDS` with a leading game axis (seats padded to 5), ``terminated`` and
``rewards`` (:func:`.state.batch_schema`; one buffer behind all arrays, :mod:`industry_env.core.state`), and the
map shared by the batch (``state.map``). ``state.current_player`` (int8[B], -1 once over) is derived.

Conventions (those of Industry's engine): an illegal action with ``on_illegal="raise"`` refuses the whole step with
:class:`IllegalActionError` naming each offending game, the state unchanged; with ``"penalize"`` the offending
game ends at once, the player at fault gets ``penalty`` and the others ``-penalty`` (the Pgx convention). A game
already over ignores its action and gets zero rewards. ``rewards`` are zero except on the step that ends a game:
+1 for the winner, -1 for the others (``Game.returns()``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ...core import batched
from ...core.spec import ENGINE_VERBS
from ...core.state import BatchState
from . import kernel as K
from . import kernel_layout as KL
from .components import MAPS, GameMap, load_components, load_map
from .reference import Game, IllegalActionError
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import FIELDS, GAME_NAME, JSON_VERSION, OVER, batch_schema

# the verbs (init, step, ...) are the shared front's, given by the module's __getattr__ (bottom)
__all__ = ["State", "IllegalActionError", "resample", "bench", *ENGINE_VERBS]

P = MAX_PLAYERS
_MAX_SEED = batched.MAX_SEED
_NO_ACTIONS = np.zeros(0, np.int64)  # the actions of a call that reads none


class State(BatchState):
    """B games of Age of Industry on one map: the arrays of the map's schema (:func:`.state.batch_schema`), and
    the map they share (``state.map``). Each map has its subclass (:func:`state_class`): the sizes differ."""

    EXTRAS = ("map",)

    @property
    def current_player(self) -> np.ndarray:
        """int8[B]: the seat whose decision is awaited, -1 once over (or ended by an illegal action)."""
        B = self.batch_size
        cur = self.order[np.arange(B), np.clip(self.turn, 0, P - 1)]
        return np.where((self.phase == OVER) | self.terminated, np.int8(-1), cur).astype(np.int8)

    def __reduce__(self) -> tuple:
        return _unpickle, (self.map.key, {k: v for k, v in self.__getstate__().items() if not k.startswith("_")})


def _unpickle(map_key: str, values: dict[str, Any]) -> State:
    game_map = load_map(map_key)
    s = state_class(game_map).__new__(state_class(game_map))
    s.__setstate__({**values, "map": game_map})
    return s


@lru_cache(maxsize=16)
def _setup(game_map: GameMap) -> tuple[type, np.ndarray]:
    components = load_components()
    sizes = {"K": components.num_card_kinds, "D": components.num_slots, "C": sum(components.CARD_COUNT),
             "S": game_map.num_spaces, "L": game_map.num_links}  # fmt: skip
    schema = batch_schema(sizes)
    name = "State_" + "".join(ch if ch.isalnum() else "_" for ch in game_map.key)
    cls = type(name, (State,), {"SCHEMA": schema, "__module__": __name__})
    return cls, KL.tables(components, game_map)


def state_class(game_map: GameMap) -> type:
    """The State subclass of a map (its arrays' sizes)."""
    return _setup(game_map)[0]


def _tables(state: State) -> np.ndarray:
    return KL.wrap_tables(_setup(state.map)[1])


def _games(state: State) -> Any:
    """The kernel's view of ``state``: a named tuple of its arrays, all views of its one buffer."""
    buf = state.backed()
    hit = state.__dict__.get("_kernel_view")
    if hit is not None and hit[0] is buf:
        return hit[1]
    g = KL.views(buf, state.SCHEMA, state.batch_size)
    state.__dict__["_kernel_view"] = (buf, g)
    return g


COLD_COMPILE_SECONDS = K.COLD_COMPILE_SECONDS  # (the kernel's; kept here for callers of the old name)


def _map_of(map: Any) -> GameMap:  # noqa: A002 (the suite's option name)
    if isinstance(map, GameMap):
        return map
    if not isinstance(map, str):
        raise ValueError(f"map={map!r}: must be one of {', '.join(MAPS)} (or a map file's path)")
    return load_map(map)


class Engine(batched.Engine):
    """Age of Industry on the shared front (:class:`industry_env.core.batched.Engine`): its kernel's serial step
    (check and apply in one call) and parallel entry, a map's sizes, the options ``map`` and ``edition``."""

    name, State, IllegalActionError, kernel = "Age of Industry", State, IllegalActionError, K
    players, default_players = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), 4
    kept, shared = ("edition",), "maps"

    def num_actions_of(self, state: State) -> int:
        return int(_setup(state.map)[1][KL.X_NA])

    def new_state(self, batch_size: int, map: Any = "germany",  # type: ignore[override]  # noqa: A002
                  edition: Any = 2) -> tuple[State, tuple[np.ndarray, ...]]:  # fmt: skip
        ed = batched.per_game(edition, batch_size, (1, 2), "edition")
        game_map = _map_of(map)
        return state_class(game_map).empty(batch_size, map=game_map), (ed,)

    def new_games(self, s: State, rows: np.ndarray, seeds: np.ndarray, num_players: np.ndarray,
                  kept: tuple[np.ndarray, ...], next_mask: np.ndarray | None) -> None:  # fmt: skip
        t = _tables(s)
        nm = np.zeros((0, int(t[KL.X_NA])), bool) if next_mask is None else next_mask
        K.new_games(_games(s), t, np.ascontiguousarray(rows, np.int64), np.ascontiguousarray(seeds, np.int64),
                    np.ascontiguousarray(num_players, np.int8), np.ascontiguousarray(kept[0], np.int8), nm,
                    next_mask is not None)  # fmt: skip

    def kernel_args(self, state: State) -> tuple:
        return _games(state), _tables(state)

    def mask_into(self, state: State, out: np.ndarray) -> None:
        B, nc = state.batch_size, self.chunks(state.batch_size)
        if nc:
            K.run_parallel(K.OP_MASK, _games(state), _tables(state), _NO_ACTIONS, out, False, np.empty(B, bool), 0.0,
                           out, True, nc)  # fmt: skip
        else:
            K.mask_serial(_games(state), _tables(state), out)

    def play(self, s: State, actions: np.ndarray, mask: np.ndarray | None, raise_: bool, penalty: float,
             next_mask: np.ndarray | None) -> np.ndarray | None:  # fmt: skip
        """The kernel's ``step_serial`` (check, then apply unless refused), or its parallel entry's check and apply."""
        B, t, g = s.batch_size, _tables(s), _games(s)
        actions = batched.int64_actions(actions)
        legal = np.empty(B, bool)
        m = np.zeros((0, int(t[KL.X_NA])), bool) if mask is None else np.ascontiguousarray(mask)
        nm = np.zeros((0, int(t[KL.X_NA])), bool) if next_mask is None else next_mask
        nc = self.chunks(B)
        if nc:
            n_bad = K.run_parallel(K.OP_CHECK, g, t, actions, m, mask is not None, legal, 0.0, nm, False, nc)
            if not (n_bad and raise_):
                K.run_parallel(K.OP_APPLY, g, t, actions, m, mask is not None, legal, float(penalty), nm,
                               next_mask is not None, nc)  # fmt: skip
        else:
            n_bad = K.step_serial(g, t, actions, m, mask is not None, legal, raise_, float(penalty), nm,
                                  next_mask is not None)  # fmt: skip
        return np.flatnonzero(~legal) if n_bad and raise_ else None

    def observation_size(self, state: State) -> int:
        return int(_setup(state.map)[1][KL.X_NOBS])

    def observe_into(self, state: State, seats: np.ndarray, out: np.ndarray) -> None:
        K.observe_rows(_games(state), _tables(state), seats, out)

    def compile_all(self) -> None:
        """Call every compiled entry once, on two games (each argument of the types the engine passes)."""
        cls, t = _setup(_map_of("germany"))
        s = cls.empty(2, map=_map_of("germany"))
        g = _games(s)
        next_mask = np.zeros((2, int(t[KL.X_NA])), bool)
        K.new_games(g, t, np.arange(2, dtype=np.int64), np.arange(2, dtype=np.int64), np.array([3, 4], np.int8),
                    np.array([2, 1], np.int8), next_mask, True)  # fmt: skip
        acts = np.zeros(2, np.int64)
        K.sample_rows(next_mask, np.zeros(2), acts)
        legal = np.zeros(2, bool)
        K.step_serial(g, t, acts, next_mask, True, legal, True, -1.0, next_mask, True)
        K.run_parallel(K.OP_CHECK, g, t, acts, next_mask, True, legal, -1.0, next_mask, True, 1)
        K.mask_serial(g, t, next_mask)
        K.observe_rows(g, t, np.zeros(2, np.int64), np.zeros((2, int(t[KL.X_NOBS])), np.float32))
        K.scores_rows(g, t, np.zeros((2, P), np.int64))

    def finished(self, state: State) -> np.ndarray:
        return state.phase == OVER

    def scores(self, state: State) -> np.ndarray:
        """int32[B, 5]: ``Game.scores()`` of each game (final points once over; 0 in absent seats)."""
        self.warm_up()
        out = np.zeros((state.batch_size, P), np.int64)
        K.scores_rows(_games(state), _tables(state), out)
        return out.astype(np.int32)

    def to_game(self, state: State, i: int) -> Game:
        """Game ``i`` as a reference :class:`Game` (through its checked JSON form)."""
        i = state.check_row(i, "to_game")
        n = int(state.num_players[i])
        doc: dict[str, Any] = {"version": JSON_VERSION, "game": GAME_NAME, "map": state.map.key}
        for name, _, spec, _ in FIELDS:
            v = getattr(state, name)[i]
            if "P" in spec:
                v = v[:n]
            doc[name] = v.tolist() if isinstance(v, np.ndarray) else int(v)
        return Game.from_json(json.dumps(doc), game_map=state.map)

    def from_games(self, games: Sequence[Game]) -> State:
        """A State holding the reference games ``games`` (all on one map), rewards zero."""
        if not games:
            raise ValueError("from_games needs at least one game")
        game_map = load_map(games[0].map.key)
        if any(g.map.key != game_map.key for g in games):
            raise ValueError("from_games: the games are played on different maps")
        s = state_class(game_map).empty(len(games), map=game_map)
        sizes = {"K": s.hand.shape[2], "D": s.display.shape[2], "C": s.deck.shape[1], "S": s.space_owner.shape[1],
                 "L": s.link_owner.shape[1]}  # fmt: skip
        for i, g in enumerate(games):
            for name, arr in g.s.arrays(sizes).items():
                getattr(s, name)[i] = arr
            s.terminated[i] = g.is_over
        return s


ENGINE = Engine()
__getattr__ = ENGINE.module_getattr(__name__)  # engine.init, engine.step...: the front's verbs (PEP 562)


def resample(state: State, seat: int | np.ndarray, seeds: int | np.ndarray | Sequence[int]) -> State:
    """A new State where what ``seat`` (one per game, or one for all) cannot see is redealt: game i as
    ``observation.resample(game_i, seat_i, rng=seeds[i])`` of the reference (the same redeal, card for card)."""
    seats = batched.observers(state, seat)
    seeds = batched.seeds(state.batch_size, seeds)
    out = state.copy()
    C = out.deck.shape[1]
    for i in range(out.batch_size):
        gen = np.random.default_rng(int(seeds[i]))
        n, me, pos = int(out.num_players[i]), int(seats[i]), int(out.deck_pos[i])
        hand, known = out.hand[i], out.known[i]
        pool = out.deck[i, pos:].astype(np.int64).tolist()
        unknown = {}
        for q in range(n):
            if q == me:
                continue
            unknown[q] = int((hand[q] - known[q]).sum())
            for k in range(hand.shape[1]):
                pool += [k] * int(hand[q, k] - known[q, k])
            hand[q] = known[q]
        pool = [pool[j] for j in gen.permutation(len(pool))]
        for q in sorted(unknown):
            for k in pool[: unknown[q]]:
                hand[q, k] += 1
            pool = pool[unknown[q] :]
        out.deck[i, pos:C] = pool
        out.seed[i] = int(gen.integers(0, 2**63 - 1))
    return out


# ---------------------------------------------------------------------------------------------- measuring
def bench(batch_size: int = 4096, num_players: int = 4, seconds: float = 5.0, map: str = "germany",  # noqa: A002
          seed: int = 0) -> dict[str, float]:  # fmt: skip
    """Steps per second of ``batch_size`` games on ``map`` playing uniformly random legal actions (the front's
    :meth:`industry_env.core.batched.Engine.bench`); and the State's bytes per game."""
    return ENGINE.bench(batch_size, num_players, seconds, seed, map=map)


def bench_reference(
    num_players: int = 4,
    seconds: float = 5.0,
    map: str = "germany",  # noqa: A002
    seed: int = 0,
) -> dict[str, float]:
    """Steps per second of the reference engine (one game at a time, legal actions recomputed each step)."""
    rng = np.random.default_rng(seed)
    game = Game(num_players, seed=seed, map=map)
    steps, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
        if game.is_over:
            seed += 1
            game = Game(num_players, seed=seed, map=map)
    return {"steps_per_second": steps / (time.perf_counter() - t0), "steps_per_cpu_second": steps / (
        time.process_time() - c0)}  # fmt: skip


_START = """
import time
t0 = time.perf_counter()
import numpy as np
from industry_env.games.age_of_industry import engine as E
s = E.init(2, 4, seed=0)
m = E.legal_action_mask(s)
E.step(s, E.sample_legal(m, np.random.default_rng(0)), inplace=True, mask=m, next_mask=m)
E.observe(s, 0)
E.scores(s)
print(time.perf_counter() - t0)
"""


def measure(seconds: float = 5.0, num_players: int = 4, map: str = "germany") -> dict[str, float]:  # noqa: A002
    """The figures of ``docs/age-of-industry/engine.md``: steps per second of the reference and of the engine at
    batch 1 and 4096 (random legal actions), bytes of State per game, and the seconds a new process takes to
    compile the kernel (an empty numba cache) and to start with it cached (import, first init, mask, step)."""
    import os
    import subprocess
    import sys
    import tempfile

    ref = bench_reference(num_players, seconds, map)
    out: dict[str, float] = {"reference_steps_per_second": ref["steps_per_second"],
                             "reference_steps_per_cpu_second": ref["steps_per_cpu_second"]}  # fmt: skip
    for batch in (1, 4096):
        got = bench(batch, num_players, seconds, map)
        out[f"batch_{batch}_steps_per_second"] = got["steps_per_second"]
        out[f"batch_{batch}_speedup"] = got["steps_per_second"] / ref["steps_per_second"]
        # per second of CPU (all threads): what a busy machine's load changes least
        out[f"batch_{batch}_speedup_per_cpu_second"] = got["steps_per_cpu_second"] / ref["steps_per_cpu_second"]
        out["bytes_per_game"] = got["bytes_per_game"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for key in ("cold_compile_seconds", "warm_start_seconds"):
            run = subprocess.run([sys.executable, "-c", _START], capture_output=True, text=True, env=env, check=True)
            out[key] = float(run.stdout.strip().splitlines()[-1])
    return out


# ---------------------------------------------------------------------------------------------- verifying
class DisagreementError(AssertionError):
    """The batched engine and the reference engine differ at some decision of some game (the message says where)."""


def check_against_reference(
    num_games: int, num_players: int | Sequence[int] = (3, 4, 5), seed: int = 0, map: str = "germany",  # noqa: A002
    edition: int = 2, observe_every: int = 1, play_seed: int = 0, max_steps: int | None = None,
) -> int:  # fmt: skip
    """Play ``num_games`` reference games (seeds ``seed + i``, players cycling through ``num_players``) by uniform
    random legal moves next to one batch of the engine, and compare at every decision the player to move, the
    legal mask, the rewards, the scores and (every ``observe_every`` decisions) every seat's observation, to the
    games' end (or for ``max_steps`` steps of the batch); raise :class:`DisagreementError` at the first difference.
    Returns the number of decisions compared."""
    counts = [num_players] if isinstance(num_players, int) else list(num_players)
    n = np.array([counts[i % len(counts)] for i in range(num_games)], np.int8)
    state = ENGINE.init(num_games, n, seed=seed, map=map, edition=edition)
    games = [Game(int(n[i]), seed=seed + i, map=map, edition=edition) for i in range(num_games)]
    rng = np.random.default_rng(play_seed)
    decisions, turn = 0, 0

    def fail(i: int, what: str) -> DisagreementError:
        g = games[i]
        return DisagreementError(f"game {i} (seed {seed + i}, {int(n[i])} players, {map}, edition {edition}), "
                                 f"decision {len(g.history)} ({g.phase}): {what}")  # fmt: skip

    while True:
        mask = ENGINE.legal_action_mask(state)
        current = state.current_player
        obs = None
        if turn % observe_every == 0:
            obs = [ENGINE.observe(state, np.minimum(seat, state.num_players - 1)) for seat in range(P)]
        actions = np.zeros(num_games, np.int64)
        for i, g in enumerate(games):
            if int(current[i]) != g.current_player:
                raise fail(i, f"player to move {int(current[i])}, reference {g.current_player}")
            if g.is_over:
                continue
            legal = g.legal_actions()
            if np.flatnonzero(mask[i]).tolist() != legal:
                raise fail(i, f"legal actions {np.flatnonzero(mask[i]).tolist()}, reference {legal}")
            if obs is not None:
                for seat in range(g.num_players):
                    if not np.array_equal(obs[seat][i], g.observe(seat)):
                        where = np.flatnonzero(obs[seat][i] != g.observe(seat)).tolist()
                        raise fail(i, f"observation of seat {seat} differs at {where[:10]}")
            actions[i] = legal[int(rng.integers(len(legal)))]
            g.apply(int(actions[i]))
            decisions += 1
        was_over = state.terminated.copy()
        state = ENGINE.step(state, actions, inplace=True)
        turn += 1
        points = ENGINE.scores(state)
        for i, g in enumerate(games):
            want = g.returns() if g.is_over and not was_over[i] else [0.0] * g.num_players
            if state.rewards[i, : g.num_players].tolist() != want:
                raise fail(i, f"rewards {state.rewards[i].tolist()}, reference {want}")
            if points[i, : g.num_players].tolist() != g.scores():
                raise fail(i, f"scores {points[i].tolist()}, reference {g.scores()}")
        if max_steps is not None and turn >= max_steps:
            return decisions
        if all(g.is_over for g in games):
            if not state.terminated.all() or not ENGINE.finished(state).all():
                raise fail(int(np.flatnonzero(~state.terminated)[0]), "over in the reference, not in the engine")
            return decisions
