"""The suite's documents stay in step: the README's commands are the ones CI runs, every figure has its source,
every link resolves, the notebooks are saved executed (each game's own docs: tests/<game>/test_docs.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from industry_env import load_board

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and "make test" in ci
    assert "make demo" in readme


def test_no_project_file_points_outside_the_repository() -> None:
    """Users have the repository only: docs and code cite the published rulebook, never a local folder of ours."""
    import re
    import subprocess

    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    pattern = re.compile(r"shared/(seeds|industry-board-facts|style)")
    offenders = [f for f in files if f != "tests/test_docs.py" and (ROOT / f).is_file()
                 and pattern.search((ROOT / f).read_text(encoding="utf-8", errors="ignore"))]  # fmt: skip
    assert offenders == []


def test_docs_figures_are_the_ones_the_code_draws_now() -> None:
    """docs/industry/board-example.{svg,png} come from `python -m industry_env.docfigures`: same position, board
    version, drawing and files as figures.json records, and the caption in records.md is the position's."""
    pytest.importorskip("matplotlib")
    from industry_env import docfigures

    assert docfigures.check() == []
    sidecar = json.loads((ROOT / "docs" / "figures.json").read_text())
    example = sidecar["board-example"]
    assert example["source"]["board_version"] == load_board().version
    assert f"![{example['caption']}](industry/board-example.svg)" in (ROOT / "docs" / "records.md").read_text()


def test_every_figure_the_docs_show_is_listed_with_its_source() -> None:
    """Each image README.md or docs/*.md shows is made by docfigures or listed in figures.json with its source."""
    sidecar = json.loads((ROOT / "docs" / "figures.json").read_text())
    entries = [e for e in sidecar.values() if isinstance(e, dict)]
    listed = {Path(f).name for e in entries for f in e.get("files", [e.get("file")])}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page.read_text()):
            assert Path(target).name in listed, f"{page.name} shows {target}, which figures.json does not list"


def test_every_relative_link_of_the_readme_and_the_docs_names_a_file_of_the_repository() -> None:
    """The docs moved into one layout (each game's in docs/<game>/, the suite's at the top): a link to a page, a
    picture or a source file that a move left behind is found here, not by a reader."""
    broken = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = m.group(1).split("#")[0]
            if target and not re.match(r"[a-z]+:", target) and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(1)}")
    assert broken == []


def test_committed_notebooks_are_executed_small_and_free_of_volatile_metadata() -> None:
    """A reader on GitHub sees each notebook's outputs: `make notebooks` saves them executed (CI runs them again
    with nbmake); every code cell has an output, none is an error, plots are PNG, and a notebook stays < 300 kB."""
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 4
    for path in notebooks:
        assert path.stat().st_size < 300_000, f"{path.name}: {path.stat().st_size} bytes; keep outputs small"
        nb = json.loads(path.read_text())
        assert nb["metadata"].get("language_info") == {"name": "python"}, f"{path.name}: kernel version details"
        images = 0
        for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
            where = f"{path.name}, code cell {i + 1}"
            assert cell.get("execution_count") and cell["outputs"], f"{where}: not executed (run make notebooks)"
            assert "execution" not in cell["metadata"], f"{where}: execution timings saved"
            assert all(o["output_type"] != "error" for o in cell["outputs"]), f"{where}: saved with an error"
            for out in cell["outputs"]:
                data = out.get("data", {})
                assert "image/svg+xml" not in data, f"{where}: plots are saved as PNG"
                images += "image/png" in data
        if "plt." in path.read_text() or "plot(" in path.read_text() or "picture.show" in path.read_text():
            assert images, f"{path.name}: draws a plot but saved no image"


def test_learning_curves_have_readable_fonts_and_a_plain_step_axis(monkeypatch) -> None:
    """docs/training-curves.png had 7-point ticks and an x axis labelled "1e7": steps are in millions, fonts >= 9."""
    pytest.importorskip("matplotlib")
    from industry_env.train import curves

    steps = [i * 400_000 for i in range(31)]
    fake = {tag: [(k, 0.3) for k in steps] for tag in ("eval/win_rate", "eval/win_ci_low", "eval/win_ci_high",
                                                       "rollout/ep_rew_mean", "train/entropy_loss")}  # fmt: skip
    monkeypatch.setattr(curves, "scalars", lambda run_dir: fake)
    fig = curves.plot_curves("unused")
    fig.canvas.draw()
    for ax in fig.axes:
        assert ax.get_xlabel() == "learner steps (millions)"
        assert ax.xaxis.get_offset_text().get_text() == ""  # no "1e7" beside the axis
        labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        values = [float(t.replace("−", "-")) for t in labels]  # millions, not steps
        assert 10 <= max(values) <= 15
        assert min(t.get_fontsize() for t in ax.get_xticklabels()) >= 9 and ax.title.get_fontsize() >= 10


def test_make_demo_installs_what_the_readmes_next_commands_need_and_compiles_first() -> None:
    """make demo installed no extras, so the README's next commands stopped (arena's plot, replay --gif); and the
    first command compiled for minutes unannounced: the demo runs industry-env warmup first."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("$(VENV)/.installed: pyproject.toml")[1].split("\n\n")[0]
    extras = re.search(r"install --quiet -e '\.\[([a-z,]+)\]'", recipe)
    assert extras and {"render", "arena", "fast"} <= set(extras.group(1).split(","))
    demo = makefile.split("\ndemo: install")[1].split("\n\n")[0].splitlines()[1:]
    warmup = makefile.split("\nWARMUP := ")[1].split("\n\n")[0]
    assert [line.strip() for line in demo] == ["@$(WARMUP)", "$(BIN)/industry-env demo"]
    games = makefile.split("\nGAMES_CMD := ")[1].splitlines()[0]
    assert "industry-env warmup --game" in warmup and "$(GAMES_CMD)" in warmup and "print(*a())" in games
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start")[1].split("## The environments")[0]
    assert "industry-env warmup" in quick and "min" in quick and "'.[fast,render,arena]'" in quick


def test_package_descriptions_name_every_game_not_industry_alone() -> None:
    """The pyproject description and the package docstrings described Industry alone after Age of Industry came."""
    import ast
    import tomllib

    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    assert "Industry" in description and "Age of Industry" in description and "20th Century" in description
    for path in (
        "industry_env/__init__.py",
        "agents/__init__.py",
        "train/__init__.py",
        "industry_env/rllib/__init__.py",
    ):
        first = " ".join(ast.get_docstring(ast.parse((ROOT / path).read_text())).split("\n\n")[0].split())
        assert "suite" in first or "Age of Industry" in first, (path, first)
    readme = (ROOT / "README.md").read_text().split("## Quick start")[0]
    first = readme.split("\n\n")[1]
    assert "Age of Industry" in first and "20th Century" in first  # the first paragraph names every game


def test_learning_curves_take_the_fair_share_and_opponents_from_the_runs_players(monkeypatch, tmp_path) -> None:
    """The win-rate panel's fair share was 0.25 and its label "against 3" whatever the run's number of players."""
    pytest.importorskip("matplotlib")
    from industry_env.train import curves

    fake = {tag: [(k, 0.3) for k in (0, 1000)] for tag in ("eval/win_rate", "eval/win_ci_low", "eval/win_ci_high")}
    monkeypatch.setattr(curves, "scalars", lambda run_dir: fake)
    (tmp_path / "config.toml").write_text('num_players = 5\neval_opponent = "random"\n', encoding="utf-8")
    ax = curves.plot_curves(tmp_path).axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()][0] == "against 4 × random"
    assert {round(y, 6) for line in ax.get_lines() for y in line.get_ydata() if line.get_linestyle() == "--"} == {0.2}


def test_the_environments_page_gives_each_games_sizes_as_its_spec_says() -> None:
    from industry_env.registry import available_games, load_game

    text = (ROOT / "docs" / "environments.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    for game in available_games(include_hidden=True):
        spec = load_game(game)
        mine = [r for r in rows if r.startswith(f"| `{game}`")]
        assert mine, f"docs/environments.md: no sizes row for {game}"
        for row in mine:
            cells = [c.strip() for c in row.split("|")[1:-1]]
            options = dict(re.findall(r'(\w+)="(\w+)"', cells[0]))
            assert cells[1] == f"{spec.min_players}-{spec.max_players}", row
            assert cells[2] == f"{spec.observation_size(**options):,}", row
            assert cells[3] == f"{spec.num_actions(**options):,}", row
            assert cells[4] == f"`{spec.gym_id}`", row


def test_the_readme_lists_every_notebook_and_says_how_to_open_them() -> None:
    """The README's list of notebooks left out 06_twentieth_century, and nothing installed Jupyter."""
    import tomllib

    readme = (ROOT / "README.md").read_text()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert f"(notebooks/{path.name})" in readme, f"README.md does not list notebooks/{path.name}"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    notebooks = " ".join(extras["notebooks"])
    assert "jupyterlab" in notebooks and "pip install -e '.[notebooks]'" in readme
    # what the notebooks import beyond the core: training (torch, tensorboard), pictures and plots, the arena
    wanted = {"train": ("torch", "stable-baselines3"), "render": ("matplotlib",), "arena": ("openskill",)}
    for extra, packages in wanted.items():
        assert extra in notebooks.split("[")[1].split("]")[0].split(","), extra
        assert all(any(d.startswith(p) for d in extras[extra]) for p in packages), extra


def _publisher_year(citation: str) -> str:
    """"Treefrog Games 2010" from "Martin Wallace, Age of Industry (Treefrog Games 2010, second edition)"."""
    return re.search(r"\(([^;,)]*\d{4})", citation).group(1)


def test_each_games_publisher_and_year_are_the_specs_wherever_the_readme_and_notebooks_name_them() -> None:
    """The README, the web page (spec.citation) and notebook 06 gave different publishers and years for a game."""
    from industry_env.registry import available_games, load_game

    texts = {"README.md": (ROOT / "README.md").read_text()}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        texts[path.name] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    checked = 0
    for game in available_games():
        spec = load_game(game)
        given = _publisher_year(spec.citation)
        for where, text in texts.items():
            for m in re.finditer(rf"\*{{1,2}}{re.escape(spec.name)}\*{{1,2}} \(([^)]*)\)", text):
                assert m.group(1).startswith(given), f"{where}: {m.group(0)} (the game's spec: {spec.citation})"
                checked += 1
    assert checked >= 5
    assert _publisher_year(load_game("industry").citation) == "Ystari 2009"  # the English rulebook's publisher
