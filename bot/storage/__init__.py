"""Storage behind one repository interface (design.md): games, seats, players and the
append-only order log.  :mod:`bot.storage.sqlite` is the embedded default backend."""

from bot.storage.repository import (
    GameRecord,
    NewOrder,
    OrderRecord,
    Repository,
    VersionConflict,
)

__all__ = ["GameRecord", "NewOrder", "OrderRecord", "Repository", "VersionConflict"]
