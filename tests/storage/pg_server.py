"""A real PostgreSQL server for the tests: Debian's ``initdb``/``pg_ctl`` in a temporary
data directory, listening on 127.0.0.1 on a free port, stopped when the test session
ends.  When the tests run as root the server runs as an unprivileged user (``postgres``
from Debian's package, else a ``warroom-pg`` user created for it), as PostgreSQL refuses
to run as root.  Nothing is mocked and nothing is skipped: if no server can be started
the tests that need one fail with the reason.

``make test`` installs Debian's ``postgresql`` package when ``initdb`` is missing.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

USER_FALLBACK = "warroom-pg"


class ServerNotStarted(RuntimeError):
    pass


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str
    data_dir: Path
    options: str  # the server settings pg_ctl passes on
    run_as: str | None  # the system user the server runs as (None: ourselves)

    def dsn(self, database: str = "postgres", **settings: str) -> str:
        query = "&".join(f"{k}={v}" for k, v in settings.items())
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}" + (f"?{query}" if query else "")


def find_bin(name: str) -> str:
    """A PostgreSQL server program: on PATH, else in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not candidates:
        raise ServerNotStarted(
            f"PostgreSQL's {name} is not installed: run `make test` (it installs Debian's "
            "postgresql package) or `apt-get install postgresql`")
    return candidates[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> str | None:
    """The unprivileged user to run the server as when we are root (None otherwise)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", USER_FALLBACK):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    USER_FALLBACK], check=True, capture_output=True)
    return USER_FALLBACK


def _command(user: str | None, argv: list[str]) -> list[str]:
    if user is None:
        return argv
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", user, "--", *argv]
    return ["su", "-s", "/bin/sh", user, "-c", " ".join(argv)]


_lock = threading.Lock()
_server: Server | None = None


def server() -> Server:
    """The session's server, started on first use."""
    global _server
    with _lock:
        if _server is None:
            _server = _start()
        return _server


def _start() -> Server:
    initdb = find_bin("initdb")
    find_bin("pg_ctl")
    user = _run_as()
    base = Path(tempfile.mkdtemp(prefix="warroom-pg-"))
    data = base / "data"
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(base, entry.pw_uid, entry.pw_gid)
    os.chmod(base, 0o755)
    db_user = "warroom"
    done = subprocess.run(
        _command(user, [initdb, "-D", str(data), "-U", db_user, "--auth=trust", "--encoding=UTF8",
                        "--locale=C", "--no-sync"]),
        capture_output=True, text=True, cwd=base)
    if done.returncode != 0:
        raise ServerNotStarted(f"initdb failed:\n{done.stdout}\n{done.stderr}")
    port = _free_port()
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={base}"
               " -c fsync=off -c full_page_writes=off"
               " -c max_connections=400 -c shared_buffers=32MB")
    srv = Server("127.0.0.1", port, db_user, data, options, user)
    _pg_ctl(srv, "start")

    def stop() -> None:
        try:
            _pg_ctl(srv, "stop")
        finally:
            shutil.rmtree(base, ignore_errors=True)

    atexit.register(stop)
    return srv


def _pg_ctl(srv: Server, action: str) -> None:
    base = srv.data_dir.parent
    argv = [find_bin("pg_ctl"), "-D", str(srv.data_dir), "-w", "-t", "60"]
    if action == "start":
        argv += ["-l", str(base / "server.log"), "-o", srv.options, "start"]
    else:
        argv += ["-m", "immediate", "stop"]
    done = subprocess.run(_command(srv.run_as, argv), capture_output=True, text=True, cwd=base)
    if done.returncode != 0:
        log = (base / "server.log").read_text() if (base / "server.log").exists() else ""
        raise ServerNotStarted(f"pg_ctl {action} failed:\n{done.stdout}\n{done.stderr}\n{log[-3000:]}")


def restart() -> None:
    """Stop the session's server at once and start it again (the database goes away)."""
    srv = server()
    _pg_ctl(srv, "stop")
    _pg_ctl(srv, "start")


_counter = 0


def fresh_database() -> str:
    """A new empty database on the session's server; returns its address."""
    global _counter
    srv = server()
    with _lock:
        _counter += 1
        name = f"t{os.getpid()}_{_counter}"
    psql = find_bin("psql")
    done = subprocess.run([psql, "-h", srv.host, "-p", str(srv.port), "-U", srv.user, "-d", "postgres",
                           "-q", "-c", f"CREATE DATABASE {name}"], capture_output=True, text=True)
    if done.returncode != 0:
        raise ServerNotStarted(f"cannot create a database: {done.stderr}")
    return srv.dsn(name)
