"""Provably fair dice: commit at creation, players' entropy at join, reveal at the end,
and an export anyone can check (docs/fair-dice.md).

- At creation the game's secret seed (``GameRecord.dice_key``, drawn from the operating
  system) is committed to by its SHA-256, posted in the channel and shown by
  ``/<game> status``.
- Each seat may add entropy when it joins (``/<game> join entropy:…``); only the
  SHA-256 of the text is kept, in the game option ``fair_dice`` (no schema change).
  Every stream but ``setup`` is keyed by the seed mixed with those digests
  (:func:`bot.dice_service.stream_key`).
- When the game ends or is aborted, :func:`reveal` (a game-end listener) posts the seed
  and records the game under its public id in the ``fairdice`` documents, so
  ``/verify game:<id>`` finds it.
- :func:`export` builds the JSON file of ``/<game> log export:true``; bot/verify.py
  checks it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from bot.after_reply import later
from bot.dice_service import FAIR, SEED_ONLY, SETUP, SYSTEM, fair_entropy, new_fair
from bot.games import on_game_end
from bot.storage.repository import GameRecord, OrderRecord, VersionConflict
from engine.core.dice import FAIR_SCHEME, commitment, entropy_digest
from engine.core.errors import IllegalOrder, NotationError
from engine.core.game import Viewer

DOCUMENT = "fairdice"  # documents kind: public game id -> where the game is
EXPORT_FORMAT = "warroom-game-export"
MAX_ENTROPY = 200  # characters


def is_fair(game: GameRecord) -> bool:
    return fair_entropy(game.options) is not None


def scheme(game: GameRecord) -> str:
    return FAIR_SCHEME if is_fair(game) else SEED_ONLY


def game_commitment(game: GameRecord) -> str:
    return commitment(game.dice_key)


def check_entropy(text: str) -> str:
    """A player's contribution, checked: its digest."""
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_ENTROPY:
        raise NotationError(f"Your entropy must be 1 to {MAX_ENTROPY} characters: any phrase or random"
                            " value you choose.", legal=('entropy:"the crows fly at dawn 4471"',))
    return entropy_digest(stripped)


def with_entropy(game: GameRecord, seats: Sequence[str], text: str | None) -> dict[str, Any] | None:
    """The game's options with ``text`` contributed for ``seats`` (None when nothing
    changes).  A seat contributes once, and only before the game starts (the play key is
    fixed when the last seat is taken)."""
    if text is None:
        return None
    digest = check_entropy(text)
    entropy = fair_entropy(game.options)
    if entropy is None:
        raise IllegalOrder("This game was created before players could add entropy to its dice.")
    if game.status != "open":
        raise IllegalOrder("Entropy is added before the game starts (when you join).")
    given = [s for s in seats if s in entropy]
    if given:
        raise IllegalOrder(f"{given[0]} already added its entropy; a contribution cannot be changed.")
    entropy.update({s: digest for s in seats})
    return {**game.options, FAIR: new_fair(entropy)}


def entropy_note(text: str) -> str:
    return f"its SHA-256 `{entropy_digest(text)[:16]}…` is mixed into the dice"


def status_lines(game: GameRecord) -> list[str]:
    """What ``/<game> status`` says about the dice."""
    lines = [f"🎲 Dice commitment: `{game_commitment(game)}`."]
    entropy = fair_entropy(game.options)
    if entropy:
        lines.append("Entropy added by: " + ", ".join(sorted(entropy)) + ".")
    if game.live:
        lines.append("The seed is revealed when the game ends.")
    else:
        lines.append(f"Seed (revealed): `{game.dice_key.hex()}` — check with `/verify game:{game.uid}`.")
    return lines


def opening_line(game: GameRecord, group: str) -> str:
    """What ``/<game> new`` posts about the dice."""
    return (f"🎲 Dice commitment: `{game_commitment(game)}` (SHA-256 of this game's secret seed,"
            f" revealed when it ends). Add your own entropy with `/{group} join entropy:…`.")


# --------------------------------------------------------------------------- export


def stream_of(row: OrderRecord) -> str | None:
    """Which stream a log row's dice came from."""
    if row.kind == "new":
        return SETUP
    if row.kind == "order":
        return row.seat or SETUP
    if row.kind == "timeout":
        return SYSTEM
    return None


def dice_count(rows: Sequence[OrderRecord]) -> int:
    return sum(len(r.dice) for r in rows)


def export(game: GameRecord, rows: Sequence[OrderRecord], *, title: str,
           order_view: Any, viewer: Viewer) -> dict[str, Any]:
    """The game as a JSON document: orders, dice with their sides, the commitment, the
    players' entropy digests, and — once the game is over — the seed.

    While the game is live the export holds what the asker's log shows (orders they may
    not see are left out) and no die values (a die can tell a hidden card); once it is
    over it holds every row and every die."""
    over = not game.live
    orders: list[dict[str, Any]] = []
    for row in rows:
        text: str | None = row.text
        if row.kind == "order":
            text = order_view(row.seat, row.text, viewer)
            if text is None and not over:
                continue
        orders.append({
            "seq": row.seq, "kind": row.kind, "seat": row.seat, "stream": stream_of(row),
            "text": text,
            "dice": [[d.value if over else None, d.sides] for d in row.dice],
        })
    return {
        "format": EXPORT_FORMAT, "version": 1, "scheme": scheme(game),
        "game": {"uid": game.uid, "kind": game.kind, "title": title, "status": game.status,
                 "seats": dict(game.seats), "result": dict(game.result) if game.result else None},
        "commitment": game_commitment(game),
        "seed": game.dice_key.hex() if over else None,
        "entropy": fair_entropy(game.options) or {},
        "dice_positions": dict(game.dice_positions),
        "orders": orders,
    }


# --------------------------------------------------------------------------- the end


def reveal_text(game: GameRecord, group: str, dice: int) -> str:
    return (f"🔓 The game is over: its dice seed was `{game.dice_key.hex()}` (SHA-256"
            f" `{game_commitment(game)}`, the commitment posted at the start). The log holds"
            f" {dice} dice: check every one with `/verify game:{game.uid}`, or export the log"
            f" (`/{group} log export:true`) and run `warroom verify --export FILE`"
            " or the recipe of docs/fair-dice.md.")


async def record(repo: Any, game: GameRecord, dice: int, now: datetime) -> None:
    """Remember the ended game under its public id (for ``/verify game:``)."""
    data = {"game_id": game.id, "channel_id": game.channel_id, "kind": game.kind,
            "commitment": game_commitment(game), "dice": dice}
    try:
        await repo.put_document(DOCUMENT, game.uid, data, expected_version=0, now=now)
    except VersionConflict:
        pass  # already recorded


async def reveal(app: Any, loaded: Any) -> None:
    """The game-end listener: post the seed in the game's channel, record the game."""
    from bot.context import Message
    from bot.games import front_for

    game: GameRecord = loaded.game
    if not game.uid or not game.dice_key:
        return
    rows = await app.repo.orders(game.id)
    dice = dice_count(rows)
    await record(app.repo, game, dice, app.sessions.now())
    poster = app.poster
    if poster is None:
        return
    message = Message(reveal_text(game, front_for(game.kind).group, dice))

    async def post() -> None:
        await poster.post(game.channel_id, message)

    if not later(post):  # after the command's own account of the end
        await post()


async def find_game(repo: Any, uid: str) -> GameRecord | None:
    """An ended game by its public id."""
    doc = await repo.document(DOCUMENT, uid.strip().lower())
    if doc is None:
        return None
    game: GameRecord = await repo.game(int(doc.data["game_id"]))
    return game


on_game_end(reveal)
