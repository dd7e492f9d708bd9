"""The static-layer cache: what depends only on a board (terrain, grid, labels, frame)
is drawn once and reused by every phase image of that board.

Keys are the board's *content* (a fingerprint the game computes), found through a weak
per-object memo, so a board rebuilt from a saved game hits the cache too and the
fingerprint of a live object is computed once.  Thread-safe (the bot renders in worker
threads); a miss draws outside the lock.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class LayerCache(Generic[V]):
    """An LRU of drawn layers keyed by (content fingerprint, options)."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._memo: weakref.WeakKeyDictionary[object, Hashable] = weakref.WeakKeyDictionary()
        self._layers: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.stats = {"hits": 0, "misses": 0}

    def clear(self) -> None:
        with self._lock:
            self._layers.clear()
            self._memo.clear()
            self.stats["hits"] = self.stats["misses"] = 0

    def get(self, board: object, fingerprint: Callable[[object], Hashable], options: Hashable,
            draw: Callable[[], V]) -> V:
        """The layer of ``board`` with ``options`` (drawn by ``draw`` on a miss)."""
        with self._lock:
            fp = self._memo.get(board)
            if fp is None:
                fp = fingerprint(board)
                self._memo[board] = fp
            key = (fp, options)
            hit = self._layers.get(key)
            if hit is not None:
                self._layers.move_to_end(key)
                self.stats["hits"] += 1
                return hit
            self.stats["misses"] += 1
        layer = draw()
        with self._lock:
            self._layers[key] = layer
            while len(self._layers) > self.size:
                self._layers.popitem(last=False)
        return layer
