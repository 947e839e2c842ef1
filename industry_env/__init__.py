"""industry_env: the auction board game Industry (Michael Schacht) as a batched reinforcement-learning engine.

``industry_env.env()`` / ``industry_env.raw_env()`` are the PettingZoo AEC environment (imported on first use);
importing the package registers the Gymnasium environment ``industry_env/Industry-v0``.
"""

from typing import Any

from .board import Board, BoardError, field_id, field_index, load_board
from .envs import ENV_ID
from .envs import register as _register

__version__ = "0.1.0"
__all__ = ["Board", "BoardError", "ENV_ID", "env", "field_id", "field_index", "load_board", "raw_env", "__version__"]

_register()


def __getattr__(name: str) -> Any:
    """``env`` and ``raw_env`` import PettingZoo only when first asked for."""
    if name in ("env", "raw_env"):
        from .envs import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'industry_env' has no attribute {name!r}")
