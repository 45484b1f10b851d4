"""The input side: what players type, read into the engine's notation and into the references the bot keeps.

A German player may type `BKr`, "Herz Dame" or `mitte2`; English text and the autocomplete's values pass as
they are. `/history` takes a table number (`#12`) or a game's name. Discord-free: the cogs call this before
handing a command to the session layer.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from bot.games.registry import REGISTRY
from bot.i18n.cards import parse_card
from bot.i18n.places import parse_place
from bot.sessions.errors import NotAllowed


def engine_notation(params: Mapping[str, Any], locale: object) -> dict[str, Any]:
    """A slash command's card and place as the engine writes them."""
    out = dict(params)
    card, to = out.get("card"), out.get("to")
    if isinstance(card, str) and parse_place(card, locale) is None:
        # Not a card in any notation: left as typed, for the game's own refusal.
        with contextlib.suppress(ValueError):
            out["card"] = str(parse_card(card, locale))
    elif isinstance(card, str):
        out["card"] = parse_place(card, locale)
    if isinstance(to, str) and (place := parse_place(to, locale)) is not None:
        out["to"] = place
    return out


def history_ref(text: str | None) -> tuple[int | None, str | None]:
    """`/history`'s argument: (a table number, None), (None, a game's kind), or (None, None) (the last)."""
    if not text:
        return None, None
    ref = text.strip().lstrip("#").lower()
    if ref.isascii() and ref.isdigit() and len(ref) <= 18:
        return int(ref), None
    if ref in REGISTRY:
        return None, ref
    raise NotAllowed("history.name_a_game")
