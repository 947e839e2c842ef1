"""Game records: a played game of any game of the suite as a small JSON file that replays exactly, move by move,
with the game's reference engine.

A game is fixed by its game id, its number of players, its options, its seed and the actions chosen, so a
record stores exactly these, plus the SHA-256 digest of every data file the game was played on (Industry's
board; Age of Industry's components and map) so that it is never replayed on other data, and optionally the
final scores as a check (format version 2)::

    {
      "format": "industry_env game record",
      "version": 2,
      "game": "industry",
      "num_players": 4,
      "options": {"balanced_draws": true},
      "data": {"board": {"name": "board.toml", "sha256": "3f1c...e9"}},
      "seed": 7,
      "actions": [4, 61, 60, 60, 173, ...],
      "final_scores": [31, 24, 40, 18]
    }

``actions`` are integers of the game's action encoding in the order they were played, from the opening
position ``load_game(game).reference(num_players, seed, **options)``. ``final_scores`` is present once the game
is over (or ``null``); an unfinished game is a valid record and replays to its last position. A game in which a
player took moves back (``industry-env serve``'s undo) keeps them under ``undone``, in the order they were taken
back: ``{"at": k, "actions": [...]}``, the moves played after the first ``k`` of the line then played and taken
back (the line before the last take-back is ``actions[:k]`` followed by its moves, and so on backwards:
:func:`undone_lines`); a record without take-backs has no ``undone`` entry. A replay plays ``actions`` and checks
that every line taken back was legal too.

A game whose action encoding changed (``GameSpec.action_encoding``: 20th Century's is 2) has its records say
which encoding their actions are in (``"encoding"``; none: 1); a record of an older encoding is read move by move
into today's (:func:`upgraded`, which :func:`load` and every replay use).

Records are written readable by their owner only (0600). The seed tells every hidden hand and every draw to
come, so the record of an unfinished game is written without it (``"seed": null``): the seed is kept in a private
file beside it (``<record>.seed``, :func:`seed_file`), with who plays each seat, so that the game can be resumed
(:func:`resume`) and replayed by its owner (:func:`load` reads it back); once the game is over its record holds the
seed and the seed file is removed. An option that
names a data file (Industry's ``board``) is not stored: the record holds its digest, and whoever replays the
record passes the file again. Version 1 records (Industry only, written before the suite) are still read.

:func:`replay` refuses a record that does not replay with a :class:`RecordError` that says where (the file and
the move number, counted from 1) and why: bad JSON, a missing or mistyped entry, an unknown format version or
game, other data, an illegal move, or final scores that differ. Any reference game or environment records itself
with a :class:`Recorder`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .core.outputs import write_text_atomic
from .core.spec import GameSpec, ReferenceGame
from .core.textdata import TextDataError, parse_json, read_text
from .registry import DEFAULT_GAME, available_games, load_game, spec_of

FORMAT = "industry_env game record"
VERSION = 2
READS = (1, 2)  # the format versions this industry_env reads
MAX_RECORD_BYTES = 8 << 20  # a whole game of Industry is about 2 kB of JSON; 8 MiB is far beyond any real record
SEED_SUFFIX = ".seed"  # the private file beside an unfinished game's record: its seed, and who plays each seat
SEED_FORMAT = "industry_env game seed"
MAX_SEED_FILE_BYTES = 64 << 10


class RecordError(ValueError):
    """A game record that cannot be read or does not replay; the message names the file, the move and the reason."""


def board_digest(board: Any = None) -> str:
    """SHA-256 (hex) of the text an Industry board was parsed from (None: the shipped board): the digest a record
    of a game on that board stores, taken from the loaded board itself, never re-read from its file."""
    spec = load_game("industry")
    return spec.data_digests(board=board)["board"]["sha256"]


def _data_options(spec: GameSpec) -> set[str]:
    return {o.name for o in spec.options if o.data}


class Undone(NamedTuple):
    """Moves taken back: after the first ``at`` moves of the line then played, ``actions`` were played, then taken
    back."""

    at: int
    actions: tuple[int, ...]


@dataclass(frozen=True)
class Record:
    """One game: its game, players, options, seed, data digests, actions and, once it is over, the final scores.

    ``seed`` is None for the record of an unfinished game read without its seed file (module docstring)."""

    num_players: int
    seed: int | None
    actions: tuple[int, ...]
    game: str = DEFAULT_GAME
    options: Mapping[str, Any] = field(default_factory=dict)  # JSON values of the game's non-data options
    data: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # what -> {"name", "sha256"}
    final_scores: tuple[int, ...] | None = None
    source: str = field(default="record", compare=False)  # where it was read from, for messages
    undone: tuple[Undone, ...] = ()  # moves taken back, in the order they were (module docstring)
    encoding: int = 1  # the game's action encoding the actions are in (GameSpec.action_encoding)

    @property
    def spec(self) -> GameSpec:
        """The spec of the record's game."""
        return load_game(self.game)

    # Industry's entries of format version 1, kept readable for code written before the suite.
    @property
    def balanced_draws(self) -> bool:
        return bool(self.options.get("balanced_draws", True))

    @property
    def board_sha256(self) -> str:
        return str(self.data.get("board", {}).get("sha256", ""))

    @property
    def board_name(self) -> str:
        return str(self.data.get("board", {}).get("name", ""))

    def describe(self) -> str:
        """One line for people: game, players, seed (once the game is over: it tells what is hidden), options, data
        files, moves."""
        opts = ", ".join(f"{k} {v}" for k, v in self.options.items())
        data = ", ".join(f"{what} {d.get('name', '?')}" for what, d in self.data.items())
        seed = f", seed {self.seed}" if self.final_scores is not None else ""
        return (f"{self.spec.name}, {self.num_players} players{seed}" + (f", {opts}" if opts else "")
                + (f", {data}" if data else "") + f", {len(self.actions)} moves")  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON document described in the module docstring."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "options": dict(self.options),
            "data": {k: dict(v) for k, v in self.data.items()},
            "seed": self.seed,
            "actions": list(self.actions),
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            **({"undone": [{"at": u.at, "actions": list(u.actions)} for u in self.undone]} if self.undone else {}),
            **({"encoding": self.encoding} if self.encoding != 1 else {}),
        }

    def to_json(self) -> str:
        """The record as compact JSON text on one line (about 2 kB for a whole game of Industry)."""
        return json.dumps(self.to_dict(), separators=(",", ":")) + "\n"

    @classmethod
    def from_dict(cls, doc: Any, source: str = "record") -> Record:
        """Check a parsed record entry by entry; raise :class:`RecordError` naming the first problem."""

        def bad(why: str) -> RecordError:
            return RecordError(f"{source}: {why}")

        if not isinstance(doc, dict):
            raise bad("not a game record: expected a JSON object")
        if doc.get("format") != FORMAT:
            raise bad(f"not a game record: 'format' is {_short(doc.get('format'))}, expected {FORMAT!r}")
        version = doc.get("version")
        if not _is_int(version) or version not in READS:
            raise bad(f"record format version {_short(version)} is not supported (this industry_env reads versions "
                      f"{', '.join(map(str, READS))})")  # fmt: skip
        doc = _from_version_1(doc, bad) if version == 1 else doc
        missing = [k for k in ("game", "num_players", "options", "data", "seed", "actions") if k not in doc]
        if missing:
            raise bad(f"missing entries {missing}")
        game_id = doc["game"]
        if not isinstance(game_id, str) or game_id not in available_games(include_hidden=True):
            raise bad(f"game is {_short(game_id)}: not a game of the suite (games: "
                      f"{', '.join(available_games(include_hidden=True))})")  # fmt: skip
        spec = load_game(game_id)
        n = doc["num_players"]
        try:
            n = spec.check_num_players(n) if _is_int(n) else spec.check_num_players(None)
        except ValueError:
            raise bad(f"num_players is {_short(n)}, expected {spec.min_players} to {spec.max_players} "
                      f"({spec.name})") from None  # fmt: skip
        options = doc["options"]
        if not isinstance(options, dict):
            raise bad("'options' must be an object of the game's options")
        stored_data = sorted(_data_options(spec) & set(options))
        if stored_data:
            raise bad(f"options.{stored_data[0]}: a data option is not stored in a record (its digest is, under "
                      f"'data'); pass it when replaying")  # fmt: skip
        try:
            checked = spec.options_from_json(options)
        except ValueError as exc:
            raise bad(str(exc)) from None
        seed = doc["seed"]
        if seed is None and doc.get("final_scores") is not None:
            raise bad("seed is null but the game is over: only the record of an unfinished game keeps its seed out "
                      "(in its private seed file); a finished game's record holds it")  # fmt: skip
        if seed is not None and (not _is_int(seed) or not 0 <= seed < 2**63):
            raise bad(f"seed is {_short(seed)}, expected a whole number from 0 to 2**63 - 1 (null: an unfinished "
                      f"game's record, its seed kept apart)")  # fmt: skip
        data = doc["data"]
        if not isinstance(data, dict):
            raise bad("'data' must be an object {what: {name, sha256}} of the data files the game was played on")
        try:
            due = set(spec.data_digests(**checked))  # the data files the game is played on: each must be named
        except ValueError as exc:
            raise bad(str(exc)) from None
        missing, unknown = sorted(due - set(data)), sorted(set(data) - due)
        if missing:
            raise bad(f"'data' lacks the digest of the {missing[0]} file the game was played on (data.{missing[0]}: "
                      f"{{name, sha256}}): without it a replay cannot check it plays on the same data")  # fmt: skip
        if unknown:
            raise bad(f"data.{unknown[0]}: {spec.name} is played on no such data file (its data: "
                      f"{', '.join(sorted(due))})")  # fmt: skip
        for what, d in data.items():
            digest = d.get("sha256") if isinstance(d, dict) else None
            if not isinstance(digest, str) or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
                raise bad(f"data.{what}.sha256 must be the 64 hex digits of the file's SHA-256")
            if not isinstance(d.get("name", ""), str):
                raise bad(f"data.{what}.name is {_short(d.get('name'))}, expected text")
        actions = doc["actions"]
        if not isinstance(actions, list):
            raise bad("'actions' must be a list of action numbers")
        longest = spec.max_game_length(n, **checked)
        if len(actions) > longest:
            raise bad(f"{len(actions):,} actions: no game of {spec.name} for {n} players lasts over {longest:,}")
        num_actions = spec.num_actions(**checked)
        for i, a in enumerate(actions):
            if not _is_int(a) or not 0 <= a < num_actions:
                raise bad(f"move {i + 1}: {_short(a)} is not an action number (0 to {num_actions - 1})")
        final = doc.get("final_scores")
        if final is not None and (not isinstance(final, list) or len(final) != n or not all(map(_is_int, final))
                                  or not all(abs(x) < 2**31 for x in final)):  # fmt: skip
            raise bad(f"final_scores is {_short(final)}, expected null or {n} whole numbers")
        undone = _undone(doc.get("undone", []), longest, num_actions, bad)
        encoding = doc.get("encoding", 1)
        if not _is_int(encoding) or not 1 <= encoding <= spec.action_encoding:
            raise bad(f"encoding is {_short(encoding)}: {spec.name}'s actions have had encodings 1 to "
                      f"{spec.action_encoding} (a newer industry_env wrote this record?)")  # fmt: skip
        json_options = {k: v for k, v in spec.options_to_json(checked).items() if k not in _data_options(spec)}
        return cls(num_players=n, seed=seed, actions=tuple(actions), game=game_id, options=json_options,
                   data={k: {"name": str(v.get("name", "")), "sha256": v["sha256"]} for k, v in data.items()},
                   final_scores=None if final is None else tuple(final), source=source, undone=undone,
                   encoding=encoding)  # fmt: skip

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> Record:
        """Parse and check record text; bad JSON (or nesting too deep, a giant number) is a :class:`RecordError`."""
        try:
            doc = parse_json(text)
        except TextDataError as exc:
            raise RecordError(f"{source}: {exc}") from None
        return cls.from_dict(doc, source)

    def save(self, path: str | os.PathLike[str], seats: Sequence[str | None] | None = None) -> None:
        """Write the record to ``path``, atomically and privately (:func:`save`; an OSError says why if it cannot
        be written)."""
        save(self, path, seats)


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut short (a hostile record's entry may be megabytes long)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number too long to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _from_version_1(doc: dict, bad: Any) -> dict:
    """A version 1 record (Industry: options.num_players, options.balanced_draws, board) as version 2 entries."""
    missing = [k for k in ("options", "seed", "board", "actions") if k not in doc]
    if missing:
        raise bad(f"missing entries {missing}")
    options = doc["options"]
    if not isinstance(options, dict) or "num_players" not in options:
        raise bad("'options' must be an object with 'num_players' (and 'balanced_draws')")
    balanced = options.get("balanced_draws", True)
    if not isinstance(balanced, bool):
        raise bad(f"options.balanced_draws is {_short(balanced)}, expected true or false")
    board = doc["board"]
    return {**{k: v for k, v in doc.items() if k not in ("board", "options")}, "game": "industry",
            "num_players": options["num_players"], "options": {"balanced_draws": balanced},
            "data": {"board": board if isinstance(board, dict) else {"sha256": None}}}  # fmt: skip


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _undone(entries: Any, longest: int, num_actions: int, bad: Any) -> tuple[Undone, ...]:
    """The record's ``undone`` entries, checked (each an ``{"at", "actions"}`` within the game's bounds)."""
    if not isinstance(entries, list):
        raise bad("'undone' must be a list of {at, actions}: the moves taken back")
    out = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or set(entry) != {"at", "actions"}:
            raise bad(f"undone[{i}]: expected {{at, actions}} (the moves taken back after the first 'at' moves)")
        at, actions = entry["at"], entry["actions"]
        if not _is_int(at) or not 0 <= at <= longest:
            raise bad(f"undone[{i}].at is {_short(at)}, expected a number of moves from 0 to {longest}")
        if not isinstance(actions, list) or not actions or at + len(actions) > longest:
            raise bad(f"undone[{i}].actions: expected a list of 1 to {longest - at} action numbers")
        for j, a in enumerate(actions):
            if not _is_int(a) or not 0 <= a < num_actions:
                raise bad(f"undone[{i}].actions[{j}]: {_short(a)} is not an action number (0 to {num_actions - 1})")
        out.append(Undone(at, tuple(actions)))
    return tuple(out)


def undone_lines(record: Record) -> list[tuple[int, ...]]:
    """Each line of play as it stood just before a take-back, in the order of :attr:`Record.undone`: worked out
    backwards from ``actions`` (the line after the last take-back continues its first ``at`` moves); RecordError if
    a take-back's ``at`` is beyond the line it was taken from."""
    lines: list[tuple[int, ...]] = []
    line = record.actions
    for i, u in reversed(list(enumerate(record.undone))):
        if u.at > len(line):
            raise RecordError(f"{record.source}: undone[{i}].at is {u.at}, but the line it was taken back from had "
                              f"only {len(line)} moves")  # fmt: skip
        line = line[: u.at] + u.actions
        lines.append(line)
    return lines[::-1]


class Recorder:
    """Collects the actions of one game as it is played, from its opening position; ``record()`` gives the Record.

    Environments and scripts create one per game (``Recorder.for_game(game)``, ``Recorder.for_engine(state, i,
    game=...)`` for game ``i`` of an engine batch, or with the set-up directly: ``Recorder(num_players, seed,
    game="industry", **options)``) and ``append`` each action taken.
    """

    def __init__(self, num_players: int, seed: int, game: str = DEFAULT_GAME, **options: Any) -> None:
        spec = load_game(game)
        n = spec.check_num_players(num_players)
        checked = spec.check_options(options)
        data_names = _data_options(spec)
        self._record = Record(
            num_players=n, seed=int(seed), actions=(), game=spec.id,
            options={k: v for k, v in spec.options_to_json(checked).items() if k not in data_names},
            data=spec.data_digests(**checked), encoding=spec.action_encoding,
        )  # fmt: skip
        Record.from_dict(self._record.to_dict(), "recorder")  # the set-up must make a valid record
        self.spec, self.options = spec, checked
        self._num_actions = spec.num_actions(**checked)
        self.actions: list[int] = []
        self.undone: list[Undone] = []  # moves taken back (take_back)

    @classmethod
    def for_game(cls, game: ReferenceGame, spec: GameSpec | None = None) -> Recorder:
        """A recorder for a reference game that has not started (its opening position); ValueError otherwise.

        ``spec`` is found from the game's class when not given."""
        spec = spec if spec is not None else _spec_of_game(game)
        n, seed, options = spec.setup_of(game)
        if spec.reference(n, seed=seed, **options).to_json() != game.to_json():
            raise ValueError("Recorder.for_game: the game has already started; a record starts at the opening "
                             "position (create the recorder right after creating the game)")  # fmt: skip
        return cls(n, seed, game=spec.id, **options)

    @classmethod
    def for_engine(cls, state: Any, i: int, game: str = DEFAULT_GAME) -> Recorder:
        """A recorder for game ``i`` of a batched engine ``State`` of ``game`` that has not started."""
        spec = load_game(game)
        return cls.for_game(spec.engine.to_game(state, i), spec)

    def append(self, action: int) -> None:
        """Note the next action played (an integer of the game's action encoding)."""
        a = int(action)
        if not 0 <= a < self._num_actions:
            raise ValueError(f"Recorder.append: {action!r} is not an action number (0 to {self._num_actions - 1})")
        self.actions.append(a)

    def take_back(self, at: int) -> tuple[int, ...]:
        """Take back every action after the first ``at`` (kept in the record's ``undone``); the actions taken back."""
        if not 0 <= at < len(self.actions):
            raise ValueError(f"Recorder.take_back: at={at!r}, expected 0 to {len(self.actions) - 1} (moves kept)")
        taken = tuple(self.actions[at:])
        del self.actions[at:]
        self.undone.append(Undone(at, taken))
        return taken

    def record(self, final_scores: Sequence[int] | None = None) -> Record:
        """The record so far; pass the final scores once the game is over (they are checked on replay)."""
        final = None if final_scores is None else tuple(int(x) for x in final_scores)
        return dataclasses.replace(self._record, actions=tuple(self.actions), final_scores=final,
                                   undone=tuple(self.undone))  # fmt: skip

    def save(self, path: str | os.PathLike[str], final_scores: Sequence[int] | None = None,
             seats: Sequence[str | None] | None = None) -> Record:  # fmt: skip
        """Write the record so far to ``path`` (atomically and privately: :func:`save`) and return it."""
        rec = self.record(final_scores)
        save(rec, path, seats)
        return rec


def _spec_of_game(game: ReferenceGame) -> GameSpec:
    """The spec whose reference class made ``game``."""
    cls = type(game)
    spec = spec_of(game)  # among the games loaded: a game object exists only once its package is imported
    if spec is not None and spec.reference_class == f"{cls.__module__}:{cls.__qualname__}":
        return spec
    raise ValueError(f"{cls.__qualname__} is not the reference game of a game of the suite")


def record_from_game(game: ReferenceGame, actions: Sequence[int], spec: GameSpec | None = None) -> Record:
    """The record of ``game`` played by ``actions`` from its seed's opening position, checked by replaying it.

    Raises :class:`RecordError` if the actions do not lead to ``game``'s position.
    """
    spec = spec if spec is not None else _spec_of_game(game)
    n, seed, options = spec.setup_of(game)
    rec = dataclasses.replace(Recorder(n, seed, game=spec.id, **options).record(),
                              actions=tuple(int(a) for a in actions), source="record_from_game")  # fmt: skip
    data_values = {k: v for k, v in options.items() if k in _data_options(spec)}
    if replay(rec, **data_values).to_json() != game.to_json():
        raise RecordError("record_from_game: these actions, played from the seed's opening position, do not "
                          "reach the game's position")  # fmt: skip
    return dataclasses.replace(rec, final_scores=tuple(game.scores()) if game.is_over else None, source="record")


def seed_file(path: str | os.PathLike[str]) -> Path:
    """Where the seed of the unfinished game recorded at ``path`` is kept: ``<path>.seed``, beside it."""
    p = Path(path)
    return p.with_name(p.name + SEED_SUFFIX)


class SeedFile(NamedTuple):
    """An unfinished game's private part: its seed, and who plays each seat (an agent's name; None: a person; the
    whole list None when the writer did not say); ``table``: what a server keeps of a table of several people (the
    SHA-256 digests of its seats' links, never the links themselves: :mod:`industry_env.web.table`), or None."""

    seed: int
    seats: list[str | None] | None
    table: dict[str, Any] | None = None


def save(record: Record, path: str | os.PathLike[str], seats: Sequence[str | None] | None = None,
         table: Mapping[str, Any] | None = None) -> None:  # fmt: skip
    """Write ``record`` to ``path`` as JSON, atomically (a reader never sees half a record) and readable by its owner
    only (0600).

    The record of an unfinished game is written without its seed (``"seed": null``), which would tell whoever reads
    it every hidden hand and draw to come; the seed goes to the private file :func:`seed_file` beside it, with
    ``seats`` (who plays each seat: an agent's name, None for a person) for :func:`resume`, and ``table`` (a JSON
    object: what a server keeps of a table of several people, :class:`SeedFile`). A finished game's record holds its
    seed, and its seed file is removed.
    """
    p = Path(path)
    if seats is not None:
        seats = list(seats)
        if len(seats) != record.num_players or not all(s is None or isinstance(s, str) for s in seats):
            raise ValueError(f"seats: who plays each of the {record.num_players} seats (a name, or None for a "
                             f"person), got {seats!r}")  # fmt: skip
    if record.final_scores is None:
        if record.seed is not None:  # the seed first: a record is never on disk without its seed file
            doc = {"format": SEED_FORMAT, "record": p.name, "seed": record.seed, "seats": seats,
                   **({"table": dict(table)} if table is not None else {})}  # fmt: skip
            write_text_atomic(seed_file(p), json.dumps(doc) + "\n", private=True)
        write_text_atomic(p, dataclasses.replace(record, seed=None).to_json(), private=True)
    else:
        write_text_atomic(p, record.to_json(), private=True)
        seed_file(p).unlink(missing_ok=True)


def read_seed_file(path: str | os.PathLike[str]) -> SeedFile | None:
    """The seed file of the record at ``path`` (None if there is none); RecordError naming it if it cannot be read
    or is not one."""
    where = seed_file(path)
    if not where.exists() and not where.is_symlink():
        return None
    try:
        doc = parse_json(read_text(where, MAX_SEED_FILE_BYTES, "seed file"))
    except TextDataError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != SEED_FORMAT:
        raise RecordError(f"{where}: not a seed file ('format' must be {SEED_FORMAT!r})")
    seed, seats = doc.get("seed"), doc.get("seats")
    if not _is_int(seed) or not 0 <= seed < 2**63:
        raise RecordError(f"{where}: seed is {_short(seed)}, expected a whole number from 0 to 2**63 - 1")
    if seats is not None and (not isinstance(seats, list) or not all(s is None or isinstance(s, str) for s in seats)):
        raise RecordError(f"{where}: seats is {_short(seats)}, expected a list of agent names (null: a person)")
    table = doc.get("table")
    if table is not None and not isinstance(table, dict):
        raise RecordError(f"{where}: table is {_short(table)}, expected an object")
    return SeedFile(seed, seats, table)


def load(path: str | os.PathLike[str]) -> Record:
    """Read and check a record file; :class:`RecordError` names the file and the problem. An unfinished game's
    record gets its seed back from its seed file when there is one (module docstring); without it, ``seed`` is
    None and the record cannot be replayed."""
    source = os.fspath(path)
    try:
        text = read_text(path, MAX_RECORD_BYTES, "game record")
    except TextDataError as exc:
        raise RecordError(f"{source}: {exc}") from None
    record = Record.from_json(text, source)
    if record.seed is None:
        kept = read_seed_file(path)
        if kept is not None:
            record = dataclasses.replace(record, seed=kept.seed)
    return upgraded(record) if record.seed is not None else record


def upgraded(record: Record, board: Any = None, **data_options: Any) -> Record:
    """``record`` with its actions (and those taken back) in its game's action encoding of today, read from an
    older one move by move in their positions (:meth:`GameSpec.upgrade_action`); the record itself if they are
    already. RecordError (file, move) if a move has no equivalent; the record must hold its seed."""
    spec = record.spec
    if record.encoding == spec.action_encoding:
        return record

    def line(actions: Sequence[int], what: str) -> tuple[int, ...]:
        game, out = opening(record, board, **data_options), []
        for number, action in enumerate(actions, start=1):
            try:
                new = spec.upgrade_action(game, action, record.encoding)
                game.apply(new)
            except ValueError as exc:
                raise RecordError(f"{record.source}: {what}move {number} (action {action} of {spec.name}'s action "
                                  f"encoding {record.encoding}) cannot be read in today's encoding "
                                  f"{spec.action_encoding}: {exc}") from None  # fmt: skip
            out.append(new)
        return tuple(out)

    lines = undone_lines(record)
    actions = line(record.actions, "")
    new_lines = [line(old, f"undone[{i}]: ") for i, old in enumerate(lines)]
    undone = tuple(Undone(u.at, new[u.at:]) for u, new in zip(record.undone, new_lines, strict=True))
    return dataclasses.replace(record, actions=actions, undone=undone, encoding=spec.action_encoding)


def resume(path: str | os.PathLike[str]) -> tuple[Record, list[str | None] | None]:
    """The unfinished game recorded at ``path``, its seed read back, to be played on; and who played each seat
    (None if the writer did not say). RecordError if the game is over or its seed file is missing."""
    record = load(path)
    if record.final_scores is not None:
        raise RecordError(f"{os.fspath(path)}: the game is over: there is nothing to resume (replay it: "
                          f"industry-env replay {os.fspath(path)})")  # fmt: skip
    if record.seed is None:
        raise RecordError(_no_seed(record.source))
    kept = read_seed_file(path)
    seats = kept.seats if kept is not None else None
    if seats is not None and len(seats) != record.num_players:
        raise RecordError(f"{seed_file(path)}: seats names {len(seats)} players, the record has "
                          f"{record.num_players}")  # fmt: skip
    return record, seats


def _no_seed(source: str) -> str:
    beside = Path(source).name if source.endswith(".json") else "<record file>"
    return (f"{source}: the record of an unfinished game holds no seed (it is kept private, in the seed file "
            f"{beside}{SEED_SUFFIX} beside the file where it was saved, readable by its owner only): without it "
            f"the game can be neither replayed nor resumed")  # fmt: skip


def default_folder() -> Path:
    """The user's records folder: ``industry_env/records`` in the user's data folder ($XDG_DATA_HOME, else
    ~/.local/share, on Linux and other Unix systems; ~/Library/Application Support on macOS; %LOCALAPPDATA% on
    Windows), never a folder shared with other users."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "industry_env" / "records"


def private_folder(path: str | os.PathLike[str]) -> Path:
    """``path`` made if missing, with the folders above it that are missing, each readable by its owner only
    (0700); an existing folder is left as it is. The folder, absolute."""
    p = Path(path).absolute()
    missing = []
    q = p
    while not q.exists() and q != q.parent:
        missing.append(q)
        q = q.parent
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)  # whatever the umask
    return p


class Move(NamedTuple):
    """One replayed move: its number (from 1), who played it, the action, its readable name and the game after."""

    number: int
    player: int
    action: int
    name: str
    game: Any  # the live reference game, already updated: copy it (clone()) to keep this position


def opening(record: Record, board: Any = None, **data_options: Any) -> ReferenceGame:
    """The opening position of ``record``'s game, on the data it was played on (``board=`` or the game's other
    data options for files that are not shipped); RecordError if the given data's digests differ."""
    spec = record.spec
    if record.seed is None:
        raise RecordError(_no_seed(record.source))
    if board is not None:
        data_options["board"] = board
    unknown = sorted(set(data_options) - _data_options(spec))
    if unknown:
        raise RecordError(f"{record.source}: {', '.join(unknown)}: not a data option of {spec.name}")
    try:
        options = spec.check_options({**spec.options_from_json(record.options), **data_options})
    except ValueError as exc:
        raise RecordError(f"{record.source}: {exc}") from None
    digests = spec.data_digests(**options)
    for what, want in record.data.items():
        have = digests.get(what)
        if have is None or have["sha256"] != want["sha256"]:
            given = what in data_options
            hint = (f"pass the {what} file it was played on (--{what} PATH)" if what in _data_options(spec) and
                    not given else f"it was not played on this {what} file")  # fmt: skip
            shown = f"{have['name']} (sha256 {have['sha256'][:12]}...)" if have else "none"
            raise RecordError(f"{record.source}: the record was played on another {what} ({want.get('name')!r}, "
                              f"sha256 {want['sha256'][:12]}...) than {shown}: {hint}")  # fmt: skip
    return spec.reference(record.num_players, seed=record.seed, **options)


def iter_replay(record: Record, board: Any = None, **data_options: Any) -> Iterator[Move]:
    """Replay ``record`` move by move with the reference engine, yielding each :class:`Move` after it is played.

    Raises :class:`RecordError` (file, move number, reason) for other data, an illegal move, or final scores
    that differ from the recorded ones, or, once the line is played, a line taken back (``undone``) that was not
    legal.
    """
    spec = record.spec
    record = upgraded(record, board, **data_options)
    game = opening(record, board, **data_options)
    for number, action in enumerate(record.actions, start=1):
        player = game.current_player
        if game.is_over:
            raise RecordError(f"{record.source}: move {number}: action {action} comes after the end of the game "
                              f"(the game ended with move {number - 1})")  # fmt: skip
        if not game.legal_action_mask()[action]:
            try:
                game.apply(action)  # the engine's own message says why
                why = "not a legal action"
            except ValueError as exc:
                why = str(exc)
            raise RecordError(f"{record.source}: move {number} (player {player}) is illegal: {why}")
        name = spec.describe_action(game, action)
        game.apply(action)
        yield Move(number, player, action, name, game)
    if record.final_scores is not None:
        if not game.is_over:
            raise RecordError(f"{record.source}: the record gives final scores {list(record.final_scores)} but the "
                              f"game is not over after its {len(record.actions)} moves")  # fmt: skip
        if tuple(game.scores()) != record.final_scores:
            raise RecordError(f"{record.source}: after move {len(record.actions)} the final scores are "
                              f"{game.scores()}, the record says {list(record.final_scores)}")  # fmt: skip
    for i, line in enumerate(undone_lines(record)):  # every line taken back was played by the rules too
        other = opening(record, board, **data_options)
        for number, action in enumerate(line, start=1):
            if other.is_over or not other.legal_action_mask()[action]:
                raise RecordError(f"{record.source}: undone[{i}]: move {number} (action {action}) of the line taken "
                                  f"back is not legal in its position")  # fmt: skip
            other.apply(action)


def replay(record: Record, board: Any = None, **data_options: Any) -> Any:
    """Replay ``record`` with the reference engine and return the game at its end (see :func:`iter_replay`)."""
    game = opening(record, board, **data_options)
    for move in iter_replay(record, board, **data_options):
        game = move.game
    return game


__all__ = ["FORMAT", "VERSION", "Record", "RecordError", "Recorder", "Move", "SeedFile", "Undone", "board_digest",
           "record_from_game", "save", "load", "seed_file", "read_seed_file", "resume", "default_folder",
           "private_folder", "opening", "iter_replay", "replay", "undone_lines", "upgraded"]  # fmt: skip
