"""Cards, ranks and suits shared by both games.

A `Card` is an immutable value. There are only 53 distinct cards (52 plus the joker), so every card is one
interned instance: parsing, copying and JSON loading never allocate, and comparisons are cheap. In pydantic
models a card is stored as its canonical short string (`"AS"`, `"10H"`, `"JK"`), which keeps game JSON small
and readable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum
from typing import Any

from pydantic_core import core_schema


class Rank(IntEnum):
    """Card and dice ranks. Numeric order is ace high; `ace_low` is the order of a game that counts the ace as
    one."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def short(self) -> str:
        return _RANK_TO_TEXT[self]

    @property
    def plural(self) -> str:
        return _RANK_PLURALS[self]

    @property
    def ace_low(self) -> int:
        """The rank with the ace low: A 2 3 ... K run 1 to 13 (RULES.md 2.2)."""
        return 1 if self is Rank.ACE else int(self)

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key not in _TEXT_TO_RANK:
            raise ValueError(f"{text!r} is not a rank: use A K Q J 10 9 8 7 6 5 4 3 2.")
        return _TEXT_TO_RANK[key]

    def __str__(self) -> str:
        return self.short


class Suit(IntEnum):
    """Suits low to high (RULES.md 1.3): diamonds, clubs, hearts, spades."""

    DIAMONDS = 0
    CLUBS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "DCHS"[self]

    @property
    def symbol(self) -> str:
        return "♦♣♥♠"[self]

    @property
    def singular(self) -> str:
        return ("diamond", "club", "heart", "spade")[self]

    def __str__(self) -> str:
        return self.letter


_RANK_TO_TEXT = {
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_TEXT_TO_RANK = {text: rank for rank, text in _RANK_TO_TEXT.items()} | {"T": Rank.TEN}
_RANK_PLURALS = {
    Rank.TWO: "twos",
    Rank.THREE: "threes",
    Rank.FOUR: "fours",
    Rank.FIVE: "fives",
    Rank.SIX: "sixes",
    Rank.SEVEN: "sevens",
    Rank.EIGHT: "eights",
    Rank.NINE: "nines",
    Rank.TEN: "tens",
    Rank.JACK: "jacks",
    Rank.QUEEN: "queens",
    Rank.KING: "kings",
    Rank.ACE: "aces",
}
_SUIT_BY_TEXT = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_JOKER_TEXT = {"JK", "JOKER", "🃏"}
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC♠♥♦♣♤♡♢♧])$", re.IGNORECASE)


class Card:
    """A playing card: `rank` and `suit`, or the joker (both `None`). Use `Card.of`/`Card.parse`."""

    __slots__ = ("_key", "_text", "rank", "suit")
    rank: Rank | None
    suit: Suit | None
    _key: int
    _text: str

    def __init__(self, rank: Rank | None, suit: Suit | None, _token: object = None) -> None:
        if _token is not _INTERN_TOKEN:
            raise TypeError("use Card.of(rank, suit), Card.parse(text) or JOKER")
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        if rank is None or suit is None:
            text, key = "JK", 100  # the joker sorts above everything
        else:
            # Sort key: by rank then suit.
            text, key = f"{rank.short}{suit.letter}", int(rank) * 4 + int(suit)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_key", key)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        return _CARDS[(rank, suit)]

    @staticmethod
    def parse(text: str | Card) -> Card:
        if isinstance(text, Card):
            return text
        raw = text.strip()
        if raw.upper() in _JOKER_TEXT:
            return JOKER
        match = _CARD_RE.match(raw)
        if not match:
            raise ValueError(f"{text!r} is not a card: write it like AS, 10H, 9♦ or JK.")
        return _CARDS[(_TEXT_TO_RANK[match.group(1).upper()], _SUIT_BY_TEXT[match.group(2).upper()])]

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def key(self) -> int:
        """A small int, unique per card, ordered by rank (ace high) then suit."""
        return self._key

    @property
    def pretty(self) -> str:
        """Display form with a suit symbol: `A♠`, `10♥`, `🃏`."""
        if self.rank is None or self.suit is None:
            return "🃏"
        return f"{self.rank.short}{self.suit.symbol}"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self._key

    def __lt__(self, other: Card) -> bool:
        return self._key < other._key

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.parse, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls.parse,
            serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="always"),
            json_schema_input_schema=core_schema.str_schema(),
        )


_INTERN_TOKEN = object()
_CARDS: dict[tuple[Rank, Suit], Card] = {
    (rank, suit): Card(rank, suit, _INTERN_TOKEN) for rank in Rank for suit in Suit
}
JOKER = Card(None, None, _INTERN_TOKEN)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse `"AS 10h 9♦ JK"` (spaces or commas between cards) or an iterable of card strings."""
    parts = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    return [Card.parse(part) for part in parts if part]


def deck(ranks: Iterable[Rank], suits: Iterable[Suit] = tuple(Suit)) -> list[Card]:
    """Every card of the given ranks in the given suits, in a fixed order (callers shuffle)."""
    suits = list(suits)
    return [Card.of(rank, suit) for rank in ranks for suit in suits]


def standard_deck() -> list[Card]:
    """The 52-card deck, in a fixed order."""
    return deck(Rank)
