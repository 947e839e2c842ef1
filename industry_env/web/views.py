"""The browser's view of each game: the game's own (``GameSpec.web_view``, a class in its package) or the generic
:class:`~industry_env.core.webview.View` through its spec."""

from __future__ import annotations

from ..core.spec import GameSpec, import_path
from ..core.webview import View

__all__ = ["View", "view_of"]

_made: dict[str, View] = {}


def view_of(spec: GameSpec) -> View:
    """The browser's view of ``spec``'s game (one for each game, made once)."""
    if spec.id not in _made:
        cls = import_path(spec.web_view) if spec.web_view else View
        _made[spec.id] = cls(spec)
    return _made[spec.id]
