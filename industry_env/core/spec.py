"""The game protocol: what a game of the suite declares (:class:`GameSpec`) and the verbs its parts answer.

A game is one package under ``industry_env/games/`` holding its rules, data, pictures and heuristics, and one
:class:`GameSpec` instance that the registry (``industry_env.load_game(game_id)``) returns. Everything generic
(environments, agents, arena, records, bench, verify, training, the command line) reads the game only through
its spec, the way OpenSpiel's code reads a ``pyspiel.Game`` and Pgx's reads an ``Env``.

What every game must declare (:data:`REQUIRED_ATTRIBUTES`, :data:`REQUIRED_METHODS`: its names, player range,
hidden information, where its engines are, its sizes for given options, positions as JSON, its actions' names,
how a game was set up) is checked when it is registered, every missing member named in one message. Everything
else is optional with a default that works: options and variants, the game's own agents and tools, texts,
pictures, the terminal table of ``industry-env play``, the docs' figures. The parts are imported on first use:

``reference(num_players, seed, **options)``
    the readable engine of one game (:class:`ReferenceGame`): the rules' oracle, records' replay.
``engine``
    the batched engine (:class:`BatchedEngine`): B games as arrays with a leading batch dimension.

Hidden information (``hidden_information=True``): agents see a position only through ``observe(seat)`` and the
legal-action mask; search players draw positions with ``resample(seat, rng)`` (a position consistent with all
that ``seat`` knows, its hidden part redealt from its own random stream; :class:`HiddenInformationGame`), never
the true state. Games without hidden information may also hand agents the engine's State directly (the fast path
of ``Agent.act_state``).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Option:
    """One option of a game: its name, default and meaning, and how a given value is checked.

    ``check(value)`` returns the value the game uses (e.g. a file path turned into its data) or raises
    ValueError saying what is allowed (the caller prefixes the option's name). ``to_json`` gives what a game
    record stores (JSON types only), ``from_json`` reads it back. A ``data`` option names a data file (Industry's
    ``board``): a record stores the data's digest (``GameSpec.data_digests``), never the value (a path on someone
    else's machine), and whoever replays it passes the data again.
    """

    name: str
    default: Any
    doc: str
    check: Callable[[Any], Any] = lambda v: v
    to_json: Callable[[Any], Any] = lambda v: v
    from_json: Callable[[Any], Any] = lambda v: v
    data: bool = False


@dataclasses.dataclass(frozen=True)
class Piece:
    """A named slice of the flat observation: ``observation[offset : offset + size]`` seen as ``shape``."""

    name: str
    offset: int
    shape: tuple[int, ...]
    doc: str = ""

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def slice(self) -> slice:
        return slice(self.offset, self.offset + self.size)


@dataclasses.dataclass(frozen=True)
class OlderLayout:
    """An earlier observation and action layout of a game, that a policy trained on it still plays through
    (``GameSpec.older_layouts``): the ``ppo`` agent loads a policy of these sizes and acts on today's positions by
    reading ``observation(obs)`` and spreading its logits to today's actions through ``actions(obs)``.

    ``name``, ``doc``: what the layout is (one line); ``pieces``: its observation's pieces; ``num_actions``: its
    number of actions; ``observation``: float32[B, today's size] -> float32[B, its size]; ``actions``:
    float32[B, today's size] -> int64[B, today's actions], for each of today's actions the action of this layout
    naming the same move in that position, -1 where it has none.
    """

    name: str
    doc: str
    pieces: tuple[Piece, ...]
    num_actions: int
    observation: Callable[[np.ndarray], np.ndarray]
    actions: Callable[[np.ndarray], np.ndarray]

    @property
    def observation_size(self) -> int:
        """Floats in one observation of this layout."""
        return self.pieces[-1].offset + self.pieces[-1].size


def layout(pieces: Sequence[tuple[str, tuple[int, ...] | int, str]]) -> tuple[Piece, ...]:
    """Pieces laid end to end from ``(name, shape, doc)`` triples (an int shape is a vector)."""
    out, at = [], 0
    for name, shape, doc in pieces:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        p = Piece(name, at, shape, doc)
        out.append(p)
        at += p.size
    return tuple(out)


def check_seat(seat: Any, num_players: int) -> int:
    """``seat`` as an int if it is a seat of a ``num_players``-player game (a whole number, not a bool, in 0 ..
    num_players - 1), else a ValueError naming it: every game's observe and resample refuse the same way."""
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_players:
        raise ValueError(f"seat {seat!r} is not a seat of this {num_players}-player game (0..{num_players - 1})")
    return int(seat)


@runtime_checkable
class ReferenceGame(Protocol):
    """One game, readable: what the reference engine of every game answers (what :class:`GameSpec`'s defaults and
    the generic tools call)."""

    @property
    def num_players(self) -> int: ...
    @property
    def current_player(self) -> int: ...  # -1 once over
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def legal_action_mask(self) -> np.ndarray: ...
    def apply(self, action: int) -> None: ...  # an illegal action raises, the game unchanged
    def scores(self) -> list[int]: ...
    def returns(self) -> list[float]: ...  # +1 each winner, -1 the others, 0 all on a full tie
    def winners(self) -> list[int]: ...
    def observe(self, seat: int) -> np.ndarray: ...  # float32[observation_size]: what seat sees, egocentric
    def clone(self) -> ReferenceGame: ...
    def to_json(self) -> str: ...


class ReferenceDefaults:
    """What a reference game's other members give, written once: a game subclasses it and writes ``num_players``,
    ``current_player``, ``is_over``, ``legal_actions()``, ``apply``, ``scores()``, ``observe``, ``to_json`` and
    ``from_json``. ``winners()`` defaults to the highest scores once over; a game with tie-breaks overrides it."""

    num_actions: int  # the size of the action space (the mask's length)

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, bool)
        mask[self.legal_actions()] = True  # type: ignore[attr-defined]
        return mask

    def winners(self) -> list[int]:
        if not self.is_over:  # type: ignore[attr-defined]
            return []
        scores = self.scores()  # type: ignore[attr-defined]
        return [p for p, x in enumerate(scores) if x == max(scores)]

    def returns(self) -> list[float]:
        """+1 each winner, -1 the others, 0 to all while the game runs or when everyone wins."""
        n, won = self.num_players, set(self.winners())  # type: ignore[attr-defined]
        return [0.0] * n if len(won) in (0, n) else [1.0 if p in won else -1.0 for p in range(n)]

    def clone(self) -> Any:
        return type(self).from_json(self.to_json())  # type: ignore[attr-defined]


@runtime_checkable
class HiddenInformationGame(ReferenceGame, Protocol):
    """The reference game of a game with hidden information answers ``resample`` too."""

    def resample(self, seat: int, rng: Any = None) -> ReferenceGame: ...  # consistent with all that seat knows


class BatchedEngine(Protocol):
    """Every verb of a game's batched engine that the suite's tools call (a module: ``spec.engine``): B games as
    one State of arrays [B, ...]. :func:`engine_problems` checks an engine against it (each verb present, each
    parameter accepted by name and position, defaults where these have them), over every registered game
    (``tests/contract/test_engine_front.py``). :class:`industry_env.core.batched.Engine` answers all of them over
    a game's few hooks.

    ``state.num_players``, ``state.seed``, ``state.terminated`` (bool[B]), ``state.rewards`` (float32[B,
    max_players], the last step's), ``state.current_player`` (int8[B], -1 once over) and ``state.batch_size``
    are read by the generic code, and ``state.put(rows, games)`` writes games back in place (a
    :class:`industry_env.core.state.BatchState`); the rest of a State is the game's own.

    Optional verbs (the tools look for them): ``ranking(state)`` int64[B, max_players], the rules' final order
    with every tie-break as a key per seat (higher better, equal = tied on everything, -1 absent seats; without
    it the arena ranks by final reward, then points); ``rollout(state, max_steps, weights=None, key=0,
    inplace=False, stop_at=None)``, whole random games in one call (``bench``, the vector env's random
    opponents); ``resample(state, seat, seeds)``, what ``seat`` cannot see redealt (search agents of a game with
    hidden information); ``use_backend(name)``/``backend()``, an engine with two backends (Industry's numpy and
    numba: ``bench`` and ``verify`` measure and check each).
    """

    State: type  # the State class of the engine's batches (an agent asks isinstance(state, engine.State))
    IllegalActionError: type  # what ``step(on_illegal="raise")`` raises, naming each offending game

    def init(self, batch_size: int, num_players: Any = ..., seed: Any = ..., **options: Any) -> Any: ...
    def reset(self, state: Any, done: Any, seeds: Any = None, inplace: bool = False,
              next_mask: Any = None) -> Any: ...  # fmt: skip
    def step(self, state: Any, actions: Any, on_illegal: str = "raise", penalty: float = -1.0,
             inplace: bool = False, mask: Any = None, next_mask: Any = None) -> Any: ...  # fmt: skip
    def legal_action_mask(self, state: Any) -> np.ndarray: ...
    def observe(self, state: Any, player: Any = None) -> np.ndarray: ...
    def scores(self, state: Any) -> np.ndarray: ...
    def finished(self, state: Any) -> np.ndarray: ...  # bool[B]: ended by the rules (not by a penalty)
    def sample_legal(self, mask: Any, rng: Any) -> np.ndarray: ...  # int64[B]: uniform among each row's legal
    def random_step(self, state: Any, rng: Any, inplace: bool = False, mask: Any = None,
                    next_mask: Any = None) -> tuple[Any, np.ndarray]: ...  # fmt: skip
    def take(self, state: Any, rows: Any) -> Any: ...
    def put(self, state: Any, rows: Any, games: Any) -> Any: ...
    def copy(self, state: Any) -> Any: ...
    def concat(self, states: Sequence[Any]) -> Any: ...
    def to_game(self, state: Any, i: int) -> ReferenceGame: ...
    def from_games(self, games: Sequence[ReferenceGame]) -> Any: ...


#: The verbs of :class:`BatchedEngine`, each a function of the engine (the tools call every one of them).
ENGINE_VERBS = tuple(n for n, v in vars(BatchedEngine).items() if callable(v) and not n.startswith("_")
                     and n not in ("State", "IllegalActionError"))  # fmt: skip
#: The classes an engine names (``engine.State``, ``engine.IllegalActionError``).
ENGINE_CLASSES = ("State", "IllegalActionError")


def engine_problems(engine: Any) -> list[str]:
    """What ``engine`` lacks of :class:`BatchedEngine`, or takes otherwise: each verb must exist and accept the
    protocol's parameters under the same names, the positional ones in the same places, with a default wherever
    the protocol has one (it may take more, each with a default). Empty: a complete engine."""
    import inspect

    problems = [f"{name} is missing (a class)" for name in ENGINE_CLASSES if not isinstance(getattr(engine, name,
                                                                                              None), type)]  # fmt: skip
    for verb in ENGINE_VERBS:
        have = getattr(engine, verb, None)
        if not callable(have):
            problems.append(f"{verb}() is missing")
            continue
        want = [p for p in inspect.signature(getattr(BatchedEngine, verb)).parameters.values() if p.name != "self"]
        try:
            got = inspect.signature(have).parameters
        except (TypeError, ValueError):
            continue  # a builtin without a signature: nothing to check
        kw = inspect.Parameter.VAR_KEYWORD
        names = [p.name for p in got.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        for k, p in enumerate(want):
            if p.kind == kw:
                continue
            q = got.get(p.name)
            if q is None:
                if not any(x.kind == kw for x in got.values()):
                    problems.append(f"{verb}() takes no parameter {p.name!r}")
                continue
            if p.kind == p.POSITIONAL_OR_KEYWORD and (k >= len(names) or names[k] != p.name):
                problems.append(f"{verb}(): {p.name!r} is not its parameter {k + 1} (it takes {names})")
            if p.default is not p.empty and q.default is q.empty and q.kind != q.VAR_KEYWORD:
                problems.append(f"{verb}(): {p.name!r} has no default (the tools leave it out)")
        wanted = {p.name for p in want}
        for q in got.values():
            if q.name not in wanted and q.default is q.empty and q.kind in (q.POSITIONAL_OR_KEYWORD, q.KEYWORD_ONLY):
                problems.append(f"{verb}(): its own parameter {q.name!r} has no default (the tools never pass it)")
    return problems


def import_path(path: str) -> Any:
    """``"package.module"`` or ``"package.module:attr"``, imported: how a spec names its parts (engine, reference
    class, agents, tools, table), so that naming one costs nothing until it is used."""
    module, _, attr = path.partition(":")
    m = importlib.import_module(module)
    return getattr(m, attr) if attr else m


class GameDeclaration(Protocol):
    """The methods every game's spec must define (:data:`REQUIRED_METHODS`): :class:`GameSpec` has no default for
    them, and :meth:`GameSpec.check_declaration` names the ones a spec lacks."""

    def num_actions(self, **options: Any) -> int:
        """Size of the one flat action space for these options."""
        ...

    def observation_layout(self, **options: Any) -> tuple[Piece, ...]:
        """The named pieces of the flat float32 observation for these options."""
        ...

    def observation_bounds(self, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        """float32 lower and upper bounds of every observation entry."""
        ...

    def max_game_length(self, num_players: int, **options: Any) -> int:
        """An upper bound on the decisions of one game (a comment says why it holds)."""
        ...

    def reference_from_json(self, text: str, **options: Any) -> ReferenceGame:
        """A reference game from its JSON position (a corrupt one refused with what is wrong)."""
        ...

    def action_to_string(self, action: int, game: ReferenceGame | None = None, **options: Any) -> str:
        """An action's readable name (in ``game``'s position if given)."""
        ...

    def setup_of(self, game: ReferenceGame) -> tuple[int, int, dict[str, Any]]:
        """``(num_players, seed, options)`` a reference game was created with: its opening position is
        ``reference(num_players, seed, **options)`` (what a record of it starts from)."""
        ...


#: What every game must declare, attributes then methods: checked when the game is registered, every missing one
#: named in one message (:meth:`GameSpec.check_declaration`). Everything else has a default that works.
REQUIRED_ATTRIBUTES = ("id", "name", "version", "citation", "min_players", "max_players", "default_players",
                       "hidden_information", "engine_module", "reference_class")  # fmt: skip
REQUIRED_METHODS = tuple(n for n, v in vars(GameDeclaration).items() if callable(v) and not n.startswith("_"))


class GameSpec:
    """What one game declares to the suite; a game's package makes one instance (its ``SPEC``).

    Required (:data:`REQUIRED_ATTRIBUTES`; the methods of :class:`GameDeclaration`): the game's names, player
    range, whether it hides information, where its engines are, its sizes, its positions as JSON, its actions'
    names and how a game was set up. Optional, each with a default that works: ``options``, ``agents``,
    ``shipped_policy`` (and ``older_layouts``, through which a policy of an earlier layout still plays), ``tools``,
    ``variants``, ``observe``/``resample`` (the reference game's own),
    ``private_information``, ``render_text`` (``str(game)``), ``describe_action``, ``data_digests``, the texts
    (``rules_text``, ``components_text``: made from the declaration) and the pictures (``has_pictures``; without
    its own, a picture of the position's text).
    """

    #: short id, the registry's key and the ``--game`` of the command line (``"industry"``)
    id: str
    #: the game's name as printed (``"Industry"``)
    name: str
    #: the environments' version (``Industry-v0``); bumped when behaviour changes
    version: int
    #: one line: designer, publisher, year
    citation: str
    min_players: int
    max_players: int
    default_players: int
    #: players hold what others may not see (hands of cards): agents get observations, search gets resample
    hidden_information: bool
    #: module paths of the parts, imported on first use (no batched engine yet: None, for a game registered hidden
    #: while it is built; a listed game has one, the contract tests check it)
    engine_module: str | None
    reference_class: str
    #: the game's options (``num_players`` and ``seed`` are not options)
    options: tuple[Option, ...] = ()
    #: the game's own agents by name: ``"module:attr"`` of a factory ``(seed=..., **params) -> Agent``
    agents: Mapping[str, str] = {}
    #: the trained policy shipped with the game, ``"package:file.npz"`` (``make_agent("ppo", game=...)``), or None
    shipped_policy: str | None = None
    #: the version of the game's action encoding: 1, and one more each time it changes; a record keeps the version
    #: its actions are in, and an older one is read through :meth:`upgrade_action`
    action_encoding: int = 1
    #: the game's own command-line tools by subcommand name: a module with ``run(args) -> int`` (the exit status)
    #: and, for a subcommand the command line does not define itself, ``configure(parser)`` (Industry's
    #: ``balance``; each game's ``board``)
    tools: Mapping[str, str] = {}
    #: ``"module:function"`` ``(observations float32[B, D], **options) -> None`` that refuses observations no game
    #: produces, naming the entry and the rows (an AgentInputError): what agents of every game call on the
    #: observations they are given (a PPO policy); None: the observation's size is checked, no more
    observation_check: str | None = None
    #: ``"module:Class"`` of the game's own terminal table for ``industry-env play`` (a
    #: :class:`industry_env.core.playtable.PlayTable`), or None: the table every game has, from this spec
    play_table: str | None = None
    #: ``"module:Class"`` of the game's own view in the browser (``industry-env serve``: a
    #: :class:`industry_env.core.webview.View`), or None: the view every game has, from this spec
    web_view: str | None = None
    #: the game draws pictures of its own (``to_rgb_array``, ``show``); without them a picture is its text
    has_pictures: bool = False
    #: with hidden information, whether a seat holds something the others do not (hands of cards): its view then
    #: differs from the public one. False where what is hidden is hidden from every seat alike (20th Century's
    #: stacks), so a seat's view is the public view and only the full view shows more
    private_information: bool = True

    # ---------------------------------------------------------------------------------------- the declaration
    def missing(self) -> list[str]:
        """The required members this spec does not provide (empty: a complete declaration)."""
        out = [a for a in REQUIRED_ATTRIBUTES if not hasattr(self, a)]
        return out + [f"{m}()" for m in REQUIRED_METHODS if not callable(getattr(self, m, None))]

    def check_declaration(self) -> None:
        """TypeError naming every required member missing, and every declared value of the wrong kind; what
        the registry asks of a game when it is registered, before anything else reads it."""
        problems = [f"missing {', '.join(self.missing())}"] if self.missing() else []
        kinds = {"id": str, "name": str, "version": int, "citation": str, "min_players": int, "max_players": int,
                 "default_players": int, "hidden_information": bool, "reference_class": str}  # fmt: skip
        for attr, kind in kinds.items():
            if hasattr(self, attr) and not isinstance(getattr(self, attr), kind):
                problems.append(f"{attr} = {getattr(self, attr)!r} is not a {kind.__name__}")
        if hasattr(self, "engine_module") and not isinstance(self.engine_module, (str, type(None))):
            problems.append(f"engine_module = {self.engine_module!r} is neither a module path nor None")
        players = [getattr(self, a, None) for a in ("min_players", "default_players", "max_players")]
        if all(isinstance(n, int) for n in players) and not 1 <= players[0] <= players[1] <= players[2]:
            problems.append(f"players: min_players <= default_players <= max_players does not hold ({players})")
        if problems:
            who = getattr(self, "id", type(self).__name__)
            raise TypeError(f"the GameSpec of {who!r} ({type(self).__module__}.{type(self).__qualname__}) is not "
                            f"a complete declaration: {'; '.join(problems)}")  # fmt: skip

    # ---------------------------------------------------------------------------------------- names
    @property
    def camel_name(self) -> str:
        """``"Industry"``, ``"AgeOfIndustry"``: the Gymnasium id's name."""
        return camel_name(self.id)

    @property
    def gym_id(self) -> str:
        """The Gymnasium id, ``industry_env/<CamelName>-v<version>``."""
        return gym_id(self.id, self.version)

    @property
    def pettingzoo_name(self) -> str:
        """PettingZoo's ``metadata["name"]``, ``<id>_v<version>``."""
        return f"{self.id}_v{self.version}"

    def __repr__(self) -> str:
        return f"<GameSpec {self.id!r}: {self.name}, {self.min_players}-{self.max_players} players>"

    # ---------------------------------------------------------------------------------------- options
    def check_num_players(self, num_players: Any, where: str = "num_players") -> int:
        """``num_players`` as an int, or ValueError naming the game's player range."""
        ok = isinstance(num_players, (int, np.integer)) and not isinstance(num_players, (bool, np.bool_))
        if not ok or not self.min_players <= num_players <= self.max_players:
            rng = f"{self.min_players} to {self.max_players}" if self.max_players > self.min_players + 1 else \
                f"{self.min_players} or {self.max_players}"  # fmt: skip
            raise ValueError(f"{where}={num_players!r}: {self.name} is played by {rng} players")
        return int(num_players)

    def check_options(self, options: Mapping[str, Any] | None = None, where: str = "") -> dict[str, Any]:
        """Every option of the game, given ones checked and the others at their defaults; ValueError naming an
        unknown option (with the known ones) or a refused value."""
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"{where}{', '.join(unknown)}: not an option of {self.name} (its options: "
                             f"{', '.join(known) or 'none'})")  # fmt: skip
        out = {}
        for name, o in known.items():
            value = options.get(name, o.default)
            try:
                out[name] = o.check(value)
            except ValueError as exc:
                raise ValueError(f"{where}{name}={value!r}: {exc}") from None
        return out

    def options_to_json(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The checked options as a record stores them."""
        known = {o.name: o for o in self.options}
        return {k: known[k].to_json(v) for k, v in options.items()}

    def options_from_json(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """Options read back from a record, checked."""
        known = {o.name: o for o in self.options}
        raw = {k: (known[k].from_json(v) if k in known else v) for k, v in doc.items()}
        return self.check_options(raw, where="options.")

    def variants(self) -> list[dict[str, Any]]:
        """Option settings that together reach every rule of the game (Industry: both draw variants; Age of
        Industry: both maps, both editions): ``industry-env verify --game`` and the bench cycle through them."""
        return [{}]

    def exploration_weights(self, **options: Any) -> np.ndarray | None:
        """float64[num_actions]: weights of a random player that reaches every phase of the rules often (Industry:
        develop often, bid low), which ``verify`` plays in half its games beside uniform play; None: uniform only."""
        return None

    # ---------------------------------------------------------------------------------------- actions
    def string_to_action(self, text: str, game: ReferenceGame | None = None, **options: Any) -> int:
        """The action a readable name stands for (in ``game``'s position if given); ValueError if none. Without
        its own: the action whose ``action_to_string`` is ``text``."""
        names = {self.action_to_string(a, game, **options): a for a in range(self.num_actions(**options))}
        if text not in names:
            raise ValueError(f"{text!r} is not an action of {self.name} (e.g. {', '.join(list(names)[:4])})")
        return names[text]

    # ---------------------------------------------------------------------------------------- sizes
    def observation_size(self, **options: Any) -> int:
        """Floats in one observation."""
        last = self.observation_layout(**options)[-1]
        return last.offset + last.size

    def older_layouts(self, **options: Any) -> tuple[OlderLayout, ...]:
        """Earlier layouts of the observation and actions (with these options) that the game can still translate
        today's positions into, so that a policy trained on one keeps playing (the ``ppo`` agent asks for them when
        a policy's sizes are no current variant's); none by default."""
        return ()

    # ---------------------------------------------------------------------------------------- parts
    @property
    def engine(self) -> ModuleType:
        """The batched engine (:class:`BatchedEngine`), imported on first use."""
        if self.engine_module is None:
            raise ValueError(f"{self.name} has no batched engine yet: only its reference engine "
                             f"(load_game({self.id!r}).reference(...)) plays it")  # fmt: skip
        return import_path(self.engine_module)

    def reference(self, num_players: int | None = None, seed: int = 0, **options: Any) -> ReferenceGame:
        """A new reference game (checked options)."""
        n = self.default_players if num_players is None else self.check_num_players(num_players)
        return import_path(self.reference_class)(n, seed=seed, **self.check_options(options))

    def observe(self, game: ReferenceGame, seat: int) -> np.ndarray:
        """What ``seat`` may see of ``game``: float32[observation_size], egocentric (the seat itself first)."""
        return game.observe(check_seat(seat, game.num_players))

    def resample(self, game: ReferenceGame, seat: int, rng: Any = None) -> ReferenceGame:
        """A game consistent with all that ``seat`` knows of ``game``, its hidden part drawn from ``rng`` (as
        OpenSpiel's ``ResampleFromInfostate``): what search players plan on. A game without hidden information
        is its own only consistent position, so it is cloned."""
        check_seat(seat, game.num_players)
        if self.hidden_information:
            return game.resample(seat, rng)  # type: ignore[attr-defined]  (a HiddenInformationGame)
        return game.clone()

    def render_text(self, game: ReferenceGame) -> str:
        """A position as text."""
        return str(game)

    def upgrade_action(self, game: ReferenceGame, action: int, encoding: int) -> int:
        """``action`` of the older action encoding ``encoding``, played in ``game``'s position, as an action of
        today's (:attr:`action_encoding`); ValueError if that position has no such move. A game whose encoding
        never changed has nothing to upgrade."""
        raise ValueError(f"{self.name} has had one action encoding (1): encoding {encoding} is not one of its")

    def describe_action(self, game: ReferenceGame, action: int) -> str:
        """What ``action`` does in ``game``'s position, for people (a replay's move list)."""
        return self.action_to_string(action, game)

    def data_digests(self, **options: Any) -> dict[str, dict[str, str]]:
        """``{what: {"name": file name, "sha256": hex}}`` of the data files these (checked) options play on,
        which a record stores so that it is never replayed on other data."""
        return {}

    # ---------------------------------------------------------------------------------------- texts
    def rules_text(self) -> str:
        """The rules as implemented, with the rulings on what the rulebook leaves open (``industry-env rules``).
        Without its own: the declaration (the game, its players and options) and where its rules are."""
        rng = f"{self.min_players} to {self.max_players}"
        lines = [f"# {self.name}", "", self.citation, "", f"{rng} players (default {self.default_players}).", ""]
        lines += [f"- option `{o.name}` (default {o.default!r}): {o.doc}" for o in self.options]
        lines += ["", f"No rules text is shipped with this game: its rules are in {_import_path(self)}'s reference "
                      f"engine ({self.reference_class})."]  # fmt: skip
        return "\n".join(lines) + "\n"

    def components_text(self) -> str:
        """The game's components (board, maps, display...) as Markdown tables with the provenance of every number
        (``industry-env board``). Without its own: the sizes the environments read, piece by piece."""
        pieces = self.observation_layout()
        lines = [f"# {self.name}: the observation", "", f"{self.num_actions()} actions; "
                 f"{self.observation_size()} floats observed, in these pieces:", "",
                 "| piece | offset | shape |", "|---|---|---|"]  # fmt: skip
        lines += [f"| {p.name} | {p.offset} | {' x '.join(map(str, p.shape))} |" for p in pieces]
        return "\n".join(lines) + "\n"

    # ---------------------------------------------------------------------------------------- pictures
    def picture_key(self, game: ReferenceGame) -> Any:
        """What a picture of ``game`` shows, comparable: a replay draws a new frame only when it changes (None:
        a frame after every decision)."""
        return None

    def to_rgb_array(self, game: ReferenceGame, seat: int | None = None) -> np.ndarray:
        """A position as a picture, uint8[H, W, 3] (``seat``: only what that seat may see). Without pictures of
        its own, the position's text (``render_text``) drawn in a plain font (needs Pillow: the render extra)."""
        from .figure import text_picture

        return text_picture(self.render_text(game))

    def show(self, game: ReferenceGame) -> None:
        """Show a position's picture (in a notebook, or a window). Without pictures of its own: prints its text."""
        print(self.render_text(game))

    def doc_figures(self) -> list[Any]:
        """The pictures of positions the game's docs show (:class:`industry_env.core.figure.DocFigure`), drawn from
        seeded games by ``python -m industry_env.docfigures`` and checked by the tests; none by default."""
        return []

    def gif_writer(self, path: Any, frame_ms: int = 400, last_ms: int = 3000, scale: float = 1.0) -> Any:
        """An animated GIF of this game's pictures written frame by frame (:class:`industry_env.core.gif.
        GifWriter`; a game with pictures of its own keeps its players' colours in the palette)."""
        from .gif import GifWriter

        return GifWriter(path, frame_ms=frame_ms, last_ms=last_ms, scale=scale)


def camel_name(game_id: str) -> str:
    """``"age_of_industry"`` -> ``"AgeOfIndustry"``: a game's name in its Gymnasium id."""
    return "".join(w[:1].upper() + w[1:] for w in game_id.split("_"))


def gym_id(game_id: str, version: int) -> str:
    """The Gymnasium id of a game, ``industry_env/<CamelName>-v<version>``."""
    return f"industry_env/{camel_name(game_id)}-v{version}"


def _import_path(spec: GameSpec) -> str:
    return type(spec).__module__.rpartition(".")[0]
