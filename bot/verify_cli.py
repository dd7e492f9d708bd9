"""``warroom verify --export FILE [--json]``: check every die of an exported game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.verify import BadExport, verify_export


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("verify", help="check every die of an exported game (docs/fair-dice.md)")
    p.add_argument("--export", type=Path, required=True, metavar="FILE",
                   help="the JSON file of /<game> log export:true")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    """0: every die matches; 1: a mismatch (printed); 2: the file cannot be checked."""
    try:
        data = json.loads(Path(args.export).read_text(encoding="utf-8"))
        verdict = verify_export(data)
    except (OSError, json.JSONDecodeError, BadExport, KeyError, TypeError, ValueError) as err:
        print(f"warroom verify: cannot check {args.export}: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"ok": verdict.ok, "dice": verdict.dice, "problem": verdict.problem or None}))
    else:
        print(verdict.text())
    return 0 if verdict.ok else 1
