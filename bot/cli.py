"""The ``warroom`` command line.

Sub-commands come from every module named ``bot/*_cli.py``: each defines
``register(subparsers)`` that adds its parser and sets ``func`` (``args -> exit code``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from typing import Sequence

import bot


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="warroom", description="Play-by-post WWII wargames for Discord, and quick dice/odds."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(bot.__path__), key=lambda m: m.name):
        if info.name.endswith("_cli"):
            importlib.import_module(f"bot.{info.name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `warroom minis units | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
