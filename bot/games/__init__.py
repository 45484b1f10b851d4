"""The pure rules engines. Nothing here imports Discord, SQL, a clock or global randomness."""

from __future__ import annotations

import importlib
from types import ModuleType

GAME_KINDS = ("insomnia", "malice")


def engine(kind: str) -> ModuleType:
    """The engine module of a game kind (`bot.games.insomnia` or `bot.games.malice`)."""
    if kind not in GAME_KINDS:
        raise ValueError(f"unknown game {kind!r}")
    return importlib.import_module(f"bot.games.{kind}")
