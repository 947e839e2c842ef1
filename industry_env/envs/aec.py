"""Industry as a PettingZoo AEC environment: every seat an agent, for self-play (``industry_env.env()``).

=====================  ==========================================================================================
Import                 ``import industry_env; env = industry_env.env(num_players=4)``
Agents                 ``player_0`` .. ``player_{n-1}`` (engine seats 0 .. n-1, clockwise)
Action space           ``Discrete(314)``: the one action encoding (``docs/actions.md``)
Observation space      ``Dict(observation=Box(0, high, (675,), float32), action_mask=Box(0, 1, (314,), int8))``
Observation            Industry's observation layout (:mod:`~industry_env.games.industry.observation`), seen from
                       the agent's own seat (seat 0 is itself, then clockwise); everything on the table but the
                       order of the bag
Action mask            int8: the legal actions of the agent to move; all zeros for the others and once over
Rewards                at the end only. ``reward="win"``: +1 to each winner, -1 to the others, 0 to all on a
                       full tie (``Game.returns()``); ``reward="score"``: (final points - the table's mean) / 10
Termination            all agents at once, when the last round of Era 5 ends; no truncation (a game is a few
                       hundred decisions)
Agent order            whoever the rules say decides next (``agent_selection``): bids go round the table, the
                       auctioneer who sells stays auctioneer, development turns go round from the Starting Player
Info                   ``infos[agent]``: empty during the game; at the end ``scores`` (by seat), ``score`` (own),
                       ``winners`` (agent names)
Render modes           ``"ansi"`` (text board), ``"rgb_array"`` and ``"human"`` (a picture, needs the ``render``
                       extra)
=====================  ==========================================================================================

``env()`` is ``raw_env`` in PettingZoo's standard wrappers, as its classic games are: an illegal action ends the
game for every agent with -1 to the agent at fault and 0 to the others (``TerminateIllegalWrapper``, with a
warning); out-of-bounds actions and calls out of order are refused. ``raw_env`` itself refuses an illegal
action with :class:`industry_env.games.industry.engine.IllegalActionError` and leaves the game unchanged.

Records: ``env.unwrapped.record()`` is the game so far as a replayable :class:`industry_env.records.Record`.

Seeding: ``reset(seed=s)`` plays exactly ``reference.Game(num_players, seed=s)``; ``reset()`` without a seed
draws the next game's seed from the generator the last seed started (a fresh one at first).

The env holds one game of the batched engine (:mod:`industry_env.games.industry.engine`, batch of one); it holds no
rule.

Version history: v0 (this one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..games.industry import actions as A
from ..games.industry import engine as E
from ..games.industry.board import Board
from .common import (
    ILLEGAL_REWARD,
    action_space,
    agent_names,
    check_options,
    observation_space,
    render_game,
    resolve_board,
)
from .common import terminal_rewards as _terminal_rewards

RENDER_MODES = ("ansi", "rgb_array", "human")


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment in PettingZoo's standard wrappers (illegal move ends the game; bounds and order checks)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    """Industry for 3 or 4 agents, one batched-engine game; see the module docstring for the spec card."""

    metadata = {"name": "industry_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": True,
                "render_fps": 2}  # fmt: skip

    def __init__(
        self,
        num_players: int = 4,
        balanced_draws: bool = True,
        board: Board | str | Path | None = None,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_options(num_players, balanced_draws, reward, render_mode, RENDER_MODES)
        self.num_players = int(num_players)
        self.balanced_draws = bool(balanced_draws)
        self.board = resolve_board(board)
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = agent_names(self.num_players)
        self.agent_name_mapping = {a: k for k, a in enumerate(self.possible_agents)}
        # Declared once; the same objects are returned on every call.
        obs_space = spaces.Dict({
            "observation": observation_space(),
            "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.state_: E.State | None = None
        self.actions_played: list[int] = []
        self.game_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------------------------ reset / step
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: ``Game(num_players, seed)`` if ``seed`` is given, else the next seed of the env's generator."""
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed < 2**63:
                raise ValueError(f"seed={seed!r}: must be a whole number from 0 to 2**63 - 1")
            self._np_random, _ = seeding.np_random(int(seed))
            self.game_seed = int(seed)
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random(None)
            self.game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.state_ = E.init(1, self.num_players, seed=self.game_seed, board=self.board,
                             balanced_draws=self.balanced_draws)  # fmt: skip
        self.actions_played = []
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._refresh()

    def step(self, action: int) -> None:
        """Play ``action`` for ``agent_selection``; an illegal one raises IllegalActionError (state unchanged)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
            raise E.IllegalActionError(f"action {action!r} is not an action of Industry (0..{A.NUM_ACTIONS - 1})")
        self._cumulative_rewards[agent] = 0.0
        E.step(self.state_, np.array([int(action)]), inplace=True, mask=self._mask[None])
        self.actions_played.append(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state_.terminated[0]:
            r = _terminal_rewards(self.state_, np.array([0]), self.reward)[0]
            game = self.game()
            scores = game.scores()
            winners = [self.possible_agents[k] for k in game.winners()]  # none if ended by an illegal action
            for k, a in enumerate(self.possible_agents):
                self.rewards[a] = float(r[k])
                self.terminations[a] = True
                self.infos[a] = {"scores": scores, "score": scores[k], "winners": winners}
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _refresh(self) -> None:
        """Cache the legal-action mask and move ``agent_selection`` to the player the rules call on next."""
        self._mask = E.legal_action_mask(self.state_)[0]
        self._to_move = p = int(self.state_.current_player[0])
        if p >= 0:
            self.agent_selection = self.possible_agents[p]
        elif self.agents:  # over: the dead agents are stepped with None in turn, as PettingZoo expects
            self.agent_selection = self.agents[0]

    # ------------------------------------------------------------------------------------------ observing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own view: its observation and (if it is to move) its legal actions; fresh copies."""
        k = self.agent_name_mapping[agent]
        obs = E.observe(self.state_, k)[0]  # a new array every call
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if self._to_move == k:
            mask[self._mask] = 1
        return {"observation": obs, "action_mask": mask}

    def game(self):
        """The position as a reference :class:`industry_env.games.industry.reference.Game` (a copy)."""
        return E.to_game(self.state_, 0)

    def record(self):
        """The game so far as a :class:`industry_env.records.Record` (``.save(path)``; ``industry-env replay``)."""
        from ..records import Recorder

        if self.state_ is None:
            raise RuntimeError("record() before reset()")
        rec = Recorder(self.num_players, self.game_seed, self.balanced_draws, self.board)
        for a in self.actions_played:
            rec.append(a)
        over = bool(self.state_.phase[0] == E.OVER)
        return rec.record(E.scores(self.state_)[0, : self.num_players].tolist() if over else None)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: uint8[H, W, 3]; ``human``: the picture shown."""
        if self.state_ is None:
            raise RuntimeError("render() before reset()")
        return render_game(self.game(), self.render_mode)

    def close(self) -> None:
        """Nothing to release (pictures are drawn on demand)."""
