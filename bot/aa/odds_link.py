"""``/odds aa battle:<space>``: the exact odds of a battle of this channel's A&A game.

The battle is read by :func:`engine.odds.aa_game.odds_battle` from the state *as the
asker may see it* (the game's per-seat view); :func:`odds_options` turns it into the
usual command's options, the asker's own order of loss or kept land units winning over
the game's.  :func:`extend_odds_aa` adds the ``battle`` option to ``/odds aa`` (called
from one marked block at the end of bot/commands/odds.py): with it, attacker and
defender are read from the game and handed to the usual command, so the answer looks
the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from bot.aa import complete
from bot.aa.front import KIND, aa_state
from bot.commands.base import REGISTRY, Command, Option
from bot.context import Ctx
from engine.aa.state import AAState
from engine.core.errors import NotationError
from engine.odds.aa import AABattle
from engine.odds.aa_game import battle_spaces, check_retreat, odds_battle
from engine.odds.aa_units import format_army


def odds_options(battle: AABattle, typed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``/odds aa`` options that describe ``battle``.  The orders of loss and the land
    units kept are the game's defaults: where the asker ``typed`` an order of loss, or
    ``keep_land``/``keep_land_units``, theirs are kept (asking "what if I lose the
    fighter first"); so are the forces they typed (``attacker``, ``defender``,
    ``overland``, ``bombard``: "what if I attack with fewer", and a refusal's example,
    which names the forces, asked with ``battle:`` still in the command)."""
    typed = typed or {}
    out = {"attacker": format_army(battle.attacker), "defender": format_army(battle.defender),
           "kind": battle.mode, "bombard": format_army(battle.bombard) if battle.bombard else "",
           "overland": format_army(battle.overland) if battle.overland else "",
           "ool_attacker": ", ".join(battle.ool_attacker), "ool_defender": ", ".join(battle.ool_defender),
           "keep_land_units": battle.keep_land_unit or None,
           "attacker_tech": ", ".join(sorted(battle.tech_attacker)),
           "defender_tech": ", ".join(sorted(battle.tech_defender))}
    for name in ("ool_attacker", "ool_defender", "attacker", "defender", "overland", "bombard"):
        if typed.get(name):
            del out[name]
    if typed.get("keep_land") or typed.get("keep_land_units") is not None:
        del out["keep_land_units"]
    return out


async def _game_state(ctx: Ctx) -> AAState:
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=KIND)
    return aa_state(loaded.seen_by(ctx.actor.id))


async def _battle_choices(ctx: Ctx, partial: str, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    loaded = await ctx.app.sessions.find(ctx.channel_id)
    if loaded is None or loaded.game.kind != KIND:
        return []
    return complete._rank(partial, battle_spaces(aa_state(loaded.seen_by(ctx.actor.id))))


BATTLE = Option("battle", str, "A battle of this channel's A&A game (its space), instead of the units",
                required=False, autocomplete=_battle_choices)


def extend_odds_aa() -> None:
    """Give ``/odds aa`` the ``battle`` option (attacker and defender become optional)."""
    key = ("odds", "aa")
    cmd = REGISTRY.get(key)
    if cmd is None or any(o.name == "battle" for o in cmd.options):
        return
    original = cmd.handler
    options = tuple(replace(o, required=False, default=None) if o.name in ("attacker", "defender") else o
                    for o in cmd.options) + (BATTLE,)

    async def handler(ctx: Ctx, battle: str | None = None, **values: Any) -> None:
        if battle is not None:
            state = await _game_state(ctx)
            live = odds_battle(state, battle)
            retreats = any(values.get(name) for name in ("retreat_after", "retreat_left", "retreat_below")) or (
                values.get("retreat_chance") is not None)
            check_retreat(state, live, retreats, battle)
            values.update(odds_options(live, values))
            ctx.default_ephemeral = True  # odds of a live battle tell what the asker plans
        elif values.get("attacker") is None or values.get("defender") is None:
            raise NotationError("Name both sides, or a battle of this channel's A&A game.",
                                legal=('/odds aa attacker:"3 inf, 1 tank" defender:"2 inf"', "/odds aa battle:current"))
        await original(ctx, **values)

    REGISTRY[key] = Command(cmd.path, cmd.description, options, handler, cmd.defer, cmd.ephemeral, cmd.extra)
