"""Martin Wallace's *Age of Industry* (Treefrog Games 2010, second edition): rules, components as data, and the
readable reference engine (:class:`Game`), self-contained so that the suite's registry can host it as it is."""

from .actions import action_to_string, num_actions, string_to_action
from .components import ComponentsError, load_components, load_map
from .observation import observation_size
from .reference import Game, GameStateError, IllegalActionError

__all__ = [
    "ComponentsError", "Game", "GameStateError", "IllegalActionError", "action_to_string", "load_components",
    "load_map", "num_actions", "observation_size", "string_to_action",
]  # fmt: skip
