"""Small builders for render tests: ASCII maps, cards and states from the documented
engine types (model.py / state.py only)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from engine.core.hexgrid import Hex, Labels
from engine.minis.model import ALLIES, AXIS, BattleMap, Terrain, UnitCard, UnitType, edge
from engine.minis.state import Hit, MinisState, Phase, UnitState

L = Labels()
LETTERS = {".": Terrain.CLEAR, "F": Terrain.FOREST, "H": Terrain.HILL, "T": Terrain.TOWN,
           "M": Terrain.MARSH, "L": Terrain.LAKE}


def hx(label: str) -> Hex:
    return L.parse(label)


def ascii_map(rows: Iterable[str], *, name: str = "test", roads: Iterable[str] = (),
              streams: Iterable[str] = (), bridges: Iterable[str] = (), objectives: Iterable[str] = (),
              zones: Mapping[str, Iterable[str]] | None = None) -> BattleMap:
    grid = [r.replace(" ", "") for r in rows]
    terrain = {}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if LETTERS[ch] is not Terrain.CLEAR:
                terrain[L.from_offset(c, r)] = LETTERS[ch]
    road_links = set()
    for chain in roads:
        hexes = [hx(t) for t in chain.split()]
        road_links.update(edge(a, b) for a, b in zip(hexes, hexes[1:]))

    def sides(items: Iterable[str]) -> frozenset[tuple[Hex, Hex]]:
        return frozenset(edge(*(hx(t) for t in it.split("-"))) for it in items)  # type: ignore[arg-type]

    return BattleMap(name, len(grid[0]), len(grid), terrain, frozenset(road_links), sides(streams),
                     sides(bridges), tuple(hx(o) for o in objectives),
                     {k: frozenset(hx(t) for t in v) for k, v in (zones or {}).items()})


def make_card(key: str, *, side: str = AXIS, vehicle: bool = False, subtype: str | None = None,
              nation: str | None = None, short: str = "") -> UnitCard:
    return UnitCard(
        key=key, name=key.replace("-", " ").title(), nation=nation or ("Germany" if side == AXIS else "USA"),
        side=side, type=UnitType.VEHICLE if vehicle else UnitType.SOLDIER, subtype=subtype, year=1942, cost=10,
        speed=3 if vehicle else 1, defense_front=5 if vehicle else 4, defense_rear=3 if vehicle else 4,
        vs_soldier=(8, 6, None), vs_vehicle=(12, 10, 8) if vehicle else (2, None, None), short_name=short)


CARDS = {c.key: c for c in (
    make_card("rifle-ax", side=AXIS, short="Kar 98k"),
    make_card("mg-ax", side=AXIS, short="MG 42"),
    make_card("tank-ax", side=AXIS, vehicle=True, subtype="Tank", short="Panzer IV"),
    make_card("halftrack-ax", side=AXIS, vehicle=True, subtype="Half-Track", short="SdKfz 251"),
    make_card("gun-ax", side=AXIS, subtype="Artillery", short="PAK 38"),
    make_card("officer-ax", side=AXIS, subtype="Commander", short="Hstuf"),
    make_card("rifle-it", side=AXIS, nation="Italy", short="Fucile"),
    make_card("rifle-al", side=ALLIES, short="M1 Garand"),
    make_card("bazooka-al", side=ALLIES, short="Bazooka"),
    make_card("tank-al", side=ALLIES, vehicle=True, subtype="Tank", short="Sherman"),
    make_card("tank-uk", side=ALLIES, vehicle=True, subtype="Tank", nation="UK", short="Stuart"),
    make_card("rifle-su", side=ALLIES, nation="USSR", short="Mosin"),
)}


def unit(uid: str, card: str, where: str | None, *, facing: int | None = None, disrupted: bool = False,
         damaged: bool = False, hits: Iterable[Hit] = (), carried_by: str | None = None,
         destroyed: bool = False) -> UnitState:
    return UnitState(uid, card, CARDS[card].side, hx(where) if where else None, facing, disrupted, damaged,
                     tuple(hits), carried_by, destroyed)


def make_state(m: BattleMap, units: Iterable[UnitState], *, phase: Phase = Phase.ASSAULT, turn: int = 3,
               active: str | None = AXIS, scenario: str = "standard") -> MinisState:
    return MinisState(map=m, cards=CARDS, units=tuple(units), turn=turn, phase=phase, active=active,
                      first_player=AXIS, scenario=scenario)


SMALL_ROWS = [
    ". F H T M L . .",
    ". F H T M L . .",
    ". . . . . . . .",
    ". . . F . H . .",
    ". . . . . . . .",
    ". . . . . . . .",
]


def small_map() -> BattleMap:
    """An 8 × 6 map with every terrain type, a road over a bridged stream, an objective
    and two deployment zones."""
    return ascii_map(
        SMALL_ROWS, name="Small test map",
        roads=["A5 B5 C5 D5 E5 F5 G5 H5"],
        streams=["D1-E1", "D1-E2", "D2-E2", "D2-E3", "D3-E3", "D3-E4", "D4-E4", "D4-E5", "D5-E5", "D5-E6",
                 "D6-E6"],
        bridges=["D5-E5"], objectives=["E3"],
        zones={"west": ["A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B4", "B5", "B6"],
               "east": ["G1", "G2", "G3", "G4", "G5", "G6", "H1", "H2", "H3", "H4", "H5", "H6"]})


def every_counter_state() -> MinisState:
    """Every counter type once or more: face-up Disrupted and Damaged, face-down hits,
    a pending Destroyed (greyed), a passenger, facings, a full hex (4 units)."""
    units = [
        # a full hex: 2 per side, one Vehicle carrying a passenger (M-6.2, M-15)
        unit("ax1", "rifle-ax", "C3", disrupted=True),
        unit("ax12", "mg-ax", "C3", hits=(Hit.DISRUPTED,)),
        unit("al10", "tank-al", "C3", facing=2, hits=(Hit.DISRUPTED, Hit.DAMAGED)),
        unit("al11", "rifle-al", "C3", disrupted=True, hits=(Hit.DISRUPTED,)),
        unit("al12", "bazooka-al", "C3", carried_by="al10"),
        # face-up Damaged and Disrupted on a Vehicle, facing south-east
        unit("ax3", "tank-ax", "F4", facing=0, damaged=True, disrupted=True),
        # a pending Destroyed counter: greyed until the casualty phase (M-16.3)
        unit("ax4", "rifle-it", "E2", hits=(Hit.DISRUPTED, Hit.DESTROYED)),
        unit("ax5", "gun-ax", "B2"),
        unit("ax6", "officer-ax", "B2"),
        unit("ax7", "halftrack-ax", "G5", facing=3, carried_by=None),
        unit("al3", "tank-uk", "G3", facing=4),
        unit("al4", "rifle-su", "H4", hits=(Hit.DISRUPTED,)),
        unit("al5", "rifle-al", "H4"),
        unit("al6", "rifle-al", "A6"),
        # never drawn: not deployed, and already removed
        unit("ax8", "rifle-ax", None),
        unit("al7", "rifle-al", "D6", destroyed=True),
    ]
    return make_state(small_map(), units)


def imported_modules(folder: Path) -> Iterator[tuple[str, str]]:
    """(file name, module) for every import in the Python files under ``folder``;
    a relative import yields the module "." (the render packages use none)."""
    for path in folder.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    yield path.name, a.name
            elif isinstance(node, ast.ImportFrom):
                yield path.name, node.module if node.level == 0 and node.module else "."
