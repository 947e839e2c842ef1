"""Martin Wallace's *Age of Industry* (Treefrog Games 2010, second edition): rules, components as data, and the
readable reference engine (:class:`Game`), self-contained so that the suite's registry can host it as it is."""

from .components import ComponentsError, load_components, load_map
from .reference import Game, GameStateError, IllegalActionError

__all__ = ["ComponentsError", "Game", "GameStateError", "IllegalActionError", "load_components", "load_map"]
