"""/memoir new with a pasted scenario (ours, or a .m44 file), by name, and ``random``; a
custom scenario played to a medal victory with its final report and picture."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.local_scripts import public, replies_to
from tests.bot.memoir.scripts import dice_line, pasted, run

M44 = Path(__file__).resolve().parents[2] / "memoir" / "data" / "orchard-crossroads.m44"

HILL_DUEL = {
    "name": "Hill Duel", "face": "countryside", "top": "axis", "first": "allies",
    "cards": {"axis": 2, "allies": 2}, "medals": {"axis": 1, "allies": 1},
    "terrain": {"G4": "hill", "E5": "forest"}, "obstacles": {"F4": "sandbags"},
    "objectives": [{"hex": "E5", "for": "allies", "kind": "temporary", "medals": 1}],
    "units": [{"hex": "G4", "side": "axis", "type": "infantry", "figures": 1},
              {"hex": "J3", "side": "axis", "type": "armor", "badge": "elite"},
              {"hex": "G5", "side": "allies", "type": "infantry", "badge": "special-forces"},
              {"hex": "C8", "side": "allies", "type": "artillery"}],
}


async def test_a_pasted_scenario_played_to_a_medal_victory(tmp_path: Path) -> None:
    script = (dice_line(["probe-left", "probe-right", "direct-from-hq", "probe-centre"])
              + f"alice: /memoir new side:allies custom:{pasted(json.dumps(HILL_DUEL))}\n"
              + """bob: /memoir join
alice: /memoir play card:direct-from-hq
alice: /memoir order units:G5
alice: /memoir done
alice: /memoir battle unit:G5 target:G4
!dice 1 1
bob: /memoir decide pass
bob: /memoir play card:probe-left
carol: /memoir status
""")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "Scenario: **Hill Duel** (countryside; Axis at the top)." in pub
    assert "⚔️ G5 close-assaults G4 with 2 dice." in pub  # 3 dice, 1 less on a hill (E-18)
    assert "🎲 G5 → G4: 🪖 🪖 → 2 hits, 0 flags." in pub
    assert "☠️ The unit on G4 is eliminated: a medal to the Allies." in pub
    assert "🏆 **Allies win** — the allies reached 1 medals (E-17.4) (medals: Axis 0, Allies 1)." in pub
    assert "memoir-turn1.png" in pub  # the final report has its picture
    assert "⚠️" in replies_to(out, "bob")  # nothing more after the end
    assert "🏁 Over: Allies" in pub


async def test_an_m44_file_pasted_opens_and_plays(tmp_path: Path) -> None:
    text = json.dumps(json.loads(M44.read_text(encoding="utf-8")))  # one line, as pasted in Discord
    script = (f"alice: /memoir new side:axis custom:{pasted(text)}\n"
              "bob: /memoir join\ncarol: /memoir board\ncarol: /memoir status\n")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "Scenario: **Orchard Crossroads**" in pub
    assert "Orchard Crossroads — turn 1" in pub
    assert "memoir-board-turn1.png" in pub


async def test_an_m44_file_attached_opens_and_plays(tmp_path: Path) -> None:
    """`file:` takes an attached .m44 (in the local channel, a file's path)."""
    binary = tmp_path / "photo.m44"
    binary.write_bytes(b"\xff\xd8\xff\xe0 not text")
    script = (f"alice: /memoir new side:axis file:{tmp_path / 'missing.m44'}\n"
              f"alice: /memoir new side:axis file:{binary}\n"
              f"alice: /memoir new side:axis file:{M44} custom:x\n"
              f"alice: /memoir new side:axis file:{M44}\n"
              "bob: /memoir join\ncarol: /memoir status\n")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    alice = replies_to(out, "alice")
    assert "there is no file" in alice and "'photo.m44' is not a text file" in alice
    assert "Give the scenario once" in alice
    assert "Scenario: **Orchard Crossroads**" in public(out)
    assert public(out).count("opened a **Memoir '44** game") == 1


async def test_bad_scenarios_are_refused_and_nothing_opens(tmp_path: Path) -> None:
    script = ("alice: /memoir new scenario:hill-999\n"
              'alice: /memoir new custom:"{\\"name\\": \\"x\\"}"\n'
              "alice: /memoir new custom:not-json\n"
              "alice: /memoir status\n"
              "alice: /memoir new scenario:\"Sword Beach\"\n")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    alice = replies_to(out, "alice")
    assert "Legal: pegasus-bridge, sainte-mere-eglise, sword-beach" in alice
    assert alice.count("⚠️") >= 4
    assert "Scenario: **Sword Beach**" in public(out)
    assert public(out).count("opened a **Memoir '44** game") == 1


async def test_random_picks_one_of_ours_with_a_die(tmp_path: Path) -> None:
    code, out = await run("!dice 2\nalice: /memoir new scenario:random\n", tmp_path)
    assert code == 0, out
    assert "Scenario: **Sainte-M" in public(out)  # the second of ours (die 2 of 3)


async def test_our_other_two_scenarios_open_and_draw(tmp_path: Path) -> None:
    script = ("alice: /memoir new scenario:sainte-mere-eglise side:allies\nbob: /memoir join\n"
              "carol: /memoir board\n!channel #beach\n"
              "alice: /memoir new scenario:sword-beach side:allies\nbob: /memoir join\n"
              "carol: /memoir status\ncarol: /memoir board\n")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    # E-3.5: four paratrooper drops before the first Allied turn, each landed or lost
    assert pub.count("🪂 A paratrooper unit lands on") + pub.count("🪂 A drop on") == 4
    assert "Sainte-Mère-Église, turn 1 — medals Axis 0, Allies 0." in pub
    assert "[#beach] ⚔️ @alice opened a **Memoir '44** game.\n         Scenario: **Sword Beach** (beach;" in pub
    assert "🏅 Medals: Axis 0/5, Allies 0/5." in pub
    assert "armor 3" in pub
    assert len(list((tmp_path / "img").glob("*memoir-board-turn1.png"))) == 2
