"""industry_env: the auction board game Industry (Michael Schacht) as a batched reinforcement-learning engine."""

from .board import Board, BoardError, field_id, field_index, load_board

__version__ = "0.1.0"
__all__ = ["Board", "BoardError", "field_id", "field_index", "load_board", "__version__"]
