"""Log set-up for the bot process: one handler on stdout, text or JSON.

Log lines go to stdout and the one-sentence failure of a start (exits 2-5) goes to stderr, so stderr of a
failed start is exactly that sentence. Colour codes only when the stream is a terminal: discord.py's own
set-up also colours inside containers, which put escape codes into log files and collectors. A gateway
connection that drops and is retried is one warning line (discord.py logs it as an error with a traceback).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import TextIO

_COLOURS = {
    logging.DEBUG: "\x1b[40;1m",
    logging.INFO: "\x1b[34;1m",
    logging.WARNING: "\x1b[33;1m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
_RESET = "\x1b[0m"
TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


class ColourFormatter(logging.Formatter):
    """The text format with the level coloured (used only on a terminal)."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        level = record.levelname
        return text.replace(level, f"{_COLOURS.get(record.levelno, '')}{level}{_RESET}", 1)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (ISO 8601, UTC), level, logger, message, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


class RetriedReconnects(logging.Filter):
    """discord.py's "Attempting a reconnect ..." (the gateway dropped; it reconnects on its own) becomes one
    warning line naming the cause, instead of an error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("discord.") and str(record.msg).startswith("Attempting a reconnect"):
            exc = record.exc_info[1] if record.exc_info else None
            if exc is not None:
                cause = " ".join(str(exc).split())
                record.msg = f"{record.getMessage()} ({type(exc).__name__}{': ' + cause if cause else ''})"
                record.args = None
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup_logging(level: str, fmt: str = "text", stream: TextIO | None = None) -> logging.Handler:
    """Route every logger (discord.py's included) to one handler on `stream` (stdout by default)."""
    stream = stream or sys.stdout
    handler = logging.StreamHandler(stream)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        tty = hasattr(stream, "isatty") and stream.isatty()
        cls = ColourFormatter if tty else logging.Formatter
        handler.setFormatter(cls(TEXT_FORMAT, "%Y-%m-%d %H:%M:%S"))
    handler.addFilter(RetriedReconnects())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    quiet_voice_warnings()
    return handler


def quiet_voice_warnings() -> None:
    """This bot has no voice: discord.py's 'PyNaCl is not installed' and 'davey' warnings are noise, and
    they came before the one sentence of a failed start."""
    import discord

    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False
