"""Martin Wallace's *Age of Industry* (Treefrog Games 2010, second edition): rules, components as data, and the
readable reference engine (:class:`Game`), self-contained so that the suite's registry can host it as it is.

What a registry needs is at the top level: ``NAME``, ``reference`` (the engine class), ``num_actions(map)``,
``observation_size(map)``, and the tools behind ``board`` and ``rules`` commands (``print_components``,
``write_template``, ``print_rules``).
"""

from .actions import action_to_string, num_actions, string_to_action
from .components import MAPS, ComponentsError, load_components, load_map
from .observation import observation_size
from .reference import Game, IllegalActionError
from .state import GAME_NAME as NAME
from .state import GameStateError
from .texts import print_components, print_rules, write_template

reference = Game  # the readable reference engine: reference(num_players, seed, map, **options)

__all__ = [
    "MAPS", "NAME", "ComponentsError", "Game", "GameStateError", "IllegalActionError", "action_to_string",
    "load_components", "load_map", "num_actions", "observation_size", "print_components", "print_rules", "reference",
    "string_to_action", "write_template",
]  # fmt: skip
