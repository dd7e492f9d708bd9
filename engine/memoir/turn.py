"""The rules in motion: set-up (E-3), the turn (E-4), cards (E-5–E-7), movement and
battle (E-9–E-16), medals and victory (E-17), play-by-post decisions (E-19).

Every handler takes a state and an order and returns a new state and the events; it
never mutates the state it was given, and it raises a PlayerError before changing
anything when the order is illegal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from engine.core.dice import Dice, draw_index, shuffled
from engine.core.errors import DataError, IllegalOrder, NotYourTurn
from engine.core.events import Event
from engine.core.game import Outcome
from engine.core.hexgrid import Hex
from engine.memoir import combat
from engine.memoir.board import SEATS, absolute_section, hex_key, label, neighbours, other, sections_of, within
from engine.memoir.events import (
    Airdropped, AmbushAnswered, BattleCancelled, BattleDeclared, CardDice, CardDiscarded, CardDrawn, CardPlayed,
    CardsDealt, Conceded, DeckShuffled, Eliminated, FiguresLost, FlagsIgnored, GameStarted, Healed, MedalsChanged,
    Moved, ObstacleChanged, Retreated, Rolled, StandingSet, StepClosed, TimedOut, TookGround, Targeted, TurnEnded,
    UnitsOrdered, Victory,
)
from engine.memoir.movement import Reach, can_enter, check_path, ends_move, paths, retreat_ends
from engine.memoir.orders import (
    Ambush, Battle, ClearWire, Concede, Discard, Done, Hold, Ignore, Move, Order, OrderUnits, Pass, Play, Retreat,
    Standing, TakeGround, Target, Timeout, ALL_SEATS, SYSTEM,
)
from engine.memoir.scenario import Scenario, resolve
from engine.memoir.state import (
    AMBUSH_STANDING, Acting, Fight, MemoirState, Played, Unit, replace_unit, seat_index, set_acting, set_obstacle,
    with_hand, with_pair,
)
from engine.memoir.tables import card_kinds, full_deck, kind_of, unit_rule

Result = tuple[MemoirState, list[Event]]
SECTION_KINDS = frozenset(k for k, c in card_kinds().items() if c.type == "section")
AMBUSH = "ambush"


# =========================================================================== set-up


def _standing_option(options: Mapping[str, Any]) -> tuple[str, str]:
    raw = options.get("ambush", "ask")
    per: dict[str, Any] = {}
    if isinstance(raw, Mapping):
        per = dict(raw)
    else:
        per = {s: raw for s in SEATS}
    for s in SEATS:
        if f"ambush_{s}" in options:
            per[s] = options[f"ambush_{s}"]
    out = []
    for s in SEATS:
        v = str(per.get(s, "ask")).lower()
        if v not in AMBUSH_STANDING:
            raise DataError(f"'{v}' is not an Ambush standing setting.", legal=AMBUSH_STANDING)
        out.append(v)
    return out[0], out[1]


def start_state(sc: Scenario, standing: tuple[str, str] = ("ask", "ask")) -> MemoirState:
    """The scenario's position before shuffling and dealing (tests use it with a deck
    they stack themselves)."""
    units: list[Unit] = []
    counts = {"axis": 0, "allies": 0}
    for spec in sc.units:
        counts[spec.side] += 1
        rule = unit_rule(spec.type, spec.badge)
        figures = spec.figures if spec.figures is not None else rule.figures
        units.append(Unit(id=f"{'ax' if spec.side == 'axis' else 'al'}{counts[spec.side]}", side=spec.side,
                          type=spec.type, badge=spec.badge, figures=figures, strength=max(figures, rule.figures),
                          hex=spec.hex))
    return MemoirState(scenario=sc, units=tuple(units), obstacles=sc.obstacles, deck=full_deck(), discard=(),
                       hands=((), ()), active=sc.first, standing=standing, next_unit=len(units))


def new_game(options: Mapping[str, Any], dice: Dice) -> Result:
    """E-3.2: lay out the scenario, shuffle the 60 cards, deal the hands in secret, then
    the Sainte-Mère-Église airdrop (E-3.5) if the scenario has one."""
    if "scenario" not in options:
        raise DataError("Which scenario?", legal=("pegasus-bridge", "sainte-mere-eglise", "sword-beach"))
    sc = resolve(options["scenario"])
    state = start_state(sc, _standing_option(options))
    events: list[Event] = [GameStarted(sc.name, sc.top, sc.first, sc.medals)]
    deck = shuffled(dice, full_deck())
    hands: list[tuple[str, ...]] = []
    for s in SEATS:
        n = sc.hand_size(s)
        hands.append(tuple(deck[:n]))
        deck = deck[n:]
        events.append(CardsDealt(s, hands[-1], private_to=s))
    state = replace(state, deck=deck, hands=(hands[0], hands[1]))
    if sc.airdrop is not None:
        state, more = _airdrop(state, dice)
        events += more
    state, more = _check_victory(state, sc.first)
    return state, events + more


def _airdrop(state: MemoirState, dice: Dice) -> Result:
    a = state.scenario.airdrop
    assert a is not None
    zone = within(a.centre, a.radius)
    events: list[Event] = []
    prefix = "ax" if a.side == "axis" else "al"
    n = sum(1 for u in state.units if u.side == a.side)
    for _ in range(a.units):
        h = zone[draw_index(dice, len(zone))]
        probe = Unit("drop", a.side, a.type, None, 1, 1, h)
        if h in state.by_hex:
            events.append(Airdropped(label(h), None, "occupied"))
            continue
        if not can_enter(state, probe, h):
            events.append(Airdropped(label(h), None, "impassable"))
            continue
        n += 1
        rule = unit_rule(a.type)
        u = Unit(f"{prefix}{n}", a.side, a.type, None, rule.figures, rule.figures, h)
        state = replace(state, units=state.units + (u,), next_unit=state.next_unit + 1)
        events.append(Airdropped(label(h), u.id))
    return state, events


# =========================================================================== medals


def medals(state: MemoirState, seat: str) -> int:
    """E-17: eliminations plus objectives held (temporary) or taken (permanent)."""
    total = state.kills[seat_index(seat)]
    for o in state.scenario.objectives:
        if not o.counts_for(seat) or o.kind == "sudden-death":
            continue
        if o.kind == "temporary":
            u = state.by_hex.get(o.hex)
            if u is not None and u.side == seat:
                total += o.medals
        elif o.kind == "permanent" and (o.hex, seat) in state.taken:
            total += o.medals
    return total


def shown_medals(state: MemoirState) -> tuple[int, int]:
    """Medal counts as shown: capped at each side's target (E-17, no surplus medals)."""
    a, b = (min(medals(state, s), state.scenario.target(s)) for s in SEATS)
    return a, b


def _check_victory(state: MemoirState, first: str, before: tuple[int, int] | None = None) -> Result:
    """E-17.4 after anything that can change medals: record permanent objectives, check
    sudden death and the medal targets (``first`` is checked first)."""
    events: list[Event] = []
    sc = state.scenario
    taken = list(state.taken)
    for o in sc.objectives:
        u = state.by_hex.get(o.hex)
        if u is None or not o.counts_for(u.side):
            continue
        if o.kind == "permanent" and (o.hex, u.side) not in taken:
            taken.append((o.hex, u.side))
        if o.kind == "sudden-death":
            state = replace(state, taken=tuple(taken))
            return _finish(state, u.side, f"the {u.side} took the sudden-death objective {label(o.hex)} (E-17)")
    if len(taken) != len(state.taken):
        state = replace(state, taken=tuple(taken))
    now = shown_medals(state)
    if before is not None and now != before:
        events.append(MedalsChanged(*now))
    for s in (first, other(first)):
        if medals(state, s) >= sc.target(s):
            state, more = _finish(state, s, f"the {s} reached {sc.target(s)} medals (E-17.4)")
            return state, events + more
    return state, events


def _finish(state: MemoirState, winner: str, reason: str) -> Result:
    state = replace(state, outcome=Outcome(winner, reason), step="over", fight=None)
    return state, [Victory(winner, reason, shown_medals(state))]


def _with_victory(state: MemoirState, events: list[Event], first: str, before: tuple[int, int]) -> Result:
    state, more = _check_victory(state, first, before)
    return state, events + more


# =========================================================================== cards


def _draw(state: MemoirState, seat: str, count: int, dice: Dice, events: list[Event],
          into_drawn: bool = False) -> MemoirState:
    """E-7: draw ``count`` cards; an empty deck is rebuilt from the shuffled discard pile
    (E-7.5, also in the middle of a Recon draw)."""
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                return state
            deck = shuffled(dice, state.discard)
            state = replace(state, deck=deck, discard=())
            events.append(DeckShuffled(len(deck), "the deck ran out (E-7.5)"))
        card, deck = state.deck[0], state.deck[1:]
        state = replace(state, deck=deck)
        if into_drawn:
            state = replace(state, drawn=state.drawn + (card,))
        else:
            state = with_hand(state, seat, state.hand(seat) + (card,))
        events.append(CardDrawn(seat, kind_of(card), private_to=seat))
    return state


def _find_card(state: MemoirState, seat: str, kind: str) -> str | None:
    mine = sorted(c for c in state.hand(seat) if kind_of(c) == kind)
    return mine[0] if mine else None


def has_type(state: MemoirState, seat: str, unit_type: str) -> bool:
    return any(u.side == seat and u.type == unit_type for u in state.units)


def _fallback(state: MemoirState, seat: str, effect: str) -> bool:
    """E-6 fallback (ruling E-6.1): the named type is absent from the whole board."""
    c = card_kinds()[effect]
    typ = c.get("unit_type")
    return bool(c.get("fallback")) and typ is not None and not has_type(state, seat, typ)


def playable_effect(state: MemoirState, seat: str, kind: str, section: str | None) -> Played:
    """What playing a card of ``kind`` would do (raises when it cannot be played now)."""
    if kind in (AMBUSH, "counter-attack") and _stuck(state, seat):
        return Played(card="", effect="", fallback=False)  # ruling: nothing else can be played
    if kind == AMBUSH:
        raise IllegalOrder("Ambush is only played in the opponent's turn, when they close-assault one of your "
                           "units (E-6.4).")
    effect = kind
    sections: tuple[str, ...] = ()
    if kind == "counter-attack":
        last = state.last[seat_index(other(seat))]
        if last is None:
            raise IllegalOrder("Counter-Attack copies the card your opponent played in its latest turn; "
                               "it has not played one yet (E-6.5).")
        effect, sections = last.effect, last.sections
        if section is not None:
            raise IllegalOrder("A Counter-Attack acts where the copied card acted; name no section.",
                               legal=("play counter-attack",))
    else:
        c = card_kinds()[kind]
        if c.get("choose_section"):
            if section is None:
                raise IllegalOrder(f"{c.name}: name the section.",
                                   legal=tuple(f"play {kind} {s}" for s in ("left", "centre", "right")))
            sections = (absolute_section(section, seat, state.top),)
        elif section is not None:
            raise IllegalOrder(f"{c.name} takes no section.", legal=(f"play {kind}",))
        elif c.type == "section":
            sections = tuple(absolute_section(s, seat, state.top) for s in c.sections)
    return Played(card="", effect=effect, sections=sections, fallback=_fallback(state, seat, effect))


def _stuck(state: MemoirState, seat: str) -> bool:
    """Ruling: a hand holding only Ambush and a Counter-Attack with nothing to copy may play
    one of them for no effect (otherwise the turn could not go on)."""
    kinds = {kind_of(c) for c in state.hand(seat)}
    return kinds <= {AMBUSH, "counter-attack"} and state.last[seat_index(other(seat))] is None


def _play(state: MemoirState, o: Play, dice: Dice) -> Result:
    _expect_step(state, o.seat, "play")
    card = _find_card(state, o.seat, o.card)
    if card is None:
        raise IllegalOrder(f"You hold no {card_kinds()[o.card].name} card.",
                           legal=tuple(sorted({f"play {kind_of(c)}" for c in state.hand(o.seat)})))
    p = replace(playable_effect(state, o.seat, o.card, o.section), card=card)
    hand = list(state.hand(o.seat))
    hand.remove(card)
    state = with_hand(state, o.seat, tuple(hand))
    shown = tuple(absolute_section(s, o.seat, state.top) for s in p.sections)
    events: list[Event] = [CardPlayed(o.seat, o.card, p.effect, shown, p.fallback)]
    if p.effect == "their-finest-hour":
        # E-6: one die per card in hand, this one included
        rolled = combat.faces(dice.roll_many(len(hand) + 1, 6))
        p = replace(p, symbols=rolled)
        events.append(CardDice(o.seat, p.effect, rolled))
    state = replace(state, played=p, step="order")
    if not p.effect:
        return _end_turn(state, dice, events)
    return state, events


# =========================================================================== ordering


def _expect_step(state: MemoirState, seat: str, *steps: str) -> None:
    if state.over:
        raise IllegalOrder("The game is over.")
    if state.fight is not None:
        raise IllegalOrder("Not now: " + _fight_text(state) + " (E-19.5).")
    if seat != state.active:
        raise NotYourTurn(f"Not your turn: the {state.active} are playing.")
    if state.step not in steps:
        raise IllegalOrder(f"Not now: this is the {state.step} step of the turn.", legal=_step_hint(state))


def _step_hint(state: MemoirState) -> tuple[str, ...]:
    return {"play": ("play CARD",), "order": ("order HEX…", "order none", "target HEX…"),
            "move": ("move FROM TO", "done"), "battle": ("battle FROM TARGET", "done"),
            "recon": ("discard 1", "discard 2")}.get(state.step, ())


def in_sections(state: MemoirState, u: Unit, sections: tuple[str, ...]) -> frozenset[str]:
    """The card's (absolute) sections the unit is in (E-5.1, E-2.5)."""
    bottom = other(state.top)
    return sections_of(u.hex, bottom, state.top) & frozenset(sections)


def _assignable(units: list[Unit], state: MemoirState, sections: tuple[str, ...], limit: int | str) -> bool:
    """E-5.2: each unit counts against one section of the card, at most ``limit`` per section."""
    if limit == "all":
        return all(in_sections(state, u, sections) for u in units)
    assert isinstance(limit, int)
    options = [sorted(in_sections(state, u, sections)) for u in units]
    if any(not opts for opts in options):
        return False
    fixed: dict[str, int] = {}
    flexible = []
    for opts in options:
        if len(opts) == 1:
            fixed[opts[0]] = fixed.get(opts[0], 0) + 1
        else:
            flexible.append(opts)
    if any(v > limit for v in fixed.values()):
        return False

    def place(i: int, load: dict[str, int]) -> bool:
        if i == len(flexible):
            return True
        for s in flexible[i]:
            if load.get(s, 0) < limit:
                load[s] = load.get(s, 0) + 1
                if place(i + 1, load):
                    return True
                load[s] -= 1
        return False

    return place(0, dict(fixed))


def eligible(state: MemoirState, seat: str, p: Played) -> tuple[list[Unit], int | str]:
    """The units the card in play may order, and how many (E-5, E-6).  ``"all"`` means no
    limit beyond eligibility; section limits are checked by :func:`check_order`."""
    mine = [u for u in state.units if u.side == seat]
    e = p.effect
    if p.fallback:
        return mine, 1
    if e in SECTION_KINDS:
        return [u for u in mine if in_sections(state, u, p.sections)], card_kinds()[e].limit or 0
    c = card_kinds()[e]
    if e == "close-assault":
        return [u for u in mine if u.type in ("infantry", "armor") and combat.adjacent_enemies(state, u)], "all"
    if e == "firefight":
        return [u for u in mine if not combat.adjacent_enemies(state, u)], 4
    if e == "infantry-assault":
        return [u for u in mine if u.type == "infantry" and in_sections(state, u, p.sections)], "all"
    if e == "medics-and-mechanics":
        return [u for u in mine if u.figures < u.strength], 1
    if e == "their-finest-hour":
        return mine, "all"
    typ = c.get("unit_type")
    pool = [u for u in mine if typ is None or u.type == typ]
    limit = c.limit
    return pool, (limit if limit is not None else 0)


def _tfh_ok(units: list[Unit], symbols: tuple[str, ...]) -> bool:
    """E-6 Their Finest Hour: infantry symbols order infantry, armor symbols armor, stars
    any unit."""
    need_star = 0
    for typ in ("infantry", "armor", "artillery"):
        have = sum(1 for s in symbols if s == typ) if typ != "artillery" else 0
        want = sum(1 for u in units if u.type == typ)
        need_star += max(0, want - have)
    return need_star <= sum(1 for s in symbols if s == "star")


def check_order(state: MemoirState, seat: str, p: Played, units: list[Unit]) -> str | None:
    """Why these units cannot be ordered by the card in play (None if they can)."""
    pool, limit = eligible(state, seat, p)
    ids = {u.id for u in pool}
    for u in units:
        if u.id not in ids:
            return f"the unit on {u.where} cannot be ordered by this card"
    if p.fallback:
        return None if len(units) <= 1 else "the fallback orders 1 unit"
    if p.effect in SECTION_KINDS:
        if not _assignable(units, state, p.sections, limit):
            return "too many units for the card's sections"
        return None
    if p.effect == "their-finest-hour":
        return None if _tfh_ok(units, p.symbols) else "the symbols rolled do not order these units"
    if isinstance(limit, int) and len(units) > limit:
        return f"this card orders at most {limit} unit{'s' if limit != 1 else ''}"
    return None


def _order(state: MemoirState, o: OrderUnits, dice: Dice) -> Result:
    _expect_step(state, o.seat, "order")
    p = state.played
    assert p is not None
    if p.effect in ("air-power", "barrage"):
        raise IllegalOrder(f"{card_kinds()[p.effect].name} targets hexes; it orders no unit.",
                           legal=("target HEX…", "target none"))
    units: list[Unit] = []
    for h in o.hexes:
        u = state.by_hex.get(h)
        if u is None or u.side != o.seat:
            raise IllegalOrder(f"You have no unit on {label(h)}.")
        if u in units:
            raise IllegalOrder(f"{label(h)} is named twice (a unit is ordered at most once, E-4.3).")
        units.append(u)
    why = check_order(state, o.seat, p, units)
    if why:
        pool, _ = eligible(state, o.seat, p)
        raise IllegalOrder(f"Cannot order that: {why}.", legal=tuple(u.where for u in pool))
    events: list[Event] = [UnitsOrdered(o.seat, tuple(u.where for u in units))]
    if p.effect == "dig-in" and not p.fallback:
        for u in units:
            if state.obstacle_map.get(u.hex) is None and not state.terrain(u.hex).water \
                    and not state.terrain(u.hex).impassable:
                state = set_obstacle(state, u.hex, "sandbags")
                events.append(ObstacleChanged(u.where, "sandbags", True, "dig in"))
        return _end_turn(state, dice, events)
    if p.effect == "medics-and-mechanics" and not p.fallback:
        if not units:
            return _end_turn(state, dice, events)
        u = units[0]
        n = len(state.hand(o.seat)) + 1  # E-6: one die per card held, this one included
        rolled = combat.faces(dice.roll_many(n, 6))
        events.append(CardDice(o.seat, p.effect, rolled))
        back = sum(1 for f in rolled if f == "star" or (f == u.type and f != "artillery"))
        back = min(back, u.strength - u.figures)
        if back == 0:
            return _end_turn(state, dice, events)
        state = replace_unit(state, u.id, lambda x: replace(x, figures=x.figures + back))
        events.append(Healed(u.id, u.where, back, u.figures + back))
    state = replace(state, acting=tuple(Acting(u.id, fallback=p.fallback) for u in units))
    no_move = bool(card_kinds()[p.effect].get("no_move")) and not p.fallback
    state = replace(state, step="battle" if no_move else "move")
    return _auto_close(state, dice, events)


def _target(state: MemoirState, o: Target, dice: Dice) -> Result:
    _expect_step(state, o.seat, "order")
    p = state.played
    assert p is not None
    if p.effect not in ("air-power", "barrage"):
        raise IllegalOrder("This card orders units: 'order HEX…'.", legal=("order HEX…", "order none"))
    why = check_targets(state, o.seat, p.effect, o.hexes)
    if why:
        enemies = tuple(u.where for u in state.units if u.side != o.seat)
        raise IllegalOrder(f"Cannot target that: {why}.", legal=enemies)
    events: list[Event] = [Targeted(o.seat, p.effect, tuple(label(h) for h in o.hexes))]
    if not o.hexes:
        return _end_turn(state, dice, events)
    fight = Fight(kind="air" if p.effect == "air-power" else "barrage", stage="", side=o.seat, queue=o.hexes)
    state = replace(state, fight=fight)
    return _air_next(state, dice, events)


def check_targets(state: MemoirState, seat: str, effect: str, hexes: tuple[Hex, ...]) -> str | None:
    if not hexes:
        return None
    lo, hi = card_kinds()[effect].get("targets")
    if not lo <= len(hexes) <= hi:
        return f"name {lo} to {hi} hexes" if lo != hi else f"name {lo} hex"
    if len(set(hexes)) != len(hexes):
        return "a hex is named twice"
    for h in hexes:
        u = state.by_hex.get(h)
        if u is None or u.side == seat:
            return f"{label(h)} holds no enemy unit"
    # E-6.2: one connected group
    group = set(hexes)
    seen = {hexes[0]}
    todo = [hexes[0]]
    while todo:
        x = todo.pop()
        for n in neighbours(x):
            if n in group and n not in seen:
                seen.add(n)
                todo.append(n)
    if seen != group:
        return "the hexes must form one group of adjacent hexes (E-6.2)"
    return None


# =========================================================================== moving


def allowance(state: MemoirState, unit: Unit, acting: Acting) -> tuple[int, bool]:
    """(hexes, free) for the unit's next move this turn (E-8, E-6 card limits)."""
    p = state.played
    rule = unit.rule
    if p is None or acting.fallback:
        return rule.move, False
    e = p.effect
    if e == "infantry-assault" and unit.type == "infantry":
        return 3, False  # E-6.11
    if e == "artillery-bombard" and unit.type == "artillery":
        return 3, False
    if e == "behind-enemy-lines":
        return 3, True
    return rule.move, False


def moves_allowed(state: MemoirState, acting: Acting) -> int:
    p = state.played
    if p is not None and p.effect == "behind-enemy-lines" and not acting.fallback:
        return 2
    return 1


def _may_move_now(state: MemoirState, acting: Acting) -> bool:
    p = state.played
    if p is not None and not acting.fallback and card_kinds()[p.effect].get("no_move"):
        return False
    if acting.moves >= moves_allowed(state, acting):
        return False
    if state.step == "move":
        return acting.moves == 0
    if state.step == "battle":  # Behind Enemy Lines: the second move, after (or instead of) battling
        return acting.moves < 2 and moves_allowed(state, acting) == 2
    return False


def move_options(state: MemoirState, start: Hex) -> Reach | None:
    """Where the unit on ``start`` may move now (None if it may not move now)."""
    u = state.by_hex.get(start)
    if u is None or state.over or state.fight is not None:
        return None
    a = state.acting_map.get(u.id)
    if a is None or not _may_move_now(state, a):
        return None
    n, free = allowance(state, u, a)
    return paths(state, u, n, free)


def _battle_limit(state: MemoirState, unit: Unit, acting: Acting) -> int:
    """E-9.5: how far the unit may have moved and still battle."""
    p = state.played
    card = None if p is None or acting.fallback else p.effect
    if unit.type == "infantry":
        if card == "infantry-assault":
            return 2
        if card == "behind-enemy-lines":
            return 3
    return unit.rule.move_and_battle


def _leave(state: MemoirState, unit: Unit, events: list[Event], why: str) -> MemoirState:
    """E-14.8: a unit leaving a sandbag hex takes the sandbag away."""
    ob = state.obstacle(unit.hex)
    if ob is not None and ob.removed_on_leave:
        state = set_obstacle(state, unit.hex, None)
        events.append(ObstacleChanged(unit.where, ob.name, False, why))
    return state


def _enter(state: MemoirState, unit: Unit, h: Hex, events: list[Event]) -> MemoirState:
    """Arriving on ``h``: armor removes wire (E-18)."""
    ob = state.obstacle(h)
    if ob is not None and unit.type in ob.removed_by:
        state = set_obstacle(state, h, None)
        events.append(ObstacleChanged(label(h), ob.name, False, f"{unit.type} entered"))
    return state


def _relocate(state: MemoirState, unit: Unit, h: Hex, events: list[Event], why: str,
              enter: bool = True) -> MemoirState:
    """Put the unit on ``h``: the hex it leaves loses its sandbags; arriving by a move or
    Take Ground triggers the new hex (``enter``), a retreat does not (E-14.3)."""
    state = _leave(state, unit, events, why)
    state = replace_unit(state, unit.id, lambda x: replace(x, hex=h))
    return _enter(state, unit, h, events) if enter else state


def _move(state: MemoirState, o: Move, dice: Dice) -> Result:
    if state.over:
        raise IllegalOrder("The game is over.")
    _expect_step(state, o.seat, "move", "battle")
    u, a = _ordered_unit(state, o.seat, o.start)
    if not _may_move_now(state, a):
        if state.step == "battle":
            raise IllegalOrder("The movement step is over (E-4.6).", legal=("battle FROM TARGET", "done"))
        raise IllegalOrder(f"The unit on {u.where} may not move now.")
    n, free = allowance(state, u, a)
    path = o.path[1:]
    why = check_path(state, u, path, n, free)
    if why:
        reach = paths(state, u, n, free)
        raise IllegalOrder(f"Cannot move {u.where} that way: {why}.",
                           legal=tuple(label(h) for h in sorted(reach.paths, key=hex_key)))
    before = shown_medals(state)
    events: list[Event] = [Moved(u.id, tuple(label(h) for h in o.path))]
    state = _relocate(state, u, o.end, events, "its unit left")
    entered_no_battle = not u.rule.battle_on_entry and any(state.terrain(h).no_battle_on_entry and not (
        state.obstacle(h) is not None and state.obstacle(h).battle_on_entry) for h in path)  # type: ignore[union-attr]
    second = state.step == "battle"  # Behind Enemy Lines: the move after battling; no battle after it
    no_battle = a.no_battle or entered_no_battle or second
    moved = a.moved if second else len(path)
    if not second:
        if u.type == "artillery" or moved > _battle_limit(state, u, a):
            no_battle = True
    state = set_acting(state, u.id, moves=2 if second else a.moves + 1, moved=moved, no_battle=no_battle,
                       stopped=a.stopped or ends_move(state, o.end))
    state, events = _with_victory(state, events, o.seat, before)
    if state.over:
        return state, events
    return _auto_close(state, dice, events)


def _acting_units(state: MemoirState) -> list[Unit]:
    return [u for a in state.acting if (u := state.by_id.get(a.unit)) is not None]


def _ordered_unit(state: MemoirState, seat: str, h: Hex) -> tuple[Unit, Acting]:
    """The seat's unit on ``h`` and what it was ordered to do this turn (E-4.3)."""
    u = state.by_hex.get(h)
    if u is None or u.side != seat:
        raise IllegalOrder(f"You have no unit on {label(h)}.")
    a = state.acting_map.get(u.id)
    if a is None:
        raise IllegalOrder(f"The unit on {u.where} was not ordered this turn (E-4.3).",
                           legal=tuple(x.where for x in _acting_units(state)))
    return u, a


# =========================================================================== battling


def battles_allowed(state: MemoirState, unit: Unit, acting: Acting) -> int:
    p = state.played
    if p is not None and p.effect == "artillery-bombard" and unit.type == "artillery" and not acting.fallback:
        return 2  # E-6.7
    return 1


def battle_targets(state: MemoirState, unit: Unit, overrun: bool = False) -> list[tuple[Unit, int]]:
    """The legal targets of an ordered unit now, with their dice (E-10)."""
    a = state.acting_map.get(unit.id)
    if a is None:
        return []
    if overrun:
        if state.terrain(unit.hex).no_battle_from:
            return []
    elif not combat.may_battle(state, unit, a, battles_allowed(state, unit, a)):
        return []
    if not overrun and a.moves >= 2:
        return []
    p = state.played

    def bonus(t: Unit, d: int) -> int:
        return combat.card_bonus(p, a, unit, d, overrun)

    return combat.targets(state, unit, bonus)


def may_clear_wire(state: MemoirState, unit: Unit) -> bool:
    """E-18: ordered infantry in wire may remove it instead of battling."""
    a = state.acting_map.get(unit.id)
    ob = state.obstacle(unit.hex)
    if a is None or ob is None or unit.type not in ob.clearable_by:
        return False
    return combat.may_battle(state, unit, a, battles_allowed(state, unit, a)) and a.moves < 2


def _clear_wire(state: MemoirState, o: ClearWire, dice: Dice) -> Result:
    _expect_step(state, o.seat, "battle")
    u = state.by_hex.get(o.hex)
    if u is None or u.side != o.seat or not may_clear_wire(state, u):
        raise IllegalOrder(f"No ordered infantry that may still battle stands in wire on {label(o.hex)}.",
                           legal=tuple(f"clear-wire {x.where}" for x in _acting_units(state)
                                       if may_clear_wire(state, x)))
    a = state.acting_map[u.id]
    state = set_acting(state, u.id, battles=a.battles + 1)
    state = set_obstacle(state, o.hex, None)
    events: list[Event] = [ObstacleChanged(u.where, "wire", False, "cleared instead of battling")]
    return _auto_close(state, dice, events)


def _battle(state: MemoirState, o: Battle, dice: Dice) -> Result:
    f = state.fight
    overrun = f is not None and f.stage == "overrun"
    if overrun:
        assert f is not None
        if o.seat != state.active:
            raise NotYourTurn(f"Not your turn: the {state.active} are playing.")
        attacker_unit = state.unit(f.attacker or "")
        if attacker_unit is None or o.attacker != attacker_unit.hex:
            raise IllegalOrder("Only the armor that took ground may Overrun now (E-16).",
                               legal=tuple(f"battle {attacker_unit.where} {t.where}"
                                           for t, _ in battle_targets(state, attacker_unit, overrun=True))
                               if attacker_unit else ())
    else:
        _expect_step(state, o.seat, "battle")
    u, a = _ordered_unit(state, o.seat, o.attacker)
    options = battle_targets(state, u, overrun)
    match = [(t, n) for t, n in options if t.hex == o.target]
    if not match:
        if not options:
            raise IllegalOrder(f"The unit on {u.where} cannot battle now (E-10.2, E-10.4).")
        raise IllegalOrder(f"The unit on {u.where} cannot battle {label(o.target)} (range, sight, dice, or an "
                           "adjacent enemy it must fight first, E-10.3/E-10.4).",
                           legal=tuple(f"battle {u.where} {t.where}" for t, _ in options))
    target, n = match[0]
    if overrun:
        state = set_acting(state, u.id, overrun=True)
    else:
        state = set_acting(state, u.id, battles=a.battles + 1)
    close = u.hex.distance(target.hex) == 1
    events: list[Event] = [BattleDeclared(u.where, target.where, n, close, overrun)]
    fight = Fight(kind="battle", stage="", side=o.seat, attacker=u.id, target=target.id, target_hex=target.hex,
                  from_hex=u.hex, close=close, overrun=overrun)
    state = replace(state, fight=fight)
    if close and ambush_window(state, target, u):
        standing = state.standing[seat_index(target.side)]
        if standing == "ask":
            return replace(state, fight=replace(fight, stage="ambush")), events
        if standing == "ambush" and _find_card(state, target.side, AMBUSH) is not None:
            return _ambush(state, dice, events)
    return _attack_roll(state, dice, events)


def ambush_window(state: MemoirState, defender: Unit, attacker: Unit) -> bool:
    """E-6.4, E-19.3: the window opens on a close assault the defender could answer
    (its own dice ≥ 1, not from the ocean) while Ambush is not in the discard pile."""
    if any(kind_of(c) == AMBUSH for c in state.discard):
        return False
    return combat.ambush_dice(state, defender, attacker) >= 1


def _ambush(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    f = state.fight
    assert f is not None
    attacker = state.unit(f.attacker or "")
    defender = state.unit(f.target or "")
    assert attacker is not None and defender is not None
    seat = defender.side
    card = _find_card(state, seat, AMBUSH)
    assert card is not None
    hand = list(state.hand(seat))
    hand.remove(card)
    state = with_hand(state, seat, tuple(hand))
    state = replace(state, discard=state.discard + (card,), ambusher=seat, fight=replace(f, ambushed=True))
    events.append(AmbushAnswered(seat, True))
    events.append(CardPlayed(seat, AMBUSH, AMBUSH, (), False))
    n = combat.ambush_dice(state, defender, attacker)
    return _roll_on(state, dice, events, roller_side=seat, attacker=defender, target=attacker, n=n,
                    why="ambush", stars_hit=False, ignorable=True, after="ambush-done")


def _roll_on(state: MemoirState, dice: Dice, events: list[Event], *, roller_side: str, attacker: Unit | None,
             target: Unit, n: int, why: str, stars_hit: bool, ignorable: bool, after: str) -> Result:
    """Roll ``n`` battle dice against ``target`` and resolve hits, then flags (E-13)."""
    rolled = combat.faces(dice.roll_many(n, 6))
    hits, flags = combat.count_hits(rolled, target, stars_hit)
    events.append(Rolled(roller_side, why, attacker.where if attacker else None, target.where, rolled, hits, flags))
    before = shown_medals(state)
    if hits:
        state, dead = _lose(state, target, hits, roller_side, events, "hits")
        state, events = _with_victory(state, events, roller_side, before)
        if state.over:
            return state, events
        if dead:
            return _continue(state, dice, events, after)
    if flags:
        return _flags(state, dice, events, target.id, flags, ignorable, after)
    return _continue(state, dice, events, after)


def _lose(state: MemoirState, unit: Unit, n: int, to_side: str, events: list[Event], why: str
          ) -> tuple[MemoirState, bool]:
    """Remove ``n`` figures; an eliminated unit gives ``to_side`` a medal (E-13.3)."""
    u = state.unit(unit.id)
    assert u is not None
    left = u.figures - n
    events.append(FiguresLost(u.id, u.where, min(n, u.figures), max(left, 0), why))
    if left > 0:
        return replace_unit(state, u.id, lambda x: replace(x, figures=left)), False
    state = _leave(state, u, events, "its unit was eliminated")
    state = replace_unit(state, u.id, lambda x: None)
    state = replace(state, kills=with_pair(state.kills, to_side, state.kills[seat_index(to_side)] + 1),
                    acting=tuple(a for a in state.acting if a.unit != u.id))
    events.append(Eliminated(u.id, u.where, to_side))
    return state, True


def _flags(state: MemoirState, dice: Dice, events: list[Event], unit_id: str, flags: int, ignorable: bool,
           after: str) -> Result:
    """E-14: flags on a unit: first the flags it may ignore (a decision of its owner), then
    the retreat path (a decision when there is a choice)."""
    u = state.unit(unit_id)
    assert u is not None and state.fight is not None
    ign = min(flags, combat.ignorable_flags(state, u)) if ignorable else 0
    f = replace(state.fight, retreater=unit_id, flags=flags, ignorable=ign, after=after)
    state = replace(state, fight=f)
    if ign > 0:
        return replace(state, fight=replace(f, stage="ignore")), events
    return _retreat_or_ask(state, dice, events)


def _retreat_or_ask(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    f = state.fight
    assert f is not None
    u = state.unit(f.retreater or "")
    assert u is not None
    ends = retreat_ends(state, u, f.flags)
    if len(ends) == 1:
        (h, lost), = ends.items()
        return _do_retreat(state, dice, events, h, lost)
    return replace(state, fight=replace(f, stage="retreat")), events


def _do_retreat(state: MemoirState, dice: Dice, events: list[Event], h: Hex, lost: int) -> Result:
    f = state.fight
    assert f is not None
    u = state.unit(f.retreater or "")
    assert u is not None
    before = shown_medals(state)
    if h != u.hex:
        path = _retreat_path(state, u, h)
        events.append(Retreated(u.id, tuple(label(x) for x in (u.hex, *path)), lost))
        state = _relocate(state, u, h, events, "its unit retreated", enter=False)
    elif lost:
        events.append(Retreated(u.id, (u.where,), lost))
    if lost:
        moved = state.unit(u.id)
        assert moved is not None
        state, _ = _lose(state, moved, lost, other(u.side), events, "retreat")
    state = replace(state, fight=replace(f, stage="", retreater=None, flags=0, ignorable=0))
    state, events = _with_victory(state, events, other(u.side), before)
    if state.over:
        return state, events
    return _continue(state, dice, events, f.after)


def _retreat_path(state: MemoirState, u: Unit, end: Hex) -> tuple[Hex, ...]:
    """A path of backward steps from the unit to ``end`` (for the narration)."""
    from engine.memoir.board import backward
    from engine.memoir.movement import retreat_blocked

    def walk(h: Hex) -> tuple[Hex, ...] | None:
        if h == end:
            return ()
        for b in sorted(backward(h, u.side, state.top), key=hex_key):
            if not retreat_blocked(state, u, b):
                rest = walk(b)
                if rest is not None:
                    return (b, *rest)
        return None

    return walk(u.hex) or (end,)


def _continue(state: MemoirState, dice: Dice, events: list[Event], after: str) -> Result:
    if after == "ambush-done":
        return _after_ambush(state, dice, events)
    if after == "attack-done":
        return _after_attack(state, dice, events)
    if after == "air-next":
        return _air_next(state, dice, events)
    raise AssertionError(after)


def _after_ambush(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    f = state.fight
    assert f is not None
    attacker = state.unit(f.attacker or "")
    target = state.unit(f.target or "")
    if attacker is None:
        events.append(BattleCancelled(f.attacker or "", "the ambushed attacker was eliminated (E-6.4)"))
        return _end_fight(state, dice, events)
    if target is None or attacker.hex != f.from_hex:
        events.append(BattleCancelled(attacker.id, "the ambushed attacker was driven back (E-6.4)"))
        return _end_fight(state, dice, events)
    # it stayed on its hex (flags ignored or no step possible): it battles normally
    return _attack_roll(state, dice, events)


def _attack_roll(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    f = state.fight
    assert f is not None
    attacker = state.unit(f.attacker or "")
    target = state.unit(f.target or "")
    assert attacker is not None and target is not None
    a = state.acting_map.get(attacker.id)
    n = combat.base_dice(state, attacker, target) + combat.card_bonus(
        state.played, a, attacker, attacker.hex.distance(target.hex), f.overrun)
    if n < 1:
        events.append(BattleCancelled(attacker.id, "no battle dice left"))
        return _end_fight(state, dice, events)
    return _roll_on(state, dice, events, roller_side=attacker.side, attacker=attacker, target=target, n=n,
                    why="overrun" if f.overrun else "battle", stars_hit=False, ignorable=True, after="attack-done")


def _after_attack(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    """E-15: Take Ground after a successful close assault."""
    f = state.fight
    assert f is not None
    if take_ground_possible(state):
        return replace(state, fight=replace(f, stage="take-ground")), events
    return _end_fight(state, dice, events)


def take_ground_possible(state: MemoirState) -> bool:
    f = state.fight
    if f is None or f.kind != "battle" or not f.close or f.target_hex is None:
        return False
    attacker = state.unit(f.attacker or "")
    if attacker is None or not attacker.rule.take_ground or attacker.hex.distance(f.target_hex) != 1:
        return False
    if f.target_hex in state.by_hex:
        return False
    a = state.acting_map.get(attacker.id)
    if a is None or a.stopped:
        return False  # E-15.2
    if not can_enter(state, attacker, f.target_hex):
        return False
    if state.terrain(f.target_hex).first_hex_only and (a.moved > 0 or a.took_ground):
        return False  # E-15.3: hedgerow only if it has not moved earlier this turn
    return True


def _take_ground(state: MemoirState, o: TakeGround, dice: Dice) -> Result:
    f = state.fight
    if f is None or f.stage != "take-ground" or o.seat != f.side:
        raise IllegalOrder("There is no ground to take now.")
    attacker = state.unit(f.attacker or "")
    assert attacker is not None and f.target_hex is not None
    before = shown_medals(state)
    events: list[Event] = [TookGround(attacker.id, attacker.where, label(f.target_hex))]
    state = _relocate(state, attacker, f.target_hex, events, "its unit took ground")
    a = state.acting_map[attacker.id]
    dest = f.target_hex
    blocked = not attacker.rule.battle_on_entry and state.terrain(dest).no_battle_on_entry and not (
        state.obstacle(dest) is not None and state.obstacle(dest).battle_on_entry)  # type: ignore[union-attr]
    state = set_acting(state, attacker.id, took_ground=True, stopped=a.stopped or ends_move(state, dest),
                       no_battle=a.no_battle or blocked)
    state, events = _with_victory(state, events, o.seat, before)
    if state.over:
        return state, events
    moved = state.unit(attacker.id)
    assert moved is not None
    a = state.acting_map[attacker.id]
    # E-16: armor may Overrun once per turn, not after entering a forest, town or hedgerow
    if moved.rule.overrun and not a.overrun and not f.overrun and not blocked \
            and battle_targets(state, moved, overrun=True):
        return replace(state, fight=replace(f, stage="overrun")), events
    return _end_fight(state, dice, events)


def _hold(state: MemoirState, o: Hold, dice: Dice) -> Result:
    f = state.fight
    if f is None or f.stage not in ("take-ground", "overrun") or o.seat != f.side:
        raise IllegalOrder("Nothing to decline now ('hold' answers Take Ground or Overrun).")
    return _end_fight(state, dice, [])


def _end_fight(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    f = state.fight
    state = replace(state, fight=None)
    if f is not None and f.kind in ("air", "barrage"):
        return _end_turn(state, dice, events)
    return _auto_close(state, dice, events)


def _air_next(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    """E-6 Air Power / Barrage: resolve the named hexes one at a time (E-6.2)."""
    f = state.fight
    assert f is not None
    while f.queue:
        h, rest = f.queue[0], f.queue[1:]
        f = replace(f, queue=rest)
        state = replace(state, fight=f)
        target = state.by_hex.get(h)
        if target is None or target.side == f.side:
            continue
        if f.kind == "air":
            n = card_kinds()["air-power"].get("dice_per_hex")[f.side]
            return _roll_on(state, dice, events, roller_side=f.side, attacker=None, target=target, n=n,
                            why="air-power", stars_hit=True, ignorable=False, after="air-next")
        n = card_kinds()["barrage"].get("dice")
        return _roll_on(state, dice, events, roller_side=f.side, attacker=None, target=target, n=n,
                        why="barrage", stars_hit=False, ignorable=False, after="air-next")
    return _end_fight(state, dice, events)


# --------------------------------------------------------------------------- reactions


def _fight_owner(state: MemoirState) -> str | None:
    f = state.fight
    if f is None:
        return None
    if f.stage == "ambush":
        t = state.unit(f.target or "")
        return t.side if t else None
    if f.stage in ("ignore", "retreat"):
        u = state.unit(f.retreater or "")
        return u.side if u else None
    if f.stage in ("take-ground", "overrun"):
        return f.side
    return None


def _answer_ambush(state: MemoirState, o: Ambush | Pass, dice: Dice) -> Result:
    f = state.fight
    if f is None or f.stage != "ambush":
        raise IllegalOrder("There is no Ambush window open.")
    if o.seat != _fight_owner(state):
        raise NotYourTurn("The Ambush window is the defender's decision.")
    if isinstance(o, Pass):
        state = replace(state, fight=replace(f, stage=""))
        return _attack_roll(state, dice, [AmbushAnswered(o.seat, False)])
    if _find_card(state, o.seat, AMBUSH) is None:
        raise IllegalOrder("You do not hold the Ambush card.", legal=("pass",))
    return _ambush(replace(state, fight=replace(f, stage="")), dice, [])


def _ignore(state: MemoirState, o: Ignore, dice: Dice) -> Result:
    f = state.fight
    if f is None or f.stage != "ignore":
        raise IllegalOrder("No flags to ignore now.")
    if o.seat != _fight_owner(state):
        raise NotYourTurn("Ignoring flags is the decision of the retreating unit's owner.")
    if not 0 <= o.count <= f.ignorable:
        raise IllegalOrder(f"You may ignore 0 to {f.ignorable} flag(s).",
                           legal=tuple(f"ignore {i}" for i in range(f.ignorable, -1, -1)))
    events: list[Event] = []
    u = state.unit(f.retreater or "")
    assert u is not None
    if o.count:
        events.append(FlagsIgnored(u.id, u.where, o.count))
    state = replace(state, fight=replace(f, stage="", flags=f.flags - o.count, ignorable=0))
    if f.flags - o.count == 0:
        state = replace(state, fight=replace(f, stage="", flags=0, ignorable=0, retreater=None))
        return _continue(state, dice, events, f.after)
    return _retreat_or_ask(state, dice, events)


def retreat_options(state: MemoirState) -> dict[Hex, int]:
    f = state.fight
    if f is None or f.stage != "retreat":
        return {}
    u = state.unit(f.retreater or "")
    return {} if u is None else retreat_ends(state, u, f.flags)


def default_retreat(options: dict[Hex, int]) -> Hex:
    """E-19.4: the fewest figures lost, ties broken by the lowest hex name."""
    return min(options, key=lambda h: (options[h], label(h)))


def _retreat(state: MemoirState, o: Retreat, dice: Dice) -> Result:
    f = state.fight
    if f is None or f.stage != "retreat":
        raise IllegalOrder("No retreat to choose now.")
    if o.seat != _fight_owner(state):
        raise NotYourTurn("The retreat path is the decision of the retreating unit's owner.")
    options = retreat_options(state)
    if o.hex not in options:
        raise IllegalOrder(f"The retreat cannot end on {label(o.hex)}.",
                           legal=tuple(f"retreat {label(h)}" for h in sorted(options, key=label)))
    return _do_retreat(replace(state, fight=replace(f, stage="")), dice, [], o.hex, options[o.hex])


# =========================================================================== steps and the end of the turn


def _can_act_in_step(state: MemoirState) -> bool:
    for u in _acting_units(state):
        a = state.acting_map[u.id]
        if state.step == "move":
            if _may_move_now(state, a):
                n, free = allowance(state, u, a)
                if paths(state, u, n, free).paths:
                    return True
        elif state.step == "battle":
            if battle_targets(state, u) or may_clear_wire(state, u):
                return True
            if _may_move_now(state, a):
                n, free = allowance(state, u, a)
                if paths(state, u, n, free).paths:
                    return True
    return False


def _auto_close(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    """E-4.8: a step closes by itself when no ordered unit can still act in it."""
    while not state.over and state.fight is None and state.step in ("move", "battle"):
        if _can_act_in_step(state):
            return state, events
        state, events = _close_step(state, dice, events)
    return state, events


def _close_step(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    events.append(StepClosed(state.active, state.step))
    if state.step == "move":
        return replace(state, step="battle"), events
    return _end_turn(state, dice, events)


def _done(state: MemoirState, o: Done, dice: Dice) -> Result:
    _expect_step(state, o.seat, "move", "battle")
    state, events = _close_step(state, dice, [])
    return _auto_close(state, dice, events)


def _end_turn(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    """E-4.2 step 5, E-7: discard the card played, Their Finest Hour's reshuffle, the
    Ambush player's replacement first, then the active player's draw (Recon: draw 2)."""
    seat = state.active
    p = state.played
    assert p is not None
    state = replace(state, discard=state.discard + (p.card,), fight=None, acting=(), step="draw")
    if p.effect == "their-finest-hour":
        pool = state.deck + state.discard
        state = replace(state, deck=shuffled(dice, pool), discard=())
        events.append(DeckShuffled(len(pool), "Their Finest Hour"))
    if state.ambusher is not None:
        state = _draw(state, state.ambusher, 1, dice, events)
    if p.effect and card_kinds()[p.effect].get("draw"):
        state = _draw(state, seat, 2, dice, events, into_drawn=True)
        if len(state.drawn) == 2:
            return replace(state, step="recon"), events
        keep = state.drawn
        state = with_hand(replace(state, drawn=()), seat, state.hand(seat) + keep)
    else:
        state = _draw(state, seat, 1, dice, events)
    return _next_turn(state, dice, events)


def _extra_draws(state: MemoirState, seat: str) -> int:
    done = state.turns_done[seat_index(seat)]
    return sum(e.cards for e in state.scenario.extra_draws if e.side == seat and done < e.turns)


def _next_turn(state: MemoirState, dice: Dice, events: list[Event]) -> Result:
    seat = state.active
    extra = _extra_draws(state, seat)
    if extra:
        state = _draw(state, seat, extra, dice, events)
    i = seat_index(seat)
    last = (state.played, state.last[1]) if i == 0 else (state.last[0], state.played)
    done = with_pair(state.turns_done, seat, state.turns_done[i] + 1)
    events.append(TurnEnded(seat, state.turn))
    state = replace(state, last=last, turns_done=done, active=other(seat), step="play", turn=state.turn + 1,
                    played=None, acting=(), fight=None, drawn=(), ambusher=None)
    return state, events


def _discard(state: MemoirState, o: Discard, dice: Dice) -> Result:
    if state.over:
        raise IllegalOrder("The game is over.")
    if state.step != "recon" or o.seat != state.active:
        raise IllegalOrder("There is no Recon draw to choose from.")
    if o.index not in (1, 2):
        raise IllegalOrder("Discard the first or the second card drawn.", legal=("discard 1", "discard 2"))
    drop = state.drawn[o.index - 1]
    keep = state.drawn[2 - o.index]
    state = with_hand(state, o.seat, state.hand(o.seat) + (keep,))
    state = replace(state, discard=state.discard + (drop,), drawn=())
    events: list[Event] = [CardDiscarded(o.seat, kind_of(drop), "Recon: draw 2, keep 1 (E-7.3)")]
    return _next_turn(state, dice, events)


# =========================================================================== meta orders


def _standing(state: MemoirState, o: Standing, dice: Dice) -> Result:
    if state.over:
        raise IllegalOrder("The game is over.")
    i = seat_index(o.seat)
    standing = (o.setting, state.standing[1]) if i == 0 else (state.standing[0], o.setting)
    return replace(state, standing=standing), [StandingSet(o.seat, o.setting, private_to=o.seat)]


def _concede(state: MemoirState, o: Concede, dice: Dice) -> Result:
    if state.over:
        raise IllegalOrder("The game is over.")
    state, events = _finish(state, other(o.seat), f"the {o.seat} conceded")
    return state, [Conceded(o.seat), *events]


def waiting_seat(state: MemoirState) -> str | None:
    if state.over:
        return None
    owner = _fight_owner(state)
    return owner if owner is not None else state.active


def default_answer(state: MemoirState) -> Order:
    """E-19.4 and our timeout defaults: what 'timeout done' does for whoever is waited for."""
    seat = waiting_seat(state)
    assert seat is not None
    f = state.fight
    if f is not None:
        if f.stage == "ambush":
            return Pass(seat)
        if f.stage == "ignore":
            return Ignore(seat, f.ignorable)
        if f.stage == "retreat":
            return Retreat(seat, default_retreat(retreat_options(state)))
        return Hold(seat)
    if state.step == "play":
        return Play(seat, *_default_card(state, seat))
    if state.step == "order":
        p = state.played
        assert p is not None
        return Target(seat, ()) if p.effect in ("air-power", "barrage") else OrderUnits(seat, ())
    if state.step == "recon":
        return Discard(seat, 2)
    return Done(seat)


def _default_card(state: MemoirState, seat: str) -> tuple[str, str | None]:
    """A timed-out player plays its first playable card (in deck order) and orders nothing."""
    order = {c: i for i, c in enumerate(full_deck())}
    for card in sorted(state.hand(seat), key=lambda c: order[c]):
        kind = kind_of(card)
        section = "centre" if card_kinds()[kind].get("choose_section") else None
        try:
            playable_effect(state, seat, kind, section)
        except IllegalOrder:
            continue
        return kind, section
    raise IllegalOrder("No card can be played.")  # only Ambush in hand: cannot happen with hands of 2+


def _timeout(state: MemoirState, o: Timeout, dice: Dice) -> Result:
    seat = waiting_seat(state)
    if seat is None:
        raise IllegalOrder("Nobody is being waited for.")
    events: list[Event] = [TimedOut(seat, o.policy)]
    if o.policy == "forfeit":
        state, more = _finish(state, other(seat), f"the {seat} did not answer in time")
        return state, events + more
    answer = default_answer(state)
    state, more = apply(state, answer, dice)
    events += more
    if isinstance(answer, Play) and not state.over and state.step == "order" and state.active == seat:
        state, more = apply(state, default_answer(state), dice)
        events += more
    return state, events


# =========================================================================== dispatch


_HANDLERS: dict[type, Callable[[MemoirState, Any, Dice], Result]] = {
    Play: _play, OrderUnits: _order, Target: _target, Move: _move, Battle: _battle, ClearWire: _clear_wire,
    Done: _done, Ambush: _answer_ambush, Pass: _answer_ambush, Ignore: _ignore, Retreat: _retreat,
    TakeGround: _take_ground, Hold: _hold, Discard: _discard, Standing: _standing, Concede: _concede,
    Timeout: _timeout,
}


def apply(state: MemoirState, order: Order, dice: Dice) -> tuple[MemoirState, list[Event]]:
    if order.seat not in ALL_SEATS:
        raise IllegalOrder(f"'{order.seat}' is not a seat.", legal=ALL_SEATS)
    if isinstance(order, Timeout) != (order.seat == SYSTEM):
        raise IllegalOrder("Only the system seat issues timeouts, and it issues nothing else.")
    if state.over:
        raise IllegalOrder(f"The game is over: {state.outcome.reason if state.outcome else ''}.")
    handler = _HANDLERS.get(type(order))
    if handler is None:
        raise IllegalOrder(f"Unknown order {order!r}.")
    return handler(state, order, dice)


def _fight_text(state: MemoirState) -> str:
    f = state.fight
    assert f is not None
    what = {"ambush": "the Ambush window", "ignore": "how many flags to ignore", "retreat": "where to retreat",
            "take-ground": "Take Ground", "overrun": "the Overrun"}.get(f.stage, f.stage)
    return f"the {_fight_owner(state)} must answer first ({what})"
