"""``warroom league export NAME --db PATH`` (CSV of every result) and
``warroom league show NAME --db PATH [--json]`` (standings and rounds).

A league's name is unique per server; when several servers of one database have a
league of that name, ``--guild ID`` says which."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

from bot.league import store
from bot.league.export import pairings_text, results_csv, show_json, standings_text


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("league", help="look at a league stored in a database: export, show")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    for verb, text in (("export", "every result as CSV"), ("show", "standings and rounds")):
        v = verbs.add_parser(verb, help=text)
        v.add_argument("name", help="the league's name")
        v.add_argument("--db", default=os.environ.get("WARROOM_DB", "warroom.db"),
                       help="database path or address (default: $WARROOM_DB or warroom.db)")
        v.add_argument("--guild", type=int, help="the server's id, when several have that league name")
        if verb == "show":
            v.add_argument("--json", action="store_true", help="machine-readable output")
        v.set_defaults(func=run_league)


def run_league(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    from bot.storage import describe, open_repository

    backend, where = describe(args.db)
    if backend == "sqlite" and where != ":memory:" and not os.path.exists(where):
        print(f"warroom league: no database at {where}", file=sys.stderr)
        return 2
    repo = await open_repository(args.db)
    try:
        found = [s for s in await store.all_leagues(repo, args.guild)
                 if s.league.name.lower() == args.name.strip().lower()]
    finally:
        await repo.close()
    if not found:
        print(f"warroom league: no league named {args.name!r}", file=sys.stderr)
        return 2
    if len(found) > 1:
        guilds = ", ".join(str(s.guild) for s in found)
        print(f"warroom league: several servers have a league {args.name!r}; say which with --guild ({guilds})",
              file=sys.stderr)
        return 2
    league = found[0].league
    if args.verb == "export":
        sys.stdout.write(results_csv(league))
    elif args.json:
        print(json.dumps(show_json(league), ensure_ascii=False))
    else:
        print(standings_text(league))
        for r in league.paired:
            print()
            print(pairings_text(league, r.number))
    return 0
