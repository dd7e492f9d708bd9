"""/aa through the local channel: every phase of a turn with scripted dice, the casualty
decision, retreat, the permissions of several players a side, and the timeouts."""

from __future__ import annotations

from pathlib import Path

from tests.bot.aa.scripts import OPEN, TO_CASUALTIES, TO_COMBAT_MOVE, run
from tests.bot.local_scripts import public, replies_to


async def test_opening_several_powers_per_player_and_the_first_ping(tmp_path: Path) -> None:
    code, out = await run(OPEN, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "Rules: set-up 1942, research on, national objectives on, 15 victory cities to win." in pub
    # the game was opened with the "earliest" casualty rule, read from its state
    assert "Default casualties (on a timeout, or with `/aa ool auto:true`): as many hits as can be taken," in pub
    # and aircraft may retreat from a landing with no overland attackers
    assert "Aircraft may retreat from an amphibious assault even when every land unit came from the sea" in pub
    assert "@alice plays **Japan, Italy**." in pub
    assert "@bob joins as **Soviet Union, United Kingdom**." in pub
    assert "@carol joins as **China, United States**. Every seat is taken: the game begins." in pub
    # Japan moves first in 1942; whoever plays Japan is pinged.
    assert "@alice (Japan) — research of Japan (round 1)" in pub


async def test_new_with_the_optional_rules(tmp_path: Path) -> None:
    code, out = await run("alice: /aa new setup:1941 research:false objectives:false victory_cities:18\n"
                          "alice: /aa new setup:1944\n", tmp_path)
    assert code == 0, out
    assert "Rules: set-up 1941, research off, national objectives off, 18 victory cities to win." in out
    assert "⚠️ Option 'setup' cannot be '1944'. Write it like: 1941, 1942." in replies_to(out, "alice")


async def test_orders_from_someone_who_does_not_hold_the_power_are_refused(tmp_path: Path) -> None:
    code, out = await run(OPEN + "bob: /aa done\ndave: /aa research dice:1 chart:1\n"
                          "eve: /aa done\nalice: /aa done\n", tmp_path)
    assert code == 0, out
    assert "[to bob] ⚠️ It is Japan's research phase." in out
    assert "[to dave] ⚠️ It is Japan's research phase." in out
    assert "[to eve] ⚠️ You are not playing in this game" in out
    assert "▶️ Japan: purchase units." in public(out)  # alice, who holds Japan, may


async def test_research_rolls_scripted_dice(tmp_path: Path) -> None:
    code, out = await run(OPEN + "!dice 6 3\nalice: /aa research dice:1 chart:1\n", tmp_path)
    assert code == 0, out
    assert "🔬 Japan buys 1 researcher(s) and rolls 6: breakthrough! Chart 1 roll 3 gives" in public(out)


async def test_purchase_shows_a_running_total_to_the_buyer_alone(tmp_path: Path) -> None:
    code, out = await run(OPEN + "alice: /aa done\n"
                          'alice: /aa buy units:"3 inf, 1 art"\n'
                          'alice: /aa buy units:"1 fig" add:true\n'
                          'alice: /aa buy units:"9 bat"\n'
                          "bob: /aa log\n"
                          "alice: /aa done\n", tmp_path)
    assert code == 0, out
    mine = replies_to(out, "alice")
    assert "🛒 Japan buys 3 inf, 1 art: **13 IPCs**, 18 left of 31." in mine
    assert "🛒 Japan buys 3 inf, 1 art, 1 fig: **23 IPCs**, 8 left of 31." in mine
    assert "⚠️ That costs 180 IPCs; Japan has 31 (A-8.1)." in mine
    # Nobody else learns the purchase before the phase ends (A-8 ruling) …
    assert "Japan: buy (shown when the purchase phase ends)" in replies_to(out, "bob")
    before_done = public(out).split("🛒 Japan bought")[0]
    assert "3 inf, 1 art" not in before_done.split("purchase of Japan")[-1]
    # … then it is public, paid for, with the map.
    assert "🛒 Japan bought 3 inf, 1 art, 1 fig for 23 IPCs." in public(out)
    assert "📜 **Round 1** — 🇯🇵 Japan: purchase units ended." in public(out)


async def test_combat_move_autocomplete_battle_and_casualty_choice(tmp_path: Path) -> None:
    code, out = await run(TO_COMBAT_MOVE
                          + 'alice: !complete /aa move units:"2 inf" from:Manchuria to:\n'
                          + 'alice: /aa move units:"1 tank" from:Manchuria to:Suiyuan\n'
                          + TO_CASUALTIES.removeprefix(TO_COMBAT_MOVE)
                          + "alice: !complete /aa battle casualties units:\n"
                          + 'alice: /aa battle casualties units:"1 inf"\n', tmp_path)
    assert code == 0, out
    # Infantry move one space: the territories next to Manchuria.
    assert "[to alice] choices for to: Buryatia S.S.R., Kiangsu, Suiyuan" in out
    assert "[to alice] ⚠️ You have no tank in Manchuria for this." in out
    pub = public(out)
    assert "➡️ Japan: 2 inf, 1 fig move Manchuria → Suiyuan." in pub
    assert "⚔️ Battle in **Suiyuan**: Japan attacks with 2 inf, 1 fig against 2 inf." in pub
    assert "🎲 Attacker infantry at 1 (round 1): 1 6 → 1 hit." in pub
    assert "🎲 Defender infantry at 2 (round 1): 1 6 → 1 hit." in pub
    # the attacker chooses; the default order of loss is offered first.
    assert "@alice (Japan) — choose casualties in Suiyuan (attacker): 1 hit" in pub
    assert "buttons: [1: casualties 1 inf]  [2: casualties 1 fig]" in pub
    assert "choices for units: 1 inf (default order of loss) = 1 inf, 1 fig" in out
    assert "💀 Lost in Suiyuan: 1 inf." in pub
    assert "🚩 Japan takes **Suiyuan** from China." in pub
    assert "📜 **Round 1** — 🇯🇵 Japan: conduct combat ended." in pub


async def test_casualty_button_and_a_refused_choice(tmp_path: Path) -> None:
    code, out = await run(TO_CASUALTIES + 'bob: /aa battle casualties units:"1 inf"\n'
                          + 'alice: /aa battle casualties units:"1 tank"\n'
                          + "alice: !press 2\n", tmp_path)
    assert code == 0, out
    assert "[to bob] ⚠️ Soviet Union has no decision to make now." in out
    assert "[to alice] ⚠️" in out
    assert "💀 Lost in Suiyuan: 1 fig." in public(out)


async def test_retreat_after_a_round(tmp_path: Path) -> None:
    code, out = await run(TO_COMBAT_MOVE
                          + 'alice: /aa move units:"2 inf, 1 fig" from:Manchuria to:Suiyuan\n'
                          + "!dice 6 6 6 6 6\nalice: /aa done\n"
                          + "alice: !complete /aa battle retreat to:\n"
                          + "alice: /aa battle retreat to:Manchuria\n", tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "battle in Suiyuan after round 1: continue or retreat" in pub
    assert "[to alice] choices for to: Manchuria" in out
    assert "🏳️ 2 inf, 1 fig retreat from Suiyuan to Manchuria." in pub


async def test_press_on_for_another_round(tmp_path: Path) -> None:
    code, out = await run(TO_COMBAT_MOVE
                          + 'alice: /aa move units:"2 inf, 1 fig" from:Manchuria to:Suiyuan\n'
                          + "!dice 6 6 6 6 6\nalice: /aa done\n"
                          + "!dice 1 1 3 6 6\nalice: /aa battle continue\n", tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "🎲 Attacker infantry at 1 (round 2): 1 1 → 2 hits." in pub
    assert "🚩 Japan takes **Suiyuan** from China." in pub


async def test_noncombat_mobilise_and_the_next_power_is_pinged(tmp_path: Path) -> None:
    code, out = await run(OPEN + "alice: /aa done\n"
                          + 'alice: /aa buy units:"2 inf"\nalice: /aa done\n'
                          + "alice: /aa done\n"  # no combat move: conduct combat is skipped
                          + 'alice: /aa move units:"1 inf" from:Manchuria to:Kiangsu\n'
                          + "alice: /aa done\n"
                          + 'alice: /aa place units:"2 inf" at:Japan\n', tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "➡️ Japan: 1 inf move Manchuria → Kiangsu." in pub
    assert "📜 **Round 1** — 🇯🇵 Japan: non-combat move ended." in pub
    assert "🏭 Japan places 2 inf in Japan." in pub
    assert "💰 Japan collects" in pub
    assert "🗓️ **Round 1: ☭ Soviet Union's turn.**" in pub
    assert "@bob (Soviet Union) — research of Soviet Union (round 1)" in pub


async def test_timeouts_take_the_default_order_of_loss_then_end_the_phase(tmp_path: Path) -> None:
    script = TO_CASUALTIES.replace('side:"Japan, Italy"', 'side:"Japan, Italy" timeout:1d') + "!wait 25h\n!wait 25h\n"
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert ("⏰ Japan did not answer in time (choose casualties in Suiyuan (attacker): 1 hit):"
            " the default applies.\n") in pub
    assert "💀 Lost in Suiyuan: 1 inf." in pub  # infantry first (the default order of loss)
    # The non-combat move times out with nothing more done: the fighter has no landing.
    assert "💀 Lost in Suiyuan: 1 fig — no landing (A-11.4)." in pub
    assert "@bob (Soviet Union) — research of Soviet Union (round 1)" in pub


async def test_order_of_loss_for_a_named_power(tmp_path: Path) -> None:
    code, out = await run(OPEN + 'bob: /aa ool order:"inf, art, tank, fig" power:"United Kingdom"\n'
                          + 'bob: /aa ool order:"inf" power:Germany\n', tmp_path)
    assert code == 0, out
    assert "⚙️ United Kingdom: ool inf, art, tank, fig." in public(out)
    assert "[to bob] ⚠️ You do not hold the seat 'Germany'." in out


async def test_amphibious_assault_with_transport_and_bombardment(tmp_path: Path) -> None:
    code, out = await run(TO_COMBAT_MOVE
                          + 'alice: /aa sea load units:"2 inf" from:Japan zone:"62 Sea Zone"\n'
                          + 'alice: /aa move units:"1 tra, 1 bat" from:"62 Sea Zone" to:"61 Sea Zone"\n'
                          + 'alice: /aa sea unload units:"2 inf" zone:"61 Sea Zone" to:Fukien\n'
                          + "!dice 4 1 1 6\nalice: /aa done\n", tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "🛒 Japan bought nothing." in pub
    assert "➡️ Japan: 2 inf move Japan → 62 Sea Zone." in pub
    assert "➡️ Japan: 1 tra, 1 bat move 62 Sea Zone → 61 Sea Zone." in pub
    assert "🎲 Attacker battleship at 4: 4 → 1 hit." in pub  # shore bombardment
    assert "🚩 Japan takes **Fukien** from China." in pub
    assert "Lost in Fukien: nothing" not in pub
    # The order ended the combat move and the conduct combat that ran by itself.
    assert "📜 **Round 1** — 🇯🇵 Japan: combat move, conduct combat ended." in pub


async def test_reminders_ping_whoever_plays_the_power_to_move(tmp_path: Path) -> None:
    script = OPEN.replace('side:"Japan, Italy"', 'side:"Japan, Italy" remind:12h') + (
        "!wait 13h\n" + "alice: /aa done\n" * 4 + "!wait 13h\n")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "⏰ Reminder: @alice (Japan) — research of Japan (round 1)" in pub
    # Japan's turn ended (nothing bought, no battle): the Soviet player is reminded next.
    assert "⏰ Reminder: @bob (Soviet Union) — research of Soviet Union (round 1)" in pub
