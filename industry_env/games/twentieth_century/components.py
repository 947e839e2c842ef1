"""20th Century's components as data: the tiles (``data/tiles.toml``) and the tracks and catastrophes
(``data/components.toml``), read by a loader that reports every error at once.

The printed tiles are public nowhere; the shipped files are reconstructed, every entry with its provenance
(``docs/twentieth-century/components.md``). :func:`load_data` reads both files and checks every constraint the
rulebook states (Vladimír Suchý, *20th Century*, Czech Games Edition 2010, rulebook, Italian edition): the
stacks' sizes, the starting tile, the technologies' kinds and counts, the catastrophe columns, the tracks. A file
that breaks any of them raises one :class:`ComponentsError` listing ``file: entry: problem``, a line each.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from ...core.textdata import TextDataError, parse_toml, read_text

DATA = Path(__file__).parent / "data"
MAX_BYTES = 1 << 20

SIDES = "NESW"  # side s of a tile at rotation 0; rotating r quarter turns clockwise sends it to (s + r) % 4
CITY_NAMES = "abc"
BUILDING = "x"
MAX_CITIES, MAX_PIECES, MAX_BRIDGES = 3, 8, 4
LAND_STACKS = ("I-II", "III-IV", "V")
ERAS = LAND_STACKS
# At least a 5-player deal of 8 land and 6 technology tiles in each round of the era ('In una partita a cinque
# giocatori, si distribuiscono 8 territori e 6 tecnologie').
STACK_MIN = {"land": {"I-II": 16, "III-IV": 16, "V": 8}, "technology": {"I-II": 12, "III-IV": 12, "V": 6}}
INSTITUTIONS = {"mine": 0, "laboratory": 1, "hospital": 2}  # kind -> the resource it raises (coins, science, VP)
SINGLE_USE = ("workers", "bridge", "separated_collection", "park")
MULTI_USE = ("train", "garbage_truck", "recycling", "cleanup", "quality_of_life")
KINDS = (*INSTITUTIONS, *SINGLE_USE, *MULTI_USE)
PROVENANCE_KINDS = ("printed", "rulebook", "public", "inferred", "reconstructed")
NUM_CATASTROPHE_COLUMNS = 5
MAX_BRIDGE_TECHS = 4  # '4 ponti'


class ComponentsError(ValueError):
    """A components file that breaks the schema or a rule; the message lists every problem, one a line."""


@dataclasses.dataclass(frozen=True)
class City:
    """A city of a land tile: what it produces when a citizen works there, and whether it recycles."""

    name: str
    coins: int = 0
    science: int = 0
    vp: int = 0
    recycling: bool = False

    @property
    def production(self) -> tuple[int, int, int]:
        return (self.coins, self.science, self.vp)


@dataclasses.dataclass(frozen=True)
class Tile:
    """A tile's geometry at rotation 0: its cities, rail pieces (frozensets of the elements each touches) and the
    bridge placements that fit on it; ``building`` is the institution's kind (None on a land tile)."""

    id: str
    stack: str
    cities: tuple[City, ...]
    rails: tuple[frozenset[str], ...]
    bridges: tuple[tuple[str, str], ...]
    building: str | None = None
    bonus: int = 0


@dataclasses.dataclass(frozen=True)
class Ability:
    """One ability of a technology tile: its kind and its numbers (a bonus, a cost in coins, VP)."""

    kind: str
    bonus: int = 0
    cost: int = 0
    vp: int = 0

    @property
    def single_use(self) -> bool:
        return self.kind in SINGLE_USE


@dataclasses.dataclass(frozen=True)
class Technology:
    """A technology tile: one ability (two on a mixed tile), its immediate effect, and (an institution) its tile."""

    id: str
    stack: str
    name: str
    abilities: tuple[Ability, ...]
    garbage: int
    pollution: int
    tile: Tile | None  # the institution's geometry; None for the others

    @property
    def institution(self) -> bool:
        return self.tile is not None


@dataclasses.dataclass(frozen=True)
class Catastrophe:
    """A catastrophe card: per column, left (worst) to right (empty), the cubes taken and the steps left."""

    id: str
    era: str
    columns: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True)
class GameData:
    """Everything the rules read from the components. Land tile 0 is the starting tile; tile codes on a nation's
    grid are land indices, then ``len(land) + j`` for technology j's institution."""

    land: tuple[Tile, ...]
    technologies: tuple[Technology, ...]
    catastrophes: tuple[Catastrophe, ...]
    tech_cost: dict[str, tuple[int, ...]]
    tech_cost_start: dict[int, int]
    pollution_low: int
    pollution_high: int
    pollution_start: int
    pollution_final: tuple[int, ...]
    clean_tile: tuple[int, ...]
    five_players_only: int
    four_players_only: int
    sha256: str
    provenance: dict[str, str]

    def tile(self, code: int) -> Tile:
        """The geometry of tile ``code`` (a land tile, or an institution)."""
        if code < len(self.land):
            return self.land[code]
        tile = self.technologies[code - len(self.land)].tile
        assert tile is not None
        return tile

    def is_land(self, code: int) -> bool:
        return 0 <= code < len(self.land)

    def columns_used(self, num_players: int) -> tuple[int, ...]:
        """The catastrophe columns a game of ``num_players`` uses (ruling 17)."""
        skip = {self.five_players_only} if num_players == 4 else set()
        if num_players == 3:
            skip = {self.five_players_only, self.four_players_only}
        return tuple(c for c in range(NUM_CATASTROPHE_COLUMNS) if c not in skip)

    def stack(self, kind: str, era: str) -> list[int]:
        """Indices of the land tiles (kind 'land') or technologies of a stack."""
        items = self.land if kind == "land" else self.technologies
        return [i for i, t in enumerate(items) if t.stack == era]


class _Errors:
    def __init__(self, file: str) -> None:
        self.file, self.lines = file, []

    def __call__(self, where: str, problem: str) -> None:
        self.lines.append(f"{self.file}: {where}: {problem}")


def _int(errors: _Errors, where: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        errors(where, f"must be a whole number, not {value!r}")
        return lo
    if not lo <= value <= hi:
        errors(where, f"{value} is outside {lo}..{hi}")
        return max(lo, min(hi, value))
    return value


def _keys(errors: _Errors, where: str, doc: Any, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(doc, dict):
        errors(where, f"must be a table, not {type(doc).__name__}")
        return {}
    for k in sorted(set(doc) - required - optional):
        errors(where, f"unknown key {k!r} (known: {', '.join(sorted(required | optional))})")
    for k in sorted(required - set(doc)):
        errors(where, f"missing key {k!r}")
    return doc


def _provenance(errors: _Errors, where: str, value: Any, out: dict[str, str]) -> None:
    items = {"": value} if isinstance(value, str) else value
    if not isinstance(items, dict) or not items:
        errors(where + ".provenance", "must be a string or a table of strings")
        return
    for k, v in items.items():
        if not isinstance(v, str) or v.split(" ", 1)[0] not in PROVENANCE_KINDS:
            errors(f"{where}.provenance{'.' + k if k else ''}",
                   f"must start with one of {', '.join(PROVENANCE_KINDS)}, not {v!r}")  # fmt: skip
        else:
            out[f"{where}{'.' + k if k else ''}"] = v


def _geometry(errors: _Errors, where: str, doc: dict[str, Any], cities: tuple[City, ...], building: str | None,
              stack: str, tile_id: str, bonus: int = 0) -> Tile:  # fmt: skip
    """The rails and bridges of a tile, checked: every element exists, at least one railed side, bridges join
    something the tile does not already join."""
    names = {c.name for c in cities} | ({BUILDING} if building else set())
    rails: list[frozenset[str]] = []
    raw = doc.get("rails", [])
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PIECES:
        errors(where + ".rails", f"must be a list of 1 to {MAX_PIECES} rail pieces")
        raw = raw if isinstance(raw, list) else []
    for i, piece in enumerate(raw[:MAX_PIECES]):
        w = f"{where}.rails[{i}] (r{i + 1})"
        if not isinstance(piece, list) or not piece or len(set(piece)) != len(piece):
            errors(w, "must be a non-empty list of distinct elements")
            continue
        bad = [e for e in piece if not isinstance(e, str) or (e not in names and e not in SIDES)]
        if bad:
            errors(w, f"touches {bad!r}: elements are this tile's {', '.join(sorted(names))} and sides N, E, S, W")
            continue
        if not any(e in names for e in piece) and len([e for e in piece if e in SIDES]) < 2:
            errors(w, "touches no city and no building and fewer than two sides: it carries nothing")
        rails.append(frozenset(piece))
    if rails and not any(e in SIDES for p in rails for e in p):
        errors(where + ".rails", "no piece leaves the tile by a side (every tile is crossed by the rail network)")
    if building and not any(BUILDING in p for p in rails):
        errors(where + ".rails", "no piece touches the building 'x' (an institution connects to the rail network)")
    bridges: list[tuple[str, str]] = []
    raw_b = doc.get("bridges", [])
    if not isinstance(raw_b, list) or len(raw_b) > MAX_BRIDGES:
        errors(where + ".bridges", f"must be a list of at most {MAX_BRIDGES} placements")
        raw_b = raw_b if isinstance(raw_b, list) else []
    pieces = {f"r{i + 1}": p for i, p in enumerate(rails)}
    for i, pair in enumerate(raw_b[:MAX_BRIDGES]):
        w = f"{where}.bridges[{i}]"
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(e, str) for e in pair):
            errors(w, "must be a pair of ends")
            continue
        a, b = pair
        bad = [e for e in pair if e not in names and e not in pieces]
        if bad:
            errors(w, f"end {bad[0]!r} is not a city, the building or a piece r1..r{len(rails)} of this tile")
            continue
        joined = a == b or (a in pieces and b in pieces[a]) or (b in pieces and a in pieces[b])
        if joined:
            errors(w, f"joins {a} and {b}, which the tile already joins")
            continue
        bridges.append((a, b))
    return Tile(tile_id, stack, cities, tuple(rails), tuple(bridges), building, bonus)


def _cities(errors: _Errors, where: str, raw: Any) -> tuple[City, ...]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_CITIES:
        errors(where + ".cities", f"must be a list of 1 to {MAX_CITIES} cities")
        return ()
    out = []
    for i, c in enumerate(raw):
        w = f"{where}.cities[{i}]"
        c = _keys(errors, w, c, {"name"}, {"coins", "science", "vp", "recycling"})
        if not c:
            continue
        if c.get("name") != CITY_NAMES[i]:
            errors(w + ".name", f"must be {CITY_NAMES[i]!r} (cities are named a, b, c in order)")
        prod = [_int(errors, f"{w}.{k}", c.get(k, 0), 0, 9) for k in ("coins", "science", "vp")]
        recycling = c.get("recycling", False)
        if not isinstance(recycling, bool):
            errors(w + ".recycling", "must be true or false")
            recycling = False
        if not any(prod) and not recycling:
            errors(w, "produces nothing and does not recycle")
        out.append(City(CITY_NAMES[i], *prod, recycling))
    return tuple(out)


def _check_tiles(doc: dict[str, Any], errors: _Errors, prov: dict[str, str]) -> tuple[list[Tile], list[Technology]]:
    _keys(errors, "top", doc, {"land", "technology"}, {"meta"})
    land: list[Tile] = []
    seen: set[str] = set()
    raw_land = doc.get("land", [])
    for i, t in enumerate(raw_land if isinstance(raw_land, list) else []):
        where = f"land[{i}]" + (f" {t.get('id')!r}" if isinstance(t, dict) else "")
        t = _keys(errors, where, t, {"id", "stack", "cities", "rails", "bridges", "provenance"}, {"copies"})
        if not t:
            continue
        tid = t.get("id")
        if not isinstance(tid, str) or tid in seen:
            errors(where + ".id", f"must be a unique string, not {tid!r}")
        seen.add(str(tid))
        stack = t.get("stack")
        if stack not in ("start", *LAND_STACKS):
            errors(where + ".stack", f"must be one of start, {', '.join(LAND_STACKS)}, not {stack!r}")
        if ("copies" in t) != (stack == "start"):
            errors(where + ".copies", "is given for the starting tile only, and must be")
        _provenance(errors, where, t.get("provenance"), prov)
        tile = _geometry(errors, where, t, _cities(errors, where, t.get("cities")), None, str(stack), str(tid))
        (land.insert(0, tile) if stack == "start" else land.append(tile))
    starts = [t for t in land if t.stack == "start"]
    if len(starts) != 1:
        errors("land", f"must hold exactly one starting tile (stack 'start'), not {len(starts)}")
    elif sorted(c.production[:2] for c in starts[0].cities if c.coins or c.science) != [(1, 1), (2, 1)]:
        errors("land 'start'", "its two producing cities must make 1 coin and 1 science, and 2 coins and 1 science "
               "(Territorio iniziale: 'Una città produce 1 moneta e 1 punto scienza. L'altra produce 2 monete e 1 "
               "punto scienza')")  # fmt: skip
    elif any(c.vp for c in starts[0].cities) or len(starts[0].cities) > 3:
        errors("land 'start'", "no city of the starting tile produces VP ('mancata produzione dei punti')")
    for era, need in STACK_MIN["land"].items():
        have = sum(t.stack == era for t in land)
        if have < need:
            errors("land", f"stack {era} has {have} tiles; a 5-player game deals 8 a round, so it needs {need}")
    dealt = [t for t in land if t.stack != "start"]
    if dealt and sum(len(t.cities) >= 2 for t in dealt) * 2 < len(dealt):
        errors("land", "fewer than half the tiles have two or more cities ('molti territori hanno due città')")

    techs: list[Technology] = []
    raw_t = doc.get("technology", [])
    for i, t in enumerate(raw_t if isinstance(raw_t, list) else []):
        where = f"technology[{i}]" + (f" {t.get('id')!r}" if isinstance(t, dict) else "")
        t = _keys(errors, where, t, {"id", "stack", "name", "abilities", "garbage", "pollution", "provenance"},
                  {"rails", "bridges"})  # fmt: skip
        if not t:
            continue
        tid = t.get("id")
        if not isinstance(tid, str) or tid in seen:
            errors(where + ".id", f"must be a unique string, not {tid!r}")
        seen.add(str(tid))
        stack = t.get("stack")
        if stack not in LAND_STACKS:
            errors(where + ".stack", f"must be one of {', '.join(LAND_STACKS)}, not {stack!r}")
        if not isinstance(t.get("name"), str):
            errors(where + ".name", "must be a string")
        _provenance(errors, where, t.get("provenance"), prov)
        abilities = []
        raw_a = t.get("abilities")
        if not isinstance(raw_a, list) or not 1 <= len(raw_a) <= 2:
            errors(where + ".abilities", "must be a list of one ability (two on a mixed tile)")
            raw_a = []
        for k, a in enumerate(raw_a):
            w = f"{where}.abilities[{k}]"
            a = _keys(errors, w, a, {"kind"}, {"bonus", "cost", "vp"})
            kind = a.get("kind")
            if kind not in KINDS:
                errors(w + ".kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
                continue
            need = {"bonus"} if kind in INSTITUTIONS else {"cost"} if kind in ("recycling", "cleanup") else \
                {"cost", "vp"} if kind == "quality_of_life" else set()  # fmt: skip
            for k2 in sorted(set(a) - {"kind"} - need):
                errors(f"{w}.{k2}", f"is not a number of a {kind} ability")
            for k2 in sorted(need - set(a)):
                errors(w, f"a {kind} ability needs {k2!r}")
            abilities.append(Ability(kind, _int(errors, w + ".bonus", a.get("bonus", 0), 0, 3),
                                     _int(errors, w + ".cost", a.get("cost", 0), 0, 9),
                                     _int(errors, w + ".vp", a.get("vp", 0), 0, 9)))  # fmt: skip
            if kind in INSTITUTIONS and abilities[-1].bonus < 1:
                errors(w + ".bonus", "an institution adds at least 1")
        kinds = [a.kind for a in abilities]
        institution = next((k for k in kinds if k in INSTITUTIONS), None)
        if len(kinds) == 2 and not (kinds[0] in SINGLE_USE and kinds[1] in MULTI_USE):
            errors(where + ".abilities", "a mixed tile holds one single-use then one multiple-use ability "
                   "('una coppia di tessere tecnologia miste con entrambe le tipologie')")  # fmt: skip
        if institution and len(kinds) != 1:
            errors(where + ".abilities", "an institution has no other ability")
        garbage = _int(errors, where + ".garbage", t.get("garbage"), 0, 5)
        pollution = _int(errors, where + ".pollution", t.get("pollution"), -3, 3)
        if "park" in kinds and pollution <= 0:
            errors(where + ".pollution", "a park moves the pollution marker right ('un effetto ecologico immediato')")
        tile = None
        if institution:
            if "rails" not in t:
                errors(where, "an institution needs rails ('con le costruzioni ed i binari ferroviari')")
            bonus = abilities[0].bonus
            tile = _geometry(errors, where, t, (), institution, str(stack), str(tid), bonus)
        elif "rails" in t or "bridges" in t:
            errors(where, "only an institution has rails and bridges")
        techs.append(Technology(str(tid), str(stack), str(t.get("name")), tuple(abilities), garbage, pollution, tile))
    for era, need in STACK_MIN["technology"].items():
        have = sum(t.stack == era for t in techs)
        if have < need:
            errors("technology", f"stack {era} has {have} tiles; a 5-player game deals 6 a round, so it needs {need}")
    all_kinds = [a.kind for t in techs for a in t.abilities]
    for kind in KINDS:
        if techs and kind not in all_kinds:
            errors("technology", f"no {kind} ability: the rulebook describes every kind")
    mixed = sum(len(t.abilities) == 2 for t in techs)
    if techs and mixed != 2:
        errors("technology", f"{mixed} mixed tiles; the rulebook has a pair ('una coppia')")
    if all_kinds.count("bridge") > MAX_BRIDGE_TECHS:
        errors("technology", f"{all_kinds.count('bridge')} bridge abilities for the box's 4 bridges ('4 ponti')")
    if techs and sum(bool(t.garbage or t.pollution) for t in techs) * 2 <= len(techs):
        errors("technology", "most technologies have an immediate ecological effect ('La maggior parte')")
    return land, techs


def _check_components(doc: dict[str, Any], errors: _Errors, prov: dict[str, str]) -> dict[str, Any]:
    _keys(errors, "top", doc, {"tech_cost", "pollution", "catastrophe_layout", "catastrophe"},
          {"meta", "catastrophe_provenance"})  # fmt: skip
    out: dict[str, Any] = {}
    tc = _keys(errors, "tech_cost", doc.get("tech_cost", {}), {*ERAS, "start", "provenance"}, set())
    _provenance(errors, "tech_cost", tc.get("provenance", {}), prov)
    out["tech_cost"] = {}
    for era in ERAS:
        track = tc.get(era, [0])
        if not isinstance(track, list) or not 5 <= len(track) <= 7:
            errors(f"tech_cost.{era}", "must be a list of 5 to 7 prices")
            track = [0] * 5
        track = [_int(errors, f"tech_cost.{era}[{i}]", v, 0, 25) for i, v in enumerate(track)]
        if any(a < b for a, b in zip(track, track[1:], strict=False)):
            errors(f"tech_cost.{era}", "prices must not rise to the right (technologies grow cheaper as lands sell)")
        out["tech_cost"][era] = tuple(track)
    i_ii = out["tech_cost"]["I-II"]
    if len(i_ii) >= 5 and (i_ii[3], i_ii[4]) != (1, 0):
        errors("tech_cost.I-II", "its 4th space costs 1 and its 5th 0 (the rulebook's auction example)")
    start = tc.get("start", {})
    start = start if isinstance(start, dict) else {}
    out["tech_cost_start"] = {}
    for n in (3, 4, 5):
        out["tech_cost_start"][n] = _int(errors, f"tech_cost.start.{n}", start.get(str(n)), 0, len(i_ii) - 1)
    if out["tech_cost_start"].get(3) != 1 or out["tech_cost_start"].get(4) != 0 or out["tech_cost_start"].get(5):
        errors("tech_cost.start", "the marker starts on the first space with 4 or 5 players, the second with 3")

    po = _keys(errors, "pollution", doc.get("pollution", {}),
               {"low", "high", "start", "final", "clean_tile", "provenance"}, set())  # fmt: skip
    _provenance(errors, "pollution", po.get("provenance", {}), prov)
    low = _int(errors, "pollution.low", po.get("low"), -20, 0)
    high = _int(errors, "pollution.high", po.get("high"), 0, 20)
    out.update(pollution_low=low, pollution_high=high,
               pollution_start=_int(errors, "pollution.start", po.get("start"), low, high))  # fmt: skip
    for key in ("final", "clean_tile"):
        v = po.get(key)
        if not isinstance(v, list) or len(v) != high - low + 1:
            errors(f"pollution.{key}", f"must list a number for each of the {high - low + 1} spaces")
            v = [0] * (high - low + 1)
        out["pollution_" + key if key == "final" else key] = tuple(
            _int(errors, f"pollution.{key}[{i}]", x, -50, 50) for i, x in enumerate(v)
        )
    ct = out["clean_tile"]
    if sorted(set(ct)) != [2, 3, 4] or list(ct) != sorted(ct):
        errors("pollution.clean_tile", "three sections, left to right, scoring 2, 3 and 4 ('diviso in tre sezioni')")
    if list(out["pollution_final"]) != sorted(out["pollution_final"]):
        errors("pollution.final", "must not fall to the right (the right end is environmental quality)")

    lay = _keys(errors, "catastrophe_layout", doc.get("catastrophe_layout", {}),
                {"five_players_only", "four_players_only", "provenance"}, set())  # fmt: skip
    _provenance(errors, "catastrophe_layout", lay.get("provenance", {}), prov)
    five = _int(errors, "catastrophe_layout.five_players_only", lay.get("five_players_only"), 1, 3)
    four = _int(errors, "catastrophe_layout.four_players_only", lay.get("four_players_only"), 1, 3)
    if five == four:
        errors("catastrophe_layout", "the five-player and four-player columns must differ")
    out.update(five_players_only=five, four_players_only=four)

    cats = []
    seen: set[str] = set()
    raw = doc.get("catastrophe", [])
    for i, c in enumerate(raw if isinstance(raw, list) else []):
        where = f"catastrophe[{i}]" + (f" {c.get('id')!r}" if isinstance(c, dict) else "")
        c = _keys(errors, where, c, {"id", "era", "columns"}, set())
        if not c:
            continue
        if not isinstance(c.get("id"), str) or c.get("id") in seen:
            errors(where + ".id", "must be a unique string")
        seen.add(str(c.get("id")))
        if c.get("era") not in ERAS:
            errors(where + ".era", f"must be one of {', '.join(ERAS)}")
        cols = c.get("columns")
        if not isinstance(cols, list) or len(cols) != NUM_CATASTROPHE_COLUMNS:
            errors(where + ".columns", f"must list {NUM_CATASTROPHE_COLUMNS} columns")
            continue
        parsed = []
        for k, col in enumerate(cols):
            col = _keys(errors, f"{where}.columns[{k}]", col, set(), {"garbage", "pollution"})
            parsed.append((_int(errors, f"{where}.columns[{k}].garbage", col.get("garbage", 0), 0, 9),
                           _int(errors, f"{where}.columns[{k}].pollution", col.get("pollution", 0), 0, 9)))  # fmt: skip
        if parsed[-1] != (0, 0):
            errors(where + ".columns", "the last column is empty ('l'ultima colonna (quella vuota)')")
        if any(g > parsed[0][0] or p > parsed[0][1] for g, p in parsed):
            errors(where + ".columns", "the first column is the full strength ('la forza completa della catastrofe')")
        cats.append(Catastrophe(str(c.get("id")), str(c.get("era")), tuple(parsed)))
    for era in ERAS:
        have = sum(c.era == era for c in cats)
        need = 1 if era == "V" else 2
        if have < need + 1:
            errors("catastrophe", f"era {era} has {have} cards; {need} are drawn from at least {need + 1}")
    _provenance(errors, "catastrophe", doc.get("catastrophe_provenance", {}), prov)
    out["catastrophes"] = cats
    return out


def load_data(tiles: str | Path | None = None, components: str | Path | None = None) -> GameData:
    """The game's components from ``tiles`` and ``components`` (default: the shipped files), checked; a
    :class:`ComponentsError` lists every problem of both files at once."""
    return _load(str(tiles or DATA / "tiles.toml"), str(components or DATA / "components.toml"))


def _load(tiles_path: str, components_path: str) -> GameData:
    texts = {}
    problems = []
    for path in (tiles_path, components_path):
        try:
            texts[path] = read_text(path, MAX_BYTES, "components file")
        except (TextDataError, OSError) as exc:
            problems.append(f"{path}: {exc}")
    if problems:
        raise ComponentsError("\n".join(problems))
    return _parse(texts[tiles_path], texts[components_path], tiles_path, components_path)


@cache
def _parse(tiles_text: str, components_text: str, tiles_path: str, components_path: str) -> GameData:
    """The checked data of two files' texts (cached by content: an edited file is read again)."""
    docs, problems = {}, []
    for path, text in ((tiles_path, tiles_text), (components_path, components_text)):
        try:
            docs[path] = parse_toml(text)
        except TextDataError as exc:
            problems.append(f"{path}: {exc}")
    if problems:
        raise ComponentsError("\n".join(problems))
    digest = hashlib.sha256((tiles_text + "\0" + components_text).encode()).hexdigest()
    return data_from_docs(docs[tiles_path], docs[components_path], Path(tiles_path).name,
                          Path(components_path).name, digest)  # fmt: skip


def data_from_docs(tiles: dict[str, Any], components: dict[str, Any], tiles_name: str = "tiles",
                   components_name: str = "components", sha256: str = "") -> GameData:  # fmt: skip
    """:class:`GameData` from parsed documents (what the loader and hand-built test positions use)."""
    prov: dict[str, str] = {}
    e1, e2 = _Errors(tiles_name), _Errors(components_name)
    land, techs = _check_tiles(tiles, e1, prov)
    comp = _check_components(components, e2, prov)
    if e1.lines or e2.lines:
        raise ComponentsError("\n".join(e1.lines + e2.lines))
    cats = comp.pop("catastrophes")
    return GameData(tuple(land), tuple(techs), tuple(cats), sha256=sha256, provenance=prov, **comp)


def read_docs(tiles: str | Path | None = None, components: str | Path | None = None) -> tuple[dict, dict]:
    """The two files parsed, unchecked (what tests edit to build their own components)."""
    t = parse_toml(read_text(tiles or DATA / "tiles.toml", MAX_BYTES))
    c = parse_toml(read_text(components or DATA / "components.toml", MAX_BYTES))
    return t, c
