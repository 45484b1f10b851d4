"""Make the databases tests/storage/test_upgrade.py upgrades: one SQLite file and one PostgreSQL database
filled by the store of an older revision, dumped as SQL into tests/storage/fixtures/.

    python scripts/make_upgrade_fixtures.py [--rev 4d803b9] [--version 5]

The revision's `storage/` is exported into a temporary folder and tests/storage/fixtures/fill_version5.py
runs with it first on the path, in a process of its own (that code needs its own driver: aiosqlite, then).
The SQLite file is dumped with sqlite3's `iterdump` (its schema text exactly as that code wrote it, then
`PRAGMA user_version`); the PostgreSQL database, on a throwaway server (tests/pg.py), with `pg_dump
--inserts --no-owner --no-privileges`. Both dumps are committed: the tests never need the old code.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import pg  # noqa: E402

FIXTURES = ROOT / "tests" / "storage" / "fixtures"
FILLER = FIXTURES / "fill_version5.py"


def export(rev: str, folder: Path) -> None:
    archive = subprocess.run(["git", "archive", rev, "storage"], cwd=ROOT, check=True, capture_output=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")


def fill(code: Path, target: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(code)}
    subprocess.run([sys.executable, str(FILLER), target], cwd=code, env=env, check=True)


def dump_sqlite(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        lines = list(conn.iterdump())
    finally:
        conn.close()
    return "\n".join([*lines, f"PRAGMA user_version = {version};", ""])


async def dump_postgres(code: Path) -> str:
    bin_dir = pg.find_bin_dir()
    if bin_dir is None:
        raise SystemExit("no PostgreSQL binaries: install the postgresql package")
    server = pg.ThrowawayServer.start(bin_dir)
    try:
        url = await pg.create_database(server.url)
        fill(code, url)
        done = subprocess.run(
            [str(bin_dir / "pg_dump"), "--inserts", "--no-owner", "--no-privileges", f"--dbname={url}"],
            check=True,
            capture_output=True,
            text=True,
        )
        # psql's own meta-commands (`\restrict`, newer pg_dumps write them) are no SQL: the tests load the
        # dump through asyncpg.
        return "".join(line for line in done.stdout.splitlines(keepends=True) if not line.startswith("\\"))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="4d803b9", help="the revision whose store fills the databases")
    parser.add_argument("--version", type=int, default=5, help="its schema version (names the files)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        code = Path(tmp) / "code"
        export(args.rev, code)
        path = Path(tmp) / "old.sqlite3"
        fill(code, str(path))
        (FIXTURES / f"version{args.version}.sqlite.sql").write_text(dump_sqlite(path))
        (FIXTURES / f"version{args.version}.postgres.sql").write_text(asyncio.run(dump_postgres(code)))
    print(f"wrote {FIXTURES}/version{args.version}.{{sqlite,postgres}}.sql")


if __name__ == "__main__":
    main()
