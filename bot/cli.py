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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Every sub-command, or with ``only`` just that one's module (``bot/<only>_cli.py``)
    when it exists: one-shot commands then skip importing every other game."""
    parser = argparse.ArgumentParser(
        prog="warroom", description="Play-by-post WWII wargames for Discord, and quick dice/odds."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(info.name for info in pkgutil.iter_modules(bot.__path__) if info.name.endswith("_cli"))
    if only is not None and f"{only}_cli" in names:
        names = [f"{only}_cli"]
    for name in names:
        importlib.import_module(f"bot.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a sub-command; ``argv`` None: this process is the ``warroom`` command itself
    (``args.whole_process``: a one-shot command may then tune the process)."""
    whole_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
    args = parser.parse_args(argv)
    args.whole_process = whole_process
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
