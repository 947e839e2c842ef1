"""The Age of Industry docs stay in step with the code: generated tables, the packaged rules text, the examples."""

from __future__ import annotations

import re
from pathlib import Path

from industry_env.games.age_of_industry import Game, load_components, load_map
from industry_env.games.age_of_industry.actions import action_space, ranges_markdown
from industry_env.games.age_of_industry.observation import layout_markdown
from industry_env.games.age_of_industry.texts import rules_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "age-of-industry"


def test_rules_doc_is_the_packaged_rules_text_and_every_cited_ruling_exists():
    text = (DOCS / "rules.md").read_text("utf-8")
    assert text == rules_text()
    rulings = {int(n) for n in re.findall(r"^(\d+)\. \*\*", text, flags=re.M)}
    assert rulings == set(range(1, max(rulings) + 1))
    code = "".join(p.read_text("utf-8") for p in (DOCS.parents[1] / "industry_env" / "games" / "age_of_industry")
                   .glob("*.py"))  # fmt: skip
    assert {int(n) for n in re.findall(r"ruling (\d+)", code)} <= rulings


def test_actions_and_observation_docs_hold_the_generated_tables_and_their_example():
    c = load_components()
    actions = (DOCS / "actions.md").read_text("utf-8")
    observation = (DOCS / "observation.md").read_text("utf-8")
    for name in ("germany", "new_england"):
        m = load_map(name)
        assert ranges_markdown(action_space(c, m)) in actions
        assert layout_markdown(c, m) in observation
    g = Game(4, 0, "germany")
    koln = g.string_to_action("build cotton_mill at Köln:1")
    assert f'game.string_to_action("build cotton_mill at Köln:1")   # {koln}' in actions
    assert f"game.action_to_string(24)                              # '{g.action_to_string(24)}'" in actions
