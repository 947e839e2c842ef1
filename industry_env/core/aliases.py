"""Old module paths kept working for one release after a move: the old name imports the very module object.

``install({"industry_env.engine": "industry_env.games.industry.engine", ...})`` puts a finder on
``sys.meta_path`` so that ``import industry_env.engine`` (and ``from industry_env import engine``) gives the
module ``industry_env.games.industry.engine`` itself, not a copy or a star re-export: a test that monkeypatches a
global through the old name still changes what the rules read. Each old name warns once with a
DeprecationWarning naming the new one. A moved package was a folder too: :func:`moved_file` finds a file that a
path into its old folder names (``industry_env/data/board.toml``, typed or saved by a user before the move).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path
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


def moved_file(path: str | Path) -> Path | None:
    """Where a file now lives that ``path`` names in the old folder of a moved package (``industry_env/data/x`` is
    ``industry_env/games/industry/data/x``), warning that the path is old; None if ``path`` exists or names none."""
    given = Path(path).expanduser()
    if given.exists():
        return None
    text = "/" + given.as_posix()
    for finder in sys.meta_path:
        if not isinstance(finder, _AliasFinder):
            continue
        for old, new in finder.table.items():
            folder = "/" + old.replace(".", "/") + "/"
            at = text.rfind(folder)
            if at < 0:
                continue
            spec = importlib.util.find_spec(new)
            if spec is None or not spec.submodule_search_locations:
                continue  # a moved module, not a package: no folder of files
            target = Path(list(spec.submodule_search_locations)[0]) / text[at + len(folder) :]
            if target.is_file():
                was, now = old.replace(".", "/"), new.replace(".", "/")
                warnings.warn(f"{path}: {was}/ has moved to {now}/; the old path will stop resolving in the next "
                              f"release", DeprecationWarning, stacklevel=3)  # fmt: skip
                return target
    return None
