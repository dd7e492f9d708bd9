"""Local-channel scripts shared by the /memoir bot tests, and the dice that stack the deck.

``deck_dice(order)`` gives the dice of the creation shuffle (Fisher–Yates, one die of k
sides for k = 60 … 2, engine.core.dice.shuffled) that leave the deck in ``order``: the
first cards are dealt to the Axis, the next to the Allies (E-3.2), the rest is the draw
pile, top first.  A script queues them with ``!dice`` just before ``/memoir new``.
"""

from __future__ import annotations

from pathlib import Path

from engine.memoir.tables import full_deck
from tests.bot.local_scripts import run_local


def stacked(first: list[str]) -> list[str]:
    """The whole deck of 60 card ids with ``first`` (card kinds or ids) on top, the rest in
    the standard order."""
    rest = list(full_deck())
    top: list[str] = []
    for name in first:
        card = name if name in rest else next(c for c in rest if c.split("#")[0] == name)
        rest.remove(card)
        top.append(card)
    return top + rest


def deck_dice(order: list[str]) -> list[int]:
    out = list(full_deck())
    assert sorted(out) == sorted(order), "not a permutation of the deck"
    rolls: list[int] = []
    for k in range(len(out), 1, -1):
        j = out.index(order[k - 1])
        assert j <= k - 1
        rolls.append(j + 1)
        out[k - 1], out[j] = out[j], out[k - 1]
    assert tuple(out) == tuple(order)
    return rolls


def dice_line(first: list[str]) -> str:
    return "!dice " + " ".join(str(v) for v in deck_dice(stacked(first))) + "\n"


# Pegasus Bridge: Axis (top) holds 2 cards, the Allies 6 and play first.
AXIS_HAND = ["probe-centre", "attack-left"]
ALLIES_HAND = ["attack-left", "probe-right", "assault-centre", "direct-from-hq", "recon-left", "counter-attack"]
DRAWS = ["probe-left", "attack-right", "general-advance", "probe-centre", "attack-centre", "move-out"]


def opening(allies: list[str] | None = None, draws: list[str] | None = None) -> str:
    return (dice_line(AXIS_HAND + (allies or ALLIES_HAND) + (draws or DRAWS))
            + "alice: /memoir new scenario:pegasus-bridge side:allies\n"
            + "bob: /memoir join\n")


# Allies hold Attack Left, Probe Right, Assault Centre, Direct from HQ, Recon Left,
# Counter-Attack; the Axis Probe Centre and Attack Left (AXIS_HAND, ALLIES_HAND above).
# Played through by test_memoir_play.py; test_memoir_secrecy.py replays it as a twin game.
GAME = opening() + """\
alice: /memoir play card:attack-left
alice: /memoir order units:"C6 C7 D7"
alice: /memoir move unit:C6 to:D5
alice: /memoir move unit:D7 to:E5
alice: /memoir done
alice: /memoir battle unit:D5 target:D4
!dice 6
bob: /memoir decide pass
bob: /memoir decide ignore flags:1
bob: /memoir hand
bob: /memoir play card:probe-centre
bob: /memoir order units:"D4 E3"
bob: /memoir done
!dice 6 5 1
bob: /memoir battle unit:D4 target:D5
alice: /memoir decide pass
alice: /memoir decide retreat to:C6
bob: /memoir decide take-ground
!dice 1 2
bob: /memoir battle unit:E3 target:E5
alice: /memoir hand
alice: /memoir play card:recon-left
alice: /memoir order units:C6
alice: /memoir done
!dice 1 1 1
alice: /memoir battle unit:C6 target:D5
bob: /memoir decide pass
alice: /memoir hand
alice: /memoir decide discard card:2
bob: /memoir play card:attack-left
bob: /memoir order units:none
alice: /memoir play card:direct-from-hq
alice: /memoir order units:"C6 C7"
alice: /memoir done
alice: /memoir battle unit:C6 target:D5
!dice 1 3 3
bob: /memoir decide pass
alice: /memoir decide take-ground
carol: /memoir status
"""


def pasted(doc: str) -> str:
    """A JSON scenario as one quoted /memoir new custom: value, as pasted in Discord."""
    return '"' + doc.replace("\\", "\\\\").replace('"', '\\"') + '"'


async def run(script: str, tmp_path: Path, seed: int = 5) -> tuple[int, str]:
    return await run_local(script, tmp_path, "m.db", seed)
