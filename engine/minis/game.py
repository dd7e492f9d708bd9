"""The public API of the A&A Miniatures engine (python-chess style).

* ``new_game(options, dice) -> (state, events)``
* ``legal_orders(state, player) -> Iterator[Order]`` (lazy)
* ``apply(state, order, dice) -> (state, events)`` — never mutates; an illegal order
  raises a :class:`~engine.core.errors.PlayerError` (with what is legal where it helps)
  and leaves nothing changed
* ``apply_text(state, player, text, dice)`` = ``parse_order`` + ``apply``
* ``pending(state) -> list[Pending]`` — who must decide what now
* ``outcome(state) -> Outcome | None``
* ``RULES`` — the :class:`~engine.core.game.GameRules` object, registered as "minis".

Options of ``new_game`` (a JSON-able dict): ``scenario`` ("standard", "assault", or a
custom scenario document or JSON text), ``points``, ``year``, ``historical``, ``map``
(1…6, "random" — a die roll, M-3.2 — or a custom map text), ``attacker`` (Assault),
``cost_set`` ("revised" or "2005"), ``custom_cards`` (text, validated), ``stacking``
(2, or 3 — M-6.2 option), ``standing`` (default standing order: ask, hold, first,
vehicles).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterator, Mapping, Sequence

from engine.core.dice import Dice
from engine.core.errors import DataError, IllegalOrder, NotYourTurn
from engine.core.events import Event
from engine.core.game import BaseRules, Outcome, Pending, Viewer, register
from engine.minis import battle, prebattle
from engine.minis import defensive_fire as df
from engine.minis.catalogue import load_catalogue, load_custom_cards
from engine.minis.deployment import check_objective, objectives_for
from engine.minis.maps import build_configuration, load_map_text
from engine.minis.events import Conceded, MapChosen, StandingOrderSet, TimedOut
from engine.minis.model import SIDES, BattleMap, UnitCard, other_side
from engine.minis.orders import (
    SEATS, SYSTEM, ArmyList, Attack, Board, ChooseEnd, ChooseFirst, ChooseMap, ChooseObjective,
    Concede, Deploy, DeployAboard, Demolish, Dismount, Done, Face, Fire, Hold, Move, Order, Ready,
    Standing, Timeout, parse_order,
)
from engine.minis.scenario import Scenario, scenario_from_options
from engine.minis.sequence import choose_first, finish
from engine.minis.state import STANDING_ORDERS, GameOptions, MinisState, Phase
from engine.minis.visibility import PRIVATE_VERBS, see

Result = tuple[MinisState, list[Event]]


# --------------------------------------------------------------------------- data hooks


def _configuration(n: int) -> BattleMap:
    return build_configuration(n)


def _custom_map(text: str) -> BattleMap:
    return load_map_text(text, "custom")


def _catalogue(cost_set: str, custom: str | None) -> dict[str, UnitCard]:
    base = load_catalogue(cost_set=cost_set)
    cat = load_custom_cards(custom, base=base) if custom else base
    return {c.key: c for c in cat.values()}


prebattle.build_configuration = _configuration


# --------------------------------------------------------------------------- new game


def game_options(options: Mapping[str, Any]) -> GameOptions:
    stacking = options.get("stacking", 2)
    if stacking not in (2, 3):
        raise DataError(f"stacking must be 2 (2005 rules) or 3 (2008 update), not {stacking!r}.", legal=("2", "3"))
    standing = options.get("standing", "ask")
    if standing not in STANDING_ORDERS:
        raise DataError(f"'{standing}' is not a standing order.", legal=STANDING_ORDERS)
    cost_set = options.get("cost_set", "revised")
    if cost_set not in ("revised", "2005"):
        raise DataError(f"'{cost_set}' is not a cost set.", legal=("revised", "2005"))
    return GameOptions(stacking=stacking, default_standing=standing, cost_set=cost_set)


def start_state(battle_map: BattleMap, cards: Mapping[str, UnitCard], scenario: Scenario,
                options: GameOptions = GameOptions()) -> MinisState:
    """A battle in the army-building phase on a given map (new_game's last step; tests
    use it with their own maps and cards)."""
    state = MinisState(map=battle_map, cards=cards, scenario=scenario.name, setup=scenario,
                       options=options, phase=Phase.ARMIES)
    objectives = objectives_for(state)
    if scenario.objectives == "chosen":
        objectives = tuple(h for h in objectives if check_objective(battle_map, h) is None)
    return replace(state, objectives=objectives)


def new_game(options: Mapping[str, Any], dice: Dice) -> tuple[MinisState, list[Event]]:
    opts = dict(options)
    scenario = scenario_from_options(opts)
    gopts = game_options(opts)
    custom = opts.get("custom_cards")
    if custom is not None and not isinstance(custom, str):
        raise DataError("custom_cards must be the text of a unit card file.")
    cards = _catalogue(gopts.cost_set, custom)
    events: list[Event] = []
    if scenario.map == "custom":
        assert scenario.map_text is not None
        battle_map = _custom_map(scenario.map_text)
        events.append(MapChosen(None, None, battle_map.name))
    elif scenario.map == "random":
        die = dice.roll(6)
        battle_map = _configuration(die)
        events.append(MapChosen(None, die, battle_map.name, die=die))
    elif scenario.map == "chosen":
        battle_map = _configuration(1)  # provisional: the defender may pick another (M-17.2)
    else:
        assert isinstance(scenario.map, int)
        battle_map = _configuration(scenario.map)
        events.append(MapChosen(None, scenario.map, battle_map.name))
    return start_state(battle_map, cards, scenario, gopts), events


# --------------------------------------------------------------------------- meta orders


def _standing(state: MinisState, o: Standing, dice: Dice) -> Result:
    u = state.unit(o.unit)
    if u.side != o.player:
        raise IllegalOrder(f"{o.unit} is not yours.")
    standing = dict(state.standing)
    standing[u.id] = o.policy
    return replace(state, standing=standing), [StandingOrderSet(u.id, o.policy, private_to=o.player)]


def _concede(state: MinisState, o: Concede, dice: Dice) -> Result:
    winner = other_side(o.player)
    return finish(state, winner, f"the {o.player} conceded", [Conceded(o.player)])


def waiting_for(state: MinisState) -> list[str]:
    return sorted({p.player for p in pending(state)})


def _timeout(state: MinisState, o: Timeout, dice: Dice) -> Result:
    waiting = waiting_for(state)
    if not waiting:
        raise IllegalOrder("Nobody is being waited for.")
    events: list[Event] = [TimedOut(w, o.policy) for w in waiting]
    if o.policy == "forfeit":
        if len(waiting) == 1:
            loser = waiting[0]
            new, more = finish(state, other_side(loser), f"the {loser} did not answer in time", [])
        else:
            new, more = finish(state, None, "neither side answered in time", [])
        return new, events + more
    if state.move is not None:
        new, more = battle.timeout_hold(state, dice)
        return new, events + more
    if o.policy == "hold":
        raise IllegalOrder("There is no defensive-fire prompt; 'timeout hold' only answers one.",
                           legal=("timeout done", "timeout forfeit"))
    # "done": end whatever the waiting player is doing, by the game's policy.
    if state.phase is Phase.ARMIES:
        new = state
        gathered: list[Event] = []
        invalid = []
        for side in waiting:
            try:
                new, extra = prebattle.ready(new, Ready(side), dice)
                gathered.extend(extra)
            except IllegalOrder:
                invalid.append(side)
        if invalid:
            if len(invalid) == 2:
                new, extra = finish(state, None, "neither side built a legal army in time", [])
            else:
                new, extra = finish(state, other_side(invalid[0]),
                                    f"the {invalid[0]} had no legal army in time", [])
            gathered.extend(extra)
        return new, events + gathered
    if state.chooser is not None:
        if state.phase is Phase.DEPLOYMENT:
            new, more = prebattle.choose_deployment_order(state, ChooseFirst(state.chooser, True), dice)
        else:
            new, more = choose_first(state, state.chooser, True)
        return new, events + more
    if state.phase is Phase.DEPLOYMENT:
        assert state.active is not None
        new, more = prebattle.deployment_done(state, Done(state.active), dice, drop_missing=True)
        return new, events + more
    assert state.active is not None
    new, more = battle.phase_done(state, Done(state.active), dice)
    return new, events + more


# --------------------------------------------------------------------------- dispatch


def _first_choice(state: MinisState, o: ChooseFirst, dice: Dice) -> Result:
    if state.phase is Phase.DEPLOYMENT:
        return prebattle.choose_deployment_order(state, o, dice)
    if state.phase is Phase.INITIATIVE:
        if state.chooser != o.player:
            raise NotYourTurn(f"The {state.chooser} won the initiative and choose.")
        return choose_first(state, o.player, o.first)
    raise IllegalOrder("There is no first/second choice to make now.")


def _done(state: MinisState, o: Done, dice: Dice) -> Result:
    if state.phase is Phase.DEPLOYMENT:
        return prebattle.deployment_done(state, o, dice)
    if state.phase is Phase.ARMIES:
        raise IllegalOrder("Say 'ready' when your army is complete.", legal=("ready",))
    return battle.phase_done(state, o, dice)


_HANDLERS: dict[type, Callable[[MinisState, Any, Dice], Result]] = {
    ArmyList: prebattle.army,
    Ready: prebattle.ready,
    ChooseFirst: _first_choice,
    ChooseMap: prebattle.choose_map,
    ChooseObjective: prebattle.choose_objective,
    ChooseEnd: prebattle.choose_end_order,
    Deploy: prebattle.deploy,
    DeployAboard: prebattle.deploy_aboard,
    Done: _done,
    Move: battle.move,
    Face: battle.face,
    Attack: battle.attack,
    Board: battle.board_order,
    Dismount: battle.dismount_order,
    Demolish: battle.demolish,
    Fire: battle.fire,
    Hold: battle.hold,
    Standing: _standing,
    Concede: _concede,
    Timeout: _timeout,
}


def apply(state: MinisState, order: Order, dice: Dice) -> tuple[MinisState, tuple[Event, ...]]:
    """Check and apply one order; a new state and the events, or a PlayerError."""
    if order.player not in SEATS:
        raise IllegalOrder(f"'{order.player}' is not a seat.", legal=SEATS)
    if state.phase is Phase.OVER:
        raise IllegalOrder("The battle is over.")
    if isinstance(order, Timeout) != (order.player == SYSTEM):
        raise IllegalOrder("Only the system seat issues timeouts, and it issues nothing else.")
    handler = _HANDLERS.get(type(order))
    if handler is None:
        raise IllegalOrder(f"Unknown order {order!r}.")
    new, events = handler(state, order, dice)
    return new, tuple(events)


def apply_text(state: MinisState, player: str, text: str, dice: Dice) -> tuple[MinisState, tuple[Event, ...]]:
    return apply(state, parse_order(state, player, text), dice)


# --------------------------------------------------------------------------- queries


def pending(state: MinisState) -> list[Pending]:
    """Who must decide what now (two entries only while both build their armies)."""
    p = state.phase
    if p is Phase.OVER:
        return []
    if p is Phase.ARMIES:
        return [Pending(s, "build your army in secret ('army …'), then 'ready'")
                for s in SIDES if s not in state.ready]
    if state.chooser is not None:
        what = "won the coin toss: choose who deploys first" if p is Phase.DEPLOYMENT \
            else f"won the initiative for turn {state.turn}: choose who is first player"
        return [Pending(state.chooser, what, ("first", "second"))]
    if p is Phase.DEPLOYMENT:
        assert state.active is not None
        return [Pending(state.active, "deploy your units ('deploy ax3 F7'), then 'done'", ("done",))]
    if state.move is not None:
        mip = state.move
        mover = state.unit(mip.unit)
        a, b = df.step_hexes(mip)
        lab = state.map.label
        choices = tuple(f"fire {u} {w}" for u, w in df.ask_choices(state)) + ("hold",)
        return [Pending(other_side(mover.side),
                        f"defensive fire: {mover.id} ({state.cards[mover.card].name}) moves "
                        f"{lab(a)} → {lab(b)}", choices, reaction=True)]
    assert state.active is not None
    return [Pending(state.active, f"your {p.value} phase (turn {state.turn}): orders, then 'done'", ("done",))]


def outcome(state: MinisState) -> Outcome | None:
    return state.outcome


def legal_orders(state: MinisState, player: str) -> Iterator[Order]:
    from engine.minis.legal import legal_orders as _legal

    return _legal(state, player)


# --------------------------------------------------------------------------- registry


class MinisRules(BaseRules):
    kind = "minis"
    title = "Axis & Allies Miniatures"
    seats: tuple[str, ...] = SIDES
    timeout_policies: tuple[str, ...] = ("done", "hold", "forfeit")
    reaction_policy = "hold"  # an unanswered defensive-fire prompt: the standing orders (M-12.8)
    # ~30 KB of a ~33 KB snapshot, fixed once the battle starts (codec.py memoises them).
    snapshot_parts: tuple[str, ...] = ("map", "cards")

    def new_game(self, options: Mapping[str, Any], dice: Dice) -> tuple[MinisState, Sequence[Event]]:
        return new_game(options, dice)

    def parse_order(self, state: MinisState, seat: str, text: str) -> Order:
        return parse_order(state, seat, text)

    def format_order(self, state: MinisState, order: Order) -> str:
        from engine.minis.orders import format_order

        return format_order(order, state)

    def legal_orders(self, state: MinisState, seat: str) -> Iterator[Order]:
        return legal_orders(state, seat)

    def apply(self, state: MinisState, order: Order, dice: Dice) -> tuple[MinisState, Sequence[Event]]:
        return apply(state, order, dice)

    def timeout(self, state: MinisState, policy: str, dice: Dice) -> tuple[MinisState, Sequence[Event]]:
        return apply(state, Timeout(SYSTEM, policy), dice)

    def pending(self, state: MinisState) -> Sequence[Pending]:
        return pending(state)

    # The per-seat view (M-2.5): the one place Minis decides what is secret.
    def view(self, state: MinisState, viewer: Viewer) -> MinisState:
        """What ``viewer`` may know: army lists, undeployed units and standing orders of
        seats the viewer does not hold are left out."""
        return see(state, viewer.seats)

    def order_view(self, seat: str, text: str, viewer: Viewer) -> str | None:
        """Army lists and standing orders are their seat's secret (not even a trace of
        them is shown to anyone else)."""
        verb = text.split(maxsplit=1)[0].lower() if text.strip() else ""
        if verb in PRIVATE_VERBS and not viewer.holds(seat):
            return None
        return text

    def outcome(self, state: MinisState) -> Outcome | None:
        return outcome(state)

    def dump_state(self, state: MinisState) -> dict[str, Any]:
        from engine.minis.codec import dump_state

        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> MinisState:
        from engine.minis.codec import load_state

        return load_state(data)


RULES = MinisRules()
register(RULES)
