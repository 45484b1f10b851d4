"""Numbers, lists and durations in a language's own conventions, through Babel's locale data; and what a user
typed, as a sentence repeats it (`excerpt`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import timedelta
from typing import Literal

from babel.dates import format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal

from bot.i18n.locale import resolve_locale


def number(locale: object, value: float) -> str:
    """`1234` -> "1,234" (en) / "1.234" (de); `2.5` -> "2.5" / "2,5"."""
    return _decimal(value, resolve_locale(locale))


# Babel formats a number in about 30 µs: a table message and its picture name dozens of counts (cards, chips,
# turns), the same few small numbers every time. Bounded: 4,096 numbers by language, about 0.5 MB.
@functools.lru_cache(maxsize=4096, typed=True)
def _decimal(value: float, lang: str) -> str:
    return format_decimal(value, locale=lang)


def signed(locale: object, value: int) -> str:
    """A chip balance with its sign: "+1,234", "-3", "0" (the sign tells a win from a loss at a glance)."""
    text = number(locale, abs(value))
    return f"+{text}" if value > 0 else f"-{text}" if value < 0 else text


def join(locale: object, items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
    """["A", "B", "C"] -> "A, B, and C" (en) / "A, B und C" (de); `style="or"` -> "A, B oder C"."""
    return _listed(tuple(items), style, resolve_locale(locale))


# The same lists (a seat's cards, the players) come back on every message of a table: 1,024 kept, a few
# hundred KB at most.
@functools.lru_cache(maxsize=1024)
def _listed(items: tuple[str, ...], style: Literal["standard", "or"], lang: str) -> str:
    return format_list(list(items), style=style, locale=lang)


ECHO = 40  # characters of a user's input a sentence repeats


def excerpt(text: str, limit: int = ECHO) -> str:
    """What the user typed, as much as a sentence should repeat of it (one line, at most `limit`)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def relative(locale: object, seconds: float, *, direction: bool = True) -> str:
    """A duration from now: 120 -> "in 2 minutes" / "in 2 Minuten"; -30 -> "30 seconds ago" / "vor 30
    Sekunden". `direction=False` gives the bare length ("2 minutes"), e.g. for a table's turn time."""
    return format_timedelta(
        timedelta(seconds=seconds),
        add_direction=direction,
        threshold=1.0,
        locale=resolve_locale(locale),
    )
