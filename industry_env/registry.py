"""The games of the suite by id: ``available_games()`` lists them, ``load_game(game_id)`` returns a game's spec.

The registry holds one light :class:`Declaration` per game (where its spec is, its Gymnasium id, whether it is
hidden) and imports a game's package only when its spec is first asked for (as ``pgx.make`` does), so
``import industry_env`` loads no game and a user of one game never pays for the others. A spec is checked when
it is loaded (:meth:`GameSpec.check_declaration`: every missing member named at once) and must agree with its
declaration. A game still being built is registered hidden: ``load_game`` finds it, ``available_games()`` lists
it only with ``include_hidden=True`` (Pgx keeps unfinished games out of its ``EnvId`` the same way).
``register_game`` adds a game from outside the package.
"""

from __future__ import annotations

import dataclasses

from .core.spec import GameSpec, gym_id, import_path


@dataclasses.dataclass(frozen=True)
class Declaration:
    """What the registry knows of a game before importing it.

    ``spec``: ``"module:attr"`` of its :class:`GameSpec` instance; ``version``: its environments' version (the
    spec's, checked when loaded); ``batched``: it has a batched engine, so its Gymnasium id is registered;
    ``hidden``: still being built, not listed by ``available_games()``.
    """

    spec: str
    version: int
    batched: bool
    hidden: bool = False


_GAMES: dict[str, Declaration] = {
    "industry": Declaration("industry_env.games.industry.spec:SPEC", version=0, batched=True),
    "age_of_industry": Declaration("industry_env.games.age_of_industry.spec:SPEC", version=0, batched=True),
    "twentieth_century": Declaration("industry_env.games.twentieth_century.spec:SPEC", version=0, batched=True),
    # the template game of docs/adding-a-game.md, hidden: the contract tests run over it, no tool lists it
    "nim": Declaration("industry_env.games.nim.spec:SPEC", version=0, batched=True, hidden=True),
}
_LOADED: dict[str, GameSpec] = {}

DEFAULT_GAME = "industry"


def available_games(include_hidden: bool = False) -> list[str]:
    """The ids of the registered games (the unfinished ones too with ``include_hidden``)."""
    return [g for g, d in _GAMES.items() if include_hidden or not d.hidden]


def declaration(game_id: str) -> Declaration:
    """The registry's declaration of ``game_id`` (nothing of the game imported); ValueError listing the ids."""
    if not isinstance(game_id, str) or game_id not in _GAMES:
        raise ValueError(f"game={game_id!r}: not a game of the suite (games: {', '.join(available_games())})")
    return _GAMES[game_id]


def gym_ids() -> dict[str, str]:
    """``{game id: Gymnasium id}`` of every registered game with a batched engine, hidden ones too, from the
    declarations alone (no game imported): what ``import industry_env`` registers with Gymnasium."""
    return {g: gym_id(g, d.version) for g, d in _GAMES.items() if d.batched}


def register_game(game_id: str, spec: str | GameSpec, hidden: bool = False) -> None:
    """Add a game to the suite: ``spec`` its :class:`GameSpec` or ``"module:attr"`` naming it (imported on first
    use). A spec given as an object is checked now; ValueError if ``game_id`` is taken."""
    if not isinstance(game_id, str) or not game_id.isidentifier():
        raise ValueError(f"game_id={game_id!r}: a game's id is a Python identifier, e.g. 'my_game'")
    if game_id in _GAMES:
        raise ValueError(f"game_id={game_id!r}: already a game of the suite")
    if isinstance(spec, GameSpec):
        _check(game_id, spec, None)
        _GAMES[game_id] = Declaration(f"<object {spec!r}>", spec.version, spec.engine_module is not None, hidden)
        _LOADED[game_id] = spec
    elif isinstance(spec, str) and ":" in spec:
        _GAMES[game_id] = _declare(game_id, spec, hidden)
    else:
        raise ValueError(f"spec={spec!r}: a GameSpec, or 'module:attr' naming one")


def _declare(game_id: str, path: str, hidden: bool) -> Declaration:
    """The declaration of a game added by path: its spec is imported now to read its version and engine."""
    spec = import_path(path)
    _check(game_id, spec, None)
    _LOADED[game_id] = spec
    return Declaration(path, spec.version, spec.engine_module is not None, hidden)


def _check(game_id: str, spec: object, declared: Declaration | None) -> None:
    """TypeError unless ``spec`` is a complete GameSpec of ``game_id`` agreeing with its declaration."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"the spec of {game_id!r} is a {type(spec).__name__}, not a GameSpec")
    spec.check_declaration()
    if spec.id != game_id:
        raise TypeError(f"the spec registered as {game_id!r} declares id = {spec.id!r}")
    if declared is not None and (spec.version, spec.engine_module is not None) != (declared.version, declared.batched):
        raise TypeError(f"the spec of {game_id!r} declares version {spec.version} and engine_module = "
                        f"{spec.engine_module!r}, but the registry's declaration says version {declared.version}, "
                        f"batched={declared.batched}: update industry_env/registry.py")  # fmt: skip


def load_game(game_id: str = DEFAULT_GAME) -> GameSpec:
    """The spec of game ``game_id`` (its package imported on first use); ValueError listing the ids if it is not
    registered, TypeError if its spec is incomplete or disagrees with the registry."""
    spec = _LOADED.get(game_id) if isinstance(game_id, str) else None
    if spec is None:
        declared = declaration(game_id)
        spec = import_path(declared.spec)
        _check(game_id, spec, declared)
        _LOADED[game_id] = spec
    return spec


def spec_of(obj: object) -> GameSpec | None:
    """The spec of the game whose reference game or batched State ``obj`` is (None if no registered game's).

    A game's object exists only once its package is imported, so only that game's spec is loaded here.
    """
    module = type(obj).__module__
    for game_id, declared in list(_GAMES.items()):
        loaded = _LOADED.get(game_id)
        spec_module = type(loaded).__module__ if loaded is not None else declared.spec.partition(":")[0]
        package = spec_module.rpartition(".")[0]
        if module == package or module.startswith(package + "."):
            return load_game(game_id)
    return None


def resolve(game: str | GameSpec | None) -> GameSpec:
    """A spec from a game id, a spec, or None (the default game)."""
    if isinstance(game, GameSpec):
        return game
    return load_game(DEFAULT_GAME if game is None else game)
