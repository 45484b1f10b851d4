"""A throwaway PostgreSQL server for tests and benchmarks, and fresh databases on it.

`ThrowawayServer.start()` runs initdb and pg_ctl in a temporary folder, listening on 127.0.0.1 on a free port
(and on a socket in that folder, never the system's), with durability off (fsync, synchronous_commit) because
the data dies with the folder. As root it runs the server as an unprivileged user (initdb refuses root):
`postgres` (the Debian package's), else `pgtest`, else `nobody`.

`TEST_DATABASE_URL` (a database on a server where the user may CREATE DATABASE) replaces the throwaway server.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import asyncpg

ENV_URL = "TEST_DATABASE_URL"
SERVER_USERS = ("postgres", "pgtest", "nobody")
_names = itertools.count()


def find_bin_dir() -> Path | None:
    """The newest /usr/lib/postgresql/N/bin holding initdb and pg_ctl, else the folder of `initdb` on PATH."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for d in candidates:
        if (d / "initdb").exists() and (d / "pg_ctl").exists():
            return d
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_user() -> str | None:
    """None: run the server as ourselves. As root, the first unprivileged user that exists."""
    if os.geteuid() != 0:
        return None
    for name in SERVER_USERS:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root and none of the users postgres, pgtest, nobody exists")


class ThrowawayServer:
    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.user = _server_user()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin_dir / args[0]), *args[1:]]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=self.folder)

    @classmethod
    def start(cls, bin_dir: Path) -> ThrowawayServer:
        server = cls(bin_dir)
        try:
            if server.user is not None:
                shutil.chown(server.folder, server.user)
            server._run(
                "initdb",
                "-D",
                str(server.data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            )
            options = (
                f"-h 127.0.0.1 -p {server.port} -k {server.folder} -c fsync=off -c synchronous_commit=off"
                " -c full_page_writes=off -c max_connections=300"
            )
            server._run(
                "pg_ctl",
                "-D",
                str(server.data),
                "-l",
                str(server.folder / "server.log"),
                "-w",
                "-t",
                "60",
                "-o",
                options,
                "start",
            )
        except subprocess.CalledProcessError as e:
            log = server.folder / "server.log"
            detail = (e.stderr or "") + (log.read_text() if log.exists() else "")
            server.remove()
            raise RuntimeError(f"could not start a throwaway PostgreSQL: {detail.strip()}") from e
        return server

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            self.remove()

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _with_database(url: str, database: str) -> str:
    base, _, _old = url.rpartition("/")
    query = ""
    if "?" in _old:
        query = "?" + _old.split("?", 1)[1]
    return f"{base}/{database}{query}"


async def create_database(admin_url: str) -> str:
    """A new empty database on the server of `admin_url`; returns its URL."""
    name = f"cardtable_test_{os.getpid()}_{next(_names)}"
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await conn.close()
    return _with_database(admin_url, name)


async def drop_database(admin_url: str, url: str) -> None:
    name = url.rpartition("/")[2].split("?", 1)[0]
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()
