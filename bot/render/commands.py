"""A game's slash commands as data, and how a move command becomes an action.

The cogs build the `/<game> ...` command group of every registered game from its `CommandSet` (one generic
cog, no cog per game), so the names, descriptions, option types and limits written here are exactly what
Discord shows. Nothing here imports Discord: an option's `type` is a word the cog maps to a discord.py type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bot.games.base import GameAction, GameState, Refusal
from bot.games.cards import Card
from bot.games.refusal import said as said  # an answer as a key and its params (see `Opened`)
from bot.games.spec import TableOptions, option_choices, option_range
from bot.i18n import excerpt

OptionType = Literal["string", "integer", "boolean", "user"]

Role = Literal["open", "join", "leave", "addbot", "start", "accept", "decline", "move"]
"""What a command does: open a table (its options are the table options, a `user` option the challenged
player), one of the lobby steps, or `move`: a decision in the game, built into an action by `build_action`."""


@dataclass(frozen=True)
class CommandOption:
    name: str
    description: str
    type: OptionType = "string"
    required: bool = True
    min: int | None = None  # integer: the smallest value; string: the shortest length
    max: int | None = None  # integer: the largest value; string: the longest length
    autocomplete: bool = False  # the player's legal choices are offered as he types (`Renderer.choices`)
    # A string option's fixed choices, (value, what an English client shows): the value is what the command
    # gets; German clients read `cmd.choice.<value>` (bot/i18n/commands.py).
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GameCommand:
    name: str
    description: str
    role: Role = "move"
    options: tuple[CommandOption, ...] = ()


BuildAction = Callable[[GameState, str, dict[str, object], str], GameAction]
"""`(game, command, options, player) -> action`: a move command's options as the engine's action. Raises
a `Refusal` (a catalogue key and its params) for input that names no possible move (the engine still checks
the rest)."""

Opened = Callable[[int, str, str | None], tuple[str, dict[str, object]]]
"""`(table_id, status, opponent_mention) -> (key, params)`: what the player who opened a table is told, as a
catalogue key and its params (a key the catalogue lacks is shown as it is: a game without translations may
give its sentence)."""


@dataclass(frozen=True)
class CommandSet:
    """The `/<game>` command group: its description, its commands in order, and how moves become actions."""

    description: str
    commands: tuple[GameCommand, ...]
    build_action: BuildAction
    opened: Opened

    def __getitem__(self, name: str) -> GameCommand:
        for command in self.commands:
            if command.name == name:
                return command
        raise KeyError(name)


def switch_option(model: type[TableOptions], name: str) -> CommandOption:
    """An optional yes/no option of the open command, described by the options model's field."""
    return CommandOption(
        name=name, description=model.model_fields[name].description or name, type="boolean", required=False
    )


def choice_option(model: type[TableOptions], name: str, labels: dict[str, str]) -> CommandOption:
    """An optional choice of the open command (a house rule): the values of the options model's field, the
    standard one first, each with its English label; the description is the field's."""
    values = option_choices(model, name)
    if set(values) != set(labels):
        raise ValueError(f"{model.__name__}.{name}: labels for {sorted(labels)}, values {sorted(values)}")
    return CommandOption(
        name=name,
        description=model.model_fields[name].description or name,
        required=False,
        choices=tuple((value, labels[value]) for value in values),
    )


def table_option(model: type[TableOptions], name: str, *, description: str | None = None) -> CommandOption:
    """An optional integer option of the open command, with the limits and (unless given) the description of
    the options model's field: the command offers exactly what a table accepts."""
    info = model.model_fields[name]
    low, high = option_range(model, name)
    return CommandOption(
        name=name,
        description=description or info.description or name,
        type="integer",
        required=False,
        min=low,
        max=high,
    )


def card_input(text: object) -> Card:
    """A card as a player typed it."""
    try:
        return Card.parse(str(text))
    except ValueError:
        raise Refusal("card.not_a_card", text=excerpt(str(text))) from None


def number_input(refusal: str, text: object) -> int:
    """A whole number as a player typed it (a string option: a typo gets a sentence, not Discord's error);
    `refusal` is the catalogue key of the sentence, which gets the typed `value`."""
    value = str(text).strip()
    digits = value.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        raise Refusal(refusal, value=excerpt(value))
    # A whole number is a number, however large or below zero: the rules then say what is allowed ("You have
    # only 15 chips", "Bid at least 1 chip"). Past any limit a game has, every number refuses alike.
    number = int(digits) if len(digits) <= 9 else 10**9
    return -number if value.startswith("-") else number
