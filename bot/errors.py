"""How failures reach users: one short ephemeral sentence, never a stack trace.

- A mistake by the user (`UserFacingError`, a failed check, a cooldown, missing permissions) is answered
  with a sentence that says what to do instead.
- Anything else is a bug: it is logged with a short error id, and the user is told
  "Something went wrong (error id …)." so a report can be matched to the log.

The same `report_error` serves the command tree (`bot.client.CardTree.on_error`), views (`SafeView`) and
persistent buttons (`guarded` around a `DynamicItem.callback`, whose errors discord.py would only log).
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

log = logging.getLogger(__name__)


class UserFacingError(Exception):
    """A mistake a user can fix; the message is shown to him as is, so write one clear sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# Discord's UI names for the permissions a check may ask for (discord.py uses the API names).
_PERMISSION_NAMES = {"manage_guild": "Manage Server", "manage_channels": "Manage Channels"}


def _permissions(names: list[str]) -> str:
    return ", ".join(_PERMISSION_NAMES.get(n, n.replace("_", " ").title()) for n in names)


def user_message(error: BaseException) -> str | None:
    """The sentence for an error the user caused, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserFacingError):
        return error.message
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command only works in a server channel."
    if isinstance(error, app_commands.MissingPermissions):
        return f"You need the {_permissions(error.missing_permissions)} permission to do that."
    if isinstance(error, app_commands.BotMissingPermissions):
        return f"I need the {_permissions(error.missing_permissions)} permission in this channel."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.CheckFailure):
        return "You are not allowed to use this command here."
    if isinstance(error, app_commands.TransformerError):
        return f"{error.value!r} is not a valid value for this option."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "This command was just updated: try again in a minute."
    return None


def new_error_id() -> str:
    return secrets.token_hex(3)


async def report_error(interaction: discord.Interaction, error: BaseException, where: str = "") -> None:
    """Answer the interaction with the right sentence (ephemeral); log bugs with an id. Never raises."""
    message = user_message(error)
    if message is None:
        error_id = new_error_id()
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "error id %s: unexpected %s in %s (user %s, channel %s)",
            error_id,
            type(error).__name__,
            where or (f"/{command}" if command else "an interaction"),
            interaction.user.id if interaction.user else None,
            interaction.channel_id,
            exc_info=error,
        )
        message = f"Something went wrong (error id {error_id})."
    message = message if len(message) <= 2000 else message[:1999] + "…"  # Discord's limit for a message
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            if not interaction.response.is_done():
                await interaction.response.autocomplete([])
        elif interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException as exc:
        # The interaction expired or Discord is unwell: nothing more to tell the user.
        log.warning("could not report an error to the user: %s", exc)


class SafeView(discord.ui.View):
    """A view whose button and select failures are answered like command failures."""

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        custom_id = getattr(item, "custom_id", None)  # buttons and selects have one
        await report_error(interaction, error, where=f"{type(self).__name__} item {custom_id!r}")


F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def guarded(callback: F) -> F:
    """Decorate a `DynamicItem.callback` (or any item callback) so its failures reach the user and the log."""

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
        try:
            return await callback(self, interaction, *args, **kwargs)
        except Exception as error:
            await report_error(interaction, error, where=f"{type(self).__name__} callback")
            return None

    return wrapper  # type: ignore[return-value]
