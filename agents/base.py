"""The one agent interface: what every player of ``industry_env.agents`` offers, and its input checks.

An agent acts from what its seat observes and nothing more: an observation (float32, the layout of its game's
observation, seen from the seat to move) and the legal-action mask (bool or int8, one entry per action of the
game). An agent plays one game of the suite (``Agent.game``, an id of ``industry_env.available_games()``), or
any game when it reads no more than the mask and the observation's size (``game = None``: random, plain
functions); its sizes come from the game's spec, never from constants of its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from industry_env.core.spec import GameSpec, ReferenceGame
from industry_env.registry import load_game, spec_of


def _size(spec: GameSpec | None, options: dict[str, Any] | None, what: str) -> int | None:
    """``spec``'s ``what`` (observation_size or num_actions) for ``options``; with no options, the size every
    variant of the game shares, or None where the options change it (Age of Industry's maps)."""
    if spec is None:
        return None
    if options is not None:
        return getattr(spec, what)(**options)
    return _shared_size(spec.id, what)


@functools.lru_cache(maxsize=64)
def _shared_size(game: str, what: str) -> int | None:
    spec = load_game(game)
    sizes = {getattr(spec, what)(**v) for v in spec.variants()}
    return sizes.pop() if len(sizes) == 1 else None


class AgentInputError(ValueError, TypeError):
    """An agent was given something it cannot act on (a wrong type, shape, or a mask with no legal action).

    A ValueError and a TypeError at once, so that either ``except`` catches it.
    """


class AgentActionError(AgentInputError):
    """An agent answered with something that is not a legal action: not an integer, out of range, or illegal.

    The message names the agent, the game row, the answer and the legal actions there. Raised wherever an
    agent's answer is taken (:func:`check_actions`): ``act``, ``act_batch``, the environments' opponents, the arena.
    ``agent``, ``row`` (None when the answer as a whole is malformed), ``answer`` and ``reason`` say the same as
    attributes.
    """

    def __init__(self, agent: str, row: int | None, answer: Any, reason: str) -> None:
        where = "" if row is None else f" in game row {row}"
        shown = answer.item() if isinstance(answer, np.generic) else answer
        super().__init__(f"agent {agent!r} answered {_short(shown)}{where}: {reason}")
        self.agent, self.row, self.answer, self.reason = agent, row, shown, reason


def check_seed(seed: int | None) -> int:
    """The agent's seed as an int in [0, 2**63); None draws one from the operating system's entropy."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % 2**63)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, (bool, np.bool_)) or not 0 <= int(seed) < 2**63:
        raise AgentInputError(f"seed={seed!r}: an agent's seed is a whole number from 0 to 2**63 - 1, or None")
    return int(seed)


def check_batch(observations: Any, action_masks: Any, observation_size: int | None = None,
                num_actions: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """float32[B, D] observations and bool[B, A] masks, checked (D and A: the game's sizes, None: any);
    AgentInputError says what is wrong."""
    obs = _array(observations, "observations", observation_size, batched=True)
    mask = _array(action_masks, "action_masks", num_actions, batched=True)
    if obs.shape[0] != mask.shape[0]:
        raise AgentInputError(f"{obs.shape[0]} observations but {mask.shape[0]} action masks")
    return _observation(obs, "observations"), _mask(mask, "action_masks")


def check_masks(action_masks: Any, batch_size: int, num_actions: int | None = None) -> np.ndarray:
    """bool[B, A] legal-action masks for a batch of ``batch_size`` games, checked (A: the game's actions)."""
    mask = _mask(_array(action_masks, "action_masks", num_actions, batched=True), "action_masks")
    if mask.shape[0] != batch_size:
        raise AgentInputError(f"{mask.shape[0]} action masks for {batch_size} games")
    return mask


def check_one(observation: Any, action_mask: Any, observation_size: int | None = None,
              num_actions: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """One game's float32[D] observation and bool[A] mask as batches of one, checked."""
    obs = _array(observation, "observation", observation_size, batched=False)
    if action_mask is None:
        raise AgentInputError("act(observation, action_mask): the legal-action mask is required")
    mask = _array(action_mask, "action_mask", num_actions, batched=False)
    return _observation(obs[None], "observation"), _mask(mask[None], "action_mask")


def _array(x: Any, what: str, size: int | None, batched: bool) -> np.ndarray:
    if not isinstance(x, np.ndarray):
        hint = "; for a reference Game use agent.act_game(game)" if type(x).__name__ == "Game" else ""
        raise AgentInputError(f"{what} must be a numpy array, got {type(x).__name__}{hint}")
    if x.ndim != (2 if batched else 1) or (size is not None and x.shape[-1] != size):
        width = "D" if size is None else size
        expect = f"[B, {width}]" if batched else f"[{width}]"
        raise AgentInputError(f"{what} must have shape {expect}, got {list(x.shape)}")
    return x


def _observation(obs: np.ndarray, what: str) -> np.ndarray:
    if obs.dtype not in (np.float32, np.float64):
        raise AgentInputError(f"{what} must be float32 (the observation layout), got dtype {obs.dtype}")
    return obs.astype(np.float32, copy=False)


def _mask(mask: np.ndarray, what: str) -> np.ndarray:
    if mask.dtype != bool:
        if not np.issubdtype(mask.dtype, np.integer) or ((mask != 0) & (mask != 1)).any():
            raise AgentInputError(f"{what} must be bool or 0/1 integers (e.g. int8), got dtype {mask.dtype}")
        mask = mask != 0
    empty = ~mask.any(axis=1)
    if empty.any():
        rows = np.flatnonzero(empty)[:5].tolist()
        raise AgentInputError(f"{what}: no legal action in row(s) {rows} (is the game over?)")
    return mask


_SHOWN_LEGAL = 12  # legal actions listed in an AgentActionError (with their names), then "... N in all"


def describe_legal(mask_row: np.ndarray, spec: GameSpec | None = None) -> str:
    """The legal actions of one mask row as ``5 (bid 1), 6 (bid 2), ...``, at most a dozen (named by the game of
    ``spec`` if given)."""
    legal = np.flatnonzero(mask_row).tolist()
    named = (lambda a: f"{a} ({spec.action_to_string(a)})") if spec is not None else str
    shown = ", ".join(named(a) for a in legal[:_SHOWN_LEGAL])
    return shown + (f", ... ({len(legal)} in all)" if len(legal) > _SHOWN_LEGAL else "")


def _is_whole(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def check_actions(actions: Any, masks: np.ndarray, agent: str, hint: str = "",
                  spec: GameSpec | None = None) -> np.ndarray:  # fmt: skip
    """int64[B]: ``actions``, the answer of ``agent`` for the B games of ``masks`` (bool[B, A]), checked.

    The one check every path an agent's answer takes goes through: one integer per game (Python or numpy
    integers; no float, not even 3.0, no bool), within 0..A-1, legal by the mask. Anything else raises
    :class:`AgentActionError` naming the agent, the row, the answer and the legal actions there (named by the
    game of ``spec`` if given; ``hint`` is added to the message).
    """
    n, num_actions = masks.shape
    game = spec.name if spec is not None else "the game"
    if isinstance(actions, np.ndarray):
        a = actions
    elif isinstance(actions, (list, tuple)):  # item by item: a bool or a huge int is not silently converted
        a = np.empty(len(actions), object)
        a[:] = list(actions)
    else:  # a torch tensor, a scalar where one answer per game was due, ...
        try:
            a = np.asarray(actions)
        except (TypeError, ValueError, OverflowError):
            a = np.empty((0, 0), object)  # not array-like at all: its shape is refused below
    if a.shape != (n,):
        raise AgentActionError(agent, None, actions, f"shape {list(a.shape)}, not one integer action for each of "
                                                     f"the {n} games")  # fmt: skip
    if not np.issubdtype(a.dtype, np.integer):
        whole = np.array([_is_whole(x) for x in a.tolist()], bool) if a.dtype == object else np.zeros(n, bool)
        if not whole.all():
            i = int(np.flatnonzero(~whole)[0])
            raise AgentActionError(agent, i, a[i], f"a {type(a[i]).__name__}, not an integer action "
                                                   f"(0..{num_actions - 1})")  # fmt: skip
    in_range = np.array([0 <= int(x) < num_actions for x in a.tolist()], bool) if a.dtype == object else (
        (a >= 0) & (a < num_actions))  # fmt: skip
    out = np.where(in_range, a, 0).astype(np.int64)
    ok = in_range & masks[np.arange(n), out]
    if not ok.all():
        bad = np.flatnonzero(~ok)
        i = int(bad[0])
        why = "an illegal action in that game" if in_range[i] else f"not an action of {game} (0..{num_actions - 1})"
        more = f" ({bad.size} illegal answers in this call)" if bad.size > 1 else ""
        legal = describe_legal(masks[i], spec)
        raise AgentActionError(agent, i, int(a[i]), f"{why}{more}; the legal actions: {legal}{hint}")
    return out


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


class Agent:
    """A player: ``act(observation, action_mask) -> int`` for one game, ``act_batch`` for many.

    The contract, for every agent of the project and any a user writes:

    - ``game``: the id of the game it plays (``"industry"``), or None for an agent that plays any game from the
      mask and the observation alone. Its sizes (``observation_size``, ``num_actions``) come from that game's
      spec and ``options`` (the game's options that change sizes, e.g. a map).
    - ``act(observation, action_mask) -> int``: one legal action for the seat to move, given its observation
      (float32[D], the game's observation layout, egocentric) and the legal-action mask (bool or int8[A]).
    - ``act_batch(observations, action_masks) -> int64[B]``: the same for B games at once; row b of the result
      is what ``act`` would choose for row b (for agents with no inner state the very same action).
    - ``act_game(game) -> int``: the same on a reference game, from what the seat to move observes.
    - ``act_state(state, mask=None) -> int64[B]``: the same on a batched engine's State (for vector
      environments), only for games without hidden information (the State holds what no seat may see); by
      default ``act_batch`` on what each mover observes.
    - Only what the seat observes is used.
    - Seeded: ``make_agent(name, seed=s)`` twice gives the same moves for the same inputs.
    - Refused with :class:`AgentInputError` (a ValueError): a wrong type (a Game, a list), a wrong shape or
      dtype, a mask with no legal action (a finished game). An agent never answers with a made-up action.

    Subclasses implement ``_choose(observations, masks) -> int64[B]`` on checked inputs (float32[B, D],
    bool[B, A]); the public methods check the inputs and that every chosen action is legal.
    """

    name = "agent"
    #: the game this agent plays (an id of the registry); None: any game
    game: str | None = None
    #: options of the game that its sizes depend on (``{"map": "germany"}``); None: whichever the caller plays
    #: (the sizes are then checked only where every variant of the game has the same ones)
    options: dict[str, Any] | None = None

    @property
    def spec(self) -> GameSpec | None:
        """The spec of the game this agent plays (None: any game)."""
        return None if self.game is None else load_game(self.game)

    @property
    def observation_size(self) -> int | None:
        """Floats in the observation it reads (None: any, or the game's options decide)."""
        return _size(self.spec, self.options, "observation_size")

    @property
    def num_actions(self) -> int | None:
        """Entries of the masks it reads (None: any, or the game's options decide)."""
        return _size(self.spec, self.options, "num_actions")

    def act(self, observation: np.ndarray, action_mask: np.ndarray | None = None) -> int:
        """One legal action for one game (float32[D] observation, bool or int8[A] mask)."""
        obs, mask = check_one(observation, action_mask, self.observation_size, self.num_actions)
        return int(self._checked(obs, mask)[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """int64[B]: one legal action per game (float32[B, D] observations, bool or int8[B, A] masks)."""
        obs, mask = check_batch(observations, action_masks, self.observation_size, self.num_actions)
        return self._checked(obs, mask)

    def act_engine(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """int64[B]: ``act_batch`` for observations and masks that the game's own batched engine has just made
        (float32[B, D] and bool[B, A] of the game's sizes), as trainers and environments give their opponents: the
        agent may skip re-checking what the engine guarantees (``_choose_trusted``); its actions are still checked.
        An agent without ``_choose_trusted`` answers by its ``act_batch``, whichever way it defines it."""
        choose = getattr(self, "_choose_trusted", None)
        if choose is None:
            return self.act_batch(observations, action_masks)
        return check_actions(choose(observations, action_masks), action_masks, self.name, spec=self.spec)

    def act_game(self, game: ReferenceGame) -> int:
        """One legal action for the player to move in a reference game: ``act`` on what his seat observes."""
        spec = spec_of(game)
        if spec is None:
            raise AgentInputError(f"act_game needs a reference game of the suite, got {type(game).__name__}")
        if self.game is not None and spec.id != self.game:
            raise AgentInputError(f"act_game: agent {self.name!r} plays {self.spec.name}, not {spec.name}")
        if game.is_over:
            raise AgentInputError("act_game: the game is over, there is no action to choose")
        return self.act(spec.observe(game, game.current_player), game.legal_action_mask())

    def act_state(self, state: Any, mask: np.ndarray | None = None) -> np.ndarray:
        """int64[B]: the action of the player to move in every game of a batched engine's State (running games).

        For vector environments that hold a State: by default ``act_batch`` on what each mover observes; an
        agent that reads the arrays directly overrides it to skip the round trip (the heuristics do), reading
        only what the mover observes. Only for a game without hidden information. ``mask``: the engine's
        ``legal_action_mask(state)`` if the caller has it.
        """
        spec = self.spec or spec_of(state)
        if spec is None:
            raise AgentInputError(f"act_state needs a batched engine State of a game of the suite, got "
                                  f"{type(state).__name__}")  # fmt: skip
        if spec.hidden_information:
            raise AgentInputError(f"act_state: {spec.name} has hidden information, so an agent gets observations "
                                  f"(act_batch), never the State")  # fmt: skip
        E = spec.engine
        if not isinstance(state, E.State):
            raise AgentInputError(f"act_state needs a {spec.name} engine State, got {type(state).__name__}")
        over = state.current_player < 0
        if over.any():
            raise AgentInputError(f"act_state: game(s) {np.flatnonzero(over)[:5].tolist()} are over; "
                                  f"pass the running games only (engine.take)")  # fmt: skip
        return self.act_batch(E.observe(state), E.legal_action_mask(state) if mask is None else mask)

    def _checked(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return check_actions(self._choose(obs, mask), mask, self.name, spec=self.spec)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise TypeError(
            f"{type(self).__name__} answers no move: implement _choose(observations, masks), or override act_batch"
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class CallableAgent(Agent):
    """A plain function ``policy(observation, action_mask) -> action`` as an :class:`Agent` (one game at a time).

    ``act_batch`` calls it once per row. Whatever it returns must be a legal integer action, else the call is
    refused with :class:`AgentInputError` naming the function.
    """

    def __init__(self, policy: Callable[[np.ndarray, np.ndarray], int], name: str | None = None,
                 game: str | None = None) -> None:  # fmt: skip
        if not callable(policy):
            raise AgentInputError(f"CallableAgent needs a function (observation, action_mask) -> action: {policy!r}")
        self.policy, self.game = policy, game
        self.name = name or getattr(policy, "__qualname__", None) or repr(policy)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        answers = np.empty(observations.shape[0], object)  # as given: check_actions judges them (no rounding)
        for i in range(observations.shape[0]):
            answers[i] = self.policy(observations[i].copy(), masks[i].copy())
        return answers
