"""``/odds aa|minis|memoir`` through the command registry, with a recording channel
(a real implementation of :class:`bot.context.Channel`, in tests/odds/helpers.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core.errors import PlayerError
from engine.odds.aa import AABattle
from engine.odds.aa_units import format_army
from tests.odds.helpers import assert_chart, battles_computed, invoke


async def test_odds_aa_answers_publicly_with_numbers_and_chart() -> None:
    msg = await invoke("odds aa", attacker="1 inf", defender="1 inf")
    assert not msg.ephemeral
    assert "**Attacker wins 25.0%** · defender holds 62.5% · both destroyed 12.5%" in msg.text
    assert "takes the territory 25.0%" in msg.text
    assert_chart(msg)


async def test_odds_aa_options() -> None:
    msg = await invoke("odds aa", attacker="2 sub, 1 des", defender="1 cru, 1 car, 2 fig", kind="sea",
                       submerge="attacker")  # fmt: skip
    assert "sea battle" in msg.text and "takes the territory" not in msg.text
    msg = await invoke("odds aa", attacker="3 inf, 1 tank", defender="3 inf", kind="amphibious",
                       bombard="1 battleship", rounds="1", ool_attacker="tank,inf")  # fmt: skip
    assert "bombarded by 1 bat" in msg.text and "still fighting after 1 round(s)" in msg.text


async def test_odds_aa_a_landings_strafe_leaves_the_landed_units_fighting() -> None:
    """A-10.3: the fighters and the tank that came over land retreat after round 1; the
    infantry landed from the sea fights on. The bold line is the whole assault."""
    from engine.odds.aa import AABattle, aa_odds

    msg = await invoke("odds aa", attacker="3 inf, 1 tank, 2 fig", defender="4 inf", kind="amphibious",
                       bombard="1 cru", overland="1 tank", retreat_after="1")  # fmt: skip
    odds = aa_odds(AABattle.parse("3 inf, 1 tank, 2 fig", "4 inf", mode="amphibious", bombard="1 cru",
                                  overland="1 tank", retreat_after=1))  # fmt: skip
    assert odds.fight_on is not None
    assert f"**Attacker wins {100 * odds.fight_on['attacker_win']:.1f}%**" in msg.text
    assert "1 tank came over land, attacker retreats after round 1" in msg.text
    assert f"Up to the retreat: attacker wins {100 * odds.attacker_win:.1f}%" in msg.text
    assert odds.fight_on["attacker_win"] != odds.attacker_win
    assert_chart(msg)
    # With a second wave: it attacks what the whole assault left.
    msg = await invoke("odds aa", attacker="3 inf, 1 tank, 2 fig", defender="4 inf", kind="amphibious",
                       bombard="1 cru", overland="1 tank", retreat_after="1", wave2="2 inf, 1 tank")  # fmt: skip
    odds = aa_odds(AABattle.parse("3 inf, 1 tank, 2 fig", "4 inf", mode="amphibious", bombard="1 cru",
                                  overland="1 tank", retreat_after=1, wave2="2 inf, 1 tank"))  # fmt: skip
    assert odds.second_wave is not None and odds.fight_on is not None
    wave = f"With the second wave (2 inf, 1 tank) attacking the survivors: attacker wins {100 * odds.second_wave['attacker_win']:.1f}%"
    assert wave in msg.text and odds.second_wave["attacker_win"] > odds.fight_on["attacker_win"]


async def test_odds_aa_only_more_than_a_hundred_and_twenty_a_side_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Refused with the same battle scaled down alike to fit (the odds kept near: each
    # force fitted on its own, 220 against 151 became 117 against 118), computed: its
    # reply is kept for the asker, who gets it at once when asking it next.
    computed = _counting_computed_battles(monkeypatch)
    runs = _engine_runs(monkeypatch)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="200 inf, 20 tank", defender="150 inf, 1 aa")
    assert "At most 120 units per side" in err.value.message and "takes up to 9999 of each kind" in err.value.message
    assert "the attacker has 220" in err.value.message and "WARROOM_ODDS_BIG" not in err.value.text()
    assert err.value.legal == ('/odds aa … attacker:"109 inf, 11 tank" defender:"82 inf, 1 aa"',)
    assert _attackers(runs) == ["109 inf, 11 tank"]  # the offer, answered; never the battle refused
    offered = await invoke("odds aa", attacker="109 inf, 11 tank", defender="82 inf, 1 aa")
    assert len(computed) == 1 and len(runs) == 1 and "Attacker wins" in offered.text
    fresh = await invoke("odds aa", asker=2, attacker="109 inf, 11 tank", defender="82 inf, 1 aa")
    assert len(computed) == 2 and len(runs) == 2 and fresh.text == offered.text
    # A second wave counts as a side; everything scales with it, and the options that
    # count units (a landing's units that came over land, the land units kept, the
    # retreat with K left) too: fitted on its own, overland stayed bigger than the
    # attacker and the example was refused in turn.
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="100 inf, 60 tank, 1 bom", defender="60 inf", wave2="200 inf, 3 art")
    assert "the second wave has 203" in err.value.message
    assert err.value.legal == (
        '/odds aa … attacker:"59 inf, 36 tank, 1 bom" defender:"36 inf" wave2:"118 inf, 2 art"',)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="200 inf, 20 tank", defender="150 inf", kind="amphibious",
                     bombard="2 bat", overland="150 inf", keep_land_units=110, retreat_left=100)  # fmt: skip
    (example,) = err.value.legal
    assert example == ('/odds aa … retreat_left:55 keep_land_units:60 attacker:"109 inf, 11 tank" defender:"82 inf"'
                       ' overland:"82 inf"')  # fmt: skip
    before = len(computed)
    answered = await invoke("odds aa", attacker="109 inf, 11 tank", defender="82 inf", kind="amphibious",
                            bombard="2 bat", overland="82 inf", keep_land_units=60, retreat_left=55)  # fmt: skip
    assert len(computed) == before and "Attacker wins" in answered.text  # the offer's reply, kept
    await invoke("odds aa", attacker="120 inf", defender="60 inf, 1 aa")
    assert _attackers(computed)[-1] == "120 inf"  # 120 a side: computed


async def test_odds_aa_hundred_a_side_with_an_aa_gun_answers() -> None:
    # Issue 19: no Discord cap below 100 units a side (this was refused as too big).
    msg = await invoke("odds aa", attacker="80 inf, 20 fig", defender="99 inf, 1 aa")
    assert "Attacker wins" in msg.text
    assert_chart(msg)


async def test_odds_aa_past_a_hundred_and_twenty_and_the_work_limit_offers_what_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The battle fitted to 120 a side is past the work limit in turn: the offer is the
    # biggest battle of the same forces found answered, as for any battle past it.
    from bot.commands import odds

    monkeypatch.setattr(odds, "MAX_WORK", 1_000_000)
    computed = _counting_computed_battles(monkeypatch)
    runs = _engine_runs(monkeypatch)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="100 sub, 25 cru, 25 bom", defender="75 cru, 25 car, 50 fig", kind="sea")
    assert "the attacker has 150" in err.value.message and "WARROOM_ODDS_BIG" not in err.value.text()
    assert _attackers(runs)[0] == "20 bom, 80 sub, 20 cru"  # the battle fitted to 120, refused for the work
    (example,) = err.value.legal
    forces = re.fullmatch(r'/odds aa … attacker:"([^"]+)" defender:"([^"]+)"', example)
    assert forces is not None
    offer = AABattle.parse(*forces.groups(), mode="sea")
    assert offer.key() in {run.key() for run in runs[1:]}  # one of the tries
    assert offer.attacker.keys() == {"submarine", "cruiser", "bomber"} and 30 < offer.units("attacker") < 120
    before = len(runs)
    again = await invoke("odds aa", attacker=forces[1], defender=forces[2], kind="sea")
    assert len(runs) == before and len(computed) == 1 and "Attacker wins" in again.text  # kept, not computed


def _counting_computed_battles(monkeypatch: pytest.MonkeyPatch) -> list[AABattle]:
    """The /odds aa battles computed from now on, not answered from the remembered
    replies (which start empty), in order."""
    import weakref

    from bot.commands import odds

    monkeypatch.setattr(odds, "_turns", weakref.WeakKeyDictionary())
    return battles_computed(monkeypatch)


def _engine_runs(monkeypatch: pytest.MonkeyPatch) -> list[AABattle]:
    """The battles the engine computes from now on (each try of a refusal's offer too)."""
    from engine.odds import aa

    runs: list[AABattle] = []
    real = aa._run

    def counted(battle: AABattle, *args: Any, **kwargs: Any) -> Any:
        runs.append(battle)
        return real(battle, *args, **kwargs)

    monkeypatch.setattr(aa, "_run", counted)
    return runs


def _attackers(battles: list[AABattle]) -> list[str]:
    return [format_army(b.attacker) for b in battles]


async def test_odds_aa_submarine_battle_past_the_work_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The work limit reaches the engine (bot.commands.odds.MAX_WORK; the real one refuses
    # 100 a side with submarines and aircraft on both sides and no destroyer after ~3 s
    # instead of ~9 minutes of work): here lowered, so a small battle passes it.
    from bot.commands import odds

    monkeypatch.setattr(odds, "MAX_WORK", 500)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="4 sub, 1 cru, 1 bom", defender="3 cru, 1 car, 2 fig", kind="sea")
    text = err.value.text()
    assert "too big to compute exactly here" in text and "Try fewer units" in text and "--" not in text
    # What would be legal: the biggest battle of the same forces scaled down that the
    # engine found answered under the same limit (here more than a quarter of them, the
    # offer of an API call without offer_biggest: "1 bom, 1 sub, 1 cru" against "1 fig,
    # 1 cru, 1 car"), the other options kept.
    assert err.value.legal == ('/odds aa … attacker:"1 bom, 2 sub, 1 cru" defender:"1 fig, 2 cru, 1 car"',)
    computed = _counting_computed_battles(monkeypatch)
    with pytest.raises(PlayerError):
        await invoke("odds aa", attacker="4 sub, 1 cru, 1 bom", defender="3 cru, 1 car, 2 fig", kind="sea")
    # The battle offered was answered in finding it: asked next by the same member, its
    # reply is the one remembered (nothing computed), the same as computed afresh.
    offered = await invoke("odds aa", attacker="1 bom, 2 sub, 1 cru", defender="1 fig, 2 cru, 1 car", kind="sea")
    assert _attackers(computed) == ["1 bom, 4 sub, 1 cru"]
    assert "Attacker wins" in offered.text
    fresh = await invoke("odds aa", asker=2, attacker="2 sub, 1 cru, 1 bom", defender="2 cru, 1 car, 1 fig",
                         kind="sea")  # fmt: skip
    assert _attackers(computed) == ["1 bom, 4 sub, 1 cru", "1 bom, 2 sub, 1 cru"]
    assert fresh.text == offered.text and fresh.files[0].data == offered.files[0].data
    monkeypatch.setattr(odds, "MAX_WORK", 4_000_000_000)
    msg = await invoke("odds aa", attacker="4 sub, 1 cru, 1 bom", defender="3 cru, 1 car, 2 fig", kind="sea")
    assert "Attacker wins" in msg.text


@pytest.mark.parametrize("at_once", [1, 2])
async def test_odds_aa_computes_a_few_battles_at_once(monkeypatch: pytest.MonkeyPatch, at_once: int) -> None:
    # A server's cores and memory: at most ODDS_AT_ONCE battles are computed together,
    # the other requests (four askers, one battle each) wait their turn and are answered
    # after.  The computations are held until the test lets them go, so "that many at
    # once" does not hang on timing.
    import asyncio
    import threading
    import weakref

    from bot.commands import odds

    running = [0, 0]  # now, most at once
    lock = threading.Lock()
    release = threading.Event()
    real = odds._aa

    def held(battle: Any, *args: Any) -> Any:
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        assert release.wait(30), "the test never let the computations go"
        with lock:
            running[0] -= 1
        return real(battle, *args)

    monkeypatch.setattr(odds, "_aa", held)
    monkeypatch.setattr(odds, "ODDS_AT_ONCE", at_once)
    monkeypatch.setattr(odds, "_turns", weakref.WeakKeyDictionary())
    asks = asyncio.gather(*(invoke("odds aa", asker=n, attacker=f"{n} inf", defender="2 inf") for n in (1, 2, 3, 4)))
    for _ in range(3000):  # up to 30 s for the first ones to start
        if running[0] >= at_once:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)  # room for any more to start (none may)
    assert running == [at_once, at_once]
    release.set()
    replies = await asks
    assert running == [0, at_once]
    assert all("Attacker wins" in r.text for r in replies)


async def test_odds_aa_one_askers_battles_take_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    # One member asking many battles holds one of the ODDS_AT_ONCE turns, never both:
    # asker 1's three battles run one after another, asker 2's alongside the first.
    import asyncio
    import threading
    import weakref

    from bot.commands import odds

    running: list[int] = []  # attacking infantry of the battles running now
    seen: list[list[int]] = []  # every set of battles that ran together
    lock = threading.Lock()
    release = [threading.Event() for _ in range(5)]
    real = odds._aa

    def held(battle: Any, *args: Any) -> Any:
        n = battle.attacker["infantry"]
        with lock:
            running.append(n)
            seen.append(sorted(running))
        assert release[n].wait(30), "the test never let the computation go"
        with lock:
            running.remove(n)
        return real(battle, *args)

    async def until(test: Any) -> None:
        for _ in range(3000):  # up to 30 s
            with lock:
                if test():
                    return
            await asyncio.sleep(0.01)
        raise AssertionError(f"still waiting; running {running}")

    monkeypatch.setattr(odds, "_aa", held)
    monkeypatch.setattr(odds, "ODDS_AT_ONCE", 2)
    monkeypatch.setattr(odds, "_turns", weakref.WeakKeyDictionary())
    first = [asyncio.ensure_future(invoke("odds aa", asker=1, attacker=f"{n} inf", defender="2 inf")) for n in (1, 2, 3)]
    await until(lambda: running == [1])
    other = asyncio.ensure_future(invoke("odds aa", asker=2, attacker="4 inf", defender="2 inf"))
    await until(lambda: sorted(running) == [1, 4])  # the second turn goes to asker 2, not to 2 inf
    await asyncio.sleep(0.1)
    assert sorted(running) == [1, 4]
    release[4].set()
    assert "Attacker wins" in (await other).text
    await asyncio.sleep(0.1)
    assert running == [1]  # a turn is free, but asker 1's next battle waits for its first
    for n in (1, 2, 3):
        release[n].set()
    replies = await asyncio.gather(*first)
    assert [r.text.splitlines()[0] for r in replies] == [f"{n} inf attack 2 inf (land battle)" for n in (1, 2, 3)]
    assert all(sorted(s) in ([1], [2], [3], [4], [1, 4]) for s in seen), seen
    # An asker's turn is kept only while an ask of theirs holds it.
    turns = odds._turns[asyncio.get_running_loop()]
    assert not dict(turns.askers)


async def test_odds_aa_the_same_question_again_is_answered_from_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same asker, the same battle (armies typed in any order), the same limits: the
    # reply remembered, computed once.  Another battle, another asker (a plan must not be
    # told apart by a quick answer) or other limits: computed.  Refusals too.
    from bot.commands import odds

    computed = _counting_computed_battles(monkeypatch)
    one = await invoke("odds aa", attacker="3 inf, 1 tank", defender="2 inf, 1 art")
    again = await invoke("odds aa", attacker="1 armor, 3 infantry", defender="1 art, 2 inf")
    assert _attackers(computed) == ["3 inf, 1 tank"]
    assert again.text == one.text and again.files[0].data == one.files[0].data
    await invoke("odds aa", attacker="3 inf, 1 tank", defender="2 inf, 1 art", low_luck=True)
    await invoke("odds aa", asker=2, attacker="3 inf, 1 tank", defender="2 inf, 1 art")
    assert len(computed) == 3
    monkeypatch.setattr(odds, "MAX_WORK", 500)
    for _ in range(2):
        with pytest.raises(PlayerError) as err:
            await invoke("odds aa", attacker="4 sub, 1 cru, 1 bom", defender="3 cru, 1 car, 2 fig", kind="sea")
        assert "too big to compute exactly here" in err.value.text()
    assert len(computed) == 4
    monkeypatch.setattr(odds, "MAX_WORK", 4_000_000_000)
    msg = await invoke("odds aa", attacker="4 sub, 1 cru, 1 bom", defender="3 cru, 1 car, 2 fig", kind="sea")
    assert "Attacker wins" in msg.text and len(computed) == 5
    # The oldest replies are forgotten past ODDS_REMEMBERED (one asked again is the
    # newest again); none are kept with 0.
    monkeypatch.setattr(odds, "ODDS_REMEMBERED", 2)
    for n in (1, 2, 1, 3, 1, 2):
        await invoke("odds aa", attacker=f"{n} inf", defender="2 inf")
    assert _attackers(computed)[5:] == ["1 inf", "2 inf", "3 inf", "2 inf"]
    monkeypatch.setattr(odds, "ODDS_REMEMBERED", 0)
    for _ in range(2):
        await invoke("odds aa", attacker="5 inf", defender="2 inf")
    assert _attackers(computed)[9:] == ["5 inf", "5 inf"]


async def test_odds_aa_retreat_chance_takes_decimals() -> None:
    # 5 inf against 4 inf: a state the attacker can reach wins between 33 % and 33.5 %,
    # so retreat_chance:33.5 retreats there and retreat_chance:33 does not (a whole-number
    # option would refuse 33.5; one that rounded it would answer as for 33 or 34).
    msg = await invoke("odds aa", attacker="5 inf", defender="4 inf", retreat_chance="33.5")
    assert "falls below 33.5%" in msg.text and "attacker retreats 78.3%" in msg.text
    msg = await invoke("odds aa", attacker="5 inf", defender="4 inf", retreat_chance="33")
    assert "falls below 33%" in msg.text and "attacker retreats 76.4%" in msg.text
    with pytest.raises(PlayerError, match="at least 1"):
        await invoke("odds aa", attacker="5 inf", defender="4 inf", retreat_chance="0.5")


async def test_odds_aa_takes_round_options_up_to_the_calculators_hundred() -> None:
    """Discord's rounds:/retreat_after: reach the calculator's own bound (MAX_ROUNDS), as
    the command line does; past it the option is refused, naming the bound."""
    from engine.odds.aa import MAX_ROUNDS, AABattle, aa_odds

    assert MAX_ROUNDS == 100
    msg = await invoke("odds aa", attacker="1 inf", defender="1 inf", rounds="80")
    odds = aa_odds(AABattle.parse("1 inf", "1 inf", rounds=80))
    assert f"**Attacker wins {100 * odds.attacker_win:.1f}%**" in msg.text
    # The round limit is said in the first line, as every other option is: after 80
    # rounds nothing is left fighting to show it below.
    assert msg.text.splitlines()[0] == "1 inf attack 1 inf (land battle) — 80 rounds at most"
    msg = await invoke("odds aa", attacker="1 inf", defender="1 inf", rounds="1")
    assert msg.text.splitlines()[0] == "1 inf attack 1 inf (land battle) — 1 round at most"
    msg = await invoke("odds aa", attacker="1 inf", defender="1 inf", retreat_after="60")
    odds = aa_odds(AABattle.parse("1 inf", "1 inf", retreat_after=60))
    assert f"**Attacker wins {100 * odds.attacker_win:.1f}%**" in msg.text
    assert "attacker retreats after round 60" in msg.text
    with pytest.raises(PlayerError, match="'rounds' must be at most 100"):
        await invoke("odds aa", attacker="1 inf", defender="1 inf", rounds="101")
    with pytest.raises(PlayerError, match="'retreat_after' must be at most 100"):
        await invoke("odds aa", attacker="1 inf", defender="1 inf", retreat_after="101")


async def test_refusals_speak_slash_command_syntax() -> None:
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="1 bat", defender="1 inf")
    text = err.value.text()
    assert "/odds aa … kind:sea" in text and "--" not in text


async def test_odds_aa_hundred_a_side_answers() -> None:
    msg = await invoke("odds aa", attacker="100 inf", defender="100 inf")
    assert "Attacker wins" in msg.text
    assert_chart(msg)


async def test_odds_minis() -> None:
    msg = await invoke("odds minis", dice="11", defense="5", cover="5")
    assert "**0 hits 27.4% · 1 hit 39.2% · 2 hits 32.9% · 3 hits 0.4%**" in msg.text
    assert "disrupted + damaged 32.9%" in msg.text
    assert_chart(msg)


async def test_odds_minis_numbers_options_shared_with_the_live_form() -> None:
    # 2 dice vs a Soldier of defense 1: 0 successes 1/4; defensive fire disrupts on 1 or 2.
    msg = await invoke("odds minis", dice="2", defense="1", target_type="soldier", defensive="true")
    assert "2 dice defensive fire vs defense 1 soldier" in msg.text
    assert "**0 hits 25.0% · 1 hit 75.0%**" in msg.text
    # Armor-Piercing Rounds: 2 hits on a Vehicle become 3 (6 dice, defense 3, 4 or 5 successes)
    plain = await invoke("odds minis", dice="6", defense="3")
    ap = await invoke("odds minis", dice="6", defense="3", ap="true")
    assert "2 hits 0%" not in plain.text and "2 hits 0%" in ap.text


async def test_odds_minis_needs_dice_and_defense_or_two_units() -> None:
    with pytest.raises(PlayerError, match="or at least dice and defense"):
        await invoke("odds minis", dice="3")
    with pytest.raises(PlayerError, match="not both"):
        await invoke("odds minis", attacker="ax1", target="al1", defense="3")


async def test_odds_memoir() -> None:
    msg = await invoke("odds memoir", dice="2", target="infantry", figures="2", blocked="yes")
    assert "**Eliminates a 2-figure unit: 44.4% (retreat blocked: every flag costs a figure)**" in msg.text
    assert_chart(msg)


async def test_odds_memoir_option_checks() -> None:
    with pytest.raises(PlayerError):
        await invoke("odds memoir", dice="20", target="infantry")


async def test_odds_aa_gives_a_long_battles_memory_back(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bot's process lives long: after a battle of TRIM_AFTER seconds or more (or a
    # refusal that came after that much work: the biggest battles are refused once
    # they pass a work limit) the freed memory goes back to the system; a quicker one
    # does not pay for it (bot.memory.give_back: malloc_trim).
    from bot import memory
    from bot.commands import odds

    calls: list[int] = []
    monkeypatch.setattr(memory, "give_back", lambda: calls.append(1))
    monkeypatch.setattr(odds, "_freed", memory.FreedMemory(0.0))  # given back at once
    monkeypatch.setattr(odds, "TRIM_AFTER", 0.0)
    msg = await invoke("odds aa", attacker="3 inf", defender="2 inf")
    assert "Attacker wins" in msg.text and calls == [1]
    with pytest.raises(PlayerError):
        await invoke("odds aa", attacker="121 inf", defender="2 inf")
    assert calls == [1, 1]
    monkeypatch.setattr(odds, "TRIM_AFTER", 3600.0)
    await invoke("odds aa", attacker="4 inf", defender="2 inf")
    with pytest.raises(PlayerError):
        await invoke("odds aa", attacker="122 inf", defender="2 inf")
    assert calls == [1, 1]


async def test_odds_aa_keeps_a_long_battles_memory_for_the_servers_time_then_gives_it_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the server keeps a big battle's freed memory (WARROOM_ODDS_KEEP_S, here
    # 2 s, well past two small battles' replies on a loaded machine): given back once no
    # such battle came for that long, the time starting again with each one, so battles
    # asked in a row reuse it.
    import asyncio
    import time

    from bot import memory
    from bot.commands import odds

    calls: list[float] = []
    monkeypatch.setattr(memory, "give_back", lambda: calls.append(time.monotonic()))
    monkeypatch.setattr(odds, "_freed", memory.FreedMemory(2.0))
    monkeypatch.setattr(odds, "TRIM_AFTER", 0.0)
    await invoke("odds aa", attacker="3 inf", defender="2 inf")
    second = time.monotonic()  # the second battle's time starts after this
    await invoke("odds aa", attacker="4 inf", defender="2 inf")
    assert calls == [] and odds._freed.pending()
    for _ in range(500):
        if calls:
            break
        await asyncio.sleep(0.02)
    assert len(calls) == 1 and calls[0] - second >= 2.0  # once, from the second battle's end
    await asyncio.sleep(0.3)
    assert len(calls) == 1 and not odds._freed.pending()


def test_the_bot_compiles_every_odds_kernel_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    # bot.commands.odds.warm (run in a worker thread as the bot starts): the strike
    # pass's three loops through the smallest strike battle, the merged engine's loop
    # and the table engine's compiled rows, the sea solve's first (the solve takes it as
    # soon as numba is loaded).
    from bot.commands import odds
    from engine.odds import aa_merged_kernel, aa_naval_kernel, aa_table_kernel

    asked: list[tuple[str, int | None, float | None]] = []
    kernels: list[str] = []

    def ask(b: Any) -> None:
        asked.append((b.mode, b.rounds, b.retreat_chance))
        kernels.append("sea")

    monkeypatch.setattr(odds, "aa_odds", ask)
    monkeypatch.setattr(aa_merged_kernel, "warm", lambda: kernels.append("merged"))
    monkeypatch.setattr(aa_naval_kernel, "warm", lambda: kernels.append("naval"))
    monkeypatch.setattr(aa_table_kernel, "warm", lambda: kernels.append("table"))
    odds.warm()
    assert asked == [("sea", None, None), ("sea", 1, None), ("sea", None, 70.0)]
    assert kernels == ["naval", "sea", "sea", "sea", "merged", "table"]


def test_the_warming_battles_compile_every_strike_pass_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # The three battles bot.commands.odds.warm asks leave every compiled loop of the
    # strike pass compiled (or loaded from numba's cache): the solve, the round walk,
    # the chances backward and the relabelling of ends before a retreat by win chance
    # corrects the traced solve (a retreat there small enough to be corrected: the
    # warming battles call it themselves, whatever other tests compiled before).
    from bot.commands import odds
    from engine.odds import aa_strike_kernel

    checked: list[float] = []
    check = aa_strike_kernel.relabel

    def counted(*args: Any) -> float:
        got: float = check(*args)
        checked.append(got)
        return got

    monkeypatch.setattr(aa_strike_kernel, "relabel", counted)
    kernels = (aa_strike_kernel.solve, aa_strike_kernel.walk, aa_strike_kernel.chances, check)
    odds.warm()
    assert checked == [0.0]  # reached (nothing to relabel), and the retreat corrected
    for kernel in kernels:
        assert getattr(kernel, "signatures", None), kernel
