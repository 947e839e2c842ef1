"""The geometry the rules read (rulings 1-8): rail pieces, rotations, side links, and the three relations TRAIN,
BONUS and RECYCLE on the rulebook's lost pictures, rebuilt from their captions (W8-W21)."""

from __future__ import annotations

from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century.components import City, Tile
from industry_env.games.twentieth_century.geometry import (
    E,
    N,
    Placed,
    W,
    local_components,
    reaches,
    recycling_reaches,
    train_connected,
)
from industry_env.games.twentieth_century.reference import Game

from .helpers import act, land_code, put, tech_index, with_tiles


def tile(cities: list[dict], rails: list[list[str]], bridges: list[tuple[str, str]] = (), building=None) -> Tile:  # type: ignore[assignment]
    return Tile("t", "I-II", tuple(City(**c) for c in cities), tuple(frozenset(r) for r in rails), tuple(bridges),
                building, 1 if building else 0)  # fmt: skip


def test_M6_a_rotation_turns_the_sides_clockwise():
    t = tile([{"name": "a", "coins": 1}], [["a", "N"]])
    assert [reaches(Placed(t, r), 0, (N + r) % 4) for r in range(4)] == [True] * 4
    assert not reaches(Placed(t, 1), 0, N)


def test_ruling_8_a_line_through_a_city_is_two_pieces_not_joined_at_the_city():
    t = tile([{"name": "a", "coins": 1}, {"name": "b", "coins": 1}], [["a", "b"], ["b", "E"]])
    assert reaches(Placed(t), 1, E) and not reaches(Placed(t), 0, E)


def test_ruling_7_an_institutions_building_joins_its_pieces():
    lab = tile([], [["x", "W"], ["x", "E"]], building="laboratory")
    assert len(local_components(lab, 0, -1)) == 1 and reaches(Placed(lab), -1, W) and reaches(Placed(lab), -1, E)


def test_ruling_1_edge_neighbours_join_when_both_are_railed_on_the_shared_side():
    left = tile([{"name": "a", "coins": 1}], [["a", "E"]])
    right = tile([{"name": "a", "coins": 1}], [["a", "W"]])
    short = tile([{"name": "a", "coins": 1}], [["a", "N"]])
    assert train_connected({(0, 0): Placed(left), (1, 0): Placed(right)}, ((0, 0), 0), ((1, 0), 0))
    assert not train_connected({(0, 0): Placed(left), (1, 0): Placed(short)}, ((0, 0), 0), ((1, 0), 0))
    assert not train_connected({(0, 0): Placed(left), (1, 1): Placed(right)}, ((0, 0), 0), ((1, 1), 0))  # corner


def _lab_data():
    return with_tiles(
        land=[
            {"id": "W8AB", "cities": [{"name": "a", "science": 2}, {"name": "b", "science": 2}],
             "rails": [["a", "b", "W"]]},  # one piece forking to A and B before any city
            {"id": "W8C", "cities": [{"name": "a", "science": 2}], "rails": [["a", "S"]]},  # stops short of N
            {"id": "W8D", "cities": [{"name": "a", "coins": 4, "vp": 1}], "rails": [["a", "S"]]},
            {"id": "W9EG", "cities": [{"name": "a", "science": 2}, {"name": "b", "coins": 3}],
             "rails": [["a", "b"], ["b", "W"]]},  # E reaches the lab's side only through G
            {"id": "W9F", "cities": [{"name": "a", "science": 1}], "rails": [["a", "E"]]},
            {"id": "W20", "cities": [{"name": "a", "vp": 1, "science": 1}, {"name": "b", "vp": 1, "science": 1}],
             "rails": [["a", "W"], ["b"]], "bridges": [["b", "r1"]]},  # b's spur: only a bridge joins it
        ],
        technology=[
            {"id": "TLAB8", "name": "Laboratory", "abilities": [{"kind": "laboratory", "bonus": 1}],
             "rails": [["x", "N", "E", "S"]]},
            {"id": "TLAB9", "name": "Laboratory", "abilities": [{"kind": "laboratory", "bonus": 1}],
             "rails": [["x", "E", "W"]]},
            {"id": "THOS", "name": "Hospital", "abilities": [{"kind": "hospital", "bonus": 1}], "rails": [["x", "E"]]},
        ],
    )  # fmt: skip


def _nation_game(data) -> Game:
    g = Game(3, seed=0, data=data)
    g.grid_citizens[0][0] = 0  # the starting tile's cities left free: only the example counts
    return g


def _inst(data, tech_id: str) -> int:
    return len(data.land) + tech_index(data, tech_id)


def test_X4_W8_a_laboratory_boosts_cities_on_a_fork_reaching_its_side():
    data = _lab_data()
    g = _nation_game(data)
    put(g, 0, (-2, -2), _inst(data, "TLAB8"))
    ab = put(g, 0, (-1, -2), land_code(data, "W8AB"), citizens=0b11)
    c = put(g, 0, (-2, -1), land_code(data, "W8C"), citizens=1)
    d = put(g, 0, (-2, -3), land_code(data, "W8D"), citizens=1)
    # 'Questa nazione produce 4 monete, 8 punti scienza e 1 punto vittoria'
    assert g.production(0) == (4, 8, 1)
    assert [g.city_production(0, ab, j)[1] for j in (0, 1)] == [3, 3]  # A and B: 3 each
    assert g.city_production(0, c, 0) == (0, 2, 0)  # C: not joined to the laboratory by rail
    assert g.city_production(0, d, 0) == (4, 0, 1)  # D: joined, but makes no science itself


def test_X4_W9_no_bonus_through_another_city():
    data = _lab_data()
    g = _nation_game(data)
    put(g, 0, (-2, -2), _inst(data, "TLAB9"))
    eg = put(g, 0, (-1, -2), land_code(data, "W9EG"), citizens=0b11)
    f = put(g, 0, (-3, -2), land_code(data, "W9F"), citizens=1)
    # 'Questa nazione produce 3 monete, 4 punti scienza e 0 punti vittoria'
    assert g.production(0) == (3, 4, 0)
    assert g.city_production(0, eg, 0)[1] == 2 and g.city_production(0, f, 0)[1] == 2


def test_X7_W17_W20_a_bridge_lets_the_institution_reach_a_second_city():
    data = _lab_data()
    g = _nation_game(data)
    put(g, 0, (-3, -2), _inst(data, "THOS"))  # the hospital west of the tile, its building reaching E
    cell = put(g, 0, (-2, -2), land_code(data, "W20"), citizens=0b11)
    assert g.production(0)[2] == 2 + 1  # 'Senza il ponte, l'ospedale avvantaggia soltanto una città.'
    g.grid_bridge[0][cell] = 0
    assert g.production(0)[2] == 2 + 2


def _recycling_nation(centre_rails, cube_rails, where=(1, 0), centre_bridges=()):  # noqa: ANN001, ANN202
    centre = tile([{"name": "a", "recycling": True}, {"name": "b", "coins": 1}], centre_rails, centre_bridges)
    cube = tile([{"name": "a", "coins": 1}], cube_rails)
    return {(0, 0): Placed(centre), where: Placed(cube)}


def test_Q2_Q3_W10_W15_the_six_recycling_pictures():
    same = _recycling_nation([["a", "N"]], [["a", "N"]])
    assert recycling_reaches(same, (0, 0), 0, (0, 0))  # (a) the cube on the centre's own tile
    joined = _recycling_nation([["a", "E"]], [["a", "W"]])
    assert recycling_reaches(joined, (0, 0), 0, (1, 0))  # (c) adjacent, a direct line between the two tiles
    other_piece = _recycling_nation([["a", "N"], ["b", "E"]], [["a", "W"]])
    assert not recycling_reaches(other_piece, (0, 0), 0, (1, 0))  # (d) joined, but not to the centre
    short = _recycling_nation([["a", "E"]], [["a", "N"]])
    assert not recycling_reaches(short, (0, 0), 0, (1, 0))  # (e) 'la linea ferroviaria tra le due non va così lontano'
    corner = _recycling_nation([["a", "E", "S"]], [["a", "W", "N"]], where=(1, 1))
    assert not recycling_reaches(corner, (0, 0), 0, (1, 1))  # (f) 'toccano in un angolo ... non è sufficiente'


def test_Q2_W11_a_centre_without_a_citizen_removes_nothing():
    g = Game(3, seed=0)
    assert g.working_centres(0) == []  # the start tile's centre c is free
    g.grid_citizens[0][0] |= 0b100
    assert g.working_centres(0) == [(0, 2)]


def test_X7_W16_a_bridge_lets_a_centre_reach_the_neighbours_cube():
    nation = _recycling_nation([["a", "N"], ["E", "S"]], [["a", "W"]], centre_bridges=[("a", "r2")])
    assert not recycling_reaches(nation, (0, 0), 0, (1, 0))
    nation[(0, 0)] = Placed(nation[(0, 0)].tile, 0, 0)
    assert recycling_reaches(nation, (0, 0), 0, (1, 0))  # 'elimini il cubo rifiuti sulle tessere ... di sinistra'


def test_X7_W19_two_bridges_in_one_maintenance_then_a_train():
    left = tile([{"name": "a", "coins": 1}], [["a"], ["E", "N"]], [("a", "r2")])
    right = tile([{"name": "a", "coins": 1}], [["a"], ["W", "S"]], [("a", "r2")])
    nation = {(0, 0): Placed(left), (1, 0): Placed(right)}
    assert not train_connected(nation, ((0, 0), 0), ((1, 0), 0))
    nation[(0, 0)] = Placed(left, 0, 0)
    assert not train_connected(nation, ((0, 0), 0), ((1, 0), 0))
    nation[(1, 0)] = Placed(right, 0, 0)
    assert train_connected(nation, ((0, 0), 0), ((1, 0), 0))


def test_X11_W21_a_train_never_passes_through_a_city_but_two_trains_move_in_sequence():
    abc = [{"name": n, "coins": 1} for n in "abc"]
    data = with_tiles(land=[{"id": "W21", "cities": abc, "rails": [["a", "b"], ["b", "c", "N"]]}])
    g = Game(3, seed=0, data=data)
    xy = (0, -1)
    cell = put(g, 0, xy, land_code(data, "W21"), citizens=0b011)  # A and B occupied, C free
    nation = g.nation(0)
    assert not train_connected(nation, (xy, 0), (xy, 2))  # A to C passes through B
    for _ in range(2):
        g.techs[0].append(tech_index(data, "T08"))
        g.used[0].append([False])
    g.phase, g.to_move, g.maint_order, g.maint_pos = "use", 0, [0, 1, 2], 0
    act(g, "use 0.0")
    froms = g.legal_actions()
    assert A.city_action(cell, 0) not in froms and A.city_action(cell, 1) in froms  # A cannot go anywhere
    act(g, f"city {xy[0]},{xy[1]} b")  # B to C, the only free city it reaches (chosen by itself)
    assert g.grid_citizens[0][cell] == 0b101
    act(g, "use 1.0", f"city {xy[0]},{xy[1]} a")  # then A to B, the only move from A
    assert g.grid_citizens[0][cell] == 0b110
