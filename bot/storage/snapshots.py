"""Parsed snapshots kept per game version (and players seen lately), shared by the
storage backends.

A game's snapshot (tens of KB of JSON) changes only with its version, so a backend parses
it once per version: the snapshot a commit just wrote is kept as the dict it was given
(never parsed back), and a read at a version already seen reuses the parsed dict.  The
dicts are shared: nobody may change them (nothing does; the engine's states are frozen
and every change writes a new snapshot).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any, Mapping

KEEP = 512  # games whose last snapshot is kept
SEEN_REFRESH = timedelta(minutes=10)


class SnapshotCache:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._by_game: OrderedDict[int, tuple[int, Mapping[str, Any]]] = OrderedDict()
        self.parsed = 0  # how many snapshots were parsed (tests and benchmarks look)

    def put(self, game_id: int, version: int, snapshot: Mapping[str, Any]) -> None:
        self._by_game[game_id] = (version, snapshot)
        self._by_game.move_to_end(game_id)
        while len(self._by_game) > self.keep:
            self._by_game.popitem(last=False)

    def committed(self, game_id: int, before: int, after: int, written: Mapping[str, Any] | None) -> None:
        """A commit took the game from version ``before`` to ``after`` (call it once the
        commit is stored): keep the snapshot it wrote, or, when it left the snapshot
        alone (seats, settings, an undo request), the one kept for ``before``."""
        if written is None:
            kept = self._by_game.get(game_id)
            if kept is None or kept[0] != before:
                return
            written = kept[1]
        self.put(game_id, after, written)

    def get(self, game_id: int, version: int, text: str) -> Mapping[str, Any]:
        """The snapshot of ``game_id`` at ``version`` (``text`` is parsed only if needed)."""
        kept = self._by_game.get(game_id)
        if kept is not None and kept[0] == version:
            return kept[1]
        snapshot: Mapping[str, Any] = json.loads(text)
        self.parsed += 1
        self.put(game_id, version, snapshot)
        return snapshot


class SeenPlayers:
    """Players whose name and last-seen time were written lately: every command remembers
    its player, and writing the same name again within :data:`SEEN_REFRESH` only moves
    ``last_seen`` a little, so it is skipped (one write less per command)."""

    def __init__(self) -> None:
        self._written: dict[int, tuple[str, datetime]] = {}

    def fresh(self, user_id: int, name: str, now: datetime) -> bool:
        kept = self._written.get(user_id)
        return kept is not None and kept[0] == name and timedelta(0) <= now - kept[1] < SEEN_REFRESH

    def wrote(self, user_id: int, name: str, now: datetime) -> None:
        if len(self._written) > 100_000:
            self._written.clear()
        self._written[user_id] = (name, now)
