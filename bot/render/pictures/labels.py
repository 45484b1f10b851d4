"""How a picture names seats and cards in words (its alt text and its labels).

A picture cannot show a Discord mention (`<@id>` renders only in text), so seats are named by number, in
the order the table message lists them; the caller may pass display names instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.cards import Card
from bot.render.common import TableInfo, is_computer

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def seat_label(info: TableInfo, player: str, names: Mapping[str, str] | None = None) -> str:
    if names and player in names:
        return names[player]
    seat = info.players.index(player) + 1 if player in info.players else 0
    return f"Seat {seat}" if seat else "Spectator"


def seat_note(info: TableInfo, player: str) -> str:
    """What the seat label leaves out: a computer player, or a computer playing a person's seat."""
    if is_computer(player):
        return "computer"
    if player in info.computer_seats:
        return "computer plays"
    return ""


def card_words(card: Card) -> str:
    if card.is_joker:
        return "joker"
    assert card.rank is not None and card.suit is not None  # every card but the joker has both
    rank = card.rank.short
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[card.suit.letter]}"


def cards_words(cards: list[Card]) -> str:
    return ", ".join(card_words(c) for c in cards) if cards else "none"


def alt(parts: list[str]) -> str:
    """Alt text within Discord's 1,024 characters for an attachment's description."""
    text = " ".join(p.strip() for p in parts if p.strip())
    return text if len(text) <= 1000 else text[:999] + "…"
