"""A database the bot cannot use is one sentence and exit 4 within seconds, before Discord is contacted."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import TOKEN, clean_env, cli, one_line


def _not_a_database(tmp: Path) -> Path:
    path = tmp / "notes.sqlite3"
    path.write_text("These are my notes, not a database.\n" * 50)
    return path


def _a_folder(tmp: Path) -> Path:
    (tmp / "data").mkdir()
    return tmp / "data"


def _folder_that_cannot_exist(tmp: Path) -> Path:
    (tmp / "plain-file").write_text("x")
    return tmp / "plain-file" / "cardbot.sqlite3"  # its folder would have to be inside a file


def _newer_schema(tmp: Path) -> Path:
    path = tmp / "future.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    return path


BROKEN = {
    "not a database": (_not_a_database, "is not a SQLite database"),
    "a folder": (_a_folder, "it is a folder"),
    "a folder that cannot be created": (_folder_that_cannot_exist, "cannot be created"),
    "a newer schema": (_newer_schema, "schema version 99"),
}


@pytest.mark.alone  # "within 5 seconds" of a process's start: not beside tests that load both cores
@pytest.mark.parametrize("case", BROKEN)
@pytest.mark.parametrize("command", ["check", "run"])
def test_a_broken_database_is_one_sentence_and_exit_4_within_5_seconds(
    tmp_path: Path, case: str, command: str
) -> None:
    make, says = BROKEN[case]
    path = make(tmp_path)
    before = path.read_bytes() if case == "not a database" else None
    start = time.monotonic()
    # `run` with a token but no reachable Discord: only a database checked first can give exit 4.
    done = cli(command, cwd=tmp_path, timeout=30, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path))
    assert time.monotonic() - start < 5
    assert done.returncode == 4, done.stderr
    line = one_line(done.stderr)
    assert line.startswith(f"cardtable-bot: cannot use the database {path}") and says in line
    if before is not None:
        assert path.read_bytes() == before  # someone's file is left as it was
    if case == "a newer schema":
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone() == (99,)  # not migrated "down"


@pytest.mark.alone  # within 5 seconds, as above
def test_a_read_only_database_is_one_sentence_and_exit_4(tmp_path: Path) -> None:
    path = tmp_path / "cardbot.sqlite3"
    done = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path))
    assert done.returncode == 0, done.stderr  # a good database first
    path.chmod(0o444)
    command = [sys.executable, "-m", "bot", "check"]
    if os.geteuid() == 0:
        # root writes any file whatever its mode: drop that power for the child, as for any other user.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv (util-linux): cannot make a file read-only for root")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--", *command]
    start = time.monotonic()
    done = subprocess.run(
        command,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        env=clean_env(DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path)),
    )
    assert time.monotonic() - start < 5
    assert done.returncode == 4, done.stderr
    assert "is read-only" in one_line(done.stderr)


def test_check_accepts_a_good_database_and_connects_to_nothing(tmp_path: Path) -> None:
    done = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH="data/cardbot.sqlite3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cardtable-bot: settings are valid; the token is shaped like a bot token")
    assert "of application 900000000000000001; database data/cardbot.sqlite3: schema" in done.stdout
    assert "Ready to run." in done.stdout
    assert (tmp_path / "data" / "cardbot.sqlite3").is_file()  # created and migrated, as the bot would


def test_check_needs_the_settings_the_bot_needs(tmp_path: Path) -> None:
    missing = cli("check", cwd=tmp_path)
    assert missing.returncode == 2 and "DISCORD_TOKEN is not set" in one_line(missing.stderr)
    short = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, TURN_TIMEOUT_SECONDS="5")
    assert short.returncode == 2
    assert "TURN_TIMEOUT_SECONDS" in one_line(short.stderr) and "10" in short.stderr
    assert not (tmp_path / "cardbot.sqlite3").exists()


def test_backup_of_a_postgresql_database_points_to_pg_dump(tmp_path: Path) -> None:
    """`backup` copies the SQLite file; with DATABASE_URL set that file is not the bot's database."""
    (tmp_path / "cardbot.sqlite3").write_bytes(b"")
    done = cli("backup", "copy.sqlite3", cwd=tmp_path, DATABASE_URL="postgresql://u:secret@db.example.org/x")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "back it up with pg_dump" in line and "secret" not in line
    assert not (tmp_path / "copy.sqlite3").exists()


def test_backup_of_a_missing_database_is_exit_4(tmp_path: Path) -> None:
    done = cli("backup", "copy.sqlite3", cwd=tmp_path, DATABASE_PATH="nothing-here.sqlite3")
    assert done.returncode == 4
    assert "there is no database at nothing-here.sqlite3" in one_line(done.stderr)
    assert not (tmp_path / "copy.sqlite3").exists()


def test_migrate_db_reports_the_copy_in_whole_sentences(tmp_path: Path, pg_url: str) -> None:
    """`migrate-db` into an empty PostgreSQL database: what was copied and checked, then the next step, each a
    sentence of its own."""
    path = tmp_path / "cardbot.sqlite3"
    assert cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path)).returncode == 0
    done = cli("migrate-db", "--to", pg_url, cwd=tmp_path, DATABASE_PATH=str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"cardtable-bot: copied {path} to ")
    assert "against the source. Now set DATABASE_URL to that database and start the bot.\n" in done.stdout
