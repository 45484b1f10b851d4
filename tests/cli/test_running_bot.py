"""The bot process as a service manager sees it: SIGTERM/SIGINT during a game, a backup while it runs, and
its log. The process is `tests/cli/bot_process.py`: the real `run` against the local fake Discord."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, TOKEN, clean_env, cli

START_TIMEOUT = 60


@dataclass
class RunningBot:
    process: subprocess.Popen[str]
    database: Path
    table: int
    actions: int

    def stop(self, sig: signal.Signals) -> tuple[int, str, str]:
        self.process.send_signal(sig)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err


def _first_line(process: subprocess.Popen[str]) -> str:
    """The first stderr line, or '' if the process ends or stays silent too long."""
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(process.stderr.readline()), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT)
    return line[0] if line else ""


@pytest.fixture
def running_bot(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningBot]:
    settings = getattr(request, "param", {})
    database = tmp_path / "cardbot.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.cli.bot_process"],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(DATABASE_PATH=str(database), **settings),
    )
    try:
        first = _first_line(process)
        if not first.startswith("GAME RUNNING"):
            process.kill()
            out, err = process.communicate()
            pytest.fail(f"the bot did not get a game going: {first}{err}\n{out[-3000:]}")
        _, _, table, actions = first.split()
        yield RunningBot(process, database, int(table), int(actions))
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _stored(path: Path) -> tuple[str, int]:
    with sqlite3.connect(path) as conn:
        (status,) = conn.execute("SELECT status FROM game_tables").fetchone()
        (count,) = conn.execute("SELECT COUNT(*) FROM actions").fetchone()
    return status, count


def test_sigterm_during_a_game_stops_cleanly_and_the_file_alone_holds_the_game(
    running_bot: RunningBot, tmp_path: Path
) -> None:
    code, out, err = running_bot.stop(signal.SIGTERM)
    assert code == 0, err
    assert err == ""  # nothing but the game marker, read before
    last = out.rstrip().splitlines()[-1]
    assert last.endswith("bot: stopped on SIGTERM: running moves finished, database closed")
    # What `docker cp` or a file backup of the database alone would take: no -wal file beside it.
    alone = tmp_path / "copy" / "cardbot.sqlite3"
    alone.parent.mkdir()
    shutil.copyfile(running_bot.database, alone)
    status, count = _stored(alone)
    assert status == "running" and count >= running_bot.actions >= 4
    wal = Path(f"{running_bot.database}-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # everything was checkpointed into the file


def test_the_log_is_plain_text_and_says_synced_only_once_synced(running_bot: RunningBot) -> None:
    code, out, _err = running_bot.stop(signal.SIGINT)
    assert code == 0
    assert "\x1b[" not in out  # not a terminal: no colour codes
    lines = out.splitlines()
    synced = [i for i, line in enumerate(lines) if "synced" in line]
    # 16 top-level commands: insomnia, malice, settings, tournament, moderation (groups), hand, table, resign,
    # cancel, history, leaderboard, stats, rules, help, activity, and the "Challenge to Malice" user menu.
    assert synced and "bot.client: synced 16 global commands" in lines[synced[0]]
    assert lines[-1].endswith("stopped on SIGINT: running moves finished, database closed")


@pytest.mark.parametrize("running_bot", [{"LOG_FORMAT": "json"}], indirect=True)
def test_backup_while_a_game_runs_gives_a_database_check_accepts(
    running_bot: RunningBot, tmp_path: Path
) -> None:
    copy = tmp_path / "backups" / "cardbot-today.sqlite3"
    copy.parent.mkdir()
    done = cli("backup", str(copy), cwd=tmp_path, DATABASE_PATH=str(running_bot.database))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"cardtable-bot: copied {running_bot.database} to {copy} (")
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # one file, no -wal, no partial
    status, count = _stored(copy)
    assert status == "running" and count >= running_bot.actions
    checked = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(copy))
    assert checked.returncode == 0, checked.stderr
    assert "1 game running" in checked.stdout

    code, out, _err = running_bot.stop(signal.SIGTERM)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]  # LOG_FORMAT=json: one object per line
    assert {"time", "level", "logger", "message"} <= set(records[0])
    assert records[-1]["message"] == "stopped on SIGTERM: running moves finished, database closed"


@pytest.mark.parametrize(
    ("mode", "code", "sentence"),
    [
        ("--wrong-token", 3, "cardtable-bot: Discord rejected DISCORD_TOKEN (401 Unauthorized): copy a"),
        ("--unreachable", 5, "cardtable-bot: cannot reach Discord ("),
    ],
)
def test_a_failed_start_prints_exactly_one_sentence_on_stderr(
    tmp_path: Path, mode: str, code: int, sentence: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.cli.bot_process", mode],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=60,
        env=clean_env(DATABASE_PATH=str(tmp_path / "cardbot.sqlite3")),
    )
    assert done.returncode == code
    # At the default level: no voice-support warning, no thread's traceback, nothing but the sentence.
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(sentence), done.stderr
    assert "not-the-token" not in done.stderr + done.stdout
