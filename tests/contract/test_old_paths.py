"""Modules moved into the suite's layout keep their old names for one release: the very module, with a warning."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

MOVED = {
    "industry_env.engine": "industry_env.games.industry.engine",
    "industry_env.reference": "industry_env.games.industry.reference",
    "industry_env.kernel": "industry_env.games.industry.kernel",
    "industry_env.numba_cache": "industry_env.core.numba_cache",
    "industry_env.agents.heuristic": "industry_env.agents.industry.heuristic",
    "industry_env.data": "industry_env.games.industry.data",
    "industry_env.board": "industry_env.games.industry.components",
    "industry_env.games.industry.board": "industry_env.games.industry.components",
    "industry_env.games.industry.boarddoc": "industry_env.games.industry.texts",
    "industry_env.games.age_of_industry.tools": "industry_env.games.age_of_industry.texts",
    "industry_env.games.twentieth_century.tools": "industry_env.games.twentieth_century.texts",
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


@pytest.mark.filterwarnings("ignore:board file")  # the shipped board's documented long links
def test_a_path_into_the_old_data_folder_still_loads_the_board_and_the_policy_it_named(tmp_path):
    """Industry's data moved from industry_env/data/ into its game's package: a board or policy path a user typed or
    saved before the move (a checkout's ``industry_env/data/board.toml``) loads the moved file, with a warning."""
    from importlib import resources

    from industry_env.agents import make_agent

    from industry_env.games.industry.components import load_board

    old = Path(__file__).resolve().parents[2] / "industry_env" / "data"
    assert not old.exists()
    with pytest.warns(DeprecationWarning, match="industry_env/data/ has moved to industry_env/games/industry/data/"):
        board = load_board(old / "board.toml")
    assert board.sha256 == load_board().sha256
    with pytest.warns(DeprecationWarning, match="has moved to"):
        agent = make_agent("ppo", path=str(old / "ppo_industry.npz"))
    assert agent.options == make_agent("ppo").options
    shipped = resources.files("industry_env.data").joinpath("ppo_industry.npz")  # the old package name, too
    assert shipped.is_file()
    with pytest.raises(Exception, match="no such file"):  # a file the old folder never had stays missing
        make_agent("ppo", path=str(old / "nothing.npz"))
