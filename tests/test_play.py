"""``industry-env play`` (industry_env.play) driven with a fake terminal: bad input is answered and never ends the
game, a game that stops is saved, and a person can read the board, look fields up and see what choices cost."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys

import pytest

from industry_env.cli import build_parser, main
from industry_env.games.industry import actions as A
from industry_env.games.industry import render
from industry_env.games.industry.reference import Game
from industry_env.play import cmd_play
from industry_env.records import load, replay


def play(lines: list[str], *argv: str, record: str = "none", code: int = 0) -> str:
    """Everything ``play`` prints when typed ``lines`` (then end of input)."""
    args = build_parser().parse_args(["play", "--record", record, *argv])
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out) == code
    return out.getvalue()


class _Interrupted(io.StringIO):
    """A terminal where the person presses Ctrl-C after typing ``lines``."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("".join(f"{x}\n" for x in lines))

    def readline(self, *args) -> str:  # type: ignore[override]
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_non_ascii_digits_are_answered_not_fatal() -> None:
    text = play(["²", "٣", "½", "-0", "0", "quit"], "--players", "3", "--seed", "2")
    for typed in ("²", "٣", "½", "-0"):
        assert f"there is no choice [{typed}]: pick 0 to" in text
    assert "invalid literal" not in text and "Traceback" not in text
    assert "leaving the game" in text


def test_end_of_input_saves_a_record_that_replays(tmp_path) -> None:
    path = tmp_path / "game.json"
    text = play(["0", "1"], "--players", "4", "--seed", "5", record=str(path))
    assert "end of input" in text and f"game record saved to {path}" in text
    record = load(path)
    assert record.final_scores is None and len(record.actions) >= 2
    replay(record)  # the moves played so far, from the seed's opening position
    # no temporary file left beside it; the unfinished game's seed is kept apart, private
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.seed"]


def test_ctrl_c_saves_the_game_and_exits_130(tmp_path) -> None:
    path = tmp_path / "game.json"
    args = build_parser().parse_args(["play", "--players", "3", "--seed", "2", "--record", str(path)])
    out = io.StringIO()
    assert cmd_play(args, stdin=_Interrupted(["0", "0"]), stdout=out) == 130
    assert "interrupted" in out.getvalue() and path.exists()
    replay(load(path))


def test_an_error_mid_game_still_saves_it(tmp_path, monkeypatch) -> None:
    path = tmp_path / "game.json"
    calls = []

    def broken(self, game):
        calls.append(1)
        if len(calls) > 3:
            raise RuntimeError("the agent broke")
        return game.legal_actions()[0]

    from industry_env.agents import RandomAgent

    monkeypatch.setattr(RandomAgent, "act_game", broken)
    with pytest.raises(RuntimeError, match="the agent broke"):
        play(["0"] * 50, "--players", "4", "--seed", "1", record=str(path))
    assert len(load(path).actions) >= 3


def test_a_whole_game_reads_well_and_ends_with_a_score_table(tmp_path) -> None:
    path = tmp_path / "game.json"
    text = play(["0"] * 3000, "--players", "3", "--seed", "4", record=str(path))
    assert not re.search(r"(?<![\d-])1 (Talers|points)\b", text)
    assert re.search(r"(?<![\d-])1 Taler\b", text)  # there was one to say
    table = text[text.index("final scores:") :]
    assert table.splitlines()[1].split() == ["player", "development", "money", "roads", "tech", "links", "bonus",
                                             "jokers", "subsidy", "total"]  # fmt: skip
    assert "wins" in table and ("You win!" in text or "Winner" in text or "You tie" in text)
    record = load(path)
    assert record.final_scores is not None and replay(record).is_over


def test_choices_say_what_they_cost() -> None:
    text = play(["quit"], "--players", "4", "--seed", "1", "--seat", "1")  # seat 1 opens the first auction
    first = text[text.index("chooses a field to auction") :]
    assert "auction 1" in first and "cost " in first and "points" in first
    assert "subsidy: take 3 Talers now, -5 points at the end" in first
    text = play(["0", "quit"], "--players", "3", "--seed", "2")
    assert "pay your bid if you win (you have" in text and "or type 'bid N'" in text


def test_board_info_era_scores_and_help() -> None:
    text = play(["help", "board", "info 1E", "info sawmill", "info port", "info 9Z", "info", "era 2", "era 9",
                 "scores", "quit"], "--players", "3", "--seed", "2")  # fmt: skip
    for command in ("info <field>", "era <N>", "board", "scores", "quit", "list"):
        assert command in text
    assert "1E Sawmill: factory, cost 2" in text and "road to 1D Quarry" in text
    assert "to develop it, player 0 would pay 2 Talers" in text
    assert "1B Port: bonus" in text and "5I Airport" not in text  # 'port' names the Ports, not the Airport
    assert "no field '9Z'" in text and "name a field" in text
    assert "era 2:" in text and "2E Iron Ore Mine" in text and "no era '9'" in text
    assert "points so far: player 0: 0 points" in text
    assert "Sawmill" in text.split("info 1E")[0] or "1E Sawmill" in text  # the board names the era's fields


def test_the_legend_marks_only_the_field_on_auction_with_its_auction_mark() -> None:
    game = Game(3, seed=2)
    while game.phase == "auction":
        game.apply(game.legal_actions()[0])
    assert game.phase == "bid"
    marks = [render.cell(game, f) for f in range(60)]
    assert [f for f, m in enumerate(marks) if m.endswith("^")] == [game.s.lot]
    assert any(m.endswith("+") for m in marks)  # the other fields that can still be auctioned this round
    assert "^ on auction now" in game.render() and "+ can be auctioned this round" in game.render()
    opening = Game(3, seed=2)
    assert not any(render.cell(opening, f).endswith("^") for f in range(60))


def test_opponents_are_any_agent_spec(capsys) -> None:
    text = play(["0"] * 40 + ["quit"], "--players", "3", "--opponents", "heuristic-v0")
    assert "the others play heuristic-v0" in text
    text = play(["quit"], "--players", "3", "--opponents", "industry_env.agents.random_agent:RandomAgent")
    assert "the others play industry_env.agents.random_agent:RandomAgent" in text
    assert main(["play", "--record", "none", "--opponents", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


def test_play_help_names_agents_not_random_or_heuristic(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "random or heuristic opponents" not in text
    assert "module:attr" in text and "--game" in text and "mcts" in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "random or heuristic opponents" not in capsys.readouterr().out


def test_wrong_play_options_are_clear(capsys) -> None:
    assert main(["play", "--players", "5"]) == 2
    assert "--players=5" in capsys.readouterr().err
    assert main(["play", "--players", "3", "--seat", "3"]) == 2
    assert "--seat 3: there are only seats 0 to 2" in capsys.readouterr().err
    assert main(["play", "--game", "age_of_industry", "--board", "x.toml"]) == 2
    assert "an option of Industry, not of Age of Industry" in capsys.readouterr().err


def test_another_game_shows_only_the_persons_seat_and_saves_its_record(tmp_path) -> None:
    from industry_env import available_games, load_game

    assert "age_of_industry" in available_games(include_hidden=True)
    spec = load_game("age_of_industry")
    path = tmp_path / "aoi.json"
    text = play(["board", "0", "0", "quit"], "--game", "age_of_industry", "--players", "3", "--seed", "1",
                "-o", "map=new_england", record=str(path))  # fmt: skip
    assert "You are player 0 of 3 in Age of Industry" in text
    players = [line for line in text.splitlines() if re.match(r"player \d( \(you\))?: \$", line)]
    assert players and all("cards in hand" in line for line in players if not line.startswith("player 0 (you)"))
    assert any(line.startswith("player 0 (you):") and "hand: " in line for line in players)  # own hand shown
    record = load(path)
    assert record.game == spec.id and record.options["map"] == "new_england" and len(record.actions) >= 2
    assert replay(record).current_player >= 0  # the moves played so far replay from the seed's opening


def _industry_position(phase: str, accept, seeds=range(40)) -> Game:
    """The first position of random 3-player games at ``phase`` that ``accept`` takes."""
    import random

    for seed in seeds:
        game, rng = Game(3, seed=seed), random.Random(seed)
        while not game.is_over:
            if game.phase == phase and accept(game):
                return game
            legal = [a for a in game.legal_actions() if a != A.SUBSIDY] or game.legal_actions()
            game.apply(rng.choice(legal))
    raise AssertionError(f"no {phase} position found")


def test_keep_says_how_much_comes_back_and_when_none_does() -> None:
    none = _industry_position("sell_or_keep", lambda g: 0 < g.s.high_bid < 3 and A.KEEP in g.legal_actions())
    assert "(none of it comes back to you)" in render.describe_choice(none, A.KEEP)
    some = _industry_position("sell_or_keep", lambda g: g.s.high_bid >= 3 and A.KEEP in g.legal_actions())
    back = some.s.high_bid // 3
    assert f"({render.talers(back)} of it comes back to you)" in render.describe_choice(some, A.KEEP)
    assert "you get some back" not in render.describe_choice(some, A.KEEP)


def test_paying_another_player_says_what_he_received() -> None:
    from industry_env.games.industry.playtable import IndustryTable
    from industry_env.registry import load_game

    def to_player(a: int) -> bool:
        return A.PAY <= a < A.SUBSIDY and (a - A.PAY) % A.NUM_PAY_WAYS >= A.PAY_PLAYER

    game = _industry_position("pay", lambda g: any(map(to_player, g.legal_actions())), range(200))
    action = next(a for a in game.legal_actions() if to_player(a))
    q = (action - A.PAY) % A.NUM_PAY_WAYS - A.PAY_PLAYER
    table = IndustryTable(load_game("industry"), game, game.current_player)
    before = table.snapshot()
    game.apply(action)
    assert table.after(action, before) == f"  -> player {q} receives 1 Taler"


def test_taking_the_subsidy_is_echoed() -> None:
    text = play(["subsidy", "quit"], "--players", "3", "--seed", "2")
    assert "you: subsidy" in text and "-> player 0 takes the subsidy: 3 Talers now, -5 points at the end" in text


def test_the_legend_explains_every_mark() -> None:
    legend = "\n".join(render.LEGEND)
    assert ". not claimed" in legend and "+ can be auctioned this round" in legend and "^ on auction now" in legend


def test_bad_input_points_to_help_not_the_whole_grammar() -> None:
    text = play(["fly", "bid many", "quit"], "--players", "3", "--seed", "2")
    assert "'fly' is neither a choice nor a command" in text and "'help'" in text
    assert "expected" not in next(line for line in text.splitlines() if "'fly' is neither" in line)
    assert text.count("expected 'auction 3F'") == 1
    assert "cannot read action 'bid many'" in text  # an action's own word: its own message


def test_back_takes_back_a_development_while_its_resources_are_paid() -> None:
    from industry_env.games.industry.playtable import IndustryTable
    from industry_env.registry import load_game

    game = _industry_position("pay", lambda g: len(g.legal_actions()) > 1, range(200))
    table = IndustryTable(load_game("industry"), game, game.current_player)
    saved, start = game.to_json(), table.begin_move()
    game.apply(game.legal_actions()[0])
    assert game.to_json() != saved
    table.restore(start, [game.legal_actions()[0]])
    assert game.to_json() == saved


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this platform")
@pytest.mark.parametrize("signame", ["SIGHUP", "SIGTERM"])
def test_a_closed_terminal_or_a_stop_request_saves_the_game_whole(tmp_path, signame) -> None:
    """Closing the terminal (SIGHUP) or ``kill`` (SIGTERM) killed play with the game unsaved, or left a half-written
    ``.partial`` record beside it: now the game ends as on Ctrl-C, saved whole."""
    path = tmp_path / "game.json"
    cmd = [sys.executable, "-m", "industry_env", "play", "--players", "3", "--seed", "2", "--opponents", "random",
           "--record", str(path)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seen = b""
    while not seen.endswith(b"> "):  # the first prompt: the game is under way
        byte = proc.stdout.read(1)
        assert byte, seen.decode(errors="replace")
        seen += byte
    signum = getattr(signal, signame)
    proc.send_signal(signum)
    rest, _ = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, (seen + rest).decode(errors="replace")
    assert b"leaving the game" in rest and f"game record saved to {path}".encode() in rest
    replay(load(path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.seed"]  # no half-written file
