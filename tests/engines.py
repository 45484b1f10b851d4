"""The engine module of a game kind (`bot/games/<kind>/`, its common names re-exported by its `__init__.py`),
for tests that play an engine directly with its keyword options (`chips`, `max_deals`, `stake`,
`max_turns`). The bot reaches a game only through its spec (`bot.games.registry.REGISTRY`)."""

from __future__ import annotations

import importlib
from types import ModuleType

from bot.games.registry import REGISTRY


def engine(kind: str) -> ModuleType:
    if kind not in REGISTRY:
        raise ValueError(f"unknown game {kind!r}")
    return importlib.import_module(f"bot.games.{kind}")
