"""Settings from the environment or a ``.env`` file (simple ``KEY=VALUE`` lines)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ODDS_KEEP_S = 300.0  # WARROOM_ODDS_KEEP_S when unset: seconds a big battle's freed memory is kept


def read_env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class Config:
    discord_token: str | None
    dev_guild_id: int | None
    database: str
    log_level: str
    shards: str = ""  # WARROOM_SHARDS: this process's Discord shards, e.g. "0,1" (warroom run)
    shard_count: str = ""  # WARROOM_SHARD_COUNT: the deployment's shard count
    odds_big: bool = False  # WARROOM_ODDS_BIG: /odds aa computes battles past its work limits too
    odds_big_mb: int | None = None  # WARROOM_ODDS_BIG_MB: each such battle's memory cap (MB)
    odds_keep_s: float = ODDS_KEEP_S  # WARROOM_ODDS_KEEP_S: a big battle's freed memory kept this long (s)

    @classmethod
    def load(cls, env_file: Path | None = None) -> "Config":
        """The environment wins over ``.env`` (default: ``.env`` in the working directory)."""
        merged = {**read_env_file(env_file or Path(".env")), **os.environ}
        guild = merged.get("DEV_GUILD_ID", "").strip()
        return cls(
            discord_token=merged.get("DISCORD_TOKEN", "").strip() or None,
            dev_guild_id=int(guild) if guild.isdigit() else None,
            database=merged.get("WARROOM_DB", "").strip() or "warroom.db",
            log_level=merged.get("WARROOM_LOG", "").strip().upper() or "INFO",
            shards=merged.get("WARROOM_SHARDS", "").strip(),
            shard_count=merged.get("WARROOM_SHARD_COUNT", "").strip(),
            odds_big=merged.get("WARROOM_ODDS_BIG", "").strip().lower() in ("1", "true", "yes", "on"),
            odds_big_mb=_megabytes(merged.get("WARROOM_ODDS_BIG_MB", "")),
            odds_keep_s=_seconds(merged.get("WARROOM_ODDS_KEEP_S", "")),
        )


def _megabytes(text: str) -> int | None:
    """A memory cap in MB (``"2000"``); None when unset.  Anything else is refused at
    start, never read as "no cap"."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 200:
        raise ValueError(f"WARROOM_ODDS_BIG_MB must be a number of megabytes, 200 or more (e.g. 2000), not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    """How long to keep a big battle's freed memory, in seconds (``"300"``, ``"0"``:
    give it back at once); ODDS_KEEP_S when unset.  Anything else is refused at start."""
    text = text.strip()
    if not text:
        return ODDS_KEEP_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 86_400:
        raise ValueError(f"WARROOM_ODDS_KEEP_S must be a number of seconds from 0 to 86400 (e.g. 300), not {text!r}")
    return value
