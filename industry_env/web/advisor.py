"""The advisor: what the suite's agents would play in a seat's place, and why, from that seat's view alone.

On request, the game's strongest search (:func:`search_name`: ``az`` where it beats the game's search player,
20th Century's; elsewhere ``mcts`` or ``ismcts``, whichever the game names) searches the seat's decision with the
budget the person chose, and the game's heuristic says its own choice. Both act as every agent
does, on the seat's observation and legal-action mask only (the search rebuilds positions from the observation and
redeals what the seat cannot see: :mod:`industry_env.agents.search`), and both are seeded from that observation, so
the advice is the same, to the byte, whatever the seat cannot see: another deal of the other hands or of the deck
gives the same answer. The answer lists the search's most visited choices with their share of the simulations and
their mean value (the search's estimate of the game's outcome for the seat, on the game's value scale: higher is
better), named as the page names the seat's choices.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ..core.spec import GameSpec

SEARCHES = ("mcts", "ismcts")  # the suite's search players, by the names the games give them
#: where the network-guided search ``az`` advises instead, its measured strength above the game's search player's
#: (docs/agents.md, "The network agents": 20th Century's az against three ismcts)
STRONGER = {"twentieth_century": "az"}
MIN_SIMULATIONS, MAX_SIMULATIONS = 8, 1024  # a person's budget: from a glance to a few seconds of one core
SHOWN = 6  # the search's choices listed, most visited first


def search_name(spec: GameSpec) -> str | None:
    """The name of the game's strongest search, the one that advises (None if it has none)."""
    stronger = STRONGER.get(spec.id)
    if stronger is not None and stronger in spec.agents:
        return stronger
    return next((name for name in SEARCHES if name in spec.agents), None)


def seed_of(observation: np.ndarray, mask: np.ndarray) -> int:
    """A seed drawn from what the seat sees (its observation and legal choices), nothing else."""
    digest = hashlib.sha256(np.ascontiguousarray(observation, np.float32).tobytes() + np.packbits(mask).tobytes())
    return int.from_bytes(digest.digest()[:8], "little") % 2**63


def advise(spec: GameSpec, options: dict[str, Any], observation: np.ndarray, mask: np.ndarray, simulations: int,
           labels: dict[int, dict[str, str]]) -> dict[str, Any]:  # fmt: skip
    """The advice for one decision from the seat's ``observation`` and ``mask`` (``labels``: each legal action's
    ``{"label", "detail"}`` as the page shows it)."""
    from ..agents import make_agent

    seed = seed_of(observation, mask)

    def named(action: int) -> dict[str, Any]:
        shown = labels.get(action, {"label": spec.action_to_string(action)})
        return {"action": action, "label": shown["label"], "detail": shown.get("detail", "")}

    out: dict[str, Any] = {"simulations": simulations, "search": None, "heuristic": None, "moves": []}
    if "heuristic" in spec.agents:
        heuristic = make_agent("heuristic", seed=seed, game=spec.id, options=options)
        out["heuristic"] = named(int(heuristic.act(observation, mask)))
    name = search_name(spec)
    if name is not None:
        search = make_agent(name, seed=seed, game=spec.id, options=options, simulations=simulations)
        chosen = int(search.act(observation, mask))
        stats = search.root_statistics()
        total = sum(visits for _, visits, _ in stats)
        out["search"] = {"agent": name, **named(chosen)}
        out["moves"] = [{**named(a), "visits": visits, "share": round(visits / total, 4), "value": round(value, 4)}
                        for a, visits, value in stats[:SHOWN] if total]  # fmt: skip
        if not stats:
            out["note"] = ("the search did not search this decision (one choice worth considering, or a decision "
                           "it leaves to the heuristic): its choice is the heuristic's")  # fmt: skip
    return out


__all__ = ["MAX_SIMULATIONS", "MIN_SIMULATIONS", "SEARCHES", "STRONGER", "advise", "search_name", "seed_of"]
