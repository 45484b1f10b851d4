"""Cards in the player's notation: English (`QH`, `Q♥`, "queen of hearts") or German (`DH`, `D♥`, "Herz
Dame").

German players name ranks B D K A (Bube, Dame, König, Ass) and suits Kreuz, Pik, Herz, Karo. Input in a
German locale accepts both notations (a German player may well type `JH`); input in any other locale accepts
English only, so an English player who types `BH` is told it is not a card rather than surprised. K, A and the
numbers mean the same in both. Output is always in the player's own notation.

The engines' `Card` (bot/games/cards.py) stays the one value: this module only reads and writes text.
Compact forms are rank first (`DH`, `10Ka`, `BKr`); a suit in words or as a symbol may also come first
(`Herz Dame`, `♥D`, `pik10`), a suit letter only as a word of its own (`Kr 9`, `P D`: `HD` in one word would
read as a rank after a suit nobody writes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.games.cards import JOKER, Card, Rank, Suit
from bot.i18n.catalogue import t, tn
from bot.i18n.locale import resolve_locale

_NUMBERS = {str(r.value): r for r in Rank if r.value <= 10}
_LOW = [Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN]
_ENGLISH_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_GERMAN_WORDS = ["zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"]
_ENGLISH_NUMBER_WORDS = dict(zip(_ENGLISH_WORDS, _LOW, strict=True))
_GERMAN_NUMBER_WORDS = dict(zip(_GERMAN_WORDS, _LOW, strict=True))
_ENGLISH_RANKS = (
    _NUMBERS
    | _ENGLISH_NUMBER_WORDS
    | {
        "t": Rank.TEN,
        "j": Rank.JACK,
        "q": Rank.QUEEN,
        "k": Rank.KING,
        "a": Rank.ACE,
        "jack": Rank.JACK,
        "queen": Rank.QUEEN,
        "king": Rank.KING,
        "ace": Rank.ACE,
    }
)
_GERMAN_RANKS = (
    _NUMBERS
    | _GERMAN_NUMBER_WORDS
    | {
        "b": Rank.JACK,
        "d": Rank.QUEEN,
        "k": Rank.KING,
        "a": Rank.ACE,
        "bube": Rank.JACK,
        "dame": Rank.QUEEN,
        "könig": Rank.KING,
        "koenig": Rank.KING,
        "ass": Rank.ACE,
        "as": Rank.ACE,
    }
)
_SYMBOLS = {
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_ENGLISH_SUIT_LETTERS = {"s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS, "c": Suit.CLUBS}
_GERMAN_SUIT_LETTERS = {"p": Suit.SPADES, "h": Suit.HEARTS, "ka": Suit.DIAMONDS, "kr": Suit.CLUBS}
_ENGLISH_SUIT_WORDS = {
    "spade": Suit.SPADES,
    "spades": Suit.SPADES,
    "heart": Suit.HEARTS,
    "hearts": Suit.HEARTS,
    "diamond": Suit.DIAMONDS,
    "diamonds": Suit.DIAMONDS,
    "club": Suit.CLUBS,
    "clubs": Suit.CLUBS,
}
_GERMAN_SUIT_WORDS = {"pik": Suit.SPADES, "herz": Suit.HEARTS, "karo": Suit.DIAMONDS, "kreuz": Suit.CLUBS}
_JOKERS = {"jk", "joker", "🃏"}
_FILLER = {"of", "von"}  # "queen of hearts", "Dame von Herz"

# Writing: German rank letters and suit letters (two letters for Karo and Kreuz, since K is the king).
_GERMAN_RANK_TEXT = {Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K", Rank.ACE: "A"}
_GERMAN_SUIT_TEXT = {Suit.SPADES: "P", Suit.HEARTS: "H", Suit.DIAMONDS: "Ka", Suit.CLUBS: "Kr"}


class NotACard(ValueError):
    """Text that names no card in the player's notation; `str()` is the sentence for him, in his language."""


class _Vocabulary:
    def __init__(self, german: bool) -> None:
        self.ranks = dict(_ENGLISH_RANKS)
        suit_letters = dict(_ENGLISH_SUIT_LETTERS)
        suit_words = dict(_SYMBOLS) | _ENGLISH_SUIT_WORDS
        if german:
            self.ranks |= _GERMAN_RANKS
            suit_letters |= _GERMAN_SUIT_LETTERS
            suit_words |= _GERMAN_SUIT_WORDS
        self.suits_after = suit_letters | suit_words  # after the rank: any suit form
        self.suits_before = suit_words  # before the rank, in one word: words and symbols only
        self.suits_apart = suit_letters | suit_words  # before the rank, as a word of its own (`Kr 9`, `P D`)

    def readings(self, first: str, second: str, *, apart: bool = False) -> set[Card]:
        found = set()
        before = self.suits_apart if apart else self.suits_before
        if first in self.ranks and second in self.suits_after:
            found.add(Card.of(self.ranks[first], self.suits_after[second]))
        if first in before and second in self.ranks:
            found.add(Card.of(self.ranks[second], before[first]))
        return found


_VOCABULARY = {"en": _Vocabulary(german=False), "de": _Vocabulary(german=True)}


def parse_card(text: str | Card, locale: object = None) -> Card:
    """A card from a player's text in his locale's notation(s); raises `NotACard` (a `ValueError`) with a
    sentence in his language."""
    if isinstance(text, Card):
        return text
    lang = resolve_locale(locale)
    raw = " ".join(re.sub(r"[-_,.]", " ", text.strip().lower()).split())
    if raw in _JOKERS:
        return JOKER
    words = [w for w in raw.split(" ") if w not in _FILLER]
    vocabulary = _VOCABULARY[lang]
    found: set[Card] = set()
    if len(words) == 2:
        found = vocabulary.readings(*words, apart=True)
    elif len(words) == 1:
        word = words[0]
        for cut in range(1, len(word)):
            found |= vocabulary.readings(word[:cut], word[cut:])
    if len(found) != 1:
        # None, or (by a vocabulary change) two readings: never guess which card a player meant.
        raise NotACard(t(lang, "card.not_a_card", text=text.strip()))
    return found.pop()


def parse_cards(text: str, locale: object = None) -> list[Card]:
    """Several cards separated by commas or semicolons, or by spaces when each card is one word."""
    parts = [p for p in re.split(r"[;,]", text) if p.strip()]
    if len(parts) == 1:
        spaced = parts[0].split()
        try:
            return [parse_card(p, locale) for p in spaced]
        except NotACard:
            return [parse_card(parts[0], locale)]
    return [parse_card(p, locale) for p in parts]


def format_rank(rank: Rank, locale: object = None) -> str:
    """A rank (a die face) as the player writes it: Q / D, J / B."""
    if resolve_locale(locale) == "de":
        return _GERMAN_RANK_TEXT.get(rank, rank.short)
    return rank.short


def format_card(card: Card, locale: object = None, *, pretty: bool = True) -> str:
    """`Q♥` / `D♥` (pretty), or the typed form `QH` / `DH`, `10Ka`, `BKr`; the joker is 🃏 or `JK`."""
    if card.is_joker:
        return "🃏" if pretty else "JK"
    assert card.rank is not None and card.suit is not None
    rank = format_rank(card.rank, locale)
    if pretty:
        return f"{rank}{card.suit.symbol}"
    if resolve_locale(locale) == "de":
        return f"{rank}{_GERMAN_SUIT_TEXT[card.suit]}"
    return str(card)


def format_cards(cards: Iterable[Card], locale: object = None, *, pretty: bool = True) -> str:
    return " ".join(format_card(c, locale, pretty=pretty) for c in cards)


def card_words(card: Card, locale: object = None) -> str:
    """ "queen of hearts" / "Herz-Dame", "joker" / "Joker": for sentences about a card."""
    if card.is_joker:
        return t(locale, "card.joker")
    assert card.rank is not None and card.suit is not None
    rank = tn(locale, f"rank.{card.rank.value}", 1)
    suit = tn(locale, f"suit.{card.suit.value}", 2)
    return t(locale, "card.words", rank=rank, suit=suit)


def card_aliases(card: Card, locale: object = None) -> set[str]:
    """Every lowercase spelling of the card a player of this locale may type, for matching autocomplete
    input: a German player typing "dh", "d♥", "herz" or "dame" finds the queen of hearts."""
    forms = {format_card(card, "en", pretty=False), format_card(card, "en"), card_words(card, "en")}
    if resolve_locale(locale) == "de":
        forms |= {format_card(card, "de", pretty=False), format_card(card, "de"), card_words(card, "de")}
    return {f.lower() for f in forms}
