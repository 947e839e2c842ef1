"""Did a change to a game's compiled code change any compiled instruction, or only move and rename functions?

``python -m industry_env.compiled_code dump GAME FILE`` compiles the game's batched engine afresh (in a new process
with an empty numba cache) and writes the LLVM IR of every compiled function of the game and of the core it calls,
keyed by the function's name and signature, with what a move changes written out of it: the module a function
lives in, numba's counters of functions and variables compiled so far, addresses. Run it in a checkout of the
commit before a change and in one after it, then ``python -m industry_env.compiled_code compare BEFORE AFTER
[--rename OLD=NEW ...]``: it lists each function whose code differs, and exits 1 if any does. ``dump --tree DIR``
compiles the checkout in ``DIR`` instead of the installed package.

The same IR for every function means the change (a kernel split into modules, names made public) changed no
instruction, which is more than a sample of games can show; any other change to compiled code is verified again
on 100,000 games (``industry-env verify``), as ``docs/adding-a-game.md`` says.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

PACKAGE = "industry_env"


def mangled(module: str) -> str:
    """A module's dotted name as numba's mangled names spell it (each part after its length)."""
    return "".join(f"{len(part)}{part}" for part in module.split("."))


_PICKLED = re.compile(r'@\.const\.pickledata\.([0-9a-f]{40})(\.\d+)? = internal constant \[\d+ x i8\] c"(.*)"$', re.M)


def _pickled_constant(escaped: str) -> str:
    """What a constant numba pickled into the code says, without where the code lives: an exception's class and
    arguments with the function raising it (not its file and line), or a class's name (not its module)."""
    import pickle

    data = re.sub(rb"\\([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), escaped.encode("latin-1"))
    try:
        value = pickle.loads(data)  # the process's own compile output, unpickled as numba does when it raises
    except Exception:  # a constant this reading does not know: compared as it stands
        return escaped
    if isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], type):
        where = value[2][0] if isinstance(value[2], tuple) and value[2] else None
        return repr((value[0].__qualname__, value[1], where))
    return value.__qualname__ if isinstance(value, type) else repr(value)


def normalize(ir: str, modules: Sequence[str]) -> str:
    """``ir`` with what differs between two compiles of the same code written out: the modules in mangled names,
    numba's running counts (its ABI tags ``B<n>v<k>``, variables ``__v<k>__``), addresses, the sizes of the strings
    that hold a mangled name, LLVM's module header, and in the constants numba pickles (an exception raised, a
    class) the file, line and module they name."""
    names = {}
    for m in _PICKLED.finditer(ir):
        said = _pickled_constant(m.group(3))
        what = said.rsplit(", ", 1)[0] if said.startswith("(") else said  # named without the raising function
        names[m.group(1)] = hashlib.sha1(what.encode("utf-8")).hexdigest()[:12]
        ir = ir.replace(m.group(0), f"@.const.pickledata.{names[m.group(1)]}{m.group(2) or ''} = pickled {said}")
    for sha, name in names.items():
        ir = ir.replace(sha, name)
    ir = re.sub(r"(@\.const\.pickledata\.\w+(?:\.\d+)?\.sha1 = internal constant \[20 x i8\]) c\".*\"", r"\1", ir)
    buffer = r"(@\.const\.picklebuf\.\w+(?:\.\d+)? = .*?ptr @\.const\.pickledata\.\w+(?:\.\d+)?, i32) \d+"
    ir = re.sub(buffer, r"\1 N", ir)  # the pickle's length
    ir = re.sub(r"(@numba_unpickle\(ptr nonnull @\.const\.pickledata\.\w+(?:\.\d+)?, i32) \d+", r"\1 N", ir)
    for prefix in sorted((mangled(m) for m in modules), key=len, reverse=True):
        ir = ir.replace(prefix, "MOD")
    ir = ir.replace("MODMOD", "MOD")  # a function named after its module (core.batch_entries' copies)
    for module in sorted(modules, key=len, reverse=True):
        ir = ir.replace(f".const.{module}.", ".const.").replace(f'c"{module}.', 'c"')
    ir = re.sub(r'(@\.const\.[\w.]+ = internal constant) \[\d+ x i8\] (c"[\w.]+\\00")', r"\1 [N x i8] \2", ir)
    ir = re.sub(r"B\d+v\d+", "Bv", ir)
    ir = re.sub(r"__v\d+__", "__v__", ir)
    ir = re.sub(r"0x[0-9a-f]{6,}", "0xADDR", ir)
    ir = re.sub(r"\[\d+ x i8\] c\"missing Environment", '[N x i8] c"missing Environment', ir)
    return re.sub(r"; ModuleID = .*|source_filename = .*", "", ir)


def compiled_functions(game: str) -> dict[str, str]:
    """The normalized LLVM IR of every signature compiled in this process of every compiled function of ``game``'s
    package and of the core: ``{"name(signature)": ir}``."""
    prefixes = (f"{PACKAGE}.games.{game}.", f"{PACKAGE}.core.")
    modules = [name for name in list(sys.modules) if name.startswith(prefixes)]
    found: dict[str, object] = {}
    for name in modules:
        for value in list(vars(sys.modules[name]).values()):
            if hasattr(value, "inspect_llvm") and hasattr(value, "signatures") and value.__module__ == name:
                found[f"{name}.{value.__name__}"] = value
    everything = [name for name in sys.modules if name.startswith(PACKAGE)]
    out: dict[str, str] = {}
    for qualified, f in sorted(found.items()):
        for sig in f.signatures:
            key = f"{f.__name__}{sig}"
            if key in out:  # the same name in two modules of the game: keep them apart
                key = f"{qualified}{sig}"
            out[key] = normalize(f.inspect_llvm(sig), everything)
    return out


def dump(game: str, path: Path, tree: Path | None = None) -> int:
    """Compile ``game``'s engine afresh in a new process and write its compiled functions' IR to ``path``; with
    ``tree``, the ``industry_env`` of that checkout (the commit before a change, say), not the one installed."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        if tree is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(tree.resolve()), *filter(None, [os.environ.get("PYTHONPATH")])])
        # this file run as a script: it imports nothing of the package before the tree's is on the path
        argv = [sys.executable, str(Path(__file__).resolve()), "--dump-here", game, str(path), str(tree or "")]
        return subprocess.run(argv, env=env, check=False).returncode


def _dump_here(game: str, path: str, tree: str) -> int:
    import industry_env
    from industry_env.warmup import warm_game

    source = Path(industry_env.__file__).resolve().parent
    if tree and not source.is_relative_to(Path(tree).resolve()):
        print(f"dump: {tree} has no industry_env that Python imports first (it imported {source})", file=sys.stderr)
        return 2
    warm_game(game, agents=False)
    functions = {"@source": str(source), **compiled_functions(game)}
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(functions, indent=0, sort_keys=True), encoding="utf-8")
    tmp.replace(path)
    print(f"{len(functions) - 1} compiled functions of {game} (name and signature), compiled from {source}, "
          f"written to {path}")  # fmt: skip
    return 0


_REFCOUNT = re.compile(r"^\s*(tail )?call void @NRT_(incref|decref)\(")


def _blocks(ir: str) -> list[tuple[list[str], list[str]]]:
    """``ir``'s lines by basic block: each block's other lines in order, and its reference-count calls sorted (calls
    on different objects commute, and LLVM may emit them in another order from one compile to the next)."""
    blocks: list[tuple[list[str], list[str]]] = [([], [])]
    for line in ir.splitlines():
        if re.match(r"^[\w.\"$-]+:", line):  # a label starts a block
            blocks.append(([], []))
        (blocks[-1][1] if _REFCOUNT.match(line) else blocks[-1][0]).append(line)
    return [(other, sorted(counts)) for other, counts in blocks]


def compare(before: Mapping[str, str], after: Mapping[str, str], renames: Mapping[str, str],
            show: int = 0) -> list[str]:
    """The lines of a report: each function only on one side, and each whose code differs (with its first ``show``
    changed lines); empty when every function of ``before`` (renamed by ``renames``, old name to new) is in
    ``after`` with the same code: the same instructions in the same order in every basic block, but for the order
    of its reference-count calls."""

    def renamed(text: str) -> str:
        for old, new in renames.items():
            text = re.sub(rf"MOD{len(old)}{re.escape(old)}(?=[0-9BE])", f"MOD{len(new)}{new}", text)
            text = re.sub(rf"(\.const\.|c\"){re.escape(old)}\b", rf"\g<1>{new}", text)
            text = re.sub(rf"(= pickled \(.*, ')({re.escape(old)})('\))$", rf"\g<1>{new}\g<3>", text, flags=re.M)
            text = text.replace(f'[{len(old) + 1} x i8] c"{new}\\00"', f'[{len(new) + 1} x i8] c"{new}\\00"')
        return text

    def key(k: str) -> str:
        name, sig = k.split("(", 1)
        return renames.get(name, name) + "(" + sig

    before, after = ({k: v for k, v in d.items() if not k.startswith("@")} for d in (before, after))
    old = {key(k): renamed(v) for k, v in before.items()}
    report = [f"only before: {k}" for k in sorted(set(old) - set(after))]
    report += [f"only after: {k}" for k in sorted(set(after) - set(old))]
    for k in sorted(set(old) & set(after)):
        if old[k] != after[k] and _blocks(old[k]) != _blocks(after[k]):
            diff = difflib.unified_diff(old[k].splitlines(), after[k].splitlines(), n=0, lineterm="")
            changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
            report.append(f"differs: {k} ({len(changed)} lines)")
            report += [f"    {line[:200]}" for line in changed[:show]]
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m industry_env.compiled_code", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="compile a game afresh and write its compiled functions' IR")
    d.add_argument("game")
    d.add_argument("file", type=Path)
    d.add_argument("--tree", type=Path, help="a checkout whose industry_env to compile (default: the one installed)")
    c = sub.add_parser("compare", help="compare two dumps; exit 1 if a function differs")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                   help="a function renamed by the change (repeatable)")  # fmt: skip
    c.add_argument("--show", type=int, default=4, help="changed lines shown per function (default 4)")
    args = parser.parse_args(argv)
    if args.command == "dump":
        from .registry import available_games

        games = available_games(include_hidden=True)
        if args.game not in games:
            parser.error(f"dump: no game {args.game!r}; the games: {', '.join(games)}")
        if not args.file.parent.is_dir():
            parser.error(f"dump: {args.file.parent} is not a folder")
        if args.tree is not None and not (args.tree / PACKAGE / "__init__.py").is_file():
            parser.error(f"dump: --tree {args.tree}: no {PACKAGE} package in it")
        return dump(args.game, args.file, args.tree)
    renames = {}
    for pair in args.rename:
        old, sep, new = pair.partition("=")
        if not (sep and old and new):
            parser.error(f"--rename {pair!r}: write OLD=NEW")
        renames[old] = new
    dumps = []
    for path in (args.before, args.after):
        try:
            dumps.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            parser.error(f"compare: {path}: not a dump written by `dump` ({exc})")
        if not isinstance(dumps[-1], dict):
            parser.error(f"compare: {path}: not a dump written by `dump` (a JSON object of functions' code)")
    before, after = dumps
    for path, d in ((args.before, before), (args.after, after)):
        print(f"{path}: {len(d) - ('@source' in d)} functions, compiled from {d.get('@source', '(not said)')}")
    report = compare(before, after, renames, args.show)
    print("\n".join(report) if report else f"the same code: {len(after) - ('@source' in after)} compiled functions")
    return 1 if report else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump-here"]:  # dump's new process (see dump), run as a script
        if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
            sys.path.pop(0)  # the package's own folder: its modules are not top-level ones
        sys.exit(_dump_here(*sys.argv[2:5]))
    sys.exit(main())
