"""Local-channel scripts shared by the /aa bot tests (1942: Japan moves first, A-1.3).

Seats: alice plays Japan and Italy, dave Germany (the Axis as two people); bob plays the
Soviet Union and the United Kingdom, carol the United States and China (the Allies)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.local_scripts import run_local

OPEN = """\
alice: /aa new setup:1942 side:"Japan, Italy"
dave: /aa join side:Germany
bob: /aa join side:"Soviet Union, United Kingdom"
carol: /aa join side:"United States, China"
"""
# Japan skips research and buys nothing yet.
TO_COMBAT_MOVE = OPEN + """\
alice: /aa done
alice: /aa done
"""
# Manchuria's 2 inf and 1 fighter attack Suiyuan (2 Chinese inf).  Dice: attacker inf
# 1 6 (one hit at 1), fighter 3 (a hit at 3); defender inf 1 6 (one hit at 2).
TO_CASUALTIES = TO_COMBAT_MOVE + """\
alice: /aa move units:"2 inf, 1 fig" from:Manchuria to:Suiyuan
!dice 1 6 3 1 6
alice: /aa done
"""


async def run(script: str, tmp_path: Path, seed: int = 11) -> tuple[int, str]:
    return await run_local(script, tmp_path, "aa.db", seed)
