"""``/odds aa``, ``/odds minis``, ``/odds memoir``: exact odds, no game needed.

Each answers publicly with the key numbers and a small chart.  The maths is in
:mod:`engine.odds`; big A&A battles are refused with a clear message before any long
computation (``MAX_UNITS``, ``MAX_CELLS``, ``MAX_STATES``), so every answer comes well
under a second.
"""

from __future__ import annotations

import asyncio

from bot.commands.base import Option, command
from bot.context import Attachment, Ctx
from engine.odds.aa import MODES, AABattle, AAOdds, aa_odds
from engine.odds.memoir import ARMOR, ARTILLERY, INFANTRY, MemoirRoll, memoir_odds
from engine.odds.minis import SOLDIER, VEHICLE, MinisAttack, minis_odds
from engine.odds.report import (
    aa_lines, aa_sections, memoir_lines, memoir_sections, memoir_subtitle, minis_lines,
    minis_sections, minis_subtitle, percent,
)  # fmt: skip
from render.chart import ATTACKER, DEFENDER, bar_chart

# Work limits for Discord (the CLI has none): a 100-vs-100 land battle fits.
MAX_UNITS = 120  # per side
MAX_CELLS = 16_000  # fast engine: attacker states x defender states (AA fire multiplies)
MAX_STATES = 4_000  # general engine (submarines): battle states processed


def _aa(battle: AABattle) -> AAOdds:
    return aa_odds(battle, max_units=MAX_UNITS, max_cells=MAX_CELLS, max_states=MAX_STATES)


@command(
    "odds aa",
    "Exact odds of an Axis & Allies Anniversary battle",
    Option("attacker", str, 'Attacking units, e.g. "3 inf, 1 art, 2 tank, 1 fighter"'),
    Option("defender", str, 'Defending units, e.g. "4 inf, 1 aa"'),
    Option("kind", str, "Land, sea or amphibious", required=False, default="land", choices=MODES),
    Option("bombard", str, 'Amphibious: bombarding ships, e.g. "1 battleship"', required=False, default=""),
    Option("ool_attacker", str, 'Attacker order of loss, e.g. "inf,art,tank,fighter"', required=False, default=""),
    Option("ool_defender", str, "Defender order of loss", required=False, default=""),
    Option("rounds", int, "Fight this many rounds only", required=False, min_value=1, max_value=50),
    Option("retreat_below", int, "Attacker retreats when fewer units remain", required=False,
           default=0, min_value=0, max_value=MAX_UNITS),  # fmt: skip
    Option("keep_land", bool, "Attacker keeps a land unit to take the territory", required=False, default=False),
    Option("submerge", str, "Subs that submerge when alone", required=False, default="none",
           choices=("none", "attacker", "defender", "both")),  # fmt: skip
    Option("attacker_tech", str, 'e.g. "jets, heavy bombers"', required=False, default=""),
    Option("defender_tech", str, 'e.g. "radar"', required=False, default=""),
)
async def odds_aa(
    ctx: Ctx,
    attacker: str,
    defender: str,
    kind: str,
    bombard: str,
    ool_attacker: str,
    ool_defender: str,
    rounds: int | None,
    retreat_below: int,
    keep_land: bool,
    submerge: str,
    attacker_tech: str,
    defender_tech: str,
) -> None:
    battle = AABattle.parse(
        attacker,
        defender,
        mode=kind,
        bombard=bombard,
        ool_attacker=ool_attacker,
        ool_defender=ool_defender,
        tech_attacker=attacker_tech,
        tech_defender=defender_tech,
        rounds=rounds,
        retreat_below=retreat_below,
        keep_land_unit=keep_land,
        submerge_attacker=submerge in ("attacker", "both"),
        submerge_defender=submerge in ("defender", "both"),
    )
    odds = await asyncio.to_thread(_aa, battle)
    lines = aa_lines(odds)
    head = f"**Attacker wins {percent(odds.attacker_win)}** · defender holds {percent(odds.defender_win)}"
    head += f" · both destroyed {percent(odds.draw)}"
    if kind != "sea":
        head += f" · takes the territory {percent(odds.attacker_takes)}"
    text = "\n".join([lines[0], head, *lines[2:]])
    png = bar_chart(
        "A&A battle odds", aa_sections(odds), subtitle=lines[0], section_colors=(None, ATTACKER, DEFENDER)
    )
    await ctx.reply(text, ephemeral=False, files=[Attachment("odds-aa.png", png)])


@command(
    "odds minis",
    "Exact odds of one A&A Miniatures attack",
    Option("dice", int, "Attack dice", min_value=1, max_value=60),
    Option("defense", int, "Target defense (front or rear as it applies)", min_value=1, max_value=20),
    Option("attacker_penalty", bool, "Attacker disrupted or damaged (-1 each die)", required=False, default=False),
    Option("target_penalty", bool, "Target disrupted or damaged (-1 defense)", required=False, default=False),
    Option("target", str, "Target type", required=False, default=VEHICLE, choices=(VEHICLE, SOLDIER)),
    Option("target_damaged", bool, "Target is a damaged vehicle", required=False, default=False),
    Option("cover", int, "Cover roll needed (4 Soldier, 5 Vehicle)", required=False, min_value=1, max_value=7),
    Option("same_hex", bool, "Attacker in the target's hex (-1 cover roll)", required=False, default=False),
    Option("defensive_fire", bool, "Defensive fire (reaching defense disrupts)", required=False, default=False),
    Option("die_modifier", int, '"Each attack die" modifier', required=False, default=0, min_value=-5, max_value=5),
    Option("shrapnel", int, "Shrapnel N vs Soldiers", required=False, default=1, min_value=1, max_value=4),
    Option("superior_armor", int, "Target's Superior Armor N", required=False, default=0, min_value=0, max_value=6),
    Option("armor_piercing", bool, "Armor-Piercing Rounds", required=False, default=False),
)
async def odds_minis(
    ctx: Ctx,
    dice: int,
    defense: int,
    attacker_penalty: bool,
    target_penalty: bool,
    target: str,
    target_damaged: bool,
    cover: int | None,
    same_hex: bool,
    defensive_fire: bool,
    die_modifier: int,
    shrapnel: int,
    superior_armor: int,
    armor_piercing: bool,
) -> None:
    odds = minis_odds(
        MinisAttack(
            dice=dice,
            defense=defense,
            die_modifier=die_modifier,
            attacker_penalty=attacker_penalty,
            target_penalty=target_penalty,
            target=target,
            target_damaged=target_damaged,
            cover=cover,
            same_hex=same_hex,
            defensive_fire=defensive_fire,
            shrapnel=shrapnel,
            superior_armor=superior_armor,
            armor_piercing=armor_piercing,
        )
    )
    lines = minis_lines(odds)
    lines[1] = f"**{lines[1]}**"
    png = bar_chart("A&A Miniatures attack", minis_sections(odds), subtitle=minis_subtitle(odds))
    await ctx.reply("\n".join(lines), ephemeral=False, files=[Attachment("odds-minis.png", png)])


@command(
    "odds memoir",
    "Exact odds of Memoir '44 battle dice",
    Option("dice", int, "How many dice", min_value=1, max_value=12),
    Option("target", str, "What is hit", choices=(INFANTRY, ARMOR, ARTILLERY)),
    Option("figures", int, "Figures in the target unit", required=False, min_value=1, max_value=6),
    Option("blocked", bool, "Retreat blocked: each flag costs a figure", required=False, default=False),
    Option("retreat_room", int, "Hexes the unit can still retreat", required=False, min_value=0, max_value=12),
    Option("ignore_flags", int, "Flags the unit may ignore", required=False, default=0, min_value=0, max_value=3),
)
async def odds_memoir(
    ctx: Ctx,
    dice: int,
    target: str,
    figures: int | None,
    blocked: bool,
    retreat_room: int | None,
    ignore_flags: int,
) -> None:
    odds = memoir_odds(
        MemoirRoll(
            dice=dice,
            target=target,
            figures=figures,
            blocked=blocked,
            retreat_room=retreat_room,
            ignore_flags=ignore_flags,
        )
    )
    lines = memoir_lines(odds)
    if len(lines) > 2:
        lines[2] = f"**{lines[2]}**"
    else:
        lines[1] = f"**{lines[1]}**"
    png = bar_chart("Memoir '44 battle dice", memoir_sections(odds), subtitle=memoir_subtitle(odds))
    await ctx.reply("\n".join(lines), ephemeral=False, files=[Attachment("odds-memoir.png", png)])
