"""``warroom run``: the bot on Discord, or the local channel when no token is set.

``--shards 0,1 --shard-count 4`` (or ``WARROOM_SHARDS`` / ``WARROOM_SHARD_COUNT``) runs
shards 0 and 1 of 4 in this process: a deployment starts one process per group of
shards, all on the same PostgreSQL database (``WARROOM_DB=postgresql://…``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from dataclasses import replace
from pathlib import Path

from bot.config import Config


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("run", help="run the bot (Discord with DISCORD_TOKEN, else the local channel)")
    p.add_argument("--env-file", type=Path, default=Path(".env"), help="settings file (default .env)")
    p.add_argument("--db", help="database: sqlite:///PATH, a SQLite file or postgresql://… "
                   "(default: WARROOM_DB, else warroom.db)")
    p.add_argument("--shards", help="the Discord shards this process runs, e.g. 0,1 "
                   "(with --shard-count; default WARROOM_SHARDS, else all shards in one process)")
    p.add_argument("--shard-count", type=int, help="how many shards the whole deployment has "
                   "(default WARROOM_SHARD_COUNT)")
    p.add_argument("--check", action="store_true",
                   help="check the settings and the database (opening and migrating it), then exit"
                   " without connecting to Discord (a deployment's preflight)")
    p.set_defaults(func=run)


def check(database: str, shard_ids: list[int] | None, shard_count: int | None, token: bool) -> int:
    """``warroom run --check``: open (and migrate) the database, say what would run."""
    from bot.storage import describe, open_repository
    from bot.storage.postgres import DatabaseUnavailable
    from bot.storage.repository import SchemaTooNew

    async def probe() -> tuple[int, int]:
        repo = await open_repository(database)
        try:
            return await repo.schema_version(), len(await repo.live_games())
        finally:
            await repo.close()

    try:
        backend, _ = describe(database)
        version, live = asyncio.run(probe())
    except (DatabaseUnavailable, SchemaTooNew, OSError, ValueError) as err:
        print(f"warroom run --check: {err}", file=sys.stderr)
        return 1
    shards = ("all shards" if shard_ids is None
              else f"shards {','.join(map(str, shard_ids))} of {shard_count}")
    print(f"warroom run --check: ok: {backend} database at schema version {version}, {live} live games;"
          f" this process would run {shards}"
          + ("" if token else " (no DISCORD_TOKEN: the local channel)"), flush=True)
    return 0


def parse_shards(text: str | None, count: int | None) -> tuple[list[int] | None, int | None]:
    """(shard ids, shard count) from the options, or (None, None) when not sharded."""
    if not text and count is None:
        return None, None
    if not text or count is None:
        raise ValueError("--shards and --shard-count go together, e.g. --shards 0,1 --shard-count 4")
    try:
        ids = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise ValueError(f"--shards takes shard numbers separated by commas (e.g. 0,1), not {text!r}") from None
    from bot.discord_app import check_shards

    check_shards(ids, count)
    return ids, count


def run(args: argparse.Namespace) -> int:
    try:
        config = Config.load(args.env_file)
    except ValueError as err:
        print(f"warroom run: {err}", file=sys.stderr)
        return 2
    if args.db:
        config = replace(config, database=args.db)
    count_text = config.shard_count
    try:
        if args.shard_count is not None or not count_text:
            count = args.shard_count
        elif count_text.isdigit():
            count = int(count_text)
        else:
            raise ValueError(f"WARROOM_SHARD_COUNT must be a number of shards (e.g. 4), not {count_text!r}")
        shard_ids, shard_count = parse_shards(args.shards or config.shards, count)
    except ValueError as err:
        print(f"warroom run: {err}", file=sys.stderr)
        return 2
    if args.check:
        return check(config.database, shard_ids, shard_count, bool(config.discord_token))
    from bot.commands.odds import configure_from

    configure_from(config)
    logging.basicConfig(
        level=getattr(logging, config.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not config.discord_token:
        if shard_ids is not None:
            print("warroom run: --shards needs DISCORD_TOKEN (shards are Discord connections)",
                  file=sys.stderr)
            return 2
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

    return run_discord(config, shard_ids=shard_ids, shard_count=shard_count)
