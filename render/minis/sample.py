"""Sample battles for the example images in docs/, the bench and the render tests.

- :func:`demo_state` — a hand-made demonstration (``samples/demo.json``), built only from
  the documented model/state types: sample data, not game content.
- :func:`example_battle` — the README's example battle (``examples/minis-standard.txt``)
  replayed through the engine from its stored order log (``samples/standard-battle.json``)
  and cut into phase reports exactly as the bot cuts them: the state after each report
  and the events of the phases it reports.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from engine.core.dice import scripted_dice
from engine.core.events import Event
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


# ---------------------------------------------------------------------------- the example battle
@dataclass(frozen=True)
class Report:
    """One phase report of a battle: the name the bot gives its image
    (``turn3-assault-allies``), the state after it and the events of its phases."""

    name: str
    state: MinisState
    events: tuple[Event, ...]


PHASE_MARKERS = ("PhaseStarted", "Victory", "Conceded")  # a report follows an order with one


def _report_name(events: tuple[Event, ...]) -> str:
    first = next((e for e in events if type(e).__name__ == "PhaseStarted"), None)
    if first is None:
        return "setup"
    d = first.to_dict()
    side = f"-{d['active']}" if d.get("active") else ""
    return f"turn{d['turn']}-{d['phase']}{side}"


@lru_cache(maxsize=1)
def example_battle() -> tuple[Report, ...]:
    """The phase reports of the example battle (38 of them)."""
    from engine.minis.game import apply_text, new_game

    data = json.loads((resources.files("render.minis") / "samples" / "standard-battle.json").read_text("utf-8"))
    state, events = new_game(data["options"], scripted_dice(data["new_dice"]))
    flat: list[Event] = list(events)
    reports: list[Report] = []
    for seat, text, dice in data["orders"]:
        state, new = apply_text(state, seat, text, scripted_dice(dice))
        own = len(new)
        flat.extend(new)
        if not any(type(e).__name__ in PHASE_MARKERS for e in new):
            continue
        # from the start of the phase running when the order began, to the start of the
        # phase running now (or the end, once the battle is over)
        tail = len(flat) - own
        starts = [i for i, e in enumerate(flat) if type(e).__name__ == "PhaseStarted"]
        before = [i for i in starts if i < tail]
        inside = [i for i in starts if i >= tail]
        begin = before[-1] if before else 0
        end = inside[-1] if inside and state.outcome is None else len(flat)
        window = tuple(flat[begin:end])
        reports.append(Report(_report_name(window), state, window))
    return tuple(reports)
