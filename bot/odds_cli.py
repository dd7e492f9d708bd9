"""``warroom odds aa|minis|memoir …``: exact odds from the command line (``--json`` for
machines, ``--chart FILE`` for the PNG the bot posts).

    warroom odds aa --attacker "3 inf, 1 art, 2 tank, 1 fighter" --defender "4 inf, 1 aa"
    warroom odds aa --attacker "2 sub, 1 des" --defender "1 cru, 1 car, 2 fig" --sea
    warroom odds aa --attacker "3 inf, 1 tank" --defender "3 inf" --amphibious --bombard "1 battleship"
    warroom odds minis --dice 11 --defense 5 --cover 5
    warroom odds memoir --dice 3 --target infantry --figures 4 --blocked
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable

# Everything heavier than argparse is imported where it is used: ``warroom odds …`` is a
# one-shot process, so start-up time is part of every answer.

SOLDIER, VEHICLE = "soldier", "vehicle"  # engine.odds.minis target types

def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("odds", help="exact odds: A&A battles, A&A Miniatures attacks, Memoir '44 dice")
    games = p.add_subparsers(dest="game", metavar="GAME", required=True)

    aa = games.add_parser("aa", help="an A&A Anniversary battle")
    aa.add_argument("--attacker", required=True, help='e.g. "3 inf, 1 art, 2 tank, 1 fighter"')
    aa.add_argument("--defender", required=True, help='e.g. "4 inf, 1 aa"')
    kind = aa.add_mutually_exclusive_group()
    kind.add_argument("--land", action="store_true", help="a land battle (the default)")
    kind.add_argument("--sea", action="store_true", help="a sea battle")
    kind.add_argument("--amphibious", action="store_true", help="an amphibious assault (land units from the sea)")
    aa.add_argument("--bombard", default="", help='ships bombarding an amphibious assault, e.g. "1 battleship, 1 cruiser"')
    aa.add_argument("--overland", default="",
                    help='amphibious: the attacking land units that came over land, e.g. "1 tank" (they retreat'
                         ' with the aircraft; the units landed from the sea fight on)')  # fmt: skip
    aa.add_argument("--ool-attacker", default="", help='attacker order of loss, first lost first: "inf,art,tank,fighter"')
    aa.add_argument("--ool-defender", default="", help="defender order of loss")
    aa.add_argument("--rounds", type=int, help="fight this many rounds only (at most 100)")
    aa.add_argument("--retreat-below", type=int, default=0, metavar="K",
                    help="the attacker retreats after a round that leaves it fewer than K units")  # fmt: skip
    aa.add_argument("--retreat-left", type=int, metavar="K",
                    help="the attacker retreats after a round that leaves it K units or fewer")  # fmt: skip
    aa.add_argument("--keep-land", nargs="?", type=int, const=1, default=0, metavar="N",
                    help="the attacker loses its last land unit (or its last N) last")  # fmt: skip
    aa.add_argument("--submerge-attacker", action="store_true", help="attacking subs submerge when they are all that is left")
    aa.add_argument("--submerge-defender", action="store_true", help="defending subs submerge when they are all that is left")
    aa.add_argument("--attacker-tech", default="", help='e.g. "jets, heavy bombers"')
    aa.add_argument("--defender-tech", default="", help='e.g. "radar"')
    aa.add_argument("--low-luck", action="store_true", help="low-luck dice: total value / 6 sure hits, one die for the rest")
    aa.add_argument("--retreat-after", type=int, metavar="N", help="strafe: the attacker retreats after round N (at most 100)")
    aa.add_argument("--retreat-chance", type=float, metavar="X",
                    help="the attacker retreats when fighting on would win less than X %%")  # fmt: skip
    aa.add_argument("--rules", default="anniversary", choices=("anniversary", "1942se", "global1940"),
                    help="unit profiles of this rules set")  # fmt: skip
    aa.add_argument("--wave2", default="", help='a second wave attacking the survivors, e.g. "4 inf, 2 tank"')
    aa.add_argument("--exact", action="store_true", help="compute in exact fractions (small battles)")
    _common(aa)
    aa.set_defaults(func=run_aa)

    mi = games.add_parser("minis", help="one A&A Miniatures attack")
    mi.add_argument("--dice", type=int, required=True, help="attack dice")
    mi.add_argument("--defense", type=int, required=True, help="target defense (front or rear as it applies)")
    mi.add_argument("--attacker-penalty", action="store_true", help="attacker disrupted or damaged: -1 on each die")
    mi.add_argument("--target-penalty", action="store_true", help="target disrupted or damaged: -1 defense")
    mi.add_argument("--target", choices=(VEHICLE, SOLDIER), default=VEHICLE, help="target type (for the counters)")
    mi.add_argument("--target-damaged", action="store_true", help="target is a damaged vehicle")
    mi.add_argument("--cover", type=int, help="cover roll needed (4 Soldier, 5 Vehicle)")
    mi.add_argument("--same-hex", action="store_true", help="attacker in the target's hex: -1 on the cover roll")
    mi.add_argument("--defensive-fire", action="store_true", help="defensive fire: reaching defense disrupts, cover negates")
    mi.add_argument("--die-modifier", type=int, default=0, help='"each attack die" modifiers, e.g. +1')
    mi.add_argument("--cover-modifier", type=int, default=0, help="added to the cover roll (Seasoned Crew -1)")
    mi.add_argument("--shrapnel", type=int, default=1, help="Shrapnel N: successes vs a Soldier count N times")
    mi.add_argument("--superior-armor", type=int, default=0, help="target's Superior Armor N")
    mi.add_argument("--armor-piercing", action="store_true", help="Armor-Piercing Rounds: 2 hits on a Vehicle become 3")
    mi.add_argument("--heavy-armor", action="store_true", help="target's Heavy Armor, not used yet: its first Damaged is ignored")
    mi.add_argument("--overheat", action="store_true", help="attacker's Overheat: three natural 1s disrupt it")
    mi.add_argument("--double-shot", action="store_true", help="a second attack at the same target (Double Shot)")
    _common(mi)
    mi.set_defaults(func=run_minis)

    me = games.add_parser("memoir", help="Memoir '44 battle dice")
    me.add_argument("--dice", type=int, required=True)
    me.add_argument("--target", required=True, help="infantry, armor or artillery")
    me.add_argument("--figures", type=int, help="figures in the target unit")
    me.add_argument("--blocked", action="store_true", help="no retreat possible: each flag costs a figure")
    me.add_argument("--retreat-room", type=int, help="hexes the unit can still retreat")
    me.add_argument("--ignore-flags", type=int, default=0, help="flags the unit may ignore")
    me.add_argument("--attacker", help="full battle: the attacking unit's type (infantry, armor, artillery)")
    me.add_argument("--ambush-dice", type=int, help="full battle: the defender's Ambush dice at the attacker")
    me.add_argument("--attacker-figures", type=int, help="full battle: the attacker's figures (Ambush)")
    me.add_argument("--attacker-retreat-room", type=int, help="full battle: hexes the attacker can retreat")
    me.add_argument("--overrun-dice", type=int, help="full battle: armor's Overrun dice after taking ground")
    me.add_argument("--overrun-target", help="full battle: the Overrun target's type (default infantry)")
    me.add_argument("--overrun-figures", type=int, help="full battle: the Overrun target's figures")
    me.add_argument("--overrun-retreat-room", type=int, help="full battle: hexes the Overrun target can retreat")
    _common(me)
    me.set_defaults(func=run_memoir)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--chart", type=Path, metavar="FILE", help="also write the chart PNG here")


def keep_freed_memory() -> bool:
    """Ask glibc's malloc to keep freed memory for reuse in this one-shot process:
    by default it hands big blocks back to the kernel as they are freed, and every
    block taken again is faulted in page by page (~0.2 s of a 100-a-side sea battle on
    a VM, the first time a process asks).  Blocks up to 32 MB come from the heap, and
    up to 1 GB of freed heap is kept until the process ends.  False where there is no
    glibc (nothing changes there).  Not for the bot: a long-lived process should give
    memory back."""
    import ctypes

    try:
        # The process's own symbols, libc's among them: no ctypes.util.find_library,
        # whose import and ldconfig run cost ~14 ms of a ~70 ms process.
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
    return all([mallopt(M_MMAP_THRESHOLD, 32 << 20), mallopt(M_TRIM_THRESHOLD, 1 << 30), mallopt(M_TOP_PAD, 0)])


# Slash options whose command-line form is not simply ``--name value``.
_FLAG_OF = {
    ("kind", "land"): "--land",  # said, so an example for an amphibious assault shows the change
    ("kind", "sea"): "--sea",
    ("kind", "amphibious"): "--amphibious",
    ("submerge", "none"): "",
    ("submerge", "attacker"): "--submerge-attacker",
    ("submerge", "defender"): "--submerge-defender",
    ("submerge", "both"): "--submerge-attacker --submerge-defender",
    ("keep_land", "true"): "--keep-land",
}
_RENAMED = {"keep_land_units": "keep_land", "ap": "armor_piercing", "defensive": "defensive_fire", "target_type": "target"}


def as_flags(example: str) -> str:
    """A "what would be legal" example in slash syntax (``/odds aa … retreat_chance:30``)
    as the command line takes it (``warroom odds aa … --retreat-chance 30``): the engine
    speaks the slash syntax most players type, and the command-line user gets flags."""
    if not example.startswith("/odds "):
        return example

    def flag(m: re.Match[str]) -> str:
        name, value = m.group(1), m.group(2)
        if (name, value) in _FLAG_OF:
            return _FLAG_OF[(name, value)]
        dashed = "--" + _RENAMED.get(name, name).replace("_", "-")
        return dashed if value == "true" else f"{dashed} {value}"

    flags = re.sub(r"\b([a-z][a-z0-9_]*):(\S+)", flag, example[len("/odds ") :])
    return "warroom odds " + re.sub(r"  +", " ", flags).strip()


def _run(args: argparse.Namespace, compute: Callable[[], tuple[Any, list[str], bytes]]) -> int:
    from engine.core.errors import PlayerError

    if getattr(args, "whole_process", False):  # the `warroom` command itself, not a test
        keep_freed_memory()
    try:
        result, lines, png = compute()
    except PlayerError as err:
        shown = copy.copy(err)
        shown.legal = tuple(as_flags(example) for example in err.legal)
        print(f"warroom odds {args.game}: {shown.text()}", file=sys.stderr)
        return 2
    except MemoryError:
        # The command line has no size cap: a battle of thousands of units may need more
        # memory than the machine has.  Said plainly, not as a traceback.  Discord's cap
        # (bot.commands.odds.MAX_UNITS) is written out: importing it here, out of memory,
        # fails (and importing it up front would load the bot's renderer into every
        # one-shot process).
        print(f"warroom odds {args.game}: This battle needs more memory than this machine has; try fewer units"
              " (Discord answers up to 120 a side).", file=sys.stderr)
        return 2
    if args.chart:
        args.chart.write_bytes(png)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print("\n".join(lines))
    return 0


def run_aa(args: argparse.Namespace) -> int:
    def compute() -> tuple[Any, list[str], bytes]:
        from engine.odds.aa import AABattle, aa_odds
        from engine.odds.report import aa_lines

        battle = AABattle.parse(
            args.attacker,
            args.defender,
            mode="sea" if args.sea else "amphibious" if args.amphibious else "land",
            bombard=args.bombard,
            ool_attacker=args.ool_attacker,
            ool_defender=args.ool_defender,
            tech_attacker=args.attacker_tech,
            tech_defender=args.defender_tech,
            rounds=args.rounds,
            retreat_below=args.retreat_below,
            retreat_left=args.retreat_left,
            keep_land_unit=args.keep_land,
            submerge_attacker=args.submerge_attacker,
            submerge_defender=args.submerge_defender,
            low_luck=args.low_luck,
            retreat_after=args.retreat_after,
            retreat_chance=args.retreat_chance,
            rules=args.rules,
            wave2=args.wave2,
            overland=args.overland,
        )
        odds = aa_odds(battle, exact=args.exact)
        lines = aa_lines(odds)
        if not args.chart:
            return odds, lines, b""
        from render.odds_chart import aa_chart

        return odds, lines, aa_chart(odds, lines[0])

    return _run(args, compute)


def run_minis(args: argparse.Namespace) -> int:
    def compute() -> tuple[Any, list[str], bytes]:
        from engine.odds.minis import MinisAttack, minis_odds
        from engine.odds.report import minis_lines

        odds = minis_odds(
            MinisAttack(
                dice=args.dice,
                defense=args.defense,
                die_modifier=args.die_modifier,
                attacker_penalty=args.attacker_penalty,
                target_penalty=args.target_penalty,
                target=args.target,
                target_damaged=args.target_damaged,
                cover=args.cover,
                cover_modifier=args.cover_modifier,
                same_hex=args.same_hex,
                defensive_fire=args.defensive_fire,
                shrapnel=args.shrapnel,
                superior_armor=args.superior_armor,
                armor_piercing=args.armor_piercing,
                heavy_armor=args.heavy_armor,
                overheat=args.overheat,
                attacks=2 if args.double_shot else 1,
            )
        )
        lines = minis_lines(odds)
        png = b""
        if args.chart:
            from render.odds_chart import minis_chart

            png = minis_chart(odds)
        return odds, lines, png

    return _run(args, compute)


def run_memoir(args: argparse.Namespace) -> int:
    def compute() -> tuple[Any, list[str], bytes]:
        from engine.odds.memoir import MemoirRoll, close_assault, memoir_battle, memoir_odds, target_type
        from engine.odds.report import memoir_lines

        roll = MemoirRoll(
            dice=args.dice,
            target=target_type(args.target),
            figures=args.figures,
            blocked=args.blocked,
            retreat_room=args.retreat_room,
            ignore_flags=args.ignore_flags,
        )
        odds = memoir_odds(roll)
        lines = memoir_lines(odds)
        battle = close_assault(
            roll, target_type(args.attacker) if args.attacker else None, ambush_dice=args.ambush_dice,
            attacker_figures=args.attacker_figures, attacker_retreat_room=args.attacker_retreat_room,
            overrun_dice=args.overrun_dice,
            overrun_target=target_type(args.overrun_target) if args.overrun_target else None,
            overrun_figures=args.overrun_figures, overrun_retreat_room=args.overrun_retreat_room,
        )  # fmt: skip
        whole = memoir_battle(battle) if battle is not None else None
        if whole is not None:
            from engine.odds.report import memoir_battle_lines

            lines = memoir_battle_lines(whole) + lines
        png = b""
        if args.chart:
            from render.odds_chart import memoir_chart

            png = memoir_chart(odds, whole)
        return (odds if whole is None else whole), lines, png

    return _run(args, compute)
