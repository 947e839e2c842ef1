"""Modules moved into the suite's layout keep their old names for one release: the very module, with a warning."""

import importlib
import subprocess
import sys

import pytest

MOVED = {
    "industry_env.engine": "industry_env.games.industry.engine",
    "industry_env.reference": "industry_env.games.industry.reference",
    "industry_env.kernel": "industry_env.games.industry.kernel",
    "industry_env.numba_cache": "industry_env.core.numba_cache",
    "industry_env.agents.heuristic": "industry_env.agents.industry.heuristic",
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_name_is_the_moved_module_itself(old):
    with pytest.warns(DeprecationWarning, match="has moved to") if old not in sys.modules else _nothing():
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__name__ == MOVED[old]  # the module keeps its own name and spec: pickles and numba caches agree


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_old_names_warn_once_and_monkeypatching_through_them_reaches_the_rules():
    code = (
        "import warnings; warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    from industry_env import engine as old\n"
        "    import industry_env.reference\n"
        "from industry_env.games.industry import engine as new\n"
        "assert old is new and industry_env.reference.Game is new.Game\n"
        "old.MARKER = 1; assert new.MARKER == 1\n"
        "msgs = [str(x.message) for x in w if x.category is DeprecationWarning]\n"
        "assert any('industry_env.engine has moved to industry_env.games.industry.engine' in m for m in msgs), msgs\n"
        "from industry_env.reference import Game; Game(3)\n"
        "from industry_env.agents.heuristic import HeuristicAgent\n"
        "from industry_env.agents import HeuristicAgent as H2; assert HeuristicAgent is H2\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
