"""Unit type symbols chosen from the card facts (M-1.5) and drawn so that no two look
alike; the roll picture (expression, every die, the result)."""

from __future__ import annotations

import itertools

from PIL import Image

from engine.core.dice import scripted_dice
from engine.minis.catalogue import load_catalogue
from render.core.legibility import TEXT_MIN, problems, shown_cap
from render.dice import RolledDie, roll_picture, roll_png
from render.minis.symbols import SYMBOL_NAMES, SYMBOLS, symbol_for
from render.minis.theme import theme
from render.minis.tokens import bar_sprite

EXPECTED = {
    # Soldiers
    "mauser-kar-98k": "rifle", "m1-garand-rifle": "rifle", "thompson-gunner": "rifle",
    "ss-panzergrenadier": "rifle", "mosin-nagant-1891-30": "rifle",
    "mg-42-machine-gun-team": "machine-gun", "vickers-machine-gun-team": "machine-gun",
    "kuomintang-mg-team": "machine-gun",
    "bazooka": "anti-tank",
    "type-89-mortar": "mortar", "3-inch-mortar": "mortar",
    "pak-38-antitank-gun": "gun", "6-pounder-antitank-gun": "gun",
    "royal-engineers": "engineer",
    "red-devil-captain": "commander", "ss-hauptsturmfuhrer": "commander", "commissar": "commander",
    # Vehicles
    "m4a1-sherman": "tank", "tiger-i": "tank", "panzer-iv-ausf-g": "tank", "m3-stuart": "tank",
    "sd-kfz-251": "transport", "sd-kfz-222": "armoured-car", "hummel": "sp-gun", "sig-33": "sp-gun",
}


def test_soldier_and_vehicle_symbols_come_from_the_card_facts() -> None:
    cat = load_catalogue()
    th = theme()
    for key, sym in EXPECTED.items():
        assert symbol_for(cat[key], th) == sym, key
    # every card gets a known symbol, and every Soldier symbol is used by some card
    used = {symbol_for(c, th) for c in cat.values()}
    assert used <= set(SYMBOLS)
    assert {"rifle", "machine-gun", "anti-tank", "mortar", "gun", "engineer", "commander"} <= used
    assert set(SYMBOL_NAMES) == set(SYMBOLS)


def test_no_two_symbols_look_alike() -> None:
    """Drawn in a close-up-sized cap (40 px), the ink of any two symbols differs in at
    least 15 % of the pixels either one inks (Jaccard distance; the shared frame keeps it
    below 1)."""
    side = theme().sides["allies"]
    ink = {}
    for sym in SYMBOLS:
        cap = bar_sprite(40, 40, 40, (128, 128, 128, 255), side.cap, sym, side.cap_symbol,
                         (16, 20, 20, 255), None, 4.0).convert("L")
        ink[sym] = {(x, y) for y in range(6, 34) for x in range(6, 34) if cap.getpixel((x, y)) < 100}
    for a, b in itertools.combinations(SYMBOLS, 2):
        distance = 1 - len(ink[a] & ink[b]) / len(ink[a] | ink[b])
        assert distance >= 0.15, (a, b, distance)


def test_the_roll_picture_shows_the_expression_every_die_and_the_successes() -> None:
    faces = [RolledDie(v) for v in (6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1)]
    hits = [v >= 4 for v in (6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1)]
    pic = roll_picture("11d6>=4", faces, hits=hits, successes=6)
    texts = {it.kind: it.text for it in pic.items if it.text and it.face is not None}
    assert texts["roll-expression"] == "11d6>=4" and texts["roll-result"] == "6 successes"
    dice = [it for it in pic.items if it.kind == "die"]
    assert [it.text for it in dice] == ["6", "6", "6", "5", "4", "4", "3", "3", "3", "1", "1"]
    # succeeding dice solid, failing ones pale
    solid = [pic.image.getpixel((round(it.box[0]) + 5, round(it.box[1]) + 28)) for it in dice]
    assert solid[:6] == [(244, 240, 228)] * 6 and all(px != (244, 240, 228) for px in solid[6:])
    assert problems(pic.items, pic.image.width) == []


def test_the_roll_picture_shows_the_total_and_the_dropped_dice() -> None:
    pic = roll_picture("4d6kh3", [RolledDie(5), RolledDie(1, kept=False), RolledDie(4), RolledDie(6)], total=15)
    texts = [it.text for it in pic.items if it.face is not None]
    assert texts[0] == "4d6kh3" and texts[-1] == "Total 15"
    dropped = [it.text for it in pic.items if it.kind == "die-dropped"]
    assert dropped == ["1"]
    big = roll_picture("1d20+3", [RolledDie(17, 20)], total=20)
    assert [it.text for it in big.items if it.kind == "die"] == ["17"]  # numbers on other dice
    for p in (pic, big):
        assert all(shown_cap(it, p.image.width) >= TEXT_MIN["panel"] for it in p.items if it.face is not None)
    data = roll_png("4d6kh3", [RolledDie(5), RolledDie(1, kept=False), RolledDie(4), RolledDie(6)], total=15)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_roll_command_pictures_what_bot_roll_rolled() -> None:
    """bot.roll records every die with its sides and whether it was kept — what the
    picture needs."""
    from bot.roll import roll

    result = roll("4d6kh3", scripted_dice([5, 1, 4, 6]))
    assert result.faces == ((5, 6, True), (1, 6, False), (4, 6, True), (6, 6, True))
    assert result.total == 15
    pic = roll_picture(result.expression, [RolledDie(v, s, k) for v, s, k in result.faces], total=result.total)
    assert isinstance(pic.image, Image.Image)
    assert [it.text for it in pic.items if it.kind == "roll-result"] == ["Total 15"]
