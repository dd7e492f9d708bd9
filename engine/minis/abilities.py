"""Queries about units and their special abilities, shared by the rule modules.

Ability names are the canonical strings of ``UnitCard.abilities`` (``card.has("Fanatic")``,
``card.ability("Close Assault").value``).  Each rule module applies the abilities that
belong to it (movement: Tally-Ho!, High Gear …; attacks: Blast, Shrapnel …); this
module answers the questions several modules ask: is a unit disrupted for the rules
(Fanatic), which Commanders are near it and working (M-14.5), where it is.

Rulings (docs/minis-rules.md): a unit with Fanatic ignores its face-up Disrupted
counter for every purpose; "adjacent" includes the same hex (M-1.2), so a Commander's
command effect also reaches the Commander itself (M-14.5); abilities that only need
a Commander nearby (Coordinated Fire, Command Dependent) are satisfied by a disrupted
Commander too, because they are not the Commander's own abilities.
"""

from __future__ import annotations

from engine.core.hexgrid import Hex
from engine.minis.model import UnitCard
from engine.minis.state import MinisState, UnitState


def card(state: MinisState, u: UnitState) -> UnitCard:
    return state.cards[u.card]


def value(c: UnitCard, name: str, default: int = 0) -> int:
    a = c.ability(name)
    if a is None:
        return default
    return a.value if a.value is not None else default


def is_disrupted(state: MinisState, u: UnitState) -> bool:
    """Disrupted for the rules (M-8.1): a face-up Disrupted counter, unless Fanatic."""
    return u.disrupted and not state.cards[u.card].has("Fanatic")


def attack_penalty(state: MinisState, u: UnitState) -> int:
    """M-7.3 / M-8.3: −1 on each die if disrupted or damaged (once).  Bravery
    Enforcement: a disrupted Soldier adjacent to a working Commissar ignores the
    disruption part."""
    disrupted = is_disrupted(state, u)
    if disrupted and state.cards[u.card].is_soldier and command_effect(state, u, "Bravery Enforcement"):
        disrupted = False
    return -1 if (disrupted or u.damaged) else 0


def where(state: MinisState, u: UnitState) -> Hex | None:
    """The unit's hex (a passenger is where its transport is)."""
    return u.hex if u.on_map else None


def commanders_near(state: MinisState, u: UnitState, *, working: bool) -> list[UnitState]:
    """Friendly Commanders on the map adjacent to ``u`` (same hex included, M-1.2);
    with ``working`` only those not disrupted (M-8.1, M-14.5)."""
    here = where(state, u)
    if here is None:
        return []
    out = []
    for c in state.units:
        if c.side != u.side or not c.on_map or c.hex is None:
            continue
        cc = state.cards[c.card]
        if not cc.is_commander or c.hex.distance(here) > 1:
            continue
        if working and is_disrupted(state, c):
            continue
        out.append(c)
    return out


def command_effect(state: MinisState, u: UnitState, ability: str) -> bool:
    """Does a working friendly Commander with this command ability reach ``u``?
    (Same-name command effects never stack, M-14.4: the answer is yes or no.)"""
    return any(state.cards[c.card].has(ability) for c in commanders_near(state, u, working=True))


def commander_present(state: MinisState, u: UnitState) -> bool:
    return bool(commanders_near(state, u, working=False))


def is_transport(c: UnitCard) -> bool:
    return c.has("Transport") or c.has("Exposed Transport") or c.has("Gun Transport")


def capacity(c: UnitCard) -> int:
    return 1 if is_transport(c) else 0


def once_key(u: UnitState, ability: str) -> str:
    return f"{u.id}:{ability}"
