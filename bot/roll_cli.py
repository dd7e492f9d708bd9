"""``warroom roll "11d6>=4" [--seed N] [--json]``."""

from __future__ import annotations

import argparse
import json
import sys

from bot.dice_service import DiceService
from bot.roll import roll
from engine.core.errors import PlayerError


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("roll", help="roll dice notation: 2d6, 3d6+2, 4d6kh3, 11d6>=4")
    p.add_argument("expression", help="dice notation; NdS>=T counts successes")
    p.add_argument("--seed", type=int, help="reproducible dice")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run_roll)


def run_roll(args: argparse.Namespace) -> int:
    try:
        result = roll(args.expression, DiceService(args.seed).quick())
    except PlayerError as err:
        print(f"warroom roll: {err.text()}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.text().replace("**", "").replace("~~", "").replace("`", ""))
    return 0
