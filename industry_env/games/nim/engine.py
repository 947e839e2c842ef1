"""Nim's batched engine: its State's fields and its hooks on the shared front (``core.batched.Engine`` holds every
verb), stepped by :mod:`.kernel`. Game i of ``init(B, seed=s)`` is ``reference.Game(n, seed=s + i)``."""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Sequence

import numpy as np

from ...core import batched
from ...core.state import BatchState, Field, Schema
from . import kernel as K
from .reference import MAX_PLAYERS, MIN_PLAYERS, NUM_ACTIONS, NUM_HEAPS, POSITION, Game, IllegalActionError

SCHEMA = Schema([
    Field("seed", np.int64), Field("rewards", np.float32, (MAX_PLAYERS,), doc="the last step's"),
    Field("heaps", np.int8, (NUM_HEAPS,), doc="counters left"), Field("num_players", np.int8),
    Field("to_move", np.int8), Field("winner", np.int8, fill=-1, doc="-1 until the last counter is taken"),
    Field("terminated", np.bool_, doc="over, by the rules or by an illegal action"),
])  # fmt: skip
Games = namedtuple("Games", SCHEMA.names)  # the batch as the kernel reads it: each field's array by name


class State(BatchState):
    SCHEMA = SCHEMA
    current_player = property(lambda self: np.where(self.terminated, -1, self.to_move).astype(np.int8))


class Engine(batched.Engine):
    name, State, IllegalActionError, kernel, Games = "Nim", State, IllegalActionError, K, Games
    num_actions, players, default_players = NUM_ACTIONS, tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)), 3

    def finished(self, state: State) -> np.ndarray:
        return state.winner >= 0

    def scores(self, state: State) -> np.ndarray:
        return (np.arange(MAX_PLAYERS)[None, :] == state.winner[:, None]).astype(np.int32)

    def to_game(self, state: State, i: int) -> Game:
        i = state.check_row(i, "to_game")
        return Game.from_json(json.dumps({"game": "nim", **{k: getattr(state, k)[i].tolist() for k in POSITION}}))

    def from_games(self, games: Sequence[Game]) -> State:
        s = State.empty(len(games))
        for i, g in enumerate(games):
            for k in POSITION:
                getattr(s, k)[i] = getattr(g, k)
            s.terminated[i] = g.is_over
        return s


ENGINE = Engine()
__getattr__ = ENGINE.module_getattr(__name__)  # engine.init, engine.step...: the front's verbs (PEP 562)
