"""What the observation keeps between calls is never stale: after any change of a game (an action and the forced
moves after it, a field written by hand, a clone, a resample, a position read from JSON), every seat observes what
a fresh game read from the same JSON observes with nothing kept."""

from __future__ import annotations

import numpy as np
import pytest

from industry_env.games.twentieth_century import observation
from industry_env.games.twentieth_century.reference import Game

START_SLOT = 0  # the starting tile's slot


def all_seats(g: Game) -> list[np.ndarray]:
    return [g.observe(k) for k in range(g.n)]


def fresh(g: Game, via_json: bool = True) -> list[np.ndarray]:
    """Every seat's observation of ``g``'s position derived with nothing kept, by a game read from its JSON (or, for
    a position written by hand that the JSON check would refuse, by ``g`` itself)."""
    observation.forget()
    return all_seats(Game.from_json(g.to_json(), data=g.data) if via_json else g)


def assert_fresh(g: Game, via_json: bool = True) -> None:
    got = all_seats(g)
    want = fresh(g, via_json)
    for k in range(g.n):
        assert got[k].dtype == np.float32 and got[k].shape == want[k].shape
        assert np.array_equal(got[k], want[k]), f"seat {k} observes a stale position"


def mid_game(n: int, seed: int, decisions: int) -> tuple[Game, np.random.Generator]:
    """A game ``decisions`` random decisions in (nations grown), observed at each, and its random generator."""
    rng = np.random.default_rng(seed)
    g = Game(n, seed=seed)
    for _ in range(decisions):
        assert not g.is_over, "the game ended first: pick fewer decisions"
        all_seats(g)
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
    return g, rng


@pytest.mark.parametrize("n", [3, 5])
def test_every_action_and_its_forced_moves_leave_nothing_stale(n: int) -> None:
    rng = np.random.default_rng(n)
    g = Game(n, seed=40 + n)
    while not g.is_over:
        all_seats(g)  # what is kept of this position
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
        assert_fresh(g)


@pytest.mark.parametrize(
    "write",
    [
        lambda g, p, c: g.grid_citizens[p].__setitem__(c, g.grid_citizens[p][c] ^ 1),
        lambda g, p, c: g.grid_cubes[p].__setitem__(c, g.grid_cubes[p][c] + 1),
        lambda g, p, c: g.grid_new[p].__setitem__(c, not g.grid_new[p][c]),
        lambda g, p, c: g.grid_rot[p].__setitem__(c, (g.grid_rot[p][c] + 1) % 4),
        lambda g, p, c: g.grid_tile[p].__setitem__(c, -1),
        lambda g, p, c: g.grid_x[p].__setitem__(c, g.grid_x[p][c] + 9),  # the tile moved to another cell
        lambda g, p, c: g.coins.__setitem__(p, g.coins[p] + 3),
        lambda g, p, c: g.vp[p].__setitem__("production", g.vp[p]["production"] + 2),
    ],
    ids=["citizens", "cubes", "bought_this_round", "rotation", "tile_removed", "cell", "coins", "points"],
)
def test_a_field_written_by_hand_is_seen(write) -> None:
    g, _ = mid_game(4, 7, 150)
    p = next(q for q in range(g.n) if len(g.land_cells(q)) > 1)
    slot = next(c for c in g.land_cells(p) if c != START_SLOT)
    before = all_seats(g)
    write(g, p, slot)
    after = all_seats(g)
    changed = any(not np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert changed, "the write changed nothing observed"
    assert_fresh(g, via_json=False)


def test_a_bridge_placed_by_hand_is_seen() -> None:
    g, _ = mid_game(5, 11, 180)
    placed = [(p, c) for p in range(g.n) for c, code in enumerate(g.grid_tile[p])
              if code >= 0 and g.data.tile(code).bridges and g.grid_bridge[p][c] < 0]  # fmt: skip
    assert placed, "no tile with a bridge place on any grid: pick another seed"
    p, c = placed[0]
    all_seats(g)
    g.grid_bridge[p][c] = 0
    assert_fresh(g, via_json=False)


def test_a_clone_and_its_source_each_see_their_own_position() -> None:
    g, rng = mid_game(4, 3, 150)
    c = g.clone()
    all_seats(c)
    while c.to_json() == g.to_json():  # moves of the clone only, until its position differs
        legal = c.legal_actions()
        c.apply(legal[rng.integers(len(legal))])
    assert_fresh(c)
    assert_fresh(g)
    legal = g.legal_actions()
    g.apply(legal[rng.integers(len(legal))])  # and the source moves on after its clone
    assert_fresh(g)
    assert_fresh(c)


def test_a_resampled_game_and_a_game_read_from_json_see_their_own_position() -> None:
    g, _ = mid_game(3, 5, 120)
    all_seats(g)
    r = g.resample(1, rng=9)
    assert_fresh(r)
    assert_fresh(g)
    j = Game.from_json(g.to_json())
    all_seats(j)
    j.coins[0] += 5
    assert_fresh(j)
    assert_fresh(g)


def test_an_observation_is_the_callers_to_write() -> None:
    g, _ = mid_game(4, 2, 100)
    for k in range(g.n):
        obs = g.observe(k)
        obs[:] = 7.0  # writable, and nothing kept is written
    assert_fresh(g)


def test_every_seat_sees_the_seat_to_move_first_when_it_is_that_seat() -> None:
    g, _ = mid_game(5, 8, 80)
    sizes = {name: int(np.prod(shape)) for name, shape, _ in observation.layout(g.data)}
    at = sum(sizes[name] for name in ("num_players", "round", "phase"))
    for k in range(g.n):
        to_move = g.observe(k)[at : at + sizes["to_move"]]
        assert to_move[(g.to_move - k) % g.n] == 1 and to_move.sum() == 1
