"""How failures reach users: one short ephemeral sentence, never a stack trace.

- A mistake by the user (a `Refusal`, raised by the engines, the sessions and the cogs alike; a failed check,
  a cooldown, missing permissions) is answered with a sentence that says what to do instead, in the
  reader's language (`interaction.locale`).
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

from bot.discord_out import discord_words
from bot.games.refusal import Refusal
from bot.i18n import catalogue, join, number, t
from bot.render.wording import refusal_text

log = logging.getLogger(__name__)


def _permissions(names: list[str], locale: object) -> str:
    """Discord's UI names for the permissions a check asks for (discord.py uses the API names)."""
    shown = [t(locale, f"permission.{n}") if f"permission.{n}" in catalogue() else n for n in names]
    return join(locale, shown)


def user_message(error: BaseException, locale: object = "en") -> str | None:
    """The sentence for an error the user caused, in his language, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, Refusal):
        return refusal_text(error, locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(locale, "errors.server_only")
    if isinstance(error, app_commands.MissingPermissions):
        return t(
            locale, "errors.missing_permissions", permissions=_permissions(error.missing_permissions, locale)
        )
    if isinstance(error, app_commands.BotMissingPermissions):
        permissions = _permissions(error.missing_permissions, locale)
        return t(locale, "errors.bot_missing_permissions", permissions=permissions)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t(locale, "errors.cooldown", seconds=number(locale, round(error.retry_after)))
    if isinstance(error, app_commands.CheckFailure):
        return t(locale, "errors.check_failed")
    if isinstance(error, app_commands.TransformerError):
        return t(locale, "errors.bad_value", value=repr(error.value))
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t(locale, "errors.command_updated")
    return None


# Discord's "Unknown interaction" (the answer came after its 3 s: the bot was too busy) and "Unknown Webhook"
# (the token's 15 minutes are over): nothing reaches the user any more (his client says the interaction
# failed), and the code is not at fault.
EXPIRED_CODES = frozenset({10062, 10015})


def expired(error: BaseException) -> bool:
    """Whether `error` is Discord refusing an answer because the interaction is over."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return isinstance(error, discord.NotFound) and error.code in EXPIRED_CODES


def new_error_id() -> str:
    return secrets.token_hex(3)


async def report_error(interaction: discord.Interaction, error: BaseException, where: str = "") -> None:
    """Answer the interaction with the right sentence (ephemeral); log bugs with an id. Never raises."""
    command = interaction.command.qualified_name if interaction.command else None
    if expired(error):
        # Whatever was stored still shows: the presenter writes what no answer carried.
        log.warning(
            "an answer came too late for Discord in %s (user %s, channel %s): %s",
            where or (f"/{command}" if command else "an interaction"),
            interaction.user.id if interaction.user else None,
            interaction.channel_id,
            " ".join(str(error).split()),
        )
        return
    message = user_message(error, interaction.locale)
    if message is None:
        error_id = new_error_id()
        log.error(
            "error id %s: unexpected %s in %s (user %s, channel %s)",
            error_id,
            type(error).__name__,
            where or (f"/{command}" if command else "an interaction"),
            interaction.user.id if interaction.user else None,
            interaction.channel_id,
            exc_info=error,
        )
        message = t(interaction.locale, "errors.unexpected", error_id=error_id)
    message = discord_words(message)  # its people and moments as Discord writes them
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
