"""`cardtable-bot check` says what it can of the Activity (issue 33) without asking Discord: the client id
must be the token's application, the web server must be on, the page must be built, and Discord's proxy
reaches only an https PUBLIC_URL; when all holds it names the URL mapping to set in the developer portal."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web.activity import CLIENT
from tests.cli.helpers import TOKEN, cli, one_line

WEB = {"WEB_PORT": "8080", "WEB_SECRET": "a-web-secret-0123456789", "DISCORD_CLIENT_SECRET": "s3cret-value"}


def test_check_refuses_an_activity_that_cannot_work(tmp_path: Path) -> None:
    other = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_CLIENT_ID="123456789012345678", **WEB)
    assert other.returncode == 2
    assert "the token belongs to application 900000000000000001" in one_line(other.stderr)
    alone = cli(
        "check",
        cwd=tmp_path,
        DISCORD_TOKEN=TOKEN,
        DISCORD_CLIENT_ID="900000000000000001",
        DISCORD_CLIENT_SECRET="s3cret-value",
    )
    assert alone.returncode == 2 and "WEB_PORT is not" in one_line(alone.stderr)
    half = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_CLIENT_ID="900000000000000001")
    assert half.returncode == 2 and "go together" in one_line(half.stderr)
    assert "s3cret-value" not in other.stderr + alone.stderr + half.stderr


@pytest.mark.skipif(
    not (CLIENT / "index.html").is_file(), reason="the Activity's page is not built (client/)"
)
def test_check_names_the_url_mapping_of_a_ready_activity(tmp_path: Path) -> None:
    plain = cli("check", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DISCORD_CLIENT_ID="900000000000000001", **WEB)
    assert plain.returncode == 0, plain.stderr
    assert "is not https" in plain.stdout
    ready = cli(
        "check",
        cwd=tmp_path,
        DISCORD_TOKEN=TOKEN,
        DISCORD_CLIENT_ID="900000000000000001",
        PUBLIC_URL="https://cards.example.org",
        **WEB,
    )
    assert ready.returncode == 0, ready.stderr
    assert "map the root / to cards.example.org/activity" in ready.stdout
