"""Insomnia's rules, one by one, on hand-picked deals (docs/rules.md section 1; rule numbers in test names).

Seats in the rigged games are p0 (the dealer), p1, p2, ... so play starts with p1.
"""

import random
import re

import pytest

from bot.games.base import POT, IllegalAction
from bot.games.cards import Card, Rank, parse_cards
from bot.games.insomnia import Bid, EndGame, Pass, Play, Rethrow, deck_for, matches_dice, new_game
from tests.refusals import refused

from .insomnia_helpers import act, dice, first, kinds, pass_to, rig, transfers

P3 = ["p0", "p1", "p2"]


def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


# A 3-player deal that runs through every stage (p1 wins stage 2 and leads 9S: spades are trumps).
DEAL3 = {"p1": "AH AS 9S 10C", "p2": "KH QS JD 9D", "p0": "QH JH 9H KC"}
TRICKS3 = ["9S", "QS", "KC", "KH", "9H", "AH", "10C", "9D", "JH", "AS", "JD", "QH"]  # p1 takes 3, p2 1

# 4 players, nobody holds a category (p1, left of the dealer, leads AS: spades are trumps).
DEAL4 = {"p1": "AS KS QS 9D", "p2": "AH KH QH 9C", "p3": "AD KD 10S 9S", "p0": "AC KC JD 10H"}
TRICKS4 = ["AS", "9C", "9S", "AC", "KS", "QH", "10S", "KC", "QS", "KH", "AD", "JD", "9D", "AH", "KD", "10H"]

# 6 players (30 cards: 8 to A, 7H, 7S); the stock holds the other six.
DEAL6 = {
    "p1": "8S 9S 10S AS",
    "p2": "8H 9H JH AH",
    "p3": "8D 9D 10D JD",
    "p4": "QD KD AD JS",
    "p0": "8C 10C JC AC",
    "p5": "QH KH KS QC",
}

# 2 players: p0 (pair of nines) leads AD; the tricks split 2-2.
DEAL2 = {"p1": "AS KS 10D JC", "p0": "9S 9H AD KC"}
TRICKS2 = ["AD", "10D", "KC", "JC", "9S", "AS", "KS", "9H"]


# --- rules 1-2, 6-8: players, decks, dealer, the deal ---------------------------------------------


@pytest.mark.parametrize(
    ("n", "deck_size", "sevens"),
    [
        (2, 24, []),
        (3, 24, []),
        (4, 24, []),
        (5, 30, ["7H", "7S"]),
        (6, 30, ["7H", "7S"]),
        (7, 30, ["7H", "7S"]),
        (8, 32, ["7C", "7D", "7H", "7S"]),
    ],
)
def test_rule_2_deck_by_player_count(n, deck_size, sevens):
    game = new_game([f"p{i}" for i in range(n)], seed="deck")
    in_play = [c for h in game.hands.values() for c in h] + game.stock
    assert len(in_play) == len(set(in_play)) == deck_size
    assert all(len(h) == 4 for h in game.hands.values())
    assert sorted(str(c) for c in in_play if c.rank == Rank.SEVEN) == sevens
    assert min(c.rank for c in in_play) == (Rank.NINE if n <= 4 else Rank.SEVEN)
    assert first(game.opening_events, "deal_started").deck_size == deck_size


def test_rule_2_eight_players_have_no_stock_so_nobody_exchanges():
    game = new_game([f"p{i}" for i in range(8)], seed="eight")
    assert game.stock == [] and game.phase == "auction"
    done = [e for e in game.opening_events if e.kind == "exchange_done"]
    assert len(done) == 8 and all(e.stock_empty and e.exchanges == 0 for e in done)


@pytest.mark.parametrize("players", [["solo"], [f"p{i}" for i in range(9)], ["a", "b", "a"]])
def test_rule_1_two_to_eight_different_players(players):
    with pytest.raises(ValueError):
        new_game(players, seed="x")


def test_rule_6_first_dealer_is_drawn_from_the_seed_and_play_starts_on_his_left():
    dealers = set()
    for i in range(40):
        game = new_game(["a", "b", "c", "d"], seed=f"s{i}")
        again = new_game(["a", "b", "c", "d"], seed=f"s{i}")
        assert game.model_dump_json() == again.model_dump_json()
        dealer = game.public_view().dealer
        dealers.add(dealer)
        assert game.current_player == game.players[(game.players.index(dealer) + 1) % 4]
    assert dealers == {"a", "b", "c", "d"}


def test_rule_8_the_dealers_throw_is_public():
    game = new_game(["a", "b", "c"], seed="throw")
    thrown = first(game.opening_events, "dice_thrown")
    assert thrown.dice == game.dice == game.public_view().dice and len(thrown.dice) == 4
    assert all(d in (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE) for d in thrown.dice)
    assert thrown.player == game.public_view().dealer and thrown.rethrown_die is None


# --- rule 9: exchange -----------------------------------------------------------------------------


def test_rule_9_exchange_twice_then_the_turn_moves_on():
    game = rig(P3, DEAL3, "A A A A", stock="10H 10S 10D JS")
    events = act(game, "x 9S")
    assert game.hands["p1"] == sorted(parse_cards("AH AS 10C 10H"))
    assert kinds(events) == ["exchanged"] and events[0].count == 1 and game.current_player == "p1"
    assert "9S" not in game.model_dump_json(include={"stock"}) and game.discards == parse_cards("9S")
    events = act(game, "x 10C")
    assert game.hands["p1"] == sorted(parse_cards("AH AS 10H 10S"))
    assert kinds(events) == ["exchanged", "exchange_done"] and events[1].exchanges == 2
    assert game.current_player == "p2" and game.public_view().exchanges == {"p0": 0, "p1": 2, "p2": 0}
    # nobody is told which cards went or came
    text = "".join(e.model_dump_json() for e in events)
    assert "9S" not in text and "10C" not in text and "10H" not in text and "10S" not in text


def test_rule_9_pass_keeps_the_hand_and_one_exchange_may_be_enough():
    game = rig(P3, DEAL3, "A A A A", stock="10H 10S 10D JS")
    act(game, "x 9S", "pass", "pass")
    assert game.current_player == "p0" and game.hands["p2"] == sorted(parse_cards(DEAL3["p2"]))
    act(game, "pass")
    assert game.phase == "auction" and game.current_player == "p1"


def test_rule_9_an_empty_stock_ends_the_exchange_for_everyone_after():
    # Six players: 30 cards, 24 dealt, a stock of 6. Two exchanges each by p1 and p2 and one by p3 leave one
    # card, which p4 takes: p4 cannot exchange again, and p5 and p0 cannot exchange at all.
    game = rig([f"p{i}" for i in range(6)], DEAL6, "A A A A")
    act(game, "x 8S", "x 9S", "x 8H", "x 9H", "x 8D", "pass")
    assert game.current_player == "p4" and game.public_view().stock_count == 1
    events = act(game, "x QD")
    assert [(e.kind, getattr(e, "player", None)) for e in events] == [
        ("exchanged", "p4"),
        ("exchange_done", "p4"),
        ("exchange_done", "p5"),
        ("exchange_done", "p0"),
    ]
    assert all(e.stock_empty for e in events[1:]) and events[1].exchanges == 1 and events[2].exchanges == 0
    assert game.phase == "auction" and game.public_view().stock_count == 0


def test_rule_9_exchange_only_a_held_card():
    game = rig(P3, DEAL3, "A A A A")
    with refused(exactly("You do not hold K♥: exchange a card from your hand, or pass.")):
        act(game, "x KH")
    with refused("exchange a card"):
        game.apply(Bid(amount=1))


# --- rules 10-12: the auction and re-throws -------------------------------------------------------


def _auction(chips=15):
    game = rig(P3, DEAL3, "A A A A", chips=chips)
    pass_to(game, "auction")
    return game


def test_rule_10_raises_and_passing_is_not_final():
    game = _auction()
    events = act(game, "pass", "bid 1", "bid 3", "bid 4")  # p1 passes, p2 bids, p0 raises, p1 comes back
    assert [(e.kind, e.player) for e in events] == [
        ("passed", "p1"),
        ("bid", "p2"),
        ("bid", "p0"),
        ("bid", "p1"),
    ]
    assert game.auction.high_bid == 4 and game.auction.high_bidder == "p1" and game.current_player == "p2"


def test_rule_10_the_auction_ends_when_every_other_player_has_passed_in_a_row():
    game = _auction()
    act(game, "bid 2", "pass")  # p2 passes: one pass is not enough
    assert game.phase == "auction" and game.current_player == "p0"
    act(game, "bid 3", "pass")  # p0 raises, p1 passes
    assert game.phase == "auction" and game.current_player == "p2"
    events = act(game, "pass")  # p2 passes: every other player passed after p0's bid
    won = first(events, "auction_won")
    assert (won.player, won.amount, won.rethrows) == ("p0", 3, 6)
    assert game.phase == "rethrow" and game.current_player == "p0"


def test_rule_10_all_pass_without_a_bid_nobody_wins():
    game = _auction()
    events = act(game, "pass", "pass")
    assert game.phase == "auction"
    events = act(game, "pass")
    assert kinds(events)[:2] == ["passed", "auction_no_winner"] and transfers(events, "bid") == []
    assert game.pot == 0


def test_rule_10_bid_more_than_the_highest_bid():
    game = _auction()
    with refused(exactly("Bid at least 1 chip, or pass.")):
        game.apply(Bid(amount=0))
    act(game, "bid 3")
    with refused(exactly("Bid more than 3 chips, or pass.")):
        game.apply(Bid(amount=3))
    assert [a.amount for a in game.legal_actions() if a.kind == "bid"] == list(range(4, 16))
    assert game.legal_actions()[-1] == Pass()


def test_rule_10_bids_are_capped_by_the_bidders_chips():
    game = _auction(chips={"p0": 15, "p1": 15, "p2": 4})
    act(game, "bid 2")
    with refused(exactly("You have only 4 chips: bid at most 4, or pass.")):
        game.apply(Bid(amount=5))
    assert [a.amount for a in game.legal_actions() if a.kind == "bid"] == [3, 4]
    act(game, "bid 4", "bid 5")
    assert game.current_player == "p1"
    act(game, "pass")
    assert game.legal_actions() == [Pass()]  # p2 cannot outbid 5 with 4 chips
    with refused("cannot outbid 5 with 4 chips"):
        game.apply(Bid(amount=5))


def test_rule_11_only_the_winner_pays_his_bid_into_the_pot():
    game = _auction()
    events = act(game, "bid 1", "bid 2", "pass", "pass")
    assert transfers(events) == [("p2", POT, 2)] and first(events, "chips").reason == "bid"
    assert game.pot == 2 and game.chips == {"p0": 15, "p1": 15, "p2": 13}


def test_rule_12_two_rethrows_per_chip_one_chosen_die_at_a_time():
    game = _auction()
    act(game, "bid 2", "pass", "pass")
    assert game.rethrows_left == 4 and game.legal_actions() == [Rethrow(die=d) for d in (1, 2, 3, 4)] + [
        Pass()
    ]
    for n, die in enumerate([3, 3, 1], start=1):
        before = list(game.dice)
        (thrown,) = act(game, f"r {die}")
        assert thrown.kind == "dice_thrown" and thrown.rethrown_die == die and thrown.rethrows_left == 4 - n
        assert [d for i, d in enumerate(game.dice) if i != die - 1] == [
            d for i, d in enumerate(before) if i != die - 1
        ]
    events = act(game, "r 4")  # the last one ends the re-throws by itself
    assert kinds(events)[:2] == ["dice_thrown", "rethrows_ended"]
    assert first(events, "rethrows_ended").unused == 0 and game.phase == "tricks"


def test_rule_12_stop_rethrowing_at_any_time_unused_are_lost():
    game = _auction()
    act(game, "bid 3", "pass", "pass", "r 2")
    events = act(game, "pass")
    assert first(events, "rethrows_ended").unused == 5 and game.phase == "tricks"
    with pytest.raises(IllegalAction):
        game.apply(Rethrow(die=1))


def test_rule_12_a_die_number_from_1_to_4():
    game = _auction()
    act(game, "bid 1", "pass", "pass")
    with refused("Choose a die from 1 to 4"):
        game.apply(Rethrow(die=5))
    assert game.rethrows_left == 2


# --- rules 13-16: stage-1 dice payout -------------------------------------------------------------


def _others(hand: str, throw: str) -> dict:
    """Hands for p2 and p0 from the rest of the 24-card deck that do not match the throw."""
    rest = [c for c in deck_for(3) if c not in parse_cards(hand)]
    for seed in range(100):
        random.Random(seed).shuffle(rest)
        if not any(matches_dice(h, dice(throw)) for h in (rest[:4], rest[4:8])):
            return {"p2": rest[:4], "p0": rest[4:8]}
    raise AssertionError("no non-matching hands")


@pytest.mark.parametrize(
    ("hand", "throw", "pattern", "amount"),
    [
        ("QS QH QD QC", "Q Q Q Q", "four_of_a_kind", 8),
        ("9S 10H JD QC", "Q 9 J 10", "sequence", 6),
        ("10S JH QD KC", "10 J Q K", "sequence", 6),
        ("JS QH KD AC", "A K Q J", "sequence", 6),
        ("KS KH KD 9C", "K 9 K K", "three_of_a_kind", 5),
        ("AS AH 10D 10C", "A 10 10 A", "two_pair", 4),
        ("JS JH 9D AC", "J J 9 A", "pair", 3),
        ("9S JH KD AC", "9 J K A", "high_card", 2),
    ],
)
def test_rules_13_14_16_a_match_is_paid_by_every_other_player_by_the_dice_pattern(
    hand, throw, pattern, amount
):
    game = rig(P3, {"p1": hand, **_others(hand, throw)}, throw)
    events = pass_to(game, "tricks")
    result = first(events, "stage1_result")
    assert (result.winner, result.pattern, result.amount) == ("p1", pattern, amount)
    assert result.hand == sorted(parse_cards(hand), reverse=True)  # he shows his hand
    assert transfers(events, "stage1_payout") == [("p0", "p1", amount), ("p2", "p1", amount)]
    assert game.public_view().shown_hand.cards == result.hand


@pytest.mark.parametrize(
    ("hand", "throw"),
    [
        ("AS KH 9D 9C", "9 A K K"),  # duplicates count
        ("AS KH 9D 10C", "A K 9 9"),
        ("AS AH AD KC", "A A A A"),
    ],
)
def test_rule_13_ranks_must_be_exactly_the_dice(hand, throw):
    game = rig(P3, {"p1": hand, **_others(hand, throw)}, throw)
    events = pass_to(game, "tricks")
    assert first(events, "no_match").stage == 1 and transfers(events, "stage1_payout") == []
    assert game.public_view().shown_hand is None


def test_rule_15_equal_ranks_the_first_higher_suit_wins():
    # sorted high to low: p1 AD KS 9C 9D, p2 AS KH 9S 9H: the aces decide, though p1's king is higher
    game = rig(P3, {"p1": "AD KS 9D 9C", "p2": "AS KH 9S 9H", "p0": "QS QH JD 10C"}, "A K 9 9")
    events = pass_to(game, "tricks")
    assert first(events, "stage1_result").winner == "p2"
    assert transfers(events, "stage1_payout") == [("p0", "p2", 3), ("p1", "p2", 3)]


# --- rules 17-20: stage 2 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "winner", "category", "description"),
    [
        (
            {"p1": "AS AH 10D 9C", "p2": "KS KH QD QC", "p0": "JS 10H 9D 9S"},
            "p2",
            "two_pair",
            "two pairs, kings and queens",
        ),
        (
            {"p1": "AS KS QS JS", "p2": "9S 9H 9D 9C", "p0": "AH KH QH JH"},
            "p2",
            "four_of_a_kind",
            "four of a kind, nines",
        ),
        (
            {"p1": "AS KS QS JS", "p2": "AH KH QH JH", "p0": "10S 10H 10D 9C"},
            "p1",
            "straight_flush",
            "straight flush, ace high",
        ),
        (
            {"p1": "10S 10H 10D 9C", "p2": "AH KS QH JH", "p0": "AD QD JD 9D"},
            "p1",
            "three_of_a_kind",
            "three of a kind, tens",
        ),
        (
            {"p1": "AS KH QH JH", "p2": "AD QD JD 9D", "p0": "10S 10H 9S 9H"},
            "p1",
            "straight",
            "straight, ace high",
        ),
        (
            {"p1": "AD QD JD 9D", "p2": "10S 10H 9S 9H", "p0": "AS KH QS JC"},
            "p0",
            "straight",
            "straight, ace high",
        ),
        (
            {"p1": "AD QD JD 9D", "p2": "10S 10H 9S 9H", "p0": "AS KH QS 10C"},
            "p1",
            "flush",
            "flush, ace high",
        ),
        (
            {"p1": "AS AH KD 9C", "p2": "AD AC QD JC", "p0": "10S 9H KS QH"},
            "p1",
            "pair",
            "a pair of aces",
        ),
        # all ranks equal: suits card by card in deciding order, AS beats AH
        (
            {"p1": "AS AD KD 9C", "p2": "AH AC KS 9D", "p0": "10S 10H QS JH"},
            "p1",
            "pair",
            "a pair of aces",
        ),
    ],
)
def test_rules_17_19_the_best_hand_takes_2_from_each_other_player(hands, winner, category, description):
    game = rig(P3, hands, "9 9 9 9" if category != "four_of_a_kind" else "A A A A")
    events = pass_to(game, "tricks")
    result = first(events, "stage2_winner")
    assert (result.winner, result.category, result.description) == (winner, category, description)
    assert transfers(events, "stage2_payout") == [(p, winner, 2) for p in P3 if p != winner]
    assert game.current_player == winner  # rule 21: he leads


def test_rule_20_nobody_holds_a_pair_nobody_is_paid_and_left_of_dealer_leads():
    game = rig(["p0", "p1", "p2", "p3"], DEAL4, "9 9 9 9", dealer=2)  # dealer p2: p3 leads
    events = pass_to(game, "tricks")
    assert first(events, "stage2_no_winner").leader == "p3"
    assert transfers(events) == [] and game.current_player == "p3"
    assert game.public_view().stage2_winner is None


# --- rules 21-25: tricks --------------------------------------------------------------------------


def test_rules_21_24_a_full_round_of_tricks():
    game = rig(P3, DEAL3, "A A A A", pot=5)
    pass_to(game, "tricks")
    assert game.current_player == "p1"
    events = act(game, *TRICKS3)
    won = [(e.trick, e.winner) for e in events if e.kind == "trick_won"]
    # trick 1: QS beats 9S (spades are trumps); 2: AH; 3: 10C, nobody trumped; 4: AS
    assert won == [(1, "p2"), (2, "p1"), (3, "p1"), (4, "p1")]
    assert all(e.trump.name == "SPADES" for e in events if e.kind == "card_played")
    assert game.tricks_won == {"p0": 0, "p1": 3, "p2": 1}


def test_rule_22_trumps_are_fixed_by_the_first_lead_for_all_four_tricks():
    game = rig(P3, DEAL3, "A A A A")
    pass_to(game, "tricks")
    act(game, *TRICKS3[:6])  # trick 2 was led with a heart, yet spades stay trumps
    assert game.trump.name == "SPADES" and game.public_view().trump.name == "SPADES"


def test_rule_23_follow_suit_if_you_can_else_play_anything():
    game = rig(P3, DEAL3, "A A A A")
    pass_to(game, "tricks")
    act(game, "9S")
    assert game.legal_actions() == [Play(card=Card.parse("QS"))]  # p2 holds one spade
    with refused(exactly("You must follow suit: you hold a spade.")):
        act(game, "KH")
    act(game, "QS")
    # p0 has no spade: any card, and he need not trump
    assert sorted(a.card for a in game.legal_actions()) == sorted(parse_cards(DEAL3["p0"]))
    with refused(exactly("You do not hold A♠: play a card from your hand.")):
        act(game, "AS")
    with refused("play a card"):
        game.apply(Pass())


def test_rule_25_the_pot_goes_to_whoever_won_most_tricks():
    game = rig(P3, DEAL3, "A A A A", pot=5)
    pass_to(game, "tricks")
    events = act(game, *TRICKS3)
    split = first(events, "pot_split")
    assert (split.winners, split.pot, split.share, split.remainder) == (["p1"], 5, 5, 0)
    assert transfers(events, "pot_split") == [(POT, "p1", 5)] and game.pot == 0


def test_rule_25_a_tie_splits_the_pot_and_the_remainder_stays():
    game = rig(["p0", "p1"], DEAL2, "A A A A", pot=5)
    pass_to(game, "tricks")
    assert game.current_player == "p0"  # pair of nines
    events = act(game, *TRICKS2)
    assert [e.winner for e in events if e.kind == "trick_won"] == ["p0", "p0", "p1", "p1"]
    split = first(events, "pot_split")
    assert (split.winners, split.share, split.remainder) == (["p0", "p1"], 2, 1)
    assert transfers(events, "pot_split") == [(POT, "p0", 2), (POT, "p1", 2)] and game.pot == 1


# --- rules 26-29: stage 4 -------------------------------------------------------------------------


def _after_tricks(players, deal, tricks, **options):
    game = rig(players, deal, "9 9 9 9" if "p3" in deal else "A A A A", **options)
    pass_to(game, "tricks")
    events = act(game, *tricks)
    return game, events


@pytest.mark.parametrize(
    ("players", "deal", "tricks", "eligible"),
    [
        (["p0", "p1", "p2", "p3"], DEAL4, TRICKS4, ["p1", "p3"]),  # 4 players: one trick (4 cards) is enough
        (P3, DEAL3, TRICKS3, ["p1"]),  # 3 players: p2's one trick is only 3 cards
        (["p0", "p1"], DEAL2, TRICKS2, ["p1", "p0"]),  # 2 players: two tricks each; from the dealer's left
    ],
)
def test_rule_26_eligible_are_those_who_won_four_cards(players, deal, tricks, eligible):
    game, events = _after_tricks(players, deal, tricks)
    assert first(events, "stage4_eligible").players == eligible == game.public_view().eligible
    assert game.phase == "auction" and game.auction.bidders == eligible and game.current_player == eligible[0]


def test_rule_27_fresh_throw_and_an_auction_among_the_eligible_only():
    game, events = _after_tricks(["p0", "p1", "p2", "p3"], DEAL4, TRICKS4)
    thrown = [e for e in events if e.kind == "dice_thrown"]
    assert (
        len(thrown) == 1 and thrown[0].stage == 4 and thrown[0].player == "p0" and thrown[0].dice == game.dice
    )
    act(game, "pass")
    assert game.current_player == "p3"  # p2 (not eligible) is skipped
    events = act(game, "bid 2", "pass")  # p3 bids, p1 passes: every other eligible player passed
    assert first(events, "auction_won").player == "p3"
    assert [(e.from_account, e.to_account, e.amount, e.reason) for e in events if e.kind == "chips"] == [
        ("p3", POT, 2, "stage4_bid")
    ]
    assert game.phase == "rethrow" and game.rethrows_left == 4 and game.stage == 4


def test_rule_27_the_stage_4_bid_carries_over_into_the_next_deal():
    game, _ = _after_tricks(["p0", "p1", "p2", "p3"], DEAL4, TRICKS4)
    # the pot was empty, so nothing was split; p1 bids 3 and stops re-throwing at once
    events = act(game, "bid 3", "pass")
    game.dice = dice("J J J J")  # nobody can match four jacks
    events = act(game, "pass")
    assert first(events, "no_match").stage == 4
    ended = first(events, "deal_ended")
    assert ended.pot == 3 and game.pot == 3 and game.deal == 2


@pytest.mark.parametrize(
    ("throw", "winner", "cards", "pattern", "amount"),
    [
        ("Q Q J 9", "p1", "QS QH JD 9S", "pair", 3),  # any 4 of p1's 12 won cards
        ("9 A K 10", "p1", "AS KS 10S 9S", "high_card", 2),  # both match: rule 15 on the best sets
        ("A A A K", "p1", "AS AD AC KS", "three_of_a_kind", 5),
        ("10 K A 9", "p1", "AS KS 10S 9S", "high_card", 2),
    ],
)
def test_rule_28_a_match_from_won_cards_paid_by_every_other_player(throw, winner, cards, pattern, amount):
    game, _ = _after_tricks(["p0", "p1", "p2", "p3"], DEAL4, TRICKS4)
    game.dice = dice(throw)
    events = act(game, "pass", "pass")
    result = first(events, "stage4_result")
    assert (result.winner, result.cards, result.pattern, result.amount) == (
        winner,
        sorted(parse_cards(cards), reverse=True),
        pattern,
        amount,
    )
    # everyone else pays, eligible or not
    assert transfers(events, "stage4_payout") == [(p, winner, amount) for p in ("p0", "p2", "p3")]


def test_rule_28_only_the_eligible_can_match():
    game, _ = _after_tricks(P3, DEAL3, TRICKS3)
    # p2 (one trick, 3 cards: not eligible) won QS; p1 won only one queen (QH): nobody eligible matches
    game.dice = dice("Q Q K 9")
    events = act(game, "pass")
    assert first(events, "no_match").stage == 4 and transfers(events, "stage4_payout") == []


def test_rule_27_a_single_eligible_player_wins_the_auction_with_his_bid():
    game, _ = _after_tricks(P3, DEAL3, TRICKS3)
    assert game.auction.bidders == ["p1"]
    events = act(game, "bid 1")
    assert kinds(events) == ["bid", "auction_won", "chips"] and game.phase == "rethrow"


def test_rule_29_the_deal_passes_to_the_left():
    game, _ = _after_tricks(["p0", "p1", "p2", "p3"], DEAL4, TRICKS4)
    game.dice = dice("J J J J")
    events = act(game, "pass", "pass")
    assert first(events, "deal_ended").next_dealer == "p1"
    started = first(events, "deal_started")
    assert (started.deal, started.dealer) == (2, "p1")
    assert game.public_view().dealer == "p1" and game.current_player == "p2" and game.phase == "exchange"
    assert first(events, "dice_thrown").player == "p1"
    assert all(len(h) == 4 for h in game.hands.values()) and game.tricks_won == {p: 0 for p in game.players}


# --- rules 30-32: paying and the end --------------------------------------------------------------


def test_rule_30_partial_payments_happen_together_then_the_game_ends():
    hands = {"p1": "KS KH KD 9C", "p2": "AS AH 10D 10C", "p0": "QS JH 9D AC"}
    game = rig(P3, hands, "K 9 K K", chips={"p0": 2, "p1": 15, "p2": 15})
    events = pass_to(game, "tricks")
    # p0 owes 5 and pays his 2; p2 still pays 5 in the same step; then the game ends before stage 2
    assert transfers(events, "stage1_payout") == [("p0", "p1", 2), ("p2", "p1", 5)]
    assert "stage2_winner" not in kinds(events) and kinds(events)[-1] == "game_over"
    over = events[-1]
    assert over.reason == "out_of_chips" and game.is_over and game.current_player is None
    assert game.chips == {"p0": 0, "p1": 22, "p2": 10}
    assert game.legal_actions() == []


def test_rule_31_a_winning_bid_of_all_his_chips_ends_the_game_at_once():
    game = _auction(chips={"p0": 15, "p1": 15, "p2": 3})
    events = act(game, "pass", "bid 3", "pass", "pass")
    assert kinds(events)[-3:] == ["auction_won", "chips", "game_over"]
    assert game.is_over and game.rethrows_left == 0 and game.pot == 3
    assert [(s.player, s.placement, s.won) for s in events[-1].standings] == [
        ("p0", 1, True),
        ("p1", 1, True),
        ("p2", 3, False),
    ]


def test_rule_31_the_stage_2_payout_can_end_the_game():
    game = rig(P3, DEAL3, "A A A A", chips={"p0": 1, "p1": 15, "p2": 15})
    events = pass_to(game, "tricks")
    assert transfers(events, "stage2_payout") == [("p0", "p1", 1), ("p2", "p1", 2)]
    assert game.is_over and game.over_reason == "out_of_chips" and "card_played" not in kinds(events)


def test_rule_31_the_stage_4_bid_and_payout_can_end_the_game():
    game, _ = _after_tricks(
        ["p0", "p1", "p2", "p3"], DEAL4, TRICKS4, chips={"p0": 15, "p1": 15, "p2": 15, "p3": 2}
    )
    events = act(game, "pass", "bid 2", "pass")
    assert kinds(events)[-2:] == ["chips", "game_over"] and game.chips["p3"] == 0
    game, _ = _after_tricks(
        ["p0", "p1", "p2", "p3"], DEAL4, TRICKS4, chips={"p0": 15, "p1": 15, "p2": 1, "p3": 9}
    )
    game.dice = dice("A A A K")
    events = act(game, "pass", "pass")
    assert transfers(events, "stage4_payout") == [("p0", "p1", 5), ("p2", "p1", 1), ("p3", "p1", 5)]
    assert game.is_over and "deal_ended" not in kinds(events)


def test_rule_31_chips_in_the_pot_stay_there_and_every_chip_is_accounted_for():
    game = _auction(chips={"p0": 15, "p1": 15, "p2": 3})
    act(game, "pass", "bid 3", "pass", "pass")
    assert sum(game.chips.values()) + game.pot == 33
    last = game.standings()[2]
    assert (last.player, last.final_chips, last.net, last.placement) == ("p2", 0, -3, 3)


def test_rule_32_the_deal_cap_ends_the_game_after_the_last_deal():
    game, _ = _after_tricks(["p0", "p1", "p2", "p3"], DEAL4, TRICKS4, max_deals=1)
    game.dice = dice("J J J J")
    events = act(game, "pass", "pass")
    assert first(events, "deal_ended").next_dealer is None
    over = events[-1]
    assert over.kind == "game_over" and over.reason == "deal_cap" and game.is_over and game.deal == 1


def test_rule_32_new_game_respects_the_cap():
    game = new_game(["a", "b", "c"], seed="cap", max_deals=2)
    while not game.is_over:
        game.apply(game.default_action())
    assert game.deal <= 2 and game.over_reason in ("deal_cap", "out_of_chips")
    with pytest.raises(ValueError):
        new_game(["a", "b"], seed="cap", max_deals=0)


# --- the API around the rules ---------------------------------------------------------------------


def test_standings_share_placements_on_equal_chips():
    game = rig(P3, DEAL3, "A A A A")
    game.chips = {"p0": 20, "p1": 20, "p2": 5}
    standings = {s.player: s for s in game.standings()}
    assert [(standings[p].placement, standings[p].won, standings[p].net) for p in P3] == [
        (1, True, 5),
        (1, True, 5),
        (3, False, -10),
    ]
    assert standings["p2"].final_chips == 5


def test_end_game_is_system_only_and_ends_with_chips_as_they_are():
    game = new_game(["a", "b", "c"], seed="end")
    chips = dict(game.chips)
    for _ in range(3):
        assert all(a.kind != "end_game" for a in game.legal_actions())
        game.apply(game.legal_actions()[0])
    chips = dict(game.chips)
    events = game.apply(EndGame())
    assert kinds(events) == ["game_over"] and events[0].reason == "ended" and game.chips == chips
    assert game.is_over and game.current_player is None and game.legal_actions() == []
    with refused(exactly("The game is over.")):
        game.apply(Pass())


def test_default_action_is_the_safe_choice_in_every_phase():
    game = rig(P3, DEAL3, "A A A A")
    assert game.default_action() == Pass()  # exchange: keep the hand
    pass_to(game, "auction")
    assert game.default_action() == Pass()
    act(game, "bid 1", "pass", "pass")
    assert game.phase == "rethrow" and game.default_action() == Pass()
    game.apply(game.default_action())
    assert game.phase == "tricks"
    assert game.default_action() == Play(card=Card.parse("9S"))  # p1's lowest card
    act(game, "9S", "QS")
    assert game.default_action() == Play(card=Card.parse("9H"))  # p0's lowest (he has no spade)


def test_a_player_sees_his_own_hand_and_only_the_shown_hand_of_others():
    hands = {"p1": "KS KH KD 9C", "p2": "AS AH 10D 10C", "p0": "QS JH 9D AC"}
    game = rig(P3, hands, "K 9 K K")
    view = game.view("p2")
    assert view.hand == sorted(parse_cards("AS AH 10D 10C")) and view.player == "p2"
    text = view.model_dump_json()
    assert not any(f'"{c}"' in text for c in ["KS", "KH", "KD", "9C", "QS", "JH", "9D", "AC"])
    pass_to(game, "tricks")  # p1 matches the dice and shows his hand
    text = game.view("p2").model_dump_json()
    assert all(f'"{c}"' in text for c in ["KS", "KH", "KD", "9C"])
    assert not any(f'"{c}"' in text for c in ["QS", "JH", "9D", "AC"])
    public = game.public_view().model_dump_json()
    assert not any(f'"{c}"' in public for c in ["AS", "AH", "QS", "JH"]) and '"KS"' in public
    assert game.view("someone else").hand == []


@pytest.mark.parametrize(
    ("setup", "bad", "message"),
    [
        ([], Bid(amount=1), "It is the exchange: exchange a card from your hand, or pass."),
        ([], Play(card=Card.parse("AH")), "It is the exchange"),
        (["pass"] * 3, Play(card=Card.parse("AH")), "auction for re-throws: bid more chips"),
        (["pass"] * 3, Bid(amount=16), "You have only 15 chips: bid at most 15, or pass."),
        (["pass"] * 3 + ["bid 1", "pass", "pass"], Bid(amount=2), "Choose a die to throw again, or pass"),
        (["pass"] * 6, Bid(amount=1), "It is your turn in the tricks: play a card."),
    ],
)
def test_illegal_actions_are_refused_with_what_to_do_instead(setup, bad, message):
    game = rig(P3, DEAL3, "A A A A")
    act(game, *setup)
    before = game.model_dump_json()
    with refused(message):
        game.apply(bad)
    assert game.model_dump_json() == before  # nothing changed


def test_actions_parse_from_json_and_dicts():
    game = rig(P3, DEAL3, "A A A A")
    game.apply('{"kind": "exchange", "card": "9S"}')
    game.apply({"kind": "pass"})
    assert game.exchanges["p1"] == 1 and game.current_player == "p2"
    for garbage in ('{"kind": "bid"}', {"kind": "fold"}, {"kind": "play", "card": "ZZ"}, "not json"):
        with refused("choose one of the offered actions"):
            game.apply(garbage)
