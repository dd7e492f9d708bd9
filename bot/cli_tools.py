"""What the game look-up commands (``warroom minis|memoir|aa …``) share: a player error
is one ``error: …`` line and exit status 2; a bare group prints its help; JSON output
is indented UTF-8."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from engine.core.errors import PlayerError

EXIT_PLAYER_ERROR = 2


def show_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return EXIT_PLAYER_ERROR


def guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``handler``, with a player error printed as one line (exit status 2)."""
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except PlayerError as e:
            print(f"error: {e.text()}", file=sys.stderr)
            return EXIT_PLAYER_ERROR
    return run


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))
