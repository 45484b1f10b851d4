"""The session layer's one error: a player's mistake, told back to him as one sentence.

Deliberately not `bot.errors.UserFacingError`: that module imports discord.py and this layer must not.
The cogs turn a `NotAllowed` into a `UserFacingError` (see `cogs.table.user_errors`).
"""

from __future__ import annotations


class NotAllowed(Exception):
    """A mistake a user can fix (not seated, not his turn, an illegal card); `message` is shown as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
