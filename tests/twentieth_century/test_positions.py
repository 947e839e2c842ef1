"""Saved 20th Century positions (``Game.from_json``): a position is refused, naming the entry, when its decision
cannot be continued from the rest of it, when a tile of any kind is in two places or none, when the cost marker
is off its track, and when a number is beyond what the batched engine holds with room for the rest of a game."""

from __future__ import annotations

import json

import numpy as np
import pytest

from industry_env.games.twentieth_century import engine as E
from industry_env.games.twentieth_century.components import MAX_CITIES, load_data
from industry_env.games.twentieth_century.positions import COUNT_LIMIT, CUBE_LIMIT, INT16_MAX, MAX_TECHS
from industry_env.games.twentieth_century.reference import Game
from industry_env.games.twentieth_century.rules import (
    CONSOLATION_EXTRA,
    EXTRA_CUBE_PENALTY,
    LAST_FULL_ROUND,
    MAX_LAND_OFFER,
    MIN_LAND_PRICE,
    RANK_AWARDS,
    ROUNDS,
)
from industry_env.games.twentieth_century.state import PHASES, GameStateError


def _played(n: int, seed: int, moves: int) -> Game:
    g, rng = Game(n, seed=seed), np.random.default_rng(seed)
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
    return g


def _doc(g: Game) -> dict:
    return json.loads(g.to_json())


def _load(doc: dict) -> Game:
    return Game.from_json(json.dumps(doc))


def _continues(g: Game) -> None:
    """A loaded position plays on: something is legal and every legal action applies."""
    legal = g.legal_actions()
    assert legal
    for a in legal:
        h = g.clone()
        h.apply(a)


# ----------------------------------------------------------------------------------------------- the decision
def test_the_issues_probe_a_phase_that_does_not_fit_is_refused_naming_the_field() -> None:
    g = Game(4, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(40):
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
    doc = _doc(g)
    doc["phase"] = "attach_cell"
    with pytest.raises(GameStateError, match="saved game: (sel|pending|maint_order|auction_slot|phase)"):
        _load(doc)


@pytest.mark.parametrize("n, seed, moves", [(3, 2, 25), (4, 1, 40), (5, 3, 90), (4, 7, 160), (3, 11, 210)])
def test_every_phase_and_seat_written_into_a_position_is_refused_or_plays_on(n, seed, moves) -> None:
    """No phase or seat to move written over a real position loads into a game that cannot go on: it is refused
    with GameStateError, or something is legal and every legal action applies."""
    doc = _doc(_played(n, seed, moves))
    loaded = 0
    for phase in PHASES:
        for seat in [-1] if phase == "over" else range(n):
            bad = dict(doc, phase=phase, to_move=seat)
            try:
                g = _load(bad)
            except GameStateError:
                continue
            loaded += 1
            if not g.is_over:
                _continues(g)
    assert loaded >= 1  # the true phase and seat at least


def test_a_game_read_back_at_every_decision_of_random_games_is_accepted() -> None:
    for n, seed in ((3, 0), (4, 1), (5, 2)):
        g, rng = Game(n, seed=seed, r2="b", r4="c"), np.random.default_rng(seed)
        while not g.is_over:
            assert Game.from_json(g.to_json()).to_json() == g.to_json()
            legal = g.legal_actions()
            g.apply(legal[rng.integers(len(legal))])


def _at_phase(phase: str, n: int = 4, limit: int = 40) -> Game:
    for seed in range(limit):
        g, rng = Game(n, seed=seed), np.random.default_rng(seed)
        while not g.is_over:
            if g.phase == phase:
                return g
            legal = g.legal_actions()
            g.apply(legal[rng.integers(len(legal))])
    raise AssertionError(f"no {phase} decision in {limit} games")


@pytest.mark.parametrize(
    "phase, change, entry",
    [
        ("open", {"coins": 1}, "coins"),  # the leader cannot open: nothing would be legal
        ("bid", {"high_bidder": -1}, "high_bidder"),
        ("bid", {"auction_slot": -1}, "auction_slot"),
        ("lead", {"to_move": "other"}, "to_move"),
        ("tech", {"resume": ""}, "(resume|auction_slot)"),
        ("attach_cell", {"sel": []}, "sel"),
        ("attach_rotate", {"sel": "first"}, "sel"),
        ("citizen", {"sel": []}, "sel"),
        ("use", {"sel": [0, 0]}, "sel"),
        ("garbage", {"pending_cubes": 0}, "pending_cubes"),
        ("recycle", {"maint_order": []}, "maint_order"),
        ("catastrophe", {"withdrawn": 0}, "withdrawn"),
    ],
)
def test_a_decision_missing_what_it_reads_is_refused_naming_the_entry(phase, change, entry) -> None:
    g = _at_phase(phase)
    doc, p = _doc(g), g.to_move
    for k, v in change.items():
        if k == "to_move":
            doc[k] = (p + 1) % g.n
        elif k in ("coins", "pending_cubes"):
            doc[k][p] = v
        elif k == "withdrawn":
            doc[k] = [0] * g.n
        elif v == "first":
            doc[k] = doc[k][:1]
        else:
            doc[k] = v
    with pytest.raises(GameStateError, match=f"saved game: {entry}"):
        _load(doc)


def test_round_vi_has_no_auction_and_a_game_is_over_only_after_it() -> None:
    doc = _doc(_at_phase("lead"))
    with pytest.raises(GameStateError, match="phase"):
        _load(dict(doc, phase="over", to_move=-1))


# ----------------------------------------------------------------------------------------------- the cost track
@pytest.mark.parametrize("cost_pos", [5, 6, -1])
def test_the_cost_marker_off_its_five_spaces_is_refused(cost_pos) -> None:
    g = _played(4, 1, 40)
    assert len(g.data.tech_cost["I-II"]) == 5
    with pytest.raises(GameStateError, match="cost_pos"):
        _load(dict(_doc(g), cost_pos=cost_pos))


# ----------------------------------------------------------------------------------------------- every tile once
def _with_institution() -> tuple[Game, int, int]:
    """A position where a seat has an institution attached: (game, seat, its cell)."""
    L = len(load_data().land)
    for seed in range(60):
        g, rng = Game(4, seed=seed), np.random.default_rng(seed)
        while not g.is_over:
            if g.phase == "lead":
                for p in range(g.n):
                    cells = [c for c, code in enumerate(g.grid_tile[p]) if code >= L]
                    if cells:
                        return g, p, cells[0]
            legal = g.legal_actions()
            g.apply(legal[rng.integers(len(legal))])
    raise AssertionError("no institution attached in 60 games")


def _attach(doc: dict, g: Game, p: int, code: int) -> None:
    """Tile ``code`` into seat ``p``'s next slot, on an empty cell touching the nation (no other check)."""
    slot, cell = g.slots(p), next(iter(g.placement_cells(p)))
    doc["grid_tile"][p][slot] = code
    doc["grid_x"][p][slot], doc["grid_y"][p][slot] = cell


def test_one_institution_on_two_cells_is_refused() -> None:
    g, p, cell = _with_institution()
    doc = _doc(g)
    _attach(doc, g, p, doc["grid_tile"][p][cell])
    with pytest.raises(GameStateError, match="exactly one place"):
        _load(doc)


def test_a_nations_slots_fill_in_order_each_tile_on_its_own_cell_touching_an_earlier_one() -> None:
    g, p, cell = _with_institution()
    last = g.slots(p) - 1
    doc = _doc(g)
    doc["grid_tile"][p][0], doc["grid_tile"][p][last] = doc["grid_tile"][p][last], 0
    with pytest.raises(GameStateError, match=rf"grid_tile\[{p}\].*starting tile \(0\) must be in slot 0"):
        _load(doc)
    for k, v in zip(("grid_tile", "grid_x", "grid_y"), (doc["grid_tile"][p][0], 0, 0), strict=True):
        doc = _doc(g)
        doc[k][p][last + 2] = v if k == "grid_tile" else 1
        entry = "grid_tile" if k == "grid_tile" else "grid_x"
        with pytest.raises(GameStateError, match=rf"{entry}\[{p}\]\[{last + 2}\]"):
            _load(doc)
    doc = _doc(g)
    doc["grid_x"][p][last], doc["grid_y"][p][last] = g.cell_of(p, 0)
    with pytest.raises(GameStateError, match=rf"grid_x\[{p}\]\[{last}\].*holds two tiles"):
        _load(doc)
    doc = _doc(g)
    doc["grid_x"][p][last], doc["grid_y"][p][last] = 40, 40
    with pytest.raises(GameStateError, match=rf"grid_x\[{p}\]\[{last}\].*not joined to the starting tile"):
        _load(doc)
    doc = _doc(g)
    doc["grid_x"][p][last] = 10**6
    with pytest.raises(GameStateError, match=rf"grid_x\[{p}\]\[{last}\]"):
        _load(doc)


def test_an_institution_attached_and_pending_at_once_or_nowhere_is_refused() -> None:
    g, p, cell = _with_institution()
    code = g.grid_tile[p][cell]
    doc = _doc(g)
    doc["pending"][p].append([code, 0, 0])
    with pytest.raises(GameStateError, match="pending"):
        _load(doc)
    doc = _doc(g)
    era = next(e for e, stack in doc["land_stacks"].items() if stack)
    doc["grid_tile"][p][cell] = doc["land_stacks"][era].pop()  # a land tile from a stack in the institution's place
    with pytest.raises(GameStateError, match="neither attached nor pending"):
        _load(doc)


def test_a_technology_that_is_no_institution_on_a_nation_is_refused() -> None:
    g, p, _ = _with_institution()
    d = g.data
    plain = next(t for t in g.techs[p] if not d.technologies[t].institution) if any(
        not d.technologies[t].institution for t in g.techs[p]) else None  # fmt: skip
    doc = _doc(g)
    if plain is None:  # give the seat a plain technology from the stacks
        era = next(e for e, s in doc["tech_stacks"].items() if any(not d.technologies[t].institution for t in s))
        plain = next(t for t in doc["tech_stacks"][era] if not d.technologies[t].institution)
        doc["tech_stacks"][era].remove(plain)
        doc["techs"][p].append(plain)
        doc["used"][p].append([False] * len(d.technologies[plain].abilities))
    _attach(doc, g, p, len(d.land) + plain)
    with pytest.raises(GameStateError, match="no institution"):
        _load(doc)


def test_the_starting_tile_is_never_offered_and_a_land_tile_is_in_one_place() -> None:
    g = _at_phase("lead")
    doc = _doc(g)
    doc["land_offer"][0] = 0
    with pytest.raises(GameStateError, match="starting tile"):
        _load(doc)
    doc = _doc(g)
    _attach(doc, g, 0, doc["land_offer"][0])
    with pytest.raises(GameStateError, match="exactly one place"):
        _load(doc)


# ----------------------------------------------------------------------------------------------- the numbers
@pytest.mark.parametrize(
    "entry, value, named",
    [
        ("coins", 10**9, r"coins\[0\]"),
        ("science", COUNT_LIMIT + 1, r"science\[0\]"),
        ("vp", 10**9, r"vp\[0\]\.production"),
        ("high_bid", 10**9, "high_bid"),
        ("pending_cubes", CUBE_LIMIT + 1, r"pending_cubes\[0\]"),
        ("ledger", -1, r"ledger\[0\]\.coins_out"),
    ],
)
def test_a_number_beyond_what_the_batched_engine_holds_is_refused_naming_entry_and_limit(entry, value, named):
    doc = _doc(_played(4, 1, 40))
    if entry == "vp":
        doc["vp"][0]["production"] = value
    elif entry == "ledger":
        doc["ledger"][0]["coins_out"] = value
    elif entry == "high_bid":
        doc["high_bid"] = value
    else:
        doc[entry][0] = value
    limit = f"{CUBE_LIMIT:,}" if entry == "pending_cubes" else f"{COUNT_LIMIT:,}"
    with pytest.raises(GameStateError, match=f"saved game: {named}: .*{limit}.*16-bit"):
        _load(doc)


def test_victory_points_in_all_beyond_the_limit_are_refused() -> None:
    doc = _doc(_played(4, 1, 40))
    for k in ("production", "quality_of_life", "round_2_card"):
        doc["vp"][0][k] = COUNT_LIMIT // 2
    with pytest.raises(GameStateError, match=r"vp\[0\] \(the sum\)"):
        _load(doc)


def test_from_games_names_a_number_the_state_cannot_hold_instead_of_overflowing() -> None:
    g = _played(4, 1, 40)
    g.coins[2] = 40_000
    with pytest.raises(GameStateError, match=r"game 0: coins\[2\] = 40000 .*int16"):
        E.from_games([g])


def test_a_position_at_every_limit_plays_to_its_end_alike_in_both_engines() -> None:
    """Coins, science, points and cubes at the limits: the batched engine holds them to the game's end and agrees
    with the reference."""
    g = _played(4, 2, 30)
    doc = _doc(g)
    for p in range(4):
        doc["coins"][p] = doc["science"][p] = COUNT_LIMIT
        doc["ledger"][p] = dict.fromkeys(doc["ledger"][p], COUNT_LIMIT)
        doc["vp"][p] = dict.fromkeys(doc["vp"][p], 0) | {"production": COUNT_LIMIT}
        start = doc["grid_tile"][p].index(0)
        others = sum(doc["grid_cubes"][p]) - doc["grid_cubes"][p][start]
        waiting = doc["pending_cubes"][p] + sum(e[2] for e in doc["pending"][p])
        doc["grid_cubes"][p][start] = CUBE_LIMIT - others - waiting
    ref = _load(doc)
    state = E.from_games([ref])
    rng = np.random.default_rng(0)
    while not ref.is_over:
        mask = E.legal_action_mask(state)[0]
        assert np.flatnonzero(mask).tolist() == ref.legal_actions()
        a = int(rng.choice(np.flatnonzero(mask)))
        ref.apply(a)
        state = E.step(state, np.array([a]))
    # compared as documents: a game played on from the limits may pass them, and is then no longer loaded
    assert E.position(state, 0) == json.loads(ref.to_json())
    assert E.scores(state)[0, :4].tolist() == ref.scores()


def test_the_limits_leave_room_for_the_rest_of_a_game() -> None:
    """The most the rest of a game can add to a count, from the components loader's bounds (a city makes at most 9
    of each resource, an institution adds at most 3, an ability costs and gives at most 9, a technology brings at
    most 5 cubes and a catastrophe column 9, a pollution number is within -50..50), keeps every count a saved
    position may hold within int16."""
    city, bonus, qol, tech_cubes, cat_cubes, pollution = 9, 3, 9, 5, 9, 50
    tiles = 1 + MAX_LAND_OFFER * LAST_FULL_ROUND  # the starting tile and at most 8 land tiles a round
    cities = tiles * MAX_CITIES
    # every occupied city its own, and every institution its bonus to the cities of its four neighbours
    per_round = cities * city + MAX_TECHS * 4 * MAX_CITIES * bonus
    consolation = max(MIN_LAND_PRICE.values()) + CONSOLATION_EXTRA
    gained = LAST_FULL_ROUND * (per_round + consolation)  # coins (or science) still to come
    assert COUNT_LIMIT + gained <= INT16_MAX  # holdings and receipts
    assert COUNT_LIMIT + COUNT_LIMIT + gained <= INT16_MAX  # payments: the old ones and all a seat can still pay
    qol_gained = ROUNDS * MAX_TECHS * 2 * qol
    assert COUNT_LIMIT + ROUNDS * per_round + qol_gained <= INT16_MAX  # production, quality of life
    by_round_2 = COUNT_LIMIT + 2 * (per_round + MAX_TECHS * 2 * qol)  # the VP total card II-b doubles
    assert COUNT_LIMIT + by_round_2 <= INT16_MAX
    assert COUNT_LIMIT + max(2 * cities, pollution, pollution * tiles) + per_round <= INT16_MAX  # round IV cards
    won = MAX_LAND_OFFER * (MAX_LAND_OFFER + 1) // 2  # the k-th tile of a round brings k cubes
    cubes = CUBE_LIMIT + LAST_FULL_ROUND * (won + tech_cubes + cat_cubes)
    assert COUNT_LIMIT + EXTRA_CUBE_PENALTY * cubes <= INT16_MAX  # the final scoring of land tiles
    assert COUNT_LIMIT + pollution * tiles + pollution + RANK_AWARDS[0] <= INT16_MAX
    assert cubes <= COUNT_LIMIT  # the ledger's cubes
    d = load_data()  # the shipped components are within the loader's bounds
    assert max(v for t in d.land for c in t.cities for v in c.production) <= city
    assert max((t.tile.bonus for t in d.technologies if t.tile), default=0) <= bonus
