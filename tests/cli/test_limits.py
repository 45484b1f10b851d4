"""One set of limits: what a table option accepts in Discord is what the setting and the terminal accept."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot import limits
from bot.config import Settings
from tests.cli.helpers import cli
from tests.e2e.harness import Harness

# The limits the options models give (bot/games/<game>/models.py), as players are told them.
CHIPS, DEALS = limits.Limit(1, 1000), limits.Limit(1, 100)
STAKE, TURNS = limits.Limit(0, 1000), limits.Limit(1, 500)
OPTIONS = {
    ("insomnia", "new", "chips"): CHIPS,
    ("insomnia", "new", "deals"): DEALS,
    ("insomnia", "new", "timeout"): limits.TURN_TIMEOUT,
    ("malice", "challenge", "stake"): STAKE,
    ("malice", "challenge", "timeout"): limits.TURN_TIMEOUT,
    ("malice", "challenge", "turns"): TURNS,
}


async def test_the_slash_command_options_discord_sees_have_the_shared_limits(harness: Harness) -> None:
    groups = {c["name"]: c for c in harness.fake.global_commands}
    for (group, command, option), limit in OPTIONS.items():
        sub = next(o for o in groups[group]["options"] if o["name"] == command)
        opt = next(o for o in sub["options"] if o["name"] == option)
        assert (opt["min_value"], opt["max_value"]) == tuple(limit), (group, command, option)


@pytest.mark.parametrize("outside", [limits.TURN_TIMEOUT.min - 1, limits.TURN_TIMEOUT.max + 1])
def test_a_default_timeout_no_table_could_have_is_refused(outside: int) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, turn_timeout_seconds=outside)


@pytest.mark.parametrize(
    ("args", "flag", "limit"),
    [
        (["play", "insomnia"], "--chips", CHIPS),
        (["play", "insomnia"], "--deals", DEALS),
        (["play", "malice"], "--stake", STAKE),
        (["play", "malice"], "--turns", TURNS),
        (["simulate", "--game", "insomnia"], "--chips", CHIPS),
        (["simulate", "--game", "malice"], "--turns", TURNS),
    ],
)
def test_the_command_line_refuses_what_a_table_refuses(
    tmp_path: Path, args: list[str], flag: str, limit: limits.Limit
) -> None:
    done = cli(*args, flag, str(limit.max + 1), cwd=tmp_path)
    assert done.returncode == 2
    assert f"{flag} must be from {limit.min} to {limit.max}, not {limit.max + 1}" in done.stderr
