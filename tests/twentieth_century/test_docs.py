"""docs/twentieth-century/ matches the code: the rules text shipped with the package, the generated components
tables, the action blocks, the observation pieces, and every ruling the code cites."""

from __future__ import annotations

import re
from pathlib import Path

from industry_env import load_game
from industry_env.games.twentieth_century.actions import BLOCKS, OFFSET
from industry_env.games.twentieth_century.tools import components_markdown, rules_text

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "twentieth-century"
CODE = ROOT / "industry_env" / "games" / "twentieth_century"


def test_the_rules_page_is_the_shipped_rules_text():
    assert (DOCS / "rules.md").read_text("utf-8") == rules_text()
    assert load_game("twentieth_century").rules_text() == rules_text()


def test_the_components_page_is_generated_from_the_data():
    assert (DOCS / "components.md").read_text("utf-8") == components_markdown()


def test_the_actions_page_lists_every_block_at_its_offset():
    text = (DOCS / "actions.md").read_text("utf-8")
    for name, size in BLOCKS:
        assert re.search(rf"^\| {name} \| {OFFSET[name]} \| {size} \|", text, re.M), name


def test_the_observation_page_lists_every_piece_at_its_offset():
    text = (DOCS / "observation.md").read_text("utf-8")
    spec = load_game("twentieth_century")
    assert f"**{spec.observation_size():,}** entries" in text
    for p in spec.observation_layout():
        assert f"| {p.name} | {p.offset} | {'x'.join(map(str, p.shape))} |" in text, p.name


def test_every_ruling_the_code_cites_is_written():
    rulings = set(map(int, re.findall(r"^(\d+)\. \*\*", (DOCS / "rules.md").read_text("utf-8"), re.M)))
    assert rulings == set(range(1, 41))
    cited = {int(n) for f in CODE.glob("*.py") for n in re.findall(r"rulings? (\d+)", f.read_text("utf-8"))}
    assert cited and cited <= rulings
