"""How a picture names players and cards in words (its labels and its alt text), in the reader's language.

A picture cannot show a Discord mention (`<@id>` renders only in text), so a person is named by his display
name (`TableInfo.names`, filled by the caller), a computer player as the text does ("Computer 2"), and a
person whose name is not known by his seat ("Player 3"), never by an id. Drawn labels keep only what the
bundled font can draw (`sprites.printable`) and are cut to their room with an ellipsis by the drawing code;
the alt text keeps the name as it is, for screen readers.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.cards import Card
from bot.i18n import join, t, tn
from bot.render.common import TableInfo, is_computer
from bot.render.pictures.sprites import printable


def player_name(
    info: TableInfo, player: str, names: Mapping[str, str] | None = None, locale: object = "en"
) -> str:
    """The player as the alt text names him: his display name, "Computer N", or "Player N" by his seat."""
    if is_computer(player):
        return t(locale, "common.computer", number=player.split(":", 1)[1])
    known = (names or {}).get(player, "").strip()
    if known:
        return known
    if player in info.players:
        return t(locale, "picture.player", number=info.players.index(player) + 1)
    return t(locale, "picture.spectator")


def seat_label(
    info: TableInfo, player: str, names: Mapping[str, str] | None = None, locale: object = "en"
) -> str:
    """The player as a picture draws him: `player_name` in letters the font has (a name with none of them,
    all emoji say, falls back to his seat)."""
    drawn = printable(player_name(info, player, names, locale))
    return drawn or printable(player_name(info, player, None, locale))


def seat_note(info: TableInfo, player: str, locale: object = "en") -> str:
    """What the seat label leaves out: a computer playing a person's seat."""
    if player in info.computer_seats and not is_computer(player):
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
    return join(locale, [card_words(c, locale) for c in cards]) if cards else t(locale, "picture.none")


def alt(parts: list[str]) -> str:
    """Alt text within Discord's 1,024 characters for an attachment's description."""
    text = " ".join(p.strip() for p in parts if p.strip())
    return text if len(text) <= 1000 else text[:999] + "…"
