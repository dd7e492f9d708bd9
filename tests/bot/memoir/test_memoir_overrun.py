"""Armor Overrun (E-16) with its buttons, a retreat, and the Counter-Attack card through /memoir, on a pasted scenario."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.local_scripts import public
from tests.bot.memoir.scripts import dice_line, pasted, run

TANKS = {
    "name": "Tank Rush", "cards": {"axis": 2, "allies": 2}, "medals": {"axis": 3, "allies": 3},
    "units": [{"hex": "G5", "side": "axis", "type": "infantry", "figures": 1},
              {"hex": "G4", "side": "axis", "type": "infantry"},
              {"hex": "B2", "side": "axis", "type": "infantry"},
              {"hex": "G6", "side": "allies", "type": "armor"},
              {"hex": "B8", "side": "allies", "type": "infantry"}],
}


async def test_an_armor_overrun_is_offered_with_buttons(tmp_path: Path) -> None:
    script = (dice_line(["probe-left", "probe-right", "direct-from-hq", "counter-attack"])
              + f"alice: /memoir new side:allies custom:{pasted(json.dumps(TANKS))}\n"
              + """bob: /memoir join
alice: /memoir play card:direct-from-hq
alice: /memoir order units:G6
alice: /memoir done
alice: /memoir battle unit:G6 target:G5
!dice 1 1 1
bob: /memoir decide pass
alice: /memoir decide take-ground
alice: /memoir battle unit:G5 target:G4
!dice 2 2 6
bob: /memoir decide pass
bob: /memoir decide retreat to:G3
alice: /memoir decide hold
bob: /memoir play card:probe-right
bob: /memoir order units:none
alice: /memoir play card:counter-attack
alice: /memoir order units:B8
""")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "Armor Overrun: battle again, or hold (E-16)" in pub
    assert "[1: Overrun G4]  [2: Hold]" in pub
    assert "⚔️ G5 overruns G4 with 3 dice." in pub
    assert "↩️ G4 retreats to G3." in pub
    # Counter-Attack copies the card the Axis just played, acting on the matching flank (E-6.5)
    assert "🃏 Allies played **Counter-Attack** (as Probe Right)." in pub
    assert "📣 Allies order B8." in pub  # the Axis right is the Allies left: the same flank of the board
