"""Insomnia's pure functions: hand values, dice patterns, matching and trick winners (rules 2, 13-18, 24).

The exhaustive checks compare the engine against a brute-force definition written here independently, straight
from the wording of docs/rules.md.
"""

from itertools import combinations, pairwise, product

import pytest

from bot.games.cards import Card, Rank, Suit, deck, parse_cards
from bot.games.insomnia import (
    CATEGORIES,
    best_match,
    deck_for,
    dice_pattern,
    hand_value,
    matches_dice,
    trick_winner,
)

ORDER = ["7", "8", "9", "10", "J", "Q", "K", "A"]  # rule 3, low to high


def _r(card: Card) -> int:
    return ORDER.index(card.rank.short)


def brute_category(cards: list[Card]) -> str | None:
    """Rule 17, read literally."""
    ranks = sorted(_r(c) for c in cards)
    suits = {c.suit for c in cards}
    counts = sorted((ranks.count(x) for x in set(ranks)), reverse=True)
    consecutive = ranks == list(range(ranks[0], ranks[0] + 4))
    one_suit = len(suits) == 1
    if counts == [4]:
        return "four_of_a_kind"
    if consecutive and one_suit:
        return "straight_flush"
    if counts == [3, 1]:
        return "three_of_a_kind"
    if consecutive:
        return "straight"
    if one_suit:
        return "flush"
    if counts == [2, 2]:
        return "two_pair"
    if counts == [2, 1, 1]:
        return "pair"
    return None


def brute_key(cards: list[Card]) -> tuple:
    """Rule 18, read literally: category, then deciding ranks, then suits card by card in that order."""
    category = brute_category(cards)
    best_first = [
        "four_of_a_kind",
        "straight_flush",
        "three_of_a_kind",
        "straight",
        "flush",
        "two_pair",
        "pair",
    ]
    cat_rank = len(best_first) - best_first.index(category) if category else 0
    groups: dict[int, list[Card]] = {}
    for c in cards:
        groups.setdefault(_r(c), []).append(c)
    # bigger groups first, then higher rank; inside a group the higher suit first
    ordered_groups = sorted(groups.items(), key=lambda kv: (len(kv[1]), kv[0]), reverse=True)
    ordered = [
        c for _, group in ordered_groups for c in sorted(group, key=lambda c: int(c.suit), reverse=True)
    ]
    if category in ("straight", "straight_flush"):
        deciding = [max(_r(c) for c in cards)]
    else:
        deciding = [_r(c) for c in ordered]
    return (cat_rank, deciding, [int(c.suit) for c in ordered])


DECK24 = deck_for(4)
DECK32 = deck_for(8)


@pytest.mark.parametrize("the_deck", [DECK24, DECK32], ids=["24 cards", "32 cards"])
def test_every_hand_has_the_brute_force_category(the_deck):
    seen = set()
    for hand in combinations(the_deck, 4):
        category = hand_value(hand).category
        assert category == brute_category(list(hand)), hand
        seen.add(category)
    assert seen == set(CATEGORIES) | {None}


def test_every_32_card_hand_is_ordered_like_the_brute_force_rule():
    # The 32-card deck holds the 24- and 30-card decks, so this orders every hand of every deck (rule 18).
    hands = sorted(combinations(DECK32, 4), key=lambda h: brute_key(list(h)))
    values = [hand_value(h) for h in hands]
    # strictly increasing: the order agrees, and two different hands are never equal (rule 18)
    assert all(a < b and a != b for a, b in pairwise(values))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("9S 9H 9D 9C", "KS QS JS 10S"),  # four of a kind beats straight flush
        ("10S 9S 8S 7S", "AS AH AD KC"),  # straight flush beats three of a kind
        ("9S 9H 9D 7H", "AS KH QD JC"),  # three of a kind beats straight (not poker's order)
        ("10S 9H 8D 7C", "AH KH QH 9H"),  # straight beats flush
        ("9D 7D 8D JD", "AS AH KS KH"),  # flush beats two pairs
        ("10S 10H 9D 9C", "AS AH KD QC"),  # two pairs beat a pair
        ("7S 7H 9D 8C", "AS KH QD 9C"),  # a pair beats no category
        ("AS AH AD 7C", "KS KH KD QC"),  # trips by rank
        ("KS KH KD AC", "KS KH KC 9D"),  # equal trips rank (only in theory): the odd card
        ("KS KH KC 9D", "KS KH KD 9C"),  # then suits card by card: KC beats KD
        ("AS AH 9D 9C", "KS KH QD QC"),  # higher pair first
        ("KS KH 10D 10C", "KD KC 9S 9H"),  # then the lower pair
        ("JS JH AD 8C", "JD JC KS QH"),  # pair: then odd cards high to low
        ("JS JH KD 8C", "JD JC KS 7H"),
        ("AS KS QS JS", "KH QH JH 10H"),  # straight flush by top card
        ("KD QD JD 10D", "QS JS 10S 9S"),
        ("AS KH QD JC", "KS QH JD 10C"),  # straight by top card
        ("AH QH 9H 8H", "AS QS 9S 7S"),  # flush card by card
        ("AS KH QD JC", "AH KS QD JC"),  # equal ranks: suits card by card from the top
        ("QS QD 9C 8C", "QH QC 9S 8S"),  # pair first: QS beats QH
        ("AS KH 10D 8C", "AH KS 10D 8C"),  # no category: still totally ordered
    ],
)
def test_rule_18_tie_breaks(better, worse):
    assert hand_value(parse_cards(better)) > hand_value(parse_cards(worse))
    assert hand_value(parse_cards(worse)) < hand_value(parse_cards(better))


@pytest.mark.parametrize(
    ("hand", "description"),
    [
        ("KS KH 9D 9C", "two pairs, kings and nines"),
        ("9S 9H 9D 9C", "four of a kind, nines"),
        ("KS QS JS 10S", "straight flush, king high"),
        ("QS QH QD 7H", "three of a kind, queens"),
        ("AS KH QD JC", "straight, ace high"),
        ("AH QH 9H 8H", "flush, ace high"),
        ("JS JH AD 8C", "a pair of jacks"),
    ],
)
def test_descriptions_name_the_deciding_ranks(hand, description):
    assert hand_value(parse_cards(hand)).description == description


def test_hand_value_is_order_independent_and_refuses_bad_hands():
    assert hand_value(parse_cards("9C KS 9D KH")) == hand_value(parse_cards("KS KH 9D 9C"))
    # outside the 32-card deck it still works (computed instead of looked up)
    assert hand_value(parse_cards("2S 2H 3D 3C")).category == "two_pair"
    for bad in ("AS KS QS", "AS AS KS QS", "AS KS QS JK", "AS KS QS JS 10S"):
        with pytest.raises(ValueError):
            hand_value(parse_cards(bad))


def brute_dice(dice: list[Rank]) -> tuple[str, int]:
    """Rule 14, read literally."""
    counts = sorted((dice.count(x) for x in set(dice)), reverse=True)
    faces = {d.short for d in dice}
    if counts == [4]:
        return "four_of_a_kind", 8
    if faces in ({"9", "10", "J", "Q"}, {"10", "J", "Q", "K"}, {"J", "Q", "K", "A"}):
        return "sequence", 6
    if counts == [3, 1]:
        return "three_of_a_kind", 5
    if counts == [2, 2]:
        return "two_pair", 4
    if counts == [2, 1, 1]:
        return "pair", 3
    return "high_card", 2


def test_all_1296_dice_throws():
    faces = [Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE]
    throws = list(product(faces, repeat=4))
    assert len(throws) == 1296
    tally: dict[str, int] = {}
    for dice in throws:
        result = dice_pattern(list(dice))
        assert result == brute_dice(list(dice)), dice
        tally[result[0]] = tally.get(result[0], 0) + 1
    # 6 quads, 3 sequences x 24 orders, 120 trips, 90 two pairs, 720 pairs, the rest high card
    assert tally == {
        "four_of_a_kind": 6,
        "sequence": 72,
        "three_of_a_kind": 120,
        "two_pair": 90,
        "pair": 720,
        "high_card": 288,
    }


def _dice(text: str) -> list[Rank]:
    return [Rank.parse(x) for x in text.split()]


@pytest.mark.parametrize(
    ("cards", "dice", "expected"),
    [
        ("AS KH 9D 9C", "9 A K 9", True),  # exact ranks, any order, suits ignored
        ("AS KH 9D 9C", "9 A K K", False),  # duplicates count
        ("AS KH 9D 10C", "9 A K Q", False),
        ("9S 9H 9D 9C", "9 9 9 9", True),
        ("AS KH 9D 9C QS JH", "9 A K 9", True),  # stage 4: some 4 of the won cards
        ("AS KH 9D QS JH 10C", "9 A K 9", False),
        ("AS KH 9D", "9 A K 9", False),
    ],
)
def test_matches_dice(cards, dice, expected):
    assert matches_dice(parse_cards(cards), _dice(dice)) is expected


def test_best_match_takes_the_highest_suits():
    won = parse_cards("9D 9S 9H AC AD KS KH QD")
    assert best_match(won, _dice("9 9 A K")) == parse_cards("AC KS 9S 9H")
    assert best_match(won, _dice("9 9 A J")) is None


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ("9H AH KH", Suit.HEARTS, 1),  # highest of the trump suit led
        ("9S AH KH", Suit.HEARTS, 1),
        ("AS 9H KS", Suit.HEARTS, 1),  # a trump beats the suit led
        ("AS 9H 10H", Suit.HEARTS, 2),  # highest trump
        ("10S AD KS", Suit.HEARTS, 2),  # no trump: highest of the suit led; off-suit ace loses
        ("10S AD 9S JC", Suit.HEARTS, 0),
        ("10S AD 9S JC", None, 0),
        ("JD QD", Suit.SPADES, 1),
    ],
)
def test_trick_winner(plays, trump, winner):
    assert trick_winner(parse_cards(plays), trump) == winner


@pytest.mark.parametrize(
    ("players", "size", "lowest"),
    [(2, 24, "9"), (3, 24, "9"), (4, 24, "9"), (5, 30, "8"), (6, 30, "8"), (7, 30, "8"), (8, 32, "7")],
)
def test_deck_by_player_count(players, size, lowest):
    cards = deck_for(players)
    assert len(cards) == len(set(cards)) == size
    assert size >= 4 * players
    ranks = {c.rank.short for c in cards}
    assert lowest in ranks and "A" in ranks
    sevens = sorted(str(c) for c in cards if c.rank == Rank.SEVEN)
    assert sevens == {24: [], 30: ["7H", "7S"], 32: ["7C", "7D", "7H", "7S"]}[size]
    assert set(deck([Rank.ACE])) <= set(cards)
    with pytest.raises(ValueError):
        deck_for(players + 7 if players > 1 else 1)
