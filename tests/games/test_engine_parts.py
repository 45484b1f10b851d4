"""Each role part of the engines, built alone from a state and tested without the rest of the game.

`InsomniaGame` is the deal flow over three parts (bot/games/insomnia/: `Auctions`, `Tricks`, `Payouts`) and
`MaliceGame` the turn flow over its `Moves` (bot/games/malice/moves.py). A part is a pydantic model over the
same state fields, so a test writes the position it needs and calls the part's step directly: no deal, no
earlier stages.
"""

from __future__ import annotations

import pytest

from bot.games.base import IllegalAction
from bot.games.cards import Card, parse_cards
from bot.games.insomnia import Bid, Pass, Play
from bot.games.insomnia.auction import Auctions
from bot.games.insomnia.payouts import Payouts
from bot.games.insomnia.state import Events
from bot.games.insomnia.tricks import Tricks
from bot.games.malice import EndTurn
from bot.games.malice.moves import Moves
from tests.games.insomnia_helpers import dice, kinds, transfers
from tests.games.malice_helpers import cards, play, stacks

PLAYERS = ["a", "b", "c"]


def insomnia_state(cls, chips: dict[str, int], **fields):
    return cls(seed="parts", players=list(chips), starting_chips=dict(chips), chips=dict(chips), **fields)


# --- Insomnia: payouts -----------------------------------------------------------------------------


def test_payouts_alone_collect_what_each_player_has_and_end_the_game_at_zero():
    payouts = insomnia_state(Payouts, {"a": 5, "b": 1, "c": 3})
    events: Events = []
    assert payouts._collect("a", 3, "stage1_payout", events) is True  # b paid his last chip (rule 30)
    assert transfers(events) == [("b", "a", 1), ("c", "a", 3)]
    assert payouts.chips == {"a": 9, "b": 0, "c": 0} and payouts.is_over
    assert kinds(events)[-1] == "game_over" and payouts.over_reason == "out_of_chips"


def test_payouts_alone_share_a_tied_pot_and_keep_the_remainder():
    payouts = insomnia_state(Payouts, {"a": 5, "b": 5, "c": 5}, pot=5, tricks_won={"a": 2, "b": 2, "c": 0})
    events: Events = []
    assert payouts._share_pot(events) is False
    assert transfers(events, "pot_split") == [("@pot", "a", 2), ("@pot", "b", 2)]
    assert payouts.pot == 1 and payouts.chips == {"a": 7, "b": 7, "c": 5}


def test_payouts_alone_pay_the_stage1_match_and_show_the_hand():
    dealt = {"a": "9S 9H KD AC", "b": "10S JS QS KS", "c": "9D 10D JD QD"}
    hands = {p: parse_cards(h) for p, h in dealt.items()}
    payouts = insomnia_state(Payouts, {"a": 5, "b": 5, "c": 5}, hands=hands, dice=dice("9 9 K A"))
    events: Events = []
    assert payouts._stage1_payout(events) is False
    assert payouts.shown_hand is not None and payouts.shown_hand.player == "a"
    assert transfers(events) == [("b", "a", 3), ("c", "a", 3)]  # one pair: 3 chips (rule 14)


# --- Insomnia: auctions ----------------------------------------------------------------------------


def test_an_auction_alone_takes_the_winning_bid_into_the_pot_and_grants_two_rethrows_a_chip():
    auction = insomnia_state(Auctions, {"a": 4, "b": 4, "c": 4}, dice=dice("9 10 J Q"))
    auction._start_auction(1, ["a", "b", "c"])
    events: Events = []
    assert auction._apply_auction(Bid(amount=2), events) is False
    assert auction._apply_auction(Pass(), events) is False
    assert auction._apply_auction(Pass(), events) is False  # every other player passed after the bid
    assert auction.phase == "rethrow" and auction.turn == "a" and auction.rethrows_left == 4
    assert auction.pot == 2 and auction.chips["a"] == 2
    assert auction._apply_rethrow(Pass(), events) is True  # stopping settles the dice
    assert kinds(events)[-1] == "rethrows_ended"


def test_an_auction_alone_without_a_bid_closes_with_no_winner():
    auction = insomnia_state(Auctions, {"a": 4, "b": 4})
    auction._start_auction(4, ["b", "a"])
    events: Events = []
    assert auction._apply_auction(Pass(), events) is False
    assert auction._apply_auction(Pass(), events) is True
    assert kinds(events) == ["passed", "passed", "auction_no_winner"] and auction.pot == 0


# --- Insomnia: tricks ------------------------------------------------------------------------------


def test_tricks_alone_follow_suit_fix_trumps_and_give_the_lead_to_the_winner():
    hands = {"a": parse_cards("9H AS"), "b": parse_cards("KH 10S"), "c": parse_cards("QC JS")}
    tricks = insomnia_state(
        Tricks,
        {"a": 5, "b": 5, "c": 5},
        hands=hands,
        tricks_won=dict.fromkeys(PLAYERS, 0),
        won_cards={p: [] for p in PLAYERS},
    )
    tricks._start_tricks("a")
    events: Events = []
    tricks._apply_play(Play(card="9H"), events)  # hearts are trumps for the stage (rule 22)
    with pytest.raises(IllegalAction) as refused:
        tricks._apply_play(Play(card="10S"), events)
    assert refused.value.key == "insomnia.refusal.follow_suit"
    tricks._apply_play(Play(card="KH"), events)
    tricks._apply_play(Play(card="QC"), events)  # no heart: any card
    assert tricks.tricks_won["b"] == 1 and tricks.turn == "b" and len(tricks.won_cards["b"]) == 3
    assert tricks._playable("b") == [Card.parse("10S")]


# --- Malice: moves ---------------------------------------------------------------------------------


def malice_moves(**piles: str) -> Moves:
    return Moves.model_validate(
        {
            "seed": "parts",
            "players": ["a", "b"],
            "centre": stacks(piles.get("centre", "")),
            "hands": {"a": cards(piles.get("hand", "")), "b": []},
            "payoff": {"a": cards(piles.get("payoff", "KC KD")), "b": cards("KC KD")},
            "side": {"a": stacks(piles.get("side", "")), "b": stacks("")},
        }
    )


def test_moves_alone_force_the_ace_to_the_centre_before_anything_else():
    moves = malice_moves(hand="A 7 9")
    legal = moves.legal_actions()
    assert legal and all(a.kind == "play" and a.to.startswith("centre") for a in legal)
    assert EndTurn() not in legal
    with pytest.raises(IllegalAction) as refused:
        moves._check_side("a", play("7", to="side1"), cards("7")[0])
    assert refused.value.key == "malice.refusal.ace_first"


def test_moves_alone_check_a_side_stack_by_its_top_card():
    moves = malice_moves(centre="A | A | A | A", hand="5 9", side="6")
    moves._check_side("a", play("5", to="side1"), cards("5")[0])  # one rank lower: allowed
    with pytest.raises(IllegalAction) as refused:
        moves._check_side("a", play("9", to="side1"), cards("9")[0])
    assert refused.value.key == "malice.refusal.side_takes"
    assert play("9", to="side2") in moves.legal_actions() and EndTurn() in moves.legal_actions()
