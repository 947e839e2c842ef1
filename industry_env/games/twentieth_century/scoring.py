"""Fase 6 of 20th Century (Punteggio bonus): the round-II and round-IV cards, and the final scoring.

Part of :class:`.reference.Game` (see its module for the rulebook cited and the rulings).
"""

from __future__ import annotations

from .rules import R2_CARD_C_CLEAN_TILE, R4_CARD_A_PER_CENTRE, ROUNDS, extra_cube_penalty, rank_awards


class Scoring:
    """The bonus and final scoring: a part of :class:`.reference.Game`, which mixes it in."""

    # ------------------------------------------------------------------------------------------- phase 6
    def bonus_scoring(self) -> None:
        """Fase 6: the round-II or round-IV card drawn at set-up (none in the first-game variant), or the final
        scoring after round VI."""
        for p in range(self.n):
            coins, science, vp = self.production_now[p]
            if self.round == 2 and self.r2 >= 0:
                self.vp[p]["round_2_card"] += [
                    coins + science,  # a: 'un punti vittoria per ogni moneta e ogni punto scienza ... prodotto'
                    sum(self.vp[p].values()),  # b: 'in modo da raddoppiare il numero di punti vittoria'
                    R2_CARD_C_CLEAN_TILE * self.clean_land_tiles(p),  # c: '6 punti ... senza cubi rifiuti'
                ][self.r2]
            elif self.round == 4 and self.r4 >= 0:
                pol = self.data.pollution_final[self.pollution[p] - self.data.pollution_low]
                clean = self.data.clean_tile[self.pollution[p] - self.data.pollution_low]
                self.vp[p]["round_4_card"] += [
                    R4_CARD_A_PER_CENTRE * len(self.working_centres(p)) + coins,  # a (ruling 29)
                    max(0, pol) + vp,  # b: 'In caso contrario, ottieni zero punti' (ruling 30)
                    clean * self.clean_land_tiles(p) - self.total_cubes(p) + science,  # c
                ][self.r4]
        if self.round == ROUNDS:
            self.final_scoring()

    def final_scoring(self) -> None:
        """Punteggio bonus del sesto round: land tiles by their cubes, the pollution track, coins and science."""
        for p in range(self.n):
            i = self.pollution[p] - self.data.pollution_low
            tiles = 0
            for c in self.land_cells(p):
                cubes = self.grid_cubes[p][c]
                tiles += self.data.clean_tile[i] if cubes == 0 else extra_cube_penalty(cubes)
            self.vp[p]["land_tiles"] += tiles
            self.vp[p]["pollution"] += self.data.pollution_final[i]
        for source, holdings in (("coins", self.coins), ("science", self.science)):
            for p, award in enumerate(rank_bonus(holdings, self.n)):
                self.vp[p][source] += award


def rank_bonus(holdings: list[int], n: int) -> list[int]:
    """Coins or science ranking: awards by place, tied players sharing the sum of their places' awards rounded
    down ('sommare i punti in questione e dividerli per il numero dei giocatori pari, arrotondando per difetto'); a
    player needs at least 1 to score (ruling 31)."""
    awards = rank_awards(n)
    order = sorted(range(n), key=lambda p: -holdings[p])
    out = [0] * n
    place = 0
    while place < n:
        tied = [p for p in order if holdings[p] == holdings[order[place]]]
        share = sum(awards[place : place + len(tied)]) // len(tied)
        for p in tied:
            out[p] = share if holdings[p] >= 1 else 0
        place += len(tied)
    return out
