"""What every environment adapter shares: the game set up, spaces, seeds, rewards and opponents (no rule here).

The rules live in each game's batched engine (``industry_env.load_game(game_id).engine``); the adapters
(:mod:`.aec`, :mod:`.single`, :mod:`.vector`, :mod:`.sb3`) only translate its arrays to each ecosystem's
conventions, through the helpers below, so that every adapter computes a reward, a space or an opponent's move
the same way, for every game of the suite. No adapter knows one game's sizes: they come from the game's spec.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.spec import GameSpec
from ..registry import resolve

REWARDS = ("win", "score")
VIEWS = ("public", "full")  # render views besides a seat's own (GameSetup.check_view)
# reward="score": (final points - the table's mean) / SCORE_SCALE. Winners of 4-player heuristic games of
# Industry lead the table's mean by about 10 points, so the rewards of ordinary games fall mostly within [-2, 2].
SCORE_SCALE = 10.0
ILLEGAL_REWARD = -1.0
MAX_GAME_SEED = 2**63 - 1  # a game's seed is an int64 of its State


class UnknownOptionError(TypeError, ValueError):
    """An environment was given a keyword argument it does not take: a TypeError saying "unexpected keyword
    argument", as Python's own for a function, so that makers that try optional arguments and drop the refused
    ones (TorchRL's ``GymEnv`` passes ``frameskip``) work; a ValueError too, as every refused option here is."""


def agent_names(num_players: int) -> list[str]:
    """``player_0`` .. ``player_{n-1}``: seat k of the engine is ``player_k``."""
    return [f"player_{k}" for k in range(num_players)]


class GameSetup:
    """A game of the suite with its player count and options checked: what an environment is made for.

    ``game``: a game id of ``industry_env.available_games()`` (or its spec); ``num_players``: None for the game's
    default; ``options``: the game's own options (Industry: ``balanced_draws``, ``board``), each checked by the
    game, an unknown one refused naming the options there are.
    """

    def __init__(self, game: str | GameSpec | None, num_players: Any, options: Mapping[str, Any]) -> None:
        self.spec = resolve(game)
        self.num_players = self.spec.default_players if num_players is None else \
            self.spec.check_num_players(num_players)  # fmt: skip
        try:
            self.options = self.spec.check_options(options)
        except ValueError as exc:
            unknown = sorted(set(options) - {o.name for o in self.spec.options})
            if not unknown:
                raise
            raise UnknownOptionError(f"unexpected keyword argument {unknown[0]!r}: {exc}") from None
        self.num_actions = self.spec.num_actions(**self.options)
        self.observation_size = self.spec.observation_size(**self.options)

    @property
    def engine(self) -> Any:
        """The game's batched engine: looked up, not kept, so that an environment copies and pickles (a module
        does neither)."""
        return self.spec.engine

    def observation_space(self) -> spaces.Box:
        """The game's flat float32 observation, bounded entry by entry (the spec's ``observation_bounds``)."""
        low, high = self.spec.observation_bounds(**self.options)
        return spaces.Box(low=low, high=high, dtype=np.float32)

    def action_space(self) -> spaces.Discrete:
        """The game's one flat action encoding; a mask says which actions are legal."""
        return spaces.Discrete(self.num_actions)

    def init(self, batch_size: int, seeds: np.ndarray | int) -> Any:
        """``batch_size`` new games of the engine with these options (game i seeded ``seeds[i]``)."""
        return self.engine.init(batch_size, num_players=self.num_players, seed=seeds, **self.options)

    def check_view(self, view: Any, where: str = "render_view") -> int | str:
        """A view to render, checked: ``"public"`` (what every seat sees), ``"full"`` (everything, hidden cards
        included: for debugging), or a seat (``k`` or ``"player_k"``: what that seat sees); ValueError naming it."""
        if view in VIEWS:
            return view
        seat = view
        if isinstance(view, str) and view.startswith("player_") and view[7:].isdigit():
            seat = int(view[7:])
        if isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_)) and \
                0 <= seat < self.num_players:  # fmt: skip
            return int(seat)
        raise ValueError(f"{where}={view!r}: expected 'public', 'full', a seat from 0 to {self.num_players - 1} or "
                         f"its agent name ('player_0' ..)")  # fmt: skip

    def render_text(self, game: Any, view: int | str) -> str:
        """The position as text in a view (:meth:`check_view`): a seat's shows only its own hidden cards (the other
        hands as counts), the public one none, the full one all."""
        if view == "full" or not self.spec.hidden_information:
            return self.spec.render_text(game)
        if "seat" not in inspect.signature(self.spec.render_text).parameters:
            raise ValueError(f"{self.spec.name} renders only the full view as text (its spec's render_text takes no "
                             f"seat): ask for render_view='full'")  # fmt: skip
        # a seat that is no player's (-1) sees no hand: the public view
        return self.spec.render_text(game, seat=-1 if view == "public" else int(view))

    def render(self, game: Any, mode: str | None, view: int | str = "public") -> str | np.ndarray | None:
        """A position in a render mode and a view (:meth:`check_view`): ``ansi`` the text board, ``rgb_array`` the
        picture as uint8[H, W, 3], ``human`` the picture shown (notebook or window); None (with a warning) when no
        mode was chosen. Pictures never show another seat's hidden cards: the full view's picture is the public
        one."""
        if mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called with no render_mode: pass render_mode= when making the environment")
            return None
        if mode == "ansi":
            return self.render_text(game, view)
        seat = None if view in VIEWS else int(view)  # the pictures' seat=None is the public view
        if mode == "rgb_array":
            return self.spec.to_rgb_array(game, seat=seat)
        if seat is not None and "seat" in inspect.signature(self.spec.show).parameters:
            self.spec.show(game, seat=seat)
        else:
            self.spec.show(game)  # the public picture
        return None

    def render_modes(self) -> tuple[str, ...]:
        """``ansi``, and the picture modes if the game draws pictures."""
        return ("ansi", "rgb_array", "human") if self.spec.has_pictures else ("ansi",)


def check_env_options(reward: Any, render_mode: Any, render_modes: Sequence[str]) -> None:
    """ValueError naming the option unless the environment's own options are of the right kind and value."""
    if reward not in REWARDS:
        raise ValueError(f"reward={reward!r}: expected one of {list(REWARDS)}")
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode={render_mode!r}: expected None or one of {list(render_modes)}")


def game_seed(seed: Any, where: str = "seed") -> int:
    """The game seed of an environment seed: a seed up to ``2**63 - 1`` is the game's own (``reset(seed=s)`` plays
    the reference game seeded ``s``); a larger one (Gymnasium takes any whole number >= 0) is hashed into that
    range by numpy's SeedSequence, the same way every time. A negative or non-integer seed is refused."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, (bool, np.bool_)) or seed < 0:
        raise ValueError(f"{where}={seed!r}: a seed is a whole number >= 0")
    seed = int(seed)
    if seed <= MAX_GAME_SEED:
        return seed
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0] >> np.uint64(1))


def game_seeds(seed: Any, count: int, where: str = "seed") -> np.ndarray:
    """int64[count]: the game seeds of sub-envs ``0 .. count - 1`` for ``reset(seed=s)``: ``s + i``, each as in
    :func:`game_seed`."""
    first = game_seed(seed, where)
    if int(seed) + count - 1 <= MAX_GAME_SEED:
        return first + np.arange(count, dtype=np.int64)
    return np.array([game_seed(int(seed) + i, where) for i in range(count)], np.int64)


def terminal_rewards(engine: Any, state: Any, rows: np.ndarray, reward: str) -> np.ndarray:
    """float32[N, P]: each player's reward in the finished games ``rows`` (zero in unused seats).

    ``"win"``: the engine's rewards (+1 each winner, -1 the others, 0 for all on a full tie, ``Game.returns()``);
    ``"score"``: (final points - the table's mean) / SCORE_SCALE. Games ended by an illegal action keep the
    engine's penalty rewards in both modes.
    """
    rewards = state.rewards[rows].astype(np.float32)
    if reward == "score":
        n = state.num_players[rows].astype(np.int64)
        present = np.arange(rewards.shape[1])[None, :] < n[:, None]
        scores = engine.scores(engine.take(state, rows)).astype(np.float32)
        mean = np.where(present, scores, 0).sum(axis=1) / n
        normal = engine.finished(state)[rows]  # not ended by a penalty
        by_score = np.where(present, (scores - mean[:, None]) / SCORE_SCALE, 0.0)
        rewards = np.where(normal[:, None], by_score, rewards).astype(np.float32)
    return rewards


def step_rows(engine: Any, state: Any, rows: np.ndarray, actions: np.ndarray, mask: np.ndarray,
              on_illegal: str = "raise", penalty: float = ILLEGAL_REWARD,
              next_mask: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Step only the games ``rows`` (bool[B]) of ``state`` in place; the others stay exactly as they are.

    The engine steps every running game; the games not in ``rows`` are set aside by marking them finished for
    this one step (a finished game is never changed, its action ignored: the engine's documented convention)
    and restored after. Returns the rewards of this step (float32[B, P], zero outside ``rows``), since the
    engine's ``rewards`` array holds only the last step's. ``next_mask`` (bool[B, A], may be ``mask``)
    receives the legal actions after the step in the rows stepped (all False in the others), in the same pass.
    """
    held = state.terminated.copy()
    np.logical_or(held, ~rows, out=state.terminated)  # in place: the State's arrays stay views of its buffer
    try:
        engine.step(state, actions, on_illegal=on_illegal, penalty=penalty, inplace=True, mask=mask,
                    next_mask=next_mask)  # fmt: skip
    finally:
        state.terminated[:] = held | (state.terminated & rows)
    return np.where(rows[:, None], state.rewards, 0.0).astype(np.float32)


def masks_of(engine: Any, state: Any, rows: np.ndarray) -> np.ndarray:
    """bool[B, A]: the legal actions in the games ``rows`` (bool[B]), all False in the others (not computed)."""
    held = state.terminated.copy()
    np.logical_or(held, ~rows, out=state.terminated)
    try:
        return engine.legal_action_mask(state)
    finally:
        state.terminated[:] = held


class OpponentPool:
    """A league of opponents: each game draws, when it starts, one member for each of its opponent seats.

    ``members``: agents given as in :class:`Opponents` (names, Agents, functions); ``weights``: their relative
    chances (default equal). :meth:`add` puts a new member in (e.g. a frozen snapshot of the learner), for the
    games that start afterwards. Pass it as ``opponents=`` to any learner environment. ``options``: the game's
    options the members will play (e.g. ``{"map": "new_england"}``), given to the agents made by name.
    """

    def __init__(self, members: Sequence[Any], weights: Sequence[float] | None = None, seed: int | None = None,
                 game: str = "industry", options: Mapping[str, Any] | None = None) -> None:  # fmt: skip
        from ..agents import as_agent

        if not members:
            raise ValueError("OpponentPool needs at least one member")
        self._seed = seed
        self.game = resolve(game).id
        self.options = dict(options or {})
        self.agents = [as_agent(m, seed=self._member_seed(k), game=self.game, options=self.options)
                       for k, m in enumerate(members)]  # fmt: skip
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

        self.agents.append(as_agent(member, seed=self._member_seed(len(self.agents)), game=self.game,
                                    options=self.options))  # fmt: skip
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
    ``options``: the options of the game played, given to every agent (an agent made by name takes those it reads,
    e.g. Age of Industry's map; one that reads other options is refused, naming both).
    """

    def __init__(self, spec: Any, num_players: int, seed: int | None, num_games: int,
                 game: GameSpec | str = "industry", options: Mapping[str, Any] | None = None) -> None:  # fmt: skip
        from ..agents import as_agent

        self.game = resolve(game)
        self.pool = spec if isinstance(spec, OpponentPool) else None
        if self.pool is not None and self.pool.game != self.game.id:
            raise ValueError(f"opponents: the OpponentPool plays {self.pool.game}, not {self.game.id}")
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
                self.members.append(as_agent(s, seed=seed_k, game=self.game.id, options=options) if isinstance(s, str)
                                    else as_agent(s, game=self.game.id, options=options))  # fmt: skip
            self.assign[:, k] = by_key[key]

    @property
    def engine(self) -> Any:
        """The game's batched engine (looked up: a module is neither copied nor pickled)."""
        return self.game.engine

    def random_key(self, recording: bool) -> int | None:
        """A key for the engine's random playouts when every opponent is the uniform random agent (then their moves
        can be played in one engine call, drawn from counters keyed by the agent's own generator), else None; and
        None when the games are recorded (each move must be known)."""
        from ..agents.random_agent import RandomAgent

        if recording or not all(type(a) is RandomAgent for a in self.members):
            return None
        return int(self.members[0].rng.integers(0, 2**63 - 1))

    def deal(self, rows: np.ndarray, rng: np.random.Generator) -> None:
        """New games in ``rows`` (int indices) draw their opponents from the pool (nothing to do otherwise)."""
        if self.pool is not None and rows.size:
            self.assign[rows] = self.pool.draw(rng, (rows.size, self.assign.shape[1]))

    def act(self, state: Any, rows: np.ndarray, relative_seat: np.ndarray, mask: np.ndarray,
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
            # the engine's State only for a game without hidden information: it holds what no seat may see
            fast = None if self.game.hidden_information else getattr(agent, "act_state", None)
            if by_mask is not None:  # an agent that reads only the legal actions (the random agent)
                answer = by_mask(mask[sel])
            elif fast is not None:
                whole = sel.size == state.batch_size  # every game: no copy of the batch needed
                answer = fast(state if whole else self.engine.take(state, sel), mask if whole else mask[sel])
            else:
                if obs is None:
                    # each game seen from its player to move (rows of finished games are never asked)
                    obs = self.engine.observe(state, np.maximum(state.current_player, 0).astype(np.int64))
                # the engine's own observations: an agent may skip re-checking them (act_engine)
                answer = getattr(agent, "act_engine", agent.act_batch)(obs[sel], mask[sel])
            # every answer checked the same way, whichever method gave it: integers, in range, legal
            out[sel] = check_actions(answer, mask[sel], str(getattr(agent, "name", None) or agent),
                                     spec=getattr(agent, "spec", None))
        return out
