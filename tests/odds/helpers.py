"""Helpers shared by the odds tests: ``/odds`` through the command registry with a
recording channel (``invoke``, ``assert_chart``); small A&A Miniatures cards and a map for
attacks whose every dice outcome can be enumerated (``CARDS``, ``MAP``); and random
fleets for battles with submarines, with the float-against-fraction check of the general
engine (``fleet``, ``strike_fleet``, ``close``, ``assert_floats_match_fractions``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any

import pytest
from PIL import Image

from bot.commands import load_all
from bot.commands.base import REGISTRY
from bot.context import Actor, Ctx, Message
from engine.odds.aa import AABattle, AAOdds, aa_odds
from tests.minis.helpers import ascii_map, make_card

# --------------------------------------------------------------------------- /odds commands


def battles_computed(monkeypatch: pytest.MonkeyPatch, name: str = "_aa") -> list[AABattle]:
    """The battles ``bot.commands.odds``' ``name`` (``_aa``: within Discord's limits;
    ``_aa_reply``: a reply drawn) is called with from now on, in order: what was
    computed rather than answered from the remembered replies."""
    from bot.commands import odds

    computed: list[AABattle] = []
    real = getattr(odds, name)

    def counted(battle: AABattle, *args: Any, **kwargs: Any) -> Any:
        computed.append(battle)
        return real(battle, *args, **kwargs)

    monkeypatch.setattr(odds, name, counted)
    return computed


@dataclass
class RecordingChannel:
    replies: list[Message] = field(default_factory=list)
    posts: list[tuple[int, Message]] = field(default_factory=list)

    async def reply(self, message: Message) -> None:
        self.replies.append(message)

    async def post(self, channel_id: int, message: Message) -> None:
        self.posts.append((channel_id, message))


async def invoke(path: str, *, asker: int = 1, **options: Any) -> Message:
    """``/path`` with ``options``, asked by user ``asker``: its one reply."""
    load_all()
    cmd = REGISTRY[tuple(path.split())]
    channel = RecordingChannel()
    ctx = Ctx(app=None, actor=Actor(asker, f"tester {asker}"), channel_id=7, guild_id=None, channel=channel,  # type: ignore[arg-type]
              default_ephemeral=cmd.ephemeral)  # fmt: skip
    await cmd.handler(ctx, **cmd.bind(options))
    assert len(channel.replies) == 1
    return channel.replies[0]


def assert_chart(message: Message) -> None:
    assert len(message.files) == 1
    data = message.files[0].data
    assert message.files[0].filename.endswith(".png") and data[:4] == b"\x89PNG"
    assert Image.open(BytesIO(data)).width == 550


# --------------------------------------------------------------------------- small Miniatures cards

# Small cards so that every outcome can be enumerated (3 or 4 dice).
POPGUN = make_card("popgun", vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=["Seasoned Crew"])
MORTARLET = make_card("mortarlet", vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=[("Shrapnel", 2), ("Inaccurate", 1)])
TORCH = make_card("torch", vehicle=True, vs_s=(4, 3, 3), vs_v=(4, 3, 3), abilities=["Hull-Mounted Flamethrower"],
                  defense=(3, 3))
PIERCER = make_card("piercer", vehicle=True, vs_s=(3, 3, 3), vs_v=(4, 4, 4), abilities=["Armor-Piercing Rounds"],
                    defense=(3, 3))
LOBBER = make_card("lobber", vehicle=True, vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=["Blast"], defense=(3, 3))
GUNG_HO = make_card("gung-ho", vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=["Gung Ho"])
GRUNT = make_card("grunt", side="allies", defense=(2, 2))
TINCAN = make_card("tincan", side="allies", vehicle=True, defense=(2, 1), abilities=["Highly Flammable"])
PLATED = make_card("plated", side="allies", vehicle=True, defense=(1, 1), abilities=[("Superior Armor", 1)])
HIDER = make_card("hider", side="allies", vehicle=True, defense=(2, 2), abilities=["Forest Camouflage"])
CARDS = (POPGUN, MORTARLET, TORCH, PIERCER, LOBBER, GUNG_HO, GRUNT, TINCAN, PLATED, HIDER)

# C3 forest, C5 town.
MAP = ascii_map("""
. . . . . . . .
. . . . . . . .
. . F . . . . .
. . . . . . . .
. . T . . . . .
. . . . . . . .
""")


# --------------------------------------------------------------------------- fleets with submarines


def fleet(rng: random.Random, defender: bool) -> str:
    """A random fleet for a sea battle with at least one submarine; a defender's fighters fit
    on its carriers, an attacker may bring a bomber, a defender transports."""
    units = {"sub": rng.randint(0, 5), "des": rng.randint(0, 2), "cru": rng.randint(0, 2),
             "car": rng.randint(0, 2), "bat": rng.randint(0, 2)}  # fmt: skip
    units["fig"] = min(rng.randint(0, 4), 2 * units["car"]) if defender else rng.randint(0, 3)
    if defender:
        units["tra"] = rng.choice([0, 0, 1, 2])
    else:
        units["bom"] = rng.choice([0, 0, 1])
    if not units["sub"]:
        units["sub"] = 1  # the general engine's battles: submarines on one side at least
    return ", ".join(f"{c} {u}" for u, c in units.items() if c)


def strike_fleet(rng: random.Random, defender: bool, destroyers: bool) -> str:
    """A fleet for battles where submarines strike round after round: no destroyer on
    this side unless ``destroyers``; aircraft often (they cannot hit submarines without
    a destroyer of their own, submarines never hit them, A-10.6)."""
    units = {"sub": rng.randint(0, 4), "des": rng.randint(1, 2) if destroyers else 0,
             "cru": rng.randint(0, 2), "car": rng.randint(0, 1), "bat": rng.randint(0, 1)}  # fmt: skip
    if defender:
        units["fig"] = min(rng.randint(0, 3), 2 * units["car"])
        units["tra"] = rng.choice([0, 0, 1, 2])
    else:
        units["fig"] = rng.randint(0, 2)
        units["bom"] = rng.choice([0, 0, 1])
    if not units["sub"] and rng.random() < 0.7:
        units["sub"] = rng.randint(1, 3)
    if sum(units.values()) == units.get("tra", 0):
        units["sub"] = 1
    return ", ".join(f"{c} {u}" for u, c in units.items() if c)


ODDS_KEYS = ("attacker_win", "defender_win", "draw", "attacker_takes", "retreat", "stalemate", "unfinished",
             "expected_rounds")  # fmt: skip


def assert_same_odds(got: AAOdds, want: AAOdds, tol: float, *, keys: tuple[str, ...] = ODDS_KEYS,
                     same_states: bool = True, note: object = None) -> None:  # fmt: skip
    """Two answers to one battle (computed two ways) agree to ``tol``: every chance in
    ``keys`` and the chance of each number of survivors on both sides, which end in the
    same numbers of survivors unless not ``same_states`` (a mass left out one way may
    leave a number out)."""
    for key in keys:
        assert getattr(got, key) == pytest.approx(getattr(want, key), abs=tol), (note, key)
    for side in ("attacker", "defender"):
        mine, theirs = got.survivor_count[side], want.survivor_count[side]
        if same_states:
            assert mine.keys() == theirs.keys(), (note, side)
        for n in set(mine) | set(theirs):
            assert mine.get(n, 0.0) == pytest.approx(theirs.get(n, 0.0), abs=tol), (note, side, n)


def close(a: dict[tuple[int, ...], float], b: dict[tuple[int, ...], float]) -> None:
    for key in set(a) | set(b):
        assert a.get(key, 0.0) == pytest.approx(b.get(key, 0.0), abs=1e-12), key


def assert_floats_match_fractions(battle: AABattle) -> AAOdds:
    """The general engine in floats (the numpy solve or round walk) against exact
    fractions: every probability, retreat, stalemate, unfinished, expected rounds and
    survivor counts, to 1e-12; returns the exact answer."""
    exact = aa_odds(battle, exact=True)
    floats = aa_odds(battle)
    assert floats.engine == "general"
    assert exact.exact is not None
    assert floats.error_bound < 1e-12
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=1e-12)
    for key in ("retreat", "stalemate", "unfinished", "expected_rounds"):
        assert getattr(floats, key) == pytest.approx(getattr(exact, key), abs=1e-12)
    for side in ("attacker", "defender"):
        for count, p in exact.survivor_count[side].items():
            assert floats.survivor_count[side].get(count, 0.0) == pytest.approx(p, abs=1e-12)
    return exact


def random_army(rng: random.Random, kinds: list[str], total: int) -> str:
    """An army of ``total`` units, each of a kind drawn from ``kinds`` (repeat a kind to
    draw it more often), in the /odds notation (``"3 inf, 1 fig"``)."""
    counts: dict[str, int] = {}
    for _ in range(total):
        kind = rng.choice(kinds)
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in counts.items())
