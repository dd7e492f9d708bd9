"""Big battles on a server that allows them (issue 19: "no Discord size cap below 100
units a side"): with ``WARROOM_ODDS_BIG`` a battle past Discord's work limits is
computed anyway, exactly, in a process of its own, one at a time, after a notice, and
refused only for the server's time or memory cap.  The work limit is lowered here so
that a small battle passes it (the real one refuses 100 a side with submarines and
aircraft on both sides and no destroyer, whose full answer takes ~81 s and 1.5 GB)."""

from __future__ import annotations

import io
import re
import multiprocessing
import weakref
from pathlib import Path
from typing import Any

import pytest

from bot.commands import odds
from bot.commands.odds import BIG_HINT, BIG_NOTICE, BigBattles
from bot.config import Config
from bot.discord_app import WarroomBot
from bot.local import run_script
from engine.core.errors import PlayerError
from engine.odds.aa import AABattle, aa_odds
from tests.odds.helpers import battles_computed
from tests.discord_harness import CHANNEL_ID, Recorder, deliver, member, option, png_files, slash

# Submarines and aircraft on both sides, no destroyer: the numpy solve, whose
# work passes 1,000,000 products here (~0.25 s in full).
ATTACKER, DEFENDER = "8 sub, 4 cru, 2 bat, 6 fig", "8 sub, 4 car, 2 bat, 6 fig"
ASK = f'alice: /odds aa attacker:"{ATTACKER}" defender:"{DEFENDER}" kind:sea\n'


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(odds, "MAX_WORK", 1_000_000)
    monkeypatch.setattr(odds, "_turns", weakref.WeakKeyDictionary())
    monkeypatch.setattr(odds, "_big", BigBattles())


def full_answer() -> str:
    """The reply without work limits, computed here (what the CLI answers)."""
    return odds._aa_reply(AABattle.parse(ATTACKER, DEFENDER, mode="sea"), limited=False)[0]


async def run(script: str, tmp_path: Path) -> tuple[int, str]:
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / "o.db", out_dir=tmp_path / "files", out=out)
    return code, out.getvalue()


async def test_by_default_a_battle_past_the_work_limit_is_refused(small_limit: None, tmp_path: Path) -> None:
    code, out = await run(ASK, tmp_path)
    assert code == 0, out
    assert "too big to compute exactly here" in out and BIG_NOTICE not in out and "Attacker wins" not in out
    # The refusal tells how a server answers it: its admin may allow big battles.
    assert BIG_HINT.strip() in out and "WARROOM_ODDS_BIG=1" in out
    # A refusal for anything else than the work limits says nothing of it.
    code, out = await run('alice: /odds aa attacker:"200 inf" defender:"1 inf"\n', tmp_path)
    assert code == 0 and "At most 120 units per side" in out and "WARROOM_ODDS_BIG" not in out, out


async def test_where_allowed_it_is_computed_exactly_after_a_notice(small_limit: None, tmp_path: Path) -> None:
    odds.configure(BigBattles(allowed=True))
    code, out = await run(ASK + f"!expect {BIG_NOTICE[:40]}\n!expect Attacker wins\n", tmp_path)
    assert code == 0, out
    assert "too big" not in out and out.index(BIG_NOTICE) < out.index("Attacker wins")
    expected = full_answer()
    shown = [line.removeprefix("[#table] ").strip() for line in out.splitlines()]
    assert "\n".join(shown).count(expected.splitlines()[1]) == 1
    assert all(line in shown for line in expected.splitlines())
    # A battle within the limits gets no notice: it is answered as before.
    code, out = await run('alice: /odds aa attacker:"2 sub, 1 cru" defender:"2 sub, 1 car, 1 fig" kind:sea\n',
                          tmp_path)
    assert code == 0 and "Attacker wins" in out and BIG_NOTICE not in out, out


async def test_a_big_battle_past_the_servers_time_or_memory_cap_is_refused(small_limit: None, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    odds.configure(BigBattles(allowed=True, seconds=0.001))
    code, out = await run(ASK, tmp_path)
    assert code == 0 and BIG_NOTICE in out, out
    assert "This battle takes more than 0.001 seconds to compute here" in out and "Attacker wins" not in out
    assert "WARROOM_ODDS_BIG" not in out  # allowed already: no hint
    # 200 MB of address space is less than numpy and the compiled loops hold already:
    # the battle's first big table cannot be had, and only its process ends.
    odds.configure(BigBattles(allowed=True, memory_mb=200))
    code, out = await run(ASK, tmp_path)
    assert code == 0 and "needs more memory than this server gives a battle" in out, out
    assert "Attacker wins" not in out
    # What would be legal: the biggest battle of the same fleets scaled down that the
    # quick limits answer (as where big battles are not allowed), named in full; asked
    # next, its reply is the one kept (no notice, no second process).
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse(ATTACKER, DEFENDER, mode="sea"), max_work=odds.MAX_WORK, offer_biggest=True)
    (offer,) = err.value.legal
    assert offer.startswith('/odds aa … attacker:"') and f"Legal: {offer}." in out, out
    computed = battles_computed(monkeypatch, "_aa_reply")
    code, out = await run("alice: /odds aa" + offer.removeprefix("/odds aa …") + " kind:sea\n", tmp_path)
    assert code == 0 and "Attacker wins" in out and BIG_NOTICE not in out and computed == [], out


async def test_on_discord_the_notice_answers_at_once_and_the_answer_follows(small_limit: None, bot: WarroomBot,
                                                                   rec: Recorder) -> None:
    odds.configure(BigBattles(allowed=True))
    options = [option("attacker", ATTACKER), option("defender", DEFENDER), option("kind", "sea")]
    deliver(bot, slash("odds aa", options, member(1001, "Alice"), channel_id=CHANNEL_ID))
    calls = await rec.wait_for(2, timeout=120)
    # The notice answers the interaction at once (within Discord's three seconds, no
    # defer needed); the answer follows it when the battle's process is done.
    assert [c.kind for c in calls] == ["message", "followup"], [c.kind for c in calls]
    assert calls[0].content == BIG_NOTICE and not png_files(calls[0])
    assert calls[1].content == full_answer() and len(png_files(calls[1])) == 1


async def _call_saying(rec: Recorder, text: str) -> Any:
    """The first call to Discord whose content holds ``text`` (after a defer, if the bot
    deferred first)."""
    for count in (1, 2, 3):
        found = [c for c in await rec.wait_for(count, timeout=120) if text in c.content]
        if found:
            return found[0]
    raise AssertionError(f"no call says {text!r}: {rec.calls}")


async def test_on_discord_a_refusal_offers_a_battle_answered_and_asking_it_answers_at_once(
    small_limit: None, bot: WarroomBot, rec: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # By default (no big battles): the refusal, to the asker alone, names the biggest
    # battle of the same fleets scaled down that the quick limits answer; asked next
    # through Discord, its answer and chart come from what the refusal computed.
    options = [option("attacker", ATTACKER), option("defender", DEFENDER), option("kind", "sea")]
    deliver(bot, slash("odds aa", options, member(1001, "Alice"), channel_id=CHANNEL_ID))
    refusal = await _call_saying(rec, "too big to compute exactly here")
    assert refusal.ephemeral and BIG_HINT.strip() in refusal.content, refusal.content
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse(ATTACKER, DEFENDER, mode="sea"), max_work=odds.MAX_WORK, offer_biggest=True)
    (offer,) = err.value.legal
    assert f"Legal: {offer}." in refusal.content
    named = dict(re.findall(r'(\w+):"([^"]*)"', offer))
    computed = battles_computed(monkeypatch, "_aa_reply")
    rec.calls.clear()
    asked = [option("attacker", named["attacker"]), option("defender", named["defender"]), option("kind", "sea")]
    deliver(bot, slash("odds aa", asked, member(1001, "Alice"), channel_id=CHANNEL_ID))
    answer = await _call_saying(rec, "Attacker wins")
    assert not answer.ephemeral and len(png_files(answer)) == 1 and computed == []
    first_line = f'{named["attacker"]} attack {named["defender"]} (sea battle)'
    assert answer.content.splitlines()[0] == first_line


@pytest.mark.parametrize("big", [False, True])
async def test_on_discord_a_battle_past_120_a_side_is_offered_it_scaled_to_fit(
    small_limit: None, bot: WarroomBot, rec: Recorder, monkeypatch: pytest.MonkeyPatch, big: bool
) -> None:
    # The 120 units a side hold where big battles are computed too (no notice, no
    # process of its own, no word of WARROOM_ODDS_BIG). By default the battle scaled
    # down to fit is computed in refusing, and asking it next answers at once; a server
    # computing big battles names it untried (it would compute it anyway). 94 of 150
    # infantry: 19 of 30 artillery and 7 of 10 fighters (rounded up) make 120; at 95, 121.
    odds.configure(BigBattles(allowed=big))
    computed = battles_computed(monkeypatch, "_aa_reply")
    options = [option("attacker", "150 inf, 30 art, 10 fig"), option("defender", "100 inf, 1 aa")]
    deliver(bot, slash("odds aa", options, member(1001, "Alice"), channel_id=CHANNEL_ID))
    refusal = await _call_saying(rec, "At most 120 units per side")
    assert refusal.ephemeral and "WARROOM_ODDS_BIG" not in refusal.content and BIG_NOTICE not in refusal.content
    assert 'Legal: /odds aa … attacker:"94 inf, 19 art, 7 fig" defender:"63 inf, 1 aa".' in refusal.content
    assert len(computed) == 1
    rec.calls.clear()
    asked = [option("attacker", "94 inf, 19 art, 7 fig"), option("defender", "63 inf, 1 aa")]
    deliver(bot, slash("odds aa", asked, member(1001, "Alice"), channel_id=CHANNEL_ID))
    answer = await _call_saying(rec, "Attacker wins")
    assert not answer.ephemeral and len(png_files(answer)) == 1
    assert answer.content.splitlines()[0] == "94 inf, 19 art, 7 fig attack 63 inf, 1 aa (land battle)"
    assert len(computed) == (2 if big else 1)  # by default: the reply kept in refusing


def test_the_servers_settings_say_whether_big_battles_are_computed(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / "bot.env"
    env.write_text("WARROOM_ODDS_BIG=1\nWARROOM_ODDS_BIG_MB=2000\nWARROOM_ODDS_KEEP_S=45\n", encoding="utf-8")
    for name in ("WARROOM_ODDS_BIG", "WARROOM_ODDS_BIG_MB", "WARROOM_ODDS_KEEP_S"):
        monkeypatch.delenv(name, raising=False)
    config = Config.load(env)
    assert config.odds_big and config.odds_big_mb == 2000 and config.odds_keep_s == 45.0
    default = Config.load(tmp_path / "none.env")
    assert not default.odds_big and default.odds_keep_s == 300.0
    monkeypatch.setattr(odds, "_big", BigBattles())
    monkeypatch.setattr(odds, "_freed", odds._freed)
    kept: list[bool] = []
    monkeypatch.setattr(odds, "keep_freed", lambda: kept.append(True) or True)  # (the allocator as it is)
    odds.configure_from(config)
    assert odds._big == BigBattles(allowed=True, memory_mb=2000)
    assert odds._freed.seconds == 45.0 and kept == [True]
    monkeypatch.setenv("WARROOM_ODDS_KEEP_S", "0")
    odds.configure_from(Config.load(env))
    assert odds._freed.seconds == 0.0 and kept == [True]  # given back at once: the allocator left alone
    for bad in ("soon", "-5", "nan", "1e9"):
        monkeypatch.setenv("WARROOM_ODDS_KEEP_S", bad)
        with pytest.raises(ValueError, match="WARROOM_ODDS_KEEP_S must be a number of seconds from 0 to 86400"):
            Config.load(env)
    monkeypatch.delenv("WARROOM_ODDS_KEEP_S")
    monkeypatch.setenv("WARROOM_ODDS_BIG_MB", "lots")
    with pytest.raises(ValueError, match="WARROOM_ODDS_BIG_MB must be a number of megabytes, 200 or more"):
        Config.load(env)


def test_a_bad_memory_cap_stops_warroom_run_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("WARROOM_ODDS_BIG_MB", "50")
    assert main(["run", "--env-file", str(tmp_path / "none.env")]) == 2
    assert "WARROOM_ODDS_BIG_MB must be a number of megabytes, 200 or more (e.g. 2000), not '50'" in \
        capsys.readouterr().err


@pytest.mark.parametrize("failure, sent", [
    (PlayerError("No such unit: zeppelin.", legal=["/odds aa attacker:\"1 fig\" …"]),
     ("refused", ("No such unit: zeppelin.", ("/odds aa attacker:\"1 fig\" …",)))),
    (MemoryError(), ("memory", None)),
    (ZeroDivisionError("a bug"), ("bug", "ZeroDivisionError: a bug")),
])
def test_the_big_battles_process_says_how_it_ended(failure: BaseException, sent: tuple[str, object],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The message a spawned process sends back, read here in-process: a refusal with its
    # examples, running out of memory, or a bug's traceback (the bot reports it as a bug,
    # never as a lack of memory).
    def fails(battle: AABattle, limited: bool = True) -> tuple[str, bytes]:
        raise failure

    monkeypatch.setattr(odds, "warm", lambda: None)
    monkeypatch.setattr(odds, "_aa_reply", fails)
    mine, theirs = multiprocessing.Pipe(duplex=False)
    odds._big_child(theirs, AABattle.parse("1 inf", "1 inf"), None)
    what, value = mine.recv()
    assert what == sent[0]
    if what == "bug":
        assert isinstance(value, str) and value.rstrip().endswith(str(sent[1]))
    else:
        assert value == sent[1]
