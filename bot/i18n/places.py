"""Malice's places as a German player may type them: `mitte`, `mitte2`, `seite1`, `zahlstapel`.

The engine and the session speak in tokens (`centre`, `centre1`..`centre4`, `side1`..`side4`, `payoff`);
German players get the same tokens from German words. English tokens work in every locale (autocomplete
fills them in), German words only in a German locale, like the card notation.
"""

from __future__ import annotations

import re

from bot.i18n.locale import resolve_locale

_GERMAN = {"mitte": "centre", "mittelstapel": "centre", "seite": "side", "seitenstapel": "side"}
_GERMAN_PILES = {"zahlstapel": "payoff", "zahl": "payoff"}
_TOKEN = re.compile(r"^(centre|center|side)\s*([1-4])?$|^(payoff)$")


def parse_place(text: str, locale: object = None) -> str | None:
    """The engine token a player's text names, or None (the session then words the refusal)."""
    raw = " ".join(text.strip().lower().replace("-", " ").split())
    if resolve_locale(locale) == "de":
        raw = _GERMAN_PILES.get(raw, raw)
        match = re.match(r"^([a-zäöü]+)\s*([1-4])?$", raw)
        if match and match.group(1) in _GERMAN:
            raw = _GERMAN[match.group(1)] + (match.group(2) or "")
    match = _TOKEN.match(raw)
    if not match:
        return None
    if match.group(3):
        return "payoff"
    where = "centre" if match.group(1) in ("centre", "center") else "side"
    number = match.group(2) or ""
    return None if where == "side" and not number else f"{where}{number}"


_GERMAN_TOKENS = {"centre": "mitte", "side": "seite", "payoff": "zahlstapel"}


def format_place(token: str, locale: object = None) -> str:
    """An engine token as a player of this locale types it (`centre2` -> `mitte2` in German); `parse_place`
    reads it back."""
    if resolve_locale(locale) != "de":
        return token
    match = re.match(r"^(centre|side|payoff)([1-4]?)$", token)
    return _GERMAN_TOKENS[match.group(1)] + match.group(2) if match else token
