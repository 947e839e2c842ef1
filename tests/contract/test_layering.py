"""Imports flow one way: tools -> environments, agents, training, arena, records -> registry -> games -> core.

Every import statement is counted, the ones inside functions too (a lazy import is still a dependency). A game
imports only the core and its own package: never an adapter, an agent, the registry or another game. The generic
modules (everything but a game's package ``industry_env/games/<game>/`` and its agents ``agents/<game>/``) import
no game: they reach one through the registry and its spec. The game packages are found on disk, not listed here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"industry_env": ROOT / "industry_env", "industry_env.agents": ROOT / "agents",
            "industry_env.train": ROOT / "train"}  # fmt: skip


def _modules() -> dict[str, Path]:
    out = {}
    for pkg, base in PACKAGES.items():
        for f in base.rglob("*.py"):
            parts = [p for p in f.relative_to(base).with_suffix("").parts if p != "__init__"]
            out[".".join([pkg, *parts])] = f
    return out


MODULES = _modules()


def imports_of(name: str) -> set[str]:
    """The modules of the house that module ``name`` imports, anywhere in its code."""
    f = MODULES[name]
    out = set()
    for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if f.name == "__init__.py" else name.split(".")[:-1]
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _in(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _game_ids() -> list[str]:
    """The folders of ``industry_env/games/`` that are packages: one game each."""
    return sorted(d.name for d in (ROOT / "industry_env" / "games").iterdir() if (d / "__init__.py").is_file())


GAMES = [f"industry_env.games.{g}" for g in _game_ids()]
#: each game's own packages: its rules and engines, and the agents that play only it
ONE_GAMES = tuple(p for g in _game_ids() for p in (f"industry_env.games.{g}", f"industry_env.agents.{g}"))


def _of_one_game(name: str) -> bool:
    return any(_in(name, p) for p in ONE_GAMES)


def test_the_house_is_found():
    assert "industry_env.games.industry.engine" in MODULES and "industry_env.core.spec" in MODULES
    assert len(GAMES) >= 2 and all(g in MODULES for g in GAMES)
    from industry_env.registry import available_games

    registered = {f"industry_env.games.{g}" for g in available_games(include_hidden=True)}
    assert registered <= set(GAMES), "a registered game without its package under industry_env/games/"


def test_generic_modules_import_no_game():
    """A tool, an adapter, a generic agent, the registry: no import of a game's package or a game's agents."""
    found = []
    for m in MODULES:
        if _of_one_game(m):
            continue
        games = sorted(t for t in imports_of(m) if _of_one_game(t))
        if games:
            found.append(f"{m} imports {games}")
    assert not found, "\n".join(found)


def test_the_core_imports_nothing_above_it():
    for m in MODULES:
        if _in(m, "industry_env.core"):
            above = {t for t in imports_of(m) if not _in(t, "industry_env.core")}
            assert not above, f"{m} imports {sorted(above)}"


def test_a_game_imports_only_the_core_and_itself():
    for game in GAMES:
        for m in MODULES:
            if _in(m, game):
                other = {t for t in imports_of(m) if not _in(t, game) and not _in(t, "industry_env.core")
                         and t != "industry_env.games"}  # fmt: skip
                assert not other, f"{m} imports {sorted(other)}"


def test_the_registry_knows_games_only_by_name():
    assert imports_of("industry_env.registry") <= {m for m in MODULES if _in(m, "industry_env.core")}


# One game's sizes written as numbers (Industry's 675 observation floats, 314 actions, "3 or 4" players).
SIZE_LITERALS = re.compile(r"(?<![\w.])(675|314|313)(?![\w.])|\b3 or 4\b")


def test_no_generic_module_holds_one_games_sizes():
    found = []
    for name, f in MODULES.items():
        if _of_one_game(name):
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if SIZE_LITERALS.search(line):
                found.append(f"{f.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_house_has_no_import_circle():
    """Strongly connected modules, every import counted (a module's import of its own parent package excepted)."""
    edges = {m: {t for t in imports_of(m) if not m.startswith(t + ".")} for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in MODULES:
        if v not in index:
            visit(v)
    assert not circles, circles


def test_no_module_holds_over_1000_lines() -> None:
    """Every module is split where a reader would look for one rule (issue 49); the compiled kernels' splits were
    shown to change no compiled instruction (``python -m industry_env.compiled_code``)."""
    long = {name: n for name, f in MODULES.items() if (n := len(f.read_text(encoding="utf-8").splitlines())) > 1000}
    assert not long, long


def test_the_template_game_is_its_rules_under_300_lines_and_its_engine_under_60() -> None:
    """The guide's worked example (``docs/adding-a-game.md``) costs a new game its rules: what any game needs is
    the front's (``core.batched``) and core's batch loops (``core.batch_entries``)."""
    files = (PACKAGES["industry_env"] / "games" / "nim").glob("*.py")
    nim = {f.name: len(f.read_text(encoding="utf-8").splitlines()) for f in files}
    assert sum(nim.values()) < 300 and nim["engine.py"] < 60, nim
