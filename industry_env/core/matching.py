"""Distinct choices for several claimants (Kuhn's augmenting paths): a rule that gives each of several things its own
partner (20th Century's recycling centres, each cleaning one garbage cube it reaches), or a reader that names each
tile it sees by a code of its own, asks whether every claimant can be served at once."""

from __future__ import annotations

from collections.abc import Sequence


def assign_distinct(candidates: Sequence[Sequence[int]]) -> list[int]:
    """For each claimant ``i`` a choice from ``candidates[i]`` that no other claimant holds, as many claimants served
    as can be (a maximum matching); -1 for each claimant left without one (the first -1 is the first claimant that
    could not be served beside the earlier ones)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for c in candidates[i]:
            if c in seen:
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = i
                return True
        return False

    for i in range(len(candidates)):
        augment(i, set())
    out = [-1] * len(candidates)
    for c, i in owner.items():
        out[i] = c
    return out
