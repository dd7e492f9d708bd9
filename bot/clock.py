"""Time, kept out of the engine: the bot asks a clock.  Local scripts use a manual clock
(``!wait 2d``) so reminders and timeouts can be exercised without waiting."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Protocol

from engine.core.errors import NotationError


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class ManualClock:
    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> None:
        self._now += delta


def iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).isoformat(timespec="seconds")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


_DURATION = re.compile(r"^\s*(\d{1,12}(?:\.\d{1,6})?)\s*([smhd])\s*$", re.IGNORECASE)
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
LONGEST = timedelta(days=365)
OFF = ("off", "never", "0", "none")


def parse_duration(text: str) -> timedelta:
    """``90m``, ``12h``, ``3d`` → a timedelta of at most a year; a player error otherwise."""
    m = _DURATION.match(text)
    if not m:
        raise NotationError(f"'{text[:40]}' is not a duration.", legal=("30m", "12h", "3d"))
    value = float(m.group(1))
    seconds = value * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2).lower()]
    if seconds > LONGEST.total_seconds():
        raise NotationError(f"'{text.strip()}' is longer than a year.", legal=("12h", "3d", "30d", "off"))
    return timedelta(seconds=seconds)


def parse_delay(text: str | None) -> timedelta | None:
    """A duration, or None for ``off``/``never``/empty: how the game settings are written."""
    if text is None or not str(text).strip() or str(text).strip().lower() in OFF:
        return None
    return parse_duration(str(text))
