"""The pipeline's shortcuts give the same answers as the long way: a phase report read
from the end of the log equals the one read from the whole log (undos included), and a
report drawn in the render pool's worker process equals one drawn here."""

from __future__ import annotations

import random
from typing import Any, Sequence

import pytest

from bot import render_pool
from bot.front import EventDict
from bot.games import front_for
from bot.present import ended_phases, reported_events
from bot.session import effective_rows
from bot.storage.repository import OrderRecord
from engine.core.dice import seeded_dice
from engine.core.game import PUBLIC, rules_for


class Log:
    """An order log to read from (only ``orders``), counting the rows read."""

    def __init__(self, rows: list[OrderRecord]) -> None:
        self.rows = rows
        self.read = 0

    async def orders(self, game_id: int, *, since: int = 0) -> list[OrderRecord]:
        out = [r for r in self.rows if r.seq > since]
        self.read += len(out)
        return out


class Phases:
    def phase_start(self, event: EventDict) -> bool:
        return event.get("type") == "PhaseStarted"


class App:
    def __init__(self, log: Log) -> None:
        self.repo = log


def random_log(rng: random.Random, length: int) -> list[OrderRecord]:
    rows: list[OrderRecord] = [OrderRecord(kind="new", seat="", text="{}", seq=1,
                                           events=({"type": "PhaseStarted", "n": 1},))]
    for seq in range(2, length + 1):
        if rng.random() < 0.08 and seq > 3:
            rows.append(OrderRecord(kind="undo", seat="", text=f"undo to {rng.randrange(1, seq - 1)}", seq=seq))
            continue
        events = tuple({"type": "PhaseStarted" if rng.random() < 0.05 else "Moved", "n": seq, "i": i}
                       for i in range(rng.randrange(0, 3)))
        rows.append(OrderRecord(kind="order", seat="red", text="x", seq=seq, events=events))
    return rows


@pytest.mark.parametrize("seed", range(12))
async def test_a_report_from_the_end_of_the_log_equals_the_whole_log_one(seed: int,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.present

    monkeypatch.setattr(bot.present, "REPORT_WINDOW", 4)
    rng = random.Random(seed)
    rows = random_log(rng, 300)
    front: Any = Phases()
    for end in range(2, len(rows) + 1, 7):
        last = rows[end - 1]
        if last.kind != "order":
            continue
        log = Log(rows[:end])
        for over in (False, True):
            whole = [e for r in effective_rows(rows[:end]) for e in r.events]
            expected = ended_phases(front, whole, len(last.events), over=over)
            got = await reported_events(App(log), front, 1, end, len(last.events), over=over)
            assert got == expected
    # The usual case reads a few rows, not the whole log.
    log = Log(rows)
    rows[-1] = OrderRecord(kind="order", seat="red", text="x", seq=300, events=({"type": "Moved"},))
    rows[-2] = OrderRecord(kind="order", seat="red", text="x", seq=299, events=({"type": "PhaseStarted"},))
    await reported_events(App(log), front, 1, 300, 1, over=False)
    assert log.read <= 4


async def test_a_report_drawn_in_a_worker_process_is_the_same() -> None:
    rules = rules_for("minis")
    state, events = rules.new_game({"scenario": "standard", "map": "random"}, seeded_dice(5))
    shown: Sequence[EventDict] = [e.to_dict() for e in events]
    public = rules.view(state, PUBLIC)
    here = front_for("minis").report(public, shown, over=False)
    render_pool.configure(1)
    try:
        await render_pool.warm()
        there = await render_pool.report("minis", lambda: public, rules.dump_state(state), shown, over=False)
    finally:
        render_pool.configure(0)
    assert there.head == here.head and there.lines == here.lines
    assert [(a.filename, a.data) for a in there.images] == [(a.filename, a.data) for a in here.images]
    assert there.images and there.images[0].data.startswith(b"\x89PNG")


def test_a_worker_gives_freed_memory_back_every_few_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every TRIM_EVERY-th report drawn, the worker returns freed image buffers to the
    system (render_pool._trim); the report itself is unchanged."""
    rules = rules_for("minis")
    state, events = rules.new_game({"scenario": "standard", "map": "random"}, seeded_dice(5))
    shown: Sequence[EventDict] = [e.to_dict() for e in events]
    trims: list[int] = []
    monkeypatch.setattr(render_pool, "TRIM_EVERY", 2)
    monkeypatch.setattr(render_pool, "_drawn", 0)
    monkeypatch.setattr(render_pool, "_trim", lambda: trims.append(render_pool._drawn))
    reports = [render_pool.draw_report("minis", rules.dump_state(state), shown, False) for _ in range(5)]
    assert trims == [2, 4]
    assert len({tuple(a.data for a in r.images) for r in reports}) == 1
