"""Fase 4 of 20th Century (Manutenzione, ed uso della tecnologia): new tiles attached, citizens and cubes
placed, technologies used.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .components import MULTI_USE
from .geometry import DIRECTIONS, global_components, placements, train_connected


class Maintenance:
    """Maintenance and the technologies' abilities: a part of :class:`.reference.Game`, which mixes it in."""

    # ------------------------------------------------------------------------------------------- phase 4
    def start_maintenance(self) -> None:
        """In sequence from the leftmost column's player clockwise (ruling 21)."""
        first = self.next_leader
        self.maint_order = [(first + k) % self.n for k in range(self.n)]
        self.maint_pos = 0
        self.begin_maintenance(self.maint_order[0])

    def begin_maintenance(self, p: int) -> None:
        """Player ``p``'s maintenance begins: the multiple-use abilities of its technologies are fresh again."""
        for h, t in enumerate(self.techs[p]):  # multiple-use: 'una volta durante ogni fase manutenzione'
            for k, ab in enumerate(self.data.technologies[t].abilities):
                if ab.kind in MULTI_USE:
                    self.used[p][h][k] = False
        self.to_move = p
        self._next_maintenance_step(p)

    def _next_maintenance_step(self, p: int) -> None:
        """Attach tiles (with their citizens), then place the new cubes, then use technologies (ruling 16)."""
        self.sel = []
        if self.pending[p]:
            self.phase = "attach_pick"
        elif self.pending_cubes[p]:
            self.phase = "garbage"
        else:
            self.phase = "use"

    def placement_cells(self, p: int) -> dict[tuple[int, int], int]:
        """Empty cells touching seat ``p``'s nation by an edge or a corner ('bordo con bordo o angolo con angolo'),
        anywhere (ruling 18), each with its placement: slot x 8 + direction of the lowest slot beside it."""
        cells = [self.cell_of(p, k) for k in range(self.slots(p))]
        return {cell: k * A.NUM_DIRECTIONS + d for cell, (k, d) in placements(cells).items()}

    def placed_cell(self, p: int, placement: int) -> tuple[int, int]:
        """The cell a placement (slot x 8 + direction) names."""
        slot, d = divmod(placement, A.NUM_DIRECTIONS)
        x, y = self.cell_of(p, slot)
        return x + DIRECTIONS[d][0], y + DIRECTIONS[d][1]

    def attach_tile(self, p: int, placement: int, rotation: int) -> None:
        """Aggancio: the tile goes on an empty cell touching the nation by an edge or a corner, in any rotation, in
        the nation's next slot; a land tile keeps its purchase cubes ('devono rimanere su quelle tessere')."""
        code = self.sel[0]
        entry = next(e for e in self.pending[p] if e[0] == code)
        self.pending[p].remove(entry)
        cell = self.slots(p)
        self.grid_x[p][cell], self.grid_y[p][cell] = self.placed_cell(p, placement)
        self.grid_tile[p][cell], self.grid_rot[p][cell] = code, rotation
        self.grid_bridge[p][cell], self.grid_cubes[p][cell] = -1, entry[2]
        self.grid_new[p][cell] = self.data.is_land(code)
        if self.data.is_land(code):
            self.sel = [code, cell]
            self.phase = "citizen"  # 'Ogni territorio porta un gettone cittadino'
        else:
            self._next_maintenance_step(p)

    def place_citizen(self, p: int, cell: int, city: int) -> None:
        """'Il suo nuovo cittadino può lavorare solo in uno di esse' (a city of the tile it came with)."""
        self.grid_citizens[p][cell] |= 1 << city
        self._next_maintenance_step(p)

    def garbage_targets(self, p: int) -> list[int]:
        """'I rifiuti accumulati in questo turno dovrebbe essere disposti sulle tessere territori acquistate in questo
        turno ... Se non ha acquistato nuove tessere territorio ... sui territori che sono già parte della sua
        nazione' (ruling 15)."""
        new = [c for c in self.land_cells(p) if self.grid_new[p][c]]
        return new or self.land_cells(p)

    def place_garbage(self, p: int, cell: int) -> None:
        self.grid_cubes[p][cell] += 1
        self.pending_cubes[p] -= 1
        self._next_maintenance_step(p)

    def end_maintenance(self, p: int) -> None:
        self.maint_pos += 1
        if self.maint_pos < self.n:
            self.begin_maintenance(self.maint_order[self.maint_pos])
        else:
            self.produce()

    # ------------------------------------------------------------------------------------------- technologies
    def ability(self, p: int, h: int, k: int) -> Any:
        """Ability ``k`` of seat ``p``'s ``h``-th technology (in the order bought)."""
        return self.data.technologies[self.techs[p][h]].abilities[k]

    def _train_moves(self, p: int) -> list[tuple[int, int, int, int]]:
        nation = self.nation(p)
        roots = global_components(nation)
        free = self.cities(p, occupied=False)
        out = []
        for c, j in self.cities(p, occupied=True):
            for c2, j2 in free:
                if train_connected(nation, (self.cell_of(p, c), j), (self.cell_of(p, c2), j2), roots):
                    out.append((c, j, c2, j2))
        return out

    def _bridge_cells(self, p: int) -> list[int]:
        """Tiles where a bridge still fits: at most one a tile (ruling 6)."""
        return [c for c, code in enumerate(self.grid_tile[p])
                if code >= 0 and self.grid_bridge[p][c] < 0 and self.data.tile(code).bridges]  # fmt: skip

    def usable(self, p: int, h: int, k: int) -> bool:
        """An ability not yet used (this maintenance, or ever for a single-use one), with something to act on and
        its cost affordable (ruling 25)."""
        if self.used[p][h][k]:
            return False
        ab = self.ability(p, h, k)
        lands = self.land_cells(p)
        dirty = [c for c in lands if self.grid_cubes[p][c]]
        match ab.kind:
            case "workers":
                return bool(self.cities(p, occupied=False))
            case "bridge":
                return bool(self._bridge_cells(p))
            case "train":
                return bool(self._train_moves(p))
            case "garbage_truck":
                return bool(dirty) and len(lands) >= 2
            case "separated_collection":
                return bool(dirty)
            case "recycling":
                return bool(dirty) and self.coins[p] >= ab.cost
            case "cleanup":
                return self.coins[p] >= ab.cost and self.pollution[p] < self.data.pollution_high
            case "quality_of_life":
                return self.coins[p] >= ab.cost
        return False  # institutions and the park have no ability to use

    def _pay_coins(self, p: int, amount: int) -> None:
        self.coins[p] -= amount
        self.ledger[p]["coins_out"] += amount

    def remove_cube(self, p: int, cell: int) -> None:
        """A garbage cube off seat ``p``'s tile in slot ``cell`` back to the supply (Separated collection,
        Recycling, the recycling centres), kept in the ledger."""
        self.grid_cubes[p][cell] -= 1
        self.ledger[p]["cubes_out"] += 1

    def use_ability(self, p: int, h: int, k: int) -> None:
        """Uso delle tecnologie: Cleanup and Quality of life act at once; the others ask for their targets."""
        ab = self.ability(p, h, k)
        if ab.kind == "cleanup":  # 'spostare il tuo indicatore di inquinamento uno spazio a destra'
            self._pay_coins(p, ab.cost)
            self.move_pollution(p, 1)
            self.used[p][h][k] = True
        elif ab.kind == "quality_of_life":  # 'pagare il costo indicato per il numero di punti vittoria indicato'
            self._pay_coins(p, ab.cost)
            self.vp[p]["quality_of_life"] += ab.vp
            self.used[p][h][k] = True
        else:
            self.sel = [h, k]
            self.phase = "use_target"

    def _finish_use(self, p: int) -> None:
        h, k = self.sel[:2]
        self.used[p][h][k] = True
        self.sel = []
        self.phase = "use"

    def use_target(self, p: int, target: int) -> None:
        """The first target of the ability in use (a city for Workers and Train, a cell for the others)."""
        h, k = self.sel[:2]
        kind = self.ability(p, h, k).kind
        if kind == "workers":  # 'puoi mettere questo gettone cittadino in una qualsiasi città libera'
            cell, city = divmod(target, 3)
            self.grid_citizens[p][cell] |= 1 << city
            self._finish_use(p)
        elif kind in ("separated_collection", "recycling"):  # 'rimuovere 1 cubo rifiuti da qualsiasi tessera'
            if kind == "recycling":
                self._pay_coins(p, self.ability(p, h, k).cost)
            self.remove_cube(p, target)
            self._finish_use(p)
        else:  # bridge: the tile; train: the city left; garbage truck: the tile the cube leaves
            self.sel = [h, k, target]
            self.phase = "bridge" if kind == "bridge" else "use_target2"

    def use_target2(self, p: int, target: int) -> None:
        h, k, first = self.sel
        if self.ability(p, h, k).kind == "train":  # 'spostare un gettone cittadino in una città libera'
            cell, city = divmod(first, 3)
            self.grid_citizens[p][cell] &= ~(1 << city)
            cell2, city2 = divmod(target, 3)
            self.grid_citizens[p][cell2] |= 1 << city2
        else:  # garbage truck: 'spostare 1 cubo rifiuti da qualunque tessera territorio verso qualunque altra'
            self.grid_cubes[p][first] -= 1
            self.grid_cubes[p][target] += 1
        self._finish_use(p)

    def place_bridge(self, p: int, placement: int) -> None:
        """'Una volta che il ponte è messo, diventa una parte permanente del territorio'."""
        self.grid_bridge[p][self.sel[2]] = placement
        self._finish_use(p)

    def first_targets(self, p: int) -> list[int]:
        """The actions naming the first target of the ability in use (``sel``)."""
        h, k = self.sel[:2]
        kind = self.ability(p, h, k).kind
        lands = self.land_cells(p)
        if kind == "workers":
            return [A.CITY + c * 3 + j for c, j in self.cities(p, occupied=False)]
        if kind == "bridge":
            return [A.TILE + c for c in self._bridge_cells(p)]
        if kind == "train":
            return sorted({A.CITY + c * 3 + j for c, j, _, _ in self._train_moves(p)})
        return [A.TILE + c for c in lands if self.grid_cubes[p][c]]  # truck, collection, recycling

    def second_targets(self, p: int) -> list[int]:
        """The actions naming the second target of the ability in use: the free city a Train's citizen moves to,
        or the other land tile a Garbage truck's cube goes to."""
        h, k, first = self.sel
        if self.ability(p, h, k).kind == "train":
            return [A.CITY + c2 * 3 + j2 for c, j, c2, j2 in self._train_moves(p) if c * 3 + j == first]
        return [A.TILE + c for c in self.land_cells(p) if c != first]
