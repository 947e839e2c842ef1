"""The geometry the rules read: each tile a small graph of cities, an institution's building and rail pieces by
side; a nation its placed tiles, on cells without bound; and the three relations of the rulebook as named functions.

A rail piece touches cities, the building and the sides it leaves by; it never passes through a city (a line
through a city is two pieces). A tile's *local components* are its pieces joined through the building (ruling 7)
and through a placed bridge (a bridge is one more piece touching its two ends). Rotating a tile r quarter turns
clockwise sends side s to (s + r) % 4 (N=0, E=1, S=2, W=3). Two edge neighbours are joined across their shared side
when both are railed on it, wherever along the side (ruling 1: 'non è richiesto che si abbinino').

The relations (docs/twentieth-century/rules.md, rulings 1-8):

* :func:`train_connected` (Treno: 'collegate dai binari ferroviari (o ponti) che non passano attraverso altre
  città. Il collegamento può attraversare una o più tessere istituzione');
* :func:`institution_bonus` (Istituzioni: 'su tessere adiacenti e collegate da una linea ferroviaria che non passi
  attraverso altre città');
* :func:`recycling_reaches` (Riciclaggio: 'la stessa tessera' or 'la tessera territorio adiacente ... e c'è un
  collegamento ferroviario diretto al centro riciclaggio fra le due tessere').
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache

from .components import BUILDING, CITY_NAMES, SIDES, Tile
from .rules import LAST_FULL_ROUND, MAX_LAND_OFFER

# A nation is unbounded (ruling 18): its tiles are addressed by *slot*, the order they were attached in (0 the
# starting tile), each on a cell (x east, y south) counted from the starting tile's (0, 0). At most the starting
# tile, 8 land tiles a round for five rounds (a 5-player offer, all won by one player) and one institution a round.
MAX_TILES = 1 + LAST_FULL_ROUND * MAX_LAND_OFFER + LAST_FULL_ROUND
START_CELL = (0, 0)
N, E, S, W = range(4)
STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}  # x east, y south
# The eight cells around a tile, clockwise from north: where a tile attached beside it may go (by an edge or a
# corner: 'bordo con bordo o angolo con angolo').
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def opposite(side: int) -> int:
    return (side + 2) % 4


@dataclasses.dataclass(frozen=True)
class LocalComponent:
    """Pieces of one tile joined inside it: the cities they touch (indices), the building, the sides (rotated)."""

    cities: frozenset[int]
    building: bool
    sides: frozenset[int]


@dataclasses.dataclass(frozen=True)
class Placed:
    """A tile on a nation's grid: its geometry, rotation (quarter turns clockwise) and placed bridge (or -1)."""

    tile: Tile
    rotation: int = 0
    bridge: int = -1


@lru_cache(maxsize=4096)
def local_components(tile: Tile, rotation: int, bridge: int) -> tuple[LocalComponent, ...]:
    """The tile's pieces joined through the building and the placed bridge (index into ``tile.bridges``)."""
    pieces = [set(p) for p in tile.rails]
    joins: list[tuple[int, int]] = []
    if bridge >= 0:  # a bridge is one more piece: it touches a city or the building it ends on, joins a piece
        ends = tile.bridges[bridge]
        pieces.append({e for e in ends if not e.startswith("r")})
        joins += [(int(e[1:]) - 1, len(pieces) - 1) for e in ends if e.startswith("r")]
    # pieces meet at the building (ruling 7), never at a city (ruling 8: a connection may not pass 'attraverso
    # un'altra città')
    joins += [(i, j) for j in range(len(pieces)) for i in range(j) if BUILDING in pieces[i] & pieces[j]]
    parent = list(range(len(pieces)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in joins:
        parent[find(i)] = find(j)
    groups: dict[int, set[str]] = {}
    for i, p in enumerate(pieces):
        groups.setdefault(find(i), set()).update(p)
    out = []
    for elems in groups.values():
        cities = frozenset(CITY_NAMES.index(e) for e in elems if e in CITY_NAMES)
        sides = frozenset((SIDES.index(e) + rotation) % 4 for e in elems if e in SIDES)
        out.append(LocalComponent(cities, BUILDING in elems, sides))
    return tuple(out)


def reaches(placed: Placed, element: int, side: int) -> bool:
    """City ``element`` (or the building, -1) has a line to ``side`` of its tile passing through no other city."""
    for comp in local_components(placed.tile, placed.rotation, placed.bridge):
        if side in comp.sides and (comp.building if element < 0 else element in comp.cities):
            return True
    return False


def railed(placed: Placed, side: int) -> bool:
    """Some rail of the tile leaves it by ``side``."""
    return any(side in c.sides for c in local_components(placed.tile, placed.rotation, placed.bridge))


Cell = tuple[int, int]
Nation = Mapping[Cell, Placed]


def edge_neighbours(cell: Cell) -> Iterator[tuple[int, Cell]]:
    """(side of ``cell`` shared, the neighbour across it) for the four sides."""
    x, y = cell
    for side, (dx, dy) in STEP.items():
        yield side, (x + dx, y + dy)


def touches_nation(nation: Nation, cell: Cell) -> bool:
    """An empty cell touching the nation by an edge or a corner (Aggancio: 'bordo con bordo o angolo con angolo');
    the book sets no other limit (ruling 18)."""
    x, y = cell
    if cell in nation:
        return False
    return any((x + dx, y + dy) in nation for dx, dy in DIRECTIONS)


def placements(cells: Sequence[Cell]) -> dict[Cell, tuple[int, int]]:
    """Every empty cell touching a nation whose k-th tile is on ``cells[k]``, with the (slot, direction) that names
    it: the lowest slot beside it, so that each cell has one name (``place k DIR``)."""
    taken = set(cells)
    out: dict[Cell, tuple[int, int]] = {}
    for k, (x, y) in enumerate(cells):
        for d, (dx, dy) in enumerate(DIRECTIONS):
            cell = (x + dx, y + dy)
            if cell not in taken and cell not in out:
                out[cell] = (k, d)
    return out


def global_components(nation: Nation) -> dict[tuple[Cell, int], tuple[Cell, int]]:
    """Union-find over (cell, local component): the nation's rail networks, joined across shared sides where both
    tiles are railed (ruling 1). Returns each node's root."""
    parent: dict[tuple[Cell, int], tuple[Cell, int]] = {}
    for cell, placed in nation.items():
        for k in range(len(local_components(placed.tile, placed.rotation, placed.bridge))):
            parent[(cell, k)] = (cell, k)

    def find(a: tuple[Cell, int]) -> tuple[Cell, int]:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for cell, placed in nation.items():
        comps = local_components(placed.tile, placed.rotation, placed.bridge)
        for side in (E, S):  # each shared side once
            x, y = cell
            other = (x + STEP[side][0], y + STEP[side][1])
            if other not in nation:
                continue
            q = nation[other]
            theirs = local_components(q.tile, q.rotation, q.bridge)
            for i, a in enumerate(comps):
                if side not in a.sides:
                    continue
                for j, b in enumerate(theirs):
                    if opposite(side) in b.sides:
                        parent[find((cell, i))] = find((other, j))
    return {node: find(node) for node in parent}


def _city_nodes(nation: Nation, roots: dict, cell: Cell, city: int) -> set:
    placed = nation[cell]
    comps = local_components(placed.tile, placed.rotation, placed.bridge)
    return {roots[(cell, k)] for k, c in enumerate(comps) if city in c.cities}


def train_connected(nation: Nation, a: tuple[Cell, int], b: tuple[Cell, int], roots: dict | None = None) -> bool:
    """TRAIN: cities ``a`` and ``b`` ((cell, city)) are joined by rails or bridges passing through no other city,
    across any tiles, institutions included (ruling 23)."""
    roots = global_components(nation) if roots is None else roots
    return a != b and bool(_city_nodes(nation, roots, *a) & _city_nodes(nation, roots, *b))


def institution_bonus(nation: Nation, institution: Cell, land: Cell, city: int) -> bool:
    """BONUS (ruling 2, the local reading): the institution and the city's land tile are edge neighbours, the city
    has a line to their shared side passing through no other city, and the building has a line to the same side."""
    for side, other in edge_neighbours(land):
        if other == institution:
            return reaches(nation[land], city, side) and reaches(nation[institution], -1, opposite(side))
    return False


def recycling_reaches(nation: Nation, centre: Cell, city: int, target: Cell) -> bool:
    """RECYCLE (rulings 3, 4): a cube on ``target`` can be removed by the centre (``city`` of the tile at
    ``centre``) if it is the same tile, or an edge neighbour to which the centre's line reaches the shared side and
    whose rails continue on it ('la linea ferroviaria tra le due non va così lontano'); a corner never suffices."""
    if target == centre:
        return True
    for side, other in edge_neighbours(centre):
        if other == target:
            return reaches(nation[centre], city, side) and railed(nation[target], opposite(side))
    return False
