"""``warroom migrate --from sqlite:///PATH --to postgresql://…``: move a deployment from
its SQLite file to PostgreSQL (bot/storage/copy.py), nothing lost, checked afterwards."""

from __future__ import annotations

import argparse
import asyncio
import sys


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("migrate", help="copy every game, order and setting from SQLite to PostgreSQL",
                       description="Copy a Warroom SQLite database into an empty PostgreSQL "
                       "database (stop the bot first), then check both read back the same.")
    p.add_argument("--from", dest="source", required=True, help="sqlite:///PATH (the bot's WARROOM_DB)")
    p.add_argument("--to", dest="target", required=True, help="postgresql://USER:PASSWORD@HOST/DB")
    p.set_defaults(func=run_migrate)


def run_migrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.storage import describe
    from bot.storage.copy import CopyRefused, copy_sqlite_to_postgres
    from bot.storage.postgres import DatabaseUnavailable

    try:
        kind, path = describe(args.source)
    except ValueError as err:
        print(f"warroom migrate: {err}", file=sys.stderr)
        return 2
    if kind == "sqlite" and not Path(path).is_file():
        print(f"warroom migrate: there is no SQLite database at {path}", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(copy_sqlite_to_postgres(
            args.source, args.target, progress=lambda text: print(f"copied {text}", flush=True)))
    except (CopyRefused, DatabaseUnavailable, ValueError) as err:
        print(f"warroom migrate: {err}", file=sys.stderr)
        return 2
    print(f"done: {copied.games} games, {copied.orders} order-log rows, {copied.players} players, "
          f"{copied.settings} settings, {copied.documents} documents; both databases read back the same. "
          "Start the bot with WARROOM_DB set to the --to address.")
    return 0
