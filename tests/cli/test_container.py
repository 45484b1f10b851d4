"""The container recipe builds and its image answers, where a container engine is there to build it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.cli.helpers import ROOT, TOKEN

IMAGE = "cardtable-bot:ci-test"


def _engine() -> str:
    """docker or podman, if one is installed and its engine answers; else skip with the reason."""
    for name in ("docker", "podman"):
        path = shutil.which(name)
        if path is None:
            continue
        try:
            answer = subprocess.run([path, "info"], capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            continue
        if answer.returncode == 0:
            return path
    pytest.skip("no container engine answers here (docker/podman info failed): the image was not built")


def test_the_image_builds_runs_as_non_root_and_answers() -> None:
    engine = _engine()
    built = subprocess.run(
        [engine, "build", "-t", IMAGE, str(ROOT)], capture_output=True, text=True, timeout=1800
    )
    assert built.returncode == 0, built.stderr[-3000:]
    try:
        version = subprocess.run(
            [engine, "run", "--rm", IMAGE, "--version"], capture_output=True, text=True, timeout=120
        )
        assert version.returncode == 0 and version.stdout.startswith("cardtable-bot ")
        user = subprocess.run(
            [engine, "run", "--rm", "--entrypoint", "id", IMAGE, "-u"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert user.stdout.strip() not in ("", "0")
        # The health check's command (`health`: `check` without METRICS_PORT): settings and the database on
        # the volume, without Discord.
        check = subprocess.run(
            [engine, "run", "--rm", "-e", f"DISCORD_TOKEN={TOKEN}", IMAGE, "health"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert check.returncode == 0, check.stderr
        assert "database /data/cardbot.sqlite3" in check.stdout
    finally:
        subprocess.run([engine, "rmi", "-f", IMAGE], capture_output=True, timeout=120)
