"""What a command handler sees: who asks, where, and how to answer.

The *channel* is the small interface of design.md with two implementations — Discord
(:mod:`bot.discord_app`) and local (:mod:`bot.local`).  Handlers never know which one
they talk to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, Sequence

if TYPE_CHECKING:
    from bot.app import App


_MENTION = re.compile(r"^\s*<@!?(\d{5,20})>\s*$")


@dataclass(frozen=True)
class Actor:
    """The user issuing a command."""

    id: int
    name: str
    # Manage Channels in that channel, or a moderator role configured for the server.
    is_moderator: bool = False
    role_ids: tuple[int, ...] = ()
    # Manage Server: may change the server's Warroom settings.
    is_admin: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True)
class Attachment:
    """A file to post (map images, charts), or a file a player attached (``data`` left
    empty and only ``size`` given when it is too large to read at all)."""

    filename: str
    data: bytes
    size: int = 0


@dataclass(frozen=True)
class Button:
    """A button that, when pressed, runs ``command`` (a command line such as
    ``/minis fire unit:G3 at:entering``) as the person who pressed it."""

    label: str
    command: str
    style: str = "secondary"  # primary | secondary | success | danger


@dataclass(frozen=True)
class Message:
    text: str
    ephemeral: bool = False
    files: tuple[Attachment, ...] = ()
    buttons: tuple[Button, ...] = ()
    # Users this message pings (their mentions appear in text).
    mentions: tuple[int, ...] = ()


class Channel(Protocol):
    """Where replies go.  ``reply`` answers the current command (ephemeral allowed);
    ``post`` writes a public message to a channel (notifications, reminders); ``dm``
    sends a direct message to a player and says whether it could (closed DMs: False);
    ``create_thread`` opens a public thread in a channel (league matches) and returns its
    id."""

    async def reply(self, message: Message) -> None: ...

    async def post(self, channel_id: int, message: Message) -> None: ...

    async def dm(self, user_id: int, message: Message) -> bool: ...

    async def create_thread(self, channel_id: int, name: str) -> int: ...


MESSAGE_LIMIT = 1900  # Discord refuses messages over 2,000 characters


def refusal_text(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A refusal is one message: a long word a player typed (a pasted document, a
    run of brackets) is echoed by its start only, and the whole is cut to one message."""
    text = re.sub(r"\S{81,}", lambda m: m.group(0)[:40] + "…", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split a long text into messages at line breaks (or hard, for an endless line)."""
    if len(text) <= limit:
        return [text]
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        trial = f"{current}\n{line}" if current else line
        if len(trial) > limit:
            parts.append(current)
            current = line
        else:
            current = trial
    if current:
        parts.append(current)
    return parts


@dataclass
class Ctx:
    """One command invocation."""

    app: "App"
    actor: Actor
    channel_id: int
    guild_id: int | None
    channel: Channel
    # The command's default visibility (from its declaration).
    default_ephemeral: bool = False
    replies: list[Message] = field(default_factory=list)

    async def reply(
        self,
        text: str,
        *,
        ephemeral: bool | None = None,
        files: Sequence[Attachment] = (),
        buttons: Sequence[Button] = (),
        mentions: Sequence[int] = (),
    ) -> None:
        private = self.default_ephemeral if ephemeral is None else ephemeral
        chunks = split_text(text)
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            msg = Message(chunk, private, tuple(files) if last else (),
                          tuple(buttons) if last else (), tuple(mentions))
            self.replies.append(msg)
            await self.channel.reply(msg)

    async def user(self, text: str) -> Actor:
        """Another user named in an option: a mention ``<@123>`` (Discord), or a name
        the local channel knows."""
        resolve = getattr(self.channel, "resolve_user", None)
        if resolve is not None:
            found = resolve(text)
            if found is not None:
                return found  # type: ignore[no-any-return]
        m = _MENTION.match(text)
        if m is None:
            from engine.core.errors import NotationError

            raise NotationError(f"'{text}' is not a user.", legal=("@someone",))
        uid = int(m.group(1))
        name = await self.app.repo.player_name(uid)
        return Actor(uid, name or f"user {uid}")

    async def post(
        self,
        text: str,
        *,
        files: Sequence[Attachment] = (),
        buttons: Sequence[Button] = (),
        mentions: Sequence[int] = (),
    ) -> None:
        """A public message in this channel, separate from the reply (e.g. a ping)."""
        chunks = split_text(text)
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            await self.channel.post(self.channel_id, Message(
                chunk, False, tuple(files) if last else (), tuple(buttons) if last else (),
                tuple(mentions)))
