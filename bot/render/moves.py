"""A game's moves as a person types them in the terminal (`cardtable-bot play`): each legal action as its
slash command and options, e.g. `play 7h centre1`, `bid 3` (German: `legen 7h mitte1`, `bieten 3`), and the
action in words beside it in the `help` list.

The terminal reads what is typed through the game's `CommandSet` (the same `build_action` as Discord), so a
command written here must be one the command set reads back: its first word a move command's name (English,
or the reader's language), then that command's options in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.i18n import catalogue, t

G = TypeVar("G")  # the game's state class
A = TypeVar("A")  # the union of its actions


def no_amount(action: Any) -> int | None:
    return None


def no_synonyms(game: Any, locale: object) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class TypedMoves(Generic[G, A]):
    command: Callable[[A, object], str]  # `(action, locale)`: what to type for the action (lower case)
    describe: Callable[[A, G, object], str]  # `(action, game, locale)`: the action in words
    # The amount an action names (a bid): where a decision asks one, a number typed alone is that amount
    # and the `help` list folds the amounts into one line ("bid 6 to 15").
    amount: Callable[[A], int | None] = no_amount
    # `(game, locale)`: words that mean a move command now, as its English name (Insomnia's exchange: `keep`
    # is `pass`), for the words the game's own prompts use.
    synonyms: Callable[[G, object], dict[str, str]] = no_synonyms


def command_name(game: str, command: str, locale: object) -> str:
    """A move command's name as the reader's Discord shows it (`cmd.<game>.<command>.name`), else its own."""
    key = f"cmd.{game}.{command}.name"
    return t(locale, key) if key in catalogue() else command
