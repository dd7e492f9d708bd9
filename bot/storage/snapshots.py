"""Parsed snapshots kept per game version (and players seen lately), shared by the
storage backends; and the snapshot's *parts*, stored apart from it.

A game's snapshot (tens of KB of JSON) changes only with its version, so a backend parses
it once per version: the snapshot a commit just wrote is kept as the dict it was given
(never parsed back), and a read at a version already seen reuses the parsed dict.  The
dicts are shared: nobody may change them (nothing does; the engine's states are frozen
and every change writes a new snapshot).

Parts: a game names the top-level keys of its snapshot that almost never change
(``GameRules.snapshot_parts``: a Miniatures battle's map and unit cards, ~30 KB of its
~33 KB).  Those are written to the game row's ``parts`` column only when they differ
from what the row already holds; the ``snapshot`` column keeps the rest plus the
digest of the parts (``"$parts"``), so a commit serialises a few KB instead of the whole
state.  A part's digest is remembered per Python object, and the engines hand back the
same object for an unchanged part, so an unchanged part is not even serialised to be
compared.  Reading merges them back: every :class:`GameRecord` carries the whole
snapshot, whichever process wrote it.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any, Mapping, NamedTuple, Sequence

from bot.storage.rows import dumps

KEEP = 512  # games whose last snapshot is kept
DIGESTS = 4096  # part values whose digest is remembered
SEEN_REFRESH = timedelta(minutes=10)
PARTS = "$parts"  # key of the stored snapshot holding the digest of its parts


class Stored(NamedTuple):
    """How a snapshot is stored: the ``snapshot`` column's text, the ``parts`` column's
    text (None: leave the column as it is), and which parts it has under what digest."""

    text: str
    parts: str | None = None
    digest: str | None = None
    names: tuple[str, ...] = ()


class _Kept(NamedTuple):
    version: int
    snapshot: Mapping[str, Any]
    digest: str | None  # of the parts the row holds at that version
    names: tuple[str, ...]


class SnapshotCache:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._by_game: OrderedDict[int, _Kept] = OrderedDict()
        # id(value) -> (value, digest): the value is held so its id is not reused
        self._digests: OrderedDict[int, tuple[object, str]] = OrderedDict()
        self.parsed = 0  # how many snapshots were parsed (tests and benchmarks look)
        self.parts_written = 0  # how many times a parts column was written

    def put(self, game_id: int, version: int, snapshot: Mapping[str, Any], digest: str | None = None,
            names: tuple[str, ...] = ()) -> None:
        self._by_game[game_id] = _Kept(version, snapshot, digest, names)
        self._by_game.move_to_end(game_id)
        while len(self._by_game) > self.keep:
            self._by_game.popitem(last=False)

    # ------------------------------------------------------------------ writing

    def _digest_of(self, value: object) -> str:
        kept = self._digests.get(id(value))
        if kept is not None and kept[0] is value:
            self._digests.move_to_end(id(value))
            return kept[1]
        digest = hashlib.sha256(dumps(value).encode()).hexdigest()[:32]
        self._digests[id(value)] = (value, digest)
        while len(self._digests) > DIGESTS:
            self._digests.popitem(last=False)
        return digest

    def stored(self, game_id: int | None, before: int | None, snapshot: Mapping[str, Any],
               apart: Sequence[str]) -> Stored:
        """How to store ``snapshot``, the keys named in ``apart`` as its parts.

        ``game_id``/``before`` name the row version the write replaces (None for a new
        game); the parts are left alone when that version, as kept here, holds the same
        ones.  The write must be conditional on that version (every commit is)."""
        names = tuple(sorted(k for k in set(apart) if k in snapshot))
        if not names:
            return Stored(dumps(snapshot))
        digest = hashlib.sha256(
            "".join(f"{k}={self._digest_of(snapshot[k])};" for k in names).encode()).hexdigest()[:32]
        rest = {k: v for k, v in snapshot.items() if k not in names}
        rest[PARTS] = digest
        stored = None
        if game_id is not None and before is not None:
            kept = self._by_game.get(game_id)
            if kept is not None and kept.version == before:
                stored = kept.digest
        if stored == digest:
            return Stored(dumps(rest), None, digest, names)
        self.parts_written += 1
        return Stored(dumps(rest), dumps({k: snapshot[k] for k in names}), digest, names)

    def committed(self, game_id: int, before: int, after: int, written: Mapping[str, Any] | None,
                  stored: Stored | None = None) -> None:
        """A commit took the game from version ``before`` to ``after`` (call it once the
        commit is stored): keep the snapshot it wrote (``stored`` says how), or, when it
        left the snapshot alone (seats, settings, an undo request), the one kept for
        ``before``."""
        if written is None:
            kept = self._by_game.get(game_id)
            if kept is None or kept.version != before:
                return
            self.put(game_id, after, kept.snapshot, kept.digest, kept.names)
            return
        self.put(game_id, after, written, stored.digest if stored else None, stored.names if stored else ())

    # ------------------------------------------------------------------ reading

    def get(self, game_id: int, version: int, text: str, parts: str | None = None) -> Mapping[str, Any]:
        """The whole snapshot of ``game_id`` at ``version`` from its row's ``snapshot``
        and ``parts`` columns (parsed only if needed; parts already known for the game
        are not parsed again)."""
        kept = self._by_game.get(game_id)
        if kept is not None and kept.version == version:
            return kept.snapshot
        snapshot: dict[str, Any] = json.loads(text)
        self.parsed += 1
        digest = snapshot.pop(PARTS, None)
        names: tuple[str, ...] = ()
        if digest is not None:
            if kept is not None and kept.digest == digest:
                names = kept.names
                snapshot.update((k, kept.snapshot[k]) for k in names)
            else:
                if parts is None:
                    raise ValueError(f"game {game_id}: its snapshot names parts its row does not hold")
                held: dict[str, Any] = json.loads(parts)
                names = tuple(sorted(held))
                snapshot.update(held)
        self.put(game_id, version, snapshot, digest, names)
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
