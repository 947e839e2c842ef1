"""Nim's rules and its readable reference engine, one game (what the batched engine is checked against).

Three heaps of 1 to 7 counters each, drawn at set-up, as is the first player; in turn, a player takes 1 to 3
counters from one heap; whoever takes the last counter wins. Action ``3 * h + (k - 1)`` takes ``k`` from heap ``h``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ...core.chance import key
from ...core.spec import ReferenceDefaults, check_seat
from ...core.textdata import parse_json

NUM_HEAPS, MAX_COUNTERS, MAX_TAKE = 3, 7, 3
NUM_ACTIONS = NUM_HEAPS * MAX_TAKE
MIN_PLAYERS, MAX_PLAYERS = 2, 4
HEAPS, FIRST = 1, 2  # the purposes of chance (core.chance): each heap's counters, the first player
# The observation: each heap's counters / 7; the number of players (one-hot over 2, 3, 4); who is to move, as seats
# after the observer (one-hot; all zero once over).
OBS_SIZE = NUM_HEAPS + (MAX_PLAYERS - MIN_PLAYERS + 1) + MAX_PLAYERS
HEAP_NAMES = "ABC"
POSITION = ("num_players", "seed", "heaps", "to_move", "winner")  # a position's entries (its JSON's, the State's)


class IllegalActionError(ValueError):
    """An action that is not legal in the position; the game is unchanged."""


class Game(ReferenceDefaults):
    """One game of Nim: ``heaps``, ``to_move``, ``winner`` (-1 until the last counter is taken)."""

    num_actions = NUM_ACTIONS

    def __init__(self, num_players: int = 3, seed: int = 0) -> None:
        if isinstance(num_players, bool) or num_players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise ValueError(f"num_players={num_players!r}: Nim is played by 2 to 4 players here")
        self.n, self.seed, self.winner = int(num_players), int(seed), -1
        self.heaps = [1 + int(k % MAX_COUNTERS) for k in key(seed, HEAPS, np.arange(NUM_HEAPS))]
        self.to_move = int(key(seed, FIRST, 0) % num_players)

    num_players = property(lambda self: self.n)
    is_over = property(lambda self: self.winner >= 0)
    current_player = property(lambda self: -1 if self.is_over else self.to_move)

    def legal_actions(self) -> list[int]:
        if self.is_over:
            return []
        return [MAX_TAKE * h + k - 1 for h in range(NUM_HEAPS) for k in range(1, min(MAX_TAKE, self.heaps[h]) + 1)]

    def apply(self, action: int) -> None:
        """Take the counters; the player who takes the last one wins, else the next player moves."""
        if action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here; legal: {self.legal_actions()}")
        h, k = divmod(int(action), MAX_TAKE)
        self.heaps[h] -= k + 1
        if sum(self.heaps) == 0:
            self.winner = self.to_move
        else:
            self.to_move = (self.to_move + 1) % self.n

    def scores(self) -> list[int]:
        return [int(p == self.winner) for p in range(self.n)]

    def observe(self, seat: int) -> np.ndarray:
        seat = check_seat(seat, self.n)
        o = np.zeros(OBS_SIZE, np.float32)
        o[:NUM_HEAPS] = np.array(self.heaps) / MAX_COUNTERS
        o[NUM_HEAPS + self.n - MIN_PLAYERS] = 1
        if not self.is_over:
            o[OBS_SIZE - MAX_PLAYERS + (self.to_move - seat) % self.n] = 1
        return o

    def to_json(self) -> str:
        return json.dumps({"game": "nim", **{k: getattr(self, k) for k in POSITION}})

    @classmethod
    def from_json(cls, text: str) -> Game:
        """A position from :meth:`to_json`'s text; ValueError naming what is wrong."""
        doc: Any = parse_json(text)
        if not isinstance(doc, dict) or doc.get("game") != "nim" or set(doc) != {"game", *POSITION}:
            raise ValueError(f"not a Nim position: expected the keys game, {', '.join(POSITION)}")
        whole = lambda x, lo, hi: type(x) is int and lo <= x <= hi  # noqa: E731
        if not whole(doc["seed"], 0, 2**63 - 1):
            raise ValueError(f"seed={doc['seed']!r}: a whole number from 0 to 2**63 - 1")
        g, heaps, to_move, winner = cls(doc["num_players"], doc["seed"]), doc["heaps"], doc["to_move"], doc["winner"]
        if not (type(heaps) is list and len(heaps) == NUM_HEAPS and all(whole(h, 0, MAX_COUNTERS) for h in heaps)):
            raise ValueError(f"heaps={heaps!r}: three counts of 0 to {MAX_COUNTERS}")
        if not (whole(to_move, 0, g.n - 1) and whole(winner, -1, g.n - 1) and (winner >= 0) == (sum(heaps) == 0)):
            raise ValueError(f"to_move={to_move!r}, winner={winner!r}: seats of the game, a winner once all is taken")
        g.heaps, g.to_move, g.winner = list(heaps), to_move, winner
        return g

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"{action!r} is not an action of Nim (0..{NUM_ACTIONS - 1})")
        return f"take {action % MAX_TAKE + 1} from {HEAP_NAMES[action // MAX_TAKE]}"

    def __str__(self) -> str:
        heaps = "  ".join(f"{HEAP_NAMES[h]}: {'|' * c or '-'}" for h, c in enumerate(self.heaps))
        who = f"player {self.winner} took the last counter" if self.is_over else f"player {self.to_move} to move"
        return f"Nim, {self.n} players: {heaps}; {who}"
