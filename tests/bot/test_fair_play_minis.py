"""Issue 9 reproducers found by new users of /minis, through the local channel."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.local_scripts import public, replies_to
from tests.bot.minis_scripts import OPEN, TO_MOVEMENT, TO_PROMPT, run


async def test_undoing_the_opponents_army_list_never_publishes_it(tmp_path: Path) -> None:
    """§1: alice undoing bob's `army` order used to post its text to the channel."""
    code, out = await run(
        "alice: /minis new side:axis map:3\nbob: /minis join\n"
        'bob: /minis army units:"M4A1 Sherman, Bazooka"\n'
        "alice: /minis undo\nalice: !press Ask to undo\nbob: !press Agree\n"
        "carol: /minis log\n", tmp_path)
    assert code == 0, out
    assert "↩️ Undone with @bob's agreement:\n         • Allies: a secret order" in out
    for leak in ("Sherman", "Bazooka", 'units:"'):
        assert leak not in public(out) and leak not in replies_to(out, "alice") + replies_to(out, "carol")


async def test_the_log_never_shows_standing_orders_to_others(tmp_path: Path) -> None:
    """§1: `/minis log` showed `allies: standing al1 first` to everyone."""
    code, out = await run(TO_MOVEMENT + "bob: /minis defend standing unit:al1 policy:first\n"
                          "alice: /minis log\nbob: /minis log\n", tmp_path)
    assert code == 0, out
    assert "standing" not in replies_to(out, "alice") and "policy:first" not in public(out)
    assert "Allies: /minis defend standing unit:al1 policy:first" in replies_to(out, "bob")


async def test_a_phase_report_leaves_out_an_undone_order(tmp_path: Path) -> None:
    """§5: the report listed an order that had been undone."""
    code, out = await run(TO_MOVEMENT + "alice: /minis move unit:ax1 to:E8 face:SE\n"
                          "alice: /minis undo\nalice: !press Undo\n"
                          "alice: /minis move unit:ax2 to:E7\nalice: /minis done\n", tmp_path)
    assert code == 0, out
    report = out.split("📜 **Turn 1, movement phase (Axis) — report**", 1)[1].split("[#table] [image]")[0]
    assert "ax2 Mauser Kar 98k moved D7 → E7" in report and "ax1" not in report


async def test_every_order_is_on_exactly_one_log_page_newest_first(tmp_path: Path) -> None:
    """§5: pages cut the newest lines ("… and 9 more lines" that appeared on no page)."""
    moves = "".join(f"alice: /minis face unit:ax1 facing:{f}\nalice: /minis undo\nalice: !press Undo\n"
                    for f in ("N", "NE", "S"))
    code, out = await run(TO_MOVEMENT + moves + "".join(f"carol: /minis log page:{n}\n" for n in (1, 2, 3)),
                          tmp_path)
    assert code == 0, out
    pages = replies_to(out, "carol")
    numbers = [int(n) for n in re.findall(r"^\s*(\d+)\. ", pages, re.M)]
    total = int(re.search(r"page 1/(\d+)", pages).group(1))  # type: ignore[union-attr]
    assert "more lines" not in pages
    shown = numbers[: len(numbers)]
    assert sorted(shown) == list(range(1, max(shown) + 1)), "each entry exactly once"
    first_page = pages.split("page 2/")[0] if total > 1 else pages
    assert max(int(n) for n in re.findall(r"^\s*(\d+)\. ", first_page, re.M)) == max(shown)


async def test_help_for_odds_and_a_concede_that_asks_first(tmp_path: Path) -> None:
    """§6: `/help game:odds` was refused; `/minis concede` ended a game unasked."""
    code, out = await run(OPEN + "carol: /help game:odds\nalice: /minis concede\nalice: /minis status\n",
                          tmp_path)
    assert code == 0, out
    assert "`/odds minis" in replies_to(out, "carol")
    assert "[to alice] Concede the battle? It ends now and the other side wins." in out
    assert "status active" in out and "concede" not in public(out)


async def test_live_odds_are_answered_to_the_asker_alone(tmp_path: Path) -> None:
    """§6: `/odds minis` from a live game told the opponent what you planned: with or
    without the question, the channel sees exactly the same."""
    code, asked = await run(TO_MOVEMENT + "alice: /odds minis attacker:ax1 target:al1\n", tmp_path / "a")
    code2, quiet = await run(TO_MOVEMENT, tmp_path / "b")
    assert code == 0 and code2 == 0, asked
    assert "Panzer IV Ausf. G" in replies_to(asked, "alice").rsplit("choice:first", 1)[-1]
    strip = lambda text: re.sub(r"\[image\] \S+", "[image]", public(text)).rstrip()  # noqa: E731
    assert strip(asked) == strip(quiet)


async def test_a_custom_scenario_keeps_its_own_map(tmp_path: Path) -> None:
    """§6: `/minis new custom:{…"map":…}` was overridden by the random configuration roll (M-18)."""
    import json

    from bot.app import App, dispatch
    from bot.clock import ManualClock
    from bot.local import LocalChannel, LocalSession
    from engine.minis.scenario import builtin_document
    import io

    doc = dict(builtin_document("standard"), map=5)
    app = await App.start(tmp_path / "c.db", seed=1, clock=ManualClock(), local=True)
    try:
        out = io.StringIO()
        session = LocalSession(app, LocalChannel(out, tmp_path / "img"))
        await dispatch(app, actor=session.actor("alice"), channel=session.channel,
                       channel_id=session.channel.current_channel, guild_id=1, path=("minis", "new"),
                       options={"custom": json.dumps(doc), "side": "axis"})
        assert not app.bugs, out.getvalue()
        assert "Battlefield: configuration 5 “Hill 107”" in out.getvalue()
        assert "die roll" not in out.getvalue()
    finally:
        await app.close()


async def test_refusals_list_what_is_legal_as_slash_commands(tmp_path: Path) -> None:
    """§6: replies showed engine notation (`Legal: fire al5 leaving`) where a player needs
    the command to type."""
    code, out = await run(TO_PROMPT + "alice: /minis defend fire unit:ax2 at:leaving\n", tmp_path)
    assert code == 0, out
    assert ("[to alice] ⚠️ ax2 cannot fire at the leaving hex now. Legal: /minis defend fire unit:ax1 "
            "at:leaving, /minis defend fire unit:ax1 at:entering, /minis defend hold.") in out


async def test_memoir_live_odds_read_the_game_and_answer_the_asker_alone(tmp_path: Path) -> None:
    """`/odds memoir unit: enemy:` reads the battle from the channel's Memoir '44 game
    (Pegasus Bridge: D4's infantry on C6's, whose retreat is blocked) privately."""
    opened = "alice: /memoir new scenario:pegasus-bridge side:axis\nbob: /memoir join\n"
    code, asked = await run(opened + "alice: /odds memoir unit:D4 enemy:C6\n"
                            "alice: /odds memoir unit:D4 enemy:C6 dice:3\n", tmp_path / "a")
    code2, quiet = await run(opened, tmp_path / "b")
    assert code == 0 and code2 == 0, asked
    mine = replies_to(asked, "alice")
    assert "D4 battles C6: 2 dice at infantry" in mine
    assert "From the game in this channel, name both hexes and nothing else." in mine
    strip = lambda text: re.sub(r"\[image\] \S+", "[image]", public(text)).rstrip()  # noqa: E731
    assert strip(asked) == strip(quiet)
