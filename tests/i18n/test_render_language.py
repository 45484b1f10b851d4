"""The renderers in German: the engine's English description of the best hand is told in German words, every
hand the engine can describe included, and an English reader gets the engine's own words."""

from __future__ import annotations

import itertools

from bot.games.cards import Card, Rank, Suit
from bot.games.insomnia.hands import hand_value
from bot.render.insomnia.text import hand_description

DECK = [Card.of(rank, suit) for rank in Rank if rank.value >= 7 for suit in Suit]


def test_the_best_hand_is_described_in_german_for_every_kind_of_hand():
    seen: dict[str | None, str] = {}
    for cards in itertools.islice(itertools.combinations(DECK, 4), 0, None, 97):
        value = hand_value(list(cards))
        english = value.description
        assert hand_description(english, "en") == english
        german = hand_description(english, "de")
        assert german != english or value.category in ("straight", "flush"), english
        seen[value.category] = german
    assert seen["two_pair"].startswith("zwei Paare, ") and " und " in seen["two_pair"]
    assert seen["pair"].startswith("ein Paar ") and seen[None] == "kein Paar"
    assert len(seen) >= 6


def test_the_ranks_take_their_german_names():
    assert hand_description("two pairs, kings and nines", "de") == "zwei Paare, Könige und Neunen"
    assert hand_description("flush, jack high", "de") == "Flush, Bube hoch"
