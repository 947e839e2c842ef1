"""industry_env: economic board games as batched, rule-exact reinforcement-learning environments. The games
(``available_games()``): Michael Schacht's *Industry*, Martin Wallace's *Age of Industry* and Vladimír Suchý's
*20th Century*; ``load_game(id)`` gives a game's spec.

``industry_env.env(game=...)`` / ``industry_env.raw_env(game=...)`` are the PettingZoo AEC environment (imported on
first use); importing the package registers each game's Gymnasium environment (``industry_env/Industry-v0``,
``industry_env/AgeOfIndustry-v0``, ``industry_env/TwentiethCentury-v0``) from the registry's declarations, without
importing any game: a game's package is imported when it is first used.
"""

import importlib
from typing import Any

from .core import aliases as _aliases

# Modules moved into the suite's layout keep their old names for one release (CHANGELOG.md, 0.2.0): the old
# name imports the very module object, so monkeypatching through it still reaches the rules.
_aliases.install({
    **{f"industry_env.{m}": f"industry_env.games.industry.{m}" for m in (
        "rules", "actions", "chance", "observation", "reference", "positions", "engine", "kernel",
        "observe_kernel", "render", "picture", "balance")},
    # the games' modules renamed alike: each game's components as data, and its texts for people
    "industry_env.board": "industry_env.games.industry.components",
    "industry_env.games.industry.board": "industry_env.games.industry.components",
    "industry_env.boarddoc": "industry_env.games.industry.texts",
    "industry_env.games.industry.boarddoc": "industry_env.games.industry.texts",
    "industry_env.games.age_of_industry.tools": "industry_env.games.age_of_industry.texts",
    "industry_env.games.twentieth_century.tools": "industry_env.games.twentieth_century.texts",
    "industry_env.numba_cache": "industry_env.core.numba_cache",
    "industry_env.outputs": "industry_env.core.outputs",
    "industry_env.data": "industry_env.games.industry.data",  # Industry's board, rules text and shipped policy
    **{f"industry_env.agents.{m}": f"industry_env.agents.industry.{m}" for m in (
        "heuristic", "heuristic_v0", "mcts", "strong_heuristic", "strong_kernel")},
})  # fmt: skip

from .envs import ENV_ID  # noqa: E402
from .envs import register as _register  # noqa: E402
from .registry import available_games, load_game  # noqa: E402

__version__ = "0.1.0"
__all__ = [
    "Board", "BoardError", "ENV_ID", "available_games", "env", "field_id", "field_index", "load_board", "load_game",
    "raw_env", "__version__",
]  # fmt: skip

_register()

# Names of one game kept at the top for the scripts that import them from here (Industry's board, before the
# suite had several games): resolved on first use, so that importing the package loads no game.
_LAZY = {name: "industry_env.games.industry.components" for name in ("Board", "BoardError", "field_id",
                                                                       "field_index", "load_board")}  # fmt: skip


def __getattr__(name: str) -> Any:
    """``env`` and ``raw_env`` (PettingZoo) and Industry's board names, imported when first asked for."""
    if name in ("env", "raw_env"):
        from .envs import aec

        return getattr(aec, name)
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'industry_env' has no attribute {name!r}")
