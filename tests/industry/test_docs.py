"""Industry's docs stay in step with the code and the data: the generated board, the packaged rules text, the
action examples, the State's fields, and what the balance page says of the shipped policy."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from industry_env import load_board
from industry_env.games.industry.actions import action_to_string, string_to_action
from industry_env.games.industry.texts import board_markdown

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "industry"


def test_board_doc_is_generated_from_the_board_file() -> None:
    expected = board_markdown(load_board())
    assert (DOCS / "board.md").read_text() == expected, (
        "regenerate: industry-env board --markdown > docs/industry/board.md"
    )


def test_rules_doc_is_the_packaged_rules_text() -> None:
    packaged = resources.files("industry_env.games.industry.data").joinpath("rules.md").read_text()
    assert (DOCS / "rules.md").read_text() == packaged


def test_actions_doc_examples_hold() -> None:
    doc = (DOCS / "actions.md").read_text()
    assert 'string_to_action("pay Glass: player 2")   # 269' in doc
    assert string_to_action("pay Glass: player 2") == 269 and action_to_string(269) == "pay Glass: player 2"
    assert "(`3F` is field 29)" in doc and string_to_action("auction 3F") == 29


def test_engine_doc_lists_the_state_fields_of_the_one_declaration() -> None:
    from industry_env.games.industry.state import SCHEMA

    doc = (DOCS / "engine.md").read_text()
    assert SCHEMA.markdown() in doc
    assert f"{SCHEMA.bytes_per_game} bytes per game" in doc


def test_balance_doc_states_the_shipped_policys_training_as_training_md_records_it() -> None:
    """The shipped policy's second stage trained on board version 2 (training.md); balance.md must not say it is
    still to be retrained on version 2."""
    training = (ROOT / "docs" / "training.md").read_text()
    assert "8.8 M learner steps (board version 2)" in training
    balance = " ".join((DOCS / "balance.md").read_text().split())
    sentence = balance[balance.index("The shipped PPO policy") :].split(". ")[0]
    assert "retrained" not in sentence and "version 2" in sentence and "version 1" in sentence, sentence
