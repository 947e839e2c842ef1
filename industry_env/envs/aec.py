"""A game of the suite as a PettingZoo AEC environment: every seat an agent, for self-play (``industry_env.env()``).

=====================  ==========================================================================================
Import                 ``import industry_env; env = industry_env.env(game="industry", num_players=4)``
Agents                 ``player_0`` .. ``player_{n-1}`` (engine seats 0 .. n-1, clockwise)
Action space           ``Discrete(A)``: the game's one action encoding (Industry's: ``docs/industry/actions.md``)
Observation space      ``Dict(observation=Box(low, high, (D,), float32), action_mask=Box(0, 1, (A,), int8))``;
                       with ``action_mask="info"``, ``Box(low, high, (D,), float32)`` and the mask in
                       ``infos[agent]["action_mask"]`` (PettingZoo's other place for it), so that wrappers made
                       for Box observations (SuperSuit's ``dtype_v0``, ``flatten_v0``, ``frame_stack_v1``, ...)
                       apply
Observation            the game's observation layout seen from the agent's own seat (the seat itself first,
                       then clockwise); only what that seat may see (Industry: everything on the table but the
                       order of the bag)
Action mask            int8: the legal actions of the agent to move; all zeros for the others and once over
Rewards                at the end only. ``reward="win"``: +1 to each winner, -1 to the others, 0 to all on a
                       full tie (``Game.returns()``); ``reward="score"``: (final points - the table's mean) / 10
Termination            all agents at once, when the game ends; no truncation (a game is a few hundred decisions)
Agent order            whoever the rules say decides next (``agent_selection``); Industry: bids go round the
                       table, the auctioneer who sells stays auctioneer, development turns go round from the
                       Starting Player
Parallel API           turn-based, so ``metadata["is_parallelizable"]`` is False (PettingZoo's ``aec_to_parallel``
                       refuses it up front); ``pettingzoo.utils.conversions.turn_based_aec_to_parallel`` gives
                       the parallel API (the agents not to move get an all-zero mask)
Info                   numbers and numpy arrays only (replay buffers such as Tianshou's store them as
                       arrays): ``infos[agent]`` is empty during the game; at the end ``scores`` (int64[n], by
                       seat), ``score`` (int64, own), ``winners`` (bool[n], by seat: each seat's flag, none
                       after an illegal action) and ``win`` (bool, own); with ``action_mask="info"``,
                       ``action_mask`` (int8[A]) always
Render modes           ``"ansi"`` (text board); ``"rgb_array"`` and ``"human"`` for games with pictures (the
                       ``render`` extra)
Render view            ``render_view="public"`` (default): what every seat sees, no hidden card (Age of
                       Industry's hands as counts); a seat (``2`` or ``"player_2"``): what that seat sees, its
                       own hand too; ``"full"``: everything, every hand (for debugging: never show it to a
                       player). ``env.unwrapped.render(view=...)`` renders one call in another view. Pictures
                       never show another seat's hand (the full view's picture is the public one)
=====================  ==========================================================================================

``env()`` is ``raw_env`` in PettingZoo's standard wrappers, as its classic games are: an illegal action ends the
game for every agent with -1 to the agent at fault and 0 to the others (``TerminateIllegalWrapper``, with one
warning per environment, not one per illegal move, so that checkers stepping random actions stay readable);
out-of-bounds actions and calls out of order are refused. ``raw_env`` itself refuses an illegal action with the
engine's ``IllegalActionError`` and leaves the game unchanged.

Records: ``env.unwrapped.record()`` is the game so far as a replayable :class:`industry_env.records.Record`.

Seeding: ``reset(seed=s)`` plays exactly the reference game seeded ``s`` (a seed above ``2**63 - 1`` is hashed
into range); ``reset()`` without a seed draws the next game's seed from the generator the last seed started (a
fresh one at first).

The env holds one game of the batched engine (batch of one); it holds no rule.

Version history: v0 (this one).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..core.spec import GameSpec
from .common import ILLEGAL_REWARD, MAX_GAME_SEED, GameSetup, agent_names, check_env_options, game_seed
from .common import terminal_rewards as _terminal_rewards

MASK_PLACES = ("observation", "info")  # where raw_env gives the legal actions (PettingZoo's two places)


class TerminateIllegalOnce(wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper`` warning once per environment instead of once per illegal move.

    Checkers that step random actions (SB3's ``check_env`` through :class:`industry_env.wrappers.SharedPolicyEnv`,
    RLlib's pre-check) make hundreds of illegal moves; the rule is the same, the console stays readable.
    """

    _warned = False

    def step(self, action: Any) -> None:
        if not self._warned:
            super().step(action)
            self._warned = self._terminated  # set by the wrapper when an illegal move ended the game
            return
        logger, was = EnvLogger.get_logger(), EnvLogger._output
        disabled = logger.disabled
        logger.disabled = True  # nothing reaches logging's handlers (RLlib and notebooks configure some)
        EnvLogger.suppress_output()  # nor PettingZoo's own print
        try:
            super().step(action)
        finally:
            logger.disabled = disabled
            if was:
                EnvLogger.unsuppress_output()


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment in PettingZoo's standard wrappers (illegal move ends the game; bounds and order checks)."""
    e: AECEnv = raw_env(**kwargs)
    e = TerminateIllegalOnce(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    """A game of the suite, every seat an agent, one batched-engine game; see the module docstring."""

    metadata = {"name": "industry_v0", "render_modes": ["ansi", "rgb_array", "human"], "is_parallelizable": False,
                "render_fps": 2}  # fmt: skip

    def __init__(
        self,
        num_players: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        game: str | GameSpec = "industry",
        action_mask: str = "observation",
        render_view: int | str = "public",
        **options: Any,
    ) -> None:
        super().__init__()
        if action_mask not in MASK_PLACES:
            raise ValueError(f"action_mask={action_mask!r}: expected one of {list(MASK_PLACES)} (where the legal "
                             f"actions are given: in the observation dict, or in infos[agent])")  # fmt: skip
        self.setup = setup = GameSetup(game, num_players, options)
        check_env_options(reward, render_mode, setup.render_modes())
        self.render_view = setup.check_view(render_view)
        self.mask_in_info = action_mask == "info"
        self.metadata = {**type(self).metadata, "name": setup.spec.pettingzoo_name,
                         "render_modes": list(setup.render_modes())}  # fmt: skip
        self.num_players = setup.num_players
        self.options = setup.options
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = agent_names(self.num_players)
        self.agent_name_mapping = {a: k for k, a in enumerate(self.possible_agents)}
        # Declared once; the same objects are returned on every call.
        obs_space: spaces.Space = setup.observation_space() if self.mask_in_info else spaces.Dict({
            "observation": setup.observation_space(),
            "action_mask": spaces.Box(0, 1, (setup.num_actions,), np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: setup.action_space() for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.state_: Any = None
        self.actions_played: list[int] = []
        self.game_seed: int | None = None

    @property
    def engine(self) -> Any:
        """The game's batched engine (looked up: a module is neither copied nor pickled)."""
        return self.setup.engine

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------------------------ reset / step
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: ``Game(num_players, seed)`` if ``seed`` is given, else the next seed of the env's generator."""
        if seed is not None:
            self.game_seed = game_seed(seed)
            self._np_random, _ = seeding.np_random(int(seed))
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random(None)
            self.game_seed = int(self._np_random.integers(0, MAX_GAME_SEED))
        self.state_ = self.setup.init(1, self.game_seed)
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
            raise self.engine.IllegalActionError(f"action {action!r} is not an action of {self.setup.spec.name} "
                                                 f"(0..{self.setup.num_actions - 1})")  # fmt: skip
        self._cumulative_rewards[agent] = 0.0
        self.engine.step(self.state_, np.array([int(action)]), inplace=True, mask=self._mask[None])
        self.actions_played.append(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state_.terminated[0]:
            r = _terminal_rewards(self.engine, self.state_, np.array([0]), self.reward)[0]
            final = self._final_info()
            for k, a in enumerate(self.possible_agents):
                self.rewards[a] = float(r[k])
                self.terminations[a] = True
                self.infos[a] = {"scores": final["scores"].copy(), "score": final["scores"][k],
                                 "winners": final["winners"].copy(), "win": final["winners"][k]}  # fmt: skip
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _final_info(self) -> dict[str, np.ndarray]:
        """The finished game's ``scores`` (int64[n], by seat) and ``winners`` (bool[n], by seat: a flag per seat,
        so that every info value is numeric; none if the game ended by an illegal action)."""
        n = self.num_players
        scores = self.engine.scores(self.state_)[0, :n].astype(np.int64)
        winners = np.zeros(n, bool)
        if self.engine.finished(self.state_)[0]:
            winners[self.game().winners()] = True
        return {"scores": scores, "winners": winners}

    def _refresh(self) -> None:
        """Cache the legal-action mask and move ``agent_selection`` to the player the rules call on next."""
        self._mask = self.engine.legal_action_mask(self.state_)[0]
        self._to_move = p = int(self.state_.current_player[0])
        if p >= 0:
            self.agent_selection = self.possible_agents[p]
        elif self.agents:  # over: the dead agents are stepped with None in turn, as PettingZoo expects
            self.agent_selection = self.agents[0]
        if self.mask_in_info:
            for a in self.agents:
                self.infos[a]["action_mask"] = self._mask_of(a)

    # ------------------------------------------------------------------------------------------ observing
    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        """The agent's own view: its observation and (if it is to move) its legal actions; fresh copies
        (``action_mask="info"``: the observation alone)."""
        obs = self.engine.observe(self.state_, self.agent_name_mapping[agent])[0]  # a new array every call
        return obs if self.mask_in_info else {"observation": obs, "action_mask": self._mask_of(agent)}

    def _mask_of(self, agent: str) -> np.ndarray:
        """int8[A]: the agent's legal actions if it is to move, else all zeros (a new array)."""
        mask = np.zeros(self.setup.num_actions, np.int8)
        if self._to_move == self.agent_name_mapping[agent]:
            mask[self._mask] = 1
        return mask

    def game(self):
        """The position as the game's reference game (a copy), every hand in it: a debugging channel."""
        if self.state_ is None:
            raise RuntimeError("game() before reset()")
        return self.engine.to_game(self.state_, 0)

    def record(self):
        """The game so far as a :class:`industry_env.records.Record` (``.save(path)``; ``industry-env replay``)."""
        from ..records import Recorder

        if self.state_ is None:
            raise RuntimeError("record() before reset()")
        rec = Recorder(self.num_players, self.game_seed, game=self.setup.spec.id, **self.options)
        for a in self.actions_played:
            rec.append(a)
        over = bool(self.engine.finished(self.state_)[0])
        return rec.record(self.engine.scores(self.state_)[0, : self.num_players].tolist() if over else None)

    def render(self, view: int | str | None = None) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: uint8[H, W, 3]; ``human``: the picture shown; in ``view``
        (default ``render_view``: ``"public"``, ``"full"`` or a seat, see the module docstring)."""
        if self.state_ is None:
            raise RuntimeError("render() before reset()")
        view = self.render_view if view is None else self.setup.check_view(view, "render(view)")
        return self.setup.render(self.game(), self.render_mode, view)

    def close(self) -> None:
        """Nothing to release (pictures are drawn on demand)."""
