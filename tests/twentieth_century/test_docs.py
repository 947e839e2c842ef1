"""docs/twentieth-century/ matches the code: the rules text shipped with the package, the generated components
tables, the action blocks, the observation pieces, and every ruling the code cites."""

from __future__ import annotations

import re
from pathlib import Path

from industry_env import load_game
from industry_env.games.twentieth_century.actions import BLOCKS, OFFSET
from industry_env.games.twentieth_century.texts import components_markdown, rules_text

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


def _clause_ids(text: str) -> set[str]:
    """Clause ids as the rules page writes them in bold: 'S1', 'S7-S9', 'X2, X4' (a range is expanded)."""
    out = set()
    for group in re.findall(r"\*\*([A-Z]\d+(?:(?:, |-)[A-Z]\d+)*)\*\*", text):
        for part in group.split(", "):
            first, _, last = part.partition("-")
            out |= {f"{first[0]}{k}" for k in range(int(first[1:]), int((last or first)[1:]) + 1)}
    return out


def _tested_ids() -> set[str]:
    """Clause ids named by the tests: test_A8_A12_W22_... or a range, test_M2_to_M5_..."""
    out = set()
    for f in Path(__file__).parent.glob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)", f.read_text("utf-8"), re.M):
            for first, last in re.findall(r"(?<=_)([A-Z]\d+)(?:_to_([A-Z]\d+))?(?=_)", name):
                out |= {f"{first[0]}{k}" for k in range(int(first[1:]), int((last or first)[1:]) + 1)}
    return out


def test_every_rule_clause_of_the_rules_page_has_a_test_named_after_it():
    clauses = _clause_ids((DOCS / "rules.md").read_text("utf-8").split("## Rulings")[0])
    assert len(clauses) > 80 and {"T2", "X1", "Q4", "B1"} <= clauses
    assert sorted(clauses - _tested_ids()) == []
