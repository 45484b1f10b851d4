"""Running the command line as a person would: a subprocess, with no setting leaking in from this machine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = [
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "TURN_TIMEOUT_SECONDS",
    "SHARD_COUNT",
    "SHARD_IDS",
    "METRICS_PORT",
    "METRICS_HOST",
]
# Shaped like a bot token (application 900000000000000001, in base64, then two more parts), but no real one:
# `check` checks the shape offline.
TOKEN = "OTAwMDAwMDAwMDAwMDAwMDAx.AbCdEf.not-a-real-token"


def clean_env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = str(ROOT)
    return {**env, **settings}


def cli(
    *args: str, cwd: Path, timeout: float = 60, input: str | None = None, **settings: str
) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` in `cwd` (where a .env would be read from)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(**settings),
        capture_output=True,
        text=True,
        timeout=timeout,
        input=input,
    )


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{stderr}"
    assert "Traceback" not in stderr
    return lines[0]
