"""The log as a person or a collector reads it: no voice-support noise, colour only on a terminal, JSON."""

from __future__ import annotations

import io
import json
import logging

import discord
import pytest

from bot.cli.logs import setup_logging
from bot.client import CardBot
from bot.config import Settings


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def _restore_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    nacl, dave = discord.VoiceClient.warn_nacl, getattr(discord.VoiceClient, "warn_dave", False)
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    discord.VoiceClient.warn_nacl, discord.VoiceClient.warn_dave = nacl, dave


def test_a_new_bot_says_nothing_about_voice_support(tmp_path) -> None:
    stream = io.StringIO()
    setup_logging("INFO", stream=stream)
    CardBot(Settings(_env_file=None, discord_token="x", database_path=tmp_path / "db.sqlite3"), extensions=())
    assert "voice" not in stream.getvalue() and stream.getvalue() == ""


def test_colour_only_on_a_terminal() -> None:
    plain, terminal = io.StringIO(), FakeTerminal()
    for stream in (plain, terminal):
        setup_logging("INFO", stream=stream)
        logging.getLogger("bot").warning("turn timeout for table %d", 3)
    assert "\x1b[" not in plain.getvalue() and "WARNING  bot: turn timeout for table 3" in plain.getvalue()
    assert "\x1b[33;1mWARNING\x1b[0m" in terminal.getvalue()


def test_json_lines_for_collectors() -> None:
    stream = FakeTerminal()  # JSON is never coloured, terminal or not
    setup_logging("DEBUG", "json", stream=stream)
    logging.getLogger("bot.sessions").debug("table %s resumed", 12)
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("bot").exception("a bug")
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["level"] == "DEBUG" and first["logger"] == "bot.sessions"
    assert first["message"] == "table 12 resumed" and first["time"].endswith("Z")
    assert second["message"] == "a bug" and "ValueError: boom" in second["exception"]
