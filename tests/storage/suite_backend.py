"""Running the whole local-channel suite on PostgreSQL (``WARROOM_TEST_BACKEND=postgresql``,
the extra step of ``make test``).

Every test opens its database through :func:`bot.storage.open_repository` with a SQLite
path in its own temporary folder.  In PostgreSQL mode that call is redirected: each
distinct path becomes its own schema in one database of the test server, so two Apps
opened on the same path (two "processes") share a database exactly as they would share a
SQLite file, and every test still starts empty.  Scripts run as a subprocess (the example
battle) are given ``--db`` with a fresh PostgreSQL database instead.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Awaitable, Callable

import asyncpg

from bot.storage import describe
from bot.storage.repository import Repository
from tests.storage import pg_server

ENV = "WARROOM_TEST_BACKEND"


def backend() -> str:
    value = os.environ.get(ENV, "sqlite").strip().lower() or "sqlite"
    if value not in ("sqlite", "postgresql"):
        raise RuntimeError(f"{ENV} must be sqlite or postgresql, not {value!r}")
    return value


def on_postgres() -> bool:
    return backend() == "postgresql"


def script_db_args() -> list[str]:
    """Extra ``warroom local`` arguments so a script runs on the suite's backend."""
    return ["--db", pg_server.fresh_database()] if on_postgres() else []


_suite_db: str | None = None


def _suite_database() -> str:
    global _suite_db
    if _suite_db is None:
        _suite_db = pg_server.fresh_database()
    return _suite_db


def _schema(target: str) -> str:
    return "s_" + hashlib.sha1(os.path.abspath(target).encode()).hexdigest()[:20]


def db_address(path: str) -> str:
    """The address a command-line tool should be given for a database the suite opened at
    ``path``: the path itself on SQLite, its PostgreSQL schema on the PostgreSQL pass."""
    return f"{_suite_database()}?search_path={_schema(path)}" if on_postgres() else path


def redirect(original: Callable[[str], Awaitable[Repository]]) -> Callable[[str], Awaitable[Repository]]:
    """``open_repository`` that puts every SQLite address in a PostgreSQL schema of its own."""

    async def open_on_postgres(address: Any) -> Repository:
        kind, target = describe(str(address))
        if kind != "sqlite":
            return await original(str(address))
        schema = _schema(target)
        base = _suite_database()
        conn = await asyncpg.connect(base)
        try:
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        finally:
            await conn.close()
        return await original(f"{base}?search_path={schema}")

    return open_on_postgres
