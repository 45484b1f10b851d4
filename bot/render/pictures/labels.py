"""How a picture names seats and cards in words (its alt text and its labels), in the reader's language.

A picture cannot show a Discord mention (`<@id>` renders only in text), so seats are named by number, in
the order the table message lists them; the caller may pass display names instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.cards import Card
from bot.i18n import t, tn
from bot.render.common import TableInfo, is_computer


def seat_label(
    info: TableInfo, player: str, names: Mapping[str, str] | None = None, locale: object = "en"
) -> str:
    if names and player in names:
        return names[player]
    seat = info.players.index(player) + 1 if player in info.players else 0
    return t(locale, "picture.seat", number=seat) if seat else t(locale, "picture.spectator")


def seat_note(info: TableInfo, player: str, locale: object = "en") -> str:
    """What the seat label leaves out: a computer player, or a computer playing a person's seat."""
    if is_computer(player):
        return t(locale, "picture.computer")
    if player in info.computer_seats:
        return t(locale, "picture.computer_plays")
    return ""


def card_words(card: Card, locale: object = "en") -> str:
    """ "ace of spades", "10 of hearts" / "Pik-Ass", "Herz-10": face cards by name, numbers as digits (the
    catalogue's card words spell numbers out, which a picture's short alt text does not need)."""
    if card.is_joker:
        return t(locale, "card.joker")
    assert card.rank is not None and card.suit is not None  # every card but the joker has both
    rank = tn(locale, f"rank.{card.rank.value}", 1) if card.rank.value > 10 else card.rank.short
    return t(locale, "card.words", rank=rank, suit=tn(locale, f"suit.{card.suit.value}", 2))


def cards_words(cards: list[Card], locale: object = "en") -> str:
    return ", ".join(card_words(c, locale) for c in cards) if cards else t(locale, "picture.none")


def alt(parts: list[str]) -> str:
    """Alt text within Discord's 1,024 characters for an attachment's description."""
    text = " ".join(p.strip() for p in parts if p.strip())
    return text if len(text) <= 1000 else text[:999] + "…"
