"""The native Gymnasium vector environment: N games stepped as arrays on the batched engine, no loop over games.

=====================  ==========================================================================================
Make                   ``gymnasium.make_vec("industry_env/Industry-v0", num_envs=N,
                       vectorization_mode="vector_entry_point", opponents="random")``, or
                       ``LearnerVectorEnv(N, game=..., ...)``; the arguments of the single env (:mod:`.single`)
Spaces                 ``single_observation_space`` Box(D,) float32, ``single_action_space`` Discrete(A) (the
                       game's sizes); ``observation_space`` / ``action_space`` batched over N
Action masks           ``info["action_mask"]`` (bool[N, A]) after every reset and step, and
                       ``env.action_masks()``. A sub-env whose next action is ignored (its game ended on this
                       step and ``NEXT_STEP`` resets it on the next; with ``disabled``, until it is reset) shows
                       every action allowed, as Pgx does, so that a masked softmax never divides by zero
Opponents              played in batch between the learner's moves: each opponent agent is called once per
                       engine step for all the games where it is to move
Autoreset              ``autoreset_mode`` attribute and ``metadata["autoreset_mode"]`` (read by TorchRL and
                       Gymnasium's wrappers): ``AutoresetMode.NEXT_STEP`` by default (Gymnasium's): the step after
                       a game ends resets that sub-env, ignores its action and returns its first observation with
                       reward 0. ``autoreset_mode="same_step"`` resets in the step that ends the game instead,
                       the last observation in ``info["final_obs"]`` and its info in ``info["final_info"]``;
                       ``autoreset_mode="disabled"`` (TorchRL's preferred mode) never resets by itself: a
                       finished sub-env waits for ``reset(options={"reset_mask": m})`` and stepping it first
                       is refused
Illegal action         ends that game with ``illegal_reward`` (``info["illegal_action"][i]``), as the single env
Info                   ``action_mask``; ``illegal_action`` (bool[N]); at the end of a game, ``scores``
                       (int[N, P]), ``learner_seat``, ``score``, ``win`` with ``_``-prefixed masks saying which
                       sub-envs they are for (Gymnasium's vector info convention); numeric arrays only
Render                 ``render_mode="ansi"``: sub-env 0's text board in its learner's view (no opponent's
                       hand); ``env.games.state`` is the full State, every hand in it: a debugging channel
=====================  ==========================================================================================

Records: with ``record=True``, ``env.record(i)`` is sub-env ``i``'s game so far as a replayable
:class:`industry_env.records.Record` (a short loop over the games each step: meant for evaluation, not training).

Seeding: ``reset(seed=s)`` plays the reference game seeded ``s + i`` in sub-env ``i`` (as ``engine.init``) and
restarts the generator of the learner's seats, the following games and the opponents. With a partial reset
(``options={"reset_mask": m}``) only the masked sub-envs change: sub-env ``i`` of the mask plays the game
seeded ``s + i``, and the generator of the following games and seats restarts from ``s``; the other sub-envs
keep their games as they are (the opponents' own generators are not reseeded by a partial reset).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.spec import GameSpec
from .common import ILLEGAL_REWARD, check_env_options, game_seeds
from .core import LearnerGames

_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
          "disabled": AutoresetMode.DISABLED}


class LearnerVectorEnv(VectorEnv):
    """N learner games of a game of the suite on its batched engine; see the module docstring for the spec card."""

    def __init__(
        self,
        num_envs: int = 16,
        num_players: int | None = None,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        reward: str = "win",
        illegal_reward: float = ILLEGAL_REWARD,
        autoreset_mode: str | AutoresetMode = "next_step",
        render_mode: str | None = None,
        record: bool = False,
        game: str | GameSpec = "industry",
        **options: Any,
    ) -> None:
        mode = _MODES.get(autoreset_mode, autoreset_mode) if isinstance(autoreset_mode, str) else autoreset_mode
        if mode not in _MODES.values():
            raise ValueError(f"autoreset_mode={autoreset_mode!r}: expected 'next_step', 'same_step' or 'disabled'")
        check_env_options(reward, render_mode, ("ansi",))
        self.autoreset_mode = mode  # the attribute TorchRL reads, as Gymnasium's own vector envs carry it
        self.metadata = {"autoreset_mode": mode, "render_modes": ["ansi"]}
        self.render_mode = render_mode
        self._spec = dict(num_players=num_players, opponents=opponents, learner_seat=learner_seat, reward=reward,
                          illegal_reward=illegal_reward, record=bool(record), game=game, **options)  # fmt: skip
        self.games = LearnerGames(num_envs, **self._spec)
        self.setup = self.games.setup
        self.num_envs = self.games.num_envs
        self.single_observation_space = self.setup.observation_space()
        self.single_action_space = self.setup.action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._needs_reset = np.ones(self.num_envs, bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Every sub-env starts a new game (``options={"reset_mask": bool[N]}``: only those)."""
        rows = np.ones(self.num_envs, bool)
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError(f"reset options {sorted(unknown)} unknown; the one option is 'reset_mask'")
            rows = np.asarray(options["reset_mask"])
            if rows.dtype != bool or rows.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must be bool[{self.num_envs}], got {rows.dtype}{list(rows.shape)}")
        if seed is not None:
            seeds = game_seeds(seed, self.num_envs)
            if rows.all():  # every game anew: the opponents are seeded afresh too
                self.games = LearnerGames(self.num_envs, **self._spec, seed=int(seed))
            else:  # only the masked sub-envs change: the others keep their games
                self.games.seed(int(seed))
            self.games.reset(rows, seeds)
        else:
            self.games.reset(rows)
        self._needs_reset &= ~rows
        return self.games.observe(), {"action_mask": self._masks()}

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One learner action per sub-env; the opponents answer in batch until each learner is to move again."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be int[{self.num_envs}], one per sub-env, got {a.dtype}{list(a.shape)}")
        N = self.num_envs
        reward = np.zeros(N, np.float32)
        terminated = np.zeros(N, bool)
        if self.autoreset_mode == AutoresetMode.DISABLED:
            if self._needs_reset.any():  # refused before anything changes
                raise RuntimeError(f"sub-envs {np.flatnonzero(self._needs_reset).tolist()} have no game running "
                                   f"(over, or never reset; autoreset_mode='disabled'): reset them first with "
                                   f"reset(options={{'reset_mask': mask}})")  # fmt: skip
            restart = np.zeros(N, bool)
        else:  # NEXT_STEP: the sub-envs whose game ended on the previous step start anew; their actions are ignored.
            restart = self._needs_reset.copy()
            self.games.reset(restart)
        active = ~restart
        r, ended, illegal = self.games.step(a, rows=active)
        reward[active] = r[active]
        terminated |= ended
        info: dict[str, Any] = {"illegal_action": illegal, "_illegal_action": np.ones(N, bool)}
        if ended.any():
            self._add_final_info(info, ended)
        obs = self.games.observe()
        if self.autoreset_mode == AutoresetMode.SAME_STEP and ended.any():
            final_info = {k: v for k, v in info.items() if k not in ("illegal_action", "_illegal_action")}
            info["final_obs"] = np.where(ended[:, None], obs, 0.0).astype(np.float32)
            info["_final_obs"] = ended.copy()
            info["final_info"] = final_info
            info["_final_info"] = ended.copy()
            self.games.reset(ended)
            obs = self.games.observe()
        else:
            self._needs_reset = ended.copy()
        info["action_mask"] = self._masks()
        info["_action_mask"] = np.ones(N, bool)
        return obs, reward, terminated, np.zeros(N, bool), info

    def _masks(self) -> np.ndarray:
        """bool[N, A]: the learner's legal actions; every action for a sub-env whose game is over (its next action
        is ignored, or with ``disabled`` it waits for a reset)."""
        return self.games.learner_masks(self._needs_reset)

    def _add_final_info(self, info: dict[str, Any], ended: np.ndarray) -> None:
        rows = np.flatnonzero(ended)
        for key, value in self.games.final_info(rows).items():
            full = np.zeros((self.num_envs, *value.shape[1:]), value.dtype)
            full[rows] = value
            info[key], info[f"_{key}"] = full, ended.copy()

    def record(self, i: int):
        """Sub-env ``i``'s game since its start as a :class:`industry_env.records.Record` (``record=True``)."""
        return self.games.record(i)

    def action_masks(self) -> np.ndarray:
        """bool[N, A]: each sub-env's legal actions for the learner now (a copy; every action where the next one
        is ignored)."""
        return self._masks()

    def render(self) -> str | None:
        """``ansi``: the text board of sub-env 0 in its learner's view (only what its seat sees)."""
        if self.render_mode != "ansi":
            return None
        return self.setup.render_text(self.setup.engine.to_game(self.games.state, 0), int(self.games.seat[0]))


IndustryVectorEnv = LearnerVectorEnv  # the name of 0.1 (the default game is Industry)
