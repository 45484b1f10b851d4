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


class DMClosed(Exception):
    """The user does not accept DMs from the bot (Discord error 50007)."""


class EditExpired(Exception):
    """Discord refuses further edits of an old message (error 30046): post a fresh one instead."""


class ChannelGone(Exception):
    """The channel no longer exists, or the bot can no longer see it (errors 10003, 50001)."""


class MissingPermission(Exception):
    """The bot lacks a permission it needs in the channel (errors 50013, 50001); `permission` names it."""

    def __init__(self, permission: str) -> None:
        super().__init__(permission)
        self.permission = permission
