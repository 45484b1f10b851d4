"""The pure rules engines. Nothing here imports Discord, SQL, a clock or global randomness.

What games there are is in `bot.games.registry.REGISTRY`; `engine(kind)` and `GAME_KINDS` read it.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def engine(kind: str) -> ModuleType:
    """The engine module of a game kind (`bot.games.<kind>`, as its spec names it)."""
    from bot.games.registry import REGISTRY  # here, not above: importing bot.games.cards stays light

    if kind not in REGISTRY:
        raise ValueError(f"unknown game {kind!r}")
    return importlib.import_module(REGISTRY[kind].module)


def __getattr__(name: str) -> tuple[str, ...]:
    # GAME_KINDS follows the registry (games registered later, e.g. by tests, included).
    if name == "GAME_KINDS":
        from bot.games.registry import REGISTRY

        return REGISTRY.names()
    raise AttributeError(f"module 'bot.games' has no attribute {name!r}")
