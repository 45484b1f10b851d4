"""`python -m bot`: the same command line as the installed `cardtable-bot` (see `bot.cli`).

`run` and the exit codes are importable from here (tests await the bot in their own loop); they load on first
use, so `python -m bot --help` does not import discord.py.
"""

from __future__ import annotations

import sys
from typing import Any

from bot.cli import main

_LAZY = ("EXIT_CONFIG", "EXIT_NETWORK", "EXIT_REJECTED", "EXIT_STORAGE", "run")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from bot.cli import serve

        return getattr(serve, name)
    raise AttributeError(name)


if __name__ == "__main__":
    sys.exit(main())
