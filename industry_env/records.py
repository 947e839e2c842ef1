"""Game records: a played game as a small JSON file that replays exactly, move by move, with the reference engine.

A game of Industry is fixed by its options, its seed (the starting player and the bag) and the actions chosen,
so a record stores exactly these, plus the SHA-256 digest of the board file's text so that a record made on one
board is never replayed on another, and optionally the final scores as a check::

    {
      "format": "industry_env game record",
      "version": 1,
      "options": {"num_players": 4, "balanced_draws": true},
      "seed": 7,
      "board": {"name": "board.toml", "sha256": "3f1c...e9"},
      "actions": [4, 61, 60, 60, 173, ...],
      "final_scores": [31, 24, 40, 18]
    }

``actions`` are integers of :mod:`industry_env.games.industry.actions` in the order they were played, from the opening
position of ``Game(num_players, seed, balanced_draws=...)``. ``final_scores`` is present once the game is over
(or ``null``); an unfinished game is a valid record and replays to its last position.

:func:`replay` refuses a record that does not replay with a :class:`RecordError` that says where (the file and
the move number, counted from 1) and why: bad JSON, a missing or mistyped entry, an unknown format version,
another board, an illegal move, or final scores that differ. Any engine game or environment records itself
with a :class:`Recorder`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from .games.industry import actions as A
from .games.industry.board import SHIPPED_BOARD, Board, load_board
from .games.industry.reference import Game, IllegalActionError
from .games.industry.render import describe_action
from .games.industry.rules import MAX_PLAYERS, MIN_PLAYERS

FORMAT = "industry_env game record"
VERSION = 1
_SHIPPED_PATH = f"industry_env/data/{SHIPPED_BOARD}"  # Board.path of the shipped board (see board.load_board)
_digests: weakref.WeakKeyDictionary[Board, str] = weakref.WeakKeyDictionary()


class RecordError(ValueError):
    """A game record that cannot be read or does not replay; the message names the file, the move and the reason."""


def board_digest(board: Board | None = None) -> str:
    """SHA-256 (hex) of the text of the file ``board`` was loaded from (None: the shipped board).

    The digest identifies the board a record was played on. A board built from a string by ``parse_board`` has
    no file, so it has no digest and cannot be recorded (ValueError).
    """
    board = board if board is not None else load_board()
    if board in _digests:
        return _digests[board]
    try:
        if board.path == _SHIPPED_PATH:
            text = resources.files("industry_env.data").joinpath(SHIPPED_BOARD).read_text(encoding="utf-8")
        else:
            text = Path(board.path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"board {board.path}: its file cannot be read, so it has no digest ({exc})") from None
    digest = _digests[board] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return digest


@dataclass(frozen=True)
class Record:
    """One game: options, seed, board digest, actions and, once it is over, the final scores."""

    num_players: int
    seed: int
    actions: tuple[int, ...]
    balanced_draws: bool = True
    board_sha256: str = ""
    board_name: str = SHIPPED_BOARD  # informative: the board file's name
    final_scores: tuple[int, ...] | None = None
    source: str = field(default="record", compare=False)  # where it was read from, for messages

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON document described in the module docstring."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "options": {"num_players": self.num_players, "balanced_draws": self.balanced_draws},
            "seed": self.seed,
            "board": {"name": self.board_name, "sha256": self.board_sha256},
            "actions": list(self.actions),
            "final_scores": None if self.final_scores is None else list(self.final_scores),
        }

    def to_json(self) -> str:
        """The record as compact JSON text on one line (about 1.5 kB for a whole game)."""
        return json.dumps(self.to_dict(), separators=(",", ":")) + "\n"

    @classmethod
    def from_dict(cls, doc: Any, source: str = "record") -> Record:
        """Check a parsed record entry by entry; raise :class:`RecordError` naming the first problem."""

        def bad(why: str) -> RecordError:
            return RecordError(f"{source}: {why}")

        if not isinstance(doc, dict):
            raise bad("not a game record: expected a JSON object")
        if doc.get("format") != FORMAT:
            raise bad(f"not a game record: 'format' is {doc.get('format')!r}, expected {FORMAT!r}")
        missing = [k for k in ("version", "options", "seed", "board", "actions") if k not in doc]
        if missing:
            raise bad(f"missing entries {missing}")
        if doc["version"] != VERSION or not _is_int(doc["version"]):
            raise bad(f"record format version {doc['version']!r} is not supported (this industry_env reads "
                      f"version {VERSION})")  # fmt: skip
        options = doc["options"]
        if not isinstance(options, dict) or "num_players" not in options:
            raise bad("'options' must be an object with 'num_players' (and 'balanced_draws')")
        n = options["num_players"]
        if not _is_int(n) or n not in (MIN_PLAYERS, MAX_PLAYERS):
            raise bad(f"options.num_players is {n!r}, expected {MIN_PLAYERS} or {MAX_PLAYERS}")
        balanced = options.get("balanced_draws", True)
        if not isinstance(balanced, bool):
            raise bad(f"options.balanced_draws is {balanced!r}, expected true or false")
        seed = doc["seed"]
        if not _is_int(seed) or not 0 <= seed < 2**63:
            raise bad(f"seed is {seed!r}, expected a whole number from 0 to 2**63 - 1")
        board = doc["board"]
        digest = board.get("sha256") if isinstance(board, dict) else None
        if not isinstance(digest, str) or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise bad("board.sha256 must be the 64 hex digits of the board file's SHA-256")
        name = board.get("name", "")
        if not isinstance(name, str):
            raise bad(f"board.name is {name!r}, expected text")
        actions = doc["actions"]
        if not isinstance(actions, list):
            raise bad("'actions' must be a list of action numbers")
        for i, a in enumerate(actions):
            if not _is_int(a) or not 0 <= a < A.NUM_ACTIONS:
                raise bad(f"move {i + 1}: {a!r} is not an action number (0 to {A.NUM_ACTIONS - 1})")
        final = doc.get("final_scores")
        if final is not None and (not isinstance(final, list) or len(final) != n or not all(map(_is_int, final))):
            raise bad(f"final_scores is {final!r}, expected null or {n} whole numbers")
        return cls(num_players=n, seed=seed, actions=tuple(actions), balanced_draws=balanced, board_sha256=digest,
                   board_name=name, final_scores=None if final is None else tuple(final), source=source)  # fmt: skip

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> Record:
        """Parse and check record text; bad JSON is a :class:`RecordError` with its line and column."""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{source}: not valid JSON ({exc})") from None
        return cls.from_dict(doc, source)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to ``path`` (an OSError says why if it cannot be written)."""
        save(self, path)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Recorder:
    """Collects the actions of one game as it is played, from its opening position; ``record()`` gives the Record.

    Environments and scripts create one per game (``Recorder.for_game(Game(...))``, ``Recorder.for_engine(state,
    i)`` for game ``i`` of an engine batch, or with the options directly) and ``append`` each action taken.
    """

    def __init__(self, num_players: int, seed: int, balanced_draws: bool = True, board: Board | None = None) -> None:
        board = board if board is not None else load_board()
        self._record = Record(num_players=int(num_players), seed=int(seed), actions=(),
                              balanced_draws=bool(balanced_draws), board_sha256=board_digest(board),
                              board_name=Path(board.path).name)  # fmt: skip
        Record.from_dict(self._record.to_dict(), "recorder")  # the options must make a valid record
        self.board = board
        self.actions: list[int] = []

    @classmethod
    def for_game(cls, game: Game) -> Recorder:
        """A recorder for a reference game that has not started (its opening position); ValueError otherwise."""
        s = game.s
        opening = Game(s.num_players, seed=s.seed, board=game.board, balanced_draws=s.balanced_draws)
        if opening.to_json() != game.to_json():
            raise ValueError("Recorder.for_game: the game has already started; a record starts at the opening "
                             "position (create the recorder right after Game(...))")  # fmt: skip
        return cls(s.num_players, s.seed, s.balanced_draws, game.board)

    @classmethod
    def for_engine(cls, state: Any, i: int) -> Recorder:
        """A recorder for game ``i`` of a batched engine ``State`` that has not started."""
        from .games.industry.engine import to_game

        return cls.for_game(to_game(state, i))

    def append(self, action: int) -> None:
        """Note the next action played (an integer of the action encoding)."""
        a = int(action)
        if not 0 <= a < A.NUM_ACTIONS:
            raise ValueError(f"Recorder.append: {action!r} is not an action number (0 to {A.NUM_ACTIONS - 1})")
        self.actions.append(a)

    def record(self, final_scores: Sequence[int] | None = None) -> Record:
        """The record so far; pass the final scores once the game is over (they are checked on replay)."""
        final = None if final_scores is None else tuple(int(x) for x in final_scores)
        return Record(num_players=self._record.num_players, seed=self._record.seed, actions=tuple(self.actions),
                      balanced_draws=self._record.balanced_draws, board_sha256=self._record.board_sha256,
                      board_name=self._record.board_name, final_scores=final)  # fmt: skip

    def save(self, path: str | os.PathLike[str], final_scores: Sequence[int] | None = None) -> Record:
        """Write the record so far to ``path`` and return it."""
        rec = self.record(final_scores)
        save(rec, path)
        return rec


def record_from_game(game: Game, actions: Sequence[int]) -> Record:
    """The record of ``game`` played by ``actions`` from its seed's opening position, checked by replaying it.

    Raises :class:`RecordError` if the actions do not lead to ``game``'s position.
    """
    s = game.s
    rec = Record(num_players=s.num_players, seed=s.seed, actions=tuple(int(a) for a in actions),
                 balanced_draws=s.balanced_draws, board_sha256=board_digest(game.board),
                 board_name=Path(game.board.path).name, source="record_from_game")  # fmt: skip
    if replay(rec, game.board).to_json() != game.to_json():
        raise RecordError("record_from_game: these actions, played from the seed's opening position, do not "
                          "reach the game's position")  # fmt: skip
    return dataclasses.replace(rec, final_scores=tuple(game.scores()) if game.is_over else None, source="record")


def save(record: Record, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` as JSON."""
    Path(path).write_text(record.to_json(), encoding="utf-8")


def load(path: str | os.PathLike[str]) -> Record:
    """Read and check a record file; :class:`RecordError` names the file and the problem."""
    source = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{source}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{source}: not a game record (not UTF-8 text)") from None
    return Record.from_json(text, source)


class Move(NamedTuple):
    """One replayed move: its number (from 1), who played it, the action, its readable name and the game after."""

    number: int
    player: int
    action: int
    name: str
    game: Game  # the live game, already updated: copy it (clone()) to keep this position


def _board_for(record: Record, board: Board | None) -> Board:
    board = board if board is not None else load_board()
    digest = board_digest(board)
    if digest != record.board_sha256:
        hint = "pass the board file it was played on (--board PATH)" if board.path == _SHIPPED_PATH else (
            "it was not played on this board file")  # fmt: skip
        raise RecordError(f"{record.source}: the record was played on another board (board {record.board_name!r}, "
                          f"sha256 {record.board_sha256[:12]}...) than {board.path} (sha256 {digest[:12]}...): "
                          f"{hint}")  # fmt: skip
    return board


def iter_replay(record: Record, board: Board | None = None) -> Iterator[Move]:
    """Replay ``record`` move by move with the reference engine, yielding each :class:`Move` after it is played.

    Raises :class:`RecordError` (file, move number, reason) for another board, an illegal move, or final scores
    that differ from the recorded ones.
    """
    board = _board_for(record, board)
    game = Game(record.num_players, seed=record.seed, board=board, balanced_draws=record.balanced_draws)
    for number, action in enumerate(record.actions, start=1):
        player = game.current_player
        if game.is_over:
            raise RecordError(f"{record.source}: move {number}: action {action} comes after the end of the game "
                              f"(the game ended with move {number - 1})")  # fmt: skip
        try:
            name = describe_action(game, action)
            game.apply(action)
        except IllegalActionError as exc:
            raise RecordError(f"{record.source}: move {number} (player {player}) is illegal: {exc}") from None
        yield Move(number, player, action, name, game)
    if record.final_scores is not None:
        if not game.is_over:
            raise RecordError(f"{record.source}: the record gives final scores {list(record.final_scores)} but the "
                              f"game is not over after its {len(record.actions)} moves")  # fmt: skip
        if tuple(game.scores()) != record.final_scores:
            raise RecordError(f"{record.source}: after move {len(record.actions)} the final scores are "
                              f"{game.scores()}, the record says {list(record.final_scores)}")  # fmt: skip


def replay(record: Record, board: Board | None = None) -> Game:
    """Replay ``record`` with the reference engine and return the game at its end (see :func:`iter_replay`)."""
    game = Game(record.num_players, seed=record.seed, board=_board_for(record, board),
                balanced_draws=record.balanced_draws)  # fmt: skip
    for move in iter_replay(record, game.board):
        game = move.game
    return game


__all__ = ["FORMAT", "VERSION", "Record", "RecordError", "Recorder", "Move", "board_digest", "record_from_game",
           "save", "load", "iter_replay", "replay"]  # fmt: skip
