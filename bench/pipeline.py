"""The whole pipeline under load: 100 A&A Miniatures battles at once, each issuing random
legal orders back to back (no think time) through the real command handlers (the local
channel's path: ``dispatch`` → session → engine → storage → reply → phase report with
its map image → ping), on SQLite and on PostgreSQL.

Each backend runs in its own process (``python -m bench.pipeline BACKEND``) so its
resident memory is its own.  Figures, per backend:

- ``pipeline-p50-ms-100-games-<backend>``, ``pipeline-p99-ms-100-games-<backend>``: time
  from a command's start to its end (every reply, report and ping sent);
- ``pipeline-first-reply-p99-ms-<backend>``, ``pipeline-first-reply-max-ms-<backend>``:
  time to the command's first answer (what Discord's three-second limit is about);
- ``pipeline-commands-per-second-<backend>``; ``pipeline-images-<backend>`` (phase maps
  drawn during the run);
- ``pipeline-rss-mb-100-games-<backend>``: resident memory at the end, all games live;
- ``pipeline-…-100-games-think-1s-<backend>``: the same games played by players who think
  between orders (exponential, mean ``WARROOM_BENCH_THINK_S``, 1 s) and open their games
  within the first 5 s: the latency a deployment sees below saturation.

With no think time, 100 games keep ~100 commands in flight, so (Little's law) the mean
command time is 100 / throughput: at 150 commands/s it is ~670 ms, and a p99 under
300 ms would need well over 333 commands/s.  The think-time figures show latency at a
load the machine can carry.

PostgreSQL is a throw-away server started like the tests' (tests/storage/pg_server.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable

GAMES = int(os.environ.get("WARROOM_BENCH_GAMES", "100"))
COMMANDS_PER_GAME = int(os.environ.get("WARROOM_BENCH_COMMANDS", "25"))
THINK_S = float(os.environ.get("WARROOM_BENCH_THINK_S", "1"))
BACKENDS = ("sqlite", "postgresql")


class Quiet:
    """A channel that keeps nothing but the time of the first answer."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.images = 0

    def _seen(self, message: Any) -> None:
        if self.first is None:
            self.first = time.perf_counter()
        self.images += len(getattr(message, "files", ()))

    async def reply(self, message: Any) -> None:
        self._seen(message)

    async def post(self, channel_id: int, message: Any) -> None:
        self._seen(message)

    async def dm(self, user_id: int, message: Any) -> bool:
        return False

    async def create_thread(self, channel_id: int, name: str) -> int:
        raise RuntimeError("no threads in the benchmark")


async def _run(database: str, think_s: float = 0.0) -> dict[str, float]:
    from bot.app import App, dispatch
    from bot.command_line import parse_command
    from bot.context import Actor
    from bot.games import front_for
    from engine.minis.randomplay import Policy, random_order

    from bot import render_pool

    render_pool.configure(render_pool.default_processes())
    await render_pool.warm()
    app = await App.start(database, seed=7)
    front = front_for("minis")
    policy = Policy(p_timeout=0.0, p_standing=0.0, p_done=0.25, max_units=3)
    totals: list[float] = []
    firsts: list[float] = []
    images = 0
    bugs_before = len(app.bugs)

    async def command(channel_id: int, actor: Actor, line: str) -> None:
        nonlocal images
        path, options = parse_command(line)
        channel = Quiet()
        start = time.perf_counter()
        await dispatch(app, actor=actor, channel=channel, channel_id=channel_id, guild_id=1,
                       path=path, options=options)
        end = time.perf_counter()
        totals.append(end - start)
        firsts.append((channel.first or end) - start)
        images += channel.images

    async def game(n: int) -> None:
        rng = random.Random(n)
        channel_id = 10_000 + n
        players = {"axis": Actor(2 * n + 1, f"a{n}"), "allies": Actor(2 * n + 2, f"b{n}")}
        if think_s:  # thinking players do not all open their games in the same instant
            await asyncio.sleep(rng.uniform(0, 5 * think_s))
        await command(channel_id, players["axis"], "/minis new side:axis")
        await command(channel_id, players["allies"], "/minis join")
        for _ in range(COMMANDS_PER_GAME):
            loaded = await app.sessions.find(channel_id)
            if loaded is None or not loaded.pending:
                return
            seat, order = random_order(loaded.state, rng, policy)
            line = front.slash(loaded.rules.format_order(loaded.state, order))
            if line is None or seat not in players:
                return
            if think_s:
                await asyncio.sleep(rng.expovariate(1 / think_s))
            await command(channel_id, players[seat], line)

    start = time.perf_counter()
    await asyncio.gather(*(game(n) for n in range(GAMES)))
    wall = time.perf_counter() - start
    rss_mb = _rss_mb()
    workers_mb = _workers_rss_mb()
    bugs = len(app.bugs) - bugs_before
    await app.close()
    totals.sort()
    firsts.sort()
    return {
        "p50": 1000 * totals[len(totals) // 2],
        "p99": 1000 * totals[int(len(totals) * 0.99)],
        "first_p99": 1000 * firsts[int(len(firsts) * 0.99)],
        "first_max": 1000 * firsts[-1],
        "cps": len(totals) / wall,
        "rss": rss_mb,
        "workers_rss": workers_mb,
        "images": images,
        "commands": len(totals),
        "bugs": bugs,
    }


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _workers_rss_mb() -> float:
    """Resident memory of this process's children (the render workers)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) != os.getpid():
                continue
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (OSError, IndexError, ValueError):
            continue
    return total


def _database(backend: str, folder: str) -> str:
    if backend == "sqlite":
        return f"sqlite:///{folder}/bench.db"
    from tests.storage import pg_server

    return pg_server.fresh_database()


def main(argv: list[str]) -> int:
    backend = argv[0] if argv else "sqlite"
    think_s = float(argv[1]) if len(argv) > 1 else 0.0
    with tempfile.TemporaryDirectory(prefix="warroom-bench-") as folder:
        result = asyncio.run(_run(_database(backend, folder), think_s))
    print(json.dumps(result))
    return 0


def _measure(backend: str, think_s: float = 0.0) -> dict[str, Any] | str:
    """One run in its own process (its memory its own): the figures, or why it failed."""
    done = subprocess.run([sys.executable, "-m", "bench.pipeline", backend, str(think_s)],
                          cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True)
    if done.returncode != 0:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    got: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return got


def figures() -> Iterable[tuple[str, object]]:
    for backend in BACKENDS:
        r = _measure(backend)
        if isinstance(r, str):
            yield f"pipeline-{backend}", r
            continue
        yield f"pipeline-p50-ms-{GAMES}-games-{backend}", round(r["p50"])
        yield f"pipeline-p99-ms-{GAMES}-games-{backend}", round(r["p99"])
        yield f"pipeline-first-reply-p99-ms-{backend}", round(r["first_p99"])
        yield f"pipeline-first-reply-max-ms-{backend}", round(r["first_max"])
        yield f"pipeline-commands-per-second-{backend}", round(r["cps"], 1)
        yield f"pipeline-rss-mb-{GAMES}-games-{backend}", round(r["rss"])
        yield f"pipeline-render-workers-rss-mb-{backend}", round(r["workers_rss"])
        yield f"pipeline-images-{backend}", r["images"]
        yield f"pipeline-commands-{backend}", r["commands"]
        if r["bugs"]:
            yield f"pipeline-bugs-{backend}", r["bugs"]
        # The same games with players who think between orders (exponential, mean THINK_S):
        # the latency a deployment sees below saturation.
        r = _measure(backend, THINK_S)
        if isinstance(r, str):
            yield f"pipeline-think-{backend}", r
            continue
        think = f"{GAMES}-games-think-{THINK_S:g}s-{backend}"
        yield f"pipeline-p50-ms-{think}", round(r["p50"])
        yield f"pipeline-p99-ms-{think}", round(r["p99"])
        yield f"pipeline-first-reply-max-ms-{think}", round(r["first_max"])
        yield f"pipeline-commands-per-second-{think}", round(r["cps"], 1)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
