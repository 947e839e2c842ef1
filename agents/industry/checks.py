"""Checks of what Industry's agents are given: a running game seen from the seat to move."""

from __future__ import annotations

import numpy as np

from industry_env.games.industry import observation as O

from ..base import AgentInputError

_PHASE_OVER = 5  # index of "over" in the observation's phase one-hot


def refuse_finished_or_other_seat(observations: np.ndarray) -> None:
    """AgentInputError unless every observation is of a running game, seen from the seat to move (seat 0)."""
    v = O.views(observations)
    over = v["phase"][:, _PHASE_OVER] == 1
    if over.any():
        raise AgentInputError(f"observation row(s) {np.flatnonzero(over)[:5].tolist()}: the game is over")
    other = v["to_move"][:, 0] != 1
    if other.any():
        raise AgentInputError(f"observation row(s) {np.flatnonzero(other)[:5].tolist()} are not seen from the seat "
                              f"to move: an agent acts from its own seat's observation")  # fmt: skip
