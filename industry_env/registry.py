"""The games of the suite by id: ``available_games()`` lists them, ``load_game(game_id)`` returns a game's spec.

Each game's package is imported only when its spec is first asked for (as ``pgx.make`` does), so a user of one
game never pays for the others. A game still being built can be registered hidden: ``load_game`` finds it,
``available_games()`` lists it only with ``include_hidden=True`` (Pgx keeps unfinished games out of its
``EnvId`` the same way).
"""

from __future__ import annotations

import importlib
from functools import cache

from .core.spec import GameSpec

# id -> (module holding SPEC, hidden)
_GAMES: dict[str, tuple[str, bool]] = {
    "industry": ("industry_env.games.industry.spec", False),
    "age_of_industry": ("industry_env.games.age_of_industry.spec", False),
    "twentieth_century": ("industry_env.games.twentieth_century.spec", True),  # reference engine only (issue 31)
}

DEFAULT_GAME = "industry"


def available_games(include_hidden: bool = False) -> list[str]:
    """The ids of the registered games (the unfinished ones too with ``include_hidden``)."""
    return [g for g, (_, hidden) in _GAMES.items() if include_hidden or not hidden]


@cache
def load_game(game_id: str = DEFAULT_GAME) -> GameSpec:
    """The spec of game ``game_id``; ValueError listing the ids if it is not registered."""
    if not isinstance(game_id, str) or game_id not in _GAMES:
        raise ValueError(f"game={game_id!r}: not a game of the suite (games: {', '.join(available_games())})")
    spec = importlib.import_module(_GAMES[game_id][0]).SPEC
    if not isinstance(spec, GameSpec) or spec.id != game_id:
        raise TypeError(f"{_GAMES[game_id][0]}.SPEC is not the GameSpec of {game_id!r}")
    return spec


def spec_of(obj: object) -> GameSpec | None:
    """The spec of the game whose reference game or batched State ``obj`` is (None if no registered game's).

    Only games already loaded are looked at: an object of a game exists only once its package is imported.
    """
    module = type(obj).__module__
    for game_id, (spec_module, _) in _GAMES.items():
        package = spec_module.rpartition(".")[0]
        if module == package or module.startswith(package + "."):
            return load_game(game_id)
    return None


def resolve(game: str | GameSpec | None) -> GameSpec:
    """A spec from a game id, a spec, or None (the default game)."""
    if isinstance(game, GameSpec):
        return game
    return load_game(DEFAULT_GAME if game is None else game)
