"""Insomnia's pure card and dice arithmetic: hand values (stage 2), dice patterns and matching (stages 1
and 4), trick winners (stage 3) and the deck by player count. Rule numbers refer to docs/rules.md section 1.

`hand_value` is on the hot path of simulations, so the values of all 35,960 four-card hands of the 32-card
deck are computed once (lazily, on the first call, so importing stays fast) and looked up by a bitmask of
card keys.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Literal

from bot.games.cards import Card, Rank, Suit, deck

Sevens = Literal["hearts-spades", "all"]
"""House rule H1: which sevens a deck of 5-7 players holds (rule 2: 7♥ and 7♠)."""

CATEGORIES = (
    "four_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "straight",
    "flush",
    "two_pair",
    "pair",
)
"""Stage-2 categories, best first (rule 17: not poker's order)."""

_CATEGORY_SCORE: dict[str | None, int] = {name: len(CATEGORIES) - i for i, name in enumerate(CATEGORIES)}
_CATEGORY_SCORE[None] = 0

DICE_PATTERNS: dict[str, int] = {
    "four_of_a_kind": 8,
    "sequence": 6,
    "three_of_a_kind": 5,
    "two_pair": 4,
    "pair": 3,
    "high_card": 2,
}
"""Rule 14: the chips a dice match pays, by the pattern of the dice."""

DICE_FACES = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)

_SINGULAR = {
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}


class HandValue:
    """The stage-2 value of four cards. Totally ordered by `score`; two different hands never compare equal.

    `ranks` are the four ranks in deciding order (rule 18), `category` one of `CATEGORIES` or `None`.
    """

    __slots__ = ("category", "score")

    def __init__(self, score: int, category: str | None) -> None:
        self.score = score
        self.category = category

    @property
    def ranks(self) -> tuple[Rank, ...]:
        # The score holds the four ranks in deciding order as 4-bit fields above the 8 bits of suits.
        return tuple(Rank((self.score >> shift) & 15) for shift in (20, 16, 12, 8))

    @property
    def description(self) -> str:
        """The category and its defining ranks, for announcements: "two pairs, kings and nines" (rule 19).

        Only the ranks that make the category are named (a flush by its top card, a pair without its odd
        cards): the winner leads the tricks next, so naming every rank would show most of a hidden hand.
        """
        r = self.ranks
        match self.category:
            case "four_of_a_kind":
                return f"four of a kind, {r[0].plural}"
            case "straight_flush":
                return f"straight flush, {_SINGULAR[r[0]]} high"
            case "three_of_a_kind":
                return f"three of a kind, {r[0].plural}"
            case "straight":
                return f"straight, {_SINGULAR[r[0]]} high"
            case "flush":
                return f"flush, {_SINGULAR[r[0]]} high"
            case "two_pair":
                return f"two pairs, {r[0].plural} and {r[2].plural}"
            case "pair":
                return f"a pair of {r[0].plural}"
            case _:
                return "no pair"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.score == other.score

    def __hash__(self) -> int:
        return hash(self.score)

    def __lt__(self, other: HandValue) -> bool:
        return self.score < other.score

    def __le__(self, other: HandValue) -> bool:
        return self.score <= other.score

    def __gt__(self, other: HandValue) -> bool:
        return self.score > other.score

    def __ge__(self, other: HandValue) -> bool:
        return self.score >= other.score

    def __repr__(self) -> str:
        return f"HandValue({self.category!r}, {self.description!r})"


def _value_of_keys(keys: list[int]) -> HandValue:
    """Rules 17-18 for 4 different card keys sorted high to low (the lookup table is filled from this).

    Card keys are rank * 4 + suit, so keys high to low are ranks high to low with the higher suit first.
    """
    counts: dict[int, int] = {}
    for k in keys:
        counts[k >> 2] = counts.get(k >> 2, 0) + 1
    # Deciding order (rule 18): bigger groups first (a stable sort keeps rank, then suit, high to low).
    ordered = keys if len(counts) == 4 else sorted(keys, key=lambda k: -counts[k >> 2])
    biggest = max(counts.values())
    flush = (keys[0] & 3) == (keys[1] & 3) == (keys[2] & 3) == (keys[3] & 3)
    straight = len(counts) == 4 and (keys[0] >> 2) - (keys[3] >> 2) == 3
    if biggest == 4:
        category: str | None = "four_of_a_kind"
    elif straight and flush:
        category = "straight_flush"
    elif biggest == 3:
        category = "three_of_a_kind"
    elif straight:
        category = "straight"
    elif flush:
        category = "flush"
    elif biggest == 2:
        category = "two_pair" if len(counts) == 2 else "pair"
    else:
        category = None
    score = _CATEGORY_SCORE[category]
    for k in ordered:
        score = (score << 4) | (k >> 2)
    for k in ordered:
        score = (score << 2) | (k & 3)
    return HandValue(score, category)


_TABLE: dict[int, HandValue] = {}


def _table() -> dict[int, HandValue]:
    if not _TABLE:
        keys = sorted((c.key for c in deck(Rank(r) for r in range(Rank.SEVEN, Rank.ACE + 1))), reverse=True)
        for hand in combinations(keys, 4):  # combinations keep the high-to-low order
            _TABLE[(1 << hand[0]) | (1 << hand[1]) | (1 << hand[2]) | (1 << hand[3])] = _value_of_keys(
                list(hand)
            )
    return _TABLE


def hand_value(cards: Iterable[Card]) -> HandValue:
    """The stage-2 value of exactly four cards (rules 17-18)."""
    hand = cards if isinstance(cards, list | tuple) else list(cards)
    if len(hand) == 4:
        # The hot path (benchmarked against treys): one lookup by the bit mask of the four card keys.
        a, b, c, d = hand
        value = (_TABLE or _table()).get((1 << a._key) | (1 << b._key) | (1 << c._key) | (1 << d._key))
        if value is not None:
            return value
    if len(hand) != 4 or len(set(hand)) != 4 or any(c.is_joker for c in hand):
        raise ValueError("a hand value needs exactly 4 different cards without jokers")
    return _value_of_keys(sorted((c.key for c in hand), reverse=True))


def dice_pattern(dice: Sequence[Rank]) -> tuple[str, int]:
    """Rule 14: the pattern of four dice and the chips a match pays."""
    if len(dice) != 4:
        raise ValueError("a throw has four dice")
    shape = sorted(Counter(dice).values(), reverse=True)
    if shape[0] == 4:
        pattern = "four_of_a_kind"
    elif shape[0] == 3:
        pattern = "three_of_a_kind"
    elif shape == [2, 2]:
        pattern = "two_pair"
    elif shape[0] == 2:
        pattern = "pair"
    elif max(dice) - min(dice) == 3:
        pattern = "sequence"
    else:
        pattern = "high_card"
    return pattern, DICE_PATTERNS[pattern]


def best_match(cards: Iterable[Card], dice: Sequence[Rank]) -> list[Card] | None:
    """The best 4 of `cards` whose ranks are exactly the dice (rule 13), or None.

    "Best" is rule 15's order: for each rank the highest suits, which makes the set, sorted by rank then suit
    both high to low, as high as possible card by card. Returned sorted that way.
    """
    need = Counter(dice)
    by_rank: dict[Rank, list[Card]] = {}
    for card in cards:
        rank = card.rank
        if rank is not None and rank in need:
            by_rank.setdefault(rank, []).append(card)
    chosen: list[Card] = []
    for rank, count in need.items():
        have = sorted(by_rank.get(rank, ()), reverse=True)
        if len(have) < count:
            return None
        chosen.extend(have[:count])
    return sorted(chosen, reverse=True)


def matches_dice(cards: Iterable[Card], dice: Sequence[Rank]) -> bool:
    """Rule 13 (and rule 28: with more than 4 cards, true when some 4 of them match)."""
    return best_match(cards, dice) is not None


def match_key(cards: Iterable[Card]) -> tuple[int, ...]:
    """Rule 15's comparison key of a matching hand: card keys sorted high to low (rank, then suit)."""
    return tuple(sorted((c.key for c in cards), reverse=True))


def trick_winner(plays: Sequence[Card], trump: Suit | None) -> int:
    """Rule 24: the index in play order of the card that takes the trick (`plays[0]` was led)."""
    best = 0
    for i in range(1, len(plays)):
        card, top = plays[i], plays[best]
        # Within one suit the card key orders by rank.
        if (card.suit == top.suit and card.key > top.key) or (card.suit == trump and top.suit != trump):
            best = i
    return best


def deck_for(players: int, sevens: Sevens = "hearts-spades") -> list[Card]:
    """Rule 2: 24 cards for 2-4 players, 30 (8 to A plus 7♥ 7♠) for 5-7, 32 for 8. Fixed order.

    House rule H1 (`sevens="all"`): 5-7 players play with all four sevens, the 32 cards of 8 players."""
    if not 2 <= players <= 8:
        raise ValueError("Insomnia is for 2 to 8 players")
    if players <= 4:
        return deck(Rank(r) for r in range(Rank.NINE, Rank.ACE + 1))
    if players <= 7 and sevens != "all":
        two = [Card.of(Rank.SEVEN, Suit.HEARTS), Card.of(Rank.SEVEN, Suit.SPADES)]
        return two + deck(Rank(r) for r in range(Rank.EIGHT, Rank.ACE + 1))
    return deck(Rank(r) for r in range(Rank.SEVEN, Rank.ACE + 1))
