"""``warroom odds …`` from the command line (JSON keys of the issue, errors)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.odds_cli import as_flags


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["odds", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_aa_json_has_the_issue_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "aa", "--attacker", "3 inf, 1 art, 2 tank, 1 fighter", "--defender",
                       "4 inf, 1 aa", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    for key in ("attacker_win", "defender_win", "draw", "attacker_takes", "expected_survivors",
                "expected_ipc_loss"):  # fmt: skip
        assert key in data
    assert set(data["expected_survivors"]) == {"attacker", "defender"}
    assert set(data["expected_ipc_loss"]) == {"attacker", "defender"}
    assert data["attacker_win"] + data["defender_win"] + data["draw"] == pytest.approx(1.0)
    assert data["expected_survivors"]["attacker"]["tank"] <= 2


def test_aa_exact_small_battle(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "aa", "--attacker", "1 inf", "--defender", "1 inf", "--exact", "--json")
    assert code == 0
    assert json.loads(out)["exact"] == {
        "attacker_win": "1/4", "defender_win": "5/8", "draw": "1/8", "attacker_takes": "1/4"}  # fmt: skip


def test_aa_options_reach_the_engine(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chart = tmp_path / "odds.png"
    code, out, _ = run(capsys, "aa", "--attacker", "3 inf, 1 tank", "--defender", "3 inf", "--amphibious",
                       "--bombard", "1 battleship", "--ool-attacker", "tank,inf", "--rounds", "2",
                       "--chart", str(chart))  # fmt: skip
    assert code == 0
    assert "(amphibious assault), bombarded by 1 bat" in out
    assert "still fighting after 2 round(s)" in out
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_aa_text_output_and_sea(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "aa", "--attacker", "2 sub, 1 des", "--defender", "1 cru, 1 car, 2 fig", "--sea")
    assert code == 0 and "sea battle" in out and "Attacker wins" in out


def test_aa_player_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "aa", "--attacker", "3 foo", "--defender", "1 inf")
    assert code == 2 and "Unknown unit 'foo'" in err


def test_minis_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "minis", "--dice", "11", "--defense", "5", "--attacker-penalty", "--cover", "5",
                       "--same-hex", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert set(data["hits"]) == {"0", "1", "2", "3"}
    assert data["die_chance"] == pytest.approx(1 / 3)
    assert data["cover_chance"] == pytest.approx(1 / 6)


def test_minis_defensive_fire_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "minis", "--dice", "6", "--defense", "4", "--defensive-fire")
    assert code == 0 and "defensive fire" in out and "2 hits" not in out


def test_memoir_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "memoir", "--dice", "1", "--target", "infantry", "--figures", "1", "--blocked",
                       "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["eliminate"] == pytest.approx(2 / 3) and data["exact"]["eliminate"] == "2/3"


def test_memoir_close_assault_chart_with_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # --json and --chart together: the JSON of the whole close assault and its chart (the
    # chart file used to be written empty for a close assault asked with --json).
    chart = tmp_path / "assault.png"
    code, out, _ = run(capsys, "memoir", "--dice", "3", "--target", "infantry", "--figures", "4", "--attacker",
                       "armor", "--overrun-dice", "3", "--overrun-figures", "2", "--json", "--chart", str(chart))  # fmt: skip
    assert code == 0 and "overrun_made" in json.loads(out)
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_memoir_bad_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "memoir", "--dice", "2", "--target", "cavalry")
    assert code == 2 and "cavalry" in err


def test_the_odds_command_keeps_freed_memory_in_its_own_process() -> None:
    # A fresh `warroom` process tunes glibc's malloc (bot.odds_cli.keep_freed_memory):
    # asked in a child process, since the setting is the whole process's.
    import subprocess
    import sys

    code = "from bot.odds_cli import keep_freed_memory; print(keep_freed_memory())"
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "True"


def test_only_the_warroom_process_itself_tunes_malloc(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # main() with no arguments is the `warroom` command (its sys.argv): the one-shot odds
    # command then asks for keep_freed_memory; called with arguments (a test, another
    # tool in this process) it leaves the process alone.
    import sys

    from bot import odds_cli

    calls: list[bool] = []
    monkeypatch.setattr(odds_cli, "keep_freed_memory", lambda: calls.append(True) or True)
    argv = ["odds", "aa", "--attacker", "1 inf", "--defender", "1 inf"]
    assert main(argv) == 0 and calls == []
    monkeypatch.setattr(sys, "argv", ["warroom", *argv])
    assert main() == 0 and calls == [True]
    assert "Attacker wins 25.0%" in capsys.readouterr().out


def test_aa_error_examples_are_written_as_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # The engine's "what would be legal" examples are slash commands; the command line
    # shows them as the flags it takes.
    code, _, err = run(capsys, "aa", "--attacker", "1 inf", "--defender", "1 cru")
    assert code == 2 and "(A-14.1)" in err
    assert 'warroom odds aa … --sea --attacker "2 des, 1 cru" --defender "1 cru"' in err
    assert 'warroom odds aa … --attacker "1 inf" --defender ""' in err
    code, _, err = run(capsys, "aa", "--attacker", "3 inf, 1 bat", "--defender", "3 inf")
    assert code == 2 and 'warroom odds aa … --amphibious --attacker "3 inf" --bombard "1 bat"' in err
    assert "/odds" not in err and "kind:" not in err
    # A round limit with a retreat in an amphibious assault (A-10.3: the landed units
    # fight on to the end): the example says what to change, and it answers.
    code, _, err = run(capsys, "aa", "--attacker", "3 inf, 2 fig", "--defender", "4 inf", "--amphibious",
                       "--bombard", "1 cru", "--rounds", "2", "--retreat-chance", "40")  # fmt: skip
    assert code == 2 and "(A-10.3)" in err
    assert 'Legal: warroom odds aa … --land --bombard "" --rounds 2.' in err
    code, out, _ = run(capsys, "aa", "--attacker", "3 inf, 2 fig", "--defender", "4 inf", "--land", "--bombard", "",
                       "--rounds", "2", "--retreat-chance", "40")  # fmt: skip
    assert code == 0 and "Attacker wins" in out
    # Two options out of range: told at once, one example mends both, and it answers.
    code, _, err = run(capsys, "aa", "--attacker", "3 inf", "--defender", "3 inf", "--retreat-after", "0",
                       "--retreat-chance", "0")  # fmt: skip
    assert code == 2 and "round 1 at the earliest. The win chance to retreat below" in err
    assert "Legal: warroom odds aa … --retreat-after 1 --retreat-chance 30." in err
    code, out, _ = run(capsys, "aa", "--attacker", "3 inf", "--defender", "3 inf", "--retreat-after", "1",
                       "--retreat-chance", "30")  # fmt: skip
    assert code == 0 and "Attacker wins" in out
    # A strafe there is computed: the fighters and the tank from over land leave after
    # round 1, the infantry landed from the sea fights on.
    code, out, _ = run(capsys, "aa", "--attacker", "3 inf, 1 tank, 2 fig", "--defender", "4 inf", "--amphibious",
                       "--overland", "1 tank", "--retreat-after", "1")  # fmt: skip
    assert code == 0 and "1 tank came over land" in out
    assert "the units landed from the sea fight on to the end (A-10.3)" in out and "Up to the retreat: " in out
    assert "Expected losses up to the retreat: " in out and "Most likely attacker survivors up to the retreat: " in out
    code, _, err = run(capsys, "aa", "--attacker", "1 inf", "--defender", "1 inf", "--retreat-left", "2",
                       "--retreat-below", "2")  # fmt: skip
    assert code == 2 and "warroom odds aa … --retreat-left 2, warroom odds aa … --retreat-below 3." in err
    code, _, err = run(capsys, "memoir", "--dice", "2", "--target", "infantry", "--ambush-dice", "2")
    assert code == 2 and "warroom odds memoir --dice 3 --target infantry --figures 4" in err


@pytest.mark.parametrize(("slash", "flags"), [
    ("/odds aa … kind:land retreat_chance:30", "warroom odds aa … --land --retreat-chance 30"),
    ("/odds aa … keep_land_units:2", "warroom odds aa … --keep-land 2"),
    ("/odds aa … submerge:both", "warroom odds aa … --submerge-attacker --submerge-defender"),
    ("/odds minis … ap:true", "warroom odds minis … --armor-piercing"),
    ("inf", "inf"),
])  # fmt: skip
def test_slash_examples_as_flags(slash: str, flags: str) -> None:
    assert as_flags(slash) == flags


# Slash options that name units of the channel's live game: the command line has none.
LIVE_ONLY = {"aa": {"battle"}, "minis": {"attacker", "target", "at", "cannon"}, "memoir": {"unit", "enemy"}}
REQUIRED = {"aa": ["--attacker", "1 inf", "--defender", "1 inf"], "minis": ["--dice", "2", "--defense", "4"],
            "memoir": ["--dice", "2", "--target", "infantry"]}  # fmt: skip


@pytest.mark.parametrize("game", ["aa", "minis", "memoir"])
def test_every_slash_option_has_the_flag_it_is_written_as(game: str) -> None:
    # as_flags knows the slash options whose flag differs; any other option is written
    # --its-name.  Every option of /odds <game> (each of its choices) must come out as
    # flags the command line takes, or an error's example would name a flag that is not.
    from bot.cli import build_parser
    from bot.commands import load_all
    from bot.commands.base import REGISTRY

    load_all()
    parser = build_parser()
    checked = 0
    for option in REGISTRY[("odds", game)].options:
        if option.name in LIVE_ONLY[game]:
            continue
        values = list(option.choices) if option.choices else ["true" if option.kind is bool else "3"]
        for value in values:
            flags = as_flags(f"/odds {game} {option.name}:{value}").split()[3:]
            try:
                parser.parse_args(["odds", game, *REQUIRED[game], *flags])
            except SystemExit:
                pytest.fail(f"{option.name}:{value} -> {flags}")
            checked += 1
    assert checked >= 10


def test_aa_help_names_the_round_cap_the_engine_has(capsys: pytest.CaptureFixture[str]) -> None:
    # The command line builds its options without importing the engine (start-up time),
    # so the cap on --rounds and --retreat-after is written out in their help: it must
    # be engine.odds.aa.MAX_ROUNDS.
    from engine.odds.aa import MAX_ROUNDS

    with pytest.raises(SystemExit):
        main(["odds", "aa", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert text.count(f"(at most {MAX_ROUNDS})") == 2
