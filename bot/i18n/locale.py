"""Which of our languages a Discord locale gets.

Discord sends locales as strings such as `de`, `en-US`, `en-GB`, `fr` (discord.py wraps them in
`discord.Locale`, whose `.value` is that string). We speak German and English: every German variant gets
German, everything else English, because English is the language every player of this bot can read.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["en", "de"]
LANGUAGES: tuple[Lang, ...] = ("en", "de")
DEFAULT: Lang = "en"


def resolve_locale(locale: object) -> Lang:
    """`de`, `de-AT`, `de_CH`, `discord.Locale.german` -> "de"; `en-US`, `en-GB`, `fr`, None, "" -> "en".

    Takes a string or anything with a string `.value` (a `discord.Locale`), so this package needs no
    discord import and the Discord-free layers (sessions, render) can call it."""
    text = getattr(locale, "value", locale)
    if not isinstance(text, str):
        return DEFAULT
    lang = _RESOLVED.get(text)
    if lang is None:
        language = text.strip().replace("_", "-").split("-", 1)[0].lower()
        lang = "de" if language == "de" else DEFAULT
        if len(_RESOLVED) < RESOLVED_KEPT:
            _RESOLVED[text] = lang
    return lang


# Every word of a message asks for its language: the few spellings Discord and the web send, resolved once.
RESOLVED_KEPT = 256
_RESOLVED: dict[str, Lang] = {}
