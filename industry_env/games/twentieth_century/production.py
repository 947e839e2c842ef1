"""Fase 5 of 20th Century (Produzione, e riciclaggio): the markers' coins, science and VP, then recycling.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from ...core.matching import assign_distinct
from .geometry import recycling_reaches
from .rules import BONUS_ROUNDS, LAST_FULL_ROUND, ROUNDS


class Production:
    """Production and recycling: a part of :class:`.reference.Game`, which mixes it in."""

    # ------------------------------------------------------------------------------------------- phase 5
    def produce(self) -> None:
        """Fase 5: every nation produces its markers' coins, science and VP (round VI: VP only), then each player in
        maintenance order may use his working recycling centres."""
        for p in range(self.n):
            prod = self.production(p)
            self.production_now[p] = prod
            if (
                self.round <= LAST_FULL_ROUND
            ):  # 'Nel sesto round, i giocatori non ottengono nuove monete o punti scienza'
                self.coins[p] += prod[0]
                self.science[p] += prod[1]
                self.ledger[p]["coins_in"] += prod[0]
                self.ledger[p]["science_in"] += prod[1]
            self.vp[p]["production"] += prod[2]
        self.maint_pos = 0
        self._begin_recycling(self.maint_order[0])

    def _begin_recycling(self, p: int) -> None:
        self.removed = []
        self.phase, self.to_move = "recycle", p

    def recycling_targets(self, p: int) -> list[int]:
        """Cells a cube can still be removed from: the removals so far plus this one can each be given a distinct
        working centre that reaches them (RECYCLE; ruling 28)."""
        centres = self.working_centres(p)
        if len(self.removed) >= len(centres):
            return []
        nation = self.nation(p)
        reach = {}
        for c in self.land_cells(p):
            reach[c] = [i for i, (rc, j) in enumerate(centres)
                        if recycling_reaches(nation, self.cell_of(p, rc), j, self.cell_of(p, c))]  # fmt: skip
        return [c for c in self.land_cells(p) if self.grid_cubes[p][c] and _matchable([*self.removed, c], reach)]

    def removals_matchable(self, p: int) -> bool:
        """The cubes recycled so far in this production (``removed``) are on land tiles and can each be given a
        distinct working centre that reaches them (ruling 28)."""
        lands = self.land_cells(p)
        if any(c not in lands for c in self.removed):
            return False
        centres = self.working_centres(p)
        nation = self.nation(p)
        reach = {}
        for c in set(self.removed):
            reach[c] = [i for i, (rc, j) in enumerate(centres)
                        if recycling_reaches(nation, self.cell_of(p, rc), j, self.cell_of(p, c))]  # fmt: skip
        return _matchable(list(self.removed), reach)

    def recycle(self, p: int, cell: int) -> None:
        self.remove_cube(p, cell)
        self.removed.append(cell)

    def end_recycling(self) -> None:
        self.maint_pos += 1
        if self.maint_pos < self.n:
            self._begin_recycling(self.maint_order[self.maint_pos])
            return
        self.removed = []
        if self.round in BONUS_ROUNDS:
            self.bonus_scoring()
        if self.round == ROUNDS:
            self.phase, self.to_move = "over", -1
        else:
            self.start_round(self.round + 1)


def _matchable(cubes: list[int], reach: dict[int, list[int]]) -> bool:
    """Can each cube (a cell, repeated for several) get a distinct centre that reaches it?"""
    return -1 not in assign_distinct([reach[c] for c in cubes])
