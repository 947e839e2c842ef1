"""The printed components as data: ``data/components.toml`` (player display, deck, market tiles, demand track, loan
tile) and one map file per side of the board (``data/germany.toml``, ``data/new_england.toml``).

The loaders check a file against its schema (written at the top of each shipped file) and against every constraint
the rulebook states, and refuse a malformed file with one :class:`ComponentsError` listing every problem found,
each naming the file, the entry and the problem, so that an owner typing in the printed components fixes them all
in one pass. Everything an engine needs is turned here into flat index tables (tuples of ints, ``-1`` for none),
the same tables a batched kernel will hold as arrays; derived tables are built by readable code, never in rules.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ...core.textdata import Checker, TextDataError, parse_toml, read_text
from .rules import (
    ALLOWED,
    COAL_MINE,
    FACTORY,
    INDUSTRIES,
    IRON_WORKS,
    NUM_INDUSTRIES,
    PORT,
    SHIP,
    SHIP_SPACE,
    SPACE_SYMBOLS,
)
from .state import FIELDS

DATA_PACKAGE = "industry_env.games.age_of_industry.data"
SHIPPED_COMPONENTS = "components.toml"
MAPS = ("germany", "new_england")
# How a value is known (see docs/age-of-industry/components.md).
PROVENANCE_KINDS = ("printed", "rulebook", "public", "inferred", "reconstructed")
NUM_CARDS = 66  # rulebook, Componenti: "Un mazzo da 66 carte"
NUM_MARKET_TILES = 18  # rulebook, Componenti: "Diciotto segnalini mercato"
COUNTERS_PER_PLAYER = 35  # public: 175 industry tiles for 5 colours (Keirat review); rulebook: two a level, one ship-0
MARKET_KINDS = ("cotton", "goods", "both", "no_demand")  # what a market tile accepts
TILE_ACCEPTS = ((True, False), (False, True), (True, True), (False, False))  # [kind][cotton, goods]
# Map spaces: the four build symbols of rules.SPACE_SYMBOLS, then a market space and a coal-import space.
MARKET_SPACE, IMPORT_SPACE = len(SPACE_SYMBOLS), len(SPACE_SYMBOLS) + 1
ALL_SYMBOLS = (*SPACE_SYMBOLS, "market", "import")
MAX_MARKETS_AT = 2  # market spaces a location may hold (a reconstructed bound: the shipped maps use one)
# The engines store a space's or a link's number, and the demand track's cubes, in the narrow integers of the State
# (state.FIELDS) and a location's number in the map's int16 tables (GameMap.arrays): data beyond them is refused.
INDEX_DTYPE = np.int16  # of GameMap.arrays
_FIELD_DTYPE = {name: np.dtype(dtype) for name, dtype, _, _ in FIELDS}
MAX_SPACES = min(int(np.iinfo(_FIELD_DTYPE[f]).max) for f in ("build_space", "sell_from")) + 1  # numbers 0..max
MAX_LINKS = int(np.iinfo(_FIELD_DTYPE["rail_link"]).max) + 1
MAX_LOCATIONS = int(np.iinfo(INDEX_DTYPE).max) + 1
MAX_DEMAND_SPACES = int(np.iinfo(_FIELD_DTYPE["demand"]).max)  # cubes on one track, a count


def name_key(text: str) -> str:
    """How a typed name is matched (actions.string_to_action): case and runs of spaces do not count. Two names of
    one file with the same key could not be told apart, so a file may not hold them."""
    return " ".join(text.strip().lower().split())


class ComponentsError(ValueError):
    """A components or map file that does not describe playable Age of Industry components.

    ``problems`` lists every ``(where, problem)``; the message has one line per problem naming file, entry, problem.
    """

    def __init__(self, path: str, problems: list[tuple[str, str]]) -> None:
        self.path = path
        self.problems = tuple(problems)
        self.errors = tuple(f"file {path}: {where}: {problem}" for where, problem in problems)
        message = self.errors[0] if len(self.errors) == 1 else (
            f"file {path}: {len(self.errors)} problems\n" + "\n".join(self.errors))
        super().__init__(message)

    def __reduce__(self):  # picklable although __init__ takes two arguments
        return type(self), (self.path, list(self.problems))


class _Checker(Checker):
    """Collects every problem of one file instead of stopping at the first (:class:`industry_env.core.textdata.
    Checker`), and reads the ``[meta]`` table."""

    PROVENANCE_KINDS = PROVENANCE_KINDS

    def done(self) -> None:
        if self.problems:
            raise ComponentsError(self.path, self.problems)

    def meta(self, data: dict) -> tuple[str, str, int]:
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            self.fail("[meta]", "must be a table")
            return Path(self.path).name, "reconstructed", 0
        self.keys("[meta]", meta, {"name", "version", "provenance"})
        name = meta.get("name", Path(self.path).name)
        if not isinstance(name, str) or not name:
            self.fail("[meta]", f"name {name!r} must be a non-empty string")
            name = Path(self.path).name
        default = self.provenance("[meta]", meta.get("provenance", "reconstructed"), "reconstructed")
        return name, default, self.integer("[meta]", meta, "version", 0, 1_000_000)


MAX_FILE_BYTES = 1 << 20  # a components or map file is a few kB; anything over 1 MiB is not one


def _read(path: str | Path | None, shipped: str) -> tuple[str, str]:
    """(text, path shown in messages) of a user's file, or of the shipped file when ``path`` is None."""
    if path is None:
        text = resources.files(DATA_PACKAGE).joinpath(shipped).read_text(encoding="utf-8")
        return text, f"industry_env/games/age_of_industry/data/{shipped}"
    try:
        return read_text(path, MAX_FILE_BYTES, "components or map file"), str(path)
    except TextDataError as exc:
        raise ComponentsError(str(path), [("file", str(exc))]) from None


def _toml(text: str, path: str) -> dict:
    try:
        return parse_toml(text)
    except TextDataError as exc:
        raise ComponentsError(path, [("file", f"is {exc}")]) from None


# ================================================================================== the player display and the rest
@dataclass(frozen=True, eq=False)
class Components:
    """Player display, deck, market tiles, demand track and loan tile. Index tables are tuples of ints.

    Display slots are ordered by industry, then level: slot ``d`` holds ``SLOT_COUNTERS[d]`` counters of industry
    ``SLOT_INDUSTRY[d]`` at level ``SLOT_LEVEL[d]``. Card kinds are the six industry cards (``INDUSTRIES`` order),
    then one location card per colour (``colours`` order).
    """

    path: str
    name: str
    version: int
    colours: tuple[str, ...]
    SLOT_INDUSTRY: tuple[int, ...]
    SLOT_LEVEL: tuple[int, ...]
    SLOT_COUNTERS: tuple[int, ...]
    SLOT_COST: tuple[int, ...]
    SLOT_COAL: tuple[int, ...]
    SLOT_IRON: tuple[int, ...]
    SLOT_CUBES: tuple[int, ...]
    SLOT_INCOME: tuple[int, ...]
    SLOTS_OF: tuple[tuple[int, ...], ...]  # [industry] -> its slots, lowest level first
    CARD_COUNT: tuple[int, ...]  # [card kind] copies in the deck
    CARD_INDUSTRY: tuple[int, ...]  # [card kind] industry of an industry card, -1 for a location card
    CARD_COLOUR: tuple[int, ...]  # [card kind] colour of a location card, -1 for an industry card
    TILE_COUNT: tuple[int, ...]  # [market kind] tiles of each MARKET_KINDS kind
    DEMAND_PRICES: tuple[tuple[int, ...], tuple[int, ...]]  # [coal, iron] dollars per space, most expensive first
    LOAN_VALUE: int
    LOAN_REPAY: int
    LOAN_INTEREST: int
    provenance: dict[str, dict[str, str]] = field(repr=False)  # entry -> attribute -> provenance
    sha256: str = ""  # SHA-256 (hex) of the file's text: a game record names its data by it

    @property
    def num_slots(self) -> int:
        return len(self.SLOT_INDUSTRY)

    @property
    def num_card_kinds(self) -> int:
        return len(self.CARD_COUNT)

    def slot_label(self, d: int) -> str:
        """``"cotton_mill 2"``: the industry and level of display slot ``d``."""
        return f"{INDUSTRIES[self.SLOT_INDUSTRY[d]]} {self.SLOT_LEVEL[d]}"

    def card_label(self, k: int) -> str:
        """``"cotton_mill"`` for an industry card, ``"brown"`` for a location card."""
        return INDUSTRIES[self.CARD_INDUSTRY[k]] if self.CARD_INDUSTRY[k] >= 0 else self.colours[self.CARD_COLOUR[k]]

    @property
    def card_labels(self) -> tuple[str, ...]:
        return tuple(self.card_label(k) for k in range(self.num_card_kinds))


_DISPLAY_KEYS = {"industry", "level", "counters", "cost", "coal", "iron", "cubes", "income", "provenance"}


def parse_components(text: str, path: str) -> Components:
    """Check the text of a components file and build :class:`Components`; raise :class:`ComponentsError`."""
    data = _toml(text, path)
    c = _Checker(path)
    c.keys("file", data, {"meta", "display", "card", "market_tile", "demand", "loan"})
    name, default, version = c.meta(data)
    prov: dict[str, dict[str, str]] = {}

    # ---- the display
    rows = []
    specs = data.get("display")
    if not isinstance(specs, list) or not specs:
        c.fail("[[display]]", "missing: the file needs one table per (industry, level) slot")
        specs = []
    for n, spec in enumerate(specs):
        where = f"display {n + 1}"
        if not isinstance(spec, dict):
            c.fail(where, "must be a table")
            continue
        c.keys(where, spec, _DISPLAY_KEYS)
        ind = spec.get("industry")
        if ind not in INDUSTRIES:
            c.fail(where, f"industry {ind!r} must be one of {list(INDUSTRIES)}")
            continue
        level = c.integer(where, spec, "level", 0, 9)
        where = f"display {ind} {level}"
        i = INDUSTRIES.index(ind)
        row = dict(
            industry=i, level=level,
            counters=c.integer(where, spec, "counters", 1, 9),
            cost=c.integer(where, spec, "cost", 0, 99), coal=c.integer(where, spec, "coal", 0, 1),
            iron=c.integer(where, spec, "iron", 0, 1), cubes=c.integer(where, spec, "cubes", 0, 9),
            income=c.integer(where, spec, "income", 0, 99),
        )  # fmt: skip
        if level == 0:
            # Descrizione dei segnalini: "Le navi e le fabbriche partono con un livello tecnologico pari a 0.
            # Queste industrie non possono essere costruite"
            if i not in (FACTORY, SHIP):
                c.fail(where, "only factories and ships have level-0 counters (rulebook, Descrizione dei segnalini)")
            if any(row[k] for k in ("cost", "coal", "iron", "cubes", "income")):
                c.fail(where, "a level-0 counter cannot be built: it has no cost, needs, cubes or income")
        else:
            if row["cost"] <= 0:
                c.fail(where, "cost must be at least $1 (every build is paid)")
            if i in (COAL_MINE, IRON_WORKS) and row["cubes"] <= 0:
                c.fail(where, "a coal mine or iron works carries cubes (rulebook, Cubetti di acciaio e carbone)")
            if i not in (COAL_MINE, IRON_WORKS) and row["cubes"]:
                c.fail(where, "only coal mines and iron works carry cubes")
            if i == COAL_MINE and row["coal"]:
                c.fail(where, "a coal mine needing coal could never be the first source (taken as impossible)")
        rows.append(row)
        attributes = _DISPLAY_KEYS - {"provenance", "industry"}
        prov[f"display {ind} {level}"] = c.provenance_table(where, spec, attributes, default)
    rows.sort(key=lambda r: (r["industry"], r["level"]))
    for a, b in zip(rows, rows[1:], strict=False):
        if (a["industry"], a["level"]) == (b["industry"], b["level"]):
            c.fail(f"display {INDUSTRIES[a['industry']]} {a['level']}", "listed twice")
    slots_of = tuple(tuple(d for d, r in enumerate(rows) if r["industry"] == i) for i in range(NUM_INDUSTRIES))
    for i, slots in enumerate(slots_of):
        if not any(rows[d]["level"] > 0 for d in slots):
            c.fail("[[display]]", f"no buildable {INDUSTRIES[i]} (every industry has counters of level 1 or more)")
    total = sum(r["counters"] for r in rows)
    if rows and total != COUNTERS_PER_PLAYER:
        c.fail("[[display]]", f"{total} counters a player; the game has {COUNTERS_PER_PLAYER} (175 for 5 colours)")

    # ---- the deck
    colours: list[str] = []
    card_industry: list[int] = []
    card_colour: list[int] = []
    card_count: list[int] = []
    ind_count = [0] * NUM_INDUSTRIES
    col_count: dict[str, int] = {}
    specs = data.get("card")
    if not isinstance(specs, list) or not specs:
        c.fail("[[card]]", "missing: the file needs one table per kind of card")
        specs = []
    for n, spec in enumerate(specs):
        where = f"card {n + 1}"
        if not isinstance(spec, dict):
            c.fail(where, "must be a table")
            continue
        c.keys(where, spec, {"kind", "colour", "industry", "count", "provenance"})
        count = c.integer(where, spec, "count", 1, NUM_CARDS)
        if spec.get("kind") == "industry":
            ind = spec.get("industry")
            if ind not in INDUSTRIES:
                c.fail(where, f"industry {ind!r} must be one of {list(INDUSTRIES)}")
                continue
            if ind_count[INDUSTRIES.index(ind)]:
                c.fail(where, f"industry card {ind!r} listed twice")
            ind_count[INDUSTRIES.index(ind)] += count
            prov[f"card {ind}"] = c.provenance_table(where, spec, {"count"}, default)
        elif spec.get("kind") == "location":
            colour = spec.get("colour")
            if not isinstance(colour, str) or not colour or colour in col_count:
                c.fail(where, f"colour {colour!r} must be a new, non-empty colour name")
                continue
            taken = [x for x in (*col_count, *INDUSTRIES) if name_key(x) == name_key(colour)]
            if taken:
                c.fail(where, f"colour {colour!r} differs from the card {taken[0]!r} only in case or spacing: "
                       "actions name cards ignoring both, so they could not be told apart")  # fmt: skip
                continue
            col_count[colour] = count
            colours.append(colour)
            prov[f"card {colour}"] = c.provenance_table(where, spec, {"count"}, default)
        else:
            c.fail(where, f"kind {spec.get('kind')!r} must be 'industry' or 'location'")
    for i in range(NUM_INDUSTRIES):
        card_industry.append(i)
        card_colour.append(-1)
        card_count.append(ind_count[i])
        if not ind_count[i]:
            c.fail("[[card]]", f"no {INDUSTRIES[i]} industry card (the deck has one kind of card per industry)")
    for j, colour in enumerate(colours):
        card_industry.append(-1)
        card_colour.append(j)
        card_count.append(col_count[colour])
    if specs and sum(card_count) != NUM_CARDS:
        c.fail("[[card]]", f"{sum(card_count)} cards; the deck has {NUM_CARDS} (rulebook, Componenti)")

    # ---- market tiles
    tile_count = [0] * len(MARKET_KINDS)
    specs = data.get("market_tile")
    if not isinstance(specs, list) or not specs:
        c.fail("[[market_tile]]", "missing: the file needs one table per kind of market tile")
        specs = []
    for n, spec in enumerate(specs):
        where = f"market_tile {n + 1}"
        if not isinstance(spec, dict):
            c.fail(where, "must be a table")
            continue
        c.keys(where, spec, {"accepts", "count", "provenance"})
        acc = spec.get("accepts")
        if not isinstance(acc, list) or any(a not in ("cotton", "goods") for a in acc) or len(set(acc)) != len(acc):
            c.fail(where, f"accepts {acc!r} must be [], ['cotton'], ['goods'] or ['cotton', 'goods']")
            continue
        kind = TILE_ACCEPTS.index(("cotton" in acc, "goods" in acc))
        if tile_count[kind]:
            c.fail(where, f"tiles accepting {acc} listed twice")
        tile_count[kind] += c.integer(where, spec, "count", 1, NUM_MARKET_TILES)
        prov[f"market_tile {MARKET_KINDS[kind]}"] = c.provenance_table(where, spec, {"count"}, default)
    if specs and sum(tile_count) != NUM_MARKET_TILES:
        c.fail("[[market_tile]]", f"{sum(tile_count)} tiles; the game has {NUM_MARKET_TILES} (rulebook, Componenti)")

    # ---- demand track and loan
    demand = data.get("demand", {})
    prices: list[tuple[int, ...]] = []
    if not isinstance(demand, dict):
        c.fail("[demand]", "must be a table")
        demand = {}
    c.keys("[demand]", demand, {"coal", "iron", "provenance"})
    for r in ("coal", "iron"):
        row = demand.get(r)
        if (not isinstance(row, list) or not row or not all(type(x) is int and 1 <= x <= 3 for x in row)
                or any(a < b for a, b in zip(row, row[1:], strict=False))):  # fmt: skip
            # "Richiesta di carbone e acciaio": rows $1, $2, $3; listed most expensive first
            c.fail("[demand]", f"{r} = {row!r} must list the spaces' prices ($1-$3), most expensive first")
            row = [1]
        elif len(row) > MAX_DEMAND_SPACES:
            c.fail("[demand]", f"{r}: {len(row)} spaces; the engines count a track's cubes in 8 bits (demand: "
                   f"int8): at most {MAX_DEMAND_SPACES}")  # fmt: skip
            row = [1]
        prices.append(tuple(row))
    prov["demand"] = c.provenance_table("[demand]", demand, {"coal", "iron"}, default)
    loan = data.get("loan", {})
    if not isinstance(loan, dict):
        c.fail("[loan]", "must be a table")
        loan = {}
    c.keys("[loan]", loan, {"value", "repay", "interest", "provenance"})
    value = c.integer("[loan]", loan, "value", 1, 99, default=-1)
    repay = c.integer("[loan]", loan, "repay", 1, 99, default=-1)
    interest = c.integer("[loan]", loan, "interest", 0, 99, default=-1)
    if repay < value:
        c.fail("[loan]", f"repay = {repay} is less than the loan's value {value}")
    prov["loan"] = c.provenance_table("[loan]", loan, {"value", "repay", "interest"}, default)
    c.done()
    col = lambda key: tuple(int(r[key]) for r in rows)  # noqa: E731
    return Components(
        path=path, name=name, version=version, colours=tuple(colours),
        SLOT_INDUSTRY=col("industry"), SLOT_LEVEL=col("level"), SLOT_COUNTERS=col("counters"),
        SLOT_COST=col("cost"), SLOT_COAL=col("coal"), SLOT_IRON=col("iron"), SLOT_CUBES=col("cubes"),
        SLOT_INCOME=col("income"), SLOTS_OF=slots_of, CARD_COUNT=tuple(card_count),
        CARD_INDUSTRY=tuple(card_industry), CARD_COLOUR=tuple(card_colour), TILE_COUNT=tuple(tile_count),
        DEMAND_PRICES=(prices[0], prices[1]), LOAN_VALUE=value, LOAN_REPAY=repay, LOAN_INTEREST=interest,
        provenance=prov, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )  # fmt: skip


@lru_cache(maxsize=8)
def _components_cached(path: str | None) -> Components:
    text, shown = _read(path, SHIPPED_COMPONENTS)
    return parse_components(text, shown)


def load_components(path: str | Path | None = None) -> Components:
    """Load a components file (None: the shipped reconstructed one) into checked :class:`Components`."""
    if path is not None and not isinstance(path, (str, Path)):
        raise ComponentsError(repr(path), [("path", "must be a path to a components file, or None")])
    return _components_cached(None if path is None else str(Path(path).expanduser().resolve()))


# ================================================================================================== the maps
@dataclass(frozen=True, eq=False)
class GameMap:
    """One side of the board as index tables (tuples of ints; -1 for none).

    Locations ``0..N-1`` (villages and off-map places included); spaces ``0..S-1``, grouped by location: its
    build spaces (``SPACE_SYMBOL`` blank, coal, port, ship), then its market spaces, then its coal-import space;
    links ``0..L-1``: potential rail links, then sea lanes (``LINK_SEA``).
    """

    key: str  # "germany", "new_england", or the path of a user's file
    path: str
    name: str
    version: int
    location_names: tuple[str, ...]
    LOC_COLOUR: tuple[int, ...]  # [N] colour index into Components.colours, -1 none
    LOC_VILLAGE: tuple[bool, ...]
    LOC_DISTANT_PORT: tuple[bool, ...]
    LOC_NO_THROUGH: tuple[bool, ...]  # Pennsylvania
    LOC_BUILD_SPACES: tuple[int, ...]  # [N] build spaces (for the occupancy limit)
    LOC_SPACES: tuple[tuple[int, ...], ...]  # [N] -> its spaces
    LOC_LINKS: tuple[tuple[int, ...], ...]  # [N] -> its links (rail and sea)
    LOC_HAS_PORT_SPACE: tuple[bool, ...]
    SPACE_LOC: tuple[int, ...]  # [S]
    SPACE_SYMBOL: tuple[int, ...]  # [S] index into ALL_SYMBOLS
    SPACE_IMPORT: tuple[int, ...]  # [S] coal cubes a ship brings to this import space (0 elsewhere)
    LINK_A: tuple[int, ...]  # [L]
    LINK_B: tuple[int, ...]  # [L]
    LINK_SEA: tuple[bool, ...]  # [L]
    SHIP_IMPORT: tuple[int, ...]  # [S] for a ship space: the import space it serves, -1 none
    SHIP_MARKET: tuple[int, ...]  # [S] for a ship space: the market space it serves, -1 none
    SHIP_PORT_LOCS: tuple[tuple[int, ...], ...]  # [S] for a ship space: the port locations it is sea-laned to
    provenance: dict[str, dict[str, str]] = field(repr=False)
    sha256: str = ""  # SHA-256 (hex) of the file's text: a game record names its data by it
    warnings: tuple[str, ...] = ()

    @property
    def num_locations(self) -> int:
        return len(self.location_names)

    @property
    def num_spaces(self) -> int:
        return len(self.SPACE_LOC)

    @property
    def num_links(self) -> int:
        return len(self.LINK_A)

    @property
    def num_rail_links(self) -> int:
        return sum(not s for s in self.LINK_SEA)

    @property
    def market_spaces(self) -> tuple[int, ...]:
        return tuple(s for s, sym in enumerate(self.SPACE_SYMBOL) if sym == MARKET_SPACE)

    @property
    def has_ships(self) -> bool:
        return SHIP_SPACE in self.SPACE_SYMBOL

    def space_label(self, s: int) -> str:
        """``"Köln:2"``: the location and the space's number there (1-based, build spaces first)."""
        loc = self.SPACE_LOC[s]
        return f"{self.location_names[loc]}:{self.LOC_SPACES[loc].index(s) + 1}"

    def link_label(self, link: int) -> str:
        sep = "~" if self.LINK_SEA[link] else "-"
        return f"{self.location_names[self.LINK_A[link]]}{sep}{self.location_names[self.LINK_B[link]]}"

    def arrays(self) -> dict[str, np.ndarray]:
        """The flat index tables as int arrays (the form a batched kernel holds)."""
        out = {}
        for key in ("LOC_COLOUR", "LOC_VILLAGE", "LOC_DISTANT_PORT", "LOC_NO_THROUGH", "LOC_BUILD_SPACES",
                    "SPACE_LOC", "SPACE_SYMBOL", "SPACE_IMPORT", "LINK_A", "LINK_B", "LINK_SEA", "SHIP_IMPORT",
                    "SHIP_MARKET"):  # fmt: skip
            out[key] = np.asarray(getattr(self, key), INDEX_DTYPE)
        for key in ("LOC_SPACES", "LOC_LINKS", "SHIP_PORT_LOCS"):
            rows = getattr(self, key)
            width = max((len(r) for r in rows), default=0)
            table = np.full((len(rows), max(width, 1)), -1, INDEX_DTYPE)
            for i, r in enumerate(rows):
                table[i, : len(r)] = r
            out[key] = table
        return out


_LOCATION_KEYS = {"name", "colour", "spaces", "markets", "distant_port", "village", "import_coal", "no_through",
                  "provenance"}  # fmt: skip


def parse_map(text: str, path: str, components: Components, key: str | None = None) -> GameMap:
    """Check the text of a map file against the rulebook and ``components``; raise :class:`ComponentsError`."""
    data = _toml(text, path)
    c = _Checker(path)
    c.keys("file", data, {"meta", "location", "link"})
    name, default, version = c.meta(data)
    prov: dict[str, dict[str, str]] = {}
    specs = data.get("location")
    if not isinstance(specs, list) or not specs:
        c.fail("[[location]]", "missing: the file needs one table per location")
        specs = []
    names: list[str] = []
    keys: dict[str, str] = {}  # name_key -> the name first given
    colour, village, distant, no_through, nbuild, import_coal = [], [], [], [], [], []
    loc_spaces: list[tuple[int, ...]] = []
    space_loc: list[int] = []
    space_symbol: list[int] = []
    space_import: list[int] = []
    for n, spec in enumerate(specs):
        where = f"location {n + 1}"
        if not isinstance(spec, dict):
            c.fail(where, "must be a table")
            continue
        nm = spec.get("name")
        if not isinstance(nm, str) or not nm.strip() or nm in names or any(ch in nm for ch in ":-~,"):
            c.fail(where, f"name {nm!r} must be a new, non-empty name without ':', '-', '~' or ','")
            nm = f"<location {n + 1}>"
        elif name_key(nm) in keys:
            c.fail(where, f"name {nm!r} differs from location {keys[name_key(nm)]!r} only in case or spacing: "
                   "actions name locations ignoring both, so they could not be told apart")  # fmt: skip
            nm = f"<location {n + 1}>"
        keys.setdefault(name_key(nm), nm)
        where = f"location {nm}"
        c.keys(where, spec, _LOCATION_KEYS)
        col = spec.get("colour")
        if col is None:
            colour.append(-1)
        elif col not in components.colours:
            c.fail(where, f"colour {col!r} is not a location colour of the deck {list(components.colours)}")
            colour.append(-1)
        else:
            colour.append(components.colours.index(col))
        sp = spec.get("spaces", [])
        if not isinstance(sp, list) or any(x not in SPACE_SYMBOLS for x in sp):
            c.fail(where, f"spaces {sp!r} must be a list drawn from {list(SPACE_SYMBOLS)}")
            sp = []
        markets = c.integer(where, spec, "markets", 0, MAX_MARKETS_AT)
        imp = c.integer(where, spec, "import_coal", 0, 9)
        is_village = c.flag(where, spec, "village")
        if is_village and (sp or markets or imp):
            c.fail(where, "a village has no spaces, markets or coal ('non possono essere costruiti edifici')")
        if sp and col is None:
            c.fail(where, "a location with build spaces needs a colour (location cards build there by colour)")
        if "ship" in sp and len(sp) > 1:
            c.fail(where, "a ship space stands alone: its location holds only that one space")
        if imp and (sp or markets):
            c.fail(where, "a coal-import location holds only its import cubes")
        if not (sp or markets or imp or is_village):
            c.fail(where, "holds nothing: give it spaces, markets, import_coal or village = true")
        loc = len(names)
        names.append(nm)
        village.append(is_village)
        distant.append(c.flag(where, spec, "distant_port"))
        no_through.append(c.flag(where, spec, "no_through"))
        nbuild.append(len(sp))
        import_coal.append(imp)
        ids = []
        for sym in [SPACE_SYMBOLS.index(x) for x in sp] + [MARKET_SPACE] * markets + [IMPORT_SPACE] * (imp > 0):
            ids.append(len(space_loc))
            space_loc.append(loc)
            space_symbol.append(sym)
            space_import.append(imp if sym == IMPORT_SPACE else 0)
        loc_spaces.append(tuple(ids))
        prov[f"location {nm}"] = c.provenance_table(where, spec, _LOCATION_KEYS - {"provenance"}, default)
    index = {nm: i for i, nm in enumerate(names)}

    link_a, link_b, link_sea = [], [], []
    specs = data.get("link", [])
    if not isinstance(specs, list):
        c.fail("[[link]]", "must be a list of tables")
        specs = []
    seen: set[tuple[int, int]] = set()
    for n, spec in enumerate(specs):
        where = f"link {n + 1}"
        if not isinstance(spec, dict):
            c.fail(where, "must be a table")
            continue
        c.keys(where, spec, {"between", "sea", "provenance"})
        ends = spec.get("between")
        if not isinstance(ends, list) or len(ends) != 2 or any(e not in index for e in ends) or ends[0] == ends[1]:
            c.fail(where, f"between = {ends!r} must name two different locations of this file")
            continue
        a, b = sorted(index[e] for e in ends)
        where = f"link {names[a]}-{names[b]}"
        if (a, b) in seen:
            c.fail(where, "listed twice ('Su ogni collegamento può essere costruito un solo tratto ferroviario')")
            continue
        seen.add((a, b))
        sea = c.flag(where, spec, "sea")
        ship_end = [x for x in (a, b) if SHIP_SPACE in [space_symbol[s] for s in loc_spaces[x]]]
        if sea and len(ship_end) != 1:
            c.fail(where, "a sea lane joins a ship space to a port, coal-import or market location (one ship end)")
        if not sea and (ship_end or import_coal[a] or import_coal[b]):
            c.fail(where, "a rail link cannot end at a ship space or a coal-import location")
        link_a.append(a)
        link_b.append(b)
        link_sea.append(sea)
        prov[where] = c.provenance_table(where, spec, {"between"}, default)
    # rail links first, then sea lanes (a stable order: the action encoding numbers rail links from 0)
    order = sorted(range(len(link_a)), key=lambda i: (link_sea[i], i))
    link_a = [link_a[i] for i in order]
    link_b = [link_b[i] for i in order]
    link_sea = [link_sea[i] for i in order]
    loc_links = tuple(tuple(li for li in range(len(link_a)) if x in (link_a[li], link_b[li]))
                      for x in range(len(names)))  # fmt: skip

    ship_import, ship_market, ship_ports = [], [], []
    port = SPACE_SYMBOLS.index("port")
    has_port = tuple(any(space_symbol[s] == port for s in loc_spaces[x]) for x in range(len(names)))
    for s, sym in enumerate(space_symbol):
        imp, mkt, ports = -1, -1, []
        if sym == SHIP_SPACE:
            here = space_loc[s]
            for li in loc_links[here]:
                other = link_b[li] if link_a[li] == here else link_a[li]
                for t in loc_spaces[other]:
                    if space_symbol[t] == IMPORT_SPACE:
                        imp = t
                    if space_symbol[t] == MARKET_SPACE:
                        mkt = t
                if has_port[other]:
                    ports.append(other)
            if not ports:
                c.fail(f"location {names[here]}", "a ship space must be sea-laned to a location with a port space")
        ship_import.append(imp)
        ship_market.append(mkt)
        ship_ports.append(tuple(ports))
    for x in range(len(names)):
        if import_coal[x] and not any(link_sea[li] for li in loc_links[x]):
            c.fail(f"location {names[x]}", "a coal-import location must be sea-laned to a ship space")
        if not loc_links[x] and names:
            c.fail(f"location {names[x]}", "has no link: nothing could ever reach it")
    for what, count, limit, field_ in (("spaces", len(space_loc), MAX_SPACES, "build_space, sell_from: int16"),
                                       ("links", len(link_a), MAX_LINKS, "rail_link: int16"),
                                       ("locations", len(names), MAX_LOCATIONS, "the map tables: int16")):  # fmt: skip
        if count > limit:
            c.fail("[[location]]" if what != "links" else "[[link]]",
                   f"{count:,} {what}; the engines number them in 16 bits ({field_}): at most {limit:,}")  # fmt: skip
    n_markets = space_symbol.count(MARKET_SPACE)
    if n_markets > NUM_MARKET_TILES:
        c.fail("[[location]]", f"{n_markets} market spaces, but the game has {NUM_MARKET_TILES} market tiles")
    for j, col in enumerate(components.colours):
        if names and not any(colour[x] == j and nbuild[x] for x in range(len(names))):
            c.fail("[[location]]", f"no location of colour {col!r} has a build space: its location cards would be dead")
    c.done()
    return GameMap(
        key=key or path, path=path, name=name, version=version, location_names=tuple(names),
        LOC_COLOUR=tuple(colour), LOC_VILLAGE=tuple(village), LOC_DISTANT_PORT=tuple(distant),
        LOC_NO_THROUGH=tuple(no_through), LOC_BUILD_SPACES=tuple(nbuild), LOC_SPACES=tuple(loc_spaces),
        LOC_LINKS=loc_links, LOC_HAS_PORT_SPACE=has_port, SPACE_LOC=tuple(space_loc),
        SPACE_SYMBOL=tuple(space_symbol), SPACE_IMPORT=tuple(space_import), LINK_A=tuple(link_a),
        LINK_B=tuple(link_b), LINK_SEA=tuple(link_sea), SHIP_IMPORT=tuple(ship_import),
        SHIP_MARKET=tuple(ship_market), SHIP_PORT_LOCS=tuple(ship_ports), provenance=prov,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )  # fmt: skip


@lru_cache(maxsize=16)
def _map_cached(key: str, components: Components) -> GameMap:
    if key in MAPS:
        text, shown = _read(None, f"{key}.toml")
        return parse_map(text, shown, components, key=key)
    text, shown = _read(key, "")
    return parse_map(text, shown, components)


def load_map(name: str | Path = "germany", components: Components | None = None) -> GameMap:
    """Load a shipped map by name (``"germany"``, ``"new_england"``) or a user's map file by path."""
    if not isinstance(name, (str, Path)):
        raise ComponentsError(repr(name), [("map", f"must be one of {list(MAPS)} or a path to a map file")])
    components = components or load_components()
    key = str(name) if str(name) in MAPS else str(Path(name).expanduser().resolve())
    if key not in MAPS and not Path(key).is_file():
        raise ComponentsError(str(name), [("map", f"is neither one of {list(MAPS)} nor a map file")])
    return _map_cached(key, components)


def allowed_industries(symbol: int) -> tuple[int, ...]:
    """The industries a build space of ``symbol`` takes (none for market and import spaces)."""
    return ALLOWED.get(symbol, ())


__all__ = [
    "ALL_SYMBOLS", "COUNTERS_PER_PLAYER", "Components", "ComponentsError", "GameMap", "IMPORT_SPACE", "MAPS",
    "MARKET_KINDS", "MARKET_SPACE", "NUM_CARDS", "NUM_MARKET_TILES", "PORT", "TILE_ACCEPTS", "allowed_industries",
    "load_components", "load_map", "parse_components", "parse_map",
]  # fmt: skip
