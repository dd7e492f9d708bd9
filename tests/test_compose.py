"""docker-compose.yml, checked without Docker (this machine has no Docker engine): its
shape (every shard served exactly once, the database on a volume, the bots waiting for
a healthy database) and, for every bot service, the very command and environment it
would start with, run by ``warroom run --check`` against a real PostgreSQL server (the
tests' own, standing in for the ``postgres`` service)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.storage import pg_server

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?message}``."""
    def one(m: re.Match[str]) -> str:
        name, op, rest = m.group(1), m.group(2), m.group(3) or ""
        if env.get(name):
            return env[name]
        if op == ":?":
            raise KeyError(f"{name} must be set: {rest}")
        return rest if op == ":-" else ""
    return re.sub(r"\$\{([A-Z_][A-Z0-9_]*)(:-|:\?)?([^}]*)\}", one, value)


def _bots(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: s for name, s in data["services"].items() if s.get("build")}


def test_every_shard_is_served_once_and_the_data_is_on_a_volume() -> None:
    data = _compose()
    services = data["services"]
    bots = _bots(data)
    assert len(bots) >= 2  # "several processes" (issue 14)
    counts = {int(s["environment"]["WARROOM_SHARD_COUNT"]) for s in bots.values()}
    assert len(counts) == 1
    (count,) = counts
    served: list[int] = []
    for s in bots.values():
        command = s["command"]
        served += [int(x) for x in command[command.index("--shards") + 1].split(",")]
        assert s["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert s["environment"]["WARROOM_DB"].startswith("postgresql://")
        assert "@postgres:5432/" in s["environment"]["WARROOM_DB"]
    assert sorted(served) == list(range(count))
    db = services["postgres"]
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"])
    volume = db["volumes"][0].split(":")[0]
    assert volume in data["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])


def test_the_dockerfile_runs_warroom_run() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'ENTRYPOINT ["warroom", "run"]' in text


@pytest.mark.parametrize("service", sorted(_bots(_compose())))
def test_each_bot_service_starts_on_the_database(service: str) -> None:
    """The service's command (after the Dockerfile's ``warroom run``) and its environment,
    with the database host pointed at the tests' server: the settings parse, the database
    opens and migrates, and the process says which shards it would run."""
    spec = _bots(_compose())[service]
    dsn = pg_server.fresh_database()
    env = {k: _interpolate(str(v), {"DISCORD_TOKEN": "not-a-real-token"})
           for k, v in spec["environment"].items()}
    env["WARROOM_DB"] = dsn  # postgresql://warroom:…@postgres:5432/warroom → the test server
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("WARROOM_", "DISCORD_"))}
    warroom = Path(sys.executable).with_name("warroom")
    done = subprocess.run([str(warroom), "run", *map(str, spec["command"]), "--check"],
                          env={**run_env, **env}, cwd="/tmp", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    command = spec["command"]
    shards = command[command.index("--shards") + 1]
    assert f"shards {shards} of {env['WARROOM_SHARD_COUNT']}" in done.stdout
    assert "postgresql database at schema version" in done.stdout


def test_the_check_refuses_bad_settings_with_one_line(tmp_path: Path) -> None:
    warroom = Path(sys.executable).with_name("warroom")
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("WARROOM_", "DISCORD_"))}
    done = subprocess.run([str(warroom), "run", "--shards", "0,9", "--shard-count", "4", "--check"],
                          env={**run_env, "DISCORD_TOKEN": "x", "WARROOM_DB": f"sqlite:///{tmp_path}/w.db"},
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    ok = subprocess.run([str(warroom), "run", "--check"],
                        env={**run_env, "WARROOM_DB": f"sqlite:///{tmp_path}/w.db"},
                        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "sqlite database at schema version" in ok.stdout and "local channel" in ok.stdout
