"""The database as the command line meets it: open it the way the bot does (`check`, `run`) and copy it while
the bot runs (`backup`). Every failure becomes `DatabaseUnusable`, one sentence for exit code 4.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

from bot.config import Settings
from storage import NewerDatabaseError, Store, StoreError
from storage import open_store as open_any_store
from storage.migrations import LATEST


class DatabaseUnusable(Exception):
    """The database cannot be used; the message is one sentence for the person running the bot."""


def _reason(path: Path, exc: BaseException) -> str:
    """Why `path` cannot be used, in words that say what to fix."""
    if isinstance(exc, NewerDatabaseError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"its folder {path.parent} cannot be created ({exc.strerror or exc})"
    text = str(exc)
    if "not a database" in text:
        return f"{path} is not a SQLite database (is DATABASE_PATH pointing at the wrong file?)"
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only: the bot must be able to write it and its folder"
    if "unable to open" in text:
        return f"{path} cannot be opened: its folder must exist and be writable"
    return f"{path}: {text}"


def _probe_write(path: Path) -> None:
    """Write to the file and roll back: SQLite opens a file it may not write read-only without a word, and
    the bot would only find out at the first move. Raises sqlite3.Error when the file cannot be written."""
    conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        conn.execute(f"PRAGMA user_version = {int(version)}")  # the same value: a write that changes nothing
        conn.execute("ROLLBACK")
    finally:
        conn.close()


async def open_store(path: Path) -> Store:
    """Open (creating the file and its folder) and migrate the database, as the bot does before connecting."""
    if path.is_dir():
        raise DatabaseUnusable(f"cannot use the database {path}: it is a folder, not a database file")
    try:
        if path.is_file():
            await asyncio.to_thread(_probe_write, path)
        return await Store.open(str(path))
    except (OSError, sqlite3.Error, NewerDatabaseError) as exc:
        raise DatabaseUnusable(f"cannot use the database {path}: {_reason(path, exc)}") from None


async def open_database(settings: Settings) -> Store:
    """The bot's database as the settings name it: PostgreSQL when DATABASE_URL is set, else the SQLite file
    at DATABASE_PATH. Any failure is `DatabaseUnusable` (its message never shows a password)."""
    if settings.database_url is None:
        return await open_store(settings.database_path)
    try:
        return await open_any_store(settings.database())
    except (StoreError, OSError) as exc:
        raise DatabaseUnusable(f"cannot use the database {settings.database_name()}: {exc}") from None


async def migrate_to_postgres(source: Path, url: str) -> str:
    """Copy the SQLite database at `source` into the empty PostgreSQL database at `url` and check the copy;
    returns the one-line summary."""
    from storage.common import redact
    from storage.copy import copy_sqlite_to_postgres

    if not source.is_file():
        raise DatabaseUnusable(f"there is no SQLite database at {source} to copy (see DATABASE_PATH)")
    try:
        report = await copy_sqlite_to_postgres(str(source), url)
    except (StoreError, OSError, sqlite3.Error) as exc:
        raise DatabaseUnusable(f"cannot copy {source} to {redact(url)}: {exc}") from None
    return report.summary()


async def describe(store: Store) -> str:
    """What `check` reports about a usable database."""
    open_tables = await store.open_tables()
    running = sum(1 for t in open_tables if t.status == "running")
    return (
        f"schema version {LATEST} (the latest), {running} game{'s' * (running != 1)} running, "
        f"{len(open_tables) - running} lobb{'ies' if len(open_tables) - running != 1 else 'y'} open"
    )


def backup(source: Path, target: Path) -> int:
    """Copy the database with SQLite's online backup API (safe while the bot writes to it) into `target`,
    a single self-contained file; returns its size in bytes."""
    if not source.is_file():
        raise DatabaseUnusable(f"there is no database at {source} to back up (see DATABASE_PATH)")
    if target.exists() and target.resolve() == source.resolve():
        raise DatabaseUnusable(f"the backup must go to another file than the database {source} itself")
    if not target.parent.is_dir():
        raise DatabaseUnusable(f"cannot write the backup {target}: the folder {target.parent} does not exist")
    partial = target.with_name(target.name + ".partial")
    try:
        # Opened read-write (never created: checked above) so WAL content not yet checkpointed is read too.
        src = sqlite3.connect(source, timeout=10)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # one step: a consistent copy even while the bot commits moves
                # The copy stands alone: no -wal file beside it, whatever mode the source was in.
                dst.execute("PRAGMA journal_mode = DELETE")
                (ok,) = dst.execute("PRAGMA quick_check").fetchone()
                if ok != "ok":
                    raise DatabaseUnusable(f"the copy of {source} failed its integrity check ({ok})")
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)  # a finished copy or none: never half a file under the name
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise DatabaseUnusable(f"cannot back up the database {source}: {_reason(source, exc)}") from None
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise DatabaseUnusable(f"cannot write the backup {target}: {exc.strerror or exc}") from None
    return target.stat().st_size
