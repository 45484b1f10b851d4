"""The bot's Discord features, one extension a module (each has `async def setup(bot)`).

The command line hands `extensions()` to the bot (`bot.cli.serve`); the bot object (`bot.client`), which the
cogs plug into, does not import them.
"""

from __future__ import annotations

import pkgutil


def extensions() -> list[str]:
    """Every module of this package, found on disk so a new cog needs no registration."""
    return sorted(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not m.ispkg)
