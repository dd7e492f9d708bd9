"""``/league …``, ``/rating`` and ``/leaderboard``: thin handlers over the pure core
(:mod:`bot.league.ops`, :mod:`bot.league.reports`, :mod:`bot.league.export`), the
documents (:mod:`bot.league.store`) and the match threads (:mod:`bot.league.play`).

League moderators: the organiser, the users named with ``moderators:`` (or added with
``/league moderator``), and anyone with the server's moderator role or Manage Channels
(``Actor.is_moderator``).
"""

from __future__ import annotations

import re
from typing import Any

from bot.clock import parse_duration
from bot.commands.base import Option, command
from bot.context import Attachment, Button, Ctx
from bot.games import on_game_end
from bot.league import ops, play, reports, store
from bot.league.errors import LeagueRuleError
from bot.league.export import history_text, pairings_text, results_csv, standings_image, standings_text
from bot.league.model import Format, League, parse_result
from bot.league.ratings import leaderboard
from engine.core.errors import IllegalOrder

on_game_end(play.game_ended)



async def _league_names(ctx: Ctx, typed: str, others: Any) -> list[tuple[str, str]]:
    """This server's leagues whose name starts with (then contains) what was typed."""
    if ctx.guild_id is None:
        return []
    names = [s.league.name for s in await store.all_leagues(ctx.app.repo, ctx.guild_id)]
    t = typed.strip().lower()
    ranked = [n for n in names if n.lower().startswith(t)] + [n for n in names if t in n.lower()
                                                              and not n.lower().startswith(t)]
    return [(n, n) for n in ranked[:25]]


async def _games(ctx: Ctx, typed: str, others: Any) -> list[tuple[str, str]]:
    from bot.games import fronts

    t = typed.strip().lower()
    return [(f"{f.title} ({f.group})", f.group) for f in fronts() if t in f.group.lower() or t in f.title.lower()]


NAME = Option("name", str, "The league's name", autocomplete=_league_names)
_MENTIONS = re.compile(r"<@!?(\d{5,20})>")


def _guild(ctx: Ctx) -> int:
    if ctx.guild_id is None:
        raise IllegalOrder("Leagues belong to a server: use /league in a server's channel.")
    return ctx.guild_id


async def _users(ctx: Ctx, text: str | None) -> list[int]:
    """``"@alice @bob"`` (mentions on Discord, names locally) → user ids."""
    if not text:
        return []
    found = [int(m) for m in _MENTIONS.findall(text)]
    if found:
        return found
    return [(await ctx.user(word)).id for word in text.replace(",", " ").split()]


def _mod(ctx: Ctx) -> dict[str, Any]:
    return {"by": ctx.actor.id, "server_moderator": ctx.actor.is_moderator}


async def _update(ctx: Ctx, name: str, change: Any) -> tuple[store.Stored, store.Stored]:
    return await store.update(ctx.app.repo, _guild(ctx), name, change, ctx.app.clock.now())


def _poster(ctx: Ctx) -> Any:
    return ctx.channel


# -- creating and signing up ------------------------------------------------------------

@command("league create", "Create a league in this channel (you organise it)",
         Option("name", str, "The league's name, e.g. Autumn-1944"),
         Option("game", str, "The game played, e.g. minis", autocomplete=_games),
         Option("format", str, "swiss or round-robin", choices=("swiss", "round-robin")),
         Option("rounds", int, "Swiss: number of rounds (default: enough for one winner)", required=False,
                min_value=1, max_value=50),
         Option("double", bool, "Round-robin: play everyone twice, sides swapped", required=False,
                default=False),
         Option("deadline", str, "Time for each round, e.g. 7d", required=False, default="7d"),
         Option("scoring", str, "e.g. win=3,draw=1,loss=0,bye=1/2", required=False),
         Option("tiebreaks", str, "Order, e.g. head_to_head,wins,buchholz", required=False),
         Option("at_deadline", str, "At the deadline: moderators decide, the awaited player forfeits, or"
                " the game goes on", required=False, default="moderators",
                choices=play.DEADLINE_POLICIES),
         Option("moderators", str, "League moderators besides you (@mentions)", required=False),
         Option("scenario", str, "Game setting: scenario", required=False),
         Option("points", int, "Game setting: army points", required=False, min_value=1, max_value=10000),
         Option("year", int, "Game setting: year", required=False, min_value=1936, max_value=1946),
         Option("map", str, "Game setting: map", required=False),
         Option("timeout", str, "Game setting: the game's own timeout (e.g. 3d, off)", required=False),
         Option("policy", str, "Game setting: the game's timeout policy", required=False),
         Option("settings", str, "More game settings: key=value, e.g. \"remind=12h stacking=3\"",
                required=False))
async def league_create(ctx: Ctx, name: str, game: str, format: str, rounds: int | None, double: bool,
                        deadline: str, scoring: str | None, tiebreaks: str | None, at_deadline: str,
                        moderators: str | None, scenario: str | None, points: int | None, year: int | None,
                        map: str | None, timeout: str | None, policy: str | None,
                        settings: str | None) -> None:
    guild = _guild(ctx)
    kind = play.game_kind(game)
    sides = play.sides_of(kind)
    given = {"scenario": scenario, "points": points, "year": year, "map": map, "timeout": timeout,
             "policy": policy}
    game_settings: dict[str, Any] = {**play.parse_settings(settings),
                                     **{k: v for k, v in given.items() if v is not None}}
    play.game_values(kind, game_settings, None)  # the game's own command checks them now
    game_settings[play.POLICY_KEY] = at_deadline
    mods = await _users(ctx, moderators)
    extra: dict[str, Any] = {}
    if scoring:
        extra["scoring"] = scoring
    if tiebreaks:
        extra["tiebreaks"] = tiebreaks
    league = ops.create_league(ops.check_name(name), kind, organiser=ctx.actor.id, sides=sides,
                               format=Format(format), rounds=rounds, double=double,
                               deadline=parse_duration(deadline), settings=game_settings,
                               moderators=mods, **extra)
    await store.create(ctx.app.repo, guild, league, ctx.channel_id, ctx.app.clock.now())
    shown = ", ".join(f"{k}={v}" for k, v in game_settings.items())
    await ctx.reply(
        f"🏆 {ctx.actor.mention} created the league **{league.name}**: {kind}, {league.format.value}"
        + (f", {rounds} round{'s' if rounds != 1 else ''}" if rounds else "") + f", {deadline} per round, scoring {league.scoring.text()}."
        f"\nGame settings: {shown}.\nSign up with /league join name:{league.name}; a moderator starts it with"
        f" /league start name:{league.name}.", ephemeral=False,
        buttons=[Button("Join", f"/league join name:{league.name}", "success")])


@command("league join", "Sign up for a league", NAME)
async def league_join(ctx: Ctx, name: str) -> None:
    _, after = await _update(ctx, name, lambda lg: ops.sign_up(lg, ctx.actor.id, ctx.actor.name))
    n = len(after.league.players)
    await ctx.reply(f"✍️ {ctx.actor.mention} joins **{after.league.name}** ({n} player{'s' if n != 1 else ''}).",
                    ephemeral=False)


@command("league leave", "Withdraw your sign-up (before the league starts)", NAME)
async def league_leave(ctx: Ctx, name: str) -> None:
    _, after = await _update(ctx, name, lambda lg: ops.leave(lg, ctx.actor.id))
    await ctx.reply(f"{ctx.actor.mention} left **{after.league.name}**.", ephemeral=False)


@command("league start", "Close sign-ups and pair round 1 (league moderators)", NAME,
         Option("rounds", int, "Swiss: number of rounds, if not set at creation", required=False,
                min_value=1, max_value=50),
         Option("seeding", str, "Seed order: sign-up order, or by rating on this server", required=False,
                default="signup", choices=("signup", "rating")),
         defer=True)
async def league_start(ctx: Ctx, name: str, rounds: int | None, seeding: str) -> None:
    now = ctx.app.clock.now()
    guild = _guild(ctx)
    table: dict[int, Any] = {}
    if seeding == "rating":
        stored = await store.load(ctx.app.repo, guild, name)
        table = await store.ratings(ctx.app.repo, guild, stored.league.kind)

    def start(lg: League) -> League:  # ranked on the league as re-read (sign-ups may have changed)
        seeds = play.rating_seeding(lg, table) if seeding == "rating" else None
        return ops.start(lg, now=now, rounds=rounds, seeding=seeds, **_mod(ctx))

    _, after = await _update(ctx, name, start)
    league = after.league
    await ctx.reply(f"🚩 **{league.name}** has started: {len(league.players)} players, {league.rounds} round"
                    f"{'s' if league.rounds != 1 else ''}.",
                    ephemeral=False)
    current = league.current
    assert current is not None
    await play.open_round(ctx.app, _poster(ctx), after, current)


@command("league next", "Pair the next round (once every result is in; moderators may force it)", NAME,
         Option("force", bool, "Moderators: pair it although results are missing", required=False,
                default=False),
         defer=True)
async def league_next(ctx: Ctx, name: str, force: bool) -> None:
    now = ctx.app.clock.now()
    _, after = await _update(ctx, name, lambda lg: ops.next_round(lg, now=now, force=force, **_mod(ctx)))
    current = after.league.current
    assert current is not None
    await ctx.reply(f"➡️ {ctx.actor.mention} paired round {current.number} of **{after.league.name}**.",
                    ephemeral=False)
    await play.open_round(ctx.app, _poster(ctx), after, current)


@command("league threads", "Open the match threads a round is missing (league moderators)", NAME,
         Option("round", int, "Round (the current one by default)", required=False, min_value=1, max_value=100),
         defer=True)
async def league_threads(ctx: Ctx, name: str, round: int | None) -> None:
    stored = await store.load(ctx.app.repo, _guild(ctx), name)
    league = stored.league
    if not ops.is_moderator(league, ctx.actor.id, server_moderator=ctx.actor.is_moderator):
        raise LeagueRuleError(f"Only a moderator of {league.name} may open match threads.")
    rnd = league.round(round) if round is not None else league.current
    if rnd is None:
        raise LeagueRuleError(f"{league.name} has no round yet.", legal=(f"/league start name:{league.name}",))
    missing = [p for p in rnd.open_pairings
               if await store.match(ctx.app.repo, stored.guild, league.name, rnd.number, p.board) is None]
    await ctx.reply(f"Opening {len(missing)} missing match thread{'s' if len(missing) != 1 else ''} for round"
                    f" {rnd.number} of **{league.name}**.", ephemeral=False)
    for p in missing:
        await play.open_match(ctx.app, _poster(ctx), stored, rnd, p)


# -- results ----------------------------------------------------------------------------

@command("league result", "Set a game's result (league moderators): 1-0, 0-1, 1/2-1/2, 1F-0F, 0F-1F, 0F-0F",
         NAME, Option("round", int, "Round", min_value=1, max_value=100),
         Option("board", int, "Board", min_value=1, max_value=500),
         Option("result", str, "1-0, 0-1, 1/2-1/2, 1F-0F, 0F-1F, 0F-0F, or none to clear it"))
async def league_result(ctx: Ctx, name: str, round: int, board: int, result: str) -> None:
    value = None if result.strip().lower() in ("none", "clear", "-") else parse_result(result)
    before, after = await _update(ctx, name, lambda lg: ops.set_result(lg, round, board, value, **_mod(ctx)))
    pairing = after.league.round(round).board(board)
    a, b = (after.league.name_of(p) for p in pairing.players)
    text = value.value if value is not None else "cleared"
    lines = [f"⚖️ {ctx.actor.mention} set round {round} board {board} ({a} vs {b}) of"
             f" **{after.league.name}**: **{text}**."] + play.progress(after.league)
    await ctx.reply("\n".join(lines), ephemeral=False, files=play.final_files(after.league))
    await play.end_games(ctx.app, _poster(ctx), after.guild, before.league, after.league, ctx.actor.id,
                         "a league moderator set the result")


@command("league bye", "Make a round's bye a half-point bye or a full one (league moderators)", NAME,
         Option("round", int, "Round", min_value=1, max_value=100),
         Option("half", bool, "Half-point bye (true) or full (false)", required=False, default=True))
async def league_bye(ctx: Ctx, name: str, round: int, half: bool) -> None:
    _, after = await _update(ctx, name, lambda lg: ops.set_bye(lg, round, half=half, **_mod(ctx)))
    bye = after.league.round(round).bye
    assert bye is not None
    await ctx.reply(f"Round {round} of **{after.league.name}**: {after.league.name_of(bye.player)} has a"
                    f" {'half-point' if half else 'full'} bye.", ephemeral=False)


@command("league drop", "Withdraw from a league (moderators: anyone); remaining games become forfeits", NAME,
         Option("user", str, "Moderators: the player to drop (@mention)", required=False),
         Option("confirm", bool, "Yes, drop", required=False, default=False))
async def league_drop(ctx: Ctx, name: str, user: str | None, confirm: bool) -> None:
    who = await ctx.user(user) if user else ctx.actor
    stored = await store.load(ctx.app.repo, _guild(ctx), name)
    stored.league.player(who.id)
    if not confirm:
        arg = f" user:{user}" if user else ""
        await ctx.reply(f"Drop {who.name} from {stored.league.name}? Their games without a result become"
                        " forfeits.", ephemeral=True,
                        buttons=[Button("Drop", f"/league drop name:{stored.league.name}{arg} confirm:1",
                                        "danger")])
        return
    before, after = await _update(ctx, name, lambda lg: ops.drop_player(lg, who.id, **_mod(ctx)))
    lines = [f"🚪 {who.mention} dropped out of **{after.league.name}** (by {ctx.actor.mention}); their games"
             " without a result are forfeits.", *play.progress(after.league)]
    await ctx.reply("\n".join(lines), ephemeral=False, files=play.final_files(after.league))
    await play.end_games(ctx.app, _poster(ctx), after.guild, before.league, after.league, ctx.actor.id,
                         f"{who.name} dropped out of the league")


@command("league report", "Report the result of your league game played elsewhere", NAME,
         Option("opponent", str, "Your opponent (@mention)"),
         Option("result", str, "Your result", choices=reports.REPORT_WORDS))
async def league_report(ctx: Ctx, name: str, opponent: str, result: str) -> None:
    guild = _guild(ctx)
    stored = await store.load(ctx.app.repo, guild, name)
    other = await ctx.user(opponent)
    report = reports.report_result(stored.league, ctx.actor.id, other.id, result, ctx.app.clock.now())
    await store.add_report(ctx.app.repo, guild, report, ctx.app.clock.now())
    where = f"name:{stored.league.name} round:{report.round} board:{report.board}"
    t = int(report.confirm_by.timestamp())
    await ctx.reply(
        f"📨 {ctx.actor.mention} reports a **{result}** against {other.mention} in **{stored.league.name}**"
        f" round {report.round} ({report.result.value}). {other.mention}: confirm it, or dispute it and the"
        f" moderators decide. Without an answer it is confirmed <t:{t}:R>.", ephemeral=False,
        mentions=[other.id],
        buttons=[Button(reports.CONFIRM_LABEL, f"/league confirm {where}", "success"),
                 Button("Dispute", f"/league dispute {where}", "danger")])


async def _answer(ctx: Ctx, name: str, round: int, board: int) -> tuple[store.Stored, reports.Report, int]:
    guild = _guild(ctx)
    stored = await store.load(ctx.app.repo, guild, name)
    found = await store.pending_report(ctx.app.repo, guild, stored.league.name, round, board)
    if found is None:
        raise LeagueRuleError("There is no report of that game waiting for an answer.",
                              legal=(f"/league pairings name:{stored.league.name} round:{round}",))
    report, version = found
    reports.check_answer(report, ctx.actor.id)
    return stored, report, version


@command("league confirm", "Confirm a result your opponent reported", NAME,
         Option("round", int, "Round", min_value=1, max_value=100),
         Option("board", int, "Board", min_value=1, max_value=500))
async def league_confirm(ctx: Ctx, name: str, round: int, board: int) -> None:
    stored, report, version = await _answer(ctx, name, round, board)
    reports.confirm_report(stored.league, report, by=ctx.actor.id)  # checks it can be recorded
    if not await store.close_report(ctx.app.repo, stored.guild, report, version, "confirmed", ctx.app.clock.now()):
        raise LeagueRuleError("That report was answered already.")
    await ctx.reply(f"✅ {ctx.actor.mention} confirmed the result.", ephemeral=False)
    await play.record(ctx.app, _poster(ctx), stored.guild, stored.league.name, report.round, report.board,
                      report.result, "report")


@command("league dispute", "Dispute a result your opponent reported (the moderators decide)", NAME,
         Option("round", int, "Round", min_value=1, max_value=100),
         Option("board", int, "Board", min_value=1, max_value=500))
async def league_dispute(ctx: Ctx, name: str, round: int, board: int) -> None:
    stored, report, version = await _answer(ctx, name, round, board)
    if not await store.close_report(ctx.app.repo, stored.guild, report, version, "disputed", ctx.app.clock.now()):
        raise LeagueRuleError("That report was answered already.")
    mods = play.moderators(stored.league)
    await ctx.reply(f"⚠️ {ctx.actor.mention} disputes the reported result of {stored.league.name} round {round}"
                    f" board {board}. {play.mention_all(mods)}: decide with /league result"
                    f" name:{stored.league.name} round:{round} board:{board} result:…", ephemeral=False,
                    mentions=mods)


# -- looking ------------------------------------------------------------------------------

@command("league standings", "The league's standings (table image and text)", NAME, defer=True)
async def league_standings(ctx: Ctx, name: str) -> None:
    stored = await store.load(ctx.app.repo, _guild(ctx), name)
    image = standings_image(stored.league).png()
    await ctx.reply(f"```\n{standings_text(stored.league)}\n```", ephemeral=False,
                    files=[Attachment("standings.png", image)])


@command("league pairings", "A round's pairings and results (the current round by default)", NAME,
         Option("round", int, "Round", required=False, min_value=1, max_value=100))
async def league_pairings(ctx: Ctx, name: str, round: int | None) -> None:
    stored = await store.load(ctx.app.repo, _guild(ctx), name)
    lines = [pairings_text(stored.league, round)]
    rnd = stored.league.round(round) if round is not None else stored.league.current
    if rnd is not None:
        for p in rnd.pairings:
            found = await store.match(ctx.app.repo, stored.guild, stored.league.name, rnd.number, p.board)
            if found:
                lines.append(f"Board {p.board}: <#{found['thread']}>")
    await ctx.reply("\n".join(lines), ephemeral=False)


@command("league history", "A player's games in a league", NAME,
         Option("user", str, "The player (@mention)", required=False))
async def league_history(ctx: Ctx, name: str, user: str | None) -> None:
    stored = await store.load(ctx.app.repo, _guild(ctx), name)
    who = await ctx.user(user) if user else ctx.actor
    await ctx.reply(history_text(stored.league, who.id), ephemeral=False)


@command("league export", "Every result as a CSV file", NAME)
async def league_export(ctx: Ctx, name: str) -> None:
    stored = await store.load(ctx.app.repo, _guild(ctx), name)
    slug = re.sub(r"[^\w.-]+", "-", stored.league.name.lower())
    await ctx.reply(f"Results of **{stored.league.name}**:", ephemeral=False,
                    files=[Attachment(f"{slug}-results.csv", results_csv(stored.league).encode())])


@command("league list", "This server's leagues")
async def league_list(ctx: Ctx) -> None:
    leagues = await store.all_leagues(ctx.app.repo, _guild(ctx))
    if not leagues:
        await ctx.reply("This server has no league yet: /league create name:… game:… format:swiss",
                        ephemeral=True)
        return
    lines = [f"• **{s.league.name}** ({s.league.kind}, {s.league.format.value}): {s.league.status.value},"
             f" {len(s.league.players)} players, <#{s.channel}>" for s in leagues]
    await ctx.reply("\n".join(lines), ephemeral=False)


@command("league moderator", "Add or remove a league moderator (league moderators)", NAME,
         Option("user", str, "The user (@mention)"),
         Option("remove", bool, "Remove instead of add", required=False, default=False))
async def league_moderator(ctx: Ctx, name: str, user: str, remove: bool) -> None:
    who = await ctx.user(user)
    change = ops.remove_moderator if remove else ops.add_moderator
    _, after = await _update(ctx, name, lambda lg: change(lg, who.id, **_mod(ctx)))
    await ctx.reply(f"{who.mention} is {'no longer' if remove else 'now'} a moderator of"
                    f" **{after.league.name}**.", ephemeral=False)


# -- ratings ------------------------------------------------------------------------------

@command("rating", "A player's rating (OpenSkill: rating ± uncertainty)",
         Option("user", str, "The player (@mention; you by default)", required=False),
         Option("game", str, "The game (every game rated by default)", required=False, autocomplete=_games),
         Option("casual", str, "Rate your casual games too (when both players opted in)", required=False,
                choices=("on", "off")))
async def rating(ctx: Ctx, user: str | None, game: str | None, casual: str | None) -> None:
    guild = _guild(ctx)
    # Check every option before changing anything: one command, all or nothing.
    who = await ctx.user(user) if user else ctx.actor
    kinds = [play.game_kind(game)] if game else await store.rating_kinds(ctx.app.repo, guild)
    if casual is not None:
        await ctx.app.repo.set_user_setting(ctx.actor.id, play.CASUAL_KEY, True if casual == "on" else None)
        await ctx.reply("Your casual games are now rated when your opponent opted in too." if casual == "on"
                        else "Your casual games are no longer rated (league games still are).", ephemeral=True)
        if user is None and game is None:
            return
    lines = []
    for kind in kinds:
        table = await store.ratings(ctx.app.repo, guild, kind)
        r = table.get(who.id)
        if r is not None:
            rank = [pid for pid, _ in leaderboard(table)].index(who.id) + 1
            lines.append(f"{kind}: **{r.text()}** ({r.games} rated game{'s' if r.games != 1 else ''},"
                         f" #{rank} of {len(table)})")
    if not lines:
        none = f"{who.name} has no rated game{' of ' + game if game else ''} on this server yet."
        if casual is not None:  # the opt-in above was done: this is news, not a refusal
            await ctx.reply(none, ephemeral=True)
            return
        raise IllegalOrder(none)
    await ctx.reply(f"Rating of {who.mention}:\n" + "\n".join(lines), ephemeral=False)


@command("leaderboard", "The server's best rated players of a game",
         Option("game", str, "The game, e.g. minis", autocomplete=_games))
async def leaderboard_command(ctx: Ctx, game: str) -> None:
    guild = _guild(ctx)
    kind = play.game_kind(game)
    table = await store.ratings(ctx.app.repo, guild, kind)
    if not table:
        raise IllegalOrder(f"Nobody has a rated {kind} game on this server yet.")
    names = await ctx.app.repo.player_names()
    lines = [f"{i}. {names.get(pid, str(pid))}: {r.text()} ({r.games})"
             for i, (pid, r) in enumerate(leaderboard(table)[:20], 1)]
    await ctx.reply(f"🏅 {kind} leaderboard (rating ± uncertainty, by rating − 3 × uncertainty):\n"
                    + "\n".join(lines), ephemeral=False)
