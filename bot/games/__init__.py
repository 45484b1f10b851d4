"""The pure rules engines. Nothing here imports Discord, SQL, a clock or global randomness.

What games there are is in `bot.games.registry.REGISTRY`; `GAME_KINDS` reads it.
"""

from __future__ import annotations


def __getattr__(name: str) -> tuple[str, ...]:
    # GAME_KINDS follows the registry (games registered later, e.g. by tests, included).
    if name == "GAME_KINDS":
        from bot.games.registry import REGISTRY

        return REGISTRY.names()
    raise AttributeError(f"module 'bot.games' has no attribute {name!r}")
