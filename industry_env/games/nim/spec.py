"""Nim's declaration to the suite (:data:`SPEC`): what ``industry_env.load_game("nim")`` returns."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.spec import GameSpec, Piece, ReferenceGame, layout
from .reference import MAX_PLAYERS, MIN_PLAYERS, NUM_ACTIONS, NUM_HEAPS, OBS_SIZE, Game


class NimSpec(GameSpec):
    """Nim for 2 to 4 players: three heaps, take 1 to 3 counters from one, whoever takes the last wins."""

    id, name, version = "nim", "Nim", 0
    citation = "Nim, a traditional game (C. L. Bouton, Annals of Mathematics 3, 1901)"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 3
    hidden_information = False
    engine_module = "industry_env.games.nim.engine"
    reference_class = "industry_env.games.nim.reference:Game"

    def num_actions(self, **options: Any) -> int:
        return NUM_ACTIONS

    def observation_layout(self, **options: Any) -> tuple[Piece, ...]:
        return layout([("heaps", NUM_HEAPS, "counters left / 7"), ("players", 3, "2, 3 or 4 players, one-hot"),
                       ("to_move", MAX_PLAYERS, "the seat to move, counted after the observer")])  # fmt: skip

    def observation_bounds(self, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(OBS_SIZE, np.float32), np.ones(OBS_SIZE, np.float32)

    def max_game_length(self, num_players: int, **options: Any) -> int:
        return NUM_HEAPS * 7  # each decision takes one counter or more, of at most 7 a heap

    def reference_from_json(self, text: str, **options: Any) -> ReferenceGame:
        return Game.from_json(text)

    def action_to_string(self, action: int, game: ReferenceGame | None = None, **options: Any) -> str:
        return Game.action_to_string(None, action)  # type: ignore[arg-type]

    def setup_of(self, game: ReferenceGame) -> tuple[int, int, dict[str, Any]]:
        return game.num_players, game.seed, {}  # type: ignore[attr-defined]


SPEC = NimSpec()
