"""The storage backends every contract test runs against (real servers, never mocks).

``backend`` yields a factory opening a fresh repository on a fresh database of that
backend; a second call opens a second connection (another "process") on the same one.
PostgreSQL is a real server the tests start themselves (tests/storage/pg_server.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable

import pytest

from bot.storage import open_repository
from bot.storage.repository import Repository
from tests.storage import pg_server

Open = Callable[[], Awaitable[Repository]]
BACKENDS = ["sqlite", "postgresql"]


def address_for(backend: str, tmp_path: Path) -> str:
    if backend == "postgresql":
        return pg_server.fresh_database()
    return f"sqlite:///{tmp_path / 'contract.db'}"


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Open]:
    address = address_for(request.param, tmp_path)
    opened: list[Repository] = []

    async def make() -> Repository:
        repo = await open_repository(address)
        opened.append(repo)
        return repo

    yield make
    for repo in opened:
        await repo.close()
