"""`cardtable-bot health`, the container's health check, as a process: without METRICS_PORT it is `check`;
with it, a bot that does not answer is one sentence and exit 1 (Docker's "unhealthy"). A running bot's
answers (200, then 503 while the gateway is away) are in tests/e2e/test_operations.py."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import TOKEN, cli, one_line
from tests.pg import free_port


def test_without_metrics_health_is_the_check(tmp_path: Path) -> None:
    done = cli("health", cwd=tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    assert "Ready to run." in done.stdout
    bad = cli("health", cwd=tmp_path, DISCORD_TOKEN="bogus")
    assert bad.returncode == 2 and "is not a bot token" in one_line(bad.stderr)


def test_a_bot_that_does_not_answer_is_unhealthy_in_one_sentence(tmp_path: Path) -> None:
    port = free_port()  # nobody listens there
    done = cli("health", cwd=tmp_path, METRICS_PORT=str(port))
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"cardtable-bot: the bot does not answer at http://127.0.0.1:{port}/healthz")
