"""Malice's pure pile arithmetic (docs/rules.md section 2): card values, the piles' sizes and names, and what
a side stack accepts. No state here: `game.py` holds the piles and applies the rules with these.
"""

from __future__ import annotations

from typing import Literal

from bot.games.cards import JOKER, Card, Rank, standard_deck

HAND_SIZE = 5
STACKS = 4  # centre slots, and side stacks per player
FULL_STACK = 13  # A to K
PAYOFF_SIZE = 26

CentreName = Literal["centre1", "centre2", "centre3", "centre4"]
SideName = Literal["side1", "side2", "side3", "side4"]
CENTRE_NAMES: tuple[CentreName, ...] = ("centre1", "centre2", "centre3", "centre4")
SIDE_NAMES: tuple[SideName, ...] = ("side1", "side2", "side3", "side4")
# By any name (a source or target): `name in CENTRE_INDEX` is how the game tells centre from side.
CENTRE_INDEX: dict[str, int] = {name: i for i, name in enumerate(CENTRE_NAMES)}
SIDE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SIDE_NAMES)}

# Malice value of every card: A=1 ... K=13; the joker has none (0).
VALUE: dict[Card, int] = {card: card.rank.ace_low for card in standard_deck() if card.rank} | {JOKER: 0}
RANK_OF_VALUE: dict[int, Rank] = {rank.ace_low: rank for rank in Rank}
CARDS = [*standard_deck(), JOKER]  # every distinct card of Malice's decks

# The values a side stack takes, by its reference value (0: empty, or only jokers): rule 11, never an ace.
SIDE_ACCEPTS: dict[int, frozenset[int]] = {0: frozenset(range(2, 14)) | {0}} | {
    ref: frozenset({0, ref, ref - 1} - {1}) for ref in range(2, 14)
}


def side_reference(stack: list[Card]) -> int:
    """The value a side-stack play is checked against: the nearest non-joker from the top (0: any card)."""
    for card in reversed(stack):
        value = VALUE[card]
        if value:
            return value
    return 0
