"""The public API of the Axis & Allies Anniversary engine, and the registered rules.

* ``new_game(options, dice) -> (state, events)``; options: ``setup`` ("1941" | "1942"),
  ``research`` (bool, A-7), ``national_objectives`` (bool, A-13.3), ``victory_cities``
  (13, 15 or 18 — A-3.2 — or any number from 1 to 18 for short games), ``casualties``
  ("earliest" | "by-class", how default casualties are chosen, A-10.14; absent: "by-class",
  the rule of the games opened before 2026-12-02: the bot opens games with "earliest"),
  ``landing_retreat`` (bool: aircraft may retreat from a landing whose land units all
  came from the sea, and within a type the landed units take hits before those that
  came over land, A-10.3; absent: false, the rules of games opened before 2026-12-04:
  the bot opens games with true)
* ``parse_order(state, seat, text)`` / ``format_order(state, order)`` (canonical text)
* ``legal_orders(state, seat)`` (lazy; moves from a sensible generator)
* ``apply(state, order, dice) -> (state, events)`` — never mutates; a ``PlayerError``
  leaves nothing changed
* ``pending(state)``, ``outcome(state)``, ``timeout(state, policy, dice)``
* ``RULES`` — registered as kind ``"aa"``; seats are the powers (China included, played
  by the United States player, A-5.1), teams ``"axis"`` and ``"allies"``.

The turn (A-6): each power plays research, purchase, combat move, conduct combat,
non-combat move and mobilisation as phases that end with ``done``; phases with nothing
possible are skipped; income is collected by the engine.  In the United States turn the
US player picks who fights first (A-5.3), China's combat and non-combat moves are their
own phases, and Chinese infantry are placed after the US mobilisation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterator, Mapping, Sequence

from engine.aa import combat, economy, movement
from engine.aa.board import ALLIES, AXIS
from engine.aa.control import recheck_liberations
from engine.aa.events import (
    Conceded, PhaseStarted, SettingChanged, TimedOut, TurnStarted, Victory,
)
from engine.aa.orders import (
    Auto, Buy, Casualties, Concede, Continue, Done, Fight, First, Land, Load, LossOrder, Move,
    Order, Place, Research, Retreat, Rocket, Sel, Submerge, Unload, format_order, parse_order,
)
from engine.aa.setup import load_setup
from engine.aa.state import (
    CHINA, COMBAT, COMBAT_MOVE, FIRST, MOBILISE, NONCOMBAT, POWERS, PURCHASE, RESEARCH, SIDE, USA,
    CASUALTY_RULES, VICTORY_TARGETS, AAState, Options, Unit, casualty_rule, with_units,
)
from engine.aa.units import (
    CARRIER, FACTORY, FIGHTER, SHORT, SURFACE_WARSHIPS, format_counts,
)
from engine.core.dice import Dice
from engine.core.errors import DataError, IllegalOrder, NotYourTurn, UnknownName
from engine.core.events import Event
from engine.core.game import BaseRules, Outcome, Pending, Viewer, register

Result = tuple[AAState, list[Event]]
TEAMS = (AXIS, ALLIES)


# --------------------------------------------------------------------------- options and set-up


def game_options(options: Mapping[str, Any]) -> Options:
    setup = str(options.get("setup", "1941"))
    if setup not in ("1941", "1942"):
        raise UnknownName(f"No set-up '{setup}'.", legal=("1941", "1942"))
    target = options.get("victory_cities", 15)
    try:
        target = int(target)
    except (TypeError, ValueError):
        raise DataError("victory_cities must be a number (13, 15 or 18).") from None
    if not 1 <= target <= 18:
        raise DataError("victory_cities is between 1 and 18 (the book's games: 13, 15, 18; A-3.2).",
                        legal=[str(k) for k in VICTORY_TARGETS])
    flags = {}
    for name in ("research", "national_objectives"):
        value = options.get(name, True)
        if not isinstance(value, bool):
            raise DataError(f"{name} is true or false.")
        flags[name] = value
    casualties = options.get("casualties", "by-class")  # absent: a game opened before 2026-12-02
    try:
        rule = casualty_rule(casualties)
    except ValueError:
        raise UnknownName(f"No casualty rule '{casualties}'.", legal=CASUALTY_RULES) from None
    landing = options.get("landing_retreat", False)  # absent: a game opened before 2026-12-04
    if not isinstance(landing, bool):
        raise DataError("landing_retreat is true or false.")
    return Options(setup, flags["research"], flags["national_objectives"], target, rule, landing)


def new_game(options: Mapping[str, Any], dice: Dice) -> Result:
    opts = game_options(options)
    setup = load_setup(opts.setup)
    units = {u.id: u for u in setup.units}
    state = AAState(
        options=opts, round=1, turn_order=setup.turn_order, turn=0, steps=(("", ""),), step=0,
        units=units, next_id=max(units) + 1, control=dict(setup.control), control_start=dict(setup.control),
        ipcs=dict(setup.ipcs), factories={t: 0 for t in setup.factories},
        techs={p: frozenset() for p in POWERS}, researchers={p: 0 for p in POWERS},
    )
    state = assign_carriers(state)
    return begin_turn(state, dice)


# --------------------------------------------------------------------------- the turn


def _steps_for(state: AAState, power: str) -> tuple[tuple[str, str], ...]:
    head = ((power, RESEARCH), (power, PURCHASE))
    if power != USA:
        return head + ((power, COMBAT_MOVE), (power, COMBAT), (power, NONCOMBAT), (power, MOBILISE))
    return head + ((power, FIRST),)


def _china_steps(first: str) -> tuple[tuple[str, str], ...]:
    second = CHINA if first == USA else USA
    return ((first, COMBAT_MOVE), (first, COMBAT), (second, COMBAT_MOVE), (second, COMBAT),
            (CHINA, NONCOMBAT), (USA, NONCOMBAT), (USA, MOBILISE), (CHINA, MOBILISE))


def begin_turn(state: AAState, dice: Dice) -> Result:
    power = state.power
    units = {uid: u.reset() for uid, u in state.units.items()}
    hostile = frozenset(z for z in state.board.names if state.board.is_sea(z) and any(
        u.kind in SURFACE_WARSHIPS and SIDE[u.owner] != SIDE[power] for u in state.units_at(z)))
    state = replace(state, units=units, control_start=dict(state.control), hostile_start=hostile,
                    captured=frozenset(), rockets=frozenset(), placed={}, new_factories=frozenset(),
                    sites=(), battle=None, scramble=(), combat_started=False, purchase=None,
                    steps=_steps_for(state, power), step=0)
    events: list[Event] = [TurnStarted(state.round, power)]
    state, more = arrive(state, dice)
    return state, events + more


def _has_units(state: AAState, power: str) -> bool:
    return any(u.owner == power for u in state.units.values())


def _skip(state: AAState) -> bool:
    actor, phase = state.actor, state.phase
    if phase == RESEARCH:
        return not economy.can_research(state, actor)
    if phase == PURCHASE:
        if not state.capital_held(actor):
            return True
        return state.ipcs.get(actor, 0) < 3 and not any(
            d for t, d in state.factories.items() if state.controller(t) == actor)
    if phase in (COMBAT_MOVE, NONCOMBAT):
        return not _has_units(state, actor)
    if phase == MOBILISE:
        return not economy.placeable(state, actor)
    return False


def arrive(state: AAState, dice: Dice) -> Result:
    """Enter the current step: skip it when nothing is possible, run what is automatic."""
    events: list[Event] = []
    while True:
        if state.step >= len(state.steps):
            state, more = end_turn(state, dice)
            return state, events + more
        phase = state.phase
        if phase == FIRST:
            if not _has_units(state, CHINA):
                state = replace(state, steps=state.steps[: state.step] + _china_steps(USA)[:2]
                                + ((USA, NONCOMBAT), (USA, MOBILISE), (CHINA, MOBILISE)))
                continue
            events.append(PhaseStarted(state.actor, phase))
            return state, events
        if phase == COMBAT:
            state = replace(state, sites=combat.plan_battles(state), combat_started=False)
            if state.sites or _rockets_left(state):
                events.append(PhaseStarted(state.actor, phase))
            state, more = advance_combat(state, dice)  # ends the phase itself when all is done
            return state, events + more
        if _skip(state):
            if phase == PURCHASE and state.actor == USA:
                state, more = economy.china_recruits(state)
                events.extend(more)
            if phase == MOBILISE:  # fighters waiting for a carrier that never came
                state, more = land_aircraft(state, state.actor, True)
                events.extend(more)
            state = replace(state, step=state.step + 1)
            continue
        events.append(PhaseStarted(state.actor, phase))
        return state, events


def _rockets_left(state: AAState) -> bool:
    return bool(combat.rocket_sites(state, state.actor)) and not state.combat_started


def advance_combat(state: AAState, dice: Dice) -> Result:
    """Run the conduct-combat phase until a player must decide; end it when all is done."""
    events: list[Event] = []
    for _ in range(500):
        if state.battle is not None or state.phase != COMBAT:
            return state, events
        if state.sites:
            ready = combat.ready_sites(state)
            if len(ready) == 1 and not _rockets_left(state):
                state, more = combat.start(state, ready[0], dice)
                events.extend(more)
                continue
            return state, events
        if _rockets_left(state):
            return state, events
        state, more = _auto_scramble(state)
        events.extend(more)
        if state.scramble:
            return state, events
        state = replace(state, step=state.step + 1, sites=())
        state, more = arrive(state, dice)
        return state, events + more
    raise AssertionError("conduct combat does not settle")


def _auto_scramble(state: AAState) -> Result:
    """A-11.6: fighters whose carrier sank land where they must: on another carrier in the
    zone when there is room, or the only place in reach; none in reach: lost."""
    events: list[Event] = []
    waiting = list(state.scramble)
    keep: list[int] = []
    for uid in waiting:
        u = state.units.get(uid)
        if u is None:
            continue
        opts = movement.scramble_options(state, u)
        if u.where in opts:
            continue
        if not opts:
            state, more = movement.lose_units(state, [u], "no landing after its carrier sank (A-11.6)")
            events.extend(more)
        elif len(opts) == 1:
            state = with_units(state, {uid: replace(u, where=opts[0], aboard=None)})
        else:
            keep.append(uid)
    return replace(state, scramble=tuple(keep)), events


def end_turn(state: AAState, dice: Dice) -> Result:
    events: list[Event] = []
    state, more = economy.collect_income(state, dice)
    events.extend(more)
    state, more = recheck_liberations(state)
    events.extend(more)
    state = assign_carriers(state)
    nxt = state.turn + 1
    if nxt >= len(state.turn_order):
        counts = state.victory_count()
        target = state.options.victory_cities
        for team in TEAMS:
            if counts[team] >= target:
                name = VICTORY_TARGETS.get(target, f"{target} victory cities")
                reason = (f"the {'Axis' if team == AXIS else 'Allies'} hold {counts[team]} victory cities "
                          f"at the end of round {state.round} ({name}, A-3.3)")
                out = Outcome(team, reason)
                events.append(Victory(team, counts[team], reason))
                return replace(state, outcome=out), events
        state = replace(state, round=state.round + 1, turn=0)
    else:
        state = replace(state, turn=nxt)
    state, more = begin_turn(state, dice)
    return state, events + more


def assign_carriers(state: AAState) -> AAState:
    """Fighters at sea sit on carriers of their side (their own first), two a carrier."""
    changed: dict[int, Unit | None] = {}
    for zone, here in state.at.items():
        if not state.board.is_sea(zone):
            continue
        fighters = [u for u in here if u.kind == FIGHTER]
        if not fighters:
            continue
        carriers = [u for u in here if u.kind == CARRIER]
        room = {c.id: 2 for c in carriers}
        seat: dict[int, int | None] = {}
        for f in fighters:
            for c in carriers:
                if c.owner == f.owner and room[c.id] > 0:
                    seat[f.id] = c.id
                    room[c.id] -= 1
                    break
        for f in fighters:
            if f.id in seat:
                continue
            seat[f.id] = None
            for c in carriers:
                if SIDE[c.owner] == SIDE[f.owner] and room[c.id] > 0:
                    seat[f.id] = c.id
                    room[c.id] -= 1
                    break
        for f in fighters:
            if f.aboard != seat[f.id]:
                changed[f.id] = replace(f, aboard=seat[f.id])
    return with_units(state, changed) if changed else state


def land_aircraft(state: AAState, power: str, final: bool) -> Result:
    """A-11.4: the power's aircraft with no legal landing are lost (at the end of phase 5;
    fighters waiting for a carrier from the pool wait until the end of phase 6)."""
    waiting = set() if final else movement.pool_carrier_zones(state, power)
    lost: list[Unit] = []
    events: list[Event] = []
    b = state.board
    for zone, here in state.at.items():
        mine = [u for u in here if u.owner == power and u.is_air]
        if not mine:
            continue
        if b.is_land(zone):
            lost.extend(u for u in mine if not movement.land_here_ok(state, u, zone))
            continue
        lost.extend(u for u in mine if u.kind != FIGHTER or u.owner == CHINA)
        fighters = [u for u in mine if u.kind == FIGHTER and u.owner != CHINA]
        over = -state.carrier_room(zone, power)
        if over > 0 and zone not in waiting:
            ranked = sorted(fighters, key=lambda u: (u.moved == 0, u.id))
            lost.extend(ranked[:over])
    for u in lost:
        state, more = movement.lose_units(state, [state.units[u.id]], "no landing (A-11.4)")
        events.extend(more)
    return state, events


def end_phase(state: AAState, dice: Dice, *, forced: bool = False) -> Result:
    """The active power ends its phase (``done``, or a timeout with ``forced``)."""
    phase, actor = state.phase, state.actor
    events: list[Event] = []
    if phase == PURCHASE:
        state, more = economy.end_purchase(state)
        events.extend(more)
    elif phase == FIRST:
        state = replace(state, steps=state.steps[: state.step + 1] + _china_steps(USA))
    elif phase == COMBAT_MOVE:
        if not forced:
            problem = combat_move_problem(state)
            if problem:
                raise IllegalOrder(problem)
    elif phase == COMBAT:
        if state.battle is not None or state.sites or state.scramble:
            if not forced:
                raise IllegalOrder("Fight every battle first (A-10.1).",
                                   legal=[f"battle {s.where}" for s in combat.ready_sites(state)])
        state = replace(state, combat_started=True)
        state, more = advance_combat(state, dice)
        return state, events + more
    elif phase == NONCOMBAT:
        final = not any(a == actor and p == MOBILISE for a, p in state.steps[state.step:])
        state, more = land_aircraft(state, actor, final)
        events.extend(more)
    elif phase == MOBILISE:
        if economy.placeable(state, actor):
            if not forced:
                raise IllegalOrder("Everything placeable must be placed (A-12.8).",
                                   legal=[f"place … : {f}" for f in economy.placement_factories(state, actor)]
                                   or economy.china_placements(state))
            state, more = economy.auto_place(state, actor)
            events.extend(more)
        state, more = land_aircraft(state, actor, True)
        events.extend(more)
    state = replace(state, step=state.step + 1)
    state, more = arrive(state, dice)
    return state, events + more


def combat_move_problem(state: AAState) -> str | None:
    """Why the combat move cannot end yet (A-9.16 cargo, A-9.11 aircraft), or None."""
    actor = state.actor
    loose = [u for u in state.owned(actor) if u.boarded == 3 and u.target is None
             and u.aboard is not None and not state.enemy_surface(u.where, actor)]
    if loose:
        return ("Cargo loaded in the combat move must land by amphibious assault (A-9.16): "
                + ", ".join(f"#{u.id} {SHORT[u.kind]} in {u.where}" for u in loose) + ".")
    lost = movement.stranded(state, actor)
    if lost:
        return "No possible landing for " + ", ".join(f"#{u.id} {SHORT[u.kind]}" for u in lost) + " (A-9.11)."
    return None


# --------------------------------------------------------------------------- applying orders


def _first(state: AAState, o: First, dice: Dice) -> Result:
    if state.phase != FIRST:
        raise IllegalOrder("Only at the start of the US combat move is 'first' chosen (A-5.3).")
    if o.who not in (USA, CHINA):
        raise IllegalOrder("China or the United States.", legal=["first China", "first United States"])
    state = replace(state, steps=state.steps[: state.step + 1] + _china_steps(o.who), step=state.step + 1)
    return arrive(state, dice)


def _done(state: AAState, o: Done, dice: Dice) -> Result:
    if state.phase == FIRST:
        return _first(state, First(o.power, USA), dice)
    if state.phase == RESEARCH:
        state = replace(state, step=state.step + 1)
        return arrive(state, dice)
    return end_phase(state, dice)


def _research(state: AAState, o: Research, dice: Dice) -> Result:
    state, events = economy.research(state, o, dice)
    state = replace(state, step=state.step + 1)
    state, more = arrive(state, dice)
    return state, events + more


def _in_combat(handler: Callable[[AAState, Any, Dice], Result]) -> Callable[[AAState, Any, Dice], Result]:
    def run(state: AAState, o: Any, dice: Dice) -> Result:
        state, events = handler(state, o, dice)
        if state.phase == COMBAT and state.battle is None:
            state, more = advance_combat(state, dice)
            events = list(events) + more
        return state, events
    return run


def _land(state: AAState, o: Land, dice: Dice) -> Result:
    state, events = movement.land_fighter(state, o)
    state, more = advance_combat(state, dice)
    return state, events + more


def _place(state: AAState, o: Place, dice: Dice) -> Result:
    """Place; once nothing placeable is left the phase ends by itself (A-12.8)."""
    state, events = economy.place(state, o, dice)
    if not economy.placeable(state, o.power):
        state, more = end_phase(state, dice)
        events = events + more
    return state, events


def _move(state: AAState, o: Move, dice: Dice) -> Result:
    return movement.check_move(state, o)


_PHASE_HANDLERS: dict[type, Callable[[AAState, Any, Dice], Result]] = {
    Done: _done,
    Research: _research,
    Buy: economy.buy,
    First: _first,
    Move: _move,
    Load: lambda s, o, d: movement.load(s, o),
    Unload: lambda s, o, d: movement.unload(s, o),
    Rocket: _in_combat(combat.rocket),
    Fight: _in_combat(combat.fight),
    Place: lambda s, o, d: _place(s, o, d),
}
_DECISIONS: dict[type, Callable[[AAState, Any, Dice], Result]] = {
    Casualties: _in_combat(combat.casualties),
    Continue: _in_combat(combat.press),
    Retreat: _in_combat(combat.retreat),
    Submerge: _in_combat(combat.submerge),
    Land: _land,
}


def _setting(state: AAState, o: LossOrder | Auto) -> Result:
    s = state.setting(o.power)
    if isinstance(o, Auto):
        s = replace(s, auto=o.on)
        what = "automatic casualties " + ("on" if o.on else "off")
    else:
        if FACTORY in o.kinds or "aa gun" in o.kinds:
            raise IllegalOrder("AA guns and factories are never casualties (A-14).")
        if o.role in ("attack", "both"):
            s = replace(s, attack_order=o.kinds)
        if o.role in ("defense", "both"):
            s = replace(s, defense_order=o.kinds)
        what = format_order(o)
    settings = dict(state.settings)
    settings[o.power] = s
    return replace(state, settings=settings), [SettingChanged(o.power, what)]


def _concede(state: AAState, o: Concede) -> Result:
    conceded = state.conceded | {o.power}
    team = SIDE[o.power]
    events: list[Event] = [Conceded(o.power)]
    state = replace(state, conceded=conceded)
    if all(p in conceded for p in POWERS if SIDE[p] == team):
        winner = ALLIES if team == AXIS else AXIS
        reason = f"the {'Axis' if team == AXIS else 'Allies'} conceded (A-3.3 ruling)"
        events.append(Victory(winner, state.victory_count()[winner], reason))
        state = replace(state, outcome=Outcome(winner, reason))
    return state, events


def apply(state: AAState, order: Order, dice: Dice) -> tuple[AAState, tuple[Event, ...]]:
    """Check and apply one order; a new state and the events, or a PlayerError."""
    if state.outcome is not None:
        raise IllegalOrder("The game is over.")
    power = getattr(order, "power", None)
    if power not in POWERS:
        raise IllegalOrder(f"'{power}' is not a seat.", legal=POWERS)
    if isinstance(order, (LossOrder, Auto)):
        new, events = _setting(state, order)
        if isinstance(order, Auto) and order.on and state.battle is not None and state.battle.hits:
            new, more = _in_combat(lambda s, o, d: combat.proceed(s, d))(new, order, dice)
            events = events + more
        return new, tuple(events)
    if isinstance(order, Concede):
        new, events = _concede(state, order)
        return new, tuple(events)
    decision = _DECISIONS.get(type(order))
    if decision is not None:
        waiting = {p.player for p in pending(state)}
        if power not in waiting:
            raise NotYourTurn(f"{power} has no decision to make now.",
                              legal=[f"{p.player}: {p.decision}" for p in pending(state)])
        new, events = decision(state, order, dice)
        return new, tuple(events)
    handler = _PHASE_HANDLERS.get(type(order))
    if handler is None:
        raise IllegalOrder(f"Unknown order {order!r}.")
    if state.battle is not None or state.scramble:
        waiting_on = pending(state)
        raise NotYourTurn("A battle decision is waiting first.",
                          legal=[f"{p.player}: {p.decision}" for p in waiting_on])
    if power != state.actor:
        raise NotYourTurn(f"It is {state.actor}'s {state.phase} phase.")
    new, events = handler(state, order, dice)
    return new, tuple(events)


def apply_text(state: AAState, seat: str, text: str, dice: Dice) -> tuple[AAState, tuple[Event, ...]]:
    return apply(state, parse_order(state, seat, text), dice)


# --------------------------------------------------------------------------- who must decide


def pending(state: AAState) -> list[Pending]:
    if state.outcome is not None:
        return []
    b = state.battle
    if b is not None:
        if b.hits:
            h = b.hits[0]
            who = combat.decider(state, b, h.side)
            opts = combat.options(state, b, h, limit=6)
            choices = tuple("casualties " + format_counts(o, empty="none") for o in opts) if len(opts) <= 6 else ()
            return [Pending(who, f"choose casualties in {b.where} ({h.side}): {combat.describe_hits(h)}",
                            choices, reaction=who != state.actor)]
        if b.stage == "retreat":
            legal = combat.retreat_options(state)
            return [Pending(b.attacker, f"battle in {b.where} after round {b.round}: continue or retreat",
                            ("continue",) + tuple(f"retreat {s}" if s else "retreat" for s in legal))]
        if b.stage in ("submerge-attacker", "submerge-defender"):
            side = combat.ATT if b.stage == "submerge-attacker" else combat.DEF
            who = combat.decider(state, b, side)
            n = sum(1 for u in combat.side_units(state, b, side) if u.kind == "submarine")
            return [Pending(who, f"submarines in {b.where}: submerge any? (round {b.round})",
                            tuple(f"submerge {k}" for k in range(n + 1)), reaction=who != state.actor)]
    if state.scramble:
        owners: dict[str, list[str]] = {}
        for uid in state.scramble:
            u = state.units[uid]
            for spot in movement.scramble_options(state, u):
                owners.setdefault(u.owner, []).append(f"land #{u.id}: {u.where} -> {spot}")
        return [Pending(p, "land fighters whose carrier sank (A-11.6)", tuple(c), reaction=p != state.actor)
                for p, c in owners.items()]
    actor, phase = state.actor, state.phase
    if phase == COMBAT:
        choices = tuple(f"battle {s.where}" for s in combat.ready_sites(state))
        choices += tuple(f"rocket {a} -> {t}" for a, t in combat.rocket_sites(state, actor))
        if not state.sites:
            choices += ("done",)
        return [Pending(actor, "conduct combat: choose the next battle", choices)]
    if phase == FIRST:
        return [Pending(actor, "choose who moves and fights first (A-5.3)",
                        ("first United States", "first China"))]
    text = {RESEARCH: "research (or done)", PURCHASE: "buy units and repairs, then done",
            COMBAT_MOVE: "combat move, then done", NONCOMBAT: "non-combat move and landing, then done",
            MOBILISE: "place new units, then done"}[phase]
    return [Pending(actor, f"{phase} of {actor} (round {state.round}): {text}", ("done",))]


def outcome(state: AAState) -> Outcome | None:
    return state.outcome


def timeout(state: AAState, policy: str, dice: Dice) -> Result:
    """The waited-for seat did not answer: ``done`` takes the default (the default order
    of loss, press on, stay submerged-free, the ruled landing) or ends the phase with
    nothing more done (mobilisation auto-places, A-12.8); ``forfeit`` loses the game for
    the waiting seat's team."""
    waiting = pending(state)
    if not waiting:
        raise IllegalOrder("Nobody is being waited for.")
    if policy not in ("done", "forfeit"):
        raise IllegalOrder(f"Unknown timeout policy '{policy}'.", legal=("done", "forfeit"))
    who = waiting[0].player
    events: list[Event] = [TimedOut(who, waiting[0].decision)]
    if policy == "forfeit":
        team = SIDE[who]
        winner = ALLIES if team == AXIS else AXIS
        reason = f"{who} did not answer in time"
        events.append(Victory(winner, state.victory_count()[winner], reason))
        return replace(state, outcome=Outcome(winner, reason)), events
    b = state.battle
    if b is not None:
        if b.hits:
            h = b.hits[0]
            chosen = combat.default_choice(state, b, h)
            new, more = combat.casualties(state, Casualties(who, Sel.of(chosen)), dice)
        elif b.stage == "retreat":
            new, more = combat.press(state, Continue(who), dice)
        else:
            new, more = combat.submerge(state, Submerge(who, 0), dice)
        if new.phase == COMBAT and new.battle is None:
            new, extra = advance_combat(new, dice)
            more = more + extra
        return new, events + more
    if state.scramble:
        new = state
        for uid in state.scramble:
            u = new.units[uid]
            if u.owner != who:
                continue
            opts = movement.scramble_options(new, u)
            land = [s for s in opts if new.board.is_land(s)]
            spot = (land or opts)[0]
            new = with_units(new, {uid: replace(u, where=spot, aboard=None)},
                             scramble=tuple(i for i in new.scramble if i != uid))
        new, more = advance_combat(new, dice)
        return new, events + more
    if state.phase == COMBAT:
        ready = combat.ready_sites(state)
        if ready:
            site = sorted(ready, key=lambda s: (s.kind != "sea", s.where))[0]
            new, more = combat.fight(state, Fight(state.actor, site.where), dice)
            new, extra = advance_combat(new, dice)
            return new, events + more + extra
        new, more = end_phase(state, dice, forced=True)
        return new, events + more
    if state.phase == FIRST:
        new, more = _first(state, First(state.actor, USA), dice)
        return new, events + more
    if state.phase == RESEARCH:
        new, more = arrive(replace(state, step=state.step + 1), dice)
        return new, events + more
    new, more = end_phase(state, dice, forced=True)
    return new, events + more




def legal_orders(state: AAState, seat: str) -> Iterator[Order]:
    from engine.aa.legal import legal_orders as _legal

    return _legal(state, seat)


# --------------------------------------------------------------------------- registry


class AARules(BaseRules):
    kind = "aa"
    title = "Axis & Allies Anniversary"
    seats: tuple[str, ...] = POWERS
    timeout_policies: tuple[str, ...] = ("done", "forfeit")

    def team(self, seat: str) -> str:
        if seat not in SIDE:
            raise UnknownName(f"No seat '{seat}'.", legal=POWERS)
        return SIDE[seat]

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[AAState, Sequence[Event]]:
        return new_game(options, dice)

    def parse_order(self, state: AAState, seat: str, text: str) -> Order:
        return parse_order(state, seat, text)

    def format_order(self, state: AAState, order: Order) -> str:
        return format_order(order)

    def legal_orders(self, state: AAState, seat: str) -> Iterator[Order]:
        return legal_orders(state, seat)

    def apply(self, state: AAState, order: Order, dice: Dice) -> tuple[AAState, Sequence[Event]]:
        return apply(state, order, dice)

    def pending(self, state: AAState) -> Sequence[Pending]:
        return pending(state)

    def outcome(self, state: AAState) -> Outcome | None:
        return outcome(state)

    def timeout(self, state: AAState, policy: str, dice: Dice) -> tuple[AAState, Sequence[Event]]:
        return timeout(state, policy, dice)

    def view(self, state: AAState, viewer: Viewer) -> AAState:
        """A&A hides nothing but a purchase being made: it may be replaced until the
        power ends phase 2 and is public from then on (A-8 ruling)."""
        if state.purchase is None or viewer.holds(state.actor):
            return state
        return replace(state, purchase=None)

    def order_view(self, seat: str, text: str, viewer: Viewer) -> str | None:
        if text.startswith("buy") and not viewer.holds(seat):
            return "buy (shown when the purchase phase ends)"
        return text

    def dump_state(self, state: AAState) -> dict[str, Any]:
        from engine.aa.codec import dump_state

        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> AAState:
        from engine.aa.codec import load_state

        return load_state(data)


RULES = AARules()
register(RULES)
