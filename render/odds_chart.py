"""The odds charts: one per kind of answer, drawn by :func:`render.chart.bar_chart` from
the report's sections (:mod:`engine.odds.report`), the same for the slash commands and
``warroom odds … --chart``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.odds.report import (
    aa_sections, memoir_battle_lines, memoir_battle_sections, memoir_sections, memoir_subtitle, minis_sections,
    minis_subtitle,
)  # fmt: skip
from render.chart import ATTACKER, DEFENDER, bar_chart

if TYPE_CHECKING:
    from engine.odds.aa import AAOdds
    from engine.odds.memoir import MemoirBattleOdds, MemoirOdds
    from engine.odds.minis import MinisOdds


def aa_chart(odds: AAOdds, headline: str) -> bytes:
    """An A&A battle: its outcome, then each side's survivors; ``headline`` is the
    report's first line (the battle and its options)."""
    return bar_chart("A&A battle odds", aa_sections(odds), subtitle=headline, section_colors=(None, ATTACKER, DEFENDER))


def minis_chart(odds: MinisOdds, units: str = "") -> bytes:
    """An A&A Miniatures attack; ``units`` names the two units of a live game."""
    subtitle = f"{units}: {minis_subtitle(odds)}" if units else minis_subtitle(odds)
    return bar_chart("A&A Miniatures attack", minis_sections(odds), subtitle=subtitle)


def memoir_chart(odds: MemoirOdds, whole: MemoirBattleOdds | None = None) -> bytes:
    """Memoir '44 battle dice, or the whole close assault (``whole``) they are part of."""
    if whole is None:
        return bar_chart("Memoir '44 battle dice", memoir_sections(odds), subtitle=memoir_subtitle(odds))
    return bar_chart("Memoir '44 close assault", memoir_battle_sections(whole, odds),
                     subtitle=memoir_battle_lines(whole)[0])  # fmt: skip
