"""Insomnia ("Sleepless"): the rules engine of docs/rules.md section 1 and the contract of section 3."""

from bot.games.insomnia.hands import (
    CATEGORIES,
    DICE_PATTERNS,
    HandValue,
    best_match,
    deck_for,
    dice_pattern,
    hand_value,
    matches_dice,
    trick_winner,
)

__all__ = [
    "CATEGORIES",
    "DICE_PATTERNS",
    "HandValue",
    "best_match",
    "deck_for",
    "dice_pattern",
    "hand_value",
    "matches_dice",
    "trick_winner",
]
