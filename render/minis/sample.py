"""A demonstration battle (``samples/demo.json``) for the example image in docs/, the
bench and the render tests, built only from the documented model/state types.

It is sample data, not game content: real maps and cards come from the engine's
catalogue and map files.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from engine.core.hexgrid import Hex, column_index
from engine.minis.model import Ability, BattleMap, Terrain, UnitCard, UnitType, edge
from engine.minis.state import Hit, MinisState, Phase, UnitState


@lru_cache(maxsize=None)
def _data() -> Mapping[str, Any]:
    text = (resources.files("render.minis") / "samples" / "demo.json").read_text(encoding="utf-8")
    data: Mapping[str, Any] = json.loads(text)
    return data


def demo_map() -> BattleMap:
    m = _data()["map"]
    probe = BattleMap("probe", 1, 1, {})
    labels = probe.labels
    letters = {k: Terrain(v) for k, v in m["terrain_letters"].items()}
    terrain: dict[Hex, Terrain] = {}
    for r, row in enumerate(m["terrain"]):
        for c, ch in enumerate(row):
            if letters[ch] is not Terrain.CLEAR:
                terrain[labels.from_offset(c, r)] = letters[ch]
    roads: set[tuple[Hex, Hex]] = set()
    for chain in m["roads"]:
        hexes = [labels.parse(t) for t in chain.split()]
        roads.update(edge(a, b) for a, b in zip(hexes, hexes[1:]))

    def sides(items: list[str]) -> frozenset[tuple[Hex, Hex]]:
        out = set()
        for it in items:
            a, b = (labels.parse(t) for t in it.split("-"))
            if a.distance(b) != 1:
                raise ValueError(f"{it}: not a hexside")
            out.add(edge(a, b))
        return frozenset(out)

    zones = {}
    for name, span in m["zones"].items():
        first, last = (column_index(t) for t in span.split("-"))
        zones[name] = frozenset(labels.from_offset(c, r) for c in range(first, last + 1) for r in range(m["rows"]))
    return BattleMap(m["name"], m["cols"], m["rows"], terrain, frozenset(roads), sides(m["streams"]),
                     sides(m["bridges"]), tuple(labels.parse(t) for t in m["objectives"]), zones)


def demo_cards() -> dict[str, UnitCard]:
    out = {}
    for c in _data()["cards"]:
        def dice(v: list[int | None]) -> tuple[int | None, int | None, int | None]:
            return v[0], v[1], v[2]

        out[c["key"]] = UnitCard(
            key=c["key"], name=c["name"], nation=c["nation"], side=c["side"], type=UnitType(c["type"]),
            subtype=c["subtype"], year=c["year"], cost=c["cost"], speed=c["speed"],
            defense_front=c["defense"][0], defense_rear=c["defense"][1],
            vs_soldier=dice(c["vs_soldier"]), vs_vehicle=dice(c["vs_vehicle"]),
            abilities=tuple(Ability(n, v) for n, v in c["abilities"]),
            initiative=c.get("initiative", 0), short_name=c.get("short_name", ""))
    return out


def demo_state(battle_map: BattleMap | None = None) -> MinisState:
    """The demo battle (turn 4, Axis assault phase, 30 units, 20 counters)."""
    m = battle_map or demo_map()
    cards = demo_cards()
    labels = m.labels
    units: list[UnitState] = []
    carried = {u["passenger"]: u["id"] for u in _data()["units"] if "passenger" in u}
    where = {u["id"]: u.get("hex") for u in _data()["units"]}
    for u in _data()["units"]:
        card = cards[u["card"]]
        host = carried.get(u["id"])
        text = where[host] if host else u.get("hex")
        units.append(UnitState(
            id=u["id"], card=u["card"], side=card.side, hex=labels.parse(text) if text else None,
            facing=labels.parse_direction(u["facing"]) if "facing" in u else None,
            disrupted=u.get("disrupted", False), damaged=u.get("damaged", False),
            hits=tuple(Hit(h) for h in u.get("hits", ())), carried_by=host))
    s = _data()["state"]
    return MinisState(map=m, cards=cards, units=tuple(units), turn=s["turn"], phase=Phase(s["phase"]),
                      active=s["active"], first_player=s["first_player"], scenario=s["scenario"])
