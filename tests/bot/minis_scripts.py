"""Local-channel scripts shared by the /minis bot tests."""

from __future__ import annotations

from pathlib import Path

from tests.bot.local_scripts import run_local

# Two small armies on configuration 3 ("Highland"); Axis deploys west, Allies east.
# Unit ids follow list order: ax1 Panzer IV, ax2/ax3 Kar 98k, ax4 MG 42, ax5 SS officer;
# al1 Sherman, al2/al3 M1 Garand, al4 Bazooka, al5 Red Devil Captain.
OPEN = """\
alice: /minis new side:axis map:3
bob: /minis join
alice: /minis army units:"Panzer IV Ausf. G, 2 Mauser Kar 98k, MG 42 Machine-Gun Team, SS-Hauptsturmführer" ready:true
!dice 1
bob: /minis army units:"M4A1 Sherman, 2 M1 Garand Rifle, Bazooka, Red Devil Captain" ready:true
"""
# Axis won the coin toss (die 1 when both are ready) and deploys first at the west end.
DEPLOY = """\
alice: /minis initiative choice:first
alice: /minis deploy end:west
alice: /minis deploy unit:ax1 to:C8 face:SE
alice: /minis deploy unit:ax2 to:D7
alice: /minis deploy unit:ax3 to:D9
alice: /minis deploy unit:ax4 to:E8
alice: /minis deploy unit:ax5 to:D8
alice: /minis done
bob: /minis deploy unit:al1 to:P8 face:NW
bob: /minis deploy unit:al2 to:O7
bob: /minis deploy unit:al3 to:O9
bob: /minis deploy unit:al4 to:O8
bob: /minis deploy unit:al5 to:P7
bob: /minis done
"""
# Initiative: Axis 6+6+3 beats Allies 1+1+2; Axis moves first.
TO_MOVEMENT = OPEN + DEPLOY.replace("bob: /minis done\n", "!dice 6 6 1 1\nbob: /minis done\n") + \
    "alice: /minis initiative choice:first\n"

# After TO_MOVEMENT (turn 1, Axis moving): bring the tanks face to face, then turn 2
# with Allies first, and the Sherman (J8) slips past the Panzer IV (I8) to J7 —
# leaving one hex next to it for another (M-12.1): a defensive-fire decision for Axis.
TO_PROMPT = TO_MOVEMENT + """\
alice: /minis move unit:ax1 to:F8 face:SE
alice: /minis done
bob: /minis move unit:al1 to:L8 face:NW
bob: /minis done
alice: /minis move unit:ax1 to:I8 face:SE
alice: /minis done
bob: /minis move unit:al1 to:J8 face:NW
!dice 1 1 6 6
bob: /minis done
bob: /minis initiative choice:first
bob: /minis move unit:al1 to:J7 face:N
"""


async def run(script: str, tmp_path: Path, seed: int = 11) -> tuple[int, str]:
    return await run_local(script, tmp_path, "m.db", seed)
