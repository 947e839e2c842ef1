"""The printed board as data: ``data/board.toml`` loaded once into numpy tables for the engines.

The file is the only source of board facts. :func:`load_board` checks it against the schema (:data:`SCHEMA`,
also written at the top of the shipped file and of :func:`board_template`) and against every constraint of the
rulebook, and refuses a malformed file with one :class:`BoardError` listing every problem found, each naming the
file, the field and the problem, so that an owner typing in the printed board fixes them all in one pass.
Derived tables (bonus connections, link matrices, producers of each resource) are built here by readable code,
never inline in rules.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ...core.aliases import moved_file
from ...core.textdata import Checker, TextDataError, parse_toml, read_text
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
SHIPPED_PATH = f"industry_env/games/industry/data/{SHIPPED_BOARD}"
# How a value is known (see docs/industry/board.md): copied from a printed board, stated by the rulebook or a published
# source, deduced from one, a reading of an ambiguous source, or chosen here to satisfy the rulebook.
PROVENANCE_KINDS = ("printed", "rulebook", "source:", "inferred:", "interpretation:", "reconstructed")
_FIELD_KEYS = {
    "id", "kind", "name", "cost", "needs", "produces", "points", "discount", "networks", "bonus",
    "multiplier", "joker", "provenance",
}  # fmt: skip
# Attributes a provenance table may name: every field key, plus a position's era and column ("id" means both).
_PROVENANCE_KEYS = (_FIELD_KEYS - {"provenance"}) | {"era", "column"}
_META_KEYS = {"name", "version", "provenance"}
_SECTIONS = {"meta", "resource", "field", "road", "tech_link"}
MAX_NEEDS = 2  # "one or two specific resources"
# "Bonus fields (Port, Railway Station, Pump Station and Power Station)": one name per bonus kind.
BONUS_NAMES = dict(zip(BONUS_KINDS, ("Port", "Railway Station", "Pump Station", "Power Station"), strict=True))
# "For the player who has built the bank or stock exchange, all subsequent construction costs are each reduced by
# 1 Taler": exactly these two factories give a discount, of one Taler each.
DISCOUNT_FIELDS = {"Bank": 1, "Stock Exchange": 1}
_NETWORK_NAME = re.compile(r"^([a-z_]+)(?::([1-9]))?$")

SCHEMA = """\
# Schema (checked by industry_env.board.load_board, which lists every problem with the file, field and problem):
#   [meta]        name, version, provenance: the default provenance of every value the file does not mark
#                 ("printed" for a file typed from the printed board; "reconstructed" if absent)
#   [[resource]]  name, producer_era (1-5), bank_era (first era in which the bank sells it), provenance
#   [[field]]     id        "<era><column>", e.g. "3F"
#                 kind      "factory" | "technology" | "bonus" | "joker"
#                 name      text (bonus and joker fields: optional, named after their kind or resource)
#                 cost      Talers to develop (factory, bonus; technologies cost none)           default 0
#                 needs     0-2 resource names, in payment order ("Glass", "Glass": two Glass)    default []
#                 produces  resource name (factories only)                                       default none
#                 points    victory points in the cogwheel (factories, technologies)             default 0
#                 discount  1 on the Bank and the Stock Exchange (the rulebook's only discounts) default 0
#                 networks  factory: the networks it lies on, drawn from river, tracks, pipelines, power_lines;
#                           a second separate network of a kind is written "river:2" ("river" is "river:1")
#                           bonus field: the network(s) of its kind it serves         default the kind's first
#                 bonus     "port" | "railway_station" | "pump_station" | "power_station" (bonus fields)
#                 multiplier 2 or 3 (bonus fields)
#                 joker     resource name or "?" (joker fields)
#                 provenance table attribute = provenance; "id" (or "era", "column") is the field's position
#   [[road]]      fields = [a, b]: two factories directly linked by a road (3 points a pair); provenance
#   [[tech_link]] fields = [a, b]: two technologies directly linked (3 points a pair); provenance
# Blank values ("", 0, []) count as not given, so a template's unused lines may stay as they are.
# Provenance: "printed", "rulebook (<section>)", "source:<where>", "inferred:<from what>",
#   "interpretation:<what>", "reconstructed" or "reconstructed (<the constraint it satisfies>)".
"""


class BoardError(ValueError):
    """A board file that does not describe a playable Industry board.

    ``problems`` lists every ``(where, problem)`` found; the message has one line per problem, each naming the
    file, the field (or section) and the problem.
    """

    def __init__(self, path: str, problems: list[tuple[str, str]]) -> None:
        self.path = path
        self.problems = tuple(problems)
        self.errors = tuple(f"board file {path}: {where}: {problem}" for where, problem in problems)
        if len(self.errors) == 1:
            message = self.errors[0]
        else:
            message = f"board file {path}: {len(self.errors)} problems\n" + "\n".join(self.errors)
        super().__init__(message)

    def __reduce__(self):  # picklable although __init__ takes two arguments
        return type(self), (self.path, list(self.problems))


class BoardWarning(UserWarning):
    """A board file that loads but holds something an owner most likely did not mean (e.g. a long road)."""


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


def adjacent(a: int, b: int) -> bool:
    """Whether fields ``a`` and ``b`` touch on the grid, sideways, up-down or diagonally."""
    (ea, ca), (eb, cb) = divmod(a, NUM_COLUMNS), divmod(b, NUM_COLUMNS)
    return a != b and abs(ea - eb) <= 1 and abs(ca - cb) <= 1


def network_kind(name: str) -> int:
    """Index into NETWORKS of a network name ``"river"`` or ``"river:2"``."""
    return NETWORKS.index(name.split(":")[0])


@dataclass(frozen=True, eq=False)
class Board:
    """One board: names, per-field tables (leading dimension 60 = era * 12 + column) and link tables.

    All arrays are read-only. ``-1`` marks "none" in index tables.
    """

    path: str
    name: str  # [meta] name
    version: int  # [meta] version: which version of the file's board this is (0 if the file gives none)
    default_provenance: str  # [meta] provenance: the provenance of every value the file does not mark
    resource_names: tuple[str, ...]  # 11 names, in the rulebook's bank-table order
    resource_provenance: tuple[str, ...]  # 11
    field_names: tuple[str, ...]  # 60
    provenance: tuple[dict[str, str], ...]  # 60 dicts attribute -> provenance; always has "era" and "column"
    networks: tuple[tuple[str, ...], ...]  # 60: named networks a factory lies on / a bonus field serves
    road_provenance: tuple[str, ...]  # one per row of ROADS
    tech_link_provenance: tuple[str, ...]  # one per row of TECH_LINKS
    warnings: tuple[str, ...]  # what loads but looks unintended (roads between fields that do not touch)
    sha256: str  # SHA-256 (hex) of the text this board was parsed from: a game record names its board by it
    KIND: np.ndarray  # int8[60]: FACTORY, TECHNOLOGY, BONUS, JOKER
    ERA: np.ndarray  # int8[60]: 0-4
    COLUMN: np.ndarray  # int8[60]: 0-11
    COST: np.ndarray  # int8[60]: Talers to develop, before discounts
    NEEDS: np.ndarray  # int8[60, 2]: required resources in payment order, -1 padded; a resource may repeat
    NEEDS_MASK: np.ndarray  # bool[60, 11]: the field needs the resource at least once
    PRODUCES: np.ndarray  # int8[60]: resource a factory produces, -1 none
    POINTS: np.ndarray  # int8[60]: points in the cogwheel
    DISCOUNT: np.ndarray  # int8[60]: Talers off later construction costs (Bank, Stock Exchange)
    NETWORK: np.ndarray  # bool[60, 4]: factory lies on a river, tracks, pipelines, power lines
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

    @property
    def is_shipped(self) -> bool:
        """Whether this is the reconstructed board shipped with the package."""
        return self.path == SHIPPED_PATH

    def field_label(self, f: int) -> str:
        """``"2E Iron Ore Mine"``: the field's id and name."""
        return f"{field_id(f)} {self.field_names[f]}"

    def need_labels(self, f: int) -> list[str]:
        """The resources field ``f`` needs, for people: ``["Iron", "Stone"]``, or ``["Glass x2"]`` for two Glass."""
        needs = [self.resource_names[r] for r in self.NEEDS[f] if r >= 0]
        return [f"{needs[0]} x2"] if len(needs) == 2 and needs[0] == needs[1] else needs


def _blank(value: object) -> bool:
    """A template's blank: "", [] or 0 count as not given."""
    return value == "" or value == [] or (type(value) is int and value == 0)


class _Parser(Checker):
    """Reads one board file, collecting every problem instead of stopping at the first
    (:class:`industry_env.core.textdata.Checker`)."""

    PROVENANCE_KINDS = PROVENANCE_KINDS

    def __init__(self, path: str, data: dict) -> None:
        super().__init__(path)
        self.data = data
        self.notes: list[str] = []

    # ------------------------------------------------------------------ sections
    def meta(self) -> tuple[str, str, int]:
        meta = self.data.get("meta", {})
        if not isinstance(meta, dict):
            self.fail("[meta]", "must be a table")
            return Path(self.path).name, "reconstructed", 0
        for key in sorted(set(meta) - _META_KEYS):
            self.fail("[meta]", f"unknown key {key!r} (known: {sorted(_META_KEYS)})")
        name = meta.get("name", Path(self.path).name)
        if not isinstance(name, str) or not name:
            self.fail("[meta]", f"name {name!r} must be a non-empty string")
            name = Path(self.path).name
        default = self.provenance("[meta]", meta.get("provenance", "reconstructed"), "reconstructed")
        return name, default, self.integer("[meta]", meta, "version", 0, 1_000_000)

    def resources(self, default: str) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
        specs = self.data.get("resource")
        names: list[str] = []
        prov: list[str] = []
        bank_era = np.zeros(NUM_RESOURCES, np.int8)
        producer_era = np.zeros(NUM_RESOURCES, np.int8)
        if not isinstance(specs, list):
            self.fail("[[resource]]", "missing: the file needs a list of these tables")
            return names, prov, bank_era, producer_era
        if len(specs) != NUM_RESOURCES:
            self.fail("[[resource]]", f"{len(specs)} resources listed, the game has {NUM_RESOURCES}")
        for r, spec in enumerate(specs[:NUM_RESOURCES]):
            name = spec.get("name") if isinstance(spec, dict) else None
            where = f"resource {r + 1} ({name})"
            if not isinstance(spec, dict):
                self.fail(where, "must be a table")
                continue
            if not isinstance(name, str) or not name or name == "?" or name in names:
                self.fail(where, f"name {name!r} must be a new, non-empty resource name")
                name = f"<resource {r + 1}>"
            names.append(name)
            producer_era[r] = self.integer(where, spec, "producer_era", 1, NUM_ERAS) - 1
            bank_era[r] = self.integer(where, spec, "bank_era", 2, NUM_ERAS) - 1
            if bank_era[r] <= producer_era[r]:
                self.fail(where, "bank_era must come after producer_era (the bank sells resources of earlier eras)")
            prov.append(self.provenance(where, spec.get("provenance"), default))
        return names, prov, bank_era, producer_era

    def field_specs(self) -> dict[int, dict]:
        specs = self.data.get("field")
        by_id: dict[int, dict] = {}
        if not isinstance(specs, list):
            self.fail("[[field]]", "missing: the file needs a list of these tables")
            return by_id
        for n, spec in enumerate(specs):
            raw = spec.get("id") if isinstance(spec, dict) else None
            try:
                f = field_index(raw if isinstance(raw, str) else "")
            except ValueError:
                self.fail(f"field {n + 1}", f"id {raw!r} must be era 1-5 and column A-L, e.g. '3F'")
                continue
            if f in by_id:
                self.fail(f"field {field_id(f)}", "listed twice")
                continue
            unknown = set(spec) - _FIELD_KEYS
            if unknown:
                self.fail(f"field {field_id(f)}", f"unknown keys {sorted(unknown)}")
            by_id[f] = spec
        missing = [field_id(f) for f in range(NUM_FIELDS) if f not in by_id]
        if missing:
            self.fail("[[field]]", f"fields {missing} are missing (the board has all 60)")
        return by_id


def parse_board(text: str, path: str = "<string>") -> Board:
    """Build a :class:`Board` from the TOML text of a board file, checking every rule of the schema.

    Every problem of the file is collected and raised together in one :class:`BoardError`. What loads but
    looks unintended (a road between fields that do not touch) is listed in ``Board.warnings``.
    """
    if not isinstance(text, str):
        raise BoardError(path, [("text", f"must be the TOML text of a board file (str), not {type(text).__name__}")])
    try:
        data = parse_toml(text)
    except TextDataError as exc:
        raise BoardError(path, [("syntax", str(exc))]) from None
    p = _Parser(path, data)
    for section in sorted(set(data) - _SECTIONS):
        p.fail(f"[{section}]", f"unknown section (known: {sorted(_SECTIONS)})")
    board_name, default, version = p.meta()
    names, res_prov, bank_era, producer_era = p.resources(default)
    res_index = {n: i for i, n in enumerate(names)}

    def resource(where: str, key: str, value: object, wild: bool = False) -> int:
        if wild and value == "?":
            return WILD_JOKER
        if not isinstance(value, str) or value not in res_index:
            p.fail(where, f"{key} = {value!r} is not one of the resources {names}")
            return -1
        return res_index[value]

    by_id = p.field_specs()
    kind = np.full(NUM_FIELDS, -1, np.int8)
    cost = np.zeros(NUM_FIELDS, np.int8)
    needs = np.full((NUM_FIELDS, MAX_NEEDS), -1, np.int8)
    produces = np.full(NUM_FIELDS, -1, np.int8)
    points = np.zeros(NUM_FIELDS, np.int8)
    discount = np.zeros(NUM_FIELDS, np.int8)
    network = np.zeros((NUM_FIELDS, len(NETWORKS)), bool)
    nets_of: list[tuple[str, ...]] = [()] * NUM_FIELDS
    bonus_kind = np.full(NUM_FIELDS, -1, np.int8)
    multiplier = np.zeros(NUM_FIELDS, np.int8)
    joker_kind = np.full(NUM_FIELDS, -1, np.int8)
    field_names = [""] * NUM_FIELDS
    provenance: list[dict[str, str]] = [{} for _ in range(NUM_FIELDS)]
    era = np.arange(NUM_FIELDS) // NUM_COLUMNS

    for f, spec in sorted(by_id.items()):
        where = f"field {field_id(f)}"
        given = {k: v for k, v in spec.items() if k in _FIELD_KEYS and not _blank(v)}
        k = given.get("kind")
        if k is None:
            p.fail(where, f"kind is not given (one of {list(FIELD_KINDS)})")
            continue
        if k not in FIELD_KINDS:
            p.fail(where, f"kind {k!r} must be one of {list(FIELD_KINDS)}")
            continue
        kind[f] = FIELD_KINDS.index(k)

        allowed = {
            FACTORY: {"cost", "needs", "produces", "points", "discount", "networks"},
            TECHNOLOGY: {"needs", "points"},
            BONUS: {"cost", "needs", "bonus", "multiplier", "networks"},
            JOKER: {"joker"},
        }[kind[f]]
        wrong = set(given) - allowed - {"id", "kind", "name", "provenance"}
        if wrong:
            p.fail(where, f"a {k} has no {sorted(wrong)}")

        cost[f] = p.integer(where, given, "cost", 0, 20)
        points[f] = p.integer(where, given, "points", 0, 20)
        discount[f] = p.integer(where, given, "discount", 0, 1)
        need_list = given.get("needs", [])
        if not isinstance(need_list, list) or len(need_list) > MAX_NEEDS:
            p.fail(where, f"needs must list at most {MAX_NEEDS} resources")
            need_list = []
        for i, name_r in enumerate(need_list):
            r = resource(where, "needs", name_r)
            # A field of era e may need only resources whose producers lie in eras up to e.
            if r >= 0 and producer_era[r] > era[f]:
                p.fail(where, f"needs {name_r}, which is produced only from era {producer_era[r] + 1}")
            needs[f, i] = r
        if "produces" in given:
            r = resource(where, "produces", given["produces"])
            if r >= 0 and producer_era[r] != era[f]:
                p.fail(where, f"produces {given['produces']}, whose producers lie in era {producer_era[r] + 1}")
            elif r >= 0 and r in needs[f]:
                p.fail(where, "needs the resource it produces")
            produces[f] = r
        if kind[f] == BONUS:
            b = given.get("bonus")
            if b not in BONUS_KINDS:
                p.fail(where, f"bonus {b!r} must be one of {list(BONUS_KINDS)}")
            else:
                bonus_kind[f] = BONUS_KINDS.index(b)
            multiplier[f] = p.integer(where, given, "multiplier", 2, 3)  # "he earns 2 or 3 bonus points"
        if kind[f] == JOKER:
            if "joker" not in given:
                p.fail(where, "a joker field must say which resource its joker is worth ('?' for any)")
            else:
                joker_kind[f] = resource(where, "joker", given["joker"], wild=True)
        nets_of[f] = _networks(p, where, kind[f], bonus_kind[f], given.get("networks", []))
        for name_n in nets_of[f]:
            network[f, network_kind(name_n)] = kind[f] == FACTORY

        name = given.get("name")
        name_default = None
        if name is None and kind[f] == BONUS and bonus_kind[f] >= 0:
            name, name_default = BONUS_NAMES[BONUS_KINDS[bonus_kind[f]]], "rulebook (End of the Game: Bonus fields)"
        if name is None and kind[f] == JOKER and joker_kind[f] >= 0:
            name = "Joker: " + ("?" if joker_kind[f] == WILD_JOKER else names[joker_kind[f]])
            name_default = "reconstructed (named after its joker)"
        if not isinstance(name, str) or not name:
            p.fail(where, "name must be a non-empty string")
            name = field_id(f)
        field_names[f] = name

        prov = spec.get("provenance", {})
        if not isinstance(prov, dict):
            p.fail(where, "provenance must be a table of attribute = provenance")
            prov = {}
        for key in prov:
            if key not in _PROVENANCE_KEYS:
                p.fail(where, f"provenance names unknown attribute {key!r}")
        out = {key: p.provenance(where, prov.get(key), default) for key in given if key not in ("id", "provenance")}
        if name_default is not None:
            out["name"] = p.provenance(where, prov.get("name"), name_default)
        for key in ("era", "column"):  # the position: "id" gives both, "era" or "column" one
            out[key] = p.provenance(where, prov.get(key, prov.get("id")), default)
        provenance[f] = out

    # Board-wide constraints from the rulebook (counted only when every field's kind could be read).
    if (kind >= 0).all() and len(by_id) == NUM_FIELDS:
        n_jokers = int((kind == JOKER).sum())
        if n_jokers != 7:  # "7 Joker tokens"
            p.fail("[[field]]", f"{n_jokers} joker fields; the game has 7 Joker tokens")
        if int((joker_kind == WILD_JOKER).sum()) != 1:  # "The Joker token labeled ? ..."
            p.fail("[[field]]", "exactly one joker must be the '?' joker")
        for r, name_r in enumerate(names):
            if not (produces == r).any():
                p.fail(f"resource {name_r}", "no factory produces it")
        _check_discounts(p, kind, discount, field_names)

    def pairs(section: str, want: int) -> tuple[np.ndarray, list[str]]:
        out, prov = [], []
        specs = data.get(section, [])
        if not isinstance(specs, list):
            p.fail(f"[[{section}]]", "must be a list of tables")
            specs = []
        for n, spec in enumerate(specs):
            where = f"{section} {n + 1}"
            ids = spec.get("fields") if isinstance(spec, dict) else None
            if not isinstance(ids, list) or len(ids) != 2:
                p.fail(where, "fields must be a list of two field ids")
                continue
            unknown = set(spec) - {"fields", "provenance"}
            if unknown:
                p.fail(where, f"unknown keys {sorted(unknown)}")
            try:
                a, b = (field_index(str(x)) for x in ids)
            except ValueError as exc:
                p.fail(where, str(exc))
                continue
            if a == b or (kind[a] >= 0 and kind[a] != want) or (kind[b] >= 0 and kind[b] != want):
                p.fail(where, f"{ids} must be two different {FIELD_KINDS[want]} fields")
                continue
            a, b = sorted((a, b))
            if (a, b) in {tuple(x) for x in out}:
                p.fail(where, f"{field_id(a)}-{field_id(b)}: a pair listed twice")
                continue
            if not adjacent(a, b):
                p.notes.append(
                    f"board file {path}: {where}: {field_id(a)}-{field_id(b)} joins fields that do not touch on "
                    "the grid (a typing slip? printed links join neighbouring fields)"
                )
            out.append((a, b))
            prov.append(p.provenance(where, spec.get("provenance"), default))
        return np.array(out, np.int16).reshape(-1, 2), prov

    roads, road_prov = pairs("road", FACTORY)
    tech_links, tech_prov = pairs("tech_link", TECHNOLOGY)
    if p.problems:
        raise BoardError(path, p.problems)

    # Derived: a bonus field is connected to every factory on a network it serves ("Ports by rivers, ...");
    # with one network of each kind, every factory on that kind's network.
    bonus_connect = np.zeros((NUM_FIELDS, NUM_FIELDS), np.int8)
    for g in np.flatnonzero(kind == BONUS):
        for f in np.flatnonzero(kind == FACTORY):
            if set(nets_of[g]) & set(nets_of[f]):
                bonus_connect[g, f] = multiplier[g]
        if not bonus_connect[g].any():
            p.notes.append(
                f"board file {path}: field {field_id(g)}: no factory lies on {', '.join(nets_of[g])}, "
                "so this bonus field can never score"
            )
    producers = tuple(tuple(int(f) for f in np.flatnonzero(produces == r)) for r in range(NUM_RESOURCES))
    needs_mask = np.zeros((NUM_FIELDS, NUM_RESOURCES), bool)
    for f, i in zip(*np.nonzero(needs >= 0), strict=True):
        needs_mask[f, needs[f, i]] = True
    arrays = dict(
        KIND=kind, ERA=era.astype(np.int8), COLUMN=(np.arange(NUM_FIELDS) % NUM_COLUMNS).astype(np.int8),
        COST=cost, NEEDS=needs, NEEDS_MASK=needs_mask, PRODUCES=produces,
        POINTS=points, DISCOUNT=discount, NETWORK=network, BONUS_KIND=bonus_kind, MULTIPLIER=multiplier,
        JOKER_KIND=joker_kind, ROADS=roads, TECH_LINKS=tech_links, BANK_ERA=bank_era, PRODUCER_ERA=producer_era,
        LINKS=np.concatenate([roads, tech_links]), BONUS_CONNECT=bonus_connect,
    )  # fmt: skip
    for a in arrays.values():
        a.setflags(write=False)
    return Board(
        path=path, name=board_name, version=version, default_provenance=default, resource_names=tuple(names),
        resource_provenance=tuple(res_prov), field_names=tuple(field_names), provenance=tuple(provenance),
        networks=tuple(nets_of), road_provenance=tuple(road_prov), tech_link_provenance=tuple(tech_prov),
        warnings=tuple(p.notes), sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), PRODUCERS=producers,
        **arrays,
    )  # fmt: skip


def _networks(p: _Parser, where: str, kind: int, bonus_kind: int, value: object) -> tuple[str, ...]:
    """The named networks of a factory (as listed) or of a bonus field (default: the first of its kind)."""
    if kind == BONUS and bonus_kind >= 0 and not value:
        return (NETWORKS[bonus_kind],)
    if not value:
        return ()
    names: list[str] = []
    for item in value if isinstance(value, list) else [value]:
        m = _NETWORK_NAME.match(item) if isinstance(item, str) else None
        if not m or m.group(1) not in NETWORKS:
            p.fail(where, f"networks {value!r} must be a list drawn from {list(NETWORKS)}, e.g. 'river' or 'river:2'")
            return ()
        name = m.group(1) if m.group(2) in (None, "1") else f"{m.group(1)}:{m.group(2)}"
        if kind == BONUS and bonus_kind >= 0 and network_kind(name) != bonus_kind:
            p.fail(where, f"a {BONUS_KINDS[bonus_kind]} serves {NETWORKS[bonus_kind]} networks, not {item!r}")
            return ()
        if name in names:
            p.fail(where, f"networks lists {name!r} twice")
            return ()
        names.append(name)
    return tuple(names)


def _check_discounts(p: _Parser, kind: np.ndarray, discount: np.ndarray, names: list[str]) -> None:
    """Exactly the Bank and the Stock Exchange give a discount, of one Taler each (rulebook, Special Factories)."""
    have = {names[f]: f for f in np.flatnonzero(discount > 0)}
    for name, f in have.items():
        if name not in DISCOUNT_FIELDS:
            p.fail(f"field {field_id(f)}", f"{name} has a discount; the rulebook gives one only to "
                   f"{' and '.join(DISCOUNT_FIELDS)}")  # fmt: skip
    for name in DISCOUNT_FIELDS:
        if name not in have:
            named = [f for f, n in enumerate(names) if n == name]
            hint = f" (field {field_id(named[0])} has no discount = 1)" if named else ""
            p.fail("[[field]]", f"no factory named {name!r} with discount = 1: the rulebook's Special Factories "
                   f"are the Bank and the Stock Exchange{hint}")  # fmt: skip
        elif kind[have[name]] != FACTORY:
            p.fail(f"field {field_id(have[name])}", f"the {name} must be a factory")


def _shipped_text() -> str:
    return resources.files("industry_env.games.industry.data").joinpath(SHIPPED_BOARD).read_text(encoding="utf-8")


MAX_BOARD_BYTES = 1 << 20  # the shipped board file is about 30 kB; anything over 1 MiB is not a board file


@lru_cache(maxsize=8)
def _load_cached(path: str | None, stamp: tuple[int, int] | None) -> Board:
    """One parse per file version (``stamp`` = modification time and size), so an edited file is re-read."""
    if path is None:
        return parse_board(_shipped_text(), SHIPPED_PATH)
    try:
        text = read_text(path, MAX_BOARD_BYTES, "board file")
    except TextDataError as exc:
        raise BoardError(path, [("file", str(exc))]) from None
    return parse_board(text, path)


def load_board(path: str | Path | None = None) -> Board:
    """Load a board file (None: the shipped reconstructed board) into a checked, read-only :class:`Board`.

    A board file that loads but holds a likely typing slip (see ``Board.warnings``) raises a
    :class:`BoardWarning` for each.
    """
    if path is None:
        return _load_cached(None, None)
    if not isinstance(path, (str, Path)):
        raise BoardError(repr(path), [("path", "must be a path to a board file (str or pathlib.Path), or None")])
    if not str(path).strip():
        raise BoardError("''", [("path", "is empty: give the path of a board file, or None for the shipped board")])
    resolved = (moved_file(path) or Path(path).expanduser()).resolve()  # a checkout's old industry_env/data/board.toml
    if resolved.is_dir():
        raise BoardError(str(resolved), [("path", "is a folder, not a board file")])
    try:
        st = resolved.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    board = _load_cached(str(resolved), stamp)
    for note in board.warnings:
        warnings.warn(note, BoardWarning, stacklevel=2)
    return board


def board_template() -> str:
    """A blank, commented board file for an owner to fill in from the printed board.

    The resources are the rulebook's bank table (already filled in); every field has every key with a blank
    value ("", 0, []), which the loader reads as "not given", so only the keys a field uses need typing.
    """
    shipped = parse_toml(_shipped_text())
    lines = [
        "# A board file for Industry (Michael Schacht, Ystari 2009), to be filled in from the printed board.",
        "# Fill in each field's kind and the numbers printed on it; leave unused keys blank. Check it with",
        "#     industry-env board --board THIS_FILE",
        "# which lists every problem at once, then play on it with --board THIS_FILE (or load_board(path)).",
        "#",
        *SCHEMA.splitlines(),
        "",
        "[meta]",
        'name = "Industry (Ystari 2009), printed board"',
        "version = 1",
        'provenance = "printed"  # every value below is read off the printed board unless marked otherwise',
        "",
        "# ---- resources: the rulebook's table of resources at the bank (already filled in) ----",
    ]
    for spec in shipped["resource"]:
        lines += [
            "[[resource]]", f'name = "{spec["name"]}"', f"producer_era = {spec['producer_era']}",
            f"bank_era = {spec['bank_era']}", 'provenance = "rulebook (Table of available resources at the bank)"',
        ]  # fmt: skip
    for f in range(NUM_FIELDS):
        if f % NUM_COLUMNS == 0:
            lines += ["", f"# ---- Era {f // NUM_COLUMNS + 1} ----"]
        rows = [
            ('kind = ""', "factory, technology, bonus or joker"),
            ('name = ""', "optional for bonus and joker fields"),
            ("cost = 0", "Talers printed on the field (factory, bonus)"),
            ("needs = []", 'resources, e.g. ["Wood"], ["Iron", "Stone"], or ["Glass", "Glass"] for two Glass'),
            ('produces = ""', "factory: the resource it makes"),
            ("points = 0", "the cogwheel (factory, technology); 0 if none is printed"),
            ("discount = 0", "1 on the Bank and the Stock Exchange only"),
            ("networks = []", 'factory: e.g. ["river"] or ["tracks", "river:2"]; bonus: only if not the first'),
            ('bonus = ""', "bonus field: port, railway_station, pump_station or power_station"),
            ("multiplier = 0", "bonus field: 2 or 3"),
            ('joker = ""', 'joker field: the resource on the token, or "?"'),
        ]
        # The first field carries the comments; the other 59 stay short to type in.
        lines += ["[[field]]", f'id = "{field_id(f)}"']
        lines += [f"{text}  # {hint}" if f == 0 else text for text, hint in rows]
    lines += [
        "",
        "# ---- roads between factories, one table per printed road; e.g.",
        "# [[road]]",
        '# fields = ["1D", "1E"]',
        "",
        "# ---- links between technologies, one table per printed link; e.g.",
        "# [[tech_link]]",
        '# fields = ["1K", "1L"]',
    ]
    return "\n".join(lines) + "\n"


__all__ = [
    "Board", "BoardError", "BoardWarning", "SCHEMA", "adjacent", "board_template", "field_id", "field_index",
    "load_board", "parse_board", "rules",
]  # fmt: skip
