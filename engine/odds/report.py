"""Plain-text summaries of odds results and the bars of their charts (the formatters:
results stay pure values, these turn them into words; the bot and the CLI share them)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Mapping

from engine.core.words import plural
from engine.odds.aa_units import RULES_NAMES, catalogue, format_army

if TYPE_CHECKING:  # the formatters only read results: no calculator imported at run time
    from engine.odds.aa import AAOdds
    from engine.odds.memoir import MemoirBattleOdds, MemoirOdds
    from engine.odds.minis import MinisAttack, MinisOdds
    from engine.odds.minis_game import LiveAttack

Bars = list[tuple[str, float]]
Section = tuple[str, Bars]


# An error bound above this could move a printed chance (tenths of a percent): the
# report then says the answer is not exact instead of "computed exactly".
NOT_EXACT = 1e-6


def percent(p: float | Fraction) -> str:
    """``0.6321`` → ``"63.2%"``; tiny but possible values never print as 0% or 100%."""
    x = float(p) * 100
    if x <= 0:
        return "0%"
    if x >= 100:
        return "100%"
    if x < 0.1:
        return "<0.1%"
    if x > 99.9:
        return ">99.9%"
    return f"{x:.1f}%"


def _army(expected: Mapping[str, float]) -> str:
    parts = [f"{v:.2f} {_short(k)}" for k, v in expected.items() if v > 0.005]
    return ", ".join(parts) if parts else "nothing"


def _short(name: str) -> str:
    return catalogue().profile(name).short


def aa_lines(odds: AAOdds) -> list[str]:
    b = odds.battle
    kind = {"land": "land battle", "sea": "sea battle", "amphibious": "amphibious assault"}[b.mode]
    lines = [f"{format_army(b.attacker)} attack {format_army(b.defender)} ({kind})"]
    if b.bombard:
        lines[0] += f", bombarded by {format_army(b.bombard)}"
    extras = []
    if b.rules != "anniversary":
        extras.append(f"{RULES_NAMES.get(b.rules, b.rules)} profiles")
    if b.low_luck:
        extras.append("low luck")
    for side, techs in (("attacker", b.tech_attacker), ("defender", b.tech_defender)):
        if techs:
            extras.append(f"{side} with {', '.join(sorted(techs))}")
    for side, asked in (("attacker", b.submerge_attacker), ("defender", b.submerge_defender)):
        if asked:
            extras.append(f"{side}'s submarines submerge when alone")
    if b.overland:
        extras.append(f"{format_army(b.overland)} came over land")
    if b.rounds is not None:
        extras.append(f"{plural(b.rounds, 'round')} at most")
    if b.retreat_after is not None:
        extras.append(f"attacker retreats after round {b.retreat_after}")
    if b.keep_land_unit:
        n = int(b.keep_land_unit)
        extras.append("attacker loses its last land unit last" if n == 1
                      else f"attacker loses its last {n} land units last")
    if b.retreat_below:
        left = b.retreat_below - 1
        extras.append(f"attacker retreats with {plural(left, 'unit')} or fewer left")
    if b.retreat_chance is not None:
        extras.append(f"attacker retreats when its chance to win falls below {b.retreat_chance:g}%")
    if extras:
        lines[0] += " — " + ", ".join(extras)
    if odds.fight_on is not None:
        # the landed units fight on after the retreat; the whole assault first,
        # then the battle up to the retreat (what the lines below describe).
        w = odds.fight_on
        lines.append(_outcome(b.mode, w["attacker_win"], w["attacker_takes"], w["defender_win"], w["draw"]))
        lines.append("The aircraft and the units that came over land retreat "
                     f"{percent(odds.retreat)}; the units landed from the sea fight on to the end (A-10.3)")
        whole = odds.fight_on_losses
        if whole is not None:
            lost, ipcs = whole["expected_units_lost"], whole["expected_ipc_loss"]
            lines.append(
                f"The whole assault: expected losses attacker {lost['attacker']:.2f} units / "
                f"{ipcs['attacker']:.1f} IPC, defender {lost['defender']:.2f} units / {ipcs['defender']:.1f} IPC"
                f" · TUV swing {whole['tuv_swing']:+.1f} IPC for the attacker"
            )
        first = _outcome(b.mode, odds.attacker_win, odds.attacker_takes, odds.defender_win, odds.draw)
        lines.append("Up to the retreat: " + first[0].lower() + first[1:])
    else:
        lines.append(_outcome(b.mode, odds.attacker_win, odds.attacker_takes, odds.defender_win, odds.draw))
    parts = []
    if odds.retreat and odds.fight_on is None:
        parts.append(f"attacker retreats {percent(odds.retreat)}")
    if odds.unfinished:
        parts.append(f"still fighting after {b.rounds} round(s) {percent(odds.unfinished)}")
    if odds.stalemate:
        parts.append(f"stalemate (no one can hit) {percent(odds.stalemate)}")
    if parts:
        lines.append("Defender holds includes: " + ", ".join(parts))
    upto = " up to the retreat" if odds.fight_on is not None else ""
    lines.append(
        f"Expected survivors{upto}: attacker {_army(odds.expected_survivors['attacker'])}; "
        f"defender {_army(odds.expected_survivors['defender'])}"
    )
    lines.append(
        f"Expected losses{upto}: attacker {odds.expected_units_lost('attacker'):.2f} units / "
        f"{odds.expected_ipc_loss['attacker']:.1f} IPC, defender "
        f"{odds.expected_units_lost('defender'):.2f} units / {odds.expected_ipc_loss['defender']:.1f} IPC"
        f" · TUV swing {odds.tuv_swing:+.1f} IPC for the attacker"
    )
    if odds.second_wave is not None:
        w = odds.second_wave
        outcome = _outcome(b.mode, w["attacker_win"], w["attacker_takes"], w["defender_win"], w["draw"])
        joined = f", joined by the first wave's units still fighting after round {b.rounds}," if b.wave2_joins else ""
        lines.append(f"With the second wave ({format_army(b.wave2)}){joined} attacking the survivors: "
                     + outcome[0].lower() + outcome[1:])
    best = odds.survivors["attacker"][0] if odds.survivors["attacker"] else None
    if best is not None:
        lines.append(
            f"Most likely attacker survivors{upto}: {format_army(best[0])} ({percent(best[1])}); "
            f"average battle {odds.expected_rounds:.1f} rounds"
        )
    if odds.exact is None and odds.error_bound > NOT_EXACT:
        # Never "exactly" when the bound could move a printed chance.
        x = min(odds.error_bound, 1.0) * 100
        points = f"{x:.0f}" if x >= 1 else f"{x:.2g}"
        lines.append(f"Not exact: every chance may be off by up to {points} percentage points, no simulation.")
    else:
        exact = "exact fractions" if odds.exact is not None else f"error below {max(odds.error_bound, 1e-15):.0e}"
        lines.append(f"Computed exactly ({exact}), no simulation.")
    return lines


def _outcome(mode: str, win: float, takes: float, held: float, draw: float, *, bold: bool = False) -> str:
    """The battle's outcome in one line (``bold``: the winning chance emphasised)."""
    wins = f"Attacker wins {percent(win)}"
    line = f"{f'**{wins}**' if bold else wins} · defender holds {percent(held)} · both destroyed {percent(draw)}"
    return line if mode == "sea" else f"{line} · takes the territory {percent(takes)}"


def aa_headline(odds: AAOdds) -> str:
    """The key numbers in one emphasised line (the chat answer's second line): the
    whole assault's where the landed units fight on after a retreat (A-10.3)."""
    w = odds.fight_on
    if w is not None:
        return _outcome(odds.battle.mode, w["attacker_win"], w["attacker_takes"], w["defender_win"], w["draw"],
                        bold=True)
    return _outcome(odds.battle.mode, odds.attacker_win, odds.attacker_takes, odds.defender_win, odds.draw,
                    bold=True)

def aa_sections(odds: AAOdds) -> list[Section]:
    outcome: Bars = [
        ("Attacker wins", odds.attacker_win),
        ("Defender holds", odds.defender_win),
        ("Both destroyed", odds.draw),
    ]
    if odds.battle.mode != "sea":
        outcome.append(("Attacker takes", odds.attacker_takes))
    sections: list[Section] = [("Outcome" if odds.fight_on is None else "Up to the retreat", outcome)]
    for who in ("attacker", "defender"):
        sections.append((f"Surviving {who} units", _count_bars(odds.survivor_count[who])))
    # Last, so the sections' colours keep their places.
    for title, w in (("With the second wave", odds.second_wave), ("The landed units fighting on", odds.fight_on)):
        if w is None:
            continue
        whole: Bars = [("Attacker wins", w["attacker_win"]), ("Defender holds", w["defender_win"]),
                       ("Both destroyed", w["draw"])]  # fmt: skip
        if odds.battle.mode != "sea":
            whole.append(("Attacker takes", w["attacker_takes"]))
        sections.append((title, whole))
    return sections


def _count_bars(counts: Mapping[int, float], most: int = 9) -> Bars:
    """Bars of a survivor-count distribution, most survivors first.  Counts above the
    last one with at least 0.1% join the top bar ("12+ left"); with many distinct
    counts the others are grouped into ranges, so that no mass is ever left out."""
    top = max((n for n, p in counts.items() if p >= 0.001), default=0)
    if top == 0 and any(p > 0 for n, p in counts.items() if n > 0):
        top = 1
    tail = sum(p for n, p in counts.items() if n > top)
    width = 1 if top + 1 <= most else -(-top // (most - 1))  # ceil
    bars: Bars = []
    hi = top
    while hi >= 1:
        lo = max(1, hi - width + 1)
        label = f"{lo}-{hi}" if lo < hi else f"{hi}"
        mass = sum(p for n, p in counts.items() if lo <= n <= hi)
        if hi == top and tail > 0:
            label, mass = f"{lo}+", mass + tail
        bars.append((f"{label} left", mass))
        hi = lo - 1
    bars.append(("0 left", counts.get(0, 0.0)))
    return bars


def minis_lines(odds: MinisOdds) -> list[str]:
    a = odds.attack
    kind = "defensive fire" if a.defensive_fire else "attack"
    head = (
        f"{plural(a.dice, 'die', 'dice')} {kind} vs defense {a.defense}"
        + (f" (effective {a.effective_defense})" if a.effective_defense != a.defense else "")
        + f" {a.target}; each die succeeds {percent(odds.die_chance)}"
    )
    if odds.cover_chance is not None:
        head += f"; cover roll succeeds {percent(odds.cover_chance)}"
    if odds.flame_chance is not None:
        head += f"; three 6s (flamethrower) {percent(odds.flame_chance)}"
    hits = " · ".join(f"{_hits(h)} {percent(p)}" for h, p in _hit_rows(a, odds.hits))
    counters = " · ".join(f"{name} {percent(p)}" for name, p in _counter_rows(odds))
    lines = [head, hits]
    lines += _minis_extras(odds)
    lines += [f"Result: {counters}", f"Expected hits {float(odds.expected_hits):.2f} (exact)."]
    return lines


def _minis_extras(odds: MinisOdds) -> list[str]:
    """Lines for a second attack, Heavy Armor and Overheat (issue 19)."""
    out = []
    if odds.second_hits is not None:
        second = " · ".join(f"{_hits(h)} {percent(p)}" for h, p in _hit_rows(odds.attack, odds.second_hits)
                            if p or h == 0)  # fmt: skip
        if odds.second_made is not None and odds.second_made < 1:
            why = "the first shot stopped the mover" + (", or Overheat disrupted the gun" if odds.attack.overheat else "")
            second = f"not made {percent(1 - odds.second_made)} ({why}) · {second}"
        out.append(f"Second attack (Double Shot): {second}; the result is after both")
    if odds.heavy_armor_chance is not None:
        out.append(f"Heavy Armor used up (a Damaged counter ignored): {percent(odds.heavy_armor_chance)}")
    if odds.overheat_chance is not None:
        out.append(f"Overheat (three natural 1s disrupt the attacker): {percent(odds.overheat_chance)}")
    return out


def _hits(n: int) -> str:
    return "1 hit" if n == 1 else f"{n} hits"


def _hit_rows(a: MinisAttack, dist: Mapping[int, Fraction]) -> list[tuple[int, Fraction]]:
    """The hit counts a report shows: defensive fire only disrupts (M-12.4), so it shows
    0 and 1 hit, never 2 or more; the same in the text and the chart."""
    return [(h, p) for h, p in dist.items() if not (a.defensive_fire and h >= 2)]


def _counter_rows(odds: MinisOdds) -> list[tuple[str, Fraction]]:
    """The results a report shows: each counter that can come, and "no effect" always."""
    return [(_COUNTER_NAMES[c], p) for c, p in odds.counters.items() if p or c == "none"]


_COUNTER_NAMES = {
    "none": "no effect",
    "disrupted": "disrupted",
    "damaged": "disrupted + damaged",
    "destroyed": "destroyed",
}


def minis_subtitle(odds: MinisOdds) -> str:
    """A short description of the attack for the chart."""
    a = odds.attack
    parts = [f"{plural(a.dice, 'die', 'dice')} vs defense {a.effective_defense} {a.target}"]
    if a.cover_automatic:
        parts.append("automatic cover")
    elif a.cover is not None:
        parts.append(f"cover {a.cover}+" + (" same hex" if a.same_hex else ""))
    if a.defensive_fire:
        parts.append("defensive fire")
    parts += [name for name, on in (("Double Shot", a.attacks == 2), ("Heavy Armor", a.heavy_armor),
                                    ("Overheat", a.overheat)) if on]  # fmt: skip
    return ", ".join(parts)


def minis_sections(odds: MinisOdds) -> list[Section]:
    """Hits, then the second attack's (Double Shot), the result after every attack, and
    the chances of Heavy Armor being used up and of Overheat (issue 19)."""
    a = odds.attack

    def hit_bars(dist: Mapping[int, Fraction]) -> list[tuple[str, float]]:
        return [(_hits(h), float(p)) for h, p in _hit_rows(a, dist)]

    counters = [(name, float(p)) for name, p in _counter_rows(odds)]
    if odds.second_hits is None:
        sections: list[Section] = [("Hits", hit_bars(odds.hits))]
    else:
        second = hit_bars(odds.second_hits)
        if odds.second_made is not None and odds.second_made < 1:
            second.insert(0, ("not made", float(1 - odds.second_made)))
        sections = [("Hits, first attack", hit_bars(odds.hits)), ("Hits, second attack", second)]
    sections.append(("Result" if odds.second_hits is None else "Result after both", counters))
    extra = [(label, float(p)) for label, p in (("Heavy Armor used up", odds.heavy_armor_chance),
                                                ("Overheat: attacker disrupted", odds.overheat_chance)) if p is not None]
    if extra:
        sections.append(("Abilities", extra))
    return sections


def minis_live_lines(live: LiveAttack, odds: MinisOdds) -> list[str]:
    """An attack of a live game: the units, every number derived from the game, then
    the odds (:func:`minis_lines`) and what they leave out."""
    a = live.attack
    verb = {"defensive": "defensive fire at", "cannon": "hull-mounted cannon at"}.get(live.kind, "attacks")
    where = f", {live.where} hex" if live.where else ""
    lines = [
        f"{live.attacker} {live.attacker_name} ({live.attacker_hex}) {verb} {live.target} "
        f"{live.target_name} ({live.target_hex}{where}): {live.distance} hex"
        f"{'' if live.distance == 1 else 'es'}, {live.band} range"
    ]
    modifier = a.die_modifier - (1 if a.attacker_penalty else 0)
    rolled = f"{plural(a.dice, 'die', 'dice')}, die modifier {modifier:+d}"
    if live.modifier_parts:
        rolled += f" ({', '.join(live.modifier_parts)})"
    rolled += f": each succeeds {percent(odds.die_chance)}"
    if a.target == "vehicle":
        arc = "front" if live.front else "rear"
        base = live.defense_front if live.front else live.defense_rear
        defense = f"defense {live.defense_front} front / {live.defense_rear} rear, {arc} arc: {base}"
    else:
        base = live.defense_front
        defense = f"defense {base}"
    if live.defense_parts:
        defense += " " + " ".join(live.defense_parts) + f" = {a.effective_defense}"
    cover = f"cover: {live.cover}"
    if odds.cover_chance is not None:
        cover += f" (succeeds {percent(odds.cover_chance)})"
    lines.append(f"{rolled} · {defense} · {cover}")
    if live.special:
        lines.append("Abilities: " + ", ".join(live.special))
    lines += minis_lines(odds)[1:]
    lines += [f"Note: {n}" for n in live.notes]
    return lines


def minis_extra_attack_line(odds: MinisOdds) -> str:
    """One line for an attack followed by its All Guns Blazing extra attack at the same
    Soldier (``odds`` of the attack made twice)."""
    counters = " · ".join(
        f"{_COUNTER_NAMES[c]} {percent(p)}" for c, p in odds.counters.items() if p or c == "none"
    )
    return f"With the All Guns Blazing extra attack at it too: {counters}"


def minis_blast_line(live: LiveAttack, odds: MinisOdds) -> str:
    """One line for a Blast attack on another unit in the target hex."""
    counters = " · ".join(
        f"{_COUNTER_NAMES[c]} {percent(p)}" for c, p in odds.counters.items() if p or c == "none"
    )
    return (f"Blast also attacks {live.target} {live.target_name} "
            f"({plural(live.attack.dice, 'die', 'dice')} vs defense "
            f"{live.attack.effective_defense}, cover: {live.cover}): {counters}")


def memoir_lines(odds: MemoirOdds) -> list[str]:
    r = odds.roll
    hits = " · ".join(f"{k}: {percent(p)}" for k, p in enumerate(odds.hits))
    lines = [
        f"{plural(r.dice, 'battle die', 'battle dice')} vs {r.target}: hits {hits}",
        f"At least one hit {percent(1 - odds.hits[0])} · at least one flag "
        f"{percent(1 - odds.flags[0])} · expected hits {float(odds.expected_hits):.2f}",
    ]
    if odds.eliminate is not None and odds.figures_lost is not None:
        room = r.room
        how = (
            "retreat blocked: every flag costs a figure" if room == 0
            else "retreat open" if room is None
            else f"room to retreat {room} hex(es)"
        )  # fmt: skip
        if r.ignore_flags:
            how += f", ignores {r.ignore_flags} flag(s)"
        lines.append(
            f"Eliminates a {r.figures}-figure unit: {percent(odds.eliminate)} ({how})"
        )
        lost = " · ".join(f"{k}: {percent(p)}" for k, p in enumerate(odds.figures_lost))
        lines.append(f"Figures lost {lost}")
    return lines


def memoir_subtitle(odds: MemoirOdds) -> str:
    r = odds.roll
    text = f"{plural(r.dice, 'die', 'dice')} vs {r.target}"
    if r.figures is not None:
        room = r.room
        text += f", {plural(r.figures, 'figure')}, " + (
            "retreat blocked" if room == 0 else "retreat open" if room is None else f"room {room}"
        )
    return text


def memoir_sections(odds: MemoirOdds) -> list[Section]:
    sections: list[Section] = [("Hits", [(str(k), float(p)) for k, p in enumerate(odds.hits)])]
    if odds.figures_lost is not None:
        k = len(odds.figures_lost) - 1
        bars = [(f"{n} lost" if n < k else f"{n}: eliminated", float(p)) for n, p in enumerate(odds.figures_lost)]
        sections.append(("Figures lost", bars))
    return sections


def memoir_battle_sections(whole: MemoirBattleOdds, dice: MemoirOdds) -> list[Section]:
    """The chart of a whole close assault: what the Ambush, the battle and the Overrun
    come to, then the battle dice (:func:`memoir_sections`)."""
    b = whole.battle
    bars: list[tuple[str, float]] = []
    if whole.ambush is not None and b.ambush is not None:
        bars.append(("Ambush cancels it", float(whole.cancelled)))
    bars += [("Target eliminated", float(whole.target_eliminated)), ("Ground can be taken", float(whole.success))]
    if whole.overrun is not None and b.overrun is not None:
        bars += [("Overrun made", float(whole.overrun_made)), ("Overrun eliminates", float(whole.overrun_eliminated))]
    return [("Close assault", bars), *memoir_sections(dice)]


def memoir_battle_lines(odds: MemoirBattleOdds) -> list[str]:
    """The whole close assault: Ambush, the battle, Take Ground and Overrun."""
    b = odds.battle
    assert b.attack.figures is not None  # a whole close assault names them (MemoirBattle refuses it otherwise)
    lines = [f"Close assault by {b.attacker} on {b.attack.target} ({plural(b.attack.figures, 'figure')})"]
    if odds.ambush is not None and b.ambush is not None:
        lines.append(
            f"Ambush first ({plural(b.ambush.dice, 'die', 'dice')} at the {b.attacker}): attack cancelled "
            f"{percent(odds.cancelled)} (attacker eliminated {percent(odds.attacker_eliminated)})"
        )
    lines.append(
        f"Target eliminated {percent(odds.target_eliminated)} · out of its hex or eliminated "
        f"{percent(odds.success)} (ground can be taken)"
    )
    if odds.overrun is not None and b.overrun is not None and b.overrun.figures is not None:
        lines.append(
            f"Overrun ({plural(b.overrun.dice, 'die', 'dice')} at {b.overrun.target}, "
            f"{plural(b.overrun.figures, 'figure')}): made "
            f"{percent(odds.overrun_made)}, eliminates {percent(odds.overrun_eliminated)}"
        )
    lines.append(
        f"Expected medals: attacker {float(odds.medals_attacker):.2f}, defender "
        f"{float(odds.medals_defender):.2f} (exact fractions)"
    )
    return lines
