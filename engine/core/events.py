"""Events: what happened, as frozen dataclasses the bot narrates.

Subclass :class:`Event` with ``@dataclass(frozen=True)``.  ``to_dict`` gives a JSON-ready
form (``{"type": ClassName, ...fields}``) for the order log.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from engine.core.hexgrid import Hex


def plain(value: Any) -> Any:
    """A JSON-ready copy: dataclasses → dicts, hexes → [q, r], enums → values."""
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    return value


@dataclass(frozen=True)
class Event:
    """Base of every engine event."""

    def to_dict(self) -> dict[str, Any]:
        body = plain(self)
        assert isinstance(body, dict)
        return {"type": type(self).__name__, **body}
