"""/memoir through the local channel: Pegasus Bridge with a stacked deck and scripted
dice — play a card, order, move, battle, every pending decision (E-19: the Ambush
window, flags to ignore, the retreat path, Take Ground, the Recon discard), the end of a
turn with its report and board image, and the refusals."""

from __future__ import annotations

from pathlib import Path

from tests.bot.local_scripts import public, replies_to
from tests.bot.memoir.scripts import GAME, opening, run


async def test_a_game_of_pegasus_bridge_through_every_decision(tmp_path: Path) -> None:
    code, out = await run(GAME, tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "@alice opened a **Memoir '44** game." in pub
    assert "Axis were dealt 2 cards." in pub and "Allies were dealt 6 cards." in pub
    assert "@bob joins as **Axis**. Every seat is taken: the game begins." in pub
    # Turn 1: the card, the order, the moves (E-9: the wire stops D7 in E5), the close assault.
    assert "🃏 Allies played **Attack Left**." in pub
    assert "@alice (Allies) — Attack Left: order up to 3 units in your left section" in pub
    assert "📣 Allies order C6, C7, D7." in pub
    assert "➡️ D7 moves to E5 (via D6)." in pub
    # The defender's Ambush window is offered whether or not it holds the card (E-19.3).
    assert ("@bob (Axis) — Ambush? D5 close-assaults your unit on D4 (E-6.4) — `/memoir decide ambush`"
            " or `/memoir decide pass`") in pub
    assert "buttons: [1: Ambush!]  [2: No ambush]" in pub
    # The sandbags let D4 ignore the flag: its owner decides (E-14.6).
    assert "🎲 D5 → D4: 🏳️ → 0 hits, 1 flag." in pub
    assert "@bob (Axis) — D4 takes 1 flag(s); it may ignore up to 1 (E-14.6)" in pub
    assert "buttons: [1: Ignore 1 flag(s)]  [2: Ignore 0 flag(s)]" in pub
    assert "D4 ignores 1 flag." in pub
    # The turn report: the summary line, the events and the board image.
    assert ("📜 **Allies played Attack Left: ordered C6, C7, D7; C6 moved to D5; D7 moved to E5; D5 battled D4"
            " with 1 die; 🏳️ → 0 hits, 1 flag**") in pub
    assert "[#table] [image]" in pub and "memoir-turn1.png" in pub
    # Turn 2: a retreat with two ends is the defender's choice; Take Ground the attacker's.
    assert "🎲 D4 → D5: 🏳️ ⭐ 🪖 → 1 hit, 1 flag." in pub
    assert "buttons: [1: Retreat to C6]  [2: Retreat to D6]" in pub
    assert "↩️ D5 retreats to C6." in pub
    assert "@bob (Axis) — Take Ground: move into D5? (E-15)" in pub
    assert "🚩 D4 takes ground in D5." in pub
    assert "🧱 Sandbags removed from D4 (its unit took ground)." in pub
    assert "💥 E5 loses 2 figures; 2 left." in pub
    # Turn 3: Recon draws two, the player keeps one in private; the discard is public.
    assert "Recon: you drew **Probe Centre** (1) and **Attack Centre** (2); discard one." in replies_to(out, "alice")
    assert "Allies discard Attack Centre (Recon: draw 2, keep 1 (E-7.3))." in pub
    # Turn 5: an elimination is a medal (E-17).
    assert "@bob (Axis) — Probe Centre: order up to 2 units in your centre section" in pub
    assert "@alice (Allies) — Direct from HQ: order up to 4 units —" in pub
    assert "☠️ The unit on D5 is eliminated: a medal to the Allies." in pub
    assert "🏅 Medals: Axis 0, Allies 1." in pub
    assert "📜 **Allies played Direct from HQ: ordered C6, C7; C6 battled D5 with 3 dice;" in pub
    assert "memoir-turn5.png" in pub
    # Status: counts, the discard pile and the units — never a card of a hand.
    assert "🃏 Cards in hand: Axis 4, Allies 6; deck 44, discard pile 6." in pub
    assert "Discard pile (newest first): Direct from HQ, Attack Left, Attack Centre, Recon Left" in pub
    assert "🏅 Medals: Axis 0/4, Allies 1/4." in pub
    for private in ("Probe Right", "Assault Centre", "Counter-Attack", "Move Out", "Recon Centre",
                    "General Advance", "Attack Right"):
        assert private not in pub, private
    assert len(list((tmp_path / "img").glob("*memoir-turn*.png"))) == 5


async def test_the_hand_is_private_with_buttons_to_play(tmp_path: Path) -> None:
    script = opening() + """\
carol: /memoir hand
bob: /memoir hand
alice: /memoir hand
alice: !press Play Probe Right
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert "Only a player of this game has a hand" in replies_to(out, "carol")
    bob = replies_to(out, "bob")
    assert "**Your hand** (Axis, 2 cards)" in bob and "1. **Probe Centre**" in bob
    assert "It is not your play step now" in bob and "Play Probe" not in bob
    alice = replies_to(out, "alice")
    assert "**Your hand** (Allies, 6 cards)" in alice
    assert ("buttons: [1: Play Assault Centre]  [2: Play Attack Left]  [3: Play Direct from HQ]"
            "  [4: Play Probe Right]  [5: Play Recon Left]") in alice  # Counter-Attack: nothing to copy yet
    assert "[to alice] [image]" in alice and "hand.png" in alice
    assert "🃏 Allies played **Probe Right**." in public(out)
    assert "Probe Right" not in public(out).split("Allies played **Probe Right**")[0]


async def test_the_hand_by_direct_message_when_asked(tmp_path: Path) -> None:
    script = opening() + """\
alice: /settings dm turns:true
alice: /memoir hand
!dms bob closed
bob: /memoir hand dm:true
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert "[dm to alice] 🃏 **Your hand** (Allies, 6 cards)" in out
    assert "[to alice] 📬 Sent to you by direct message." in out
    assert "[to bob] (Your direct messages are closed, so here instead; only you see this.)" in out


async def test_refusals_say_what_is_legal(tmp_path: Path) -> None:
    script = opening() + """\
bob: /memoir play card:probe-centre
alice: /memoir play card:air-power
alice: /memoir play card:counter-attack
alice: /memoir play card:probe-right
alice: /memoir order units:"C6 C7"
alice: /memoir order units:"Z9"
alice: /memoir move unit:H8 to:H7
alice: /memoir done
alice: /memoir decide retreat to:C6
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert "[to bob] ⚠️" in out and "allies" in replies_to(out, "bob").lower()
    alice = replies_to(out, "alice")
    assert "You hold no Air Power card." in alice
    assert "Legal: /memoir play card:assault-centre, /memoir play card:attack-left" in alice
    assert "Counter-Attack copies the card your opponent played in its latest turn" in alice
    assert "⚠️ Cannot order that: the unit on C6 cannot be ordered by this card." in alice
    assert "⚠️ Z9 is not on the board" in alice
    assert "⚠️ Not now: this is the order step of the turn. Legal: /memoir order units:" in alice
    # Nothing of a refused order reaches the channel.
    assert "Air Power" not in public(out)


async def test_lookups(tmp_path: Path) -> None:
    script = opening() + """\
carol: /memoir los from:F9 to:F5
carol: /memoir los from:C6 to:C3
carol: /memoir battles side:axis
carol: /memoir moves unit:H8
carol: /memoir card name:"air power"
carol: /memoir card name:nothing-like-it
carol: /memoir scenarios
carol: /memoir board
"""
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert "🚫 F9–F5: line of sight is blocked by E8, F8 (E-11)." in out
    carol = replies_to(out, "carol")
    battles = carol.split("⚔️ Battles Axis could fight", 1)[1].split("➡️", 1)[0]
    assert [x.strip() for x in battles.splitlines()[1:4]] == ["• C3 → C6: 1 die", "• D4 → C6: 2 dice",
                                                              "• D4 → D7: 1 die"]
    assert "➡️ H8 could reach" in carol
    assert "**Air Power** (tactic card, 1 in the deck)" in out and "card-air-power.png" in out
    assert "'nothing-like-it' is not a command card." in carol
    assert "• `pegasus-bridge` — **Pegasus Bridge** (countryside): Allies first; cards Axis 2, Allies 6" in carol
    assert "`sword-beach`" in carol and "`sainte-mere-eglise`" in carol
    assert "🗺️ Pegasus Bridge, turn 1 — medals Axis 0, Allies 0." in public(out)
    assert "memoir-board-turn1.png" in public(out)
