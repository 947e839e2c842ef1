"""Records of 20th Century's first action encoding (a nation's 9 x 9 window, before ruling 18 was lifted) are read
into today's, move by move in their positions: a user's records and unfinished games are never lost to the change.
The two records under ``data/`` were written by the industry_env of that time (2026-11-29, before the change)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from industry_env import load_game
from industry_env.records import Record, RecordError, load, replay, resume, save

DATA = Path(__file__).parent / "data"
SPEC = load_game("twentieth_century")


def test_a_finished_record_of_encoding_1_replays_to_its_final_scores() -> None:
    old = Record.from_json((DATA / "record_encoding_1.json").read_text("utf-8"))
    assert old.encoding == 1 and SPEC.action_encoding == 2
    game = replay(old)  # the final scores are checked by the replay itself
    assert game.is_over and tuple(game.scores()) == old.final_scores == (4, -9, -11, -9)
    new = load(DATA / "record_encoding_1.json")
    assert new.encoding == 2 and new.to_dict()["encoding"] == 2 and len(new.actions) == len(old.actions)
    assert new.actions != old.actions  # the tile and city moves renamed
    assert replay(new).to_json() == game.to_json()


def test_an_unfinished_game_of_encoding_1_resumes_in_todays_encoding(tmp_path: Path) -> None:
    for name in ("unfinished_encoding_1.json", "unfinished_encoding_1.json.seed"):
        shutil.copy(DATA / name, tmp_path / name)
        (tmp_path / name).chmod(0o600)
    record, seats = resume(tmp_path / "unfinished_encoding_1.json")
    assert record.encoding == 2 and seats == [None, "heuristic", "random"]
    game = replay(record)
    assert (game.phase, game.round, game.to_move) == ("recycle", 5, 1)
    # every tile on the cell it had in the window (its cell there less 4, 4), written down before the change
    nations = [[(0, 0, 0), (1, 0, 44), (1, 1, 22)],
               [(-3, -2, 34), (-2, -1, 17), (-2, 0, 26), (-1, 0, 32), (0, -2, 39), (0, 0, 0), (1, -3, 66), (1, -1, 9)],
               [(-1, -1, 28), (-1, 1, 27), (0, -2, 65), (0, 0, 0), (1, -1, 38), (1, 1, 3)]]  # fmt: skip
    for p, want in enumerate(nations):
        assert sorted((*game.cell_of(p, k), game.grid_tile[p][k]) for k in range(game.slots(p))) == want
    save(record, tmp_path / "again.json")  # saved again, it is in today's encoding
    assert Record.from_json((tmp_path / "again.json").read_text("utf-8")).encoding == 2


def test_an_encoding_this_industry_env_does_not_know_is_refused_by_name() -> None:
    doc = Record.from_json((DATA / "record_encoding_1.json").read_text("utf-8")).to_dict()
    for bad in (3, 0, "1"):
        with pytest.raises(RecordError, match="encoding"):
            Record.from_dict({**doc, "encoding": bad})
    old = Record.from_json((DATA / "record_encoding_1.json").read_text("utf-8"))
    broken = Record(**{**old.__dict__, "actions": (*old.actions[:-1], 300)})  # a window cell no move names there
    with pytest.raises(RecordError, match=r"move \d+ .*encoding 1"):
        replay(broken)
