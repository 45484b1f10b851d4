"""Refusals as a player reads them, for tests: a `Refusal` carries a key and params, and its sentence is
made in the reader's language (`bot.render.wording`) and drawn by Discord's renderer (`bot.discord_out`), so a
test checks the sentence a player would see."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from bot.discord_out import discord_words
from bot.games.refusal import Refusal
from bot.render.wording import refusal_text


def english(error: BaseException) -> str:
    """The sentence an English reader gets for this refusal."""
    assert isinstance(error, Refusal), f"not a refusal: {error!r}"
    return discord_words(refusal_text(error, "en"))


@contextlib.contextmanager
def refused(
    match: str | None = None, *, key: str | None = None, locale: str = "en"
) -> Iterator[pytest.ExceptionInfo[Refusal]]:
    """`pytest.raises(Refusal, match=...)`, matched against the sentence in `locale` (English by default)."""
    with pytest.raises(Refusal) as info:
        yield info
    text = discord_words(refusal_text(info.value, locale))
    if match is not None:
        assert re.search(match, text), f"{text!r} does not match {match!r}"
    if key is not None:
        assert info.value.key == key, info.value
