"""``warroom run``: the bot on Discord, or the local channel when no token is set."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import Config


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("run", help="run the bot (Discord with DISCORD_TOKEN, else the local channel)")
    p.add_argument("--env-file", type=Path, default=Path(".env"), help="settings file (default .env)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = Config.load(args.env_file)
    logging.basicConfig(
        level=getattr(logging, config.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not config.discord_token:
        if not sys.stdin.isatty():
            # In a container or a service, nobody could type into the local channel: say
            # so and fail, rather than read end-of-input and exit 0 as if all were well.
            print("warroom run: no DISCORD_TOKEN is set (in the environment or .env) and there is no "
                  "terminal for the local channel; set DISCORD_TOKEN, or use `warroom local`.",
                  file=sys.stderr)
            return 2
        from bot.local import run_interactive

        print("No DISCORD_TOKEN configured: opening the local channel "
              "(try /help or /roll dice:11d6>=4; /quit to leave).", flush=True)
        return asyncio.run(run_interactive(database=config.database, out_dir=Path("out")))
    from bot.discord_app import run_discord

    return run_discord(config)
