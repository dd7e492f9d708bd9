"""Conduct combat (A-10): raids, rockets, amphibious assaults and battles.

A battle runs as far as it can with the injected dice and stops where a player must
decide: the side taking hits chooses its casualties (A-10.14), submarines may submerge
(A-10.6), the attacker may retreat after a round (A-10.9, A-10.15).  A decision with
only one possible answer is taken at once, and so is every casualty choice of a power
that asked for automatic casualties.

One source of truth for combat values: every value, die count and flag comes from the
odds calculator's unit profiles (:mod:`engine.odds.aa_units`), with the power's
breakthroughs applied.  The round is the calculator's: submarine surprise strikes first
(both sides from the state at the start of the round), then general fire of both sides
from what is left, then the end-of-round rules (a side gone, defenceless transports,
retreat).  ``tests/aa/test_odds_agreement.py`` plays every dice outcome of small battles
and checks the probabilities against :func:`engine.odds.aa.aa_odds`.
"""

from __future__ import annotations

from dataclasses import replace
from collections import Counter
from typing import Callable, Iterable, Mapping, Sequence

from engine.aa.control import capture
from engine.aa.events import (
    BattleEnded, BattleStarted, Bombed, Lost, Retreated, RocketFired, Rolled, Submerged,
)
from engine.aa.movement import describe
from engine.aa.orders import Casualties, Continue, Fight, Retreat, Rocket, Submerge
from engine.aa.state import (
    COMBAT, POWERS, AAState, Battle, Hits, Site, Unit, enemies, with_units,
)
from engine.aa.units import (
    AA_GUN, BATTLESHIP, BOMBER, CARRIER, DESTROYER, FIGHTER, INFANTRY, KINDS, SHORT, SUBMARINE,
    SURFACE_WARSHIPS, TRANSPORT, format_counts, kind_counts, profiles,
)
from engine.core.dice import Dice
from engine.core.errors import IllegalOrder, NotYourTurn
from engine.core.events import Event
from engine.odds.aa_casualties import CAT_AIR, CAT_OTHER, CAT_SUB, earliest
from engine.odds.aa_units import UnitProfile

Result = tuple[AAState, list[Event]]
ATT, DEF = "attacker", "defender"


# --------------------------------------------------------------------------- who fights


def prof(state: AAState, u: Unit) -> UnitProfile:
    return profiles(state.tech(u.owner))[u.kind]


def attackers(state: AAState, b: Battle) -> list[Unit]:
    here = state.units_at(b.where)
    if b.kind == "land":
        return [u for u in here if u.owner == b.attacker and u.aboard is None and (u.is_land or u.is_air)
                and u.kind != AA_GUN and u.mission not in ("bomb", "retreated")]
    return [u for u in here if u.owner == b.attacker and (u.is_sea or u.is_air) and not u.submerged
            and u.mission != "retreated"]


def defenders(state: AAState, b: Battle) -> list[Unit]:
    """Every defending unit still in the battle (its casualty zone included)."""
    here = state.units_at(b.where)
    if b.kind == "land":
        return [u for u in here if enemies(u.owner, b.attacker) and u.aboard is None and u.kind != AA_GUN
                and not u.is_sea]
    return [u for u in here if enemies(u.owner, b.attacker) and (u.is_sea or u.is_air) and not u.submerged
            and u.id not in b.aside]


def side_units(state: AAState, b: Battle, side: str) -> list[Unit]:
    return attackers(state, b) if side == ATT else defenders(state, b)


def targets(state: AAState, b: Battle, side: str) -> list[Unit]:
    """Units of ``side`` that may still be chosen as casualties."""
    units = side_units(state, b, side)
    return [u for u in units if u.id not in b.zone] if side == DEF else units


def category(u: Unit) -> int:
    if u.kind == SUBMARINE:
        return CAT_SUB
    if u.is_air:
        return CAT_AIR
    return CAT_OTHER


def decider(state: AAState, b: Battle, side: str) -> str:
    """Who chooses for a side (A-10.13 ruling): the attacker; for the defence the
    territory's controller, at sea the defending power with the most unit cost there."""
    if side == ATT:
        return b.attacker
    if b.kind == "land":
        ctrl = state.control.get(b.where)
        if ctrl is not None:
            return ctrl
    cost: dict[str, int] = {}
    for u in defenders(state, b) or [u for u in state.units_at(b.where) if enemies(u.owner, b.attacker)]:
        cost[u.owner] = cost.get(u.owner, 0) + prof(state, u).cost
    if not cost:
        return next(p for p in POWERS if enemies(p, b.attacker))
    return min(cost, key=lambda p: (-cost[p], POWERS.index(p)))


# --------------------------------------------------------------------------- hits and casualties


def max_absorbed(pools: Sequence[int], hits: Sequence[int]) -> int:
    """Most hits that can be taken from hit points by category (subs, air, other) by hits
    by class (submarine fire, aircraft fire without a destroyer, unrestricted)."""
    s, a, f = pools
    hs, ha, hy = hits
    xs, xa = min(hs, s + f), min(ha, a + f)
    restricted = min(xs, s) + min(xa, a) + min(f, max(0, xs - s) + max(0, xa - a))
    return restricted + min(hy, s + a + f - restricted)


def hp(u: Unit) -> int:
    return (2 - u.damage) if u.kind == BATTLESHIP else 1


def loss_order(state: AAState, power: str, role: str, kinds: Iterable[str]) -> list[str]:
    """The type order of loss (A-10.14): the power's own list first, then cheapest first
    (ties: lower value in the role), transports always last; AA guns never."""
    have = set(kinds)
    present = [k for k in KINDS if k in have and k not in (AA_GUN, "factory")]
    prof_map = profiles(state.tech(power))
    preferred = state.setting(power).attack_order if role == "attack" else state.setting(power).defense_order
    rest = sorted((k for k in present if k not in preferred),
                  key=lambda k: (prof_map[k].cost, prof_map[k].value(role), KINDS.index(k)))
    order = [k for k in preferred if k in present] + rest
    return [k for k in order if k != TRANSPORT] + [k for k in order if k == TRANSPORT]


def _pools(units: Iterable[Unit]) -> list[int]:
    pools = [0, 0, 0]
    for u in units:
        pools[category(u)] += hp(u)
    return pools


def came_overland(state: AAState, u: Unit) -> bool:
    """Whether ``u`` entered its battle over land (its land units may retreat, A-10.3),
    not from the sea."""
    return bool(u.came_from) and state.board.is_land(u.came_from or "")


def _prefer(state: AAState, who: str) -> Callable[[Unit], tuple[int, int, bool, bool, bool, int]]:
    """Which unit of a type takes a hit first.  In a land battle of a game with the
    landing rules of 2026-12-04 (``landing_retreat``), the attacker's units landed from
    the sea go before those of their type that came over land, which may still retreat
    (A-10.3; the odds calculator assumes the same)."""
    b = state.battle
    attacker = b.attacker if state.options.landing_retreat and b is not None and b.kind == "land" else None

    def key(u: Unit) -> tuple[int, int, bool, bool, bool, int]:
        overland = u.owner == attacker and came_overland(state, u)
        return (-u.damage, len(state.transport_load(u.id)) if u.kind == TRANSPORT else 0,
                u.mission == "para", u.owner != who, overland, u.id)
    return key


def default_choice(state: AAState, b: Battle, h: Hits) -> list[Unit]:
    """The default casualties (A-10.14), one entry per hit (a battleship may appear twice):
    intact battleships absorb first, then the order of loss, the attacker of a land
    battle keeping its last land unit.  As many hits are taken as can be; in games with
    the ``earliest`` casualty rule, the earliest units of that order the hits allow are
    lost (:func:`engine.odds.aa_casualties.earliest`, as the calculator does); in older
    games (``by-class``) each hit takes the first unit it legally can while every other
    hit can still be taken (submarine hits first, then aircraft hits)."""
    side = h.side
    units = targets(state, b, side)
    who = decider(state, b, side)
    role = "attack" if side == ATT else "defense"
    order = loss_order(state, b.attacker if side == ATT else who, role, (u.kind for u in units))
    by_kind: dict[str, list[Unit]] = {}
    for u in sorted(units, key=_prefer(state, who)):
        by_kind.setdefault(u.kind, []).append(u)
    steps: list[tuple[int, str]] = []  # (category, kind)
    for k in order:
        if k == BATTLESHIP:
            steps += [(CAT_OTHER, k)] * sum(1 for u in by_kind.get(k, ()) if u.damage == 0)
    for k in order:
        cat = category(by_kind[k][0]) if k in by_kind else CAT_OTHER
        steps += [(cat, k)] * len(by_kind.get(k, ()))
    if side == ATT and b.kind == "land":
        takes = {k for k in by_kind if profiles()[k].takes_territory}
        for i in range(len(steps) - 1, -1, -1):
            if steps[i][1] in takes:
                steps.append(steps.pop(i))
                break
    hits = normalise(h, units)
    if state.options.casualties == "earliest":
        lost = earliest((cat for cat, _ in steps), *hits)
    else:
        lost = _by_class([cat for cat, _ in steps], _pools(units), list(hits))
    return _units_for(state, b, side, Counter(steps[i][1] for i in lost), ())


def _by_class(cats: Sequence[int], pools: list[int], hits: list[int]) -> list[int]:
    """The steps (indices into ``cats``, their categories in loss order) lost under the
    casualty rule of games opened before 2026-12-02 (``by-class``): submarine hits
    first, then aircraft hits, then the others, each on the first step it legally can
    take while every other hit can still be taken.  Kept as it was, so those games
    replay as they were played."""
    used = [False] * len(cats)
    lost: list[int] = []
    for cls in (0, 1, 2):
        while hits[cls] > 0:
            best = max_absorbed(pools, hits)
            hits[cls] -= 1
            for i, cat in enumerate(cats):
                if used[i] or not _legal(cls, cat):
                    continue
                pools[cat] -= 1
                if max_absorbed(pools, hits) == best - 1:
                    used[i] = True
                    lost.append(i)
                    break
                pools[cat] += 1
    return lost


def normalise(h: Hits, units: Iterable[Unit]) -> tuple[int, int, int]:
    """A restriction that cannot matter is dropped: with no submarine among the targets
    aircraft hits land anywhere; with no aircraft, submarine hits do (as the calculator)."""
    cats = {category(u) for u in units}
    sub, air, any_ = h.sub, h.air, h.any
    if CAT_SUB not in cats:
        any_, air = any_ + air, 0
    if CAT_AIR not in cats:
        any_, sub = any_ + sub, 0
    return sub, air, any_


def _legal(cls: int, cat: int) -> bool:
    return not ((cls == 0 and cat == CAT_AIR) or (cls == 1 and cat == CAT_SUB))


def _units_for(state: AAState, b: Battle, side: str, counts: Mapping[str, int],
               ids: Sequence[int]) -> list[Unit]:
    """Turn hits per kind (and on named units) into the units hit, one entry per hit."""
    units = targets(state, b, side)
    who = decider(state, b, side)
    left = {u.id: hp(u) for u in units}
    out: list[Unit] = []
    for uid in ids:
        u = state.units.get(uid)
        if u is None or uid not in left:
            raise IllegalOrder(f"#{uid} cannot take a hit in this battle.",
                               legal=[f"#{x.id} {SHORT[x.kind]}" for x in units])
        left[uid] -= 1
        out.append(u)
    ordered = sorted(units, key=_prefer(state, who))
    for kind, n in counts.items():
        pool = [u for u in ordered if u.kind == kind]
        for _ in range(n):
            if kind == BATTLESHIP:  # damage an intact battleship first, then sink a damaged one
                cand = [u for u in pool if left[u.id] == 2] or [u for u in pool if left[u.id] == 1]
            else:
                cand = [u for u in pool if left[u.id] > 0]
            if not cand:
                have = sum(left[u.id] for u in pool)
                raise IllegalOrder(f"Only {have} hit(s) can go on {SHORT[kind]} here.")
            left[cand[0].id] -= 1
            out.append(cand[0])
    return out


def check_choice(state: AAState, b: Battle, h: Hits, chosen: Sequence[Unit]) -> None:
    """A-10.14, A-10.7: the choice takes the most hits possible, each legal for some hit,
    and transports only when nothing else could take the hits."""
    units = targets(state, b, h.side)
    hits = [h.sub, h.air, h.any]
    most = max_absorbed(_pools(units), hits)
    if len(chosen) != most:
        raise IllegalOrder(f"Choose exactly {most} casualt{'y' if most == 1 else 'ies'} "
                           f"(hits that can land must be taken, A-10.14).")
    s = sum(1 for u in chosen if category(u) == CAT_SUB)
    a = sum(1 for u in chosen if category(u) == CAT_AIR)
    if max(0, a - h.air) + max(0, s - h.sub) > h.any:
        raise IllegalOrder("Submarines never hit aircraft, and aircraft hit submarines only with a "
                           "destroyer on their side (A-10.6): that choice does not fit the hits.")
    non_transport = max_absorbed(_pools(u for u in units if u.kind != TRANSPORT), hits)
    if sum(1 for u in chosen if u.kind == TRANSPORT) > most - non_transport:
        raise IllegalOrder("Transports are chosen only when no other casualty is left (A-10.7).")


def choice_text(chosen: Sequence[Unit]) -> str:
    return format_counts(kind_counts(chosen), empty="none")


def options(state: AAState, b: Battle, h: Hits, limit: int = 12) -> list[dict[str, int]]:
    """The distinct choices by kind (up to ``limit``): to tell a forced choice and to
    offer small ones as buttons."""
    units = targets(state, b, h.side)
    cap: dict[str, int] = {}
    for u in units:
        cap[u.kind] = cap.get(u.kind, 0) + hp(u)
    kinds = [k for k in KINDS if k in cap]
    hits = [h.sub, h.air, h.any]
    most = max_absorbed(_pools(units), hits)
    non_transport = max_absorbed(_pools(u for u in units if u.kind != TRANSPORT), hits)
    cat = {u.kind: category(u) for u in units}
    out: list[dict[str, int]] = []

    def rec(i: int, left: int, cur: dict[str, int]) -> None:
        if len(out) > limit:
            return
        if i == len(kinds):
            if left:
                return
            s = sum(n for k, n in cur.items() if cat[k] == CAT_SUB)
            a = sum(n for k, n in cur.items() if cat[k] == CAT_AIR)
            if max(0, a - h.air) + max(0, s - h.sub) > h.any:
                return
            if cur.get(TRANSPORT, 0) > most - non_transport:
                return
            out.append({k: n for k, n in cur.items() if n})
            return
        k = kinds[i]
        for n in range(min(cap[k], left), -1, -1):
            cur[k] = n
            rec(i + 1, left - n, cur)
        cur.pop(k, None)

    rec(0, most, {})
    return out


# --------------------------------------------------------------------------- dice


def _groups(state: AAState, units: Sequence[Unit], role: str, air_any: bool) -> list[tuple[str, int, int, int]]:
    """(what, target, dice, hit class) groups a side rolls (A-10.4, A-14.2)."""
    counts: dict[tuple[str, int, int], int] = {}
    support = 0
    if role == "attack":
        support = sum(prof(state, u).supports for u in units if prof(state, u).supports)
    for u in sorted(units, key=lambda u: (KINDS.index(u.kind), u.id)):
        p = prof(state, u)
        value = p.value(role)
        dice = p.attack_dice if role == "attack" else p.defense_dice
        what = u.kind
        if role == "attack" and p.supported_attack and support > 0:
            support -= 1
            value = p.supported_attack
            what = "supported " + u.kind
        if value <= 0 or dice <= 0:
            continue
        cls = 0 if u.kind == SUBMARINE else (1 if u.is_air and not air_any else 2)
        key = (what, value, cls)
        counts[key] = counts.get(key, 0) + dice
    return [(w, v, n, c) for (w, v, c), n in counts.items()]


def roll(state: AAState, b: Battle, side: str, units: Sequence[Unit], role: str, air_any: bool,
         dice: Dice, events: list[Event]) -> Hits:
    hits = [0, 0, 0]
    for what, value, n, cls in _groups(state, units, role, air_any):
        faces = dice.roll_many(n, 6)
        got = sum(1 for f in faces if f <= value)
        hits[cls] += got
        events.append(Rolled(side, what, value, faces, got, b.round))
    target = DEF if side == ATT else ATT
    return Hits(target, hits[0], hits[1], hits[2])


def can_fire(state: AAState, units: Sequence[Unit], role: str) -> bool:
    return bool(_groups(state, units, role, True))


def can_hurt(state: AAState, shooters: Sequence[Unit], role: str, victims: Sequence[Unit]) -> bool:
    air_any = any(u.kind == DESTROYER for u in shooters)
    cats = {category(v) for v in victims}
    for _, _, _, cls in _groups(state, shooters, role, air_any):
        if any(_legal(cls, c) for c in cats):
            return True
    return False


# --------------------------------------------------------------------------- removing units


def remove(state: AAState, b: Battle, units: Sequence[Unit], why: str) -> Result:
    """Units of a battle destroyed: a transport's cargo and a carrier's allied cargo go
    with them; fighters over a defending carrier stay in the air (A-11.6)."""
    if not units:
        return state, []
    gone: dict[int, Unit | None] = {}
    for u in units:
        gone[u.id] = None
        for c in state.transport_load(u.id):
            if u.kind == CARRIER and not (u.owner == b.attacker and c.owner != u.owner):
                gone.setdefault(c.id, replace(c, aboard=None))
            else:
                gone[c.id] = None
    lost = [state.units[i] for i, v in gone.items() if v is None]
    owners = tuple(sorted({u.owner for u in lost}))
    return with_units(state, gone), [Lost(b.where, describe(lost), why, owners)]


def take_hits(state: AAState, b: Battle, h: Hits, chosen: Sequence[Unit]) -> Result:
    """Apply a casualty choice (one entry per hit).  A defender's casualties from fire or
    bombardment go to the casualty zone and fire back this round (A-10.4)."""
    changed: dict[int, Unit | None] = {}
    dead: list[Unit] = []
    damaged = 0
    seen: dict[int, int] = {}
    for u in chosen:
        seen[u.id] = seen.get(u.id, 0) + 1
    for uid, n in seen.items():
        u = state.units[uid]
        if u.kind == BATTLESHIP and u.damage + n < 2:
            changed[uid] = replace(u, damage=u.damage + n)
            damaged += 1
        else:
            dead.append(u)
    new = with_units(state, changed) if changed else state
    if h.side == DEF and h.reason in ("fire", "bombard"):
        new = replace(new, battle=replace(b, zone=b.zone | {u.id for u in dead}))
        lost = dead + [c for u in dead for c in state.transport_load(u.id) if u.kind == TRANSPORT]
        return new, [Lost(b.where, describe(lost), "hit", tuple(sorted({u.owner for u in lost})), damaged)]
    new, more = remove(new, b, dead, "hit")
    if not more:
        return new, [Lost(b.where, "", "hit", (), damaged)]
    return new, [replace(e, damaged=damaged) if isinstance(e, Lost) else e for e in more]


# --------------------------------------------------------------------------- planning battles


def plan_battles(state: AAState) -> tuple[Site, ...]:
    """A-10.1: the battles of this conduct-combat phase, at the end of phase 3."""
    power, bd = state.actor, state.board
    mine = [u for u in state.units.values() if u.owner == power]
    raids = sorted({u.target for u in mine if u.mission == "bomb" and u.target}, key=bd.order.__getitem__)
    sites: list[Site] = [Site(t, "raid", 1) for t in raids if t is not None]
    assault_zones: dict[str, set[str]] = {}
    for u in mine:
        if u.target and u.aboard is not None and u.is_land:
            assault_zones.setdefault(u.target, set()).add(u.where)
    sea_battles: list[str] = []
    zones = sorted({u.where for u in mine if bd.is_sea(u.where)}, key=bd.order.__getitem__)
    for z in zones:
        here = state.units_at(z)
        att = [u for u in here if u.owner == power and (u.is_sea or u.is_air)]
        enemy = [u for u in here if enemies(u.owner, power) and (u.is_sea or u.is_air)]
        if not att or not enemy:
            continue
        if state.enemy_surface(z, power) or any(
                u.p3 and (u.is_air or u.kind in SURFACE_WARSHIPS or u.kind == SUBMARINE) for u in att):
            sea_battles.append(z)
    all_assault_zones = set().union(*assault_zones.values()) if assault_zones else set()
    for z in sea_battles:
        sites.append(Site(z, "sea", 2 if z in all_assault_zones else 3))
    lands = sorted({u.where for u in mine if bd.is_land(u.where) and state.hostile(u.where, power)
                    and u.aboard is None and u.mission != "bomb"} | set(assault_zones),
                   key=bd.order.__getitem__)
    for t in lands:
        zones_first = tuple(sorted((z for z in assault_zones.get(t, ()) if z in sea_battles),
                                   key=bd.order.__getitem__))
        sites.append(Site(t, "land", 2 if t in assault_zones else 3, zones_first))
    return tuple(sorted(sites, key=lambda s: (s.step, 0 if s.kind == "sea" else 1, bd.order[s.where])))


def current_step(state: AAState) -> int:
    return min((s.step for s in state.sites), default=0)


def ready_sites(state: AAState) -> list[Site]:
    """Battles the attacker may pick now (A-10.1: step by step; an assault after its sea
    battles)."""
    step = current_step(state)
    done_first = {s.where for s in state.sites}
    return [s for s in state.sites if s.step == step and not any(z in done_first for z in s.after)]


# --------------------------------------------------------------------------- raids and rockets


def enemy_aa_guns(state: AAState, where: str, attacker: str) -> list[Unit]:
    return [u for u in state.units_at(where) if u.kind == AA_GUN and enemies(u.owner, attacker)]


def firing_gun(state: AAState, where: str, attacker: str) -> Unit | None:
    """The one AA gun that fires at ``attacker``'s aircraft over ``where`` (A-10.5): the
    best of the enemy's guns there (Radar, A-7), None where there is none."""
    guns = enemy_aa_guns(state, where, attacker)
    return max(guns, key=lambda g: profiles(state.tech(g.owner))[AA_GUN].aa_hit, default=None)


def aa_value(state: AAState, where: str, attacker: str) -> int:
    gun = firing_gun(state, where, attacker)
    return 0 if gun is None else profiles(state.tech(gun.owner))[AA_GUN].aa_hit


def forces(state: AAState, b: Battle) -> tuple[list[Unit], list[Unit], list[Unit], bool]:
    """A battle's forces as it would be fought now, for a forecast (the odds of a planned
    or running battle): the attackers (with the cargo bound for it, A-10.3, assuming any
    sea battle on the way is won), the defenders (with the one AA gun that fires when
    aircraft attack, A-10.4, A-10.5), the ships that would bombard (only from zones
    with no enemy warships left to fight, A-14.5), and whether it is an amphibious
    assault.  Paratroopers (A-7.6) aboard bombers over the territory count among the
    attackers.  Once the battle runs, AA fire and bombardment are past (A-10.3,
    A-10.5): no gun is added then."""
    att, dfn = attackers(state, b), defenders(state, b)
    amphibious, ships = b.amphibious, []
    running = state.battle is not None and state.battle.where == b.where
    if b.kind == "land":
        cargo = [u for u in state.units.values() if u.owner == b.attacker and u.aboard is not None
                 and u.is_land and u.target == b.where]
        if cargo:
            amphibious = True
            att = att + cargo
            zones = {u.where for u in cargo if not state.enemy_surface(u.where, b.attacker)}
            ships = bombarding_ships(state, b.attacker, zones, len(cargo))
        att = att + paratroopers(state, b.where, b.attacker)
        gun = firing_gun(state, b.where, b.attacker)
        if gun is not None and any(u.is_air for u in att) and not running:
            dfn = dfn + [gun]
    return att, dfn, ships, amphibious


def paratroopers(state: AAState, where: str, power: str) -> list[Unit]:
    """The power's infantry aboard its bombers over ``where``, not yet dropped (A-7.6)."""
    out = []
    for u in state.units_at(where):
        carrier = state.units.get(u.aboard) if u.aboard is not None else None
        if u.owner == power and u.kind == INFANTRY and carrier is not None and carrier.kind == BOMBER:
            out.append(u)
    return out


def aa_fire(state: AAState, b: Battle, planes: Sequence[Unit], dice: Dice, events: list[Event]) -> Result:
    """A-10.5: one gun, one die per aircraft, dice grouped per aircraft type."""
    value = aa_value(state, b.where, b.attacker)
    if not value or not planes:
        return state, []
    shot: list[Unit] = []
    for kind in (FIGHTER, BOMBER):
        group = sorted((u for u in planes if u.kind == kind), key=lambda u: (u.mission == "para", u.id))
        if not group:
            continue
        faces = dice.roll_many(len(group), 6)
        got = sum(1 for f in faces if f <= value)
        events.append(Rolled("defender", "aa gun vs " + kind, value, faces, got, 0))
        shot.extend(group[:got])
    return remove(state, b, shot, "anti-aircraft fire")


def resolve_raid(state: AAState, site: Site, dice: Dice) -> Result:
    power, where = state.actor, site.where
    b = Battle(where, "raid", power)
    events: list[Event] = []
    bombers = [u for u in state.units_at(where) if u.owner == power and u.mission == "bomb"]
    events.append(BattleStarted(where, "raid", power, describe(bombers), "factory"))
    state, more = aa_fire(state, b, bombers, dice, events)
    events.extend(more)
    alive = [state.units[u.id] for u in bombers if u.id in state.units]
    per = profiles(state.tech(power))[BOMBER].attack_dice
    faces = dice.roll_many(len(alive) * per, 6) if alive else ()
    cap = 2 * state.board.space(where).ipc
    now = state.factories.get(where, 0)
    placed = max(0, min(cap, now + sum(faces)) - now)
    factories = dict(state.factories)
    if where in factories:
        factories[where] = now + placed
    events.append(Bombed(where, tuple(faces), placed, now + placed))
    changed: dict[int, Unit | None] = {u.id: replace(u, fought=True) for u in alive}
    state = with_units(state, changed, factories=factories)
    return state, events


def rocket_sites(state: AAState, power: str) -> list[tuple[str, str]]:
    """A-7.5: (launch territory, target) pairs still possible this turn."""
    if "rockets" not in state.tech(power) or state.combat_started:
        return []
    bd = state.board
    launch = sorted({u.where for u in state.owned(power) if u.kind == AA_GUN and bd.is_land(u.where)
                     and "from:" + u.where not in state.rockets}, key=bd.order.__getitem__)
    out = []
    for a in launch:
        near = bd.bfs(a, lambda n: not bd.space(n).neutral, limit=3)
        for t, d in near.items():
            if t in state.factories and state.hostile(t, power) and "at:" + t not in state.rockets:
                out.append((a, t))
    return out


def rocket(state: AAState, o: Rocket, dice: Dice) -> Result:
    if state.phase != COMBAT or state.battle is not None:
        raise IllegalOrder("Rockets are launched in the strategic bombing step of conduct combat (A-7.5).")
    possible = rocket_sites(state, o.power)
    if (o.frm, o.target) not in possible:
        raise IllegalOrder("No rocket can go from there to there now (AA gun of yours, enemy factory "
                           "within 3 spaces, one rocket per launch territory and per factory, A-7.5).",
                           legal=[f"rocket {a} -> {t}" for a, t in possible])
    die = dice.roll(6)
    cap = 2 * state.board.space(o.target).ipc
    now = state.factories[o.target]
    placed = max(0, min(cap, now + die) - now)
    factories = dict(state.factories)
    factories[o.target] = now + placed
    new = replace(state, factories=factories, rockets=state.rockets | {"from:" + o.frm, "at:" + o.target})
    return new, [RocketFired(o.frm, o.target, die, placed, now + placed)]


# --------------------------------------------------------------------------- running a battle


def fight(state: AAState, o: Fight, dice: Dice) -> Result:
    if state.phase != COMBAT:
        raise IllegalOrder("Battles are fought in the conduct-combat phase.")
    if state.battle is not None:
        raise IllegalOrder(f"Finish the battle in {state.battle.where} first.")
    ready = ready_sites(state)
    site = next((s for s in ready if s.where == o.where), None)
    if site is None:
        raise IllegalOrder("That battle cannot be fought now (A-10.1: raids, then amphibious "
                           "assaults, then the rest).", legal=[f"battle {s.where}" for s in ready])
    return start(state, site, dice)


def start(state: AAState, site: Site, dice: Dice) -> Result:
    sites = tuple(s for s in state.sites if s != site)
    state = replace(state, sites=sites)
    if site.kind == "raid":
        return resolve_raid(state, site, dice)
    state = replace(state, combat_started=True)
    power, where = state.actor, site.where
    events: list[Event] = []
    b = Battle(where, site.kind, power, amphibious=site.step == 2 and site.kind == "land")
    if site.kind == "land":
        if not state.hostile(where, power):  # taken meanwhile (blitz): the troops just land
            state, more = _land_cargo(state, where, power)
            return _drop_paratroopers(state, where, power), more
        state, more = _land_cargo(state, where, power)
        events.extend(more)
    else:
        att = attackers(state, b)
        dfn = defenders(state, b)
        if att and all(u.kind == SUBMARINE for u in att) and not any(u.kind == DESTROYER for u in dfn):
            b = replace(b, aside=frozenset(u.id for u in dfn if u.is_air))
    state = replace(state, battle=b)
    events.append(BattleStarted(where, b.kind, power, describe(attackers(state, b)),
                                describe(defenders(state, b))))
    b = replace(b, defenders_fought=bool(defenders(state, b)))
    state = replace(state, battle=b)
    if b.kind == "land":
        planes = [u for u in attackers(state, b) if u.is_air]
        state, more = aa_fire(state, b, planes, dice, events)
        events.extend(more)
        state = _drop_paratroopers(state, where, power)
        b = state.battle  # type: ignore[assignment]
        assert b is not None
        b = replace(b, defenders_fought=bool(defenders(state, b)))
        state = replace(state, battle=b)
        state, bombard = _bombard(state, site, dice, events)
        if bombard.total:
            b = replace(b, stage="hits", hits=(bombard,))
            state = replace(state, battle=b)
            state, more = proceed(state, dice)
            return state, events + more
    outcome = _ended(state, b)
    if outcome is None and b.kind == "sea":
        state, more = _defenceless(state, b)
        events.extend(more)
        b = state.battle  # type: ignore[assignment]
        assert b is not None
        outcome = _ended(state, b)
    if outcome is not None:
        state, more = conclude(state, outcome)
        return state, events + more
    state, more = begin_round(state, dice)
    return state, events + more


def _land_cargo(state: AAState, where: str, power: str) -> Result:
    """A-10.3: cargo of surviving transports in cleared zones lands for the assault."""
    changed: dict[int, Unit | None] = {}
    landed: list[Unit] = []
    for u in state.units.values():
        if u.owner == power and u.target == where and u.aboard is not None and u.is_land:
            t = state.units.get(u.aboard)
            if t is None or t.mission == "retreated" or state.enemy_surface(u.where, power):
                changed[u.id] = replace(u, target=None)
                continue
            changed[u.id] = replace(u, where=where, aboard=None, target=None)
            landed.append(u)
    if not changed:
        return state, []
    events: list[Event] = []
    if landed:
        from engine.aa.events import Moved
        events.append(Moved(power, describe(landed), (landed[0].where, where), "land from the sea"))
    return with_units(state, changed), events


def _drop_paratroopers(state: AAState, where: str, power: str) -> AAState:
    changed: dict[int, Unit | None] = {u.id: replace(u, aboard=None) for u in paratroopers(state, where, power)}
    return with_units(state, changed) if changed else state


def _bombard(state: AAState, site: Site, dice: Dice, events: list[Event]) -> tuple[AAState, Hits]:
    """A-10.3 step 2: ships in unloading zones with no sea battle there fire once each, at
    most one ship per land unit that came ashore from them."""
    power, where = state.actor, site.where
    zones = {u.came_from for u in state.units_at(where) if u.owner == power and u.is_land
             and u.came_from and state.board.is_sea(u.came_from) and u.p3}
    landed = sum(1 for u in state.units_at(where) if u.owner == power and u.is_land and u.came_from in zones)
    ships = bombarding_ships(state, power, {z for z in zones if z}, landed)
    if not ships or not defenders(state, state.battle):  # type: ignore[arg-type]
        return state, Hits(DEF)
    b = state.battle
    assert b is not None
    hits = roll(state, b, ATT, ships, "attack", True, dice, events)
    state = with_units(state, {u.id: replace(u, fought=True) for u in ships})
    return state, Hits(DEF, 0, 0, hits.total, "bombard")


def bombarding_ships(state: AAState, power: str, zones: Iterable[str], landed: int) -> list[Unit]:
    """A-10.3 step 2, A-14.5: the power's battleships and cruisers in the unloading zones
    that may bombard (no sea battle there, none fired yet), the strongest first, at most
    one per land unit unloaded."""
    fought = _sea_fought(state)
    ships = [u for z in sorted(zones) for u in state.units_at(z)
             if u.owner == power and prof(state, u).bombard and not u.fought and z not in fought]
    ships.sort(key=lambda u: (-prof(state, u).attack, u.id))
    return ships[:landed]


def _sea_fought(state: AAState) -> frozenset[str]:
    """Zones where the attacker fought a sea battle this turn (no bombardment from there)."""
    return frozenset(u.where for u in state.owned(state.actor) if u.is_sea and u.fought)


def begin_round(state: AAState, dice: Dice) -> Result:
    b = state.battle
    assert b is not None
    b = replace(b, round=b.round + 1, struck=frozenset())  # bombarded units still fire in round 1
    state = replace(state, battle=b)
    att, dfn = attackers(state, b), defenders(state, b)
    if not can_hurt(state, att, "attack", dfn) and not can_hurt(state, dfn, "defense", att):
        return conclude(state, "stalemate")
    if b.kind == "sea":
        if _may_submerge(state, b, ATT):
            return replace(state, battle=replace(b, stage="submerge-attacker")), []
        if _may_submerge(state, b, DEF):
            return replace(state, battle=replace(b, stage="submerge-defender")), []
    return strike(state, dice)


def _may_submerge(state: AAState, b: Battle, side: str) -> bool:
    own = side_units(state, b, side)
    other = side_units(state, b, DEF if side == ATT else ATT)
    return any(u.kind == SUBMARINE for u in own) and not any(u.kind == DESTROYER for u in other)


def submerge(state: AAState, o: Submerge, dice: Dice) -> Result:
    b = state.battle
    if b is None or b.stage not in ("submerge-attacker", "submerge-defender"):
        raise IllegalOrder("No submarine may submerge now (A-10.6).")
    side = ATT if b.stage == "submerge-attacker" else DEF
    who = decider(state, b, side)
    if o.power != who:
        raise NotYourTurn(f"{who} decides for these submarines.")
    subs = [u for u in side_units(state, b, side) if u.kind == SUBMARINE]
    if not 0 <= o.count <= len(subs):
        raise IllegalOrder(f"Between 0 and {len(subs)} submarines may submerge.",
                           legal=[f"submerge {n}" for n in range(len(subs) + 1)])
    events: list[Event] = []
    changed: dict[int, Unit | None] = {}
    for u in sorted(subs, key=lambda u: (u.owner != who, u.id))[: o.count]:
        changed[u.id] = replace(u, submerged=True)
    state = with_units(state, changed)
    if o.count:
        events.append(Submerged(b.where, o.power, o.count))
    if side == ATT and _may_submerge(state, b, DEF):
        return replace(state, battle=replace(b, stage="submerge-defender")), events
    outcome = _ended(state, b)
    if outcome is not None:
        state, more = conclude(state, "retreat" if side == ATT and outcome == DEF else outcome)
        return state, events + more
    state, more = strike(state, dice)
    return state, events + more


def strike(state: AAState, dice: Dice) -> Result:
    """A-10.6 surprise strike: both sides' submarines from the start of the round."""
    b = state.battle
    assert b is not None
    events: list[Event] = []
    if b.kind != "sea":
        return general(state, dice)
    att, dfn = attackers(state, b), defenders(state, b)
    a_subs = [u for u in att if u.kind == SUBMARINE] if not any(u.kind == DESTROYER for u in dfn) else []
    d_subs = [u for u in dfn if u.kind == SUBMARINE] if not any(u.kind == DESTROYER for u in att) else []
    if not a_subs and not d_subs:
        return general(state, dice)
    pending: list[Hits] = []
    if a_subs:
        h = roll(state, b, ATT, a_subs, "attack", True, dice, events)
        pending.append(Hits(DEF, h.sub + h.air + h.any, 0, 0, "strike"))
    if d_subs:
        h = roll(state, b, DEF, d_subs, "defense", True, dice, events)
        pending.append(Hits(ATT, h.sub + h.air + h.any, 0, 0, "strike"))
    b = replace(b, struck=frozenset(u.id for u in a_subs + d_subs), stage="strike",
                hits=tuple(x for x in pending if x.total))
    state = replace(state, battle=b)
    state, more = proceed(state, dice)
    return state, events + more


def general(state: AAState, dice: Dice) -> Result:
    b = state.battle
    assert b is not None
    events: list[Event] = []
    att = [u for u in attackers(state, b) if u.id not in b.struck]
    dfn = [u for u in defenders(state, b) if u.id not in b.struck]
    a_air_any = any(u.kind == DESTROYER for u in attackers(state, b))
    d_air_any = any(u.kind == DESTROYER for u in defenders(state, b))
    ha = roll(state, b, ATT, att, "attack", a_air_any, dice, events)
    hd = roll(state, b, DEF, dfn, "defense", d_air_any, dice, events)
    b = replace(b, stage="general", hits=tuple(x for x in (replace(ha, reason="fire"), replace(hd, reason="fire"))
                                                 if x.total))
    state = replace(state, battle=b)
    state, more = proceed(state, dice)
    return state, events + more


def proceed(state: AAState, dice: Dice) -> Result:
    """Take casualty decisions that are forced or automatic; then move the battle on."""
    events: list[Event] = []
    while True:
        b = state.battle
        assert b is not None
        if not b.hits:
            break
        h = b.hits[0]
        opts = options(state, b, h, limit=1)
        who = decider(state, b, h.side)
        if len(opts) <= 1 or state.setting(who).auto:
            chosen = default_choice(state, b, h)
            state = replace(state, battle=replace(b, hits=b.hits[1:]))
            state, more = take_hits(state, state.battle, h, chosen)  # type: ignore[arg-type]
            events.extend(more)
            continue
        return state, events  # waiting for the casualty decision
    state, more = after_hits(state, dice)
    return state, events + more


def after_hits(state: AAState, dice: Dice) -> Result:
    b = state.battle
    assert b is not None
    if b.stage == "hits":  # bombardment casualties taken: round 1 follows, no early end
        return begin_round(state, dice)
    if b.stage == "strike":
        return general(state, dice)
    return end_round(state, dice)


def casualties(state: AAState, o: Casualties, dice: Dice) -> Result:
    b = state.battle
    if b is None or not b.hits:
        raise IllegalOrder("No casualties to choose now.")
    h = b.hits[0]
    who = decider(state, b, h.side)
    if o.power != who:
        raise NotYourTurn(f"{who} chooses these casualties.")
    chosen = _units_for(state, b, h.side, dict(o.sel.counts), o.sel.ids)
    check_choice(state, b, h, chosen)
    state = replace(state, battle=replace(b, hits=b.hits[1:]))
    state, events = take_hits(state, state.battle, h, chosen)  # type: ignore[arg-type]
    state, more = proceed(state, dice)
    return state, events + more


def end_round(state: AAState, dice: Dice) -> Result:
    b = state.battle
    assert b is not None
    events: list[Event] = []
    zone = [state.units[i] for i in b.zone if i in state.units]
    state, _ = remove(state, b, zone, "hit")  # already reported when chosen
    b = replace(b, zone=frozenset(), struck=frozenset(), hits=(), stage="end")
    state = replace(state, battle=b)
    outcome = _ended(state, b)
    if outcome is None and b.kind == "sea":
        state, more = _defenceless(state, b)
        events.extend(more)
        outcome = _ended(state, b)
    if outcome is not None:
        state, more = conclude(state, outcome)
        return state, events + more
    if retreat_options(state):
        return replace(state, battle=replace(b, stage="retreat")), events
    state, more = begin_round(state, dice)
    return state, events + more


def _ended(state: AAState, b: Battle) -> str | None:
    a_alive = bool(attackers(state, b))
    d_alive = bool([u for u in defenders(state, b) if u.id not in b.zone])
    if a_alive and d_alive:
        return None
    if a_alive:
        return ATT
    if d_alive or not b.defenders_fought:
        return DEF
    return "draw"


def _defenceless(state: AAState, b: Battle) -> Result:
    """A-10.7: a defender left with only transports (or only transports and submarines
    against aircraft alone without a destroyer) loses them without dice."""
    dfn = defenders(state, b)
    att = attackers(state, b)
    if not any(u.kind == TRANSPORT for u in dfn) or not can_fire(state, att, "attack"):
        return state, []
    only_transports = all(u.kind == TRANSPORT for u in dfn)
    subs_vs_air = all(u.kind in (TRANSPORT, SUBMARINE) for u in dfn) and all(u.is_air for u in att)
    if not (only_transports or subs_vs_air):
        return state, []
    return remove(state, b, [u for u in dfn if u.kind == TRANSPORT], "defenceless (A-10.7)")


# --------------------------------------------------------------------------- retreat


def retreat_options(state: AAState) -> list[str | None]:
    """A-10.9: an adjacent friendly space from which at least one attacker came (for
    ships: friendly since the turn began); ``None`` = aircraft only, staying overhead."""
    b = state.battle
    assert b is not None
    bd = state.board
    att = attackers(state, b)
    if not att:
        return []
    movers = [u for u in att if not u.is_air]
    if b.kind == "land":
        overland = [u for u in movers if came_overland(state, u)]
        if not movers:
            return [None]
        if not overland:
            # Aircraft beside units landed from the sea, which never retreat:
            # the aircraft may still leave, all together (games opened before
            # 2026-12-04: no retreat there, as they were played).
            air = len(movers) < len(att)
            return [None] if air and state.options.landing_retreat else []
        spaces = {u.came_from for u in overland if u.came_from in bd.adj[b.where]
                  and state.friendly(u.came_from, b.attacker)}
        return sorted(spaces, key=bd.order.__getitem__)  # type: ignore[arg-type]
    if not movers:
        return [None]
    spaces = {u.came_from for u in movers if u.came_from and u.came_from in bd.adj[b.where]
              and u.came_from not in state.hostile_start and not state.enemy_surface(u.came_from, b.attacker)}
    return sorted(spaces, key=bd.order.__getitem__)  # type: ignore[arg-type]


def press(state: AAState, o: Continue, dice: Dice) -> Result:
    b = state.battle
    if b is None or b.stage != "retreat":
        raise IllegalOrder("Nothing to continue: no retreat decision is waiting.")
    if o.power != b.attacker:
        raise NotYourTurn(f"{b.attacker} decides whether to press on.")
    return begin_round(state, dice)


def retreat(state: AAState, o: Retreat, dice: Dice) -> Result:
    b = state.battle
    if b is None or b.stage != "retreat":
        raise IllegalOrder("The attacker retreats only after a round of combat (A-10.9).")
    if o.power != b.attacker:
        raise NotYourTurn("Only the attacker retreats (A-10.9).")
    legal = retreat_options(state)
    if o.to not in legal:
        raise IllegalOrder("Retreat to one adjacent friendly space from which an attacker came "
                           "(A-10.9).", legal=[f"retreat {s}" if s else "retreat" for s in legal])
    changed: dict[int, Unit | None] = {}
    moved: list[Unit] = []
    for u in attackers(state, b):
        if u.is_air:
            changed[u.id] = replace(u, mission="retreated", fought=True)
            moved.append(u)
        elif b.kind == "land" and not came_overland(state, u):
            continue  # units landed from the sea never retreat
        else:
            assert o.to is not None
            changed[u.id] = replace(u, where=o.to, fought=True, stop=True,
                                    mission="retreated" if u.kind == TRANSPORT else u.mission)
            for c in state.transport_load(u.id):
                changed[c.id] = replace(c, where=o.to, target=None)
            moved.append(u)
    state = with_units(state, changed)
    events: list[Event] = [Retreated(b.where, o.to, describe(moved))]
    if attackers(state, b):  # landed units fight on (A-10.3 ruling)
        state, more = begin_round(state, dice)
        return state, events + more
    state, more = conclude(state, "retreat")
    return state, events + more


# --------------------------------------------------------------------------- the end of a battle


def conclude(state: AAState, outcome: str) -> Result:
    b = state.battle
    assert b is not None
    events: list[Event] = []
    att = attackers(state, b)
    taken = False
    changed: dict[int, Unit | None] = {}
    for u in state.units.values():
        if u.where != b.where and not (u.damage or u.submerged):
            continue
        fields: dict[str, object] = {}
        if u.damage:
            fields["damage"] = 0  # repaired free when the battle ends
        if u.submerged:
            fields["submerged"] = False
        if u.owner == b.attacker and not u.fought and u.where == b.where and u.aboard is None:
            fields["fought"] = True
        if fields:
            changed[u.id] = replace(u, **fields)  # type: ignore[arg-type]
    scramble = list(state.scramble)
    if b.kind == "sea":
        for u in state.units_at(b.where):
            if u.kind == FIGHTER and enemies(u.owner, b.attacker) and u.aboard is None:
                scramble.append(u.id)
    state = with_units(state, changed, scramble=tuple(scramble), battle=None)
    if b.kind == "land" and outcome == ATT and any(u.is_land for u in att):
        taken = True
        state, more = capture(state, b.where, b.attacker)
        events.extend(more)
    events.insert(0, BattleEnded(b.where, outcome, taken))
    return state, events


def describe_hits(h: Hits) -> str:
    parts = []
    if h.sub:
        parts.append(f"{h.sub} from submarines (not on aircraft)")
    if h.air:
        parts.append(f"{h.air} from aircraft (not on submarines)")
    if h.any:
        parts.append(f"{h.any}")
    return " + ".join(parts) + f" hit{'s' if h.total != 1 else ''}"
