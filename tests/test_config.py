"""Settings and the process entry point: defaults, .env, the secret token, and clean failures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot import limits
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]
SETTING_NAMES = [
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "TURN_TIMEOUT_SECONDS",
]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No setting from the developer's environment or .env leaks into a test."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_defaults(clean_env: Path) -> None:
    settings = Settings()
    assert settings.token() is None
    assert settings.database_path == Path("cardbot.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_timeout_seconds == 120


def test_reads_dotenv_and_environment(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (clean_env / ".env").write_text(
        "DISCORD_TOKEN=abc.def.ghi\nDEV_GUILD_ID=1234\nLOG_LEVEL=debug\nTURN_TIMEOUT_SECONDS=30\n"
    )
    monkeypatch.setenv("DATABASE_PATH", "/data/cards.sqlite3")  # the environment wins over .env
    settings = Settings()
    assert settings.token() == "abc.def.ghi"
    assert settings.dev_guild_id == 1234
    assert settings.log_level == "DEBUG"
    assert settings.turn_timeout_seconds == 30
    assert settings.database_path == Path("/data/cards.sqlite3")


def test_blank_values_mean_not_set(clean_env: Path) -> None:
    (clean_env / ".env").write_text("DISCORD_TOKEN=   \nDEV_GUILD_ID=\n")
    settings = Settings()
    assert settings.token() is None
    assert settings.dev_guild_id is None


def test_token_never_printed(clean_env: Path) -> None:
    settings = Settings(_env_file=None, discord_token="super-secret-token")
    for text in (repr(settings), str(settings), settings.model_dump_json()):
        assert "super-secret-token" not in text
    assert settings.token() == "super-secret-token"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("log_level", "LOUD"),
        ("log_format", "xml"),
        ("turn_timeout_seconds", 0),
        ("turn_timeout_seconds", 5),  # a table's timeout must be 10-86400: so must the default
        ("turn_timeout_seconds", 86401),
        ("dev_guild_id", "abc"),
    ],
)
def test_invalid_values_refused(clean_env: Path, field: str, value: object) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, **{field: value})


def _run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_default_timeout_shares_the_table_options_limits(clean_env: Path) -> None:
    for edge in limits.TURN_TIMEOUT:
        assert Settings(_env_file=None, turn_timeout_seconds=edge).turn_timeout_seconds == edge
    assert Settings(_env_file=None, log_format="JSON").log_format == "json"


def test_missing_token_exits_with_one_sentence(tmp_path: Path) -> None:
    result = _run_bot(tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        "cardtable-bot: DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
        "(see .env.example)."
    ]
    assert not (tmp_path / "cardbot.sqlite3").exists()  # nothing was created before failing


def test_invalid_setting_exits_with_one_sentence(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="not-a-number")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DEV_GUILD_ID" in lines[0]


def test_a_web_secret_too_short_is_called_too_short_and_a_missing_one_missing(tmp_path: Path) -> None:
    """`WEB_PORT=8080 WEB_SECRET=x check`: the secret is set, so the sentence says it is too short (and how
    long it is), not that WEB_PORT needs one."""
    token = "MTA1MjM0NTY3ODkwMTIzNDU2Nzg.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
    short = _run_bot(tmp_path, "check", DISCORD_TOKEN=token, WEB_PORT="8080", WEB_SECRET="x")
    assert short.returncode == 2 and "Traceback" not in short.stderr
    (line,) = short.stderr.strip().splitlines()
    assert "WEB_SECRET is too short: it needs at least 16 characters, not 1" in line, line
    assert "needs WEB_SECRET" not in line and "'x'" not in line  # a secret is never printed, even a bad one
    missing = _run_bot(tmp_path, "check", DISCORD_TOKEN=token, WEB_PORT="8080")
    assert missing.returncode == 2
    assert "WEB_PORT needs WEB_SECRET, at least 16 characters" in missing.stderr


def test_env_example_lists_every_setting_with_a_safe_value(clean_env: Path) -> None:
    lines = (ROOT / ".env.example").read_text().splitlines()
    assigned = dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))
    assert sorted(assigned) == sorted(name.upper() for name in Settings.model_fields)
    assert assigned["DISCORD_TOKEN"] == ""  # never a real token
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            assert lines[i - 1].startswith("#"), f"{line} has no comment"
    # The example's values are valid settings.
    (clean_env / ".env").write_text((ROOT / ".env.example").read_text())
    Settings()


def test_the_operators_settings_page_has_a_row_for_every_setting() -> None:
    """docs/operators/settings.md is where an operator looks a setting up: every field of `Settings` has its
    row there, by its variable's name, and the page names no variable the bot does not read."""
    page = (ROOT / "docs" / "operators" / "settings.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", page, re.MULTILINE))
    assert rows == {name.upper() for name in Settings.model_fields}


def test_the_container_files_say_how_to_reach_the_web_pages_as_the_docs_do() -> None:
    """The image and compose.yaml keep the pages off (no WEB_PORT of their own) and say, in comments, what the
    operators' container passage (docs/operators/service.md) says: WEB_HOST=0.0.0.0 in a container, the port
    published to this machine only."""
    root = Path(__file__).resolve().parent.parent
    readme = (root / "docs" / "operators" / "service.md").read_text(encoding="utf-8")
    for name in ("Dockerfile", "compose.yaml"):
        text = (root / name).read_text(encoding="utf-8")
        comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
        code = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
        assert not any("WEB_PORT" in line or "EXPOSE" in line for line in code), name  # off unless set
        said = " ".join(comments)
        assert "WEB_PORT" in said and "WEB_HOST=0.0.0.0" in said and "127.0.0.1:8080:8080" in said, name
    assert "WEB_HOST=0.0.0.0" in readme and "127.0.0.1:8080:8080" in readme
    assert Settings.model_fields["web_host"].default == "127.0.0.1"  # why a container must say 0.0.0.0
