"""Drive the real discord.py machinery without a network (stack-notes.md).

Interactions are real ``discord.Interaction`` objects built from INTERACTION_CREATE
payloads on the bot's own ConnectionState and run through its CommandTree; every
interaction response, defer, follow-up and edit passes through
``AsyncWebhookAdapter.request``, which we replace with a recorder that answers the way
Discord's API would.  Posting to a channel without an interaction goes through
``HTTPClient.request``, recorded the same way.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

APP_ID = 424242424242424242
GUILD_ID = 777000000000000001
CHANNEL_ID = 555000000000000001
_ids = itertools.count(900000000000000001)

OPTION_TYPES = {str: 3, int: 4, bool: 5, float: 10}


@dataclass
class Call:
    method: str
    path: str
    payload: dict[str, Any]
    files: list[tuple[str, bytes]]

    @property
    def kind(self) -> str:
        if self.path.endswith("/callback"):
            return {4: "message", 5: "defer", 6: "defer-update", 7: "update", 8: "autocomplete"}.get(
                self.payload.get("type", 0), "callback")
        if self.method == "DELETE":
            return "delete-original"
        if self.method == "PATCH":
            return "edit"
        return "followup" if self.path.startswith("/webhooks") else "channel-message"

    @property
    def data(self) -> dict[str, Any]:
        """The message body: inside ``data`` for callbacks, the payload itself otherwise."""
        return self.payload.get("data", self.payload) if self.path.endswith("/callback") else self.payload

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags", 0) or 0) & 64)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.data.get("components", []) for c in row.get("components", [])]


def _message(channel_id: int, content: str = "") -> dict[str, Any]:
    return {
        "id": str(next(_ids)), "channel_id": str(channel_id), "type": 0, "content": content,
        "author": {"id": str(APP_ID), "username": "warroom", "discriminator": "0", "avatar": None,
                   "bot": True},
        "attachments": [], "embeds": [], "mentions": [], "mention_roles": [], "pinned": False,
        "mention_everyone": False, "tts": False, "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None, "flags": 0, "components": [],
    }


def _unpack(payload: Any, multipart: Any, files: Any) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
    body: dict[str, Any] = dict(payload or {})
    got: list[tuple[str, bytes]] = []
    for part in multipart or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
    for f in files or []:
        fp = f.fp
        pos = fp.tell()
        fp.seek(0)
        got.append((f.filename, fp.read()))
        fp.seek(pos)
    return body, got


@dataclass
class Recorder:
    calls: list[Call] = field(default_factory=list)

    async def webhook_request(self, adapter: Any, route: Any, session: Any, *, payload: Any = None,
                              multipart: Any = None, files: Any = None, **_: Any) -> Any:
        body, got = _unpack(payload, multipart, files)
        call = Call(route.method, route.path, body, got)
        self.calls.append(call)
        if route.path.endswith("/callback"):
            return {"interaction": {"id": str(route.webhook_id), "type": 2,
                                    "response_message_id": str(next(_ids)),
                                    "response_message_loading": body.get("type") == 5,
                                    "response_message_ephemeral": call.ephemeral}}
        if route.method == "DELETE":
            return None
        return _message(CHANNEL_ID, call.content)

    async def http_request(self, http: Any, route: Any, *, files: Any = None, form: Any = None,
                           **kwargs: Any) -> Any:
        body, got = _unpack(kwargs.get("json"), form, files)
        self.calls.append(Call(route.method, route.path, body, got))
        if route.method == "GET" and "/channels/" in route.path:
            return {"id": str(route.channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": "table",
                    "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None}
        return _message(CHANNEL_ID, body.get("content", ""))

    def install(self, monkeypatch: Any) -> None:
        recorder = self

        async def webhook(adapter: Any, route: Any, session: Any, **kw: Any) -> Any:
            return await recorder.webhook_request(adapter, route, session, **kw)

        async def http(client: Any, route: Any, **kw: Any) -> Any:
            return await recorder.http_request(client, route, **kw)

        monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook)
        monkeypatch.setattr(discord.http.HTTPClient, "request", http)

    async def wait_for(self, count: int, timeout: float = 10.0) -> list[Call]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while len(self.calls) < count:
            if loop.time() > end:
                raise AssertionError(f"expected {count} calls, got {self.calls}")
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # let the handler finish anything else it sends
        return self.calls


def member(user_id: int, name: str, *, permissions: int = 0, roles: tuple[int, ...] = ()) -> dict[str, Any]:
    return {
        "user": {"id": str(user_id), "username": name.lower(), "global_name": name,
                 "discriminator": "0", "avatar": None},
        "roles": [str(r) for r in roles], "permissions": str(permissions), "joined_at":
        "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0, "nick": None,
    }


def option(name: str, value: Any, *, focused: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "type": OPTION_TYPES[type(value)], "value": value}
    if focused:
        out["focused"] = True
    return out


def _base(kind: int, user: dict[str, Any], data: dict[str, Any], channel_id: int) -> dict[str, Any]:
    return {
        "id": str(next(_ids)), "application_id": str(APP_ID), "type": kind, "token": f"tok{next(_ids)}",
        "version": 1, "guild_id": str(GUILD_ID), "channel_id": str(channel_id),
        "channel": {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": "table",
                    "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None},
        "member": user, "data": data, "locale": "en-US", "guild_locale": "en-US",
        "app_permissions": str((1 << 41) - 1), "entitlements": [], "authorizing_integration_owners": {},
        "context": 0, "attachment_size_limit": 10 * 1024 * 1024,
    }


def slash(path: str, options: list[dict[str, Any]], user: dict[str, Any],
          *, channel_id: int = CHANNEL_ID, autocomplete: bool = False) -> dict[str, Any]:
    words = path.split()
    opts = options
    if len(words) == 2:
        opts = [{"name": words[1], "type": 1, "options": options}]
    elif len(words) == 3:  # a command in a subcommand group
        opts = [{"name": words[1], "type": 2, "options": [{"name": words[2], "type": 1, "options": options}]}]
    data = {"id": str(next(_ids)), "name": words[0], "type": 1, "options": opts}
    return _base(4 if autocomplete else 2, user, data, channel_id)


def button(custom_id: str, user: dict[str, Any], *, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    payload = _base(3, user, {"custom_id": custom_id, "component_type": 2}, channel_id)
    payload["message"] = _message(channel_id, "a prompt")
    return payload


def png_files(call: Call) -> list[bytes]:
    return [data for name, data in call.files if data[:8] == b"\x89PNG\r\n\x1a\n"]


def as_file(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


async def start_offline(client: discord.Client) -> None:
    """What login + READY would set up, without a network: the loop, the bot's own user."""
    await client._async_setup_hook()
    state = client._connection
    state.user = discord.ClientUser(state=state, data={  # type: ignore[typeddict-item]
        "id": str(APP_ID), "username": "warroom", "discriminator": "0", "avatar": None,
        "bot": True, "global_name": "Warroom", "mfa_enabled": False, "verified": True,
    })
    state.application_id = APP_ID


def dispatch(client: discord.Client, payload: dict[str, Any]) -> None:
    """Deliver an INTERACTION_CREATE payload (from :func:`slash` or :func:`button`)."""
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]


async def play_script(app: Any, script: str, files: Any) -> str:
    """Play local-channel script lines on ``app`` in the Discord test channel
    (:data:`CHANNEL_ID`), as the same users; the transcript (each line must succeed)."""
    from bot.local import LocalChannel, LocalSession

    out = io.StringIO()
    session = LocalSession(app, LocalChannel(out, files))
    session.channel.names[CHANNEL_ID] = "table"
    session.channel.current_channel = CHANNEL_ID
    for line in script.splitlines():
        await session.run_line(line)
    assert session.ok, out.getvalue()
    return out.getvalue()
