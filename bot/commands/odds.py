"""``/odds aa``, ``/odds minis``, ``/odds memoir``: exact odds, no game needed.

Each answers publicly with the key numbers and a small chart.  ``/odds minis`` also
takes two units of the A&A Miniatures game in the channel (``attacker``, ``target``)
and reads every number off the game (:mod:`engine.odds.minis_game`); only units the
asker may see can be named (M-2.5).  The maths is in
:mod:`engine.odds`; big A&A battles are refused with a clear message before any long
computation (``MAX_UNITS``, and ``MAX_STARTS`` (``MAX_SEA_STARTS`` at sea) and ``MAX_TABLE`` for a second wave
joined by the first wave's units) or as soon as it passes a work limit (``MAX_STATES``,
``MAX_WORK``, ``MAX_NAVAL_TABLE``), so
every answer comes within seconds: nearly all well under one, the
slowest accepted (100 a side at sea, submarines striking every round, with a retreat by
win chance) ~3.6 s, ~4-6.5 s with a strafe after 3 rounds as well, ~9-13 s where the
defender's submarines strike (on the slow machines of 2026-12-01/02), and the biggest
refused after ~0.35 s instead of a minute or more of work, unless the server allows big
battles (:func:`configure`, ``WARROOM_ODDS_BIG``: then computed without the work limits
in a process of their own, one at a time).  A few battles are computed at
once, one member's one after another (``ODDS_AT_ONCE``), and a member asking the same
battle again gets the reply remembered (``ODDS_REMEMBERED``).  A battle of ``TRIM_AFTER``
seconds or more gives the memory it freed back to the system (:mod:`bot.memory`), at
once or, where the server keeps it (``WARROOM_ODDS_KEEP_S``, :func:`keep_memory`), once
no such battle has come for that long.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Awaitable, Callable

from bot.commands.base import Option, command
from bot.config import Config
from bot.context import Attachment, Ctx
from bot.memory import FreedMemory, keep_freed
from bot.minis import complete
from bot.minis.front import KIND as MINIS
from bot.minis.front import find_unit, minis_state
from bot.present import clip
from bot.session import NoGame
from engine.core.errors import NotationError, PlayerError
from engine.core.words import plural
from engine.odds.aa import MAX_ROUNDS, MODES, AABattle, AAOdds, aa_odds
from engine.odds.aa_battle import Offering, OverLimit
from engine.odds.aa_units import RULES_SETS
from engine.odds.memoir import ARMOR, ARTILLERY, INFANTRY, MemoirRoll, close_assault, memoir_battle, memoir_odds
from engine.odds.minis import SOLDIER, VEHICLE, MinisAttack, minis_odds
from engine.odds.minis_game import WHERE, live_attack
from engine.odds.report import (
    aa_headline, aa_lines, memoir_battle_lines, memoir_lines, minis_blast_line, minis_extra_attack_line, minis_lines,
    minis_live_lines,
)  # fmt: skip
from render.odds_chart import aa_chart, memoir_chart, minis_chart

# Work limits for Discord (the CLI has none): battles up to 120 units a side are taken;
# a submarine battle whose numpy solve passes MAX_WORK outer product terms and casualty
# cells (e.g. 100 a side with no destroyer anywhere and aircraft on both sides: ~33 s
# of work in full on 2026-12-05's machine, ~22 s on 2026-12-06's since its compiled
# bookkeeping, 106 s on the slow machine of 2026-12-02; 55 a side 2.9e9, 3.3 s,
# answered; 60 a side 5.5e9, 4.1 s, refused; both on 2026-12-05's machine, before that
# bookkeeping) is refused when it does, in under a second.  Where one side's
# submarines strike every round (60 sub, 20 cru, 10 bat, 10 bom against 40 cru, 20 car,
# 10 bat, 30 fig) the strike pass (engine.odds.aa_strike) counts the products it makes:
# ~1e8 (~0.5 s), ~6.5e8 with a retreat by win chance (~3.6 s; where the defender's
# submarines strike ~9-13 s); with submarines on both sides and aircraft on one (40 sub,
# 20 cru, 10 bat, 30 fig against 60 sub, 30 cru, 10 bat) ~2.7e8 (~4 s) and ~14 s with a
# retreat by win chance, the slowest submarine battle answered (slow machine of
# 2026-12-02); the numpy solve counts outer product terms and casualty cells
# (general fire held back and merged as the products it stands for).
MAX_UNITS = 120  # per side
TRIM_AFTER = 0.25  # seconds: a battle that long gives its freed memory back (bot.memory), now or later
MAX_CELLS: int | None = None  # the table engines have no cap
MAX_STATES = 2_000_000  # general engine (submarines): pairs of states processed
MAX_WORK = 4_000_000_000  # its numpy solve: outer product terms and casualty cells
# A second wave joined by the first wave's units: its battle's starts and its table
# (attacker states x columns, what its time and memory grow with).  100 attackers with
# 20 aircraft against an AA gun for 1 round, then 30 more (875,000 starts, 15 million
# cells): ~2-3 s and ~0.55 GB; 100 joined by 100 more with 20 aircraft against 60
# infantry and an AA gun (1.4 million starts, 20 million cells) ~3 s and ~0.9 GB; the
# same against a stronger defender (3 million starts, 154 million cells: ~23 s and
# 3.5 GB in full) is refused after ~2 s, a battle of 5.9 million starts after ~4 s.
MAX_STARTS = 1_500_000
# At sea those starts go through the submarine solves one by one in Python (~80 us each,
# before any dice: the strike battle of 60 sub, 20 cru, 10 bat, 10 bom against 40 cru,
# 20 car, 10 bat, 30 fig with 10 destroyers and 10 fighters joining after round 2 leaves
# 665,000 and was refused by MAX_WORK only after ~52 s); joined fleets answered have
# ~5,000-25,000 (100 mixed ships a side, 10 destroyers and 10 fighters after round 2:
# 24,000, ~6 s).  Past this the battle is refused before it is fought.
MAX_SEA_STARTS = 200_000
MAX_TABLE = 22_000_000
# The submarine solves' mass table (attacker states x 2 defender states, 8 bytes a cell):
# the numpy solves answered need up to ~4.4 million cells (100 a side with submarines
# striking every round, ~35 MB); the strike pass counts its tables too (the both-strike
# battle above with a retreat by win chance: 7 of 3.1 million cells, ~22 million, ~180
# MB); with submarines striking on both sides and aircraft
# that cannot hit them it passed 140 million (a strafe after 2 rounds of 40 sub, 20
# cru, 10 bat, 30 fig a side: 2.4 GB at the peak before its work limit refused it
# after ~12 s), now refused when it would pass this, before it grows.
MAX_NAVAL_TABLE = 32_000_000
# A&A battles computed at once (each takes a core and, the biggest, up to ~0.9 GB); the
# others wait their turn.  One asker's battles take their turns one after another, so
# nobody holds more than one of them: whatever one member asks, the others still get
# theirs.
ODDS_AT_ONCE = 2
# Replies remembered (per event loop; each its text and chart, a few dozen KB): the same
# asker asking the same battle again under the same limits gets the same reply at once,
# a refusal included.  Per asker, as a plan asked about in private (a battle of the
# game) must not be told apart by how fast someone else's answer comes.
ODDS_REMEMBERED = 256
# Where the server allows big battles (configure): those past the work limits are
# computed one at a time, each in a process of its own, within BIG_SECONDS.
BIG_AT_ONCE = 1
BIG_SECONDS = 600.0
BIG_NOTICE = ("⏳ A big battle, past the quick limits: it is computed exactly in a process of its own, one big"
              " battle at a time (a minute or more at 100 a side). The answer follows here.")
# Said after a refusal for the work limits where the server does not allow big battles:
# the member asking may be its admin, or may tell them.
BIG_HINT = (" This server answers only battles within its quick limits; its admin can allow bigger ones"
            " (WARROOM_ODDS_BIG=1, see the README).")


@dataclass(frozen=True)
class BigBattles:
    """What the server allows of battles past Discord's work limits (:func:`configure`;
    ``warroom run`` reads ``WARROOM_ODDS_BIG`` and ``WARROOM_ODDS_BIG_MB``)."""

    allowed: bool = False  # computed anyway (else refused with a smaller battle as an example)
    memory_mb: int | None = None  # each one's memory cap, its process's address space (None: none)
    seconds: float = BIG_SECONDS  # each one's time limit


_big = BigBattles()


def configure(big: BigBattles) -> None:
    """Set what the server allows of big battles (the default: none, every battle past
    the work limits is refused)."""
    global _big
    _big = big


def configure_from(config: Config) -> None:
    """:func:`configure` as the server's settings say (``WARROOM_ODDS_BIG``,
    ``WARROOM_ODDS_BIG_MB``), and what a big battle frees kept ``WARROOM_ODDS_KEEP_S``
    for the next (:func:`keep_memory`): ``warroom run`` and ``warroom local`` call it."""
    configure(BigBattles(allowed=config.odds_big, memory_mb=config.odds_big_mb))
    keep_memory(config.odds_keep_s)


# What a battle of TRIM_AFTER seconds or more freed: given back at once, or where the
# server keeps it (keep_memory), kept for the next big battle a while first.
_freed = FreedMemory()


def keep_memory(seconds: float) -> None:
    """Keep the memory a big battle frees for ``seconds`` before it goes back to the
    system, so that a big battle asked meanwhile reuses it (``bot.memory.keep_freed``:
    the process's allocator keeps what it frees from now on); 0: given back at once."""
    global _freed
    _freed = FreedMemory(seconds)
    if seconds > 0:
        keep_freed()


def _big_child(conn: Connection, battle: AABattle, memory_mb: int | None) -> None:
    """In a process of its own (spawned): the reply to ``battle`` without work limits,
    sent down ``conn`` as ``("reply", (text, png))``, ``("refused", (message, legal))``,
    ``("memory", None)`` or, for a bug, ``("bug", traceback)``.  The compiled loops are
    loaded first, as in the bot; the memory cap (if any) is set after that, so it bounds
    the battle's own work."""
    try:
        warm()
        if memory_mb is not None:
            import resource

            cap = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        conn.send(("reply", _aa_reply(battle, limited=False)))
    except PlayerError as refused:
        conn.send(("refused", (refused.message, refused.legal)))
    except MemoryError:
        conn.send(("memory", None))
    except Exception:  # a bug: its traceback goes to the bot, which reports it as one
        import traceback

        conn.send(("bug", traceback.format_exc()))
    finally:
        conn.close()


class _TooMuch(PlayerError):
    """A big battle refused for the server's memory or time cap: :func:`_aa_in_turn`
    names what the quick limits answer instead (:func:`_quick_offer`)."""


def _too_much_memory() -> PlayerError:
    return _TooMuch("This battle needs more memory than this server gives a battle; try fewer units (or"
                    " the command line, warroom odds aa, on a machine with more memory).",
                    legal=["/odds aa attacker:… defender:… with fewer units"])


def _quick_offer(battle: AABattle) -> _Offered | None:
    """For a battle past the quick limits: the biggest battle of its forces scaled down
    that they answer (``aa_odds``' ``offer_biggest``), with its reply drawn; None if
    none was found."""
    try:
        _aa_reply(battle, offer_biggest=True)
    except _Offered as refused:
        return refused
    except PlayerError:
        return None
    return None


def _big_reply(battle: AABattle, big: BigBattles) -> tuple[str, bytes] | PlayerError:
    """The reply to a battle past the work limits, computed without them in a spawned
    process (never a fork of the bot's): its memory, however much, goes back to the
    system when it ends, and running out of it ends only that process.  Refused if it
    runs out of memory or time (``big.seconds``: Discord waits 15 minutes at most)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe(duplex=False)
    child = context.Process(target=_big_child, args=(theirs, battle, big.memory_mb), daemon=True)
    child.start()
    theirs.close()
    try:
        if not mine.poll(big.seconds):
            limit = f"{big.seconds / 60:g} minutes" if big.seconds >= 60 else f"{big.seconds:g} seconds"
            return _TooMuch(f"This battle takes more than {limit} to compute here; try fewer units,"
                            " or the command line (warroom odds aa), which has no limit.",
                            legal=["/odds aa attacker:… defender:… with fewer units"])
        what, value = mine.recv()
    except EOFError:  # the process died: out of memory (the system's killer), most likely
        return _too_much_memory()
    finally:
        mine.close()
        if child.is_alive():
            child.terminate()
        child.join()
    if what == "reply":
        text, png = value
        return str(text), bytes(png)
    if what == "refused":
        message, legal = value
        return PlayerError(str(message), legal=list(legal))
    if what == "bug":
        raise RuntimeError(f"the big battle's process failed:\n{value}")
    return _too_much_memory()


@dataclass
class _Turns:
    """One event loop's odds turns: the shared ones, the big battles' (one at a time),
    each asker's own, the replies remembered (oldest first)."""

    at_once: asyncio.Semaphore
    big: asyncio.Semaphore
    # Per asker, while some ask of theirs holds it (then it goes by itself).
    askers: "weakref.WeakValueDictionary[int, asyncio.Lock]" = field(default_factory=weakref.WeakValueDictionary)
    replies: "OrderedDict[tuple[object, ...], tuple[str, bytes] | PlayerError]" = field(default_factory=OrderedDict)


_turns: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Turns]" = weakref.WeakKeyDictionary()


def warm() -> None:
    """Compile (or load from numba's cache) the sea solve's loop adding a round's
    products (engine.odds.aa_naval_kernel: first, as the solve takes it once numba is
    loaded), the compiled pass of sea battles where submarines strike every round
    (engine.odds.aa_strike) with the smallest such battle, fought to the end, for a
    round, and with a retreat by win chance (its three loops, and the relabelling of
    ends before the retreats correct the traced solve: 1 sub against 1 cru retreats at
    70 %, little enough to be corrected), and the merged engine's
    loop for big AA battles (engine.odds.aa_merged_kernel), and the table engine's
    compiled rows, which take every battle without submarines fought to the end once
    numba is loaded (engine.odds.aa_table_kernel): the bot does it in a worker
    thread as it starts, so nobody's first such battle waits for it (~1 s from the
    cache; compiling ~10-30 s, once per machine)."""
    from engine.odds import aa_merged_kernel, aa_naval_kernel, aa_table_kernel

    aa_naval_kernel.warm()
    for options in ({}, {"rounds": 1}, {"retreat_chance": 70.0}):
        aa_odds(AABattle.parse("1 sub", "1 cru", mode="sea", **options))
    aa_merged_kernel.warm()
    aa_table_kernel.warm()


def _aa(battle: AABattle, offer_biggest: bool | None = None) -> AAOdds:
    """The odds of ``battle`` within Discord's work limits.  A battle past them is
    refused with the biggest battle of its forces scaled down that the engine found
    answered (``Offering.offered``; raised as :class:`_Offered`, its reply drawn),
    unless the server computes big battles anyway (``offer_biggest`` None: as the
    server's settings say).  A battle past MAX_UNITS a side is refused with the same
    battle scaled down to fit (``TooManyUnits``: answered and offered the same way,
    or if past the work limits their offer; a server computing big battles has
    MAX_UNITS too, and names it untried)."""
    starts = MAX_SEA_STARTS if battle.mode == "sea" else MAX_STARTS
    try:
        return aa_odds(battle, max_units=MAX_UNITS, max_cells=MAX_CELLS, max_states=MAX_STATES, max_work=MAX_WORK,
                       max_starts=starts, max_table=MAX_TABLE, max_naval_table=MAX_NAVAL_TABLE,
                       offer_biggest=not _big.allowed if offer_biggest is None else offer_biggest)
    except Offering as refused:
        if refused.offered is None:
            raise
        offered, offered_odds = refused.offered  # the reply to the battle offered, drawn here too
        raise _Offered(refused, offered, _reply_of(offered_odds)) from None


def _aa_reply(battle: AABattle, limited: bool = True, offer_biggest: bool | None = None) -> tuple[str, bytes]:
    """The reply's text and chart (run in a worker thread: the chart is drawn there too).
    After a battle that took TRIM_AFTER seconds or more, the memory it freed goes back
    to the system, at once or after the server's keeping time (:func:`keep_memory`):
    the bot's process lives long, and a big battle's work would otherwise stay in it
    (~420 MB kept after the slowest battle accepted), a refusal's tries too
    (``offer_biggest``: :func:`_aa`'s)."""
    start = time.perf_counter()
    try:
        # A big battle (_big_reply): MAX_UNITS alone.
        odds = _aa(battle, offer_biggest) if limited else aa_odds(battle, max_units=MAX_UNITS)
    finally:
        if time.perf_counter() - start >= TRIM_AFTER:
            _freed.after_big()
    return _reply_of(odds)


class _Offered(PlayerError):
    """A refusal (``refused``: past the work limits or MAX_UNITS) whose offered battle
    (its ``offered``) has its reply drawn: kept as the asker's reply to that battle
    (:func:`_aa_in_turn`)."""

    def __init__(self, refused: Offering, battle: AABattle, reply: tuple[str, bytes]) -> None:
        super().__init__(refused.message, legal=refused.legal)
        self.refused = refused
        self.battle = battle
        self.reply = reply


def _reply_of(odds: AAOdds) -> tuple[str, bytes]:
    """An A&A answer's text and chart."""
    lines = aa_lines(odds)
    text = "\n".join([lines[0], aa_headline(odds), *lines[2:]])
    return text, aa_chart(odds, lines[0])


def _reply_key(asker: int, battle: AABattle) -> tuple[Any, ...]:
    """What a remembered reply is kept under: the asker, the battle and the limits."""
    return (asker, battle.key(), MAX_UNITS, MAX_CELLS, MAX_STATES, MAX_WORK, MAX_STARTS, MAX_SEA_STARTS, MAX_TABLE,
            MAX_NAVAL_TABLE, _big)  # fmt: skip


async def _aa_in_turn(battle: AABattle, asker: int,
                      notice: Callable[[], Awaitable[None]] | None = None) -> tuple[str, bytes]:
    """The reply to ``battle`` for ``asker``: remembered (see ODDS_REMEMBERED), or
    :func:`_aa` in a worker thread in turn: after the asker's earlier asks, at most
    ``ODDS_AT_ONCE`` at a time (per event loop).  A battle past the work limits is
    refused, or where the server allows big battles (:func:`configure`) computed in a
    process of its own, one at a time, after ``notice()`` tells the asker it will take
    a while.  A refusal (PlayerError) is raised; one that offers a smaller battle (past
    the work limits or MAX_UNITS, or a big battle past the server's memory or time cap)
    keeps that battle's reply for the asker, who may ask it next."""
    loop = asyncio.get_running_loop()
    turns = _turns.get(loop)
    if turns is None:
        turns = _turns[loop] = _Turns(asyncio.Semaphore(ODDS_AT_ONCE), asyncio.Semaphore(BIG_AT_ONCE))
    key = _reply_key(asker, battle)
    own = turns.askers.get(asker)
    if own is None:
        own = turns.askers[asker] = asyncio.Lock()
    async with own:  # the asker's earlier asks first (the same one again: remembered by then)
        got = turns.replies.get(key)
        if got is None:
            async with turns.at_once:
                try:
                    got = await asyncio.to_thread(_aa_reply, battle)
                except PlayerError as refused:
                    got = refused
            if isinstance(got, _Offered):  # a battle offered, answered already: its reply kept for the asker
                turns.replies[_reply_key(asker, got.battle)] = got.reply
                got = got.refused
            if isinstance(got, OverLimit) and _big.allowed:
                if notice is not None:
                    await notice()
                async with turns.big:
                    got = await asyncio.to_thread(_big_reply, battle, _big)
                if isinstance(got, _TooMuch):  # past the server's caps: what the quick limits answer, offered
                    async with turns.at_once:
                        offer = await asyncio.to_thread(_quick_offer, battle)
                    if offer is not None:
                        turns.replies[_reply_key(asker, offer.battle)] = offer.reply
                        got = PlayerError(got.message, legal=offer.legal[:1])
            elif isinstance(got, OverLimit):  # a work limit, which the server's admin may lift
                got = type(got)(got.message + BIG_HINT, legal=got.legal)
            turns.replies[key] = got  # the newest last
        else:
            turns.replies.move_to_end(key)
        while len(turns.replies) > ODDS_REMEMBERED:
            turns.replies.popitem(last=False)
    if isinstance(got, PlayerError):
        raise got.with_traceback(None)  # the same refusal, without the earlier raises' frames
    return got


@command(
    "odds aa",
    "Exact odds of an Axis & Allies Anniversary battle",
    Option("attacker", str, 'Attacking units, e.g. "3 inf, 1 art, 2 tank, 1 fighter"'),
    Option("defender", str, 'Defending units, e.g. "4 inf, 1 aa"'),
    Option("kind", str, "Land, sea or amphibious", required=False, default="land", choices=MODES),
    Option("bombard", str, 'Amphibious: bombarding ships, e.g. "1 battleship"', required=False, default=""),
    Option("ool_attacker", str, 'Attacker order of loss, e.g. "inf,art,tank,fighter"', required=False, default=""),
    Option("ool_defender", str, "Defender order of loss", required=False, default=""),
    Option("rounds", int, "Fight this many rounds only", required=False, min_value=1, max_value=MAX_ROUNDS),
    Option("retreat_below", int, "Attacker retreats when fewer units remain", required=False,
           default=0, min_value=0, max_value=MAX_UNITS),  # fmt: skip
    Option("keep_land", bool, "Attacker keeps a land unit to take the territory", required=False, default=False),
    Option("keep_land_units", int, "Attacker loses its last N land units last", required=False,
           min_value=1, max_value=MAX_UNITS),  # fmt: skip
    Option("submerge", str, "Subs that submerge when alone", required=False, default="none",
           choices=("none", "attacker", "defender", "both")),  # fmt: skip
    Option("attacker_tech", str, 'e.g. "jets, heavy bombers"', required=False, default=""),
    Option("defender_tech", str, 'e.g. "radar"', required=False, default=""),
    Option("low_luck", bool, "Low-luck dice", required=False, default=False),
    Option("retreat_after", int, "Strafe: the attacker retreats after this round", required=False,
           min_value=1, max_value=MAX_ROUNDS),  # fmt: skip
    Option("retreat_left", int, "Attacker retreats when this many units or fewer remain", required=False,
           min_value=1, max_value=MAX_UNITS),  # fmt: skip
    Option("retreat_chance", float, "The attacker retreats when its chance to win falls below this % (e.g. 33.3)",
           required=False, min_value=1, max_value=100),  # fmt: skip
    Option("rules", str, "Unit profiles of this rules set", required=False, default="anniversary",
           choices=RULES_SETS),  # fmt: skip
    Option("wave2", str, 'A second wave attacking the survivors, e.g. "4 inf, 2 tank"', required=False,
           default=""),  # fmt: skip
    Option("overland", str, 'Amphibious: attacking land units that came over land, e.g. "1 tank"', required=False,
           default=""),  # fmt: skip
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
    low_luck: bool = False,
    retreat_after: int | None = None,
    retreat_chance: float | None = None,
    rules: str = "anniversary",
    wave2: str = "",
    retreat_left: int | None = None,
    keep_land_units: int | None = None,
    overland: str = "",
) -> None:
    if keep_land and keep_land_units is not None and keep_land_units != 1:
        raise NotationError("Give keep_land:true (one land unit) or keep_land_units:N, not both.",
                            legal=[f"/odds aa … keep_land_units:{keep_land_units}", "/odds aa … keep_land:true"])
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
        keep_land_unit=keep_land_units if keep_land_units is not None else int(keep_land),
        submerge_attacker=submerge in ("attacker", "both"),
        submerge_defender=submerge in ("defender", "both"),
        low_luck=low_luck,
        retreat_after=retreat_after,
        retreat_chance=retreat_chance,
        rules=rules,
        wave2=wave2,
        retreat_left=retreat_left,
        overland=overland,
    )
    async def notice() -> None:
        await ctx.reply(BIG_NOTICE, ephemeral=ctx.default_ephemeral)

    text, png = await _aa_in_turn(battle, ctx.actor.id, notice)
    # Public for numbers; a battle read from a live game is the asker's plan (bot/aa/odds_link.py
    # makes the reply private, as the Minis and Memoir live forms are).
    await ctx.reply(text, ephemeral=ctx.default_ephemeral, files=[Attachment("odds-aa.png", png)])


@command(
    "odds minis",
    "Exact odds of one A&A Miniatures attack: two units of this channel's game, or the numbers",
    Option("attacker", str, "Attacking unit of this channel's game (e.g. ax3)", required=False,
           autocomplete=complete.any_unit),
    Option("target", str, "Target unit of this channel's game (e.g. al5)", required=False,
           autocomplete=complete.any_unit),
    Option("defensive", bool, "Defensive fire (reaching defense stops and disrupts)", required=False, default=False),
    Option("ap", bool, "Declare Armor-Piercing Rounds", required=False, default=False),
    Option("at", str, "Defensive fire at the moving unit: the hex it leaves or enters", required=False,
           choices=WHERE),
    Option("dice", int, "Numbers: attack dice", required=False, min_value=1, max_value=60),
    Option("defense", int, "Numbers: target defense (front or rear as it applies)", required=False,
           min_value=1, max_value=20),
    Option("attacker_penalty", bool, "Numbers: attacker disrupted or damaged (-1 each die)", required=False),
    Option("target_penalty", bool, "Numbers: target disrupted or damaged (-1 defense)", required=False),
    Option("target_type", str, "Numbers: target type", required=False, choices=(VEHICLE, SOLDIER)),
    Option("target_damaged", bool, "Numbers: target is a damaged vehicle", required=False),
    Option("cover", int, "Numbers: cover roll needed (4 Soldier, 5 Vehicle)", required=False, min_value=1, max_value=7),
    Option("same_hex", bool, "Numbers: attacker in the target's hex (-1 cover roll)", required=False),
    Option("die_modifier", int, 'Numbers: "each attack die" modifier', required=False, min_value=-5, max_value=5),
    Option("shrapnel", int, "Numbers: Shrapnel N vs Soldiers", required=False, min_value=1, max_value=4),
    Option("superior_armor", int, "Numbers: target's Superior Armor N", required=False, min_value=0, max_value=6),
    Option("heavy_armor", bool, "Numbers: target has Heavy Armor, not used yet", required=False),
    Option("overheat", bool, "Numbers: attacker has Overheat", required=False),
    Option("double_shot", bool, "Numbers: a second attack at the same target (Double Shot)", required=False),
    Option("cannon", bool, "Units: the attacker's Additional Hull-Mounted Cannon attack", required=False,
           default=False),  # fmt: skip
)
async def odds_minis(
    ctx: Ctx,
    attacker: str | None,
    target: str | None,
    defensive: bool,
    ap: bool,
    at: str | None,
    dice: int | None,
    defense: int | None,
    attacker_penalty: bool | None,
    target_penalty: bool | None,
    target_type: str | None,
    target_damaged: bool | None,
    cover: int | None,
    same_hex: bool | None,
    die_modifier: int | None,
    shrapnel: int | None,
    superior_armor: int | None,
    heavy_armor: bool | None = None,
    overheat: bool | None = None,
    double_shot: bool | None = None,
    cannon: bool = False,
) -> None:
    numbers = {
        "dice": dice, "defense": defense, "attacker_penalty": attacker_penalty, "target_penalty": target_penalty,
        "target_type": target_type, "target_damaged": target_damaged, "cover": cover, "same_hex": same_hex,
        "die_modifier": die_modifier, "shrapnel": shrapnel, "superior_armor": superior_armor,
        "heavy_armor": heavy_armor, "overheat": overheat, "double_shot": double_shot,
    }  # fmt: skip
    given = [name for name, value in numbers.items() if value is not None]
    if attacker is not None or target is not None:
        if target is not None and target.strip().lower() in (VEHICLE, SOLDIER):
            raise NotationError(f"'target' names a unit of the game; the numbers form takes "
                                f"target_type:{target.strip().lower()}.",
                                legal=(f"/odds minis dice:11 defense:5 target_type:{target.strip().lower()}",))
        if given:
            raise NotationError(
                f"Give either two units or the numbers, not both: with attacker and target the game gives "
                f"every number, so leave out {', '.join(given)}.",
                legal=("/odds minis attacker:ax3 target:al5", "/odds minis dice:11 defense:5"))
        await _odds_minis_live(ctx, attacker, target, defensive=defensive, ap=ap, at=at, cannon=cannon)
        return
    if cannon:
        raise NotationError("'cannon' is for an attack between two units of the game (attacker and target); "
                            "with numbers, give the cannon's own dice.",
                            legal=("/odds minis attacker:ax1 target:al1 cannon:true", "/odds minis dice:4 defense:5"))
    if at is not None:
        raise NotationError("'at' is for defensive fire between two units of the game (attacker and target).",
                            legal=("/odds minis attacker:ax2 target:al1 defensive:true at:entering",))
    if dice is None or defense is None:
        raise NotationError(
            "Give the attacker and target units of this channel's game, or at least dice and defense.",
            legal=("/odds minis attacker:ax3 target:al5", "/odds minis dice:11 defense:5 cover:5"))
    odds = minis_odds(
        MinisAttack(
            dice=dice,
            defense=defense,
            die_modifier=die_modifier or 0,
            attacker_penalty=bool(attacker_penalty),
            target_penalty=bool(target_penalty),
            target=target_type or VEHICLE,
            target_damaged=bool(target_damaged),
            cover=cover,
            same_hex=bool(same_hex),
            defensive_fire=defensive,
            shrapnel=shrapnel or 1,
            superior_armor=superior_armor or 0,
            armor_piercing=ap,
            heavy_armor=bool(heavy_armor),
            overheat=bool(overheat),
            attacks=2 if double_shot else 1,
        )
    )
    lines = minis_lines(odds)
    lines[1] = f"**{lines[1]}**"
    await ctx.reply("\n".join(lines), ephemeral=False, files=[Attachment("odds-minis.png", minis_chart(odds))])


async def _odds_minis_live(ctx: Ctx, attacker: str | None, target: str | None, *, defensive: bool, ap: bool,
                           at: str | None, cannon: bool = False) -> None:
    """The live form: both units from the game in this channel, as the asker sees them."""
    if not attacker or not target:
        missing = "target" if attacker else "attacker"
        raise NotationError(f"Give the {missing} unit too (both attacker and target), or the numbers instead.",
                            legal=("/odds minis attacker:ax3 target:al5",))
    loaded = await ctx.app.sessions.find(ctx.channel_id)
    if loaded is None or loaded.game.kind != MINIS:
        raise NoGame("There is no A&A Miniatures game in this channel: give the numbers instead "
                     "(/odds minis dice:11 defense:5), or start one with /minis new.")
    # Only units the asker may see (M-2.5), from the engine's view for the asker's seats.
    state = minis_state(loaded.seen_by(ctx.actor.id))
    a, t = find_unit(state, attacker), find_unit(state, target)
    live = live_attack(state, a.id, t.id, defensive=defensive, armor_piercing=ap, where=at, cannon=cannon)
    odds = minis_odds(live.attack)
    lines = minis_live_lines(live, odds)
    hits_line = next(i for i, line in enumerate(lines) if line.startswith("0 hits"))
    lines[hits_line] = f"**{lines[hits_line]}**"
    lines += [minis_blast_line(b, minis_odds(b.attack)) for b in live.blast]
    if live.extra_attack is not None:
        lines.append(minis_extra_attack_line(minis_odds(live.extra_attack)))
    png = minis_chart(odds, f"{live.attacker} vs {live.target}")
    # Odds from a live game tell what the asker plans: only they see them.
    await ctx.reply(clip(lines), ephemeral=True, files=[Attachment("odds-minis.png", png)])


@command(
    "odds memoir",
    "Exact odds of Memoir '44 battle dice",
    Option("dice", int, "How many dice", required=False, min_value=1, max_value=12),
    Option("target", str, "What is hit", required=False, choices=(INFANTRY, ARMOR, ARTILLERY)),
    Option("figures", int, "Figures in the target unit", required=False, min_value=1, max_value=6),
    Option("blocked", bool, "Retreat blocked: each flag costs a figure", required=False, default=False),
    Option("retreat_room", int, "Hexes the unit can still retreat", required=False, min_value=0, max_value=12),
    Option("ignore_flags", int, "Flags the unit may ignore", required=False, default=0, min_value=0, max_value=3),
    Option("attacker", str, "Full battle: the attacking unit's type", required=False,
           choices=(INFANTRY, ARMOR, ARTILLERY)),  # fmt: skip
    Option("ambush_dice", int, "Full battle: the defender's Ambush dice at the attacker", required=False,
           min_value=1, max_value=12),  # fmt: skip
    Option("attacker_figures", int, "Full battle: the attacker's figures (for Ambush)", required=False,
           min_value=1, max_value=6),  # fmt: skip
    Option("attacker_retreat_room", int, "Full battle: hexes the attacker can retreat (0 = blocked)",
           required=False, min_value=0, max_value=12),  # fmt: skip
    Option("overrun_dice", int, "Full battle: armor's Overrun dice after taking ground", required=False,
           min_value=1, max_value=12),  # fmt: skip
    Option("overrun_target", str, "Full battle: the Overrun target", required=False,
           choices=(INFANTRY, ARMOR, ARTILLERY)),  # fmt: skip
    Option("overrun_figures", int, "Full battle: the Overrun target's figures", required=False,
           min_value=1, max_value=6),  # fmt: skip
    Option("overrun_retreat_room", int, "Full battle: hexes the Overrun target can retreat (0 = blocked)",
           required=False, min_value=0, max_value=12),  # fmt: skip
    Option("unit", str, "This channel's game: the hex of the unit that battles (e.g. E4)", required=False),
    Option("enemy", str, "This channel's game: the hex of the enemy it battles (e.g. F6)", required=False),
)
async def odds_memoir(
    ctx: Ctx,
    dice: int | None,
    target: str | None,
    figures: int | None,
    blocked: bool,
    retreat_room: int | None,
    ignore_flags: int,
    attacker: str | None = None,
    ambush_dice: int | None = None,
    attacker_figures: int | None = None,
    attacker_retreat_room: int | None = None,
    overrun_dice: int | None = None,
    overrun_target: str | None = None,
    overrun_figures: int | None = None,
    overrun_retreat_room: int | None = None,
    unit: str | None = None,
    enemy: str | None = None,
) -> None:
    if unit is not None or enemy is not None:
        numbers = (dice, target, figures, retreat_room, attacker, ambush_dice, attacker_figures,
                   attacker_retreat_room, overrun_dice, overrun_target, overrun_figures, overrun_retreat_room)
        if unit is None or enemy is None or any(v is not None for v in numbers):
            raise NotationError("From the game in this channel, name both hexes and nothing else.",
                                legal=("/odds memoir unit:E4 enemy:F6", "/odds memoir dice:3 target:infantry"))
        await _odds_memoir_live(ctx, unit, enemy)
        return
    if dice is None or target is None:
        raise NotationError("Name the dice and the target, or two units of this channel's game.",
                            legal=("/odds memoir dice:3 target:infantry", "/odds memoir unit:E4 enemy:F6"))
    roll = MemoirRoll(
        dice=dice,
        target=target,
        figures=figures,
        blocked=blocked,
        retreat_room=retreat_room,
        ignore_flags=ignore_flags,
    )
    odds = memoir_odds(roll)
    battle = close_assault(
        roll, attacker, ambush_dice=ambush_dice, attacker_figures=attacker_figures,
        attacker_retreat_room=attacker_retreat_room, overrun_dice=overrun_dice, overrun_target=overrun_target,
        overrun_figures=overrun_figures, overrun_retreat_room=overrun_retreat_room,
    )  # fmt: skip
    if battle is not None:
        whole = memoir_battle(battle)
        lines = memoir_battle_lines(whole)
        lines[1] = f"**{lines[1]}**"
        lines += memoir_lines(odds)
        await ctx.reply("\n".join(lines), ephemeral=False, files=[Attachment("odds-memoir.png", memoir_chart(odds, whole))])
        return
    lines = memoir_lines(odds)
    if len(lines) > 2:
        lines[2] = f"**{lines[2]}**"
    else:
        lines[1] = f"**{lines[1]}**"
    await ctx.reply("\n".join(lines), ephemeral=False, files=[Attachment("odds-memoir.png", memoir_chart(odds))])


async def _odds_memoir_live(ctx: Ctx, unit: str, enemy: str) -> None:
    """The battle a unit of this channel's Memoir '44 game could fight now, read from the
    game as the asker may see it, answered to the asker alone (it tells what they plan)."""
    from bot.memoir.odds import live_odds

    try:
        loaded = await ctx.app.sessions.latest(ctx.channel_id, kind="memoir")
    except NoGame:  # as the Minis form says it: the numbers need no game
        raise NoGame("There is no Memoir '44 game in this channel: give the numbers instead "
                     "(/odds memoir dice:3 target:infantry), or start one with /memoir new.") from None
    # The asker's seats' view (the public one for someone not seated).
    roll, odds = live_odds(loaded.seen_by(ctx.actor.id), unit, enemy)
    head = f"{unit.upper()} battles {enemy.upper()}: {plural(roll.dice, 'die', 'dice')} at {roll.target}"
    lines = [head, *memoir_lines(odds)]
    await ctx.reply("\n".join(lines), ephemeral=True, files=[Attachment("odds-memoir.png", memoir_chart(odds))])


# ── A&A game battles (issue 16, owned by bot/aa/): `/odds aa battle:<space>` reads a battle
# of the channel's A&A game; the conversion is in bot/aa/odds_link.py. ──
from bot.aa.odds_link import extend_odds_aa  # noqa: E402

extend_odds_aa()
# ── end of the A&A game block ──
