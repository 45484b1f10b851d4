import copy
import pickle

import pytest
from pydantic import BaseModel

from bot.games.cards import JOKER, Card, Rank, Suit, deck, parse_cards, standard_deck


@pytest.mark.parametrize(
    ("text", "rank", "suit", "canonical"),
    [
        ("AS", Rank.ACE, Suit.SPADES, "AS"),
        ("10h", Rank.TEN, Suit.HEARTS, "10H"),
        ("Th", Rank.TEN, Suit.HEARTS, "10H"),
        ("9♦", Rank.NINE, Suit.DIAMONDS, "9D"),
        ("qc", Rank.QUEEN, Suit.CLUBS, "QC"),
        ("2♣", Rank.TWO, Suit.CLUBS, "2C"),
    ],
)
def test_parse_and_print(text, rank, suit, canonical):
    (card,) = parse_cards(text)
    assert (card.rank, card.suit, str(card)) == (rank, suit, canonical)


def test_parse_list_with_joker():
    cards = parse_cards("AS 10h 9♦ JK")
    assert [str(c) for c in cards] == ["AS", "10H", "9D", "JK"]
    assert cards[3] is JOKER and cards[3].suit is None and cards[3].is_joker
    assert parse_cards("🃏, kd") == [JOKER, Card.of(Rank.KING, Suit.DIAMONDS)]


@pytest.mark.parametrize("bad", ["1S", "11H", "AX", "", "A", "JKK", "10"])
def test_bad_cards_are_refused_with_a_hint(bad):
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)


def test_cards_are_interned_values():
    a = Card.parse("AS")
    assert a is Card.of(Rank.ACE, Suit.SPADES)
    assert copy.deepcopy(a) is a and pickle.loads(pickle.dumps(a)) is a
    with pytest.raises(AttributeError):
        a.rank = Rank.TWO


def test_suit_order_breaks_ties_low_to_high():
    assert Suit.DIAMONDS < Suit.CLUBS < Suit.HEARTS < Suit.SPADES
    assert parse_cards("AD")[0] < parse_cards("AS")[0] < parse_cards("JK")[0]
    assert sorted(parse_cards("KS 9H AD 9D")) == parse_cards("9D 9H KS AD")


def test_decks():
    assert len(standard_deck()) == 52 == len(set(standard_deck()))
    assert [str(c) for c in deck([Rank.NINE], [Suit.HEARTS, Suit.SPADES])] == ["9H", "9S"]


def test_pydantic_round_trip_as_strings():
    class Hand(BaseModel):
        cards: list[Card]

    hand = Hand(cards=parse_cards("AS 10H JK"))
    assert hand.model_dump_json() == '{"cards":["AS","10H","JK"]}'
    assert Hand.model_validate_json(hand.model_dump_json()) == hand


def test_ace_low_counts_the_ace_as_one():
    assert Rank.ACE.ace_low == 1 and Rank.KING.ace_low == 13
