"""Test helpers: ASCII battle maps, cards with real card values, battles set up in any
phase, and scripted orders that must use exactly the dice they were given.

ASCII maps: one line per row, one token per column (flat-top, odd columns shifted
down as on the board): ``.`` clear, ``F`` forest, ``H`` hill, ``T`` town, ``M`` marsh,
``L`` lake.  Roads, streams and bridges are given as pairs of labels.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Sequence

from engine.core.dice import scripted_dice
from engine.core.events import Event
from engine.core.hexgrid import Hex, Labels
from engine.minis.game import apply_text, start_state
from engine.minis.model import ALLIES, AXIS, Ability, BattleMap, Terrain, UnitCard, UnitType, edge
from engine.minis.scenario import Scenario, builtin_document, resolve_scenario
from engine.minis.state import GameOptions, MinisState, Phase, PhaseFlags, UnitState

L = Labels()
TOKENS = {".": Terrain.CLEAR, "F": Terrain.FOREST, "H": Terrain.HILL, "T": Terrain.TOWN,
          "M": Terrain.MARSH, "L": Terrain.LAKE}


def hx(label: str) -> Hex:
    return L.parse(label)


def ascii_map(text: str, *, roads: Iterable[tuple[str, str]] = (), streams: Iterable[tuple[str, str]] = (),
              bridges: Iterable[tuple[str, str]] = (), objectives: Sequence[str] = (), name: str = "test") -> BattleMap:
    lines = [ln.split() for ln in text.strip("\n").splitlines() if ln.strip()]
    rows, cols = len(lines), len(lines[0])
    terrain = {}
    for r, line in enumerate(lines):
        assert len(line) == cols, f"row {r + 1} has {len(line)} columns, not {cols}"
        for c, tok in enumerate(line):
            t = TOKENS[tok]
            if t is not Terrain.CLEAR:
                terrain[L.from_offset(c, r)] = t
    road_edges = {edge(hx(a), hx(b)) for a, b in roads}
    bridge_edges = {edge(hx(a), hx(b)) for a, b in bridges}
    stream_edges = {edge(hx(a), hx(b)) for a, b in streams} | bridge_edges
    return BattleMap(name, cols, rows, terrain, roads=frozenset(road_edges | bridge_edges),
                     streams=frozenset(stream_edges), bridges=frozenset(bridge_edges),
                     objectives=tuple(hx(o) for o in objectives))


def open_map(cols: int = 12, rows: int = 10, **kw: object) -> BattleMap:
    return ascii_map("\n".join(" ".join("." for _ in range(cols)) for _ in range(rows)), **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- cards

def make_card(key: str, *, side: str = AXIS, vehicle: bool = False, subtype: str | None = None, cost: int = 5,
              speed: int = 1, defense: tuple[int, int] = (4, 4), vs_s: tuple[int | None, int | None, int | None] = (8, 6, None),
              vs_v: tuple[int | None, int | None, int | None] = (2, None, None), abilities: Sequence[tuple[str, int | None] | str] = (),
              initiative: int = 0, year: int = 1940, nation: str | None = None) -> UnitCard:
    abil = tuple(Ability(a) if isinstance(a, str) else Ability(a[0], a[1]) for a in abilities)
    return UnitCard(key=key, name=key.replace("-", " ").title(), nation=nation or ("Germany" if side == AXIS else "USA"),
                    side=side, type=UnitType.VEHICLE if vehicle else UnitType.SOLDIER, subtype=subtype,
                    year=year, cost=cost, speed=speed, defense_front=defense[0], defense_rear=defense[1],
                    vs_soldier=vs_s, vs_vehicle=vs_v, abilities=abil, initiative=initiative, short_name=key[:12])


# Real revised card values (unit-facts.md §1).
SHERMAN = make_card("m4a1-sherman", side=ALLIES, vehicle=True, subtype="Tank", cost=21, speed=4, defense=(5, 4),
                    vs_s=(9, 9, 7), vs_v=(13, 11, 9), year=1942)
PANZER = make_card("panzer-iv", vehicle=True, subtype="Tank", cost=23, speed=3, defense=(5, 3),
                   vs_s=(7, 7, 6), vs_v=(15, 13, 11), abilities=[("Extended Range", 10), "Sideskirts"], year=1942)
PAK38 = make_card("pak-38", subtype="Artillery", cost=8, speed=0, defense=(3, 3), vs_s=(3, 3, 3), vs_v=(11, 9, 7),
                  abilities=[("Relocate", 2), "Seasoned Crew"], year=1941)
SIXPDR = make_card("6-pounder", side=ALLIES, subtype="Artillery", cost=7, speed=0, defense=(3, 3), vs_s=(3, 3, 3),
                   vs_v=(11, 9, 8), abilities=[("Relocate", 2)], nation="UK", year=1942)
GARAND = make_card("m1-garand", side=ALLIES, cost=4, vs_s=(8, 7, None), vs_v=(2, None, None),
                   abilities=[("Close Assault", 7), "Coordinated Fire"], year=1942)
BAZOOKA = make_card("bazooka", side=ALLIES, cost=4, vs_s=(4, None, None), vs_v=(9, 4, None),
                    abilities=[("Close Assault", 10)], year=1942)
KAR98 = make_card("kar-98k", cost=3, vs_s=(8, 6, None), vs_v=(2, None, None), abilities=[("Close Assault", 6)], year=1939)
MG42 = make_card("mg-42", cost=10, vs_s=(10, 8, 7), vs_v=(3, 3, 2), abilities=["Double Shot", "Suppressive Fire"], year=1942)
RED_DEVIL = make_card("red-devil-captain", side=ALLIES, subtype="Commander", cost=7, vs_s=(8, 6, None),
                      vs_v=(2, None, None), abilities=[("Close Assault", 7), "Pinpointer"], initiative=2, year=1942)
HAUPTSTURM = make_card("ss-hauptsturmfuhrer", subtype="Commander", cost=7, vs_s=(6, None, None), vs_v=(2, None, None),
                       abilities=["Fanatic", "Exert Will"], initiative=3, year=1939)
COMMISSAR = make_card("commissar", side=ALLIES, subtype="Commander", cost=5, vs_s=(5, None, None), vs_v=(2, None, None),
                      abilities=[("Close Assault", 6), "Bravery Enforcement"], initiative=1, nation="USSR", year=1939)
LIEUTENANT = make_card("inspiring-lieutenant", side=ALLIES, subtype="Commander", cost=10, vs_s=(8, 6, None),
                       vs_v=(2, None, None), abilities=[("Close Assault", 7), "Tally-Ho!"], initiative=2, nation="UK")
SERGEANT = make_card("imperial-sergeant", subtype="Commander", cost=9, vs_s=(6, None, None), vs_v=(2, None, None),
                     abilities=[("Hand to Hand", 10), "Banzai Charge"], initiative=2, nation="Japan", year=1939)
TIGER = make_card("tiger-i", vehicle=True, subtype="Tank", cost=56, speed=3, defense=(7, 6), vs_s=(7, 7, 6),
                  vs_v=(17, 15, 12), abilities=["Overrun", ("Extended Range", 10), "Heavy Armor"], year=1942)

TEST_CARDS = {c.key: c for c in (SHERMAN, PANZER, PAK38, SIXPDR, GARAND, BAZOOKA, KAR98, MG42, RED_DEVIL,
                                  HAUPTSTURM, COMMISSAR, LIEUTENANT, SERGEANT, TIGER)}

# A Transport (M-15), for the transport and casualty tests; not one of TEST_CARDS.
JEEP = make_card("jeep", side=ALLIES, vehicle=True, subtype="Car", cost=3, speed=5, defense=(2, 2),
                 vs_s=(4, 2, None), vs_v=(1, None, None), abilities=["Transport"])


def standard() -> Scenario:
    return resolve_scenario(builtin_document("standard"), {"map": 1})


# --------------------------------------------------------------------------- battles

Placement = tuple[str, UnitCard, str] | tuple[str, UnitCard, str, str]


def battle(m: BattleMap, placements: Sequence[Placement], *, phase: Phase = Phase.MOVEMENT,
           active: str = AXIS, first: str | None = None, turn: int = 1, stacking: int = 2,
           standing: str = "ask", extra_cards: Iterable[UnitCard] = (), scenario: Scenario | None = None,
           **unit_changes: dict[str, object]) -> MinisState:
    """A battle already in ``phase`` with the units placed.  Each placement is
    (id, card, hex label[, facing name]); ids say the side ("ax…"/"al…")."""
    cards = dict(TEST_CARDS)
    for p in placements:
        cards[p[1].key] = p[1]
    for c in extra_cards:
        cards[c.key] = c
    units = []
    for p in placements:
        uid, card, label = p[0], p[1], p[2]
        facing = L.parse_direction(p[3]) if len(p) > 3 else (1 if uid.startswith("ax") else 4) if card.is_vehicle else None  # type: ignore[misc]
        side = AXIS if uid.startswith("ax") else ALLIES
        u = UnitState(id=uid, card=card.key, side=side, hex=hx(label), facing=facing)
        units.append(replace(u, **unit_changes.get(uid, {})))
    sc = scenario or standard()
    state = start_state(m, cards, sc, GameOptions(stacking=stacking, default_standing=standing))
    return replace(state, units=tuple(units), phase=phase, active=active, first_player=first or active,
                   turn=turn, flags=PhaseFlags(), ends={AXIS: "west", ALLIES: "east"},
                   deploy_done=frozenset({AXIS, ALLIES}), ready=frozenset({AXIS, ALLIES}))


def play(state: MinisState, player: str, text: str, dice: Sequence[int] = ()) -> tuple[MinisState, tuple[Event, ...]]:
    """Apply one order with exactly these dice (fails if any are left over)."""
    d = scripted_dice(dice)
    new, events = apply_text(state, player, text, d)
    assert d.remaining == (), f"dice left over: {d.remaining}"
    return new, events


def of_type(events: Iterable[Event], cls: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, cls)]
