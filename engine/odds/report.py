"""Plain-text summaries of odds results and the bars of their charts (the formatters:
results stay pure values, these turn them into words; the bot and the CLI share them)."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from engine.odds.aa import AAOdds
from engine.odds.aa_units import catalogue, format_army
from engine.odds.memoir import MemoirOdds
from engine.odds.minis import MinisOdds

Bars = list[tuple[str, float]]
Section = tuple[str, Bars]


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
    take = "" if b.mode == "sea" else f" (takes the territory {percent(odds.attacker_takes)})"
    lines.append(
        f"Attacker wins {percent(odds.attacker_win)}{take} · defender holds "
        f"{percent(odds.defender_win)} · both destroyed {percent(odds.draw)}"
    )
    parts = []
    if odds.retreat:
        parts.append(f"attacker retreats {percent(odds.retreat)}")
    if odds.unfinished:
        parts.append(f"still fighting after {b.rounds} round(s) {percent(odds.unfinished)}")
    if odds.stalemate:
        parts.append(f"stalemate (no one can hit) {percent(odds.stalemate)}")
    if parts:
        lines.append("Defender holds includes: " + ", ".join(parts))
    lines.append(
        f"Expected survivors: attacker {_army(odds.expected_survivors['attacker'])}; "
        f"defender {_army(odds.expected_survivors['defender'])}"
    )
    lines.append(
        f"Expected IPC lost: attacker {odds.expected_ipc_loss['attacker']:.1f}, "
        f"defender {odds.expected_ipc_loss['defender']:.1f}"
    )
    best = odds.survivors["attacker"][0] if odds.survivors["attacker"] else None
    if best is not None:
        lines.append(
            f"Most likely attacker survivors: {format_army(best[0])} ({percent(best[1])}); "
            f"average battle {odds.expected_rounds:.1f} rounds"
        )
    exact = "exact fractions" if odds.exact is not None else f"error below {max(odds.error_bound, 1e-15):.0e}"
    lines.append(f"Computed exactly ({exact}), no simulation.")
    return lines


def aa_sections(odds: AAOdds) -> list[Section]:
    outcome: Bars = [
        ("Attacker wins", odds.attacker_win),
        ("Defender holds", odds.defender_win),
        ("Both destroyed", odds.draw),
    ]
    if odds.battle.mode != "sea":
        outcome.append(("Attacker takes", odds.attacker_takes))
    sections: list[Section] = [("Outcome", outcome)]
    for who in ("attacker", "defender"):
        sections.append((f"Surviving {who} units", _count_bars(odds.survivor_count[who])))
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
        f"{a.dice} dice {kind} vs defense {a.defense}"
        + (f" (effective {a.effective_defense})" if a.effective_defense != a.defense else "")
        + f" {a.target}; each die succeeds {percent(odds.die_chance)}"
    )
    if odds.cover_chance is not None:
        head += f"; cover roll succeeds {percent(odds.cover_chance)}"
    names = {0: "0 hits", 1: "1 hit", 2: "2 hits", 3: "3 hits"}
    shown = [h for h in odds.hits if not (a.defensive_fire and h >= 2)]
    hits = " · ".join(f"{names[h]} {percent(odds.hits[h])}" for h in shown)
    counters = " · ".join(
        f"{_COUNTER_NAMES[c]} {percent(p)}" for c, p in odds.counters.items() if p or c == "none"
    )
    return [head, hits, f"Result: {counters}", f"Expected hits {float(odds.expected_hits):.2f} (exact)."]


_COUNTER_NAMES = {
    "none": "no effect",
    "disrupted": "disrupted",
    "damaged": "disrupted + damaged",
    "destroyed": "destroyed",
}


def minis_subtitle(odds: MinisOdds) -> str:
    """A short description of the attack for the chart."""
    a = odds.attack
    parts = [f"{a.dice} dice vs defense {a.effective_defense} {a.target}"]
    if a.cover is not None:
        parts.append(f"cover {a.cover}+" + (" same hex" if a.same_hex else ""))
    if a.defensive_fire:
        parts.append("defensive fire")
    return ", ".join(parts)


def minis_sections(odds: MinisOdds) -> list[Section]:
    a = odds.attack
    hits = [(f"{h} hit" + ("" if h == 1 else "s"), float(p)) for h, p in odds.hits.items()
            if not (a.defensive_fire and h >= 2)]  # fmt: skip
    counters = [(_COUNTER_NAMES[c], float(p)) for c, p in odds.counters.items() if p or c == "none"]
    return [("Hits", hits), ("Result", counters)]


def memoir_lines(odds: MemoirOdds) -> list[str]:
    r = odds.roll
    hits = " · ".join(f"{k}: {percent(p)}" for k, p in enumerate(odds.hits))
    lines = [
        f"{r.dice} battle dice vs {r.target}: hits {hits}",
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
    text = f"{r.dice} dice vs {r.target}"
    if r.figures is not None:
        room = r.room
        text += f", {r.figures} figures, " + (
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
