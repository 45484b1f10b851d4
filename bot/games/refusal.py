"""The one user error: something a player asked that the rules (or the table) do not allow now.

A `Refusal` carries a catalogue key and its params, never a sentence: the rules do not know who reads it,
and a German player must read German. Params are facts, not words: numbers, `Card`s, `Rank`s, `Suit`s,
`Player` ids, nested texts (`said(key, **params)`). The presentation words it in the reader's language
(`bot.render.wording.refusal_text`); the Discord side answers with that sentence (`bot.errors.user_message`).
This module imports nothing, so engines raise it without loading a word of text.

It is a `ValueError`, as the engines' contract has always said (`IllegalAction` is its name there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Player(str):
    """A player id as a refusal's param: worded as the player is named (a mention, "Computer 1")."""

    __slots__ = ()


class Refusal(ValueError):
    """`Refusal(key, **params)`: a mistake the user can fix, worded when shown. `str()` is the key and its
    params, for logs and test failures (never shown to a player)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params: Mapping[str, Any] = params

    def __str__(self) -> str:
        if not self.params:
            return self.key
        return self.key + "(" + ", ".join(f"{k}={v!r}" for k, v in self.params.items()) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        # The default rebuilds from `args` positionally, which would pass the params dict as one.
        return _rebuild, (self.key, dict(self.params))


def _rebuild(key: str, params: dict[str, Any]) -> Refusal:
    return Refusal(key, **params)


def said(key: str, **params: Any) -> tuple[str, dict[str, Any]]:
    """A nested text (a param of a refusal, or an answer): a catalogue key and its params, worded in the same
    language as the text around it."""
    return key, params


# The engines' name for a refusal: an action the rules do not allow now.
IllegalAction = Refusal
