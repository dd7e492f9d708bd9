"""M-10 line of sight on a map (terrain ends ignored, edges never block)."""

from engine.core.hexgrid import Labels
from engine.minis.line_of_sight import line_of_sight
from engine.minis.model import BattleMap, Terrain

L = Labels()


def _map(**terrain: Terrain) -> BattleMap:
    return BattleMap("test", 12, 10, {L.parse(k): v for k, v in terrain.items()})


def test_m10_1_forest_between_blocks_and_end_hexes_are_ignored() -> None:
    m = _map(C3=Terrain.FOREST, A3=Terrain.TOWN, E3=Terrain.HILL)
    sight = line_of_sight(m, L.parse("A3"), L.parse("E3"))
    assert not sight.clear and sight.blocked_by == (L.parse("C3"),)
    assert sight.distance == 4


def test_m10_4_marsh_and_lake_do_not_block() -> None:
    m = _map(C3=Terrain.MARSH, D3=Terrain.LAKE)
    assert line_of_sight(m, L.parse("A3"), L.parse("E3")).clear


def test_m10_2_line_along_a_hexside_between_two_forests_is_clear() -> None:
    a = L.parse("C4")
    b = a.neighbour(0).neighbour(5)  # two steps, straight along the side between them
    m = BattleMap("t", 12, 10, {a.neighbour(0): Terrain.FOREST, a.neighbour(5): Terrain.FOREST})
    assert line_of_sight(m, a, b).clear
    assert line_of_sight(m, b, a).clear
