"""``python -m industry_env.compiled_code``: a change that only moves and renames compiled functions compares
equal, and a changed instruction does not."""

from __future__ import annotations

import json

import pytest

from industry_env import compiled_code as C

MODULES = ["industry_env.games.nim.kernel", "industry_env.games.nim.kernel_rules"]
CALL = "  %r = call i64 @_ZN12industry_env5games3nim{symbol}B3v{k}B38c8tJTIeFIE5ArrayIaLi1E1C7mutable7alignedEx(ptr %a)"


def ir(module: str, name: str, k: int, op: str = "add") -> str:
    """A function's IR calling ``name`` of Nim's ``module`` (names mangled as numba does), after ``k`` functions
    compiled in its process."""
    symbol = f"{len(module)}{module}{len(name)}{name}"
    return "\n".join([f"; ModuleID = '{module}'", CALL.format(symbol=symbol, k=k), f"  %s = {op} i64 %r, 1",
                      f'@.const.{name} = internal constant [{len(name) + 1} x i8] c"{name}\\00"'])  # fmt: skip


def test_a_function_moved_to_another_module_and_renamed_is_the_same_code() -> None:
    before = {"step(int64)": C.normalize(ir("kernel", "_rule", 12), MODULES)}
    after = {"step(int64)": C.normalize(ir("kernel_rules", "rule", 40), MODULES)}
    assert C.compare(before, after, {}) != []  # the call's name differs until the rename is given
    assert C.compare(before, after, {"_rule": "rule"}) == []


def test_a_changed_instruction_is_reported_with_its_lines() -> None:
    before = {"step(int64)": C.normalize(ir("kernel", "rule", 1), MODULES)}
    after = {"step(int64)": C.normalize(ir("kernel", "rule", 1, op="sub"), MODULES)}
    report = C.compare(before, after, {}, show=4)
    assert report[0] == "differs: step(int64) (2 lines)"
    assert [line.strip()[:5] for line in report[1:]] == ["-  %s", "+  %s"]


def test_a_function_gone_or_new_is_reported() -> None:
    same = C.normalize(ir("kernel", "rule", 1), MODULES)
    assert C.compare({"a(int64)": same}, {"b(int64)": same}, {}) == ["only before: a(int64)", "only after: b(int64)"]


@pytest.mark.slow
def test_two_fresh_compiles_of_the_template_game_dump_the_same_code(tmp_path) -> None:
    for name in ("one", "two"):
        assert C.dump("nim", tmp_path / f"{name}.json") == 0
    one, two = (json.loads((tmp_path / f"{n}.json").read_text(encoding="utf-8")) for n in ("one", "two"))
    assert len(one) >= 6 and C.compare(one, two, {}) == []
    assert C.main(["compare", str(tmp_path / "one.json"), str(tmp_path / "two.json")]) == 0


def test_reference_counts_in_another_order_are_the_same_code_and_other_instructions_are_not() -> None:
    block = ["B1:", "  tail call void @NRT_incref(ptr %a)", "  tail call void @NRT_incref(ptr %b)",
             "  %x = add i64 %a, 1", "  %y = mul i64 %x, 2"]  # fmt: skip
    swapped_counts = [block[0], block[2], block[1], *block[3:]]
    swapped_math = [*block[:3], block[4], block[3]]
    assert C.compare({"f()": "\n".join(block)}, {"f()": "\n".join(swapped_counts)}, {}) == []
    assert C.compare({"f()": "\n".join(block)}, {"f()": "\n".join(swapped_math)}, {})[0].startswith("differs: f()")


def test_a_raised_exception_compares_by_class_message_and_function_not_by_file_and_line() -> None:
    import pickle

    def constant(where: str, line: int, message: str = "no coal") -> str:
        data = pickle.dumps((ValueError, (message,), ("_deliver", where, line)))
        escaped = "".join(chr(b) if 32 <= b < 127 and b not in b'"\\' else f"\\{b:02X}" for b in data)
        sha = f"{abs(hash((where, line, message))):040x}"[:40]
        definition = f'@.const.pickledata.{sha} = internal constant [{len(data)} x i8] c"{escaped}"'
        return f"{definition}\n  call @r(@.const.pickledata.{sha})"

    places = (("/a/kernel.py", 537), ("/a/kernel_actions.py", 90))
    kernel, moved = (C.normalize(constant(f, n), MODULES) for f, n in places)
    assert kernel == moved and "no coal" in kernel
    other = C.normalize(constant("/a/kernel.py", 537, "no iron"), MODULES)
    assert C.compare({"f()": kernel}, {"f()": other}, {}) != []


def test_bad_input_names_the_file_or_the_game(tmp_path, capsys) -> None:
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    for argv, said in ((["compare", str(tmp_path / "none.json"), str(tmp_path / "list.json")], "none.json"),
                       (["compare", str(tmp_path / "list.json"), str(tmp_path / "list.json")], "list.json"),
                       (["dump", "chess", str(tmp_path / "x.json")], "no game 'chess'")):  # fmt: skip
        with pytest.raises(SystemExit) as exit_:
            C.main(argv)
        assert exit_.value.code == 2 and said in capsys.readouterr().err


def test_a_copy_named_after_its_kernel_is_the_same_code_as_the_kernels_own_function() -> None:
    """core.batch_entries names a game's copy of a loop after the game's kernel (its cache file): the template game's
    loops, moved to core, compiled to the same code as its own had (python -m industry_env.compiled_code compare)."""
    own = ir("kernel", "step_range", 3)
    kernel = "industry_env.games.nim.kernel"
    qualified = C.mangled(f"{kernel}.step_range")  # numba spells the qualified name part by part
    copy = own.replace("6kernel10step_rangeB3v3", f"6kernel{qualified}B3v9").replace(
        "step_range = internal constant [11 x i8] c\"step_range", f"{kernel}.step_range = internal constant [41 x i8] "
        f"c\"{kernel}.step_range")
    assert copy != own
    modules = [*MODULES, kernel]
    assert C.compare({"f()": C.normalize(own, modules)}, {"f()": C.normalize(copy, modules)}, {}) == []
