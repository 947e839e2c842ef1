"""Old module paths kept working for one release after a move: the old name imports the very module object.

``install({"industry_env.engine": "industry_env.games.industry.engine", ...})`` puts a finder on
``sys.meta_path`` so that ``import industry_env.engine`` (and ``from industry_env import engine``) gives the
module ``industry_env.games.industry.engine`` itself, not a copy or a star re-export: a test that monkeypatches a
global through the old name still changes what the rules read. Each old name warns once with a
DeprecationWarning naming the new one.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Mapping
from types import ModuleType


class _AliasLoader(importlib.abc.Loader):
    """Loads an old name as the module of its new name (the module object is shared, never re-executed)."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} has moved to {self.new}; the old name will be removed in the next release",
                      DeprecationWarning, stacklevel=3)  # fmt: skip
        module = importlib.import_module(self.new)
        self._spec = module.__spec__  # importlib writes the alias's spec on the module: put its own back
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    def __init__(self, table: Mapping[str, str]) -> None:
        self.table = dict(table)

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        new = self.table.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install(table: Mapping[str, str]) -> None:
    """Make every old module name of ``table`` import its new module (once per process)."""
    for finder in sys.meta_path:
        if isinstance(finder, _AliasFinder):
            finder.table.update(table)
            return
    sys.meta_path.insert(0, _AliasFinder(table))
