"""core.matching.assign_distinct: distinct choices for several claimants, checked against every assignment."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from industry_env.core.matching import assign_distinct


def _most_served(candidates: list[list[int]]) -> int:
    """The most claimants that distinct choices can serve, by trying every subset and order (small cases only)."""
    best = 0
    for picks in itertools.product(*[[*cands, None] for cands in candidates]):
        taken = [p for p in picks if p is not None]
        if len(taken) == len(set(taken)):
            best = max(best, len(taken))
    return best


def test_a_claimant_is_served_by_moving_an_earlier_one_to_its_other_choice() -> None:
    assert assign_distinct([[1, 2], [1]]) == [2, 1]  # the first moves from 1 to 2 so that the second gets 1


def test_a_claimant_left_without_a_choice_is_minus_one_and_the_others_keep_theirs() -> None:
    assert assign_distinct([[5], [5], [6]]) == [5, -1, 6]
    assert assign_distinct([[], [3]]) == [-1, 3]
    assert assign_distinct([]) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), max_size=3, unique=True), max_size=5))
def test_it_serves_as_many_claimants_as_any_assignment_each_with_a_choice_of_its_own(candidates) -> None:
    out = assign_distinct(candidates)
    served = [c for c in out if c != -1]
    assert len(served) == len(set(served))  # distinct
    assert all(c == -1 or c in cands for c, cands in zip(out, candidates, strict=True))
    assert len(served) == _most_served(candidates)
