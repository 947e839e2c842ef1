"""The printed board as data: ``data/board.toml`` loaded once into numpy tables for the engines.

The file is the only source of board facts. :func:`load_board` checks it against the schema written at the top
of the file and against every constraint of the rulebook, and refuses a malformed file with a
:class:`BoardError` that names the file, the field and the problem. Derived tables (bonus connections, link
matrices, producers of each resource) are built here by readable code, never inline in rules.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from . import rules
from .rules import (
    BONUS,
    BONUS_KINDS,
    COLUMN_LETTERS,
    FACTORY,
    FIELD_KINDS,
    JOKER,
    NETWORKS,
    NUM_COLUMNS,
    NUM_ERAS,
    NUM_FIELDS,
    NUM_RESOURCES,
    TECHNOLOGY,
    WILD_JOKER,
)

SHIPPED_BOARD = "board.toml"
PROVENANCE_KINDS = ("rulebook", "reconstructed", "source:")
_FIELD_KEYS = {
    "id", "kind", "name", "cost", "needs", "produces", "points", "discount", "networks", "bonus",
    "multiplier", "joker", "provenance",
}  # fmt: skip
MAX_NEEDS = 2  # "one or two specific resources"


class BoardError(ValueError):
    """A board file that does not describe a playable Industry board; the message names file, field, problem."""


def field_index(field_id: str) -> int:
    """Index 0-59 of a field written as ``<era><column>`` (e.g. ``"3F"``); raises ValueError otherwise."""
    text = field_id.strip().upper()
    if len(text) != 2 or text[0] not in "12345" or text[1] not in COLUMN_LETTERS:
        raise ValueError(f"not a field: {field_id!r} (expected era 1-5 and column A-L, e.g. '3F')")
    return (int(text[0]) - 1) * NUM_COLUMNS + COLUMN_LETTERS.index(text[1])


def field_id(index: int) -> str:
    """The ``<era><column>`` name of field ``index`` (0-59)."""
    era, col = divmod(int(index), NUM_COLUMNS)
    return f"{era + 1}{COLUMN_LETTERS[col]}"


@dataclass(frozen=True, eq=False)
class Board:
    """One board: names, per-field tables (leading dimension 60 = era * 12 + column) and link tables.

    All arrays are read-only. ``-1`` marks "none" in index tables.
    """

    path: str
    resource_names: tuple[str, ...]  # 11 names, in the rulebook's bank-table order
    field_names: tuple[str, ...]  # 60
    provenance: tuple[dict[str, str], ...]  # 60 dicts attribute -> provenance
    KIND: np.ndarray  # int8[60]: FACTORY, TECHNOLOGY, BONUS, JOKER
    ERA: np.ndarray  # int8[60]: 0-4
    COLUMN: np.ndarray  # int8[60]: 0-11
    COST: np.ndarray  # int8[60]: Talers to develop, before discounts
    NEEDS: np.ndarray  # int8[60, 2]: required resources in payment order, -1 padded
    NEEDS_MASK: np.ndarray  # bool[60, 11]
    PRODUCES: np.ndarray  # int8[60]: resource a factory produces, -1 none
    POINTS: np.ndarray  # int8[60]: points in the cogwheel
    DISCOUNT: np.ndarray  # int8[60]: Talers off later construction costs (Bank, Stock Exchange)
    NETWORK: np.ndarray  # bool[60, 4]: factory lies on river, tracks, pipelines, power lines
    BONUS_KIND: np.ndarray  # int8[60]: index into BONUS_KINDS, -1 none
    MULTIPLIER: np.ndarray  # int8[60]: points per connected factory of a bonus field
    JOKER_KIND: np.ndarray  # int8[60]: resource of a joker field, WILD_JOKER for "?", -1 none
    ROADS: np.ndarray  # int16[K, 2]: factory pairs linked by a road
    TECH_LINKS: np.ndarray  # int16[K, 2]: technology pairs linked
    BANK_ERA: np.ndarray  # int8[11]: first era (0-based) in which the bank sells the resource
    PRODUCER_ERA: np.ndarray  # int8[11]: era (0-based) of the factories producing the resource
    # derived
    LINKS: np.ndarray = field(repr=False)  # int16[K, 2]: ROADS and TECH_LINKS together
    BONUS_CONNECT: np.ndarray = field(repr=False)  # int8[60, 60]: [bonus, factory] -> multiplier if connected
    PRODUCERS: tuple[tuple[int, ...], ...] = field(repr=False)  # factories producing each resource

    def field_label(self, f: int) -> str:
        """``"2E Iron Ore Mine"``: the field's id and name."""
        return f"{field_id(f)} {self.field_names[f]}"


def _fail(path: str, where: str, problem: str) -> BoardError:
    return BoardError(f"board file {path}: {where}: {problem}")


def _provenance(path: str, where: str, value: object) -> str:
    if not isinstance(value, str) or not value.startswith(PROVENANCE_KINDS):
        raise _fail(path, where, f"provenance {value!r} must be 'rulebook...', 'reconstructed' or 'source:<where>'")
    return value


def _int(path: str, where: str, spec: dict, key: str, lo: int, hi: int) -> int:
    value = spec.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _fail(path, where, f"{key} = {value!r} must be a whole number from {lo} to {hi}")
    return value


def parse_board(text: str, path: str = "<string>") -> Board:
    """Build a :class:`Board` from the TOML text of a board file, checking every rule of the schema."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(path, "syntax", str(exc)) from None
    for section in ("resource", "field"):
        if not isinstance(data.get(section), list):
            raise _fail(path, f"[[{section}]]", "missing: the file needs a list of these tables")

    # resources: the rulebook's table of resources at the bank
    res_specs = data["resource"]
    if len(res_specs) != NUM_RESOURCES:
        raise _fail(path, "[[resource]]", f"{len(res_specs)} resources listed, the game has {NUM_RESOURCES}")
    names: list[str] = []
    bank_era = np.zeros(NUM_RESOURCES, np.int8)
    producer_era = np.zeros(NUM_RESOURCES, np.int8)
    for r, spec in enumerate(res_specs):
        name = spec.get("name")
        where = f"resource {r + 1} ({name})"
        if not isinstance(name, str) or not name or name == "?" or name in names:
            raise _fail(path, where, f"name {name!r} must be a new, non-empty resource name")
        names.append(name)
        producer_era[r] = _int(path, where, spec, "producer_era", 1, NUM_ERAS) - 1
        bank_era[r] = _int(path, where, spec, "bank_era", 2, NUM_ERAS) - 1
        if bank_era[r] <= producer_era[r]:
            raise _fail(path, where, "bank_era must come after producer_era (the bank sells resources of earlier eras)")
        _provenance(path, where, spec.get("provenance", "reconstructed"))
    res_index = {n: i for i, n in enumerate(names)}

    def resource(where: str, key: str, value: object, wild: bool = False) -> int:
        if wild and value == "?":
            return WILD_JOKER
        if value not in res_index:
            raise _fail(path, where, f"{key} = {value!r} is not one of the resources {names}")
        return res_index[value]

    specs = data["field"]
    by_id: dict[int, dict] = {}
    for n, spec in enumerate(specs):
        raw = spec.get("id")
        try:
            f = field_index(raw if isinstance(raw, str) else "")
        except ValueError:
            raise _fail(path, f"field {n + 1}", f"id {raw!r} must be era 1-5 and column A-L, e.g. '3F'") from None
        if f in by_id:
            raise _fail(path, f"field {raw}", "listed twice")
        unknown = set(spec) - _FIELD_KEYS
        if unknown:
            raise _fail(path, f"field {raw}", f"unknown keys {sorted(unknown)}")
        by_id[f] = spec
    missing = [field_id(f) for f in range(NUM_FIELDS) if f not in by_id]
    if missing:
        raise _fail(path, "[[field]]", f"fields {missing} are missing (the board has all 60)")

    kind = np.zeros(NUM_FIELDS, np.int8)
    cost = np.zeros(NUM_FIELDS, np.int8)
    needs = np.full((NUM_FIELDS, MAX_NEEDS), -1, np.int8)
    produces = np.full(NUM_FIELDS, -1, np.int8)
    points = np.zeros(NUM_FIELDS, np.int8)
    discount = np.zeros(NUM_FIELDS, np.int8)
    network = np.zeros((NUM_FIELDS, len(NETWORKS)), bool)
    bonus_kind = np.full(NUM_FIELDS, -1, np.int8)
    multiplier = np.zeros(NUM_FIELDS, np.int8)
    joker_kind = np.full(NUM_FIELDS, -1, np.int8)
    field_names: list[str] = []
    provenance: list[dict[str, str]] = []
    era = np.arange(NUM_FIELDS) // NUM_COLUMNS

    for f in range(NUM_FIELDS):
        spec = by_id[f]
        where = f"field {field_id(f)}"
        k = spec.get("kind")
        if k not in FIELD_KINDS:
            raise _fail(path, where, f"kind {k!r} must be one of {list(FIELD_KINDS)}")
        kind[f] = FIELD_KINDS.index(k)
        name = spec.get("name")
        if not isinstance(name, str) or not name:
            raise _fail(path, where, "name must be a non-empty string")
        field_names.append(name)
        prov = spec.get("provenance", {})
        if not isinstance(prov, dict):
            raise _fail(path, where, "provenance must be a table of attribute = provenance")
        for key, value in prov.items():
            if key not in _FIELD_KEYS:
                raise _fail(path, where, f"provenance names unknown attribute {key!r}")
            _provenance(path, where, value)
        provenance.append({key: prov.get(key, "reconstructed") for key in spec if key not in ("id", "provenance")})

        allowed = {
            FACTORY: {"cost", "needs", "produces", "points", "discount", "networks"},
            TECHNOLOGY: {"needs", "points"},
            BONUS: {"cost", "needs", "bonus", "multiplier"},
            JOKER: {"joker"},
        }[kind[f]]
        wrong = set(spec) - allowed - {"id", "kind", "name", "provenance"}
        if wrong:
            raise _fail(path, where, f"a {k} has no {sorted(wrong)}")

        cost[f] = _int(path, where, spec, "cost", 0, 20)
        points[f] = _int(path, where, spec, "points", 0, 20)
        discount[f] = _int(path, where, spec, "discount", 0, 5)
        need_list = spec.get("needs", [])
        if not isinstance(need_list, list) or len(need_list) > MAX_NEEDS:
            raise _fail(path, where, f"needs must list at most {MAX_NEEDS} resources")
        if len(set(map(str, need_list))) != len(need_list):
            raise _fail(path, where, "needs lists a resource twice (this schema takes distinct resources)")
        for i, name_r in enumerate(need_list):
            r = resource(where, "needs", name_r)
            # A field of era e may need only resources whose producers lie in eras up to e.
            if producer_era[r] > era[f]:
                raise _fail(path, where, f"needs {name_r}, which is produced only from era {producer_era[r] + 1}")
            needs[f, i] = r
        if kind[f] == TECHNOLOGY and era[f] == 0:
            pass  # era-1 technologies need era-1 resources; the producer_era check above ensures it
        if "produces" in spec:
            r = resource(where, "produces", spec["produces"])
            if producer_era[r] != era[f]:
                raise _fail(
                    path, where, f"produces {spec['produces']}, whose producers lie in era {producer_era[r] + 1}"
                )
            if r in needs[f]:
                raise _fail(path, where, "needs the resource it produces")
            produces[f] = r
        nets = spec.get("networks", [])
        if not isinstance(nets, list) or any(n_ not in NETWORKS for n_ in nets):
            raise _fail(path, where, f"networks {nets!r} must be a list drawn from {list(NETWORKS)}")
        for n_ in nets:
            network[f, NETWORKS.index(n_)] = True
        if kind[f] == BONUS:
            b = spec.get("bonus")
            if b not in BONUS_KINDS:
                raise _fail(path, where, f"bonus {b!r} must be one of {list(BONUS_KINDS)}")
            bonus_kind[f] = BONUS_KINDS.index(b)
            multiplier[f] = _int(path, where, spec, "multiplier", 2, 3)  # "he earns 2 or 3 bonus points"
        if kind[f] == JOKER:
            if "joker" not in spec:
                raise _fail(path, where, "a joker field must say which resource its joker is worth ('?' for any)")
            joker_kind[f] = resource(where, "joker", spec["joker"], wild=True)

    # Board-wide constraints from the rulebook.
    n_jokers = int((kind == JOKER).sum())
    if n_jokers != 7:  # "7 Joker tokens"
        raise _fail(path, "[[field]]", f"{n_jokers} joker fields; the game has 7 Joker tokens")
    if int((joker_kind == WILD_JOKER).sum()) != 1:  # "The Joker token labeled ? ..."
        raise _fail(path, "[[field]]", "exactly one joker must be the '?' joker")
    for r in range(NUM_RESOURCES):
        if not (produces == r).any():
            raise _fail(path, f"resource {names[r]}", "no factory produces it")
    if int((discount > 0).sum()) < 1:
        raise _fail(path, "[[field]]", "no factory gives a construction discount (the Bank and Stock Exchange do)")

    def pairs(section: str, want: int) -> np.ndarray:
        out = []
        for n, spec in enumerate(data.get(section, [])):
            where = f"{section} {n + 1}"
            ids = spec.get("fields")
            if not isinstance(ids, list) or len(ids) != 2:
                raise _fail(path, where, "fields must be a list of two field ids")
            try:
                a, b = (field_index(str(x)) for x in ids)
            except ValueError as exc:
                raise _fail(path, where, str(exc)) from None
            if a == b or kind[a] != want or kind[b] != want:
                raise _fail(path, where, f"{ids} must be two different {FIELD_KINDS[want]} fields")
            _provenance(path, where, spec.get("provenance", "reconstructed"))
            out.append(sorted((a, b)))
        arr = np.array(out, np.int16).reshape(-1, 2)
        if len({tuple(p) for p in arr.tolist()}) != len(arr):
            raise _fail(path, section, "a pair is listed twice")
        return arr

    roads = pairs("road", FACTORY)
    tech_links = pairs("tech_link", TECHNOLOGY)
    links = np.concatenate([roads, tech_links])

    # Derived: a bonus field is connected to every factory on its network ("Ports by rivers, ...").
    bonus_connect = np.zeros((NUM_FIELDS, NUM_FIELDS), np.int8)
    for g in np.flatnonzero(kind == BONUS):
        on_net = (kind == FACTORY) & network[:, bonus_kind[g]]
        bonus_connect[g, on_net] = multiplier[g]
    producers = tuple(tuple(int(f) for f in np.flatnonzero(produces == r)) for r in range(NUM_RESOURCES))

    arrays = dict(
        KIND=kind, ERA=era.astype(np.int8), COLUMN=(np.arange(NUM_FIELDS) % NUM_COLUMNS).astype(np.int8),
        COST=cost, NEEDS=needs, NEEDS_MASK=np.zeros((NUM_FIELDS, NUM_RESOURCES), bool), PRODUCES=produces,
        POINTS=points, DISCOUNT=discount, NETWORK=network, BONUS_KIND=bonus_kind, MULTIPLIER=multiplier,
        JOKER_KIND=joker_kind, ROADS=roads, TECH_LINKS=tech_links, BANK_ERA=bank_era, PRODUCER_ERA=producer_era,
        LINKS=links, BONUS_CONNECT=bonus_connect,
    )  # fmt: skip
    for f in range(NUM_FIELDS):
        for r in needs[f]:
            if r >= 0:
                arrays["NEEDS_MASK"][f, r] = True
    for a in arrays.values():
        a.setflags(write=False)
    return Board(
        path=path, resource_names=tuple(names), field_names=tuple(field_names), provenance=tuple(provenance),
        PRODUCERS=producers, **arrays,
    )  # fmt: skip


@lru_cache(maxsize=8)
def _load_cached(path: str | None) -> Board:
    if path is None:
        text = resources.files("industry_env.data").joinpath(SHIPPED_BOARD).read_text(encoding="utf-8")
        return parse_board(text, f"industry_env/data/{SHIPPED_BOARD}")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"board file {path}: cannot be read: {exc.strerror}") from None
    return parse_board(text, path)


def load_board(path: str | Path | None = None) -> Board:
    """Load a board file (None: the shipped reconstructed board) into a checked, read-only :class:`Board`."""
    return _load_cached(None if path is None else str(Path(path).resolve()))


__all__ = ["Board", "BoardError", "load_board", "parse_board", "field_index", "field_id", "rules"]
