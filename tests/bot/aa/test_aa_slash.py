"""Every engine order has a slash command that gives it back (issue 16: the refusals,
buttons and the log write orders the way players type them).

Random legal play reaches every kind of order (engine/aa/randomplay.py).  Each order's
canonical text is written as a slash command (``AAFront.slash``), read back as Discord
would send it (``parse_command``, the command's option checks), and its handler is run
to see which order text it would play: reading that text must give the very same order.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.aa import commands, front, views
from bot.command_line import parse_command
from bot.commands.base import find
from engine.aa.game import apply, new_game, parse_order, timeout
from engine.aa.orders import format_order
from engine.aa.randomplay import TIMEOUT, random_order
from engine.aa.state import AAState
from engine.core.dice import seeded_dice


class Played(Exception):
    def __init__(self, texts: Any) -> None:
        self.texts = [texts] if isinstance(texts, str) else list(texts)


class _Sessions:
    async def act(self, channel_id: int, actor: Any, texts: Any, **kw: Any) -> None:
        raise Played(texts)


class _App:
    sessions = _Sessions()


class _Ctx:
    app = _App()
    channel_id = 1
    actor = None


async def _play(ctx: Any, kind: str, texts: Any) -> None:
    raise Played(texts)


async def _play_as(ctx: Any, texts: Any, power: Any) -> None:
    raise Played(texts)


async def _texts_of(line: str) -> list[str]:
    path, raw = parse_command(line)
    cmd = find(path)
    values = cmd.bind(raw)
    try:
        await cmd.handler(_Ctx(), **values)
    except Played as played:
        return played.texts
    raise AssertionError(f"{line} played nothing")


@pytest.mark.parametrize("setup,seed", [("1941", 3), ("1942", 5)])
async def test_every_order_round_trips_through_its_slash_command(monkeypatch: pytest.MonkeyPatch, setup: str,
                                                                 seed: int) -> None:
    monkeypatch.setattr(commands, "play", _play)
    monkeypatch.setattr(commands, "play_as", _play_as)
    assert views.buy_order  # the buy handler builds its text with views.buy_order (add:false: no state)
    rng = random.Random(seed)
    state: AAState
    state, _ = new_game({"setup": setup}, seeded_dice(seed))
    kinds: set[str] = set()
    for _ in range(1500):
        if state.outcome is not None or state.round > 2:
            break
        seat, order = random_order(state, rng)
        dice = seeded_dice(rng.randrange(10**6))
        if order == TIMEOUT:
            state, _ = timeout(state, "done", dice)
            continue
        assert not isinstance(order, str)
        text = format_order(order)
        line = front.order_to_slash(text)
        assert line is not None, text
        played = await _texts_of(line)
        assert len(played) == 1, (line, played)
        assert parse_order(state, seat, played[0]) == parse_order(state, seat, text), (text, line, played)
        kinds.add(text.split()[0])
        state, _ = apply(state, order, dice)
    assert {"done", "research", "buy", "first", "move", "load", "battle", "casualties", "continue",
            "place"} <= kinds


@pytest.mark.parametrize("text", [
    "ool attack inf, art, tank", "ool inf, fig", "auto on", "auto off", "rocket Germany -> Russia",
    "land 1 fig: 5 Sea Zone -> Germany", "para 1 inf: Germany -> Poland", "bomb 1 bom: Germany -> Poland -> Russia",
    "submerge 2", "retreat", "retreat Poland", "first China", "buy 2 inf; repair Germany 2",
    "load 1 inf, 1 tank: Germany -> 5 Sea Zone onto #12", "place 1 des: Germany -> 5 Sea Zone",
    "move #3, #4: Germany -> Poland", "casualties none",
])
async def test_orders_random_play_rarely_gives(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(commands, "play", _play)
    monkeypatch.setattr(commands, "play_as", _play_as)
    line = front.order_to_slash(text)
    assert line is not None and line.startswith("/aa ")
    played = await _texts_of(line)
    assert [format_order(parse_order(None, "Germany", t)) for t in played] == [
        format_order(parse_order(None, "Germany", text))]
