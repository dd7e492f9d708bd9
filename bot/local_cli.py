"""``warroom local``: the local channel, interactive or from a script file."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from bot.config import Config


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser(
        "local",
        help="the local channel: the bot's commands in the terminal or from a script",
        description="Run the bot's commands without Discord. Script lines look like "
        "'alice: /roll dice:11d6>=4'; see README.md for directives.",
    )
    p.add_argument("--script", type=Path, help="run this script file and exit")
    p.add_argument("--seed", type=int, help="seed every dice generator (reproducible runs)")
    p.add_argument("--out", type=Path, default=Path("out"), help="folder for images (default: out)")
    p.add_argument("--db", help="database: a SQLite file, sqlite:///PATH or postgresql://… "
                   "(default: a fresh temporary SQLite file for scripts, "
                   "WARROOM_DB or warroom.db interactively)")
    p.set_defaults(func=run_local)


def run_local(args: argparse.Namespace) -> int:
    from bot.commands.odds import configure_from
    from bot.local import run_interactive, run_script

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = Config.load()
    except ValueError as err:
        print(f"warroom local: {err}", file=sys.stderr)
        return 2
    configure_from(config)
    if args.script:
        try:
            text = args.script.read_text(encoding="utf-8")
        except OSError as err:
            print(f"warroom: cannot read {args.script}: {err.strerror}", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="warroom-") as tmp:
            db = args.db or str(Path(tmp) / "script.db")
            return asyncio.run(run_script(text, database=db, out_dir=args.out, seed=args.seed))
    db = args.db or config.database
    return asyncio.run(run_interactive(database=db, out_dir=args.out, seed=args.seed))
