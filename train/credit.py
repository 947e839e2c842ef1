"""Turn-based credit of the native trainer: each seat's transitions linked in its own order, its reward given to its
own last transition, and generalized advantage estimation over each seat's own sequence (numpy only).

In a game of several seats, one engine step moves one seat of each game; a seat's next decision comes several
engine steps later, after the other seats' moves. :class:`SeatLinks` keeps, for every (game, seat) the trained
policy plays, the index of its pending transition: when that seat decides again the two are linked (``next``);
when its game ends, the seat's terminal reward goes to that transition (``reward``, ``done``). Nothing of one
seat ever reaches another's transitions. :func:`gae` then runs backwards over the links.
"""

from __future__ import annotations

import numpy as np


class SeatLinks:
    """Transitions of the seats a policy plays, linked seat by seat (see the module docstring).

    ``num_games`` x ``num_players`` seats; transitions are numbered in the order they are added (time order).
    """

    def __init__(self, num_games: int, num_players: int, capacity: int = 1024) -> None:
        self.pending = np.full((num_games, num_players), -1, np.int64)  # a seat's transition awaiting its successor
        self.size = 0
        self.next = np.full(capacity, -1, np.int64)  # the seat's next transition (-1: none yet, or terminal)
        self.reward = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, bool)
        self.starts: list[int] = []  # where each call of decide began: transitions of one call are independent

    def _grow(self, need: int) -> None:
        cap = self.next.size
        if need <= cap:
            return
        new = max(need, 2 * cap)
        self.next = np.concatenate([self.next, np.full(new - cap, -1, np.int64)])
        self.reward = np.concatenate([self.reward, np.zeros(new - cap, np.float32)])
        self.done = np.concatenate([self.done, np.zeros(new - cap, bool)])

    def decide(self, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """New transitions, one for each (game, seat) deciding now (a seat at most once per call); their indices.
        Each links the same seat's pending transition to it."""
        n = games.size
        first = self.size
        self._grow(first + n)
        idx = np.arange(first, first + n, dtype=np.int64)
        prev = self.pending[games, seats]
        linked = prev >= 0
        self.next[prev[linked]] = idx[linked]
        self.pending[games, seats] = idx
        self.starts.append(first)
        self.size = first + n
        return idx

    def end(self, games: np.ndarray, rewards: np.ndarray) -> None:
        """The games ``games`` ended: each seat's terminal reward (``rewards``: float[len(games), num_players]) goes
        to that seat's pending transition, which becomes terminal; the seats have none pending afterwards."""
        pend = self.pending[games]  # [G, P]
        has = pend >= 0
        self.reward[pend[has]] += rewards[has]
        self.done[pend[has]] = True
        self.pending[games] = -1

    def open(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pending transitions (neither linked nor terminal) with their game and seat: ``(index, game, seat)``."""
        g, s = np.nonzero(self.pending >= 0)
        return self.pending[g, s], g, s

    def clear(self) -> None:
        """Forget every transition (a new rollout); pending seats too."""
        self.pending[:] = -1
        self.size = 0
        self.next[:] = -1
        self.reward[:] = 0
        self.done[:] = False
        self.starts = []


def gae(values: np.ndarray, rewards: np.ndarray, done: np.ndarray, nxt: np.ndarray, bootstrap: np.ndarray,
        starts: list[int] | np.ndarray, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Generalized advantage estimation over each seat's own sequence; returns ``(advantages, returns)``.

    For transition i: ``values[i]`` its value, ``rewards[i]`` the reward it leads to, ``done[i]`` whether its game
    ended before the seat's next decision, ``nxt[i]`` the seat's next transition (-1 if none in this rollout) and
    ``bootstrap[i]`` the value of the seat's next decision when that is not in the rollout (read only where
    ``nxt`` is -1 and not ``done``). ``starts``: the first index of each block of transitions added at once (a
    transition's successor is always in a later block), so the blocks are computed from the last, each at once.
    """
    n = values.size
    next_value = np.where(nxt >= 0, values[np.maximum(nxt, 0)], bootstrap)
    next_value = np.where(done, 0.0, next_value)
    delta = rewards + gamma * next_value - values
    adv = np.zeros(n, np.float64)
    carry = np.where(done, 0.0, gamma * lam)
    bounds = list(starts) + [n]
    for b in range(len(bounds) - 2, -1, -1):
        lo, hi = bounds[b], bounds[b + 1]
        if hi <= lo:
            continue
        j = nxt[lo:hi]
        follow = np.where(j >= 0, adv[np.maximum(j, 0)], 0.0)
        adv[lo:hi] = delta[lo:hi] + carry[lo:hi] * follow
    adv = adv.astype(np.float32)
    return adv, (adv + values).astype(np.float32)
