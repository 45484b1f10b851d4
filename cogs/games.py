"""/<game> ...: every registered game's command group, built from its presentation's command data
(`CommandSet`, `bot.render.registry`).

One generic cog for all games: each command is an `app_commands.Command` whose callback is generated with a
signature carrying the options (name, discord.py type, limits, default), so the synced tree shows exactly what
the spec says. Thin: the session layer and the engine decide everything. The groups are built when the bot
loads its cogs, from the games registered then (a test registers its own game before the bot starts).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec
from bot.interactions import choices_for, game_command, open_game, respond, room_of, sessions_of, where
from bot.render.commands import CommandOption, CommandSet, GameCommand
from bot.render.registry import PRESENTATIONS

if TYPE_CHECKING:
    from bot.client import CardBot

Callback = Callable[..., Coroutine[Any, Any, None]]


def _annotation(option: CommandOption) -> Any:
    """The discord.py annotation of an option: its type, with its limits, optional unless required."""
    base: Any
    if option.type == "user":
        base = discord.User
    elif option.type == "boolean":
        base = bool
    else:
        kind = int if option.type == "integer" else str
        if option.min is not None or option.max is not None:
            base = app_commands.Range[kind, option.min, option.max]
        else:
            base = kind
    return base if option.required else Optional[base]  # noqa: UP045 (a runtime object, not a hint)


def _signature(command: GameCommand) -> inspect.Signature:
    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    params += [
        inspect.Parameter(
            o.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=_annotation(o),
            default=inspect.Parameter.empty if o.required else None,
        )
        for o in command.options
    ]
    return inspect.Signature(params)


def command_set(spec: GameSpec) -> CommandSet | None:
    """The game's command data (None: its presentation gives it no commands, or it has no presentation)."""
    return PRESENTATIONS[spec.name].commands if spec.name in PRESENTATIONS else None


def _commands(spec: GameSpec) -> CommandSet:
    found = command_set(spec)
    if found is None:
        raise LookupError(spec.name)  # only games with commands get a group
    return found


def _open(spec: GameSpec, command: GameCommand) -> Callback:
    async def callback(interaction: discord.Interaction, **params: Any) -> None:
        opponent = next((params.pop(o.name) for o in command.options if o.type == "user"), None)
        await open_game(interaction, spec, params, opponent)

    return callback


LOBBY_STEPS = {
    "join": "join",
    "leave": "leave",
    "addbot": "add_computer",
    "start": "start",
    "accept": "accept",
    "decline": "decline",
}


# The steps that may start a game (in a thread of its own, if the server plays in threads).
STARTING = ("start", "accept")


def _lobby_step(step: str) -> Callback:
    async def callback(interaction: discord.Interaction) -> None:
        method = getattr(sessions_of(interaction).lobbies, LOBBY_STEPS[step])
        if step in STARTING:
            await respond(interaction, lambda: method(*where(interaction), room_of(interaction)))
        else:
            await respond(interaction, lambda: method(*where(interaction)))

    return callback


def _move(spec: GameSpec, command: GameCommand) -> Callback:
    async def callback(interaction: discord.Interaction, **params: Any) -> None:
        await game_command(interaction, spec.name, command.name, params)

    return callback


def _autocomplete(
    command: str, option: str
) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices_for(interaction, command, option, current)

    return complete


def build_command(spec: GameSpec, command: GameCommand) -> app_commands.Command[Any, ..., None]:
    if command.role == "open":
        callback = _open(spec, command)
    elif command.role == "move":
        callback = _move(spec, command)
    else:
        callback = _lobby_step(command.role)
    callback.__signature__ = _signature(command)  # type: ignore[attr-defined]
    # A plain function's name, not a method's: discord.py then passes no `self`.
    callback.__name__ = callback.__qualname__ = f"{spec.name}_{command.name}"
    described = {o.name: o.description for o in command.options}
    if described:
        callback = app_commands.describe(**described)(callback)
    chosen = {
        o.name: [app_commands.Choice(name=label, value=value) for value, label in o.choices]
        for o in command.options
        if o.choices
    }
    if chosen:
        callback = app_commands.choices(**chosen)(callback)
    built: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=command.name, description=command.description, callback=callback
    )
    for option in command.options:
        if option.autocomplete:
            built.autocomplete(option.name)(_autocomplete(command.name, option.name))
    return built


def build_group(spec: GameSpec) -> app_commands.Group:
    """The `/<game>` group of one registered game."""
    commands_ = _commands(spec)
    group = app_commands.Group(name=spec.name, description=commands_.description)
    if spec.table == "challenge":
        # Two players who challenge each other: anywhere, in DMs and group DMs too (a user install).
        group = app_commands.allowed_installs(guilds=True, users=True)(group)
        group = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(group)
    else:
        # An open lobby people join in a channel (Insomnia): servers the bot is in only.
        group = app_commands.guild_only()(group)
        group = app_commands.allowed_installs(guilds=True, users=False)(group)
    for command in commands_.commands:
        group.add_command(build_command(spec, command))
    return group


class GameCommands(commands.Cog):
    """The command groups of the registered games; added to the tree with the cog, removed with it."""

    def __init__(self, groups: list[app_commands.Group]) -> None:
        self.groups = groups
        self.__cog_app_commands__ = list(groups)


async def setup(bot: CardBot) -> None:
    groups = [build_group(spec) for spec in REGISTRY if command_set(spec) is not None]
    await bot.add_cog(GameCommands(groups))
