"""Running a script on the local channel and reading what it printed: shared by every
game's bot tests (``tests/bot/minis_scripts.py``, ``tests/bot/aa/scripts.py``,
``tests/bot/memoir/scripts.py``) and the example battle."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.local import run_script


async def run_local(script: str, tmp_path: Path, database: str, seed: int) -> tuple[int, str]:
    """Play ``script`` on a fresh database file ``tmp_path / database``: the exit code
    and everything printed."""
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / database, out_dir=tmp_path / "img", seed=seed, out=out)
    return code, out.getvalue()


def blocks(out: str) -> list[str]:
    """The printed messages: each starts with "[#channel]", "[to NAME]", "[dm to NAME]"
    or "!!" (a failed script directive)."""
    return re.split(r"\n(?=\[|!!)", out)


def public(out: str) -> str:
    """Everything printed to the channel (not the private replies, nor DMs)."""
    return "\n".join(b for b in blocks(out) if b.startswith("[#"))


def replies_to(out: str, name: str) -> str:
    """Everything only ``name`` sees: private replies and DMs."""
    return "\n".join(b for b in blocks(out) if b.startswith(f"[to {name}]") or b.startswith(f"[dm to {name}]"))
