"""The local channel: the very same command handlers as Discord, in a terminal or from
a script file, with images written to a folder.

A script line looks the way Discord shows a used slash command::

    alice: /roll dice:11d6>=4
    bob: /minis move unit:ax3 to:F7 path:"E6 F6"

``NAME`` is the acting user.  ``#`` starts a comment.  Directives (local and test use
only, never reachable from Discord):

- ``!dice 6 6 5 1`` — the next dice rolled, anywhere, give these results;
- ``!wait 2d`` — move the clock forward (reminders and timeouts fire);
- ``!channel #name`` — later lines act in that channel (e.g. a league thread);
- ``!moderator NAME`` — NAME may use moderator commands (undo, abort, replace);
- ``!dms NAME closed`` / ``!dms NAME open`` — NAME's direct messages are closed (or open);
- ``NAME: !press N`` — NAME presses button N of the last message that had buttons, or
  ``NAME: !press LABEL`` the newest button with that label NAME can see;
- ``NAME: !complete /command option:partial`` — show autocomplete choices;
- ``!expect TEXT`` / ``!expect-not TEXT`` — the output of the previous line must (not)
  contain TEXT; a script with a failed expectation exits non-zero.

Public replies print as ``[#channel] …``, ephemeral ones as ``[to NAME] …``.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.app import App, dispatch
from bot.clock import ManualClock, parse_duration
from bot.command_line import parse_command, tokenize
from bot.commands.base import find
from bot.context import Actor, Button, Ctx, Message
from engine.core.errors import PlayerError

DEFAULT_CHANNEL = "table"
DEFAULT_USER = "you"


def stable_id(kind: str, name: str) -> int:
    """A stable snowflake-sized id for a local user or channel name."""
    digest = hashlib.sha256(f"{kind}:{name.lower()}".encode()).digest()
    return 10**17 + int.from_bytes(digest[:6], "big")


@dataclass
class LocalChannel:
    """Prints replies; writes images to ``out_dir`` with sequential names."""

    out: TextIO
    out_dir: Path
    names: dict[int, str] = field(default_factory=dict)  # channel id -> name
    users: dict[int, str] = field(default_factory=dict)  # user id -> name
    current_user: str = DEFAULT_USER
    image_count: int = 0
    last_buttons: tuple[Button, ...] = ()
    # Every message with buttons, newest last: (who may see it, or None for everyone, buttons).
    button_history: list[tuple[str | None, tuple[Button, ...]]] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)  # output since the last line
    current_channel: int = 0
    closed_dms: set[str] = field(default_factory=set)  # users whose direct messages are closed

    def _print(self, prefix: str, text: str) -> None:
        lines = text.splitlines() or [""]
        pad = " " * (len(prefix) + 1)
        block = "\n".join([f"{prefix} {lines[0]}", *(pad + line for line in lines[1:])])
        self.out.write(block + "\n")
        self.out.flush()
        self.transcript.append(block)

    def _emit(self, prefix: str, message: Message) -> None:
        self._print(prefix, re.sub(r"<@!?(\d+)>", self._mention, message.text))
        for attachment in message.files:
            self.image_count += 1
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / f"{self.image_count:04d}-{attachment.filename}"
            path.write_bytes(attachment.data)
            self._print(prefix, f"[image] {path}")
        if message.buttons:
            self.last_buttons = message.buttons
            private = prefix.startswith("[to ") or prefix.startswith("[dm to ")
            who = prefix.split(" ", 2)[-1].rstrip("]") if private else None
            self.button_history.append((who, message.buttons))
            shown = "  ".join(f"[{i}: {b.label}]" for i, b in enumerate(message.buttons, 1))
            self._print(prefix, f"buttons: {shown}")

    def _mention(self, m: "re.Match[str]") -> str:
        name = self.users.get(int(m.group(1)))
        return f"@{name}" if name else m.group(0)

    async def reply(self, message: Message) -> None:
        if message.ephemeral:
            self._emit(f"[to {self.current_user}]", message)
        else:
            self._emit(f"[#{self.names.get(self.current_channel, '?')}]", message)

    async def post(self, channel_id: int, message: Message) -> None:
        self._emit(f"[#{self.names.get(channel_id, channel_id)}]", message)

    async def dm(self, user_id: int, message: Message) -> bool:
        """A direct message prints as ``[dm to NAME]``; a user whose DMs a script closed
        (``!dms NAME closed``) gets none."""
        name = self.users.get(user_id, str(user_id))
        if name.lower() in self.closed_dms:
            return False
        self._emit(f"[dm to {name}]", message)
        return True

    async def create_thread(self, channel_id: int, name: str) -> int:
        """A thread is a channel of its own, named after the thread (``!channel #NAME``
        acts in it)."""
        slug = re.sub(r"[^\w.-]+", "-", name.strip().lower()).strip("-")[:60] or "thread"
        cid = stable_id("channel", slug)
        self.names[cid] = slug
        self._emit(f"[#{self.names.get(channel_id, channel_id)}]", Message(f"🧵 new thread #{slug}: {name}"))
        return cid

    def resolve_user(self, text: str) -> Actor | None:
        """``@bob`` or ``bob`` → the local user bob.  Anything else (a Discord-style
        mention ``<@123>``) is left to :meth:`bot.context.Ctx.user`."""
        name = text.strip().lstrip("@")
        if not re.fullmatch(r"[\w.-]{1,32}", name):
            return None
        uid = stable_id("user", name)
        self.users[uid] = name
        return Actor(uid, name)


class LocalSession:
    """Runs script lines (or typed lines) against an :class:`App`."""

    def __init__(self, app: App, channel: LocalChannel, *, guild_id: int = 1) -> None:
        self.app = app
        self.channel = channel
        self.guild_id = guild_id
        self.moderators: set[str] = set()
        self.failures: list[str] = []
        self.use_channel(DEFAULT_CHANNEL)
        app.poster = channel

    def use_channel(self, name: str) -> None:
        name = name.lstrip("#") or DEFAULT_CHANNEL
        cid = stable_id("channel", name)
        self.channel.names[cid] = name
        self.channel.current_channel = cid

    def actor(self, name: str) -> Actor:
        uid = stable_id("user", name)
        self.channel.users[uid] = name
        mod = name.lower() in self.moderators
        return Actor(uid, name, is_moderator=mod, is_admin=mod)

    async def run_line(self, raw: str, lineno: int = 0) -> None:
        line = raw.strip()
        if not line or line.startswith("#"):
            return
        where = f"line {lineno}: " if lineno else ""
        if line.startswith("!expect"):
            self._check_expectation(line, where)
            return
        self.channel.transcript = []
        name, body = DEFAULT_USER, line
        m = re.match(r"^([^\s:/!][^:]*?):\s*(.*)$", line)
        if m and (m.group(2).startswith("/") or m.group(2).startswith("!")):
            name, body = m.group(1).strip(), m.group(2).strip()
        if body.startswith("!"):
            await self._directive(name, body, where)
            return
        await self.command(name, body)

    async def command(self, name: str, text: str) -> Ctx | None:
        self.channel.current_user = name
        try:
            path, options = parse_command(text)
        except PlayerError as err:
            await self.channel.reply(Message(f"⚠️ {err.text()}", ephemeral=True))
            return None
        return await dispatch(
            self.app,
            actor=self.actor(name),
            channel=self.channel,
            channel_id=self.channel.current_channel,
            guild_id=self.guild_id,
            path=path,
            options=options,
        )

    async def _directive(self, name: str, body: str, where: str) -> None:
        word, _, rest = body.partition(" ")
        rest = rest.strip()
        if word == "!dice":
            try:
                values = [int(v) for v in rest.replace(",", " ").split()]
            except ValueError:
                values = []
            if not values or min(values) < 1:
                self._fail(f"{where}!dice needs whole numbers >= 1, e.g. !dice 6 6 5 1")
                return
            self.app.dice.queue(values)
        elif word == "!wait":
            clock = self.app.clock
            if not isinstance(clock, ManualClock):
                self._fail(f"{where}!wait only works in a script (the clock is real here)")
                return
            try:
                clock.advance(parse_duration(rest))
            except PlayerError as err:
                self._fail(f"{where}{err.text()}")
                return
            from bot.scheduler import tick

            await tick(self.app, self.channel)
        elif word == "!channel":
            self.use_channel(rest)
        elif word == "!moderator":
            self.moderators.add(rest.lower())
        elif word == "!dms":
            who, _, state = rest.partition(" ")
            if state.strip() not in ("open", "closed") or not who:
                self._fail(f"{where}!dms needs a name and open or closed, e.g. !dms bob closed")
                return
            (self.channel.closed_dms.add if state.strip() == "closed" else self.channel.closed_dms.discard)(
                who.lower())
        elif word == "!press":
            await self._press(name, rest, where)
        elif word == "!complete":
            await self._complete(name, rest, where)
        else:
            self._fail(f"{where}unknown directive {word}")

    async def _press(self, name: str, which: str, where: str) -> None:
        buttons = self.channel.last_buttons
        chosen: Button | None = None
        if which.isdigit() and 1 <= int(which) <= len(buttons):
            chosen = buttons[int(which) - 1]
        else:  # by label: the newest button of that label that NAME can see
            for who, group in reversed(self.channel.button_history):
                if who is None or who.lower() == name.lower():
                    chosen = next((b for b in group if b.label.lower() == which.lower()), None)
                    if chosen is not None:
                        break
        if chosen is None:
            self._fail(f"{where}no button '{which}' (buttons: {[b.label for b in buttons]})")
            return
        await self.command(name, chosen.command)

    async def _complete(self, name: str, text: str, where: str) -> None:
        self.channel.current_user = name
        try:
            tokens = tokenize(text)
            opt_name = tokens[-1].partition(":")[0] if tokens else ""
            path, options = parse_command(text)
            option = find(path).option(opt_name)
            partial = options.pop(opt_name, "")
        except PlayerError as err:
            await self.channel.reply(Message(f"⚠️ {err.text()}", ephemeral=True))
            return
        if option.autocomplete is None:
            shown = ", ".join(option.choices) if option.choices else "(free text)"
        else:
            ctx = Ctx(self.app, self.actor(name), self.channel.current_channel, self.guild_id,
                      self.channel)
            choices = await option.autocomplete(ctx, partial, options)
            shown = ", ".join(f"{label} = {value}" if label != value else value
                              for label, value in choices) or "(no suggestions)"
        await self.channel.reply(Message(f"choices for {opt_name}: {shown}", ephemeral=True))

    def _check_expectation(self, line: str, where: str) -> None:
        word, _, text = line.partition(" ")
        text = text.strip().strip('"')
        seen = "\n".join(self.channel.transcript)
        found = text.lower() in seen.lower()
        if word == "!expect" and not found:
            self._fail(f"{where}expected output containing {text!r}")
        elif word == "!expect-not" and found:
            self._fail(f"{where}expected no output containing {text!r}")
        elif word not in ("!expect", "!expect-not"):
            self._fail(f"{where}unknown directive {word}")

    def _fail(self, message: str) -> None:
        self.failures.append(message)
        self.channel.out.write(f"!! {message}\n")
        self.channel.out.flush()

    @property
    def ok(self) -> bool:
        return not self.failures and not self.app.bugs


async def run_script(
    script: str,
    *,
    database: str | Path,
    out_dir: Path,
    seed: int | None = None,
    out: TextIO | None = None,
) -> int:
    """Run a whole script; 0 if every line ran without a bug or failed expectation."""
    app = await App.start(database, seed=seed, clock=ManualClock(), local=True)
    try:
        session = LocalSession(app, LocalChannel(out or sys.stdout, out_dir))
        session.channel.users.update(await app.repo.player_names())
        for lineno, line in enumerate(script.splitlines(), 1):
            await session.run_line(line, lineno)
        return 0 if session.ok else 1
    finally:
        await app.close()


async def run_interactive(
    *, database: str | Path, out_dir: Path, seed: int | None = None,
    stdin: TextIO | None = None, out: TextIO | None = None,
) -> int:
    """A local channel in the terminal: type ``/roll dice:2d6`` (or ``NAME: /…``)."""
    app = await App.start(database, seed=seed, local=True)
    source = stdin or sys.stdin
    sink = out or sys.stdout
    try:
        session = LocalSession(app, LocalChannel(sink, out_dir))
        session.channel.users.update(await app.repo.player_names())
        interactive = source.isatty()
        while True:
            if interactive:
                sink.write("> ")
                sink.flush()
            line = await asyncio.to_thread(source.readline)
            if not line:
                break
            if line.strip() in ("/quit", "/exit"):
                break
            await session.run_line(line)
        return 0
    finally:
        await app.close()

