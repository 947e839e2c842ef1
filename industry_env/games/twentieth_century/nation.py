"""A player's nation in 20th Century: its tiles, cities and production markers, and its pollution track.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from .components import INSTITUTIONS
from .geometry import Placed, institution_bonus


class Nation:
    """The nation and the player's board: a part of :class:`.reference.Game`, which mixes it in."""

    # ------------------------------------------------------------------------------------------- the nation
    def nation(self, p: int) -> dict[tuple[int, int], Placed]:
        """Seat ``p``'s placed tiles by cell."""
        out = {}
        for c, code in enumerate(self.grid_tile[p]):
            if code >= 0:
                out[self.cell_of(p, c)] = Placed(self.data.tile(code), self.grid_rot[p][c], self.grid_bridge[p][c])
        return out

    def cell_of(self, p: int, slot: int) -> tuple[int, int]:
        """The cell (x east, y south of the starting tile) of seat ``p``'s tile in ``slot``."""
        return self.grid_x[p][slot], self.grid_y[p][slot]

    def slots(self, p: int) -> int:
        """How many tiles seat ``p``'s nation holds (slots 0 to this - 1)."""
        return sum(code >= 0 for code in self.grid_tile[p])

    def slot_at(self, p: int, cell: tuple[int, int]) -> int:
        """The slot of seat ``p``'s tile on ``cell``, -1 if it is empty."""
        return next((k for k in range(self.slots(p)) if self.cell_of(p, k) == tuple(cell)), -1)

    def land_cells(self, p: int) -> list[int]:
        """The slots of seat ``p``'s land tiles (not its institutions), ascending."""
        return [c for c, code in enumerate(self.grid_tile[p]) if code >= 0 and self.data.is_land(code)]

    def total_cubes(self, p: int) -> int:
        """The garbage cubes on seat ``p``'s nation (fewer breaks a tie)."""
        return sum(self.grid_cubes[p])

    def cities(self, p: int, occupied: bool | None = None) -> list[tuple[int, int]]:
        """(cell, city) of every city of the nation (only occupied or only free ones if asked)."""
        out = []
        for c in self.land_cells(p):
            for j in range(len(self.data.tile(self.grid_tile[p][c]).cities)):
                busy = bool(self.grid_citizens[p][c] >> j & 1)
                if occupied is None or busy == occupied:
                    out.append((c, j))
        return out

    def city_production(self, p: int, cell: int, city: int, nation: dict | None = None) -> tuple[int, int, int]:
        """What a city makes: nothing if free ('Le città libere non producono niente'); else its icons plus each
        adjacent institution's bonus on a resource it makes itself (BONUS; ruling 5)."""
        if not self.grid_citizens[p][cell] >> city & 1:
            return (0, 0, 0)
        nation = self.nation(p) if nation is None else nation
        base = list(self.data.tile(self.grid_tile[p][cell]).cities[city].production)
        out = list(base)
        xy = self.cell_of(p, cell)
        for q in range(len(self.grid_tile[p])):
            code = self.grid_tile[p][q]
            if code < 0 or self.data.is_land(code):
                continue
            tile = self.data.tile(code)
            r = INSTITUTIONS[tile.building]
            # 'Una città non ottiene un premio produzione per qualcosa che non può produrre da se.'
            if base[r] > 0 and institution_bonus(nation, self.cell_of(p, q), xy, city):
                out[r] += tile.bonus
        return (out[0], out[1], out[2])

    def production(self, p: int) -> tuple[int, int, int]:
        """The production markers: coins, science and VP of every occupied city (Aggiornamento degli indicatori)."""
        nation = self.nation(p)
        total = [0, 0, 0]
        for c, j in self.cities(p, occupied=True):
            for r, v in enumerate(self.city_production(p, c, j, nation)):
                total[r] += v
        return (total[0], total[1], total[2])

    def working_centres(self, p: int) -> list[tuple[int, int]]:
        """Occupied recycling cities ('Soltanto i centri riciclaggio delle città occupate sono in funzione')."""
        return [(c, j) for c, j in self.cities(p, occupied=True)
                if self.data.tile(self.grid_tile[p][c]).cities[j].recycling]  # fmt: skip

    def clean_land_tiles(self, p: int) -> int:
        """Seat ``p``'s land tiles without a garbage cube."""
        return sum(self.grid_cubes[p][c] == 0 for c in self.land_cells(p))

    # ------------------------------------------------------------------------------------------- pollution
    def move_pollution(self, p: int, steps: int) -> None:
        """Negative steps left (worse), positive right (better), stopping at the ends (ruling 34)."""
        self.pollution[p] = max(self.data.pollution_low, min(self.data.pollution_high, self.pollution[p] + steps))
