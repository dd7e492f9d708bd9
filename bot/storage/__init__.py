"""Storage behind one repository interface (design.md): games, seats, players, settings
and the append-only order log.

:func:`open_repository` picks the backend from a database address (``WARROOM_DB``):
``sqlite:///path/to/file.db`` (or a plain path) for the embedded SQLite default,
``postgresql://user@host/db`` for PostgreSQL.
"""

from __future__ import annotations

from bot.storage.repository import (
    GameRecord,
    NewOrder,
    OrderRecord,
    Repository,
    VersionConflict,
)

__all__ = ["GameRecord", "NewOrder", "OrderRecord", "Repository", "VersionConflict",
           "open_repository", "describe"]


def describe(address: str) -> tuple[str, str]:
    """(backend, what it points at) for a database address."""
    text = str(address).strip()
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql", text
    if text.startswith("sqlite:///"):
        return "sqlite", text[len("sqlite:///"):] or ":memory:"
    if text.startswith("sqlite://"):
        return "sqlite", text[len("sqlite://"):] or ":memory:"
    if "://" in text:
        raise ValueError(f"unknown database address {text!r}: use sqlite:///path or postgresql://…")
    return "sqlite", text


async def open_repository(address: str) -> Repository:
    """Open (and migrate) the repository at ``address``."""
    backend, target = describe(address)
    repo: Repository
    if backend == "postgresql":
        from bot.storage.postgres import PostgresRepository

        repo = PostgresRepository(target)
    else:
        from bot.storage.sqlite import SqliteRepository

        repo = SqliteRepository(target)
    await repo.open()
    return repo
