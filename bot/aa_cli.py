"""``warroom aa …``: look-ups for Axis & Allies Anniversary players (no game needed).

* ``warroom aa map [--json]`` — every territory and sea zone and every connection (A-2, A-3)
* ``warroom aa setup 1941|1942 [--json]`` — each power's IPCs and income, every starting unit (A-4)

Player errors (an unknown set-up) print one ``error: …`` line and exit with status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.aa.board import board
from engine.aa.setup import SCENARIOS, load_setup, starting_income
from engine.aa.state import POWERS
from bot.cli_tools import guarded, print_json, show_help
from engine.core.errors import UnknownName



def register(subparsers: Any) -> None:
    aa = subparsers.add_parser(
        "aa", help="A&A Anniversary look-ups: the map and the set-ups",
        description="Axis & Allies Anniversary Edition look-ups: the board and the 1941/1942 set-ups.",
    )
    sub = aa.add_subparsers(dest="aa_command", metavar="LOOKUP")
    aa.set_defaults(func=lambda args: show_help(aa))

    m = sub.add_parser("map", help="territories, sea zones and connections",
                       description="Every territory and sea zone (IPC value, original controller, "
                                   "victory city, capital, neutral, island, canal) and every connection.")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=guarded(_map))

    s = sub.add_parser("setup", help="a scenario's IPCs and starting units",
                       description="Each power's IPCs in hand and income, and every starting unit.")
    s.add_argument("scenario", metavar="SCENARIO", help="1941 or 1942")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=guarded(_setup))





def map_data() -> dict[str, Any]:
    b = board()
    territories = []
    for name in b.names:
        s = b.space(name)
        territories.append({
            "name": s.name, "kind": s.kind, "ipc": s.ipc,
            "victory_city": s.victory_city is not None, "city": s.victory_city,
            "capital_of": s.capital_of, "original": s.original, "neutral": s.neutral,
            "island": s.island, "canal": s.canal,
        })
    return {
        "territories": territories,
        "connections": [[a, c] for a, c in b.connections],
        "canals": [{"name": c.name, "zones": list(c.zones), "requires": list(c.requires)} for c in b.canals],
        "straits": list(b.straits),
        "convoy_zones": list(b.convoy_zones),
    }


def setup_data(scenario: str) -> dict[str, Any]:
    setup = load_setup(scenario)
    income = starting_income(setup)
    return {
        "scenario": setup.scenario,
        "turn_order": list(setup.turn_order),
        "powers": {p: {"ipcs": setup.ipcs[p], "income": income[p]} for p in POWERS},
        "units": [{"where": w, "power": p, "unit": k, "count": n} for w, p, k, n in setup.placements],
    }


def _map(args: argparse.Namespace) -> int:
    data = map_data()
    if args.json:
        print_json(data)
        return 0
    for t in data["territories"]:
        if t["kind"] == "land":
            flags = [f for f, on in (("neutral", t["neutral"]), ("island", t["island"])) if on]
            if t["city"]:
                flags.append(f"victory city {t['city']}")
            if t["capital_of"]:
                flags.append(f"capital of {t['capital_of']}")
            print(f"{t['name']:<28} {t['ipc']:>2} IPC  {t['original'] or '-':<15} {', '.join(flags)}".rstrip())
        else:
            print(f"{t['name']:<28} sea zone{'  canal: ' + t['canal'] if t['canal'] else ''}")
    lands = sum(1 for t in data["territories"] if t["kind"] == "land")
    print(f"{lands} territories, {len(data['territories']) - lands} sea zones, "
          f"{len(data['connections'])} connections.")
    return 0


def _setup(args: argparse.Namespace) -> int:
    scenario = args.scenario.strip()
    if scenario not in SCENARIOS:
        raise UnknownName(f"There is no set-up '{scenario}'.", legal=SCENARIOS)
    data = setup_data(scenario)
    if args.json:
        print_json(data)
        return 0
    print(f"Set-up {scenario}; turn order: {', '.join(data['turn_order'])}.")
    for p, v in data["powers"].items():
        print(f"  {p:<15} {v['ipcs']:>3} IPCs in hand, income {v['income']}")
    for u in data["units"]:
        print(f"  {u['where']:<28} {u['power']:<15} {u['count']} {u['unit']}")
    return 0
