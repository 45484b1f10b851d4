"""A text by catalogue key, worded when shown: a refusal (`bot.games.refusal.Refusal`), a private answer
(`bot.sessions.errors.Text`), a nested part of either, in the reader's language.

The params are facts; each becomes the reader's words here, and only here:
- a `Player` id: the player's name (`bot.render.common.name`: a mention, "Computer 1");
- a `Card`: the card in his notation (`bot.i18n.cards.format_card`: Q♥ / D♥);
- a `Rank`: the rank with its indefinite article, as a sentence's subject ("an ace" / "ein Ass", `rank.a.*`);
- a `Suit`: the suit's name ("spade" / "Pik");
- a nested text (a `(key, params)` pair from `bot.games.commands.said`, a `Refusal`, or anything with
  `word(locale)` such as a `Text`): worded in the same language;
- anything else (a number, a typed value) as it is.

A plural message takes its count from the `n` param (`tn`). A key the catalogue lacks is shown as it is: a
game added without translations (the tests' High card) may give its sentence as the key; the two real games
may not (tests/games/test_refusals.py checks every refusal they raise names a key in both languages).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from bot.games.cards import Card, Rank, Suit
from bot.games.refusal import Player, Refusal
from bot.i18n import catalogue, t, tn
from bot.i18n.cards import format_card
from bot.render.common import name


@runtime_checkable
class Worded(Protocol):
    """A text that words itself (`bot.sessions.errors.Text`, `GameName`)."""

    def word(self, locale: object) -> str: ...


def word_param(value: object, locale: object) -> object:
    """One param as the reader reads it (see the module's list)."""
    if isinstance(value, Player):
        return name(value, locale)
    if isinstance(value, str):
        return value
    if isinstance(value, Card):
        return format_card(value, locale)
    if isinstance(value, Rank):
        return t(locale, f"rank.a.{value.value}")
    if isinstance(value, Suit):
        return tn(locale, f"suit.{value.value}", 1)
    if isinstance(value, Refusal):
        return refusal_text(value, locale)
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], Mapping)
    ):
        return word(value[0], value[1], locale)
    if isinstance(value, Worded):
        return value.word(locale)
    return value


def word(key: str, params: Mapping[str, Any], locale: object) -> str:
    """The message `key` in the reader's language, its params worded first."""
    messages = catalogue()
    if key not in messages:
        return key
    worded = {k: word_param(v, locale) for k, v in params.items()}
    if key in messages.plural_keys():
        worded.pop("n", None)
        return tn(locale, key, int(params["n"]), **worded)
    return t(locale, key, **worded)


def refusal_text(refusal: Refusal, locale: object) -> str:
    """What a refusal says to its reader, in his language."""
    return word(refusal.key, refusal.params, locale)
