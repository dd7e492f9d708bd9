"""The Discord adapter: the command registry as application (slash) commands.

This is the only module that imports discord.py.  Each registered command becomes a slash
command (two-word commands live in a group, ``/minis move``; three-word ones in a
subcommand group, ``/minis defend fire``), built with discord.py's public API only; an
interaction is turned into the same :func:`bot.app.dispatch` call the local channel makes.
Buttons carry a command line in their ``custom_id`` (``wr:/minis defend fire unit:al2
at:entering``) and run it as whoever pressed them.  Commands (and the buttons that stand
for them) that may take longer than Discord's three-second limit are deferred first; any
other command that has not answered after :data:`DEFER_AFTER_S` is deferred then (a
safety net: Discord drops an interaction not answered within three seconds).

Several processes share the work through Discord's sharding: ``warroom run --shards 0,1
--shard-count 4`` runs shards 0 and 1 of 4 in this process (:class:`ShardedWarroomBot`,
discord.py's ``AutoShardedClient``); each process's scheduler ticks the games of its own
shards' guilds, and claims each action in the database (bot/scheduler.py).
"""

from __future__ import annotations

import asyncio
import inspect
import io
import keyword
import logging
import sys
from typing import Any, Literal, Optional

import aiohttp
import discord
from discord import app_commands
from makefun import create_function

from bot.app import App, dispatch
from bot.command_line import parse_command
from bot.commands.base import MAX_FILE_BYTES, REGISTRY, Command, Option
from bot.config import Config
from bot.context import Actor, Attachment, Ctx, Message
from bot.memory import settle_heap
from bot.scheduler import tick
from bot.storage.repository import GameRecord

log = logging.getLogger("warroom.discord")

BUTTON_PREFIX = "wr:"
CUSTOM_ID_MAX = 100
SCHEDULER_PERIOD_S = 60.0
DEFER_AFTER_S = 1.5  # answer "thinking…" if the command has not replied by then
MAX_CHOICES = 25


def _warmed(task: "asyncio.Task[None]") -> None:
    """The odds kernels compiled ahead (odds.warm), or why not: the first battle that
    needs them then compiles them itself.  Start-up is done then: what it built is
    kept out of the cycle collector's full collections from now on (settle_heap)."""
    if task.cancelled():
        return
    if task.exception() is not None:
        log.warning("odds kernels not compiled ahead", exc_info=task.exception())
    settle_heap()


# --------------------------------------------------------------------------- building


def _annotation(opt: Option) -> Any:
    kind: Any = opt.kind
    if opt.kind is Attachment:
        kind = discord.Attachment
    elif opt.choices and len(opt.choices) <= MAX_CHOICES:
        kind = Literal[opt.choices]  # discord.py turns a Literal into fixed choices
    elif opt.kind in (int, float) and (opt.min_value is not None or opt.max_value is not None):
        kind = app_commands.Range[opt.kind, opt.min_value, opt.max_value]
    return kind if opt.required else Optional[kind]


async def _file_value(value: Any) -> Any:
    """An attached file becomes our :class:`Attachment` (its bytes, unless it is larger
    than any option accepts: then just its size, and the option refuses it)."""
    if not isinstance(value, discord.Attachment):
        return value
    if value.size > MAX_FILE_BYTES:
        return Attachment(value.filename, b"", value.size)
    return Attachment(value.filename, await value.read())


def _py_name(option: str) -> str:
    """A Python parameter name for an option (``from`` → ``from_``); Discord still shows
    the option's own name (``app_commands.rename``)."""
    return option + "_" if keyword.iskeyword(option) else option


def _make_callback(bot: "WarroomBot", command: Command) -> Any:
    """A real function with one typed parameter per option (built by makefun from the
    registry's declaration), decorated with discord.py's public ``describe``/``rename``:
    discord.py reads the options from it like from a hand-written command."""
    names = {_py_name(o.name): o.name for o in command.options}
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    for opt in sorted(command.options, key=lambda o: not o.required):
        params.append(inspect.Parameter(
            _py_name(opt.name), inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(opt),
            default=inspect.Parameter.empty if opt.required else None))

    async def run(interaction: discord.Interaction, **values: Any) -> None:
        given = {names[k]: await _file_value(v) for k, v in values.items() if v is not None}
        await bot.run_command(interaction, command, given)

    callback = create_function(inspect.Signature(params), run,
                               func_name="callback_" + "_".join(p.replace("-", "_") for p in command.path))
    if command.options:
        callback = app_commands.describe(
            **{_py_name(o.name): o.description[:100] for o in command.options})(callback)
    renamed = {py: name for py, name in names.items() if py != name}
    return app_commands.rename(**renamed)(callback) if renamed else callback


def _autocompleter(bot: "WarroomBot", opt: Option) -> Any:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        assert opt.autocomplete is not None
        ctx = Ctx(bot.app, await bot.actor(interaction), interaction.channel_id or 0,
                  interaction.guild_id, _NoReplies())
        try:
            others = {k: v for k, v in vars(interaction.namespace).items() if k != opt.name}
            found = await opt.autocomplete(ctx, current, others)
        except Exception:
            log.exception("autocomplete failed for %s", opt.name)
            return []
        return [app_commands.Choice(name=label[:100], value=value[:100])
                for label, value in found[:MAX_CHOICES]]

    return complete


def build_tree(bot: "WarroomBot", tree: app_commands.CommandTree[Any]) -> None:
    """Every registered command as an application command: one word a command, two words
    a command in a group (``/minis move``), three words a command in a subcommand group
    (``/minis defend fire``) — Discord's three levels, each with at most 25 names."""
    groups: dict[tuple[str, ...], app_commands.Group] = {}

    def group(path: tuple[str, ...]) -> app_commands.Group:
        if path not in groups:
            parent = group(path[:-1]) if len(path) > 1 else None
            groups[path] = app_commands.Group(name=path[-1], description=_group_description(path),
                                              parent=parent)
            if parent is None:
                tree.add_command(groups[path])
        return groups[path]

    for command in sorted(REGISTRY.values(), key=lambda c: c.path):
        parent = group(command.path[:-1]) if len(command.path) > 1 else None
        slash: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=command.path[-1],
            description=command.description[:100],
            callback=_make_callback(bot, command),
            parent=parent,
        )
        for opt in command.options:
            if opt.autocomplete is not None:
                slash.autocomplete(_py_name(opt.name))(_autocompleter(bot, opt))
        if parent is None:
            tree.add_command(slash)
        else:
            parent.add_command(slash)


GROUP_DESCRIPTIONS = {
    "odds": "Exact odds: A&A battles, Miniatures attacks, Memoir '44 dice",
    "settings": "Warroom settings: this server's moderators, your direct messages",
    "league": "League play: seasons, pairings, results and standings",
}


def _group_description(path: tuple[str, ...]) -> str:
    from bot.games import fronts

    if len(path) == 1:
        for front in fronts():
            if front.group == path[0]:
                return f"{front.title}: play by post"[:100]
        return GROUP_DESCRIPTIONS.get(path[0], f"/{path[0]} commands")
    return f"/{' '.join(path)} commands"


# --------------------------------------------------------------------------- channels


class _NoReplies:
    async def reply(self, message: Message) -> None:
        return None

    async def post(self, channel_id: int, message: Message) -> None:
        return None

    async def dm(self, user_id: int, message: Message) -> bool:
        return False

    async def create_thread(self, channel_id: int, name: str) -> int:
        raise RuntimeError("autocomplete never creates threads")


def _files(message: Message) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in message.files]


def _mentions(message: Message) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(uid) for uid in message.mentions]
    )


def _view(message: Message) -> discord.ui.View | None:
    if not message.buttons:
        return None
    view = discord.ui.View(timeout=None)
    styles = {"primary": discord.ButtonStyle.primary, "success": discord.ButtonStyle.success,
              "danger": discord.ButtonStyle.danger}
    for button in message.buttons[:25]:
        custom_id = BUTTON_PREFIX + button.command
        if len(custom_id) > CUSTOM_ID_MAX:
            raise ValueError(f"button command too long for Discord: {button.command!r}")
        view.add_item(discord.ui.Button(
            label=button.label[:80], custom_id=custom_id,
            style=styles.get(button.style, discord.ButtonStyle.secondary),
        ))
    return view


class DiscordChannel:
    """Replies through one interaction; posts to channels through the bot."""

    def __init__(self, bot: "WarroomBot", interaction: discord.Interaction,
                 deferred_ephemeral: bool | None = None) -> None:
        self.bot = bot
        self.interaction = interaction
        self.deferred_ephemeral = deferred_ephemeral  # None when not deferred
        self.followups = 0
        self._lock = asyncio.Lock()  # a reply and a late defer never cross

    async def defer_if_unanswered(self, ephemeral: bool) -> None:
        """Acknowledge the interaction now unless a reply was already sent."""
        async with self._lock:
            if self.interaction.response.is_done():
                return
            await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
            self.deferred_ephemeral = ephemeral

    async def reply(self, message: Message) -> None:
        async with self._lock:
            await self._reply(message)

    async def _reply(self, message: Message) -> None:
        interaction = self.interaction
        kwargs: dict[str, Any] = {
            "ephemeral": message.ephemeral,
            "files": _files(message),
            "allowed_mentions": _mentions(message),
        }
        view = _view(message)
        if view is not None:
            kwargs["view"] = view
        if not interaction.response.is_done():
            await interaction.response.send_message(message.text, **kwargs)
            return
        if self.deferred_ephemeral is not None and self.followups == 0 \
                and message.ephemeral != self.deferred_ephemeral:
            # The "thinking…" message has the wrong visibility for this reply: drop it.
            await interaction.delete_original_response()
        self.followups += 1
        await interaction.followup.send(message.text, **kwargs)

    async def post(self, channel_id: int, message: Message) -> None:
        if channel_id == self.interaction.channel_id:
            await self.reply(Message(message.text, False, message.files, message.buttons,
                                     message.mentions))
        else:
            await self.bot.post(channel_id, message)

    async def dm(self, user_id: int, message: Message) -> bool:
        return await _send_dm(self.bot, user_id, message)

    async def create_thread(self, channel_id: int, name: str) -> int:
        return await _create_thread(self.bot, channel_id, name)


async def _create_thread(bot: "WarroomBot", channel_id: int, name: str) -> int:
    channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
    if not isinstance(channel, discord.TextChannel):
        raise RuntimeError(f"channel {channel_id} cannot hold threads")
    thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                         auto_archive_duration=10080)
    return thread.id


async def _send_dm(bot: "WarroomBot", user_id: int, message: Message) -> bool:
    """A direct message; False when the user does not accept them (closed DMs)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        kwargs: dict[str, Any] = {"files": _files(message), "allowed_mentions": _mentions(message)}
        view = _view(message)
        if view is not None:
            kwargs["view"] = view
        await user.send(message.text, **kwargs)
    except (discord.Forbidden, discord.NotFound):
        return False
    return True


class BotPoster:
    """Posts without an interaction (reminders, timeouts)."""

    def __init__(self, bot: "WarroomBot") -> None:
        self.bot = bot

    async def reply(self, message: Message) -> None:
        raise RuntimeError("no interaction to reply to")

    async def post(self, channel_id: int, message: Message) -> None:
        await self.bot.post(channel_id, message)

    async def dm(self, user_id: int, message: Message) -> bool:
        return await _send_dm(self.bot, user_id, message)

    async def create_thread(self, channel_id: int, name: str) -> int:
        return await _create_thread(self.bot, channel_id, name)


# --------------------------------------------------------------------------- the client


class WarroomBot(discord.Client):
    def __init__(self, config: Config, *, app: App | None = None, sync: bool = True,
                 **client_options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         **client_options)
        self.config = config
        self._app = app
        self._sync = sync
        self._scheduler: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None  # the odds kernels compiled ahead (odds.warm)
        self._late_defers: set[asyncio.Task[None]] = set()
        self.tree: app_commands.CommandTree[Any] = app_commands.CommandTree(self)
        from bot.commands import load_all
        from bot.games import load_games

        load_all()
        load_games()
        build_tree(self, self.tree)

    @property
    def app(self) -> App:
        if self._app is None:
            raise RuntimeError("the bot has not started")
        return self._app

    async def setup_hook(self) -> None:
        if self._app is None:
            self._app = await App.start(self.config.database)
        self._app.poster = BotPoster(self)
        if self._sync:
            if self.config.dev_guild_id:
                guild = discord.Object(self.config.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        from bot import render_pool
        from bot.commands import odds

        await render_pool.warm()
        self._warming = asyncio.create_task(asyncio.to_thread(odds.warm))
        self._warming.add_done_callback(_warmed)
        self._scheduler = asyncio.create_task(self._schedule())

    async def close(self) -> None:
        for task in (self._scheduler, self._warming):
            if task:
                task.cancel()
        await super().close()
        if self._app is not None:
            await self._app.close()

    async def _schedule(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await tick(self.app, BotPoster(self), owns=self.owns)
            except Exception:
                log.exception("scheduler tick failed")
            await asyncio.sleep(SCHEDULER_PERIOD_S)

    def owns(self, game: GameRecord) -> bool:
        """Whether this process serves the game's guild (always, when not sharded)."""
        return True

    async def actor(self, interaction: discord.Interaction) -> Actor:
        user = interaction.user
        roles = tuple(r.id for r in getattr(user, "roles", ()) if r is not None)
        perms = interaction.permissions
        moderator = bool(perms.manage_channels)
        if not moderator and interaction.guild_id and roles:
            role = await self.app.repo.guild_setting(interaction.guild_id, "moderator_role")
            moderator = role is not None and role in roles
        return Actor(user.id, user.display_name, moderator, roles, bool(perms.manage_guild))

    async def run_command(
        self, interaction: discord.Interaction, command: Command, options: dict[str, Any]
    ) -> None:
        await self._run(interaction, command, command.path, options)

    async def _run(self, interaction: discord.Interaction, command: Command | None,
                   path: tuple[str, ...], options: dict[str, Any]) -> None:
        """Defer at once when the command may be slow; otherwise answer directly, with a
        late defer if the answer takes longer than :data:`DEFER_AFTER_S`."""
        channel = DiscordChannel(self, interaction)
        ephemeral = command.ephemeral if command is not None else True
        if command is not None and command.defer:
            await channel.defer_if_unanswered(ephemeral)
        watchdog = asyncio.get_running_loop().call_later(
            DEFER_AFTER_S, lambda: self._late_defers.add(
                asyncio.create_task(channel.defer_if_unanswered(ephemeral))))
        try:
            await dispatch(
                self.app,
                actor=await self.actor(interaction),
                channel=channel,
                channel_id=interaction.channel_id or 0,
                guild_id=interaction.guild_id,
                path=path,
                options=options,
            )
        finally:
            watchdog.cancel()
            for task in list(self._late_defers):
                if task.done():
                    self._late_defers.discard(task)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Buttons: run the command line stored in the button as the person pressing it."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(BUTTON_PREFIX):
            return
        path, options = parse_command(custom_id[len(BUTTON_PREFIX):])
        # A button defers like its command.
        await self._run(interaction, REGISTRY.get(path), path, options)

    async def post(self, channel_id: int, message: Message) -> None:
        channel = self.get_channel(channel_id) or await self.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("cannot post to channel %s", channel_id)
            return
        kwargs: dict[str, Any] = {"files": _files(message), "allowed_mentions": _mentions(message)}
        view = _view(message)
        if view is not None:
            kwargs["view"] = view
        await channel.send(message.text, **kwargs)


class ShardedWarroomBot(WarroomBot, discord.AutoShardedClient):
    """The bot running some of the shards of a deployment (``shard_ids`` of
    ``shard_count``); the other shards run in other processes on the same database."""

    def __init__(self, config: Config, *, shard_ids: list[int], shard_count: int,
                 app: App | None = None, sync: bool = True) -> None:
        check_shards(shard_ids, shard_count)
        super().__init__(config, app=app, sync=sync, shard_ids=list(shard_ids), shard_count=shard_count)
        self.served = frozenset(shard_ids)
        self.total_shards = shard_count

    def owns(self, game: GameRecord) -> bool:
        return shard_of(game.guild_id, self.total_shards) in self.served


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's shard for a guild: ``(guild_id >> 22) % shard_count``; direct messages
    (no guild) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def check_shards(shard_ids: list[int], shard_count: int) -> None:
    if shard_count < 1:
        raise ValueError(f"--shard-count must be at least 1, not {shard_count}")
    if not shard_ids:
        raise ValueError("--shards needs at least one shard number, e.g. --shards 0,1")
    wrong = [s for s in shard_ids if not 0 <= s < shard_count]
    if wrong:
        raise ValueError(f"shard {wrong[0]} does not exist: with --shard-count {shard_count} the "
                         f"shards are 0 to {shard_count - 1}")
    if len(set(shard_ids)) != len(shard_ids):
        raise ValueError("--shards lists a shard twice")


def run_discord(config: Config, *, shard_ids: list[int] | None = None,
                shard_count: int | None = None) -> int:
    assert config.discord_token
    from bot import render_pool

    render_pool.configure(render_pool.default_processes())  # maps drawn on every core
    client: WarroomBot
    if shard_ids is not None and shard_count is not None:
        client = ShardedWarroomBot(config, shard_ids=shard_ids, shard_count=shard_count)
    else:
        client = WarroomBot(config)
    try:
        client.run(config.discord_token, log_handler=None)
    except discord.LoginFailure:
        print("warroom run: Discord refused the token; check DISCORD_TOKEN (Developer Portal → Bot → "
              "Reset Token).", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"warroom run: cannot reach Discord ({reason[:160]}); check the network and try again.",
              file=sys.stderr)
        return 1
    return 0
