"""The industry-env command: the terminal game answers bad input and plays to the end; errors are clear."""

from __future__ import annotations

import io

import pytest

from industry_env.cli import build_parser, cmd_play, main


def play(lines: list[str], *argv: str) -> str:
    args = build_parser().parse_args(["play", "--record", "none", *argv])
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out) == 0
    return out.getvalue()


def test_play_answers_bad_input_and_reaches_the_end() -> None:
    text = play(
        ["foo", "99", "bid 1000", "develop 9Z", "board", "help", *["0"] * 3000], "--players", "3", "--seed", "2"
    )
    assert "'foo' is neither a choice nor a command" in text
    assert "there is no choice [99]" in text
    assert "bid 1000 is out of range" in text
    assert "not a field: '9z'" in text.lower()
    assert "game over" in text
    assert "Traceback" not in text


def test_play_refuses_a_legal_looking_but_illegal_action() -> None:
    # Player 0 is not the auctioneer at the start of seed 2: 'keep' is not legal for a bidder.
    text = play(["keep", "quit"], "--players", "3", "--seed", "2")
    assert "'keep' is not legal now" in text


def test_play_ends_quietly_at_end_of_input() -> None:
    assert "end of input" in play(["0"], "--players", "4")


def test_play_reports_who_claims_each_field() -> None:
    text = play(["0"] * 40 + ["quit"], "--players", "4", "--seed", "1")
    assert "claims" in text


def test_board_command_names_the_file_field_and_problem(tmp_path, capsys) -> None:
    from importlib import resources

    text = resources.files("industry_env.data").joinpath("board.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('kind = "technology"\nname = "Engineering"', 'kind = "castle"\nname = "Engineering"'))
    assert main(["board", "--board", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "field 1L" in err and "castle" in err


def test_wrong_option_is_a_clear_error(capsys) -> None:
    assert main(["demo", "--games", "1", "--seed", "-3"]) == 2
    assert "seed=-3" in capsys.readouterr().err
    assert main(["play", "--players", "5"]) == 2  # the game's spec checks the players, naming the option
    assert "--players=5" in capsys.readouterr().err


def test_demo_plays_and_reports_speed(capsys) -> None:
    assert main(["demo", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 random games" in out and "decisions/s" in out and "game over" in out


def test_rules_prints_the_rulings(capsys) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "## Rulings" in out and "keep** is legal only if he holds at least the highest bid" in out


def test_board_prints_every_field(capsys) -> None:
    assert main(["board"]) == 0
    out = capsys.readouterr().out
    assert "Iron Ore Mine" in out and "Engineering" in out and out.count("\n") > 60


def test_play_against_heuristic_opponents_reaches_the_end() -> None:
    text = play(["0"] * 3000, "--players", "4", "--seed", "3", "--opponents", "heuristic", "--seat", "2")
    assert "You are player 2" in text and "game over" in text


def test_rules_and_board_take_a_game(capsys) -> None:
    from industry_env.cli import main

    assert main(["rules", "--game", "age_of_industry"]) == 0
    assert capsys.readouterr().out.startswith("# Age of Industry: the rules as implemented")
    assert main(["board", "--game", "age_of_industry"]) == 0
    assert "# Age of Industry: the components as implemented" in capsys.readouterr().out
    assert main(["board", "--game", "age_of_industry", "--template", "x.toml"]) == 2
    assert "Industry's board file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["rules", "--game", "chess"])
    assert exc.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err


def test_warmup_readies_each_game_with_an_engine(capsys) -> None:
    from industry_env.cli import main
    from industry_env.registry import available_games, load_game

    assert main(["warmup", "--no-agents"]) == 0
    out = capsys.readouterr().out
    for game in available_games(include_hidden=True):
        spec = load_game(game)
        assert (f"{spec.name}: ready" in out) == (spec.engine_module is not None) or spec.engine_module is None
