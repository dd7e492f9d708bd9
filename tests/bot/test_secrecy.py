"""The twin-game secrecy test (issue 9, item 1).

Two games are played by the same script except for one side's secret: an army list
(M-2.5), a standing defensive-fire order (M-12.4), or the race's secret number. At
several stages everyone else looks with every looking command; everything they can see
— channel posts, their own replies, buttons, autocomplete, DMs and image bytes — must be
byte for byte the same in both games. Only the secret holder's own replies may differ.
"""

from __future__ import annotations

import re
from pathlib import Path

import tests.toygame  # noqa: F401  (registers /race)
from tests.bot.minis_scripts import DEPLOY, OPEN, TO_MOVEMENT, run

IMAGE = re.compile(r"\[image\] (\S+)")


def seen_by_others(out: str, holder: str) -> tuple[list[str], list[bytes]]:
    """Every output block not addressed to the secret holder, and the images in them."""
    blocks = re.split(r"\n(?=\[|!!)", out)
    kept = [b for b in blocks if not re.match(rf"\[(dm )?to {holder}\]", b)]
    images = [Path(p).read_bytes() for b in kept for p in IMAGE.findall(b)]
    text = [IMAGE.sub("[image]", b) for b in kept]
    return text, images


async def assert_twins(script_a: str, script_b: str, holder: str, tmp_path: Path) -> None:
    code_a, out_a = await run(script_a, tmp_path / "a")
    code_b, out_b = await run(script_b, tmp_path / "b")
    assert code_a == 0 and code_b == 0, (out_a, out_b)
    assert "Something went wrong" not in out_a + out_b
    # The secret really differs for its holder (the test could fail) ...
    assert out_a != out_b
    text_a, images_a = seen_by_others(out_a, holder)
    text_b, images_b = seen_by_others(out_b, holder)
    # ... and nobody else can tell the two games apart.
    assert text_a == text_b
    assert len(images_a) == len(images_b) and images_a, "the looking commands drew images"
    for n, (a, b) in enumerate(zip(images_a, images_b)):
        assert a == b, f"image {n} differs"


def minis_looks(who: str) -> str:
    return "".join(f"{who}: {line}\n" for line in (
        "/minis status",
        "/minis log",
        "/minis map",
        "/minis map overlay:reach unit:al1",
        "/minis map overlay:ranges unit:al2",
        "/minis card unit:al1",
        "/minis undo",
        "/minis undo orders:3",
        "!complete /minis card unit:",
        "!complete /minis attack unit:ax1 target:",
        "!complete /minis map unit:",
        "/odds minis attacker:ax1 target:al1",
        "/help game:minis",
    ))


ALLIES_A = "M4A1 Sherman, 2 M1 Garand Rifle, Bazooka, Red Devil Captain"
ALLIES_B = "M4A1 Sherman, M1 Garand Rifle, Vickers Machine-Gun Team, Bazooka, Red Devil Captain"


async def test_an_army_list_is_invisible_until_deployment(tmp_path: Path) -> None:
    """M-2.5: lists are secret while they are built, edited and locked."""
    def script(allies: str) -> str:
        opened = OPEN.replace("ready:true\n", "\n", 2)  # both lists entered, neither ready
        stage1 = opened.replace(ALLIES_A, allies) + minis_looks("alice") + minis_looks("carol")
        # Allies edit their list (same edit in both twins), then Axis locks in.
        stage2 = f'bob: /minis army units:"{allies}"\n' + "alice: /minis army ready:true\n" \
            + minis_looks("alice") + minis_looks("carol")
        stage3 = "!dice 1\nbob: /minis army ready:true\n" + minis_looks("alice") + minis_looks("carol")
        return stage1 + stage2 + stage3

    await assert_twins(script(ALLIES_A), script(ALLIES_B), "bob", tmp_path)


async def test_a_standing_order_is_invisible_until_it_fires(tmp_path: Path) -> None:
    """M-12.4: a standing defensive-fire order is known to its owner alone."""
    def script(policy: str) -> str:
        return (TO_MOVEMENT + minis_looks("alice")
                + f"bob: /minis defend standing unit:al2 policy:{policy}\n"
                + minis_looks("alice") + minis_looks("carol")
                # Axis moves out of reach of any defensive fire; looks again.
                + "alice: /minis move unit:ax3 to:D10\n" + minis_looks("alice")
                + f"bob: /minis defend standing unit:al3 policy:{policy}\n"
                + minis_looks("carol"))

    await assert_twins(script("hold"), script("first"), "bob", tmp_path)


async def test_the_deployment_order_is_kept_but_the_lists_stay_hidden_until_placed(tmp_path: Path) -> None:
    """During deployment Axis places first; the Allies' undeployed list stays secret."""
    axis_only = DEPLOY.split("bob:")[0]

    def script(allies: str) -> str:
        return OPEN.replace(ALLIES_A, allies) + axis_only + minis_looks("alice") + minis_looks("carol")

    await assert_twins(script(ALLIES_A), script(ALLIES_B), "bob", tmp_path)


def race_looks(who: str) -> str:
    return "".join(f"{who}: {line}\n" for line in (
        "/race status", "/race log", "/race board", "/race undo", "/race undo orders:2",
        "!complete /race join side:",
    ))


async def test_the_race_secret_number_is_invisible_until_boosted(tmp_path: Path) -> None:
    def script(number: int) -> str:
        return ("alice: /race new target:30 side:red\nbob: /race join\n"
                f"bob: /race secret number:{number}\n" + race_looks("alice") + race_looks("carol")
                + "!dice 4\nalice: /race roll\n" + race_looks("alice")
                + "!dice 2\nbob: /race roll\n" + race_looks("carol"))

    await assert_twins(script(1), script(3), "bob", tmp_path)
