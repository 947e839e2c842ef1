"""Industry as a single-agent Gymnasium environment: the learner plays one seat against opponents.

=====================  ==========================================================================================
Make                   ``gymnasium.make("industry_env/Industry-v0", num_players=4, opponents="random")``
                       (registered when ``industry_env`` is imported)
Action space           ``Discrete(314)``: the one action encoding (``docs/actions.md``)
Observation space      ``Box(0, high, (675,), float32)``: :mod:`~industry_env.games.industry.observation`, from the
                       learner's seat
Action mask            ``env.action_masks()`` (bool[314], what sb3-contrib's MaskablePPO calls) and
                       ``info["action_mask"]`` after every reset and step
Rewards                at the end only, from the learner's seat: ``reward="win"``: +1 if it wins (ties: every
                       tied winner), -1 if not, 0 on a full tie; ``reward="score"``: (its final points - the
                       table's mean) / 10
Illegal action         ends the episode (terminated) with ``illegal_reward`` (default -1) and
                       ``info["illegal_action"] = True``; the state is not advanced
Termination            the game's end; no truncation
Info at the end        ``scores`` (by seat), ``learner_seat``, ``score``, ``win``
=====================  ==========================================================================================

Arguments: ``num_players`` (3 or 4), ``opponents`` (a name of ``industry_env.agents.AGENTS`` such as
``"random"`` or ``"heuristic"``, an Agent, a function ``(observation, action_mask) -> action``, or a list of
``num_players - 1`` of these, the first for the learner's left neighbour), ``learner_seat`` (a seat, or
``"random"``: drawn each episode), ``reward``, ``balanced_draws``, ``board``, ``illegal_reward``,
``render_mode`` (``"ansi"``, ``"rgb_array"``, ``"human"``).

Seeding: ``reset(seed=s)`` plays ``reference.Game(num_players, seed=s)`` exactly, and starts the generator that
draws the learner's seats, the next games' seeds and the opponents' seeds; the same seed and the same actions
replay the same episodes. ``reset()`` without a seed plays the generator's next game.

Records: ``env.unwrapped.record()`` is the episode's game (every seat's moves) as a replayable
:class:`industry_env.records.Record`.

Runs on the batched engine with a batch of one (:mod:`.core`); for many games at once use the vector env.

Version history: v0 (this one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from ..games.industry import engine as E
from ..games.industry.board import Board
from .common import ILLEGAL_REWARD, action_space, check_options, observation_space, render_game
from .core import LearnerGames

RENDER_MODES = ("ansi", "rgb_array", "human")


class IndustryEnv(gymnasium.Env):
    """One learner seat in a game of Industry; see the module docstring for the spec card."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        num_players: int = 4,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        reward: str = "win",
        balanced_draws: bool = True,
        board: Board | str | Path | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
        render_mode: str | None = None,
    ) -> None:
        check_options(num_players, balanced_draws, reward, render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._spec = dict(num_players=num_players, opponents=opponents, learner_seat=learner_seat, reward=reward,
                          balanced_draws=balanced_draws, board=board, illegal_reward=illegal_reward)  # fmt: skip
        self.games = LearnerGames(1, **self._spec, record=True)
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset options {sorted(options)} unknown: this environment takes none")
        if seed is not None:  # the game is Game(num_players, seed); seats and opponents are seeded by it too
            self.games = LearnerGames(1, **self._spec, seed=int(seed), record=True)
            self.games.reset(np.ones(1, bool), np.array([int(seed)]))
        else:
            self.games.reset(np.ones(1, bool))
        self._done = False
        return self.games.observe()[0], {"action_mask": self.games.mask[0].copy()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("step() after the episode ended: call reset()")
        if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
            raise ValueError(f"action {action!r}: must be an integer action 0..{E.A.NUM_ACTIONS - 1}")
        reward, terminated, illegal = self.games.step(np.array([int(action)]))
        info: dict[str, Any] = {"action_mask": self.games.mask[0].copy()}
        if illegal[0]:
            info["illegal_action"] = True
        if terminated[0]:
            self._done = True
            final = self.games.final_info(np.array([0]))
            n = self.games.num_players
            info.update(scores=final["scores"][0, :n].tolist(), learner_seat=int(final["learner_seat"][0]),
                        score=int(final["score"][0]), win=bool(final["win"][0]))  # fmt: skip
        if self.render_mode == "human":
            self.render()
        return self.games.observe()[0], float(reward[0]), bool(terminated[0]), False, info

    def action_masks(self) -> np.ndarray:
        """bool[314]: the learner's legal actions now (sb3-contrib's MaskablePPO calls this)."""
        return self.games.mask[0].copy()

    def record(self):
        """This episode's game, every seat's moves, as a :class:`industry_env.records.Record` (replays exactly)."""
        return self.games.record(0)

    def game(self):
        """The position as a reference :class:`industry_env.games.industry.reference.Game` (a copy)."""
        return E.to_game(self.games.state, 0)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: uint8[H, W, 3]; ``human``: the picture shown."""
        return render_game(self.game(), self.render_mode)
