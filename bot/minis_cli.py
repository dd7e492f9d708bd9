"""``warroom minis …``: look-ups for A&A Miniatures players (no game needed).

* ``warroom minis units`` — the unit catalogue (docs/units.md)
* ``warroom minis maps`` — the section faces and the six configurations (docs/maps.md)
* ``warroom minis los`` — line of sight between two hexes of a map (M-10)

Player errors (an unknown map, a bad hex label, an invalid file) print a message and
exit with status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.cli_tools import guarded, print_json, show_help
from engine.core.errors import UnknownName
from engine.minis.catalogue import (
    COST_SETS,
    Catalogue,
    card_to_dict,
    load_catalogue,
    load_custom_cards,
)
from engine.minis.line_of_sight import line_of_sight
from engine.minis.maps import (
    FACE_NAMES,
    MAP_COLS,
    MAP_ROWS,
    build_configuration,
    configurations,
    face_key,
    format_map_text,
    load_map_text,
    section_faces,
    section_map,
)
from engine.minis.model import SIDES, BattleMap, UnitCard



def register(subparsers: Any) -> None:
    minis = subparsers.add_parser(
        "minis", help="A&A Miniatures look-ups: units, maps, line of sight",
        description="A&A Miniatures look-ups: the unit catalogue, the battle maps and "
                    "line of sight.",
    )
    sub = minis.add_subparsers(dest="minis_command", metavar="LOOKUP")
    minis.set_defaults(func=lambda args: show_help(minis))

    units = sub.add_parser("units", help="the unit catalogue",
                           description="List the unit cards (revised values by default).")
    units.add_argument("--json", action="store_true", help="print JSON")
    units.add_argument("--cost-set", choices=COST_SETS, default="revised",
                       help="costs to show: revised cards (default) or 2005 printed")
    units.add_argument("--side", choices=SIDES, help="only this side")
    units.add_argument("--nation", help="only this nation (e.g. Germany, USA)")
    units.add_argument("--cards", metavar="FILE",
                       help="add a league's own cards from this JSON file")
    units.set_defaults(func=guarded(_units))

    maps = sub.add_parser("maps", help="section faces and map configurations",
                          description="List the section faces and the six configurations.")
    maps.add_argument("--json", action="store_true", help="print JSON")
    maps.add_argument("--show", metavar="MAP",
                      help="print one map in the text format (configuration number, face "
                           "name or map file)")
    maps.set_defaults(func=guarded(_maps))

    los = sub.add_parser("los", help="line of sight between two hexes",
                         description="Is there line of sight between two hexes (M-10)?")
    los.add_argument("--map", required=True, metavar="MAP",
                     help="configuration number 1-6, a face name, or a map file")
    los.add_argument("--from", dest="from_hex", required=True, metavar="HEX")
    los.add_argument("--to", dest="to_hex", required=True, metavar="HEX")
    los.add_argument("--json", action="store_true", help="print JSON")
    los.set_defaults(func=guarded(_los))




def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UnknownName(f"Cannot read '{path}': {e.strerror or e}.") from None



# --------------------------------------------------------------------------- units


def _attack(a: tuple[int | None, int | None, int | None]) -> str:
    return "/".join("-" if x is None else str(x) for x in a)


def _defense(c: UnitCard) -> str:
    return f"{c.defense_front}/{c.defense_rear}"


def _select(cat: Catalogue, side: str | None, nation: str | None) -> list[UnitCard]:
    cards = list(cat.values())
    if side:
        cards = [c for c in cards if c.side == side]
    if nation:
        nations = sorted({c.nation for c in cat.values()})
        wanted = {n for n in nations if n.lower() == nation.strip().lower()}
        if not wanted:
            raise UnknownName(f"No unit of the nation '{nation}'.", legal=nations)
        cards = [c for c in cards if c.nation in wanted]
    return cards


def _units(args: argparse.Namespace) -> int:
    cat = load_catalogue(args.cost_set)
    if args.cards:
        cat = load_custom_cards(_read(args.cards), base=cat)
    cards = _select(cat, args.side, args.nation)
    if args.json:
        print_json({
            "cost_set": cat.cost_set,
            "cost_fallbacks": [k for k in cat.cost_fallbacks if any(c.key == k for c in cards)],
            "units": [card_to_dict(c) for c in cards],
        })
        return 0
    header = ("Name", "Nation", "Side", "Type", "Year", "Cost", "Spd", "Def",
              "vs Soldier", "vs Vehicle", "Abilities")
    rows = []
    for c in cards:
        kind = c.type.value + (f"-{c.subtype}" if c.subtype else "")
        abilities = [str(a) for a in c.abilities]
        if c.initiative:
            abilities.insert(0, f"Initiative +{c.initiative}")
        cost = f"{c.cost}*" if c.key in cat.cost_fallbacks else str(c.cost)
        rows.append((c.name, c.nation, c.side, kind, str(c.year), cost, str(c.speed),
                     _defense(c), _attack(c.vs_soldier), _attack(c.vs_vehicle),
                     ", ".join(abilities)))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header) - 1)]
    right = {4, 5, 6}
    for r in [header] + rows:
        cells = [(r[i].rjust(w) if i in right else r[i].ljust(w)) for i, w in enumerate(widths)]
        print("  ".join(cells + [r[-1]]).rstrip())
    print(f"{len(rows)} units, {cat.cost_set} costs.")
    if any(c.key in cat.cost_fallbacks for c in cards):
        print("* 2005 cost unknown: the revised cost is shown.")
    return 0


# --------------------------------------------------------------------------- maps


def _load_map(spec: str) -> BattleMap:
    text = spec.strip()
    if text.isdigit():
        return build_configuration(int(text))
    if face_key(text) in FACE_NAMES:
        return section_map(text)
    if Path(text).suffix or Path(text).exists():
        return load_map_text(_read(text), Path(text).name)
    raise UnknownName(
        f"There is no map '{spec}'.",
        legal=[str(n) for n in configurations()] + list(FACE_NAMES) + ["a .map file"],
    )


def _maps(args: argparse.Namespace) -> int:
    if args.show:
        print(format_map_text(_load_map(args.show)), end="")
        return 0
    faces, configs = section_faces(), configurations()
    if args.json:
        print_json({
            "size": {"cols": MAP_COLS, "rows": MAP_ROWS},
            "faces": [{"name": f.name, "about": f.about} for f in faces.values()],
            "configurations": [
                {
                    "number": c.number,
                    "name": c.name,
                    "top_left": c.top_left,
                    "top_right": c.top_right,
                    "bottom_left": c.bottom_left,
                    "bottom_right": c.bottom_right,
                    "objective": build_configuration(c.number).label(c.objective),
                }
                for c in configs.values()
            ],
        })
        return 0
    print("Section faces (9 x 8 hexes each):")
    for f in faces.values():
        print(f"  {f.name:<10} {f.about}")
    print(f"Configurations (M-3.8; roll a die; {MAP_COLS} x {MAP_ROWS} hexes, "
          "deploy in the 5 columns at your end):")
    for c in configs.values():
        label = build_configuration(c.number).label(c.objective)
        print(f"  {c.number}  {c.name:<14} {c.layout:<34} objective {label}")
    return 0


# --------------------------------------------------------------------------- los


def _los(args: argparse.Namespace) -> int:
    m = _load_map(args.map)
    a, b = m.parse_hex(args.from_hex), m.parse_hex(args.to_hex)
    sight = line_of_sight(m, a, b)
    blocked = [m.label(h) for h in sight.blocked_by]
    if args.json:
        print_json({"clear": sight.clear, "distance": sight.distance, "blocked_by": blocked})
        return 0
    verdict = "clear" if sight.clear else "blocked by " + ", ".join(blocked)
    print(f"{m.label(a)} -> {m.label(b)} on {m.name}: {verdict} (distance {sight.distance}).")
    return 0

