"""The batched engine of 20th Century: B games as one State of arrays, stepped by a numba kernel (:mod:`.kernel`)
on the suite's shared front (:mod:`industry_env.core.batched`).

:class:`.reference.Game` is the readable oracle it is checked against, game by game (``industry-env verify --game
twentieth_century``): game i of ``init(B, seed=s)`` is ``Game(n, seed=s + i, r2=..., r4=...)``, and every legal
mask, player to move, observation of every seat, reward, score and final position agrees with it.

Functional API
==============
=================================================  ====================================================
``init(B, num_players=4, seed=0, r2="random",      B new games; game i seeded ``seed + i`` (or ``seed[i]``)
r4="random", data=None) -> State``
``step(state, actions, on_illegal="raise",         one action per game -> a new State (``inplace=True``:
penalty=-1.0, inplace=False, mask=None,            ``state`` itself); ``mask``: the state's legal mask;
next_mask=None)``                                  ``next_mask``: receives the new state's legal masks
``legal_action_mask(state) -> bool[B, A]``         legal actions of the player to move; all False once over
``observe(state, player=None) -> f32[B, D]``       :mod:`.observation` of any seat (None: the one to move)
``scores(state) -> int32[B, 5]``                   ``Game.scores()`` (final points once over)
``ranking(state) -> int64[B, 5]``                  points, then fewer cubes, as one key per seat
``reset(state, done, seeds=None, inplace=False,    new games in the rows ``done`` (default seeds: old + B)
next_mask=None)``
``finished / take / put / concat / copy``          games over by the rules; batch surgery
``to_game(state, i) / from_games(games)``          to and from :class:`.reference.Game` (its checked JSON)
``resample(state, seat, seeds)``                   what ``seat`` cannot see redealt, game i from ``seeds[i]``
=================================================  ====================================================

State: :data:`.state.BATCH_FIELDS` (one buffer behind all arrays, :mod:`industry_env.core.state`), and the
components shared by the batch (``state.data``). ``state.current_player`` (int8[B], -1 once over) is derived.

Conventions (the shared front's): an illegal action with ``on_illegal="raise"`` refuses the whole step with
:class:`IllegalActionError` naming each offending game, the state unchanged; with ``"penalize"`` the offending
game ends at once, the player at fault gets ``penalty`` and the others ``-penalty``. A game already over ignores
its action and gets zero rewards. ``rewards`` are zero except on the step that ends a game: ``Game.returns()``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core import batched
from ...core.spec import ENGINE_VERBS
from ...core.state import BatchState
from . import kernel as K
from . import kernel_layout as KL
from .components import ERAS, GameData, load_data
from .reference import Game, IllegalActionError
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import (
    CARD_CHOICES,
    FIELDS,
    GAME_NAME,
    JSON_VERSION,
    LEDGER,
    PHASES,
    SCORE_SOURCES,
    GameStateError,
    batch_schema,
)

# the verbs (init, step, ..., and bench) are the shared front's, given by the module's __getattr__ (bottom)
__all__ = ["State", "IllegalActionError", "ranking", "resample", *ENGINE_VERBS, *("bench",)]

P = MAX_PLAYERS
NC = KL.NC
NUM_ACTIONS = K.A.NUM_ACTIONS


class State(BatchState):
    """B games of 20th Century on one set of components: the arrays of :data:`.state.BATCH_FIELDS` and the
    components they share (``state.data``). Each set of components has its subclass (:func:`state_class`)."""

    EXTRAS = ("data",)

    @property
    def current_player(self) -> np.ndarray:
        """int8[B]: the seat whose decision is awaited, -1 once over (or ended by an illegal action)."""
        over = (self.phase == K.OVER) | self.terminated
        return np.where(over, -1, self.to_move).astype(np.int8)

    def __reduce__(self) -> tuple:
        values = {k: v for k, v in self.__getstate__().items() if not k.startswith("_") and k != "data"}
        return _unpickle, (self.data, values)


def _unpickle(data: GameData, values: dict[str, Any]) -> State:
    cls = state_class(data)
    s = cls.__new__(cls)
    s.__setstate__({**values, "data": data})
    return s


_SETUP: dict[str, tuple[type, np.ndarray, np.ndarray]] = {}


def _setup(data: GameData) -> tuple[type, np.ndarray, np.ndarray]:
    """The State subclass and the kernel's tables of a set of components (built once per data digest)."""
    hit = _SETUP.get(data.sha256)
    if hit is None:
        schema = batch_schema(len(data.land), len(data.technologies))
        cls = type(f"State_{data.sha256[:12]}", (State,), {"SCHEMA": schema, "__module__": __name__})
        hit = _SETUP[data.sha256] = (cls, *KL.tables(data))
    return hit


def state_class(data: GameData) -> type:
    """The State subclass of a set of components (its arrays' sizes)."""
    return _setup(data)[0]


def _tables(state: State) -> tuple[Any, Any]:
    _, t, tf = _setup(state.data)
    return KL.wrap_tables(t), KL.wrap_tables(tf)


def _games(state: State) -> Any:
    """The kernel's view of ``state``: a named tuple of its arrays, all views of its one buffer."""
    buf = state.backed()
    hit = state.__dict__.get("_kernel_view")
    if hit is not None and hit[0] is buf:
        return hit[1]
    g = KL.views(buf, state.SCHEMA, state.batch_size)
    state.__dict__["_kernel_view"] = (buf, g)
    return g


def _data_of(data: Any) -> GameData:
    if data is None:
        return load_data()
    if isinstance(data, GameData):
        return data
    from .spec import SPEC

    return SPEC.check_options({"data": data})["data"]


def _card_option(value: Any, batch_size: int, what: str) -> np.ndarray:
    """int16[B] indices of CARD_CHOICES from one choice or one per game."""
    raw = [value] * batch_size if isinstance(value, str) else list(np.atleast_1d(np.asarray(value, object)))
    if len(raw) != batch_size or not all(isinstance(v, str) and v in CARD_CHOICES for v in raw):
        raise ValueError(f"{what}={value!r}: must be one of {', '.join(CARD_CHOICES)} (or one per game)")
    return np.array([CARD_CHOICES.index(v) for v in raw], np.int16)


def _scores_and_cubes(state: State) -> tuple[np.ndarray, np.ndarray]:
    ENGINE.warm_up()
    out, cubes = np.zeros((state.batch_size, P), np.int64), np.zeros((state.batch_size, P), np.int64)
    K.scores_rows(_games(state), out, cubes)
    return out, cubes


class Engine(batched.Engine):
    """20th Century on the shared front (:class:`industry_env.core.batched.Engine`): the kernel's standard
    entries, its observation reading a second table, and the options ``r2``, ``r4`` and ``data``."""

    name, State, IllegalActionError, kernel = "20th Century", State, IllegalActionError, K
    num_actions, players, default_players = NUM_ACTIONS, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), 4
    players_rule = "20th Century is played by 3 to 5 players"
    kept = ("r2_option", "r4_option")

    def new_state(self, batch_size: int, r2: Any = "random", r4: Any = "random",  # type: ignore[override]
                  data: Any = None) -> tuple[State, tuple[np.ndarray, ...]]:  # fmt: skip
        c2, c4 = _card_option(r2, batch_size, "r2"), _card_option(r4, batch_size, "r4")
        d = _data_of(data)
        return state_class(d).empty(batch_size, data=d), (c2, c4)

    def new_games(self, s: State, rows: np.ndarray, seeds: np.ndarray, num_players: np.ndarray,
                  kept: tuple[np.ndarray, ...], next_mask: np.ndarray | None) -> None:  # fmt: skip
        t, _ = _tables(s)
        nm = np.zeros((0, NUM_ACTIONS), bool) if next_mask is None else next_mask
        i16 = lambda x: np.ascontiguousarray(x, np.int16)  # noqa: E731
        K.new_games(_games(s), t, np.ascontiguousarray(rows, np.int64), np.ascontiguousarray(seeds, np.int64),
                    i16(num_players), i16(kept[0]), i16(kept[1]), nm, next_mask is not None)  # fmt: skip

    def kernel_args(self, state: State) -> tuple:
        return _games(state), _tables(state)[0]

    def observation_size(self, state: State) -> int:
        return int(_setup(state.data)[1][KL.X_NOBS])

    def observe_into(self, state: State, seats: np.ndarray, out: np.ndarray) -> None:
        t, tf = _tables(state)
        K.observe_rows(_games(state), t, tf, seats, out)

    def compile_all(self) -> None:
        """Call every compiled entry once, on two games (each argument of the types the engine passes)."""
        data = load_data()
        cls, t, tf = _setup(data)
        s = cls.empty(2, data=data)
        g = _games(s)
        mask = np.zeros((2, NUM_ACTIONS), bool)
        rows = np.arange(2, dtype=np.int64)
        opt = np.zeros(2, np.int16)
        K.new_games(g, t, rows, rows.copy(), np.array([3, 4], np.int16), opt, opt, mask, True)
        K.rebuild_rows(g, t, rows)
        acts = np.zeros(2, np.int64)
        K.sample_rows(mask, np.zeros(2), acts)
        legal = np.zeros(2, bool)
        K.check_range(g, t, acts, mask, True, legal, 0, 2)
        K.step_range(g, t, acts, legal, -1.0, mask, True, 0, 2)
        K.mask_range(g, t, mask, 0, 2)
        K.run_parallel(K.OP_MASK, g, t, acts, mask, True, legal, -1.0, mask, True, 1)
        K.observe_rows(g, t, tf, np.zeros(2, np.int64), np.zeros((2, int(t[KL.X_NOBS])), np.float32))
        K.scores_rows(g, np.zeros((2, P), np.int64), np.zeros((2, P), np.int64))

    def finished(self, state: State) -> np.ndarray:
        return state.phase == K.OVER

    def scores(self, state: State) -> np.ndarray:
        """int32[B, 5]: ``Game.scores()`` of each game (final points once over; 0 in absent seats)."""
        return _scores_and_cubes(state)[0].astype(np.int32)

    def to_game(self, state: State, i: int) -> Game:
        """Game ``i`` as a reference :class:`Game` (through its checked JSON form)."""
        return Game.from_json(json.dumps(position(state, state.check_row(i, "to_game"))), data=state.data)

    def from_games(self, games: Sequence[Game]) -> State:
        """A State holding the reference games ``games`` (all on one set of components), rewards zero."""
        if not games:
            raise ValueError("from_games needs at least one game")
        data = games[0].data
        if any(g.data.sha256 != data.sha256 for g in games):
            raise ValueError("from_games: the games are played with different components")
        s = state_class(data).empty(len(games), data=data)
        for i, g in enumerate(games):
            _check_fits(g, i)
            _write_game(s, i, g)
        self.warm_up()
        K.rebuild_rows(_games(s), _tables(s)[0], np.arange(len(games), dtype=np.int64))
        return s


ENGINE = Engine()
__getattr__ = ENGINE.module_getattr(__name__)  # engine.init, engine.step...: the front's verbs (PEP 562)


def ranking(state: State) -> np.ndarray:
    """int64[B, 5]: the rules' order as one key per seat, higher better: points, then fewer garbage cubes ('I
    pareggi sono superati in favore del giocatore con meno cubi'); -1 in absent seats."""
    points, cubes = _scores_and_cubes(state)
    key = points * 100_000 - cubes
    key[np.arange(P)[None, :] >= state.num_players[:, None]] = -1
    return key


# ---------------------------------------------------------------------------------------------- the reference
def position(state: State, i: int) -> dict[str, Any]:
    """Game ``i`` as the reference's saved position (the document of ``Game.to_json``)."""
    i = state.check_row(i, "position")
    s, d = state, state.data
    n = int(s.num_players[i])
    era_len = {kind: [len(d.stack(kind, e)) for e in ERAS] for kind in ("land", "tech")}
    lst = lambda a: [int(x) for x in a]  # noqa: E731
    phase = PHASES[int(s.phase[i])]
    cat_pos = int(s.cat_pos[i])
    maint = int(s.maint_first[i])
    doc: dict[str, Any] = {
        "game": GAME_NAME, "version": JSON_VERSION, "data_sha256": d.sha256, "n": n, "seed": int(s.seed[i]),
        "options": {"r2": CARD_CHOICES[int(s.r2_option[i])], "r4": CARD_CHOICES[int(s.r4_option[i])]},
        "r2": int(s.r2[i]), "r4": int(s.r4[i]),
        "land_stacks": {e: lst(s.land_stack[i, k, int(s.land_pos[i, k]) : era_len["land"][k]])
                        for k, e in enumerate(ERAS)},
        "tech_stacks": {e: lst(s.tech_stack[i, k, int(s.tech_pos[i, k]) : era_len["tech"][k]])
                        for k, e in enumerate(ERAS)},
        "cat_stack": lst(s.cat_stack[i, cat_pos:]), "cat_revealed": lst(s.cat_stack[i, :cat_pos]),
        "cat_current": int(s.cat_current[i]), "round": int(s.round[i]), "phase": phase,
        "to_move": -1 if phase == "over" else int(s.to_move[i]), "next_leader": int(s.next_leader[i]),
        "leader": int(s.leader[i]),
        "land_offer": lst(s.land_offer[i, : int(s.land_offer_len[i])]),
        "tech_offer": lst(s.tech_offer[i, : int(s.tech_offer_len[i])]),
        "discarded_land": lst(s.discarded_land[i, : int(s.discarded_land_len[i])]),
        "discarded_tech": lst(s.discarded_tech[i, : int(s.discarded_tech_len[i])]),
        "cost_pos": int(s.cost_pos[i]), "auction_slot": int(s.auction_slot[i]), "high_bid": int(s.high_bid[i]),
        "high_bidder": int(s.high_bidder[i]), "withdrawn": lst(s.withdrawn[i, :n]),
        "passed": [bool(x) for x in s.passed[i, :n]], "won": lst(s.won[i, :n]),
        "resume": "" if int(s.resume[i]) < 0 else PHASES[int(s.resume[i])],
        "cat_col": lst(s.cat_col[i, :n]), "cat_bid": lst(s.cat_bid[i, :n]),
        "maint_order": [] if maint < 0 else [(maint + k) % n for k in range(n)], "maint_pos": int(s.maint_pos[i]),
        "coins": lst(s.coins[i, :n]), "science": lst(s.science[i, :n]), "pollution": lst(s.pollution[i, :n]),
        "pending_cubes": lst(s.pending_cubes[i, :n]),
        "pending": [[lst(s.pending[i, p, k]) for k in range(int(s.pending_len[i, p]))] for p in range(n)],
        "techs": [lst(s.techs[i, p, : int(s.techs_len[i, p])]) for p in range(n)],
        "used": [[[bool(x) for x in s.used[i, p, h, : len(d.technologies[int(s.techs[i, p, h])].abilities)]]
                  for h in range(int(s.techs_len[i, p]))] for p in range(n)],
        "vp": [dict(zip(SCORE_SOURCES, lst(s.vp[i, p]), strict=True)) for p in range(n)],
        "ledger": [dict(zip(LEDGER, lst(s.ledger[i, p]), strict=True)) for p in range(n)],
        "grid_new": [[bool(x) for x in s.grid_new[i, p]] for p in range(n)],
        "sel": lst(s.sel[i, : int(s.sel_len[i])]), "removed": lst(s.removed[i, : int(s.removed_len[i])]),
        "production_now": [lst(s.production_now[i, p]) for p in range(n)],
    }  # fmt: skip
    for name in ("grid_tile", "grid_x", "grid_y", "grid_rot", "grid_bridge", "grid_cubes", "grid_citizens"):
        doc[name] = [lst(getattr(s, name)[i, p]) for p in range(n)]
    return doc


_INT16 = np.iinfo(np.int16)


def _check_fits(g: Game, i: int) -> None:
    """GameStateError naming the first number of game ``i`` the State's int16 arrays cannot hold (a game read from
    JSON never has one: ``positions.COUNT_LIMIT`` keeps room for the rest of it)."""

    def walk(v: Any, where: str) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, f"{where}.{k}")
        elif isinstance(v, (list, tuple)):
            for k, x in enumerate(v):
                walk(x, f"{where}[{k}]")
        elif isinstance(v, (int, np.integer)) and not _INT16.min <= v <= _INT16.max:
            raise GameStateError(f"from_games: game {i}: {where} = {int(v)} is beyond what the batched engine holds "
                             f"(int16, {_INT16.min}..{_INT16.max})")  # fmt: skip

    for name in FIELDS:
        if name not in ("seed", "options", "phase", "resume"):
            walk(getattr(g, name), name)


def _write_game(s: State, i: int, g: Game) -> None:
    """Row i of ``s`` from the reference game ``g`` (the inverse of :func:`position`)."""
    d = g.data
    n = g.n
    s.seed[i], s.num_players[i] = g.seed, n
    s.r2_option[i], s.r4_option[i] = CARD_CHOICES.index(g.options["r2"]), CARD_CHOICES.index(g.options["r4"])
    s.r2[i], s.r4[i] = g.r2, g.r4
    for k, e in enumerate(ERAS):
        for kind, stack, pos, left in (("land", s.land_stack, s.land_pos, g.land_stacks[e]),
                                       ("tech", s.tech_stack, s.tech_pos, g.tech_stacks[e])):  # fmt: skip
            size = len(d.stack(kind, e))
            pos[i, k] = size - len(left)
            stack[i, k, pos[i, k] : size] = left
    revealed = list(g.cat_revealed)
    s.cat_stack[i, : len(revealed) + len(g.cat_stack)] = revealed + list(g.cat_stack)
    s.cat_pos[i], s.cat_current[i] = len(revealed), g.cat_current
    s.round[i], s.phase[i] = g.round, PHASES.index(g.phase)
    s.to_move[i], s.next_leader[i], s.leader[i] = g.to_move, g.next_leader, g.leader
    for name, values in (("land_offer", g.land_offer), ("tech_offer", g.tech_offer),
                         ("discarded_land", g.discarded_land), ("discarded_tech", g.discarded_tech),
                         ("sel", g.sel), ("removed", g.removed)):  # fmt: skip
        getattr(s, name)[i, : len(values)] = values
        getattr(s, name + "_len")[i] = len(values)
    s.cost_pos[i], s.auction_slot[i], s.high_bid[i], s.high_bidder[i] = (g.cost_pos, g.auction_slot, g.high_bid,
                                                                        g.high_bidder)  # fmt: skip
    s.resume[i] = PHASES.index(g.resume) if g.resume else -1
    s.maint_first[i] = g.maint_order[0] if g.maint_order else -1
    s.maint_pos[i] = g.maint_pos
    for name in ("withdrawn", "passed", "won", "cat_col", "cat_bid", "coins", "science", "pollution",
                 "pending_cubes", "grid_tile", "grid_x", "grid_y", "grid_rot", "grid_bridge", "grid_cubes",
                 "grid_citizens", "grid_new", "production_now"):  # fmt: skip
        getattr(s, name)[i, :n] = np.asarray(getattr(g, name), np.int16)
    for p in range(n):
        s.pending_len[i, p] = len(g.pending[p])
        for k, entry in enumerate(g.pending[p]):
            s.pending[i, p, k] = entry
        s.techs_len[i, p] = len(g.techs[p])
        s.techs[i, p, : len(g.techs[p])] = g.techs[p]
        for h, flags in enumerate(g.used[p]):
            s.used[i, p, h, : len(flags)] = flags
        s.vp[i, p] = [g.vp[p][k] for k in SCORE_SOURCES]
        s.ledger[i, p] = [g.ledger[p][k] for k in LEDGER]
    s.terminated[i] = g.is_over


def resample(state: State, seat: int | np.ndarray, seeds: int | np.ndarray | Sequence[int]) -> State:
    """A new State where what ``seat`` (one per game, or one for all) cannot see is redealt: game i as the
    reference's ``resample(seat_i, rng=seeds[i])`` (the same redeal, tile for tile): every stack's undealt tiles
    reshuffled, each future catastrophe redrawn from its era's unrevealed cards, a fresh seed."""
    batched.observers(state, seat)  # checked; nothing is hidden from one seat more than another (ruling 36)
    seeds = batched.seeds(state.batch_size, seeds)
    out = state.copy()
    d = state.data
    cat_era = [ERAS.index(c.era) for c in d.catastrophes]
    for i in range(out.batch_size):
        rng = np.random.default_rng(int(seeds[i]))
        for k, e in enumerate(ERAS):
            for kind, stack, pos in (("land", out.land_stack, out.land_pos), ("tech", out.tech_stack, out.tech_pos)):
                size, at = len(d.stack(kind, e)), int(pos[i, k])
                stack[i, k, at:size] = rng.permutation(stack[i, k, at:size].astype(np.int64))
        at = int(out.cat_pos[i])
        revealed = set(out.cat_stack[i, :at].tolist())
        future = [cat_era[int(c)] for c in out.cat_stack[i, at:]]
        unseen = [[k for k, c in enumerate(d.catastrophes) if cat_era[k] == e and k not in revealed]
                  for e in range(len(ERAS))]  # fmt: skip
        unseen = [[int(x) for x in rng.permutation(u)] for u in unseen]
        out.cat_stack[i, at:] = [unseen[e].pop() for e in future]
        out.seed[i] = int(rng.integers(0, 2**62))
    return out
