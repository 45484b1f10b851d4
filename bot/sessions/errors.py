"""The session layer's errors, and `Text`: a message by catalogue key, worded where it is shown.

A refusal (`NotAllowed`) and a private answer carry a key and params, not a sentence: the session does not
know who reads it, the cog does (`interaction.locale`), so the cog words it in the reader's language.
Deliberately not `bot.errors.UserFacingError`: that module imports discord.py and this layer must not.
The cogs turn a `NotAllowed` into a `UserFacingError` (see `cogs.table.user_errors`).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import catalogue, t


def _word(value: Any, locale: object) -> Any:
    """A param as the reader reads it: a `Text`, or a `(key, params)` pair from the games' own answers
    (`bot.games.commands.said`), worded in the same language; anything else as it is."""
    if isinstance(value, Text):
        return value.word(locale)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        return Text(str(value[0]), **value[1]).word(locale)
    return value


class Text:
    """A message to word later: `Text("table.not_your_turn", player="<@1>")`. A param may itself be a
    `Text` (a game's name), worded in the same language. A key the catalogue lacks is shown as it is: the
    English sentences still raised by code not converted yet (the engines' refusals) pass through."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    def word(self, locale: object) -> str:
        if self.key not in catalogue():
            return self.key
        params = {k: _word(v, locale) for k, v in self.params.items()}
        return t(locale, self.key, **params)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.key, self.params) == (other.key, other.params)

    def __repr__(self) -> str:
        return type(self).__name__ + f"({self.key!r}, {self.params!r})"


class GameName(Text):
    """A game's name: from the catalogue when it has one (`game.<kind>`), else the title its folder gives (a
    game added without translations still reads well)."""

    def __init__(self, kind: str, title: str) -> None:
        super().__init__(f"game.{kind}")
        self.title = title

    def word(self, locale: object) -> str:
        return super().word(locale) if self.key in catalogue() else self.title


class NotAllowed(Exception):
    """A mistake a user can fix (not seated, not his turn, an illegal card): a catalogue key and its params,
    worded in the reader's language by `word(locale)`; `message` is the English wording (logs, tests)."""

    def __init__(self, key: str, **params: Any) -> None:
        self.text = Text(key, **params)
        super().__init__(self.text.word("en"))
        self.message = self.text.word("en")

    def word(self, locale: object) -> str:
        return self.text.word(locale)


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
