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

    text = resources.files("industry_env.games.industry.data").joinpath("board.toml").read_text()
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


def test_rules_and_board_take_a_game(capsys, tmp_path) -> None:
    from industry_env.cli import main

    assert main(["rules", "--game", "age_of_industry"]) == 0
    assert capsys.readouterr().out.startswith("# Age of Industry: the rules as implemented")
    assert main(["board", "--game", "age_of_industry"]) == 0
    assert "# Age of Industry: the components as implemented" in capsys.readouterr().out
    assert main(["board", "--game", "age_of_industry", "--board", "x.toml"]) == 2
    assert "Industry's board file" in capsys.readouterr().err


def test_board_writes_age_of_industry_templates_as_its_data_files_say(capsys, tmp_path) -> None:
    """The map files say `industry-env board --game age_of_industry --map NAME --template FILE`: it writes."""
    from industry_env.cli import main

    assert main(["board", "--game", "age_of_industry", "--map", "new_england"]) == 0
    assert "## Map: New England" in capsys.readouterr().out
    for what in ("germany", "new_england", None):
        target = tmp_path / f"{what or 'components'}.toml"
        extra = ["--map", what] if what else []
        assert main(["board", "--game", "age_of_industry", *extra, "--template", str(target)]) == 0
        assert target.read_text(encoding="utf-8").strip()
        assert main(["board", "--game", "age_of_industry", *extra, "--template", str(target)]) == 2
        assert "the file exists" in capsys.readouterr().err
    assert main(["board", "--game", "age_of_industry", "--map", "mars"]) == 2
    assert "--map 'mars'" in capsys.readouterr().err
    assert main(["board", "--map", "germany"]) == 2
    assert "Industry has one board" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["rules", "--game", "chess"])
    assert exc.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err


def test_warmup_readies_each_listed_game_with_an_engine_and_a_game_still_being_built_when_named(capsys) -> None:
    from industry_env.cli import main
    from industry_env.registry import available_games, load_game

    assert main(["warmup", "--no-agents"]) == 0
    out = capsys.readouterr().out
    for game in available_games(include_hidden=True):
        spec = load_game(game)
        listed = game in available_games()
        assert (f"{spec.name}: ready" in out) == (listed and spec.engine_module is not None)
    hidden = [g for g in available_games(include_hidden=True) if g not in available_games()]
    for game in hidden:
        spec = load_game(game)
        assert main(["warmup", "--no-agents", "--game", game]) == 0
        assert (f"{spec.name}: ready" in capsys.readouterr().out) == (spec.engine_module is not None)


def _subcommands() -> dict:
    import argparse

    from industry_env.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {"": parser, **action.choices}


def test_every_subcommand_takes_game_and_no_parser_abbreviates() -> None:
    """`balance --game X` was read as `--games X` (an abbreviation), `train --game X` was refused: every
    subcommand has `--game`, and no parser expands an abbreviated option."""
    for name, parser in _subcommands().items():
        assert parser.allow_abbrev is False, name
        if name:
            assert "--game" in {o for a in parser._actions for o in a.option_strings}, name
    from industry_env.cli import build_parser

    for argv in (["balance", "--game", "age_of_industry"], ["train", "--game", "age_of_industry"],
                 ["replay", "x.json", "--game", "age_of_industry"], ["verify", "--game", "age_of_industry"],
                 ["bench", "--game", "age_of_industry"], ["warmup", "--game", "age_of_industry"],
                 ["board", "--game", "age_of_industry"], ["rules", "--game", "age_of_industry"],
                 ["demo", "--game", "age_of_industry"], ["play", "--game", "age_of_industry"],
                 ["arena", "--agents", "random,random", "--game", "age_of_industry"]):  # fmt: skip
        args = build_parser().parse_args(argv)
        assert args.game in ("age_of_industry", ["age_of_industry"]), argv
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["arena", "--agents", "random,random", "--gam", "industry"])
    assert exc.value.code == 2


def test_balance_refuses_a_game_without_the_tool_by_name(capsys) -> None:
    """`balance --help` says every subcommand takes --game: a game without the tool is refused by name, before
    anything runs."""
    from industry_env.cli import main
    from industry_env.registry import load_game

    assert "balance" not in load_game("twentieth_century").tools
    assert main(["balance", "--game", "twentieth_century", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert ("--game twentieth_century: balance is a tool of Industry, Age of Industry; 20th Century has no balance "
            "tool") in err


def test_balance_of_age_of_industry_gives_points_and_loans_unpaid(capsys, tmp_path) -> None:
    """Age of Industry's players ended in debt, and the measure of it was not a command."""
    import json

    from industry_env.cli import main

    out = tmp_path / "b.json"
    assert main(["balance", "--game", "age_of_industry", "--games", "1", "--players", "3", "--policies", "random",
                 "--output", str(out)]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "loans unpaid" in text and "new_england" in text and "germany" in text
    assert json.loads(out.read_text())


@pytest.mark.parametrize("game", ["industry", "age_of_industry", "twentieth_century"])
def test_demo_prints_each_games_points_by_source(capsys, monkeypatch, game: str) -> None:
    """`demo --game twentieth_century` printed only totals where the others printed points by source."""
    from industry_env.cli import main
    from industry_env.registry import load_game

    spec = load_game(game)
    monkeypatch.setattr(spec, "engine_module", None)  # the reference games only: no compile in a test
    assert main(["demo", "--game", game, "--games", "1", "--players", str(spec.min_players)]) == 0
    out = capsys.readouterr().out
    final = out[out.index("final scores:") :]
    assert "total" in final and "wins" in final
    sources = {"industry": ("development", "roads", "tech links"), "age_of_industry": ("money", "industries"),
               "twentieth_century": ("production", "land tiles", "pollution track", "coins ranking",
                                     "round II card")}[game]  # fmt: skip
    for source in sources:
        assert source in final, (game, source)


def test_board_checks_prints_and_templates_20th_century_data_as_for_every_game(capsys, tmp_path) -> None:
    """`board --game twentieth_century --board FILE` said '20th Century has no data files to check or type in
    yet' while its docs told owners to type their tiles in: it writes both files' templates, checks them, names
    every problem, and plays on the tiles file."""
    from industry_env.cli import main

    tiles, components = tmp_path / "my-tiles.toml", tmp_path / "my-components.toml"
    assert main(["board", "--game", "twentieth_century", "--template", str(tiles)]) == 0
    assert f"--board {tiles}" in capsys.readouterr().out and "printed" in tiles.read_text(encoding="utf-8")
    assert main(["board", "--game", "twentieth_century", "--part", "components", "--template", str(components)]) == 0
    assert f"--board {components} --part components" in capsys.readouterr().out
    assert main(["board", "--game", "twentieth_century", "--template", str(tiles)]) == 2
    assert "the file exists" in capsys.readouterr().err
    for path, part in ((tiles, []), (components, ["--part", "components"])):
        assert main(["board", "--game", "twentieth_century", "--board", str(path), *part]) == 0
        out, err = capsys.readouterr()
        assert "## Land tiles" in out and "| L01 |" in out and f"checked {path}: no problem found" in err
    assert main(["board", "--game", "twentieth_century", "--board", str(components)]) == 2
    assert "looks like a components file: add --part components" in capsys.readouterr().err
    tiles.write_text(tiles.read_text(encoding="utf-8").replace('id = "L07"', 'id = "L07"\nstack2 = 1', 1))
    assert main(["board", "--game", "twentieth_century", "--board", str(tiles)]) == 2
    err = capsys.readouterr().err
    assert tiles.name in err and "L07" in err and "stack2" in err
    assert main(["board", "--game", "twentieth_century"]) == 0
    assert "# 20th Century: the components as implemented" in capsys.readouterr().out
    for bad, says in ((["--map", "germany"], "--map: 20th Century has no maps"), (["--part", "maps"],
                      "--part 'maps'")):  # fmt: skip
        assert main(["board", "--game", "twentieth_century", *bad]) == 2
        assert says in capsys.readouterr().err
    for game in ("industry", "age_of_industry"):
        assert main(["board", "--game", game, "--part", "components"]) == 2
        assert "--part:" in capsys.readouterr().err


def test_train_game_option_is_set_game(capsys) -> None:
    from industry_env.cli import main

    assert main(["train", "--game", "age_of_industry", "--show-config"]) == 0
    assert 'game = "age_of_industry"' in capsys.readouterr().out
    assert main(["train", "--game", "age_of_industry", "--set", "game=industry", "--show-config"]) == 2
    assert "two games" in capsys.readouterr().err


def test_replay_game_option_must_match_the_record(tmp_path, capsys) -> None:
    from industry_env.cli import main
    from industry_env.records import Recorder

    path = tmp_path / "g.json"
    Recorder(4, 0, game="industry").record().save(path)
    assert main(["replay", str(path), "--game", "age_of_industry"]) == 2
    assert "is a game of Industry (industry), not of Age of Industry" in capsys.readouterr().err
    assert main(["replay", str(path), "--game", "industry"]) == 0


def test_verify_prints_its_result_line_once(capsys) -> None:
    from industry_env.cli import main

    assert main(["verify", "--games", "2", "--chunk", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("checked 2 games") == 1 and "OK: checked 2 games" in out


def test_help_names_every_game_and_subcommand() -> None:
    import industry_env.cli as cli
    from industry_env.registry import available_games, load_game

    text = cli.build_parser().format_help()
    for g in available_games():
        assert load_game(g).name in text
    for name in _subcommands():
        if name:
            assert f"``{name}``" in cli.__doc__, name


def test_verify_and_bench_take_the_game_options_the_readme_shows(capsys, tmp_path) -> None:
    """The README's `verify -o` and `bench -o` were refused by the parser."""
    from industry_env.cli import main
    from industry_env.registry import load_game
    from industry_env.verify import game_configs

    configs = game_configs(load_game("age_of_industry"), 8, 0, {"map": "new_england"})
    assert {c[2]["map"] for c in configs} == {"new_england"} and {c[2]["edition"] for c in configs} == {1, 2}
    assert main(["verify", "--game", "age_of_industry", "-o", "map=new_england", "--games", "2", "--chunk", "2",
                 "--workers", "1"]) == 0  # fmt: skip
    assert "OK: checked 2 games" in capsys.readouterr().out
    assert main(["verify", "--plain-draws", "--games", "2", "--chunk", "2", "--workers", "1"]) == 0  # one harness
    assert "OK: checked 2 games" in capsys.readouterr().out
    assert {c[2]["balanced_draws"] for c in game_configs(load_game("industry"), 8, 0, {"balanced_draws": False})} \
        == {False}  # fmt: skip
    assert main(["bench", "-o", "balanced_draws=maybe", "--output", str(tmp_path / "b.json")]) == 2
    assert "balanced_draws='maybe': must be True or False" in capsys.readouterr().err


def test_balance_options_belong_to_their_game(capsys) -> None:
    """Age of Industry's balance read options it had no parser for (its tool had no configure): each game's tool
    defines every option it reads, and the other game's option is refused by name."""
    from industry_env.cli import main

    assert main(["balance", "--game", "age_of_industry", "--board", "b.toml", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "--board b.toml: Industry's board file; Age of Industry chooses its map with --map" in err
    assert main(["balance", "--game", "industry", "--map", "germany", "--games", "1"]) == 2
    assert "--map germany: Industry has one board" in capsys.readouterr().err
    assert main(["balance", "--game", "age_of_industry", "--games", "0"]) == 2
    assert "--games 0: give at least 1 game" in capsys.readouterr().err
