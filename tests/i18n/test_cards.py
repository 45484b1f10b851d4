"""Cards typed and shown in the player's notation: English everywhere, German too in a German locale."""

from __future__ import annotations

import pytest

from bot.games.cards import JOKER, Card, Rank, standard_deck
from bot.i18n.cards import (
    NotACard,
    card_aliases,
    card_words,
    format_card,
    format_cards,
    format_rank,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("DH", "QH"),
        ("dh", "QH"),
        ("D♥", "QH"),
        ("♥D", "QH"),
        ("Herz Dame", "QH"),
        ("Herz-Dame", "QH"),
        ("Dame Herz", "QH"),
        ("BKr", "JC"),
        ("Kreuz Bube", "JC"),
        ("10Ka", "10D"),
        ("Karo 10", "10D"),
        ("pik10", "10S"),
        ("AP", "AS"),
        ("Pik Ass", "AS"),
        ("König Karo", "KD"),
        ("Koenig Kreuz", "KC"),
        ("Joker", "JK"),
    ],
)
def test_german_notation_in_a_german_locale(text, card):
    assert parse_card(text, "de") is Card.parse(card)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("QH", "QH"),
        ("q♥", "QH"),
        ("10s", "10S"),
        ("TD", "10D"),
        ("queen of hearts", "QH"),
        ("Ace of Spades", "AS"),
        ("JK", "JK"),
        ("🃏", "JK"),
    ],
)
def test_english_notation_everywhere(text, card):
    assert parse_card(text, "en-US") is Card.parse(card)
    assert parse_card(text, "de") is Card.parse(card)  # a German player may type English


def test_k_and_a_mean_the_same_in_both_notations():
    for text in ("KH", "AH", "K♠", "A♣"):
        assert parse_card(text, "en") is parse_card(text, "de") is Card.parse(text)


def test_b_and_d_are_ranks_only_in_german():
    assert parse_card("BH", "de") is Card.parse("JH")
    assert parse_card("DH", "de") is Card.parse("QH")
    for text in ("BH", "DH", "Herz Dame", "AP"):
        with pytest.raises(NotACard, match="is not a card"):
            parse_card(text, "en-GB")


def test_j_is_the_english_jack_also_in_german():
    assert parse_card("JH", "de") is Card.parse("JH")
    assert parse_card("J♥", "de") is parse_card("B♥", "de")


def test_d_after_a_rank_is_the_english_diamond():
    # "KD" is the king of diamonds for everyone; a German writes Karo as "Ka", since K is the king.
    assert parse_card("KD", "de") is Card.parse("KD")
    assert parse_card("KKa", "de") is Card.parse("KD")


@pytest.mark.parametrize("text", ["", "HD", "Herz", "Dame", "11H", "1H", "KK", "XS", "Herz Dame Pik"])
def test_what_is_no_card_is_refused_in_the_players_language(text):
    with pytest.raises(NotACard) as german:
        parse_card(text, "de")
    assert "ist keine Karte" in str(german.value)
    with pytest.raises(ValueError, match="is not a card"):  # NotACard is a ValueError, as the session expects
        parse_card(text, "en")


def test_printing_in_the_players_notation():
    queen = Card.parse("QH")
    assert format_card(queen, "en") == "Q♥"
    assert format_card(queen, "de") == "D♥"
    assert format_card(Card.parse("JC"), "de", pretty=False) == "BKr"
    assert format_card(Card.parse("10D"), "de", pretty=False) == "10Ka"
    assert format_card(JOKER, "de") == "🃏"
    assert format_cards([Card.parse("AS"), queen], "de") == "A♠ D♥"
    assert format_rank(Rank.JACK, "de") == "B" and format_rank(Rank.JACK, "en") == "J"
    assert card_words(queen, "de") == "Herz-Dame"
    assert card_words(queen, "en") == "queen of hearts"


@pytest.mark.parametrize("locale", ["en", "de"])
def test_every_card_reads_back_from_how_it_is_printed(locale):
    for card in [*standard_deck(), JOKER]:
        typed = format_card(card, locale, pretty=False)
        for text in (format_card(card, locale), typed, card_words(card, locale)):
            assert parse_card(text, locale) is card, text


def test_several_cards_in_one_text():
    assert parse_cards("DH 10Ka BKr", "de") == [Card.parse(c) for c in ("QH", "10D", "JC")]
    assert parse_cards("Herz Dame, Pik Ass", "de") == [Card.parse("QH"), Card.parse("AS")]


def test_autocomplete_finds_a_card_by_what_a_german_player_types():
    aliases = card_aliases(Card.parse("QH"), "de")
    assert {"dh", "d♥", "qh", "herz-dame"} <= aliases
    assert "dh" not in card_aliases(Card.parse("QH"), "en")
