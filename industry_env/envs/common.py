"""What every environment adapter shares: spaces, agent names, terminal rewards and opponents (no rule here).

The rules live in :mod:`industry_env.games.industry.engine`; the adapters (:mod:`.aec`, :mod:`.single`, :mod:`.vector`,
:mod:`.sb3`) only translate its arrays to each ecosystem's conventions, through the helpers below, so that
every adapter computes a reward, a space or an opponent's move the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from ..games.industry import actions as A
from ..games.industry import engine as E
from ..games.industry import observation as O
from ..games.industry.board import Board, load_board
from ..games.industry.rules import MAX_PLAYERS, MIN_PLAYERS

REWARDS = ("win", "score")
# reward="score": (final points - the table's mean) / SCORE_SCALE. Winners of 4-player heuristic games lead the
# table's mean by about 10 points, so the rewards of ordinary games fall mostly within [-2, 2].
SCORE_SCALE = 10.0
ILLEGAL_REWARD = -1.0


def agent_names(num_players: int) -> list[str]:
    """``player_0`` .. ``player_{n-1}``: seat k of the engine is ``player_k``."""
    return [f"player_{k}" for k in range(num_players)]


def check_options(num_players: Any, balanced_draws: Any, reward: Any, render_mode: Any, render_modes: Sequence[str]
                  ) -> None:  # fmt: skip
    """ValueError naming the option unless every environment option is of the right kind and value."""
    if not isinstance(num_players, (int, np.integer)) or isinstance(num_players, bool) or num_players not in (
        MIN_PLAYERS, MAX_PLAYERS
    ):  # fmt: skip
        raise ValueError(f"num_players={num_players!r}: Industry is played by {MIN_PLAYERS} or {MAX_PLAYERS}")
    if not isinstance(balanced_draws, (bool, np.bool_)):
        raise ValueError(f"balanced_draws={balanced_draws!r}: must be True or False")
    if reward not in REWARDS:
        raise ValueError(f"reward={reward!r}: expected one of {list(REWARDS)}")
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode={render_mode!r}: expected None or one of {list(render_modes)}")


def resolve_board(board: Board | str | Path | None) -> Board:
    """A Board from a Board, a path to a board file, or None (the shipped board)."""
    if board is None or isinstance(board, Board):
        return board if board is not None else load_board()
    if isinstance(board, (str, Path)):
        return load_board(board)
    raise ValueError(f"board={board!r}: expected None, a path to a board file, or a Board")


def observation_space() -> spaces.Box:
    """The 675 floats of :mod:`industry_env.games.industry.observation`, bounded entry by entry
    (``observation.bounds``)."""
    low, high = O.bounds()
    return spaces.Box(low=low, high=high, dtype=np.float32)


def action_space() -> spaces.Discrete:
    """The one flat action encoding (:mod:`industry_env.games.industry.actions`): 314 actions, a mask says which are
    legal."""
    return spaces.Discrete(A.NUM_ACTIONS)


def render_game(game: Any, mode: str | None) -> str | np.ndarray | None:
    """A position in a render mode: ``ansi`` the text board, ``rgb_array`` the picture as uint8[H, W, 3],
    ``human`` the picture shown (notebook or window); None (with a warning) when no mode was chosen."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called with no render_mode: pass render_mode= when making the environment")
        return None
    if mode == "ansi":
        from ..games.industry.render import render_text

        return render_text(game)
    from ..games.industry import picture

    if mode == "rgb_array":
        return picture.to_rgb_array(game)
    picture.show(game)
    return None


def terminal_rewards(state: E.State, rows: np.ndarray, reward: str) -> np.ndarray:
    """float32[N, 4]: each player's reward in the finished games ``rows`` (zero in unused seats).

    ``"win"``: the engine's rewards (+1 each winner, -1 the others, 0 for all on a full tie, ``Game.returns()``);
    ``"score"``: (final points - the table's mean) / SCORE_SCALE. Games ended by an illegal action keep the
    engine's penalty rewards in both modes.
    """
    rewards = state.rewards[rows].astype(np.float32)
    if reward == "score":
        n = state.num_players[rows].astype(np.int64)
        present = np.arange(MAX_PLAYERS)[None, :] < n[:, None]
        scores = E.scores(E.take(state, rows)).astype(np.float32)
        mean = np.where(present, scores, 0).sum(axis=1) / n
        normal = state.phase[rows] == E.OVER  # not ended by a penalty
        by_score = np.where(present, (scores - mean[:, None]) / SCORE_SCALE, 0.0)
        rewards = np.where(normal[:, None], by_score, rewards).astype(np.float32)
    return rewards


def step_rows(state: E.State, rows: np.ndarray, actions: np.ndarray, mask: np.ndarray, on_illegal: str = "raise",
              penalty: float = ILLEGAL_REWARD, next_mask: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Step only the games ``rows`` (bool[B]) of ``state`` in place; the others stay exactly as they are.

    The engine steps every running game; the games not in ``rows`` are set aside by marking them finished for
    this one step (a finished game is never changed, its action ignored: the engine's documented convention)
    and restored after. Returns the rewards of this step (float32[B, 4], zero outside ``rows``), since the
    engine's ``rewards`` array holds only the last step's. ``next_mask`` (bool[B, 314], may be ``mask``)
    receives the legal actions after the step in the rows stepped (all False in the others), in the same pass.
    """
    held = state.terminated.copy()
    np.logical_or(held, ~rows, out=state.terminated)  # in place: the State's arrays stay views of its buffer
    try:
        E.step(state, actions, on_illegal=on_illegal, penalty=penalty, inplace=True, mask=mask, next_mask=next_mask)
    finally:
        state.terminated[:] = held | (state.terminated & rows)
    return np.where(rows[:, None], state.rewards, 0.0).astype(np.float32)


def masks_of(state: E.State, rows: np.ndarray) -> np.ndarray:
    """bool[B, 314]: the legal actions in the games ``rows`` (bool[B]), all False in the others (not computed)."""
    held = state.terminated.copy()
    np.logical_or(held, ~rows, out=state.terminated)
    try:
        return E.legal_action_mask(state)
    finally:
        state.terminated[:] = held


class OpponentPool:
    """A league of opponents: each game draws, when it starts, one member for each of its opponent seats.

    ``members``: agents given as in :class:`Opponents` (names, Agents, functions); ``weights``: their relative
    chances (default equal). :meth:`add` puts a new member in (e.g. a frozen snapshot of the learner), for the
    games that start afterwards. Pass it as ``opponents=`` to any learner environment.
    """

    def __init__(self, members: Sequence[Any], weights: Sequence[float] | None = None, seed: int | None = None) -> None:
        from ..agents import as_agent

        if not members:
            raise ValueError("OpponentPool needs at least one member")
        self._seed = seed
        self.agents = [as_agent(m, seed=self._member_seed(k)) for k, m in enumerate(members)]
        self.weights = [1.0] * len(self.agents) if weights is None else [float(w) for w in weights]
        self._check()

    def _member_seed(self, k: int) -> int | None:
        return None if self._seed is None else (int(self._seed) * 104729 + k) % 2**63

    def _check(self) -> None:
        if len(self.weights) != len(self.agents) or any(not (w >= 0 and np.isfinite(w)) for w in self.weights) or \
                sum(self.weights) <= 0:  # fmt: skip
            raise ValueError(f"OpponentPool weights {self.weights}: one finite weight >= 0 per member, not all 0")

    def add(self, member: Any, weight: float = 1.0) -> None:
        """A new member, drawn by the games that start from now on."""
        from ..agents import as_agent

        self.agents.append(as_agent(member, seed=self._member_seed(len(self.agents))))
        self.weights.append(float(weight))
        self._check()

    def draw(self, rng: np.random.Generator, size: tuple[int, ...]) -> np.ndarray:
        """Member indices of the given shape, drawn by weight."""
        p = np.asarray(self.weights, float)
        return rng.choice(len(self.agents), size=size, p=p / p.sum())


class Opponents:
    """The agents that play the seats other than the learner's, in batch (no loop over games).

    ``spec``: one agent for every other seat, or a list of ``num_players - 1``, the first for the seat to the
    learner's left; each a name of :data:`industry_env.agents.AGENTS` (``"random"``, ``"heuristic"``, ...), an
    :class:`industry_env.agents.Agent`, or a function ``(observation, action_mask) -> action``. Or an
    :class:`OpponentPool`: each game then draws its opponents from the pool when it starts (:meth:`deal`).
    """

    def __init__(self, spec: Any, num_players: int, seed: int | None, num_games: int) -> None:
        from ..agents import as_agent

        self.pool = spec if isinstance(spec, OpponentPool) else None
        self.assign = np.zeros((num_games, num_players - 1), np.int64)  # [game, seat from the learner's left - 1]
        if self.pool is not None:
            self.members = self.pool.agents  # shared: members the pool gains later are seen here
            return
        specs = list(spec) if isinstance(spec, (list, tuple)) else [spec] * (num_players - 1)
        if len(specs) != num_players - 1:
            raise ValueError(f"opponents: {len(specs)} given for the {num_players - 1} other seats of a "
                             f"{num_players}-player game")  # fmt: skip
        by_key: dict[Any, int] = {}
        self.members = []
        for k, s in enumerate(specs):
            key = s if isinstance(s, str) else id(s)  # a name repeated is one agent for those seats: one call
            if key not in by_key:
                by_key[key] = len(self.members)
                seed_k = None if seed is None else (int(seed) * 7919 + k) % 2**63
                self.members.append(as_agent(s, seed=seed_k) if isinstance(s, str) else as_agent(s))
            self.assign[:, k] = by_key[key]

    def deal(self, rows: np.ndarray, rng: np.random.Generator) -> None:
        """New games in ``rows`` (int indices) draw their opponents from the pool (nothing to do otherwise)."""
        if self.pool is not None and rows.size:
            self.assign[rows] = self.pool.draw(rng, (rows.size, self.assign.shape[1]))

    def act(self, state: E.State, rows: np.ndarray, relative_seat: np.ndarray, mask: np.ndarray,
            games: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
        """int64[B]: the opponents' actions in the games ``rows`` (bool[B]) where one is to move; 0 elsewhere.

        ``relative_seat`` (int[B]): seat of the player to move, counted from the learner's left (1 .. n-1);
        ``games``: which learner games the rows of ``state`` are (default: the same rows). An
        agent with ``act_state(state, mask)`` (acting on engine arrays, reading only what its seat observes) is
        given the games themselves, one with ``act_masks(masks)`` (reading only the legal actions) their masks;
        any other is given their observations (``act_batch``).
        """
        from ..agents.base import check_actions

        out = np.zeros(state.batch_size, np.int64)
        games = np.arange(state.batch_size) if games is None else games  # the learner games these rows are
        member = self.assign[games, np.clip(relative_seat - 1, 0, self.assign.shape[1] - 1)]
        obs = None
        for m, agent in enumerate(self.members):
            sel = np.flatnonzero(rows & (member == m))
            if sel.size == 0:
                continue
            by_mask: Callable[..., np.ndarray] | None = getattr(agent, "act_masks", None)
            fast: Callable[..., np.ndarray] | None = getattr(agent, "act_state", None)
            if by_mask is not None:  # an agent that reads only the legal actions (the random agent)
                answer = by_mask(mask[sel])
            elif fast is not None:
                whole = sel.size == state.batch_size  # every game: no copy of the batch needed
                answer = fast(state if whole else E.take(state, sel), mask if whole else mask[sel])
            else:
                if obs is None:
                    obs = E.observe(state)  # each game seen from its player to move
                answer = agent.act_batch(obs[sel], mask[sel])
            # every answer checked the same way, whichever method gave it: integers, in range, legal
            out[sel] = check_actions(answer, mask[sel], str(getattr(agent, "name", None) or agent),
                                     spec=getattr(agent, "spec", None))
        return out
