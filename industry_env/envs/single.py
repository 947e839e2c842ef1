"""A game of the suite as a single-agent Gymnasium environment: the learner plays one seat against opponents.

=====================  ==========================================================================================
Make                   ``gymnasium.make("industry_env/Industry-v0", num_players=4, opponents="random")``; every
                       game of ``industry_env.available_games()`` has its id (``load_game(g).gym_id``), registered
                       when ``industry_env`` is imported (in a process that has not imported it, e.g. a
                       ``spawn`` worker, use ``"industry_env:industry_env/Industry-v0"``: Gymnasium imports the
                       module first)
Action space           ``Discrete(A)``: the game's one action encoding (Industry's: ``docs/industry/actions.md``)
Observation space      ``Box(low, high, (D,), float32)``: the game's observation from the learner's seat,
                       bounded by the spec's ``observation_bounds``
Action mask            ``env.action_masks()`` (bool[A], what sb3-contrib's MaskablePPO calls) and
                       ``info["action_mask"]`` after every reset and step; every action once the episode is
                       over (Pgx's convention: in ``gymnasium.make_vec(..., "sync")`` that step's action is
                       ignored, and a masked sampler never meets an empty row)
Rewards                at the end only, from the learner's seat: ``reward="win"``: +1 if it wins (ties: every
                       tied winner), -1 if not, 0 on a full tie; ``reward="score"``: (its final points - the
                       table's mean) / 10
Illegal action         ends the episode (terminated) with ``illegal_reward`` (default -1) and
                       ``info["illegal_action"] = True``; the state is not advanced
Termination            the game's end; no truncation
Render                 the learner's view: only what its seat sees (Age of Industry: the other hands as
                       counts). ``env.unwrapped.game()`` is the full position, every hand in it: a debugging
                       channel, never to be shown to a learner
Info                   numpy arrays and numbers only, which Gymnasium's vector envs batch into numeric arrays
                       (no lists): ``action_mask``; at the end ``scores`` (int64[n], by seat), ``learner_seat``
                       and ``score`` (int64), ``win`` (bool); ``illegal_action`` (bool) after an illegal action
=====================  ==========================================================================================

Arguments: ``game`` (default ``"industry"``), ``num_players`` (default: the game's), ``opponents`` (a name of
``industry_env.agents.agent_names(game)`` such as ``"random"`` or ``"heuristic"``, an Agent, a function
``(observation, action_mask) -> action``, or a list of ``num_players - 1`` of these, the first for the
learner's left neighbour), ``learner_seat`` (a seat, or ``"random"``: drawn each episode), ``reward``,
``illegal_reward``, ``render_mode`` (``"ansi"``; ``"rgb_array"``, ``"human"`` for games with pictures), and the
game's own options (Industry: ``balanced_draws``, ``board``).

Seeding: ``reset(seed=s)`` plays the reference game seeded ``s`` exactly (a seed above ``2**63 - 1`` is hashed
into that range the same way every time), and starts the generator that draws the learner's seats, the next
games' seeds and the opponents' seeds; the same seed and the same actions replay the same episodes. ``reset()``
without a seed plays the generator's next game.

Records: ``env.unwrapped.record()`` is the episode's game (every seat's moves) as a replayable
:class:`industry_env.records.Record`.

Runs on the batched engine with a batch of one (:mod:`.core`); for many games at once use the vector env.

Version history: v0 (this one).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from ..core.spec import GameSpec
from .common import ILLEGAL_REWARD, check_env_options, game_seed
from .core import LearnerGames


class LearnerEnv(gymnasium.Env):
    """One learner seat in a game of the suite; see the module docstring for the spec card."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}

    def __init__(
        self,
        num_players: int | None = None,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        reward: str = "win",
        illegal_reward: float = ILLEGAL_REWARD,
        render_mode: str | None = None,
        game: str | GameSpec = "industry",
        **options: Any,
    ) -> None:
        self._spec = dict(num_players=num_players, opponents=opponents, learner_seat=learner_seat, reward=reward,
                          illegal_reward=illegal_reward, game=game, **options)  # fmt: skip
        self.games = LearnerGames(1, **self._spec, record=True)
        self.setup = self.games.setup
        check_env_options(reward, render_mode, self.setup.render_modes())
        self.metadata = {**type(self).metadata, "render_modes": list(self.setup.render_modes())}
        self.render_mode = render_mode
        self.observation_space = self.setup.observation_space()
        self.action_space = self.setup.action_space()
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset options {sorted(options)} unknown: this environment takes none")
        if seed is not None:  # the game is Game(num_players, seed); seats and opponents are seeded by it too
            first = game_seed(seed)
            self.games = LearnerGames(1, **self._spec, seed=int(seed), record=True)
            self.games.reset(np.ones(1, bool), np.array([first], np.int64))
        else:
            self.games.reset(np.ones(1, bool))
        self._done = False
        return self.games.observe()[0], {"action_mask": self.action_masks()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("step() after the episode ended: call reset()")
        if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
            raise ValueError(f"action {action!r}: must be an integer action 0..{self.setup.num_actions - 1}")
        reward, terminated, illegal = self.games.step(np.array([int(action)]))
        self._done = bool(terminated[0])
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if illegal[0]:
            info["illegal_action"] = True
        if terminated[0]:  # numbers and arrays that Gymnasium's vector envs batch into numeric arrays
            final = self.games.final_info(np.array([0]))
            n = self.games.num_players
            info.update(scores=final["scores"][0, :n].copy(), learner_seat=final["learner_seat"][0],
                        score=final["score"][0], win=bool(final["win"][0]))  # fmt: skip
        if self.render_mode == "human":
            self.render()
        return self.games.observe()[0], float(reward[0]), bool(terminated[0]), False, info

    def action_masks(self) -> np.ndarray:
        """bool[A]: the learner's legal actions now (sb3-contrib's MaskablePPO calls this); once the episode is over,
        every action (none is played: ``step`` refuses), so that Gymnasium's vector envs, which ignore that action
        in their ``NEXT_STEP`` autoreset, never hand a masked sampler a row without an action."""
        return self.games.learner_masks(np.array([self._done]))[0]

    def record(self):
        """This episode's game, every seat's moves, as a :class:`industry_env.records.Record` (replays exactly)."""
        return self.games.record(0)

    def game(self):
        """The position as the game's reference game (a copy)."""
        return self.setup.engine.to_game(self.games.state, 0)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: uint8[H, W, 3]; ``human``: the picture shown; each the learner's
        view (only what its seat sees: no opponent's hand)."""
        return self.setup.render(self.game(), self.render_mode, int(self.games.seat[0]))


IndustryEnv = LearnerEnv  # the name of 0.1 (the default game is Industry)
