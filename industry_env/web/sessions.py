"""The server's live games and open records: each one a person's, found by an unguessable id, bounded in number
and in size (a game never exceeds its longest possible length, a record its file limit).

A live game is one seat played by the person and the other seats by agents the server was started with; its
record (``industry-env replay`` plays it) is written to the records folder when the game ends, and when an
unfinished game the person has moved in is closed: quit, pushed out by a newer game, or the server stopping. An
unfinished game's record is resumable (its seed and seats in the private seed file beside it: ``records.save``).
Only a game idle for ``keep_s`` seconds (no request named it) is pushed out for a new one, the longest idle first;
when every game is in use, a new game is refused (503) instead: no request from outside costs a person a game.
A game pushed out comes back from its record when its id is named again.
Every change to a game happens under its lock, checked first: a bad move leaves the game as it was.
"""

from __future__ import annotations

import collections
import os
import re
import secrets
import stat
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.spec import GameSpec, ReferenceGame
from ..core.textdata import TextDataError, read_text
from ..records import (
    MAX_RECORD_BYTES,
    Record,
    Recorder,
    RecordError,
    default_folder,
    opening,
    private_folder,
    read_seed_file,
    save,
)
from .views import View, view_of

#: a record file the records folder serves: a plain name, no folder (nothing outside the folder is reachable)
RECORD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.json$")
KEEP_S = 600.0  # a game named by a request within the last 10 minutes is never closed for a new one
MAX_PUSHED_OUT = 1024  # ids of games pushed out that come back when named (each game stays in its record anyway)


class RequestError(ValueError):
    """A request the server refuses: the HTTP status and a message saying what is wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class LiveGame:
    """One game in progress: the person's seat, the agents of the other seats, the record and the moves so far."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any], game: ReferenceGame, seat: int,
                 agents: Sequence[str | None], choosers: Sequence[Callable[[Any], int] | None],
                 game_id: str | None = None) -> None:  # fmt: skip
        self.id = game_id or secrets.token_urlsafe(18)
        self.spec, self.options, self.game, self.seat = spec, dict(options), game, seat
        self.agents, self.choosers = list(agents), list(choosers)
        self.view: View = view_of(spec)
        self.recorder = Recorder.for_game(game, spec)
        self.history: list[dict[str, Any]] = []  # {"n", "player", "text"} a decision; "effects" ends a move
        self._move: tuple[Any, list[int], int] | None = None  # the move in progress: start, decisions, mover
        self.lock = threading.Lock()
        self.used = time.monotonic()
        self.saved_as: str | None = None  # the record's file name, once written
        self.saved_ply = -1  # the decisions the record holds
        self.person_moves = 0  # decisions the person made: a game closed before any is not worth a record
        self.limit = spec.max_game_length(game.num_players, **self.options)

    @property
    def ply(self) -> int:
        """Decisions played so far (what a move names to show it was chosen in this position)."""
        return len(self.recorder.actions)

    def apply(self, action: int) -> None:
        """Play one legal action, noting it in the record and the history (described before it is played; what
        the whole move did, once it is complete, as the person's seat may know it)."""
        player = int(self.game.current_player)
        if self._move is None:
            self._move = (self.view.move_start(self.game), [], player)
        text = self.spec.describe_action(self.game, action)
        self.game.apply(action)
        self.recorder.append(action)
        entry: dict[str, Any] = {"n": self.ply, "player": player, "text": text}
        self.person_moves += player == self.seat
        start, actions, mover = self._move
        actions.append(action)
        if self.view.move_done(self.game, mover):
            entry["effects"] = self.view.move_effects(self.game, start, actions, mover, self.seat)
            self._move = None
        self.history.append(entry)

    def play_agents(self) -> None:
        """The agents move until it is the person's turn or the game is over."""
        while not self.game.is_over and self.game.current_player != self.seat:
            if self.ply >= self.limit:  # never reached by a game that follows its rules: a bound on memory
                raise RuntimeError(f"the game passed its longest possible length ({self.limit} decisions)")
            chooser = self.choosers[self.game.current_player]
            self.apply(int(chooser(self.game)))

    def record(self) -> Record:
        """The game's record so far."""
        return self.recorder.record(self.game.scores() if self.game.is_over else None)


class Replay:
    """An opened record: its moves, and the position after any of them (replayed from the nearest position
    computed, forwards)."""

    def __init__(self, record: Record, source: str) -> None:
        self.id = secrets.token_urlsafe(18)
        self.record, self.source = record, source
        self.spec = record.spec
        self.view: View = view_of(self.spec)
        self.lock = threading.Lock()
        self.used = time.monotonic()
        try:
            self._opening = opening(record)
        except RecordError as exc:
            raise RequestError(422, str(exc)) from None
        # replay it once whole: a record that does not replay is refused now, not at its bad move
        game, self.players, self.names = self._opening.clone(), [], []
        for number, action in enumerate(record.actions, start=1):
            if game.is_over or not 0 <= action < len(game.legal_action_mask()) or not game.legal_action_mask()[action]:
                raise RequestError(422, f"{source}: move {number} (action {action}) is not legal in its position: "
                                        f"the record does not replay")  # fmt: skip
            self.players.append(int(game.current_player))
            self.names.append(self.spec.describe_action(game, action))
            game.apply(action)
        if record.final_scores is not None and tuple(game.scores()) != tuple(record.final_scores):
            raise RequestError(422, f"{source}: the record's final scores {list(record.final_scores)} are not the "
                                    f"game's ({game.scores()})")  # fmt: skip
        self.finished = game.is_over
        self._at, self._game = 0, self._opening.clone()

    def position(self, k: int) -> ReferenceGame:
        """The game after the first ``k`` moves."""
        if k < self._at:
            self._at, self._game = 0, self._opening.clone()
        while self._at < k:
            self._game.apply(self.record.actions[self._at])
            self._at += 1
        return self._game


class Store:
    """The live games and open records, each bounded in number. A new game takes the place of the game idle the
    longest (saved first), never of one used in the last ``keep_s`` seconds: then the new game is refused (503).
    The least recently watched record is closed when a new one needs its place."""

    def __init__(self, records: Path, max_games: int = 32, max_replays: int = 16, keep_s: float = KEEP_S) -> None:
        self.records = records
        self.max_games, self.max_replays, self.keep_s = max_games, max_replays, keep_s
        self.games: collections.OrderedDict[str, LiveGame] = collections.OrderedDict()
        self.replays: collections.OrderedDict[str, Replay] = collections.OrderedDict()
        self.pushed_out: collections.OrderedDict[str, str] = collections.OrderedDict()  # id -> its record's name
        self.lock = threading.Lock()

    # ------------------------------------------------------------------------------------------ live games
    def check_room(self) -> None:
        """503 if there are ``max_games`` games and every one was used in the last ``keep_s`` seconds."""
        with self.lock:
            self._idlest()

    def _idlest(self) -> LiveGame | None:
        """The game idle the longest, if a new game needs its place (None: there is room); 503 if all are in use."""
        if len(self.games) < self.max_games:
            return None
        now = time.monotonic()
        idle = [g for g in self.games.values() if now - g.used >= self.keep_s]
        if not idle:
            wait = max(1, round((self.keep_s - max(now - g.used for g in self.games.values())) / 60))
            raise RequestError(503, f"the server holds its most games ({self.max_games}: --max-games) and each was "
                                    f"played in the last {self.keep_s / 60:g} minutes, so none is closed for a new "
                                    f"one: try again in about {wait} minute(s), or leave a game first")  # fmt: skip
        return min(idle, key=lambda g: g.used)

    def add_game(self, live: LiveGame) -> None:
        """Keep ``live``; the game idle the longest is saved (resumable) and closed if there are ``max_games``, or
        503 if every game was used in the last ``keep_s`` seconds (``live`` is not kept)."""
        with self.lock:
            while (oldest := self._idlest()) is not None:
                del self.games[oldest.id]
                name = self._close(oldest)  # under the store's lock: no request finds the game neither here nor saved
                if name is not None:
                    self.pushed_out[oldest.id] = name
                    while len(self.pushed_out) > MAX_PUSHED_OUT:
                        self.pushed_out.popitem(last=False)
            self.pushed_out.pop(live.id, None)
            self.games[live.id] = live

    def game(self, game_id: str) -> LiveGame:
        """The live game ``game_id`` (404 if there is none: never made, closed, or pushed out: :meth:`pushed`)."""
        with self.lock:
            live = self.games.get(game_id)
            if live is None:
                raise RequestError(404, "no such game: it was never started, or it was closed (a game you made a "
                                        "move in is saved in the records folder: resume it from there)")  # fmt: skip
            self.games.move_to_end(game_id)
            live.used = time.monotonic()
            return live

    def pushed(self, game_id: str) -> str | None:
        """The record's file name of game ``game_id`` if it was pushed out by a newer game, else None."""
        with self.lock:
            return self.pushed_out.get(game_id)

    def playing(self, name: str) -> LiveGame | None:
        """The live game whose record is the file ``name``, if one is live."""
        with self.lock:
            return next((g for g in self.games.values() if g.saved_as == name), None)

    def close_game(self, game_id: str) -> str | None:
        """Save (if anything was played and it is not saved yet) and forget the game; the record's file name."""
        with self.lock:
            name = self.pushed_out.pop(game_id, None)
        if name is not None:  # pushed out by newer games, and saved then
            return name
        live = self.game(game_id)
        with self.lock:
            self.games.pop(game_id, None)
        return self._close(live)

    def close_all(self) -> None:
        """Save and forget every live game (the server is stopping)."""
        with self.lock:
            games, self.games = list(self.games.values()), collections.OrderedDict()
        for live in games:
            self._close(live)

    def _close(self, live: LiveGame) -> str | None:
        """Save the game unless its record is up to date or the person never moved in it (only agents' moves:
        nothing of theirs is lost, and a flood of new games fills no folder); the record's file name, or None."""
        with live.lock:
            if live.person_moves and live.saved_ply != live.ply:
                self.save(live)
            return live.saved_as

    def save(self, live: LiveGame) -> str:
        """Write the game's record, privately: to its file if it has one, else to a new file of the records folder
        (never over another); its name. An unfinished game's seed and seats go to the seed file beside it."""
        folder = private_folder(self.records)
        if live.saved_as is not None:
            path = folder / live.saved_as
        else:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = f"{live.spec.id}-game-{stamp}-{live.id[:6].replace('-', 'x').replace('_', 'y')}.json"
            path, k = folder / name, 2
            while path.exists():
                path, k = folder / name.replace(".json", f"-{k}.json"), k + 1
        save(live.record(), path, live.agents)
        live.saved_as, live.saved_ply = path.name, live.ply
        return path.name

    # ------------------------------------------------------------------------------------------ records
    def record_files(self) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """The records folder's JSON files, newest first (``{"name", "kind": "record"|"arena"|"other", ...}``),
        and those that cannot be read, each with why (``{"name", "why"}``): a link, a file that vanished or may
        not be read is named, never a reason for the list to fail."""
        files: list[dict[str, Any]] = []
        skipped: list[dict[str, str]] = []
        try:
            entries = list(os.scandir(self.records))
        except FileNotFoundError:
            return files, skipped
        except OSError as exc:
            return files, [{"name": str(self.records), "why": f"the folder cannot be read ({exc.strerror or exc})"}]
        found = []
        for entry in entries:
            if not RECORD_NAME.match(entry.name):  # seed files, files being written, others: not the page's
                continue
            try:
                if entry.is_symlink():  # nothing from elsewhere
                    skipped.append({"name": entry.name, "why": "a symbolic link: only the folder's own files are "
                                                               "read"})  # fmt: skip
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError as exc:
                skipped.append({"name": entry.name, "why": f"cannot be read ({exc.strerror or exc})"})
                continue
            if not stat.S_ISREG(info.st_mode):
                skipped.append({"name": entry.name, "why": "not a plain file"})
                continue
            found.append((info.st_mtime, entry.name))
        for _, name in sorted(found, reverse=True):
            path = self.records / name
            try:
                text = read_text(path, MAX_RECORD_BYTES, "game record")
            except TextDataError as exc:
                skipped.append({"name": name, "why": str(exc)})
                continue
            entry: dict[str, Any] = {"name": name}
            try:
                record = Record.from_json(text, name)
            except (RecordError, ValueError):
                entry["kind"] = "arena" if "arena" in name else "other"
                files.append(entry)
                continue
            finished = record.final_scores is not None
            try:
                kept = None if finished else read_seed_file(path)
            except RecordError:
                kept = None
            resumable = kept is not None and kept.seats is not None and kept.seats.count(None) == 1
            entry.update(kind="record", game=record.spec.name, players=record.num_players, moves=len(record.actions),
                         finished=finished, resumable=resumable)  # fmt: skip
            files.append(entry)
        return files, skipped

    def record_path(self, name: str) -> Path:
        """The file ``name`` of the records folder: a plain file name only (no folder, no ``..``), which exists."""
        if not isinstance(name, str) or not RECORD_NAME.match(name) or ".." in name:
            raise RequestError(400, f"{name!r}: not a file name of the records folder (letters, digits, '.', '_', "
                                    f"'-', ending in .json; no folders)")  # fmt: skip
        path = self.records / name
        if path.is_symlink() or not path.is_file() or path.resolve().parent != self.records.resolve():
            raise RequestError(404, f"{name}: no such file in the records folder")
        return path

    def open_replay(self, record: Record, source: str) -> Replay:
        """Open ``record`` for watching; the least recently watched is closed if there are ``max_replays``."""
        replay = Replay(record, source)
        with self.lock:
            while len(self.replays) >= self.max_replays:
                self.replays.popitem(last=False)
            self.replays[replay.id] = replay
        return replay

    def replay(self, replay_id: str) -> Replay:
        with self.lock:
            replay = self.replays.get(replay_id)
            if replay is None:
                raise RequestError(404, "no such record open: open it again")
            self.replays.move_to_end(replay_id)
            replay.used = time.monotonic()
            return replay


def read_record(text: str, source: str) -> Record:
    """A record from uploaded text (at most the record limit); 400 saying why it is not one."""
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise RequestError(413, f"{source}: {len(text.encode('utf-8'))} bytes; a record is at most "
                                f"{MAX_RECORD_BYTES} bytes")  # fmt: skip
    try:
        return Record.from_json(text, source)
    except (RecordError, ValueError) as exc:
        raise RequestError(400, str(exc)) from None
    except RecursionError:
        raise RequestError(400, f"{source}: its JSON is nested too deeply") from None


def records_folder(path: str | os.PathLike[str] | None) -> Path:
    """The records folder (default: ``industry_env/records`` in the user's data folder, ``records.default_folder``;
    made readable by its owner only when first needed)."""
    return Path(path if path is not None else default_folder()).absolute()
