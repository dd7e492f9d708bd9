"""What a league looks like from outside: the ``warroom league show NAME --json``
shape, the CSV of every result, the text tables for ``/league standings``,
``/league pairings`` and ``/league history``, match-thread titles and deadline text.
All pure functions of the league value."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence

from bot.league.model import League, Pairing, Round, Tiebreak, frac_float, frac_text
from bot.league.standings import Kind, Standing, round_records, standings

if TYPE_CHECKING:
    from render.league import TableImage

# Short column labels for tables (text and image), by tiebreak.
TIEBREAK_LABELS: dict[Tiebreak, str] = {
    Tiebreak.HEAD_TO_HEAD: "H2H",
    Tiebreak.WINS: "W",
    Tiebreak.BUCHHOLZ: "Buch",
    Tiebreak.MEDIAN_BUCHHOLZ: "Med",
    Tiebreak.CUMULATIVE: "Cum",
    Tiebreak.OPPONENTS_CUMULATIVE: "OppC",
}
TIEBREAK_TITLES: dict[Tiebreak, str] = {
    Tiebreak.HEAD_TO_HEAD: "head-to-head",
    Tiebreak.WINS: "wins",
    Tiebreak.BUCHHOLZ: "Buchholz",
    Tiebreak.MEDIAN_BUCHHOLZ: "median Buchholz",
    Tiebreak.CUMULATIVE: "cumulative",
    Tiebreak.OPPONENTS_CUMULATIVE: "opponents' cumulative",
}
WARNINGS_BEFORE = (timedelta(hours=48), timedelta(hours=24))


# -- JSON ------------------------------------------------------------------------

def show_json(league: League) -> dict[str, Any]:
    """``{"standings": [{"player", "points", "tiebreaks": {...}}], "rounds": [{"round",
    "pairings": [{"players", "sides", "result"}], "bye"}]}`` — players by display name,
    standings in rank order, numbers as JSON numbers (wins an integer)."""
    return {
        "standings": [_standing_json(s) for s in standings(league)],
        "rounds": [_round_json(league, r) for r in league.paired],
    }


def _standing_json(s: Standing) -> dict[str, Any]:
    t = s.tiebreaks
    return {
        "player": s.player.name,
        "points": frac_float(s.points),
        "tiebreaks": {
            "buchholz": frac_float(t.buchholz),
            "median_buchholz": frac_float(t.median_buchholz),
            "wins": t.wins,
            "cumulative": frac_float(t.cumulative),
            "opponents_cumulative": frac_float(t.opponents_cumulative),
            "head_to_head": frac_float(t.head_to_head),
        },
    }


def _round_json(league: League, r: Round) -> dict[str, Any]:
    return {
        "round": r.number,
        "pairings": [
            {
                "players": [league.name_of(p.players[0]), league.name_of(p.players[1])],
                "sides": [p.sides[0], p.sides[1]],
                "result": p.result.value if p.result is not None else None,
            }
            for p in r.pairings
        ],
        "bye": league.name_of(r.bye.player) if r.bye is not None else None,
    }


# -- CSV -------------------------------------------------------------------------

CSV_COLUMNS = ("round", "board", "player_1", "side_1", "player_2", "side_2", "result", "how",
               "points_1", "points_2")


def results_csv(league: League) -> str:
    """One row per pairing (an empty result while none is in) and one per bye
    (result "bye" or "half-point bye"), in round and board order."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    sc = league.scoring
    for r in league.paired:
        for p in r.pairings:
            if p.result is None:
                pts: tuple[str, str] = ("", "")
            else:
                pts = (frac_text(sc.points(p.result.outcome(0))), frac_text(sc.points(p.result.outcome(1))))
            w.writerow([r.number, p.board, league.name_of(p.players[0]), p.sides[0],
                        league.name_of(p.players[1]), p.sides[1],
                        p.result.value if p.result is not None else "", p.how, pts[0], pts[1]])
        if r.bye is not None:
            w.writerow([r.number, "", league.name_of(r.bye.player), "", "", "",
                        "half-point bye" if r.bye.half else "bye", "",
                        frac_text(sc.bye_points(r.bye)), ""])
    return out.getvalue()


# -- tables ----------------------------------------------------------------------

def standings_table(league: League) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[bool, ...]]:
    """(header, rows, dropped) for the standings: place, player, points, then the
    league's tiebreaks in its order.  ``dropped[i]`` marks a withdrawn player's row."""
    header = ("#", "Player", "Pts", *(TIEBREAK_LABELS[tb] for tb in league.tiebreaks))
    rows: list[tuple[str, ...]] = []
    dropped: list[bool] = []
    for s in standings(league):
        values = [frac_text(s.tiebreaks.value(tb)) for tb in league.tiebreaks]
        rows.append((str(s.place), s.player.name, frac_text(s.points), *values))
        dropped.append(s.player.dropped)
    return header, tuple(rows), tuple(dropped)


def _columns(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[k].ljust(widths[k]) if k == 1 else row[k].rjust(widths[k]) for k in range(len(row))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def standings_text(league: League) -> str:
    """The standings as a monospaced table (for a code block), with a legend."""
    header, rows, dropped = standings_table(league)
    shown = [tuple(r[:1]) + (r[1] + (" (dropped)" if d else ""),) + tuple(r[2:]) for r, d in zip(rows, dropped)]
    played = len(league.paired)
    title = f"{league.name} — standings after round {played}" if played else f"{league.name} — no round yet"
    legend = ", ".join(f"{TIEBREAK_LABELS[tb]} = {TIEBREAK_TITLES[tb]}" for tb in league.tiebreaks)
    return f"{title}\n{_columns(header, shown)}\n" + (f"Tiebreaks in order: {legend}" if legend else "")


def _result_text(league: League, p: Pairing) -> str:
    if p.result is None:
        return "pending"
    return p.result.value + (f" ({p.how})" if p.how and p.how != "game" else "")


def pairings_text(league: League, round_number: int | None = None) -> str:
    """A round's pairings (the current one by default), one board per line."""
    r = league.round(round_number) if round_number is not None else league.current
    if r is None:
        return f"{league.name} has no round yet."
    lines = [f"{league.name} — round {r.number} (deadline {deadline_text(r.deadline)})"]
    for p in r.pairings:
        a, b = league.name_of(p.players[0]), league.name_of(p.players[1])
        lines.append(f"{p.board}. {a} ({p.sides[0]}) vs {b} ({p.sides[1]}): {_result_text(league, p)}")
    if r.bye is not None:
        lines.append(f"Bye: {league.name_of(r.bye.player)}" + (" (half point)" if r.bye.half else ""))
    return "\n".join(lines)


def history_text(league: League, player: int) -> str:
    """One player's rounds: opponent, side, result and points, with the running score."""
    recs = round_records(league)[league.player(player).id]
    name = league.name_of(player)
    lines = [f"{name} in {league.name}"]
    total = Fraction(0)
    for rec in recs:
        total += rec.points
        if rec.kind in (Kind.BYE, Kind.HALF_BYE):
            what = rec.kind.value
        elif rec.kind is Kind.ABSENT:
            what = "not paired (dropped)"
        else:
            assert rec.opponent is not None
            side = league.sides[0] if rec.side == 1 else league.sides[1]
            outcome = rec.outcome.value if rec.outcome is not None else "pending"
            what = f"{outcome} vs {league.name_of(rec.opponent)} ({side})"
        lines.append(f"Round {rec.round}: {what} — {frac_text(rec.points)} (total {frac_text(total)})")
    if not recs:
        lines.append("No round yet.")
    return "\n".join(lines)


# -- threads and deadlines -------------------------------------------------------

def thread_title(league: League, round_number: int, pairing: Pairing) -> str:
    """"Round 2 · alice vs bob" (Discord thread names may be up to 100 characters)."""
    a, b = league.name_of(pairing.players[0]), league.name_of(pairing.players[1])
    return f"Round {round_number} · {a} vs {b}"[:100]


def deadline_text(deadline: datetime) -> str:
    """Discord timestamps, shown in each reader's own time zone: the full date and time,
    then the relative form ("in 3 days")."""
    t = int(deadline.timestamp())
    return f"<t:{t}:F> (<t:{t}:R>)"


def deadline_warnings(r: Round) -> tuple[tuple[int, datetime], ...]:
    """(hours before, when) of the warnings due before the round's deadline: 48 h and
    24 h before, leaving out any that would fall before the round began."""
    out = []
    for before in WARNINGS_BEFORE:
        at = r.deadline - before
        if at >= r.started:
            out.append((int(before.total_seconds() // 3600), at))
    return tuple(out)


def overdue(league: League, now: datetime) -> tuple[tuple[Round, Pairing], ...]:
    """Games past their round's deadline that still have no result: the platform
    applies the league's deadline policy to these."""
    return tuple((r, p) for r in league.paired if now >= r.deadline for p in r.open_pairings)


# -- image -------------------------------------------------------------------------

def standings_image(league: League) -> "TableImage":
    """The standings table as an image (see :mod:`render.league`), about 550 px wide."""
    from render.league import render_table

    header, rows, dropped = standings_table(league)
    played = len(league.paired)
    subtitle = (f"Standings after round {played} of {league.rounds} · {league.kind} · {league.format.value}"
                if played else f"Standings · {league.kind} · {league.format.value} · not started")
    legend = ("Tiebreaks in order: " + ", ".join(
        f"{TIEBREAK_LABELS[tb]} {TIEBREAK_TITLES[tb]}" for tb in league.tiebreaks) + "." if league.tiebreaks else "")
    if any(dropped):
        legend = (legend + " Grey: dropped out.").strip()
    return render_table(league.name, header, rows, subtitle=subtitle, legend=legend, muted=dropped)
