"""The command line itself: help, version, usage errors, and the installed `cardtable-bot` script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, clean_env, cli, one_line

# Runs `python -m bot ARGS` with an audit hook that fails the process the moment anything creates or
# connects a socket: --help and --version must not touch the network (they used to start the bot).
NO_SOCKETS = """
import os, runpy, sys
def hook(event, args):
    if event in ("socket.__new__", "socket.connect", "socket.getaddrinfo"):
        os.write(2, f"SOCKET {event}\\n".encode())
        os._exit(99)
sys.addaudithook(hook)
sys.argv = ["bot", *sys.argv[1:]]
runpy.run_module("bot", run_name="__main__")
"""


def _without_sockets(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", NO_SOCKETS, *args],
        cwd=cwd,
        env=clean_env(DISCORD_TOKEN="x"),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_the_commands_and_opens_no_socket(tmp_path: Path, flag: str) -> None:
    done = _without_sockets(flag, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for command in ("run", "check", "simulate", "play", "backup"):
        assert f"    {command} " in done.stdout
    assert "SOCKET" not in done.stderr
    assert not list(tmp_path.iterdir())  # no database was created


def test_version_opens_no_socket(tmp_path: Path) -> None:
    done = _without_sockets("--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cardtable-bot ") and done.stdout.strip().split()[1][0].isdigit()


@pytest.mark.parametrize("command", ["play", "simulate", "backup", "check", "run"])
def test_each_command_has_its_own_help(tmp_path: Path, command: str) -> None:
    done = _without_sockets(command, "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: cardtable-bot {command}")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["dance"], "invalid choice: 'dance'"),
        (["--verbose"], "unrecognized arguments: --verbose"),
        (["play"], "the following arguments are required: game"),
        (["play", "poker"], "invalid choice: 'poker'"),
        (["play", "insomnia", "--players", "9"], "--players must be from 2 to 8, not 9"),
        (["play", "malice", "--players", "3"], "Malice is for exactly 2 players"),
        (["play", "malice", "--chips", "3"], "--chips is not an option of Malice: only Insomnia has it"),
        (["play", "insomnia", "--chips", "abc"], "invalid int value: 'abc'"),
        (["simulate", "--game", "insomnia", "--chips", "0"], "--chips must be from 1 to 1000, not 0"),
        (["simulate", "--game", "insomnia", "--deals", "0"], "--deals must be from 1 to 100, not 0"),
        (["simulate", "--game", "malice", "--chips", "20"], "--chips is not an option of Malice: only"),
        (["simulate", "--game", "insomnia", "--stake", "2"], "--stake is not an option of Insomnia: only"),
        (
            ["simulate", "--game", "malice", "--option", "discard=sometimes"],
            "--option discard must be optional or required, not 'sometimes'",
        ),
        (
            ["simulate", "--game", "insomnia", "--games", "99999999999999999999"],
            "--games must be from 1 to 10000000, not 99999999999999999999",
        ),
        (["simulate", "--game", "insomnia", "--games", "0"], "--games must be from 1 to 10000000, not 0"),
        # Whole numbers as typed, never 1e+20; the allowed range named.
        (
            ["play", "insomnia", "--chips", "99999999999999999999"],
            "--chips must be from 1 to 1000, not 99999999999999999999",
        ),
        (["play", "malice", "--option", "turns=lots"], "--option turns must be a whole number from 1 to 500"),
        (
            ["simulate", "--game", "malice", "--option", "sevens=all"],
            "--option sevens: Malice has no such option (it has stake, turns, discard)",
        ),
        (["simulate", "--game", "malice", "--option", "turns"], "--option takes NAME=VALUE"),
        (["play", "malice", "--option", "turns=0"], "--option turns must be from 1 to 500, not 0"),
        (["play", "insomnia", "--bust", "never"], "argument --bust: invalid choice: 'never'"),
        (["backup"], "the following arguments are required: FILE"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert line.startswith("cardtable-bot") and says in line and "--help" in line
    assert "e+" not in line and "input should" not in line.lower()  # no float echo, no pydantic wording
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT (how many shards there are in all)."),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'LOUD'."),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "SHARD_IDS must be shard numbers separated by commas"),
        (
            {"METRICS_PORT": "99999", "LOG_FORMAT": "xml"},
            "LOG_FORMAT must be 'text' or 'json', not 'xml'; METRICS_PORT must be at most 65535, not "
            "'99999'.",
        ),
        ({"TURN_TIMEOUT_SECONDS": "5"}, "TURN_TIMEOUT_SECONDS must be at least 10, not '5'."),
        ({"DATABASE_URL": "mysql://u:secret@db/x"}, "DATABASE_URL must start with postgresql://"),
    ],
)
def test_a_wrong_setting_is_named_in_a_sentence_a_person_reads(
    tmp_path: Path, settings: dict[str, str], says: str
) -> None:
    done = cli("check", cwd=tmp_path, DISCORD_TOKEN="x", **settings)
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert line.startswith(f"cardtable-bot: {says.split(' ')[0]}") and says in line, line
    assert line.endswith("Settings come from the environment and .env (see .env.example).")
    # Neither pydantic's wording nor an empty setting name reaches the person, nor a password.
    assert "Value error" not in line and "(:" not in line and "Input should" not in line
    assert "secret" not in line


def test_the_installed_script_is_the_same_command_line(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "cardtable-bot"
    if not script.exists():
        pytest.skip("cardtable-bot is not installed in this environment (pip install -e .)")
    done = subprocess.run(
        [str(script), "simulate", "--game", "malice", "--games", "2", "--seed", "3"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("malice: 2 games, 2 players, seed 3")
    version = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout == cli("--version", cwd=ROOT).stdout
