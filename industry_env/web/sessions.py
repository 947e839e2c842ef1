"""The server's live games and open records: each game reached through its links (unguessable tokens, one per
person's seat, :mod:`.table`), bounded in number and in size (a game never exceeds its longest possible length, a
record its file limit).

A live game is a table: each seat played by a person (through a link) or by one of the agents the server was
started with. Its record (``industry-env replay`` plays it) is written to the records folder when the game ends,
and when an unfinished game a person has moved in is closed: left by its creator, pushed out by a newer game, or
the server stopping. An unfinished game's record is resumable (its seed, seats and links' digests in the private
seed file beside it: ``records.save``). Only a game idle for ``keep_s`` seconds (no request named it) is pushed
out for a new one, the longest idle first; when every game is in use, a new game is refused (503) instead: no
request from outside costs a person a game. A game pushed out comes back from its record when one of its links is
named again, and, after the server restarted, when a link kept in a seed file is.
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
    SEED_SUFFIX,
    Record,
    Recorder,
    RecordError,
    default_folder,
    opening,
    private_folder,
    read_seed_file,
    save,
)
from .table import Link, digest, new_token
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
    """One game in progress: who plays each seat (people through their links, agents), the record and the moves so
    far.

    ``agents`` names each seat's agent (None: a person's seat); ``choosers`` holds the function that plays each
    seat played by an agent now (an agent's seat, or a person's handed to an agent: ``handed``), None for a seat
    its person plays. ``links`` are the table's links (:mod:`.table`); without them the game is one person's, at
    ``seat``, reached by its id (the creator's link: the game's id is its token).
    """

    def __init__(self, spec: GameSpec, options: Mapping[str, Any], game: ReferenceGame, seat: int,
                 agents: Sequence[str | None], choosers: Sequence[Callable[[Any], int] | None],
                 game_id: str | None = None, links: Sequence[Link] | None = None, advisor: bool | None = None,
                 budget: int | None = None, handed: Mapping[int, str] | None = None) -> None:  # fmt: skip
        self.id = game_id or new_token()
        self.spec, self.options, self.game = spec, dict(options), game
        self.agents, self.choosers = list(agents), list(choosers)
        self.people = tuple(p for p, a in enumerate(self.agents) if a is None)  # the seats people play
        self.handed: dict[int, str] = dict(handed or {})  # a person's seat played by an agent now, and which
        self.private = spec.hidden_information and spec.private_information  # a hand one seat holds alone
        if links is None:  # one person, at `seat`: the game's id is that person's link
            links = [Link(digest(self.id), (seat,), creator=True, token=self.id, shown=seat)]
        self.links = list(links)
        for link in self.links:
            if link.hotseat and self.private:
                link.shown = None  # the first turn too asks who sits at the screen before showing a hand
        self.advisor = len(self.people) == 1 if advisor is None else advisor
        self.budget = budget
        self.view: View = view_of(spec)
        self._opening = game.clone()
        self.recorder = Recorder.for_game(game, spec)
        self.history: list[dict[str, Any]] = []  # {"n", "player", "text"} a decision; "effects" ends a move
        self._move: tuple[Any, list[int], int] | None = None  # the move in progress: start, decisions, mover
        self.lock = threading.Lock()
        self.used = time.monotonic()
        self.saved_as: str | None = None  # the record's file name, once written
        self.saved_ply = -1  # the decisions the record holds
        self.person_moves = 0  # decisions people made: a game closed before any is not worth a record
        self.limit = spec.max_game_length(game.num_players, **self.options)
        self.version = 0  # grows with every change: what the live-update streams announce
        self.closed = False  # closed (left, pushed out, the server stopping): its streams end
        self.thinking = [[0, 0.0, 0.0] for _ in self.agents]  # per seat: agent decisions, seconds in all, the last
        self._at: tuple[int, int, ReferenceGame] | None = None  # a delayed view's position: (line, ply, game)
        self._line = 0  # grows with every take-back: a position cached for an earlier line is not this line's

    @property
    def seat(self) -> int:
        """The creator's seat (the first, on a hot-seat screen)."""
        return next((link.seats[0] for link in self.links if link.creator), self.people[0])

    @property
    def ply(self) -> int:
        """Decisions played so far (what a move names to show it was chosen in this position)."""
        return len(self.recorder.actions)

    @property
    def viewers(self) -> list[int]:
        """Whose account of each move the history keeps: each person's seat, then the public one (-1)."""
        return [*self.people, -1]

    def apply(self, action: int) -> None:
        """Play one legal action, noting it in the record and the history (described before it is played; what
        the whole move did, once it is complete, as each person's seat and the public may know it)."""
        player = int(self.game.current_player)
        if self._move is None:
            self._move = (self.view.move_start(self.game), [], player)
        text = self.spec.describe_action(self.game, action)
        self.game.apply(action)
        self.recorder.append(action)
        entry: dict[str, Any] = {"n": self.ply, "player": player, "text": text}
        self.person_moves += player in self.people and player not in self.handed
        start, actions, mover = self._move
        actions.append(action)
        if self.view.move_done(self.game, mover):
            entry["effects"] = {v: self.view.move_effects(self.game, start, actions, mover, v) for v in self.viewers}
            self._move = None
        self.history.append(entry)
        self.version += 1
        current = -1 if self.game.is_over else int(self.game.current_player)
        for link in self.links:
            if link.hotseat and (current in link.seats or self.private) and current != link.shown:
                link.shown = None if self.private else current

    def play_agents(self) -> None:
        """The agents (and the seats handed to one) move until a person is to move or the game is over."""
        while not self.game.is_over and self.choosers[self.game.current_player] is not None:
            if self.ply >= self.limit:  # never reached by a game that follows its rules: a bound on memory
                raise RuntimeError(f"the game passed its longest possible length ({self.limit} decisions)")
            p = int(self.game.current_player)
            chooser = self.choosers[p]
            assert chooser is not None
            t0 = time.perf_counter()
            action = int(chooser(self.game))
            spent = time.perf_counter() - t0
            mine = self.thinking[p]
            mine[0], mine[1], mine[2] = mine[0] + 1, mine[1] + spent, spent
            self.apply(action)

    def replay_line(self, actions: Sequence[int]) -> None:
        """Play ``actions`` from the opening position again (the game, the record's line and the history made anew;
        what was taken back stays in the record): how a take-back restores an earlier position."""
        self.game = self._opening.clone()
        self.recorder.actions.clear()
        self.history, self._move, self.person_moves = [], None, 0
        for action in actions:
            self.apply(int(action))
        self._line += 1
        self._at = None

    def position(self, ply: int) -> ReferenceGame:
        """The game after its first ``ply`` decisions (a delayed spectator's view), replayed from the nearest position
        computed before."""
        if ply >= self.ply:
            return self.game
        if self._at is None or self._at[0] != self._line or self._at[1] > ply:
            self._at = (self._line, 0, self._opening.clone())
        line, at, game = self._at
        for action in self.recorder.actions[at:ply]:
            game.apply(action)
        self._at = (line, ply, game)
        return game

    def viewer(self, link: Link) -> int | None:
        """Whose view ``link`` shows now: its seat; on a hot-seat screen, the seat it is seen from (in a game of
        private hands, only the seat to move once its person asked to see it); None: the public view."""
        if link.spectator:
            return None
        if not link.hotseat:
            return link.seats[0]
        if self.private and (self.game.is_over or link.shown != self.game.current_player):
            return None
        return link.shown

    def handover(self, link: Link) -> int | None:
        """On a hot-seat screen of a game of private hands, the seat to move whose person must take the screen
        (and ask for their hand) before it is shown; else None."""
        if not (link.hotseat and self.private) or self.game.is_over:
            return None
        current = int(self.game.current_player)
        return current if current in link.seats and link.shown != current else None

    def history_for(self, viewer: int, upto: int | None = None) -> list[dict[str, Any]]:
        """The moves as ``viewer`` (a seat, or -1: the public) may know them, up to decision ``upto``."""
        out = []
        for entry in self.history[: self.ply if upto is None else upto]:
            shown = {"n": entry["n"], "player": entry["player"], "text": entry["text"]}
            if "effects" in entry:
                shown["effects"] = entry["effects"][viewer]
            out.append(shown)
        return out

    def table_doc(self) -> dict[str, Any]:
        """What the seed file keeps of the table: its people, who plays a person's seat now, the links' digests,
        the advisor and the search's budget."""
        return {"people": list(self.people), "handed": {str(p): a for p, a in self.handed.items()},
                "links": [link.to_doc() for link in self.links], "advisor": self.advisor,
                "budget": self.budget}  # fmt: skip

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
        # a game pushed out by newer ones: its key -> its record's name, and its links' tokens (kept in memory only)
        self.pushed_out: collections.OrderedDict[str, tuple[str, dict[str, str]]] = collections.OrderedDict()
        self.links: dict[str, str] = {}  # a link's digest -> its game's key (live or pushed out)
        self._seed_index: dict[str, tuple[float, list[str]]] = {}  # a seed file -> (its mtime, its links' digests)
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
                    tokens = {link.digest: link.token for link in oldest.links if link.token is not None}
                    self.pushed_out[oldest.id] = (name, tokens)
                    while len(self.pushed_out) > MAX_PUSHED_OUT:
                        gone, _ = self.pushed_out.popitem(last=False)
                        self._forget_links(gone)
                else:
                    self._forget_links(oldest.id)
            self.pushed_out.pop(live.id, None)
            self.games[live.id] = live
            for link in live.links:
                self.links[link.digest] = live.id

    def add_link(self, live: LiveGame, link: Link) -> None:
        """A new link of the live game ``live`` (already in its ``links``) is found from now on."""
        with self.lock:
            self.links[link.digest] = live.id

    def drop_link(self, link: Link) -> None:
        """A link replaced by a new one is found no more."""
        with self.lock:
            self.links.pop(link.digest, None)

    def _forget_links(self, key: str) -> None:
        for d in [d for d, k in self.links.items() if k == key]:
            del self.links[d]

    def entry(self, token: str) -> tuple[LiveGame, Link]:
        """The live game a link's ``token`` reaches, and the link (404 if none: never made, closed, or pushed out:
        :meth:`pushed`)."""
        d = digest(token) if isinstance(token, str) else ""
        with self.lock:
            key = self.links.get(d)
            live = self.games.get(key) if key is not None else None
            if live is None:
                raise RequestError(404, "no such game: it was never started, or it was closed (a game you made a "
                                        "move in is saved in the records folder: resume it from there, or open "
                                        "your seat's link again)")  # fmt: skip
            self.games.move_to_end(live.id)
            live.used = time.monotonic()
            return live, next(link for link in live.links if link.digest == d)

    def game(self, token: str) -> LiveGame:
        """The live game a link's ``token`` reaches (the game's id is its creator's link)."""
        return self.entry(token)[0]

    def pushed(self, token: str) -> tuple[str, str, dict[str, str]] | None:
        """(the game's key, its record's file name, its links' tokens) of the game ``token`` reaches, if it was
        pushed out by a newer game; else None."""
        with self.lock:
            key = self.links.get(digest(token))
            if key is None or key not in self.pushed_out:
                return None
            name, tokens = self.pushed_out[key]
            return key, name, tokens

    def playing(self, name: str) -> LiveGame | None:
        """The live game whose record is the file ``name``, if one is live."""
        with self.lock:
            return next((g for g in self.games.values() if g.saved_as == name), None)

    def close_game(self, token: str) -> str | None:
        """Save (if anything was played and it is not saved yet) and forget the game ``token`` reaches; the record's
        file name. Only the table's creator closes it (403 for another link). A person alone closes the game's link
        with it (played on from the records list, with a new link); a table of several people is adjourned: each
        seat's link brings it back."""
        pushed = self.pushed(token)
        if pushed is not None:  # pushed out by newer games, and saved then
            with self.lock:
                self.pushed_out.pop(pushed[0], None)
            return pushed[1]
        live, link = self.entry(token)
        if not link.creator:
            raise RequestError(403, "only the table's creator closes the table (it is saved, and each seat's link "
                                    "plays it on); to leave it, hand your seat to an agent")  # fmt: skip
        with self.lock:
            self.games.pop(live.id, None)
            alone = len(live.people) == 1
            if alone:  # a person alone leaving: the game's links close with it (played on from the records list)
                self._forget_links(live.id)
        if alone:
            with live.lock:
                live.links = []
                if live.saved_as is not None and not live.game.is_over:
                    live.saved_ply = -1  # written again, without the links
        return self._close(live)

    def close_all(self) -> None:
        """Save and forget every live game (the server is stopping)."""
        with self.lock:
            games, self.games = list(self.games.values()), collections.OrderedDict()
        for live in games:
            self._close(live)

    def _close(self, live: LiveGame) -> str | None:
        """Save the game unless its record is up to date or no person moved in it (only agents' moves: nothing of
        theirs is lost, and a flood of new games fills no folder); the record's file name, or None."""
        with live.lock:
            live.closed = True
            if live.person_moves and live.saved_ply != live.ply:
                self.save(live)
            return live.saved_as

    def save(self, live: LiveGame) -> str:
        """Write the game's record, privately: to its file if it has one, else to a new file of the records folder
        (never over another); its name. An unfinished game's seed, seats and table (its links' digests) go to the
        seed file beside it."""
        folder = private_folder(self.records)
        if live.saved_as is not None:
            path = folder / live.saved_as
        else:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = f"{live.spec.id}-game-{stamp}-{secrets.token_hex(3)}.json"
            path, k = folder / name, 2
            while path.exists():
                path, k = folder / name.replace(".json", f"-{k}.json"), k + 1
        save(live.record(), path, live.agents, live.table_doc())
        live.saved_as, live.saved_ply = path.name, live.ply
        return path.name

    def find_link(self, token: str) -> str | None:
        """The records folder's unfinished game whose seed file keeps the digest of ``token``'s link (the server
        restarted since the link was made), or None. Seed files are read once each (again when changed)."""
        want = digest(token)
        try:
            entries = [e for e in os.scandir(self.records) if e.name.endswith(".json" + SEED_SUFFIX)]
        except OSError:
            return None
        found = None
        seen = set()
        for entry in entries:
            name = entry.name[: -len(SEED_SUFFIX)]
            seen.add(name)
            try:
                if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                    continue
                mtime = entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue
            cached = self._seed_index.get(name)
            if cached is None or cached[0] != mtime:
                try:
                    kept = read_seed_file(self.records / name)
                    table = kept.table if kept is not None else None
                    links = table.get("links") if isinstance(table, dict) else None
                    digests = [str(x.get("sha256")) for x in links if isinstance(x, dict)] if isinstance(links, list) \
                        else []  # fmt: skip
                except RecordError:
                    digests = []
                cached = self._seed_index[name] = (mtime, digests)
            if want in cached[1] and RECORD_NAME.match(name):
                found = name
        for gone in set(self._seed_index) - seen:
            del self._seed_index[gone]
        return found

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
            people = kept.seats.count(None) if kept is not None and kept.seats is not None else None
            # one person's game is played on from this list; a table of several people by each seat's link only
            entry.update(kind="record", game=record.spec.name, players=record.num_players, moves=len(record.actions),
                         finished=finished, resumable=people == 1, people=people)  # fmt: skip
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
