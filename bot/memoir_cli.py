"""``warroom memoir …``: Memoir '44 rules look-ups (no game needed).

* ``warroom memoir scenarios`` — the scenarios we ship (or the one given with --scenario)
* ``warroom memoir los --from G9 --to I9`` — line of sight (E-11)
* ``warroom memoir battles --side allies`` — every battle the side could fight now
* ``warroom memoir moves --unit G6`` — where a unit could move if ordered
* ``warroom memoir retreat --unit G5 --hexes 2`` — the hexes of a retreat, step by step

Every look-up takes ``--scenario NAME|FILE`` (a shipped scenario, or a file in our
format or a ``.m44`` file; default Pegasus Bridge) and ``--json``.  Player errors (an
unknown scenario, a bad hex, an invalid file) print one ``error: …`` line and exit 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bot.cli_tools import guarded, show_help
from engine.core.errors import UnknownName
from engine.memoir import lookups
from engine.memoir.board import SEATS, parse_hex
from engine.memoir.scenario import SHIPPED, Scenario, find_shipped, load_scenario_text, shipped_scenarios

DEFAULT_SCENARIO = "pegasus-bridge"


def register(subparsers: Any) -> None:
    memoir = subparsers.add_parser(
        "memoir", help="Memoir '44 look-ups: scenarios, line of sight, battles, moves, retreats",
        description="Memoir '44 rules look-ups on a scenario's starting position.",
    )
    sub = memoir.add_subparsers(dest="memoir_command", metavar="LOOKUP")
    memoir.set_defaults(func=lambda args: show_help(memoir))

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--scenario", metavar="NAME|FILE", default=None,
                       help=f"a shipped scenario ({', '.join(SHIPPED)}) or a scenario file (our JSON "
                            "format or .m44); default pegasus-bridge")
        p.add_argument("--json", action="store_true", help="print JSON")

    sc = sub.add_parser("scenarios", help="the scenarios we ship",
                        description="The shipped scenarios: face, medals to win, cards per side, first player.")
    common(sc)
    sc.set_defaults(func=guarded(_scenarios))

    los = sub.add_parser("los", help="line of sight between two hexes",
                         description="Is there line of sight between two hexes (E-11)? Units block.")
    common(los)
    los.add_argument("--from", dest="from_hex", required=True, metavar="HEX")
    los.add_argument("--to", dest="to_hex", required=True, metavar="HEX")
    los.set_defaults(func=guarded(_los))

    bat = sub.add_parser("battles", help="every battle a side could fight",
                         description="Every battle the side could fight if all its units were ordered and "
                                     "none moved (close-assault obligation, terrain, artillery applied).")
    common(bat)
    bat.add_argument("--side", required=True, choices=SEATS)
    bat.set_defaults(func=guarded(_battles))

    mv = sub.add_parser("moves", help="where a unit could move",
                        description="The hexes a unit could reach this turn if ordered, and those where it "
                                    "must stop.")
    common(mv)
    mv.add_argument("--unit", required=True, metavar="HEX")
    mv.set_defaults(func=guarded(_moves))

    rt = sub.add_parser("retreat", help="a retreat, step by step",
                        description="The hexes a unit could reach after each step of a retreat (toward its "
                                    "own baseline; any unit blocks) and the figures it would lose.")
    common(rt)
    rt.add_argument("--unit", required=True, metavar="HEX")
    rt.add_argument("--hexes", type=int, default=1, metavar="N", help="hexes to retreat (flags), default 1")
    rt.set_defaults(func=guarded(_retreat))




def load(spec: str | None) -> Scenario:
    """A shipped scenario by name, or a scenario file (ours or .m44)."""
    text = (spec or DEFAULT_SCENARIO).strip()
    path = Path(text)
    if path.suffix.lower() in (".json", ".m44") or path.exists():
        try:
            body = path.read_text(encoding="utf-8")
        except OSError as e:
            raise UnknownName(f"Cannot read '{text}': {e.strerror or e}.") from None
        return load_scenario_text(body, path.name)
    return find_shipped(text)


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def describe(sc: Scenario) -> dict[str, Any]:
    return {"name": sc.name, "slug": sc.slug, "face": sc.face,
            "medals": dict(zip(SEATS, sc.medals)), "cards": dict(zip(SEATS, sc.cards)),
            "first": sc.first, "top": sc.top}


def _scenarios(args: argparse.Namespace) -> int:
    chosen = [load(args.scenario)] if args.scenario else list(shipped_scenarios())
    rows = [describe(s) for s in chosen]
    if args.json:
        _print_json(rows)
        return 0
    for r in rows:
        print(f"{r['name']} ({r['slug']}): {r['face']} face, {r['top']} on top, {r['first']} first; "
              f"medals to win axis {r['medals']['axis']} / allies {r['medals']['allies']}; "
              f"cards axis {r['cards']['axis']} / allies {r['cards']['allies']}")
    return 0


def _los(args: argparse.Namespace) -> int:
    sc = load(args.scenario)
    state = lookups.position(sc)
    a, b = parse_hex(args.from_hex), parse_hex(args.to_hex)
    out = lookups.los(state, a, b)
    if args.json:
        _print_json(out)
        return 0
    verdict = "clear" if out["clear"] else "blocked by " + ", ".join(out["blocked_by"])
    print(f"{args.from_hex.upper()} -> {args.to_hex.upper()} ({sc.name}): {verdict}.")
    return 0


def _battles(args: argparse.Namespace) -> int:
    sc = load(args.scenario)
    out = lookups.battles(lookups.position(sc), args.side)
    if args.json:
        _print_json(out)
        return 0
    if not out:
        print(f"The {args.side} have no battle to fight ({sc.name}).")
    for b in out:
        print(f"{b['attacker']} -> {b['target']}: {b['dice']} dice")
    return 0


def _moves(args: argparse.Namespace) -> int:
    sc = load(args.scenario)
    out = lookups.moves(lookups.position(sc), parse_hex(args.unit))
    if args.json:
        _print_json(out)
        return 0
    print(f"{args.unit.upper()} may reach: {', '.join(out['reachable']) or 'nothing'}")
    if out["must_stop"]:
        print(f"and must stop on: {', '.join(out['must_stop'])}")
    return 0


def _retreat(args: argparse.Namespace) -> int:
    sc = load(args.scenario)
    out = lookups.retreat(lookups.position(sc), parse_hex(args.unit), args.hexes)
    if args.json:
        _print_json(out)
        return 0
    for step, hexes in out["steps"].items():
        print(f"step {step}: {', '.join(hexes) or 'blocked'}")
    print(f"figures lost: {out['figures_lost']}")
    return 0
