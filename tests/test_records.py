"""Game records: a recorded game replays to the same end; every corrupt record is refused saying where and why."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from industry_env import records as R
from industry_env.cli import build_parser, cmd_play, main
from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry.components import load_board
from industry_env.games.industry.reference import Game


def random_game(n: int = 4, seed: int = 5, moves: int | None = None) -> tuple[Game, R.Recorder]:
    """A random game (to the end, or ``moves`` moves) and the recorder that watched it."""
    game, rng = Game(n, seed=seed), np.random.default_rng(seed)
    rec = R.Recorder.for_game(game)
    while not game.is_over and (moves is None or len(rec.actions) < moves):
        a = int(rng.choice(game.legal_actions()))
        game.apply(a)
        rec.append(a)
    return game, rec


@pytest.fixture(scope="module")
def finished() -> tuple[Game, R.Record]:
    game, rec = random_game()
    return game, rec.record(game.scores())


def test_a_saved_record_loads_equal_and_replays_to_the_same_final_scores(tmp_path, finished) -> None:
    game, record = finished
    record.save(tmp_path / "g.json")
    loaded = R.load(tmp_path / "g.json")
    assert loaded == record and loaded.final_scores == tuple(game.scores())
    again = R.replay(loaded)
    assert again.is_over and again.scores() == game.scores() and again.to_json() == game.to_json()
    doc = json.loads((tmp_path / "g.json").read_text())
    assert doc["version"] == R.VERSION == 2 and doc["game"] == "industry" and doc["num_players"] == 4
    assert doc["options"] == {"balanced_draws": True}
    assert doc["data"]["board"]["sha256"] == R.board_digest() and len(doc["actions"]) == len(record.actions)


def test_record_from_game_checks_the_actions_against_the_position(finished) -> None:
    game, record = finished
    assert R.record_from_game(game, record.actions) == record
    with pytest.raises(R.RecordError, match="do not reach"):
        R.record_from_game(game, record.actions[:-1])


def test_an_unfinished_game_replays_to_its_last_position() -> None:
    game, rec = random_game(3, seed=2, moves=40)
    record = rec.record()
    assert record.final_scores is None and R.replay(record).to_json() == game.to_json()


def test_iter_replay_numbers_moves_from_one_with_player_and_name(finished) -> None:
    _, record = finished
    moves = list(R.iter_replay(prefix(record, 3)))
    assert [m.number for m in moves] == [1, 2, 3]
    first = Game(4, seed=record.seed)
    assert moves[0].player == first.current_player and moves[0].name.startswith("auction ")


def prefix(record: R.Record, k: int) -> R.Record:
    """The record of the first ``k`` moves (no final scores)."""
    return dataclasses.replace(record, actions=record.actions[:k], final_scores=None)


def test_an_engine_game_is_recorded_and_replays_to_the_engine_scores() -> None:
    state, rng = engine.init(3, num_players=4, seed=11, balanced_draws=False), np.random.default_rng(0)
    recorder = R.Recorder.for_engine(state, 1)
    while not bool(state.terminated[1]):
        actions = engine.sample_legal(engine.legal_action_mask(state), rng)
        live = ~state.terminated
        state = engine.step(state, np.where(live, actions, 0))
        recorder.append(int(actions[1]))
    scores = engine.scores(state)[1, :4].tolist()
    game = R.replay(recorder.record(scores))
    assert game.scores() == scores and game.s.seed == 12 and not game.s.balanced_draws


def test_recorder_refuses_a_game_already_started() -> None:
    game, _ = random_game(moves=3)
    with pytest.raises(ValueError, match="already started"):
        R.Recorder.for_game(game)


# ------------------------------------------------------------------ corrupt records
def corrupt(doc: dict, **changes) -> str:
    out = json.loads(json.dumps(doc))
    for key, value in changes.items():
        if value is ...:
            del out[key]
        else:
            out[key] = value
    return json.dumps(out)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 3}, "version 3 is not supported"),
        ({"format": "something else"}, "not a game record"),
        ({"actions": ...}, r"missing entries \['actions'\]"),
        ({"num_players": 5}, "num_players is 5"),
        ({"game": "chess"}, "game is 'chess': not a game of the suite"),
        ({"options": {"balanced_draws": 3}}, "balanced_draws=3"),
        ({"options": {"board": "/etc/passwd"}}, "options.board: a data option is not stored"),
        ({"options": {"nosuch": 1}}, "nosuch: not an option of Industry"),
        ({"seed": -1}, "seed is -1"),
        ({"data": {"board": {"sha256": "abc"}}}, "64 hex digits"),
        ({"final_scores": [1, 2]}, "final_scores"),
    ],
)
def test_malformed_records_are_refused_naming_the_entry(finished, change, message) -> None:
    doc = finished[1].to_dict()
    with pytest.raises(R.RecordError, match=message):
        R.Record.from_json(corrupt(doc, **change), "g.json")


def test_bad_json_and_unreadable_files_are_refused(tmp_path) -> None:
    (tmp_path / "bad.json").write_text('{"format": "industry_env game record", "version": 1,')
    with pytest.raises(R.RecordError, match=r"bad\.json: not valid JSON"):
        R.load(tmp_path / "bad.json")
    with pytest.raises(R.RecordError, match="cannot be read"):
        R.load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(R.RecordError, match="not UTF-8"):
        R.load(tmp_path / "bin.json")


def test_an_action_that_is_no_action_names_its_move(finished) -> None:
    doc = finished[1].to_dict()
    actions = list(doc["actions"])
    actions[2] = 999
    with pytest.raises(R.RecordError, match="move 3: 999 is not an action number"):
        R.Record.from_json(corrupt(doc, actions=actions), "g.json")
    actions[2] = True
    with pytest.raises(R.RecordError, match="move 3: True"):
        R.Record.from_json(corrupt(doc, actions=actions), "g.json")


def test_an_illegal_move_is_refused_with_its_number_and_player(finished) -> None:
    record = finished[1]
    k = 10
    before = R.replay(prefix(record, k - 1))
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in before.legal_actions())
    bad = R.Record.from_json(corrupt(record.to_dict(), actions=[*record.actions[: k - 1], illegal]), "g.json")
    with pytest.raises(R.RecordError, match=rf"g\.json: move {k} \(player {before.current_player}\) is illegal"):
        R.replay(bad)


def test_moves_after_the_end_and_wrong_final_scores_are_refused(finished) -> None:
    game, record = finished
    doc = record.to_dict()
    n = len(record.actions)
    with pytest.raises(R.RecordError, match=rf"move {n + 1}: .* after the end of the game"):
        R.replay(R.Record.from_json(corrupt(doc, actions=[*record.actions, A.PASS])))
    wrong = [s + 1 for s in game.scores()]
    with pytest.raises(R.RecordError, match=rf"after move {n} the final scores are"):
        R.replay(R.Record.from_json(corrupt(doc, final_scores=wrong)))
    with pytest.raises(R.RecordError, match="not over after its 5 moves"):
        R.replay(R.Record.from_json(corrupt(doc, actions=list(record.actions[:5]))))


@pytest.mark.filterwarnings("ignore:board file")  # the loader's notes on a copied board are not the point here
def test_a_record_is_only_replayed_on_its_own_board(tmp_path, finished) -> None:
    text = (Path(R.__file__).parents[1] / load_board().path).read_text(encoding="utf-8")  # the shipped board's
    other_path = tmp_path / "other.toml"
    other_path.write_text(text + "\n# a copy with another comment: another file, another digest\n")
    other = load_board(other_path)
    assert R.board_digest(other) != R.board_digest()
    game, rec = Game(4, seed=1, board=other), None
    rec = R.Recorder.for_game(game)
    rec.append(game.legal_actions()[0])
    record = rec.record()
    assert record.board_name == "other.toml"
    assert R.replay(record, other).s.lot >= 0
    with pytest.raises(R.RecordError, match="played on another board"):
        R.replay(record)
    with pytest.raises(R.RecordError, match="another board"):
        R.replay(finished[1], other)


# ------------------------------------------------------------------ command line
def test_cli_replay_prints_moves_and_writes_a_gif_and_pngs(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib")
    from PIL import Image

    game, rec = random_game(4, seed=3, moves=12)
    rec.save(tmp_path / "g.json")
    code = main(["replay", str(tmp_path / "g.json"), "--gif", str(tmp_path / "g.gif"),
                 "--png-dir", str(tmp_path / "png"), "--frames", "decision"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "   1  player" in out and "  12  player" in out and "ends before the game does" in out
    pngs = sorted((tmp_path / "png").glob("move-*.png"))
    assert [p.name for p in pngs[:2]] == ["move-0000.png", "move-0001.png"] and len(pngs) == 13
    with Image.open(tmp_path / "g.gif") as im:
        assert im.size == (1280, 800) and 2 <= im.n_frames <= 13  # identical pictures share a frame
    with Image.open(pngs[-1]) as im:
        assert im.size == (1280, 800)


def test_cli_replay_of_a_finished_game_prints_the_final_scores(tmp_path, capsys, finished) -> None:
    game, record = finished
    record.save(tmp_path / "g.json")
    assert main(["replay", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    assert f"final scores: {game.scores()}" in out and f"{len(record.actions):4d}  player" in out


def test_cli_replay_checks_output_folders_before_the_run(tmp_path, capsys, finished) -> None:
    finished[1].save(tmp_path / "g.json")
    code = main(["replay", str(tmp_path / "g.json"), "--gif", str(tmp_path / "nowhere" / "g.gif")])
    captured = capsys.readouterr()
    assert code == 2 and "does not exist" in captured.err and "player" not in captured.out
    code = main(["replay", str(tmp_path / "g.json"), "--png-dir", str(tmp_path / "a" / "b")])
    assert code == 2 and "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()


def test_cli_replay_refuses_a_corrupt_record_with_the_move(tmp_path, capsys, finished) -> None:
    record = finished[1]
    doc = record.to_dict()
    doc["actions"][4] = next(a for a in range(A.NUM_ACTIONS)
                             if a not in R.replay(prefix(record, 4)).legal_actions())  # fmt: skip
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    assert main(["replay", str(tmp_path / "bad.json")]) == 2
    captured = capsys.readouterr()
    assert "move 5 (player" in captured.err and "illegal" in captured.err and captured.out == ""


def play(tmp_path: Path, lines: list[str], *argv: str) -> str:
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out) == 0
    return out.getvalue()


def test_play_saves_the_game_as_a_record_that_replays(tmp_path) -> None:
    text = play(tmp_path, ["0"] * 3000, "--players", "3", "--seed", "6", "--record", str(tmp_path / "p.json"))
    assert f"game record saved to {tmp_path / 'p.json'}" in text
    game = R.replay(R.load(tmp_path / "p.json"))
    assert game.is_over and "final scores:" in text and "total" in text


def test_play_saves_a_left_game_under_a_new_default_name(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    play(tmp_path, ["0", "quit"], "--seed", "9")
    play(tmp_path, ["quit"], "--seed", "9")
    names = sorted(p.name for p in tmp_path.glob("*.json"))  # each beside its private seed file (unfinished)
    assert len(names) == 2 and all(re.fullmatch(r"industry-game-\d{8}-\d{6}(-\d+)?\.json", n) for n in names)
    assert len({len(R.load(tmp_path / n).actions) for n in names}) == 2  # neither game overwrote the other
    assert play(tmp_path, ["quit"], "--seed", "9", "--record", "none").count("saved") == 0


def test_play_says_so_when_the_record_cannot_be_written(tmp_path) -> None:
    text = play(tmp_path, ["quit"], "--record", str(tmp_path / "nowhere" / "p.json"))
    assert "could not save the game record" in text


# ------------------------------------------------------------------ format 2: any game; version 1 still read
def test_a_version_1_record_is_read_as_a_game_of_industry(finished) -> None:
    game, record = finished
    v1 = {"format": R.FORMAT, "version": 1, "options": {"num_players": 4, "balanced_draws": True},
          "seed": record.seed, "board": {"name": "board.toml", "sha256": R.board_digest()},
          "actions": list(record.actions), "final_scores": list(record.final_scores)}  # fmt: skip
    old = R.Record.from_json(json.dumps(v1), "old.json")
    assert old == record and old.game == "industry"
    assert R.replay(old).to_json() == game.to_json()


@pytest.mark.filterwarnings("ignore:board file")  # a copy of the shipped board: its documented long links
def test_the_board_digest_is_the_loaded_boards_not_the_files_now(tmp_path) -> None:
    """Editing the board file after loading it does not change the digest of games played on the loaded board."""
    shipped = (Path(R.__file__).parents[1] / load_board().path).read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(shipped, encoding="utf-8")
    board = load_board(path)
    game = Game(3, seed=4, board=board)
    rec = R.Recorder.for_game(game)
    path.write_text(shipped + "\n# edited after the game began\n", encoding="utf-8")
    assert rec.record().board_sha256 == board.sha256 == R.board_digest(board) == R.board_digest()
    assert load_board(path).sha256 != board.sha256  # the edited file is another board


def test_a_game_of_age_of_industry_is_recorded_and_replays(tmp_path) -> None:
    from industry_env.registry import load_game

    spec = load_game("age_of_industry")
    game = spec.reference(3, seed=9, map="new_england")
    rec, rng = R.Recorder.for_game(game), np.random.default_rng(1)
    for _ in range(60):
        a = int(rng.choice(game.legal_actions()))
        game.apply(a)
        rec.append(a)
    rec.save(tmp_path / "aoi.json")
    loaded = R.load(tmp_path / "aoi.json")
    assert loaded.game == "age_of_industry" and loaded.options == {"map": "new_england", "edition": 2}
    assert set(loaded.data) == {"components", "map"}
    assert R.replay(loaded).to_json() == game.to_json()
    assert R.record_from_game(game, rec.actions) == loaded
    moves = list(R.iter_replay(loaded))
    assert len(moves) == 60 and moves[0].player == spec.reference(3, seed=9, map="new_england").current_player


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"format": "industry_env game record", "version": 2, "seed": ' + "7" * 5000 + "}", "more than 4,300 digits"),
    ],
)
def test_deep_or_giant_json_is_refused_naming_the_file(tmp_path, text, message) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text)
    with pytest.raises(R.RecordError, match=rf"hostile\.json: .*{message}"):
        R.load(path)
    with pytest.raises(Exception, match=message):  # a saved position too
        Game.from_json(text)


def test_a_record_too_big_or_too_long_is_refused_without_reading_it_whole(tmp_path, finished, monkeypatch) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * 4096 + finished[1].to_json())
    monkeypatch.setattr(R, "MAX_RECORD_BYTES", 4096)
    with pytest.raises(R.RecordError, match=r"big\.json: is over 4,096 bytes"):
        R.load(path)
    doc = finished[1].to_dict()
    with pytest.raises(R.RecordError, match="no game of Industry for 4 players lasts over"):
        R.Record.from_json(corrupt(doc, actions=[0] * 10**6, final_scores=None))


def test_a_giant_number_in_a_board_file_is_refused_naming_the_file(tmp_path) -> None:
    from industry_env.games.industry.components import BoardError

    path = tmp_path / "giant.toml"
    path.write_text("[meta]\nversion = " + "9" * 5000 + "\n")
    with pytest.raises(BoardError, match=r"giant\.toml.*more than 4,300 digits"):
        load_board(path)
    path.write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(BoardError, match=r"giant\.toml.*nested too deep"):
        load_board(path)


@pytest.mark.parametrize("game", ["industry", "age_of_industry"])
def test_a_record_without_the_digests_of_its_data_is_refused(game: str, tmp_path) -> None:
    """An Age of Industry record with "data": {} replayed with no check of the data it was played on: every game's
    record must name the digest of each of its data files (as Industry's always did), and no others."""
    doc = R.Recorder(4, 3, game=game).record().to_dict()
    due = sorted(doc["data"])
    assert due == (["board"] if game == "industry" else ["components", "map"])
    R.Record.from_dict(doc)  # as recorded: accepted
    for what in due:
        partial = {**doc, "data": {k: v for k, v in doc["data"].items() if k != what}}
        with pytest.raises(R.RecordError, match=f"'data' lacks the digest of the {what} file"):
            R.Record.from_dict(partial)
    with pytest.raises(R.RecordError, match="'data' lacks the digest"):
        R.Record.from_dict({**doc, "data": {}})
    extra = {**doc, "data": {**doc["data"], "rules": {"name": "x", "sha256": "0" * 64}}}
    with pytest.raises(R.RecordError, match="data.rules: .* is played on no such data file"):
        R.Record.from_dict(extra)
    path = tmp_path / "empty-data.json"
    path.write_text(json.dumps({**doc, "data": {}}))
    assert main(["replay", str(path)]) == 2


# ------------------------------------------------------------------ private records, the seed kept apart, resuming
def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_an_unfinished_record_is_private_and_keeps_its_seed_in_a_private_file_beside_it(tmp_path) -> None:
    """Records were written readable by every user of the machine, and an unfinished one held its seed, which tells
    every hidden hand and draw to come: both files are 0600 now, and the record holds no seed until the end."""
    game, rec = random_game(3, seed=123_456_789, moves=30)
    path = tmp_path / "g.json"
    rec.save(path, seats=[None, "random", "random"])
    assert _mode(path) == 0o600 and _mode(R.seed_file(path)) == 0o600
    doc = json.loads(path.read_text())
    assert doc["seed"] is None and "123456789" not in path.read_text()
    assert R.read_seed_file(path) == R.SeedFile(123_456_789, [None, "random", "random"])
    loaded = R.load(path)  # its owner reads the seed back
    assert loaded == rec.record() and R.replay(loaded).to_json() == game.to_json()
    assert "seed" not in loaded.describe()
    # the record alone (shared, copied): nothing hidden in it, and it says why it cannot be replayed
    alone = tmp_path / "shared" / "g.json"
    alone.parent.mkdir()
    alone.write_text(path.read_text())
    with pytest.raises(R.RecordError, match=r"g\.json: the record of an unfinished game holds no seed .*g\.json\.seed"):
        R.replay(R.load(alone))
    # the game ends: the record holds its seed and the seed file is gone
    while not game.is_over:
        a = game.legal_actions()[0]
        game.apply(a)
        rec.append(a)
    rec.save(path, game.scores())
    assert json.loads(path.read_text())["seed"] == 123_456_789 and not R.seed_file(path).exists()
    assert _mode(path) == 0o600 and "seed 123456789" in R.load(path).describe()


def test_a_finished_record_without_its_seed_and_a_bad_seed_file_are_refused(tmp_path, finished) -> None:
    _, record = finished
    with pytest.raises(R.RecordError, match="seed is null but the game is over"):
        R.Record.from_dict({**record.to_dict(), "seed": None})
    game, rec = random_game(3, seed=4, moves=5)
    path = tmp_path / "g.json"
    rec.save(path)
    R.seed_file(path).write_text('{"format": "industry_env game seed", "seed": -1}')
    with pytest.raises(R.RecordError, match=r"g\.json\.seed: seed is -1"):
        R.load(path)


def test_resume_gives_an_unfinished_game_back_with_its_seed_and_seats(tmp_path, finished) -> None:
    game, rec = random_game(4, seed=8, moves=12)
    path = tmp_path / "g.json"
    rec.save(path, seats=["heuristic", None, "heuristic", "heuristic"])
    record, seats = R.resume(path)
    assert record.seed == 8 and record.actions == tuple(rec.actions) and seats[1] is None
    finished[1].save(tmp_path / "done.json")
    with pytest.raises(R.RecordError, match="the game is over: there is nothing to resume"):
        R.resume(tmp_path / "done.json")
    R.seed_file(path).unlink()
    with pytest.raises(R.RecordError, match="holds no seed"):
        R.resume(path)


def test_the_default_records_folder_is_the_users_data_folder_made_private(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform not in ("win32", "darwin"):
        assert R.default_folder() == tmp_path / "data" / "industry_env" / "records"
    made = R.private_folder(tmp_path / "data" / "industry_env" / "records")
    assert made.is_dir() and _mode(made) == 0o700 and _mode(made.parent) == 0o700 and _mode(made.parent.parent) == 0o700
    (tmp_path / "open").mkdir()
    (tmp_path / "open").chmod(0o755)
    R.private_folder(tmp_path / "open")  # a folder that exists is the user's: left as it is
    assert _mode(tmp_path / "open") == 0o755


def test_play_resumes_an_unfinished_game_at_its_seat_against_its_agents(tmp_path, capsys) -> None:
    """An unfinished record could only be replayed: `play --resume FILE` plays on, at the same seat against the
    same agents, and saves the game back to FILE (the seed still apart until the end)."""
    path = tmp_path / "p.json"
    play(tmp_path, ["0", "0", "quit"], "--players", "3", "--seat", "1", "--opponents", "heuristic", "--record",
         str(path))  # fmt: skip
    before = R.load(path)
    assert R.read_seed_file(path).seats == ["heuristic", None, "heuristic"]
    for argv, words in ((["--seat", "0"], "--seat cannot change them"), (["--players", "4"], "--players"),
                        (["--game", "age_of_industry"], "--game age_of_industry")):  # fmt: skip
        assert main(["play", "--resume", str(path), *argv]) == 2
        assert words in capsys.readouterr().err
    text = play(tmp_path, ["0", "quit"], "--resume", str(path))
    assert "You are player 1 of 3 in Industry; the others play heuristic." in text
    assert f"Resumed from {path}: {len(before.actions)} decisions played so far." in text
    after = R.load(path)
    assert after.seed == before.seed and after.actions[: len(before.actions)] == before.actions
    assert len(after.actions) > len(before.actions) and json.loads(path.read_text())["seed"] is None
    play(tmp_path, ["0"] * 3000, "--resume", str(path))  # to the end: the record holds its seed now
    assert R.load(path).final_scores is not None and not R.seed_file(path).exists()
    assert main(["play", "--resume", str(path)]) == 2  # over: nothing to resume
    assert "the game is over: there is nothing to resume" in capsys.readouterr().err
