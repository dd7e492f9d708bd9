"""/aa territory, /aa units and /aa income, from the state as the asker may see it."""

from __future__ import annotations

from pathlib import Path

from tests.bot.aa.scripts import OPEN, run
from tests.bot.local_scripts import public, replies_to


async def test_territory_units_and_income(tmp_path: Path) -> None:
    code, out = await run(OPEN + "carol: /aa territory name:Berlin\n"
                          + 'carol: /aa territory name:"sz 5"\n'
                          + "carol: /aa units power:china\n"
                          + "carol: /aa units power:narnia\n"
                          + "carol: /aa income\n"
                          + "carol: !complete /aa territory name:Kar\n"
                          + 'carol: /aa territory name:"62 Sea Zone"\n', tmp_path)
    assert code == 0, out
    mine = replies_to(out, "carol")
    assert ("🗺️ **Germany**: 10 IPC, held by Germany, victory city Berlin, capital of Germany,"
            " factory (0 damage, places 10 a turn).") in mine
    assert "• Germany: 4 inf, 2 tank, 1 aa, 1 fig, 1 bom" in mine
    assert "🌊 **5 Sea Zone**\n           • Germany: 1 sub, 1 tra, 1 des, 1 cru" in mine
    assert "**China** (allies): 10 units, 0 IPCs in hand." in mine and "• Yunnan: 2 inf, 1 fig" in mine
    assert "⚠️ 'narnia' is not a power. Legal: /aa units power:Germany" in mine
    assert "**Round 1** — victory cities: Axis 8, Allies 10 (target 15)." in mine
    assert "• Japan: 31 IPCs in hand, territories worth 31, 4 victory cities" in mine
    # China's territories pay nobody; they recruit infantry instead.
    assert ("• China: collects no IPCs (its territories, worth 7, pay nobody); 7 territories give"
            " 3 new infantry in the US purchase phase, 0 victory cities") in mine
    assert "choices for name: Karelia S.S.R." in mine
    assert "Transports: #241 (Japan, empty)" in mine  # ids for /aa sea load … onto:#241


async def test_units_to_place_appear_once_the_purchase_is_paid(tmp_path: Path) -> None:
    code, out = await run(OPEN + "alice: /aa done\n" + 'alice: /aa buy units:"2 inf"\n'
                          + "alice: /aa units power:Japan\nbob: /aa units power:Japan\n"
                          + "alice: /aa done\nbob: /aa units power:Japan\n", tmp_path)
    assert code == 0, out
    assert "To place: 2 inf" in replies_to(out, "bob")  # after the phase ended
    assert replies_to(out, "bob").count("To place") == 1


async def test_twin_games_differing_only_in_a_purchase_look_the_same_to_others(tmp_path: Path) -> None:
    """A-8 ruling: a purchase is secret until the phase ends; everything bob can ask for
    — status, log, look-ups, the map image — is the same whatever alice is buying."""
    seen: list[tuple[str, bytes]] = []
    for n, units in enumerate(("3 inf", "1 tra, 1 bat")):
        folder = tmp_path / f"twin{n}"
        code, out = await run(OPEN + "alice: /aa done\n" + f'alice: /aa buy units:"{units}"\n'
                              + "bob: /aa status\nbob: /aa log\nbob: /aa units power:Japan\nbob: /aa income\n"
                              + "bob: /aa map region:pacific\n", folder)
        assert code == 0, out
        assert units in replies_to(out, "alice")
        images = sorted((folder / "img").glob("*aa-pacific.png"))
        bob_sees = (public(out) + replies_to(out, "bob")).replace(str(folder), "")
        seen.append((bob_sees, images[-1].read_bytes()))
    assert seen[0][0] == seen[1][0]
    assert seen[0][1] == seen[1][1]
