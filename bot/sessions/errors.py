"""The session layer's errors, and `Text`: a message by catalogue key, worded where it is shown.

A refusal (`NotAllowed`, which is `bot.games.refusal.Refusal`, the one user-error type the engines raise too)
and a private answer carry a key and params, not a sentence: the session does not know who reads it, the cog
does (`interaction.locale`), and `bot.errors.user_message` words any refusal in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.refusal import Refusal
from bot.i18n import catalogue
from bot.render.common import Message
from bot.render.wording import word


class Text:
    """A message to word later: `Text("table.not_your_turn", player=name("1"))`. Its params are worded as a
    refusal's (`bot.render.wording`): a `Text` (a game's name) in the same language. A key the catalogue lacks
    is shown as it is (a game without translations may give its sentence)."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    def word(self, locale: object) -> str:
        return word(self.key, self.params, locale)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.key, self.params) == (other.key, other.params)

    def __repr__(self) -> str:
        return type(self).__name__ + f"({self.key!r}, {self.params!r})"


class Later:
    """A private answer built only if it is sent: a move's receipt (his hand, his move), which a click
    answered in place with the table message never sends (a quarter of a ms of wording saved per move)."""

    def __init__(self, build: Callable[[], Message]) -> None:
        self.build = build


class GameName(Text):
    """A game's name: from the catalogue when it has one (`game.<kind>`), else the title its folder gives (a
    game added without translations still reads well)."""

    def __init__(self, kind: str, title: str) -> None:
        super().__init__(f"game.{kind}")
        self.title = title

    def word(self, locale: object) -> str:
        return super().word(locale) if self.key in catalogue() else self.title


# A mistake a user can fix (not seated, not his turn, an illegal card): the engines' own refusal type.
NotAllowed = Refusal


class TableChanged(NotAllowed):
    """The stale path: another writer (another process: a rolling restart's overlap, a process that was
    paused) changed this table first. Nothing was written; the table's record was reloaded from the store
    and published, so the next try plays on the truth. Worded to the player as `table.changed`."""

    def __init__(self) -> None:
        super().__init__("table.changed")


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
