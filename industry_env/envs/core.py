"""The learner's games: B games on the batched engine, one learner seat each, the other seats played in batch.

Shared by the Gymnasium env (B = 1), the native vector env and the Stable-Baselines3 VecEnv, so the three
step the same games the same way. Between two decisions of the learner, the opponents' moves are played as
batches: each opponent agent is called once for all the games where it is to move, then the engine steps
those games together, until every game has the learner to move again or is over.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.spec import GameSpec
from .common import (
    ILLEGAL_REWARD,
    MAX_GAME_SEED,
    GameSetup,
    Opponents,
    check_env_options,
    masks_of,
    step_rows,
    terminal_rewards,
)

LEARNER_SEATS = ("random",)  # or a seat number
# Opponents' rounds go on in a batch of their own once fewer than 1/_APART_SHARE of the games still wait for an
# opponent, in batches of at least _APART_FROM games (below it a round costs little anyway).
_APART_FROM, _APART_SHARE = 256, 8


class LearnerGames:
    """B games in which the learner plays one seat; see the module docstring.

    ``game`` and ``options``: the game of the suite and its own options (:class:`.common.GameSetup`).
    ``learner_seat``: a seat number (0 .. n-1) or ``"random"`` (drawn per game from the seeded generator).
    ``opponents``: see :class:`industry_env.envs.common.Opponents` (fixed agents, or an ``OpponentPool`` league
    from which each game draws its opponents when it starts). After :meth:`reset` and :meth:`step`, every
    running game has the learner to move.
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int | None = None,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        reward: str = "win",
        illegal_reward: float = ILLEGAL_REWARD,
        seed: int | None = None,
        record: bool = False,
        game: str | GameSpec = "industry",
        **options: Any,
    ) -> None:
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r}: must be a whole number >= 1")
        self.setup = setup = GameSetup(game, num_players, options)
        num_players = setup.num_players
        check_env_options(reward, None, ())
        if not (learner_seat in LEARNER_SEATS or (isinstance(learner_seat, (int, np.integer))
                                                    and not isinstance(learner_seat, bool)
                                                    and 0 <= learner_seat < num_players)):  # fmt: skip
            raise ValueError(f"learner_seat={learner_seat!r}: a seat from 0 to {num_players - 1}, or 'random'")
        if not isinstance(illegal_reward, (int, float)) or not np.isfinite(illegal_reward):
            raise ValueError(f"illegal_reward={illegal_reward!r}: must be a finite number")
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.learner_seat = learner_seat
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.opponents = Opponents(opponents, self.num_players, seed, self.num_envs, game=setup.spec,
                                   options=setup.options)  # fmt: skip
        self.rng = np.random.default_rng(seed)
        self.state = setup.init(self.num_envs, self._new_seeds(self.num_envs))
        self.seat = np.zeros(self.num_envs, np.int64)
        self.mask = np.zeros((self.num_envs, setup.num_actions), bool)
        self.won = np.zeros(self.num_envs, bool)  # the learner won its last finished game
        # every action of every game since its start, if ``record`` (a loop over the games: for small batches)
        self.actions: list[list[int]] | None = [[] for _ in range(self.num_envs)] if record else None
        self.learner_steps = 0  # game steps made by the learner and by the opponents (for throughput figures)
        self.opponent_steps = 0

    @property
    def engine(self) -> Any:
        """The game's batched engine (looked up: a module is neither copied nor pickled)."""
        return self.setup.engine

    def _new_seeds(self, k: int) -> np.ndarray:
        return self.rng.integers(0, MAX_GAME_SEED, size=k, dtype=np.int64)

    def seed(self, seed: int | None) -> None:
        """Restart the generator behind game seeds, learner seats and (with a seed) the opponents' choices."""
        self.rng = np.random.default_rng(seed)

    # ------------------------------------------------------------------------------------------ reset
    def reset(self, rows: np.ndarray, game_seeds: np.ndarray | None = None) -> None:
        """New games in ``rows`` (bool[B]): seeds from the generator unless given, then the opponents play
        until the learner is to move."""
        idx = np.flatnonzero(rows)
        if idx.size == 0:
            return
        seeds = np.zeros(self.num_envs, np.int64)
        seeds[idx] = self._new_seeds(idx.size) if game_seeds is None else np.asarray(game_seeds, np.int64)[idx]
        self.engine.reset(self.state, idx, seeds=seeds, inplace=True)
        if self.actions is not None:
            for i in idx.tolist():
                self.actions[i] = []
        if self.learner_seat == "random":
            self.seat[idx] = self.rng.integers(0, self.num_players, size=idx.size)
        else:
            self.seat[idx] = int(self.learner_seat)
        self.opponents.deal(idx, self.rng)
        self._play_opponents(rows)

    # ------------------------------------------------------------------------------------------ step
    def step(self, actions: np.ndarray, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The learner's actions in the games ``rows`` (default: every running game), then the opponents' moves.

        Returns ``(reward, terminated, illegal)``: float32[B] the learner's reward (nonzero only when its game
        ends), bool[B] the game ended during this call, bool[B] the learner's action was illegal (that game
        ends at once with ``illegal_reward`` for the learner, the others treated as winners).
        """
        B = self.num_envs
        rows = ~self.state.terminated if rows is None else rows & ~self.state.terminated
        a = np.asarray(actions)
        if a.shape != (B,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be int[{B}], one per game, got {a.dtype}{list(a.shape)}")
        a = a.astype(np.int64)
        in_range = (a >= 0) & (a < self.setup.num_actions)
        illegal = rows.copy()
        illegal[rows] = ~(in_range[rows] & self.mask[rows, np.clip(a[rows], 0, self.setup.num_actions - 1)])
        was_over = self.state.terminated.copy()
        legal_rows = rows & ~illegal  # an illegal action ends the game unplayed: it is not part of the record
        after = np.empty_like(self.mask)  # the next legal actions, written by the same pass as the step
        rewards = step_rows(self.engine, self.state, rows, a, self.mask, on_illegal="penalize",
                            penalty=self.illegal_reward, next_mask=after)  # fmt: skip
        self._note(legal_rows, a)
        self.learner_steps += int(rows.sum())
        reward = self._learner_reward(self.state, rewards, rows)
        self.mask[rows] = after[rows]  # the learner's next legal actions, where it is to move again at once
        reward += self._play_opponents(rows & ~self.state.terminated, after)
        terminated = self.state.terminated & ~was_over
        return reward, terminated, illegal

    def _learner_reward(self, state: Any, step_rewards: np.ndarray, rows: np.ndarray,
                        games: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
        """float32[B]: the learner's reward in the games of ``rows`` that ended on this engine step.

        ``state`` is ``self.state``, or (``games``: their rows in it) a few of its games taken apart.
        """
        ended = np.flatnonzero(rows & state.terminated)
        out = np.zeros(self.num_envs, np.float32)
        if ended.size:
            full = ended if games is None else games[ended]
            seat = self.seat[full]
            r = terminal_rewards(self.engine, state, ended, self.reward)
            out[full] = r[np.arange(ended.size), seat]
            # kept for final_info(): the engine's rewards hold only the last step's
            full_tie = (step_rewards[ended] == 0).all(axis=1)  # everyone tied: all are winners (Game.winners)
            self.won[full] = ((step_rewards[ended, seat] > 0) | full_tie) & self.engine.finished(state)[ended]
        return out

    def _play_opponents(self, rows: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Opponents' moves in ``rows`` until the learner is to move or the game is over; the learner's rewards.

        ``mask``: the legal actions of the games of ``rows``, if at hand. Each round computes and steps only the
        games still waiting for an opponent (the others set aside); once they are few (a development phase can
        take a dozen opponents' decisions in a row), they go on as a small batch of their own, written back at
        the end, so the long tail of rounds costs what those games cost. Then the learner's legal actions are
        computed once for the whole batch.
        """
        reward = np.zeros(self.num_envs, np.float32)
        state, games, seat = self.state, None, self.seat  # games: the rows of self.state of a taken-apart batch
        cur = state.current_player.astype(np.int64)
        theirs = rows & ~state.terminated & (cur != seat) & (cur >= 0)
        key = self.opponents.random_key(self.actions is not None)
        if key is not None and hasattr(self.engine, "rollout"):
            return self._play_random_opponents(theirs, key)
        if mask is None:  # (a reset) every game of rows: the learner's or the opponent's legal actions
            mask = masks_of(self.engine, state, rows)
            self.mask[rows] = mask[rows]
        while theirs.any():
            if games is None and self.num_envs >= _APART_FROM and theirs.sum() * _APART_SHARE < self.num_envs:
                games = np.flatnonzero(theirs)
                state, mask, seat = self.engine.take(self.state, games), mask[games], self.seat[games]
                cur, theirs = cur[games], np.ones(games.size, bool)
            relative = (cur - seat) % self.num_players
            actions = self.opponents.act(state, theirs, relative, mask, games)
            rewards = step_rows(self.engine, state, theirs, actions, mask, next_mask=mask)
            self._note(theirs, actions, games)
            self.opponent_steps += int(theirs.sum())
            reward += self._learner_reward(state, rewards, theirs, games)
            cur = state.current_player.astype(np.int64)
            now_learner = theirs & ~state.terminated & (cur == seat)  # their next legal actions are the learner's
            full = np.flatnonzero(now_learner) if games is None else games[now_learner]
            self.mask[full] = mask[now_learner]
            over = theirs & state.terminated
            self.mask[np.flatnonzero(over) if games is None else games[over]] = False
            theirs &= ~state.terminated & (cur != seat)
        if games is not None:  # write the games taken apart back into the batch (in place: the buffer stays)
            self.state.put(games, state)
        return reward

    def _play_random_opponents(self, theirs: np.ndarray, key: int) -> np.ndarray:
        """Uniformly random opponents' moves in ``theirs`` until the learner is to move or the game is over, in one
        call of the engine (``rollout`` stopping at the learner's seat: its draws counter-based, keyed by the
        random agent's generator); the learner's rewards. Then the learner's legal actions."""
        reward = np.zeros(self.num_envs, np.float32)
        if theirs.any():
            # every game stops at the learner's seat: the learner's own games and finished ones are not played
            _, steps = self.engine.rollout(self.state, 2**62, key=key, inplace=True, stop_at=self.seat)
            self.opponent_steps += int(steps.sum())
            reward += self._learner_reward(self.state, np.where(theirs[:, None], self.state.rewards, 0.0), theirs)
        self.mask[...] = masks_of(self.engine, self.state, ~self.state.terminated)
        return reward

    def _note(self, rows: np.ndarray, actions: np.ndarray, games: np.ndarray | None = None) -> None:
        if self.actions is not None:
            for i in np.flatnonzero(rows).tolist():
                self.actions[i if games is None else int(games[i])].append(int(actions[i]))

    def record(self, i: int):
        """Game ``i`` since its start as a :class:`industry_env.records.Record` (needs ``record=True``)."""
        from ..records import Recorder

        if self.actions is None:
            raise ValueError("these games are not recorded: create the environment with record=True")
        s, E = self.state, self.engine
        rec = Recorder(int(s.num_players[i]), int(s.seed[i]), game=self.setup.spec.id, **self.setup.options)
        for a in self.actions[i]:
            rec.append(a)
        over = bool(E.finished(s)[i])
        return rec.record(E.scores(E.take(s, i))[0, : int(s.num_players[i])].tolist() if over else None)

    # ------------------------------------------------------------------------------------------ views
    def learner_masks(self, waiting: np.ndarray) -> np.ndarray:
        """bool[B, A]: the learner's legal actions (a copy), every action allowed in the games ``waiting`` (bool[B]:
        over, their next action ignored or refused), as Pgx does, so that a masked softmax or a masked sampler
        given a whole batch (Gymnasium's vector envs, TorchRL) never meets a row without an action."""
        masks = self.mask.copy()
        masks[waiting] = True
        return masks

    def observe(self) -> np.ndarray:
        """float32[B, D]: every game seen from the learner's seat (a new array)."""
        return self.engine.observe(self.state, self.seat)

    def final_info(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """For the finished games ``rows`` (int indices): final ``scores`` (int[K, P]), the ``learner_seat``, its
        ``score`` and whether it was among the winners (``win``; ties count for every tied winner)."""
        scores = self.engine.scores(self.engine.take(self.state, rows)).astype(np.int64)
        seat = self.seat[rows]
        return {"scores": scores, "learner_seat": seat.copy(), "score": scores[np.arange(rows.size), seat],
                "win": self.won[rows].copy()}  # fmt: skip
