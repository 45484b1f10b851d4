"""What a command receives is checked by the bot, not only declared to Discord: a client that sends a value
outside a choice list or a range, a string past its length, a guild-only command from a DM, gets one
sentence back instead of reaching the command (Discord should never send these, but the bot does not rely on
it): a `Refusal`, worded in the user's language by `bot.errors.report_error`."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY
from bot.i18n import catalogue, excerpt
from bot.i18n.commands import option_key
from bot.sessions.errors import GameName

_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


# Options whose value is a Discord id that Discord resolves for the bot (the user, channel or role itself).
_RESOLVED: dict[discord.AppCommandOptionType, tuple[str, ...]] = {
    discord.AppCommandOptionType.user: ("users",),
    discord.AppCommandOptionType.channel: ("channels",),
    discord.AppCommandOptionType.role: ("roles",),
    discord.AppCommandOptionType.mentionable: ("users", "roles"),
}
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")  # ASCII digits only: int() would take "٣" as 3 and fail on "²"


def _options(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The leaf options of a command's data (inside its subcommand group and subcommand, if any)."""
    options: list[dict[str, Any]] = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): its options hold the values
        options = options[0].get("options") or []
    return options


def without_nulls(data: dict[str, Any]) -> None:
    """Take an option sent as null as left out (in place, before discord.py reads the options): Discord never
    sends one, but a client that does would otherwise reach the command with None where its default is (an
    error id, not a sentence). A required option left out is then refused by `check_command_input`; the
    focused option of an autocomplete is typed text, so a null there is the empty text. An `options` that is
    not a list is none at all."""
    level: dict[str, Any] = data
    while True:
        options = level.get("options")
        if not isinstance(options, list):
            level["options"] = []
            return
        kept: list[Any] = []
        for option in options:
            if not isinstance(option, dict):
                continue
            if option.get("type") not in (1, 2) and option.get("value") is None:
                if not option.get("focused"):
                    continue
                option["value"] = ""
            kept.append(option)
        options[:] = kept
        subcommand = next((o for o in kept if o.get("type") in (1, 2)), None)
        if subcommand is None:
            return
        level = subcommand


def _guild_only(command: app_commands.Command[Any, ..., Any]) -> bool:
    node: Any = command
    while node is not None:
        if getattr(node, "guild_only", False):
            return True
        node = getattr(node, "parent", None)
    return False


def _shown_name(command: app_commands.Command[Any, ..., Any], param: Any) -> tuple[str, dict[str, Any]] | str:
    """The option as the user's client shows it (its German name for a German client): a nested text."""
    key = f"{option_key(command, param.name)}.name"
    return (key, {}) if key in catalogue() else str(param.display_name)


def check_command_input(interaction: discord.Interaction) -> None:
    """Raise a `Refusal` naming the first thing wrong with this command's input."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    if _guild_only(command) and interaction.guild_id is None:
        root = command.root_parent or command
        if root.name in REGISTRY:  # a game that needs a server (Insomnia): say so, and what works here
            raise Refusal("dm.servers_only", game=GameName(root.name, REGISTRY[root.name].title))
        raise Refusal("errors.server_only")
    given = {o.get("name"): o.get("value") for o in _options(interaction.data or {})}  # type: ignore[arg-type]
    for param in command.parameters:
        value = given.get(param.display_name)
        name = _shown_name(command, param)
        if value is None:
            if param.required:
                raise Refusal("input.missing", option=name)
            continue
        expected = _TYPES.get(param.type)
        if expected and (
            not isinstance(value, expected) or (bool not in expected and isinstance(value, bool))
        ):
            raise Refusal("input.bad_value", value=excerpt(str(value)), option=name)
        if param.type in _RESOLVED:
            # An id that is not a snowflake, or one Discord did not resolve (a user nobody can see), would
            # fail inside discord.py before the command runs (no answer) or reach it as a bare id.
            data: dict[str, Any] = dict(interaction.data or {})
            resolved: dict[str, Any] = data.get("resolved") or {}
            known = [resolved.get(kind) or {} for kind in _RESOLVED[param.type]]
            if not _SNOWFLAKE.fullmatch(str(value)) or not any(str(value) in k for k in known):
                raise Refusal("input.unresolved", option=name)
            continue
        if param.choices and value not in {c.value for c in param.choices}:
            allowed = ", ".join(str(c.value) for c in param.choices)
            raise Refusal("input.not_a_choice", option=name, allowed=allowed)
        low, high = param.min_value, param.max_value  # for a string: its length
        if isinstance(value, str):
            if high is not None and len(value) > high:
                raise Refusal("input.too_long", option=name, n=high)
            if low is not None and len(value) < low:
                raise Refusal("input.too_short", option=name, n=low)
        elif (low is not None and value < low) or (high is not None and value > high):
            raise Refusal("input.out_of_range", option=name, low=low, high=high)
