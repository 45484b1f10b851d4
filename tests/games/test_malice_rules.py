"""Malice, rule by rule (docs/rules.md section 2), on positions set up from text."""

from collections import Counter

import pytest

from bot.games.base import ChipTransfer, IllegalAction
from bot.games.cards import JOKER, Rank, standard_deck
from bot.games.malice import EndGame, EndTurn, Resign, new_game, parse_action
from tests.games.malice_helpers import cards, play, table, total_cards
from tests.refusals import english, refused

END = EndTurn()


def kinds(events):
    return [event.kind for event in events]


# --- setup (rules 1-7) --------------------------------------------------------------------------------------


def test_a_new_game_splits_deck_a_into_two_payoff_piles_and_deals_five_each_from_deck_b():
    game = new_game(["p1", "p2"], "setup")
    view = game.public_view()
    assert view.payoff_counts == {"p1": 26, "p2": 26}
    assert view.hand_counts == {"p1": 5, "p2": 5}
    assert view.stock_count == 46
    assert view.centre == [[], [], [], []]
    assert view.side == {"p1": [[], [], [], []], "p2": [[], [], [], []]}
    assert total_cards(game) == 108
    assert Counter(game.payoff["p1"] + game.payoff["p2"]) == Counter(standard_deck())
    assert Counter(game.stock + game.hands["p1"] + game.hands["p2"]) == Counter(standard_deck() + [JOKER] * 4)
    assert view.payoff_top == {p: game.payoff[p][-1] for p in ("p1", "p2")}
    assert view.turn == 1 and view.stake == 1 and view.max_turns == 500 and not view.is_over


def test_the_higher_payoff_top_goes_first_and_equal_tops_are_reshuffled():
    reshuffled = 0
    for n in range(150):
        game = new_game(["p1", "p2"], f"first-{n}")
        tops = {p: game.payoff[p][-1].rank.ace_low for p in ("p1", "p2")}
        assert tops["p1"] != tops["p2"]
        assert tops[game.current_player] == max(tops.values())  # K high, A low
        assert Counter(game.payoff["p1"] + game.payoff["p2"]) == Counter(standard_deck())
        assert len(game.payoff["p1"]) == len(game.payoff["p2"]) == 26
        reshuffled += game.first_player_reshuffles > 0
    assert reshuffled > 0, "no seed exercised the reshuffle on equal tops"


def test_the_first_player_is_decided_by_rank_with_the_ace_low():
    for n in range(300):
        game = new_game(["p1", "p2"], f"ace-{n}")
        tops = {p: game.payoff[p][-1].rank for p in ("p1", "p2")}
        if Rank.ACE in tops.values():
            assert tops[game.current_player] != Rank.ACE
            return
    pytest.fail("no seed turned up an ace")


@pytest.mark.parametrize("players", [["solo"], ["x", "x"], ["x", "y", "z"]])
def test_malice_needs_exactly_two_different_players(players):
    with pytest.raises(ValueError, match="two different players"):
        new_game(players, "s")


@pytest.mark.parametrize(
    ("stock", "b_hand", "drawn", "stock_left"),
    [("4 5 6 7 8 9", "2 3", 3, 3), ("4", "2 3", 1, 0), ("", "2 3", 0, 0), ("4 5 6 7 8 9", "2 3 4 5 6", 0, 6)],
)
def test_a_turn_starts_by_drawing_up_to_five(stock, b_hand, drawn, stock_left):
    game = table(f"stock: {stock}\nb hand: {b_hand}\na hand: 7")
    events = game.apply(END)
    assert kinds(events) == ["turn_ended", "turn_started"]
    assert (events[1].player, events[1].turn, events[1].drawn) == ("b", 2, drawn)
    assert len(game.view("b").hand) == min(5, len(b_hand.split()) + len(stock.split()))
    assert game.public_view().stock_count == stock_left
    assert game.current_player == "b"


def test_the_stock_top_is_drawn_first():
    game = table("stock: 4 5 6 7 8 9 10\nb hand: 2")
    game.apply(END)
    assert game.view("b").hand == cards("2 10 9 8 7")


@pytest.mark.parametrize(("stock", "hand_after"), [("9 9 9 9 9 9 9", 5), ("9 9", 2), ("", 0)])
def test_emptying_the_hand_mid_turn_draws_five_more(stock, hand_after):
    game = table(f"centre: A 2\na hand: 3\nstock: {stock}")
    events = game.apply(play("3", to="centre1"))
    assert len(game.view("a").hand) == hand_after
    assert game.current_player == "a"  # the turn goes on
    if hand_after:
        assert kinds(events) == ["card_played", "hand_refilled"]
        assert (events[1].player, events[1].drawn) == ("a", hand_after)
    else:
        assert kinds(events) == ["card_played"]


def test_a_completed_stack_refills_an_empty_hand_when_the_stock_was_empty():
    game = table("centre: A 2 3 4 5 6 7 8 9 10 J Q\na payoff: 7 K")
    events = game.apply(play("K", source="payoff"))
    assert kinds(events) == ["card_played", "payoff_turned", "stack_completed", "hand_refilled"]
    assert len(game.view("a").hand) == 5 and game.public_view().stock_count == 8


def test_a_side_play_that_empties_the_hand_ends_the_turn_without_a_refill():
    game = table("a hand: 9\nstock: 2 3 4 5 6 7 8 9 10 J")
    events = game.apply(play("9", to="side1"))
    assert kinds(events) == ["card_played", "turn_ended", "turn_started"]
    assert game.public_view().hand_counts == {"a": 0, "b": 5}


# --- centre plays (rules 8-10) ------------------------------------------------------------------------------

CENTRE_CASES = [
    # (position, action, error or None)
    ("a hand: A", play("A", to="centre3"), None),
    ("a hand: 2", play("2", to="centre1"), "Only an ace, or a joker as an ace, can start a centre stack."),
    ("centre: A\na hand: 2", play("2", to="centre1"), None),
    (
        "centre: A 2 3 4 5\na hand: 7",
        play("7", to="centre1"),
        "You cannot put 7♠ on centre stack 1: it needs a 6 (or a joker).",
    ),
    ("centre: A 2 3 4 5 6 7\na hand: 8", play("8", to="centre1"), None),
    (
        "centre: A | A 2 3 4 5 6 7\na hand: 9",
        play("9", to="centre2"),
        "You cannot put 9♠ on centre stack 2: it needs an 8 (or a joker).",
    ),
    ("centre: A 2 3\na hand: JK", play("JK", to="centre1", as_rank="4"), None),
    (
        "centre: A 2 3\na hand: JK",
        play("JK", to="centre1", as_rank="5"),
        "On centre stack 1 the joker can only be a 4.",
    ),
    ("a hand: JK", play("JK", to="centre2", as_rank="A"), None),
    (
        "a hand: JK",
        play("JK", to="centre2", as_rank="2"),
        "A joker on a free centre slot starts the stack as an ace.",
    ),
    ("centre: A JK\na hand: 3", play("3", to="centre1"), None),  # a joker counts as the rank it took
    (
        "centre: A JK\na hand: 2",
        play("2", to="centre1"),
        "You cannot put 2♠ on centre stack 1: it needs a 3 (or a joker).",
    ),
    (
        "centre: A 2 3 4\na hand: 5",
        play("5", to="centre1", as_rank="6"),
        "Only a joker can be played as another rank.",
    ),
    (
        "centre: A 2 | A | A | A\na hand: A",
        play("A", to="centre1"),
        "You cannot put A♠ on centre stack 1: it needs a 3 (or a joker).",
    ),
    ("centre: A 2 3 4 5 6 7 8 9 10\na hand: J", play("J", to="centre1"), None),
    ("a hand: 9", play("8", to="centre1"), "You do not hold 8♠."),
    ("a hand: 9", play(None, to="centre1"), "Say which card from your hand you play."),
    ("centre: A\na payoff: K 2", play("2", source="payoff"), None),
    (
        "centre: A\na payoff: K 2",
        play(None, source="payoff"),
        None,
    ),  # the card may be left out: it is the top
    ("centre: A\na payoff: K 2", play("3", source="payoff"), "Your payoff pile shows 2♠, not 3♠."),
    ("a payoff: K 2", play("2", source="payoff", to="side1"), "Your payoff card can only go to the centre."),
    ("centre: A\na side: 5 2", play("2", source="side1"), None),
    ("centre: A\na side: | 5 2", play(None, source="side2"), None),
    ("centre: A\na side: 2 5", play("2", source="side1"), "Your side stack 1 shows 5♠, not 2♠."),
    ("centre: A", play("2", source="side3"), "Your side stack 3 is empty."),
    (
        "a side: 5 | 5",
        play("5", source="side1", to="side2"),
        "Cards cannot move from one side stack to another: play from your hand.",
    ),
    ("centre: A 2 3 4 5 6\na side: 9 JK", play("JK", source="side1", as_rank="7"), None),
    ("a side: 9 JK", play("JK", source="side1", to="centre4", as_rank="A"), None),
]


@pytest.mark.parametrize(("spec", "action", "error"), CENTRE_CASES)
def test_centre_plays(spec, action, error):
    game = table(spec)
    before = game.model_dump_json()
    if error is None:
        if action.card is not None:  # legal_actions() always names the card
            assert action in game.legal_actions()
        events = game.apply(action)
        assert events[0].kind == "card_played"
        slot = int(action.to[-1]) - 1
        assert game.centre[slot][-1] == events[0].card
        assert game.current_player == "a"  # centre plays do not end the turn
    else:
        assert action not in game.legal_actions()
        with pytest.raises(IllegalAction) as caught:
            game.apply(action)
        assert english(caught.value) == error
        assert game.model_dump_json() == before  # a refused move changes nothing


def test_a_joker_on_the_centre_records_the_rank_it_takes():
    game = table("centre: A 2 3\na hand: JK")
    (played,) = game.apply(play("JK", as_rank="4"))
    assert (played.card, played.as_rank, played.source, played.to) == (JOKER, Rank.FOUR, "hand", "centre1")
    assert game.public_view().centre_needs[0] == Rank.FIVE
    assert '"as_rank":"4"' in played.model_dump_json()


def test_playing_the_payoff_top_turns_up_the_next_card():
    game = table("a payoff: K Q 3 A")
    events = game.apply(play("A", source="payoff", to="centre2"))
    assert kinds(events) == ["card_played", "payoff_turned"]
    assert (events[1].player, events[1].card, events[1].remaining) == ("a", cards("3")[0], 3)
    assert game.public_view().payoff_top["a"] == cards("3")[0]
    assert game.public_view().payoff_counts["a"] == 3


def test_a_side_stack_top_played_to_the_centre_uncovers_the_card_below():
    game = table("centre: A 2 3 4\na side: 9 6 5")
    game.apply(play("5", source="side1"))
    assert game.public_view().side["a"][0] == cards("9 6")
    assert game.legal_actions().count(play("6", source="side1")) == 1


@pytest.mark.parametrize("last", ["K", "JK"])
def test_a_completed_centre_stack_is_shuffled_into_the_stock_at_once(last):
    stack = "A 2 3 4 5 6 7 8 9 10 J Q"
    game = table(f"centre: A | {stack} | 2 3\na hand: {last} 4\nstock: 5C 6C 7C")
    action = play(last, to="centre2", as_rank="K" if last == "JK" else None)
    events = game.apply(action)
    assert kinds(events) == ["card_played", "stack_completed"]
    assert (events[1].slot, events[1].stock_count) == ("centre2", 16)
    view = game.public_view()
    assert view.centre == [cards("A"), [], cards("2 3"), []]
    assert view.stock_count == 16
    assert Counter(game.stock) == Counter(cards(f"5C 6C 7C {stack} {last}"))
    assert game.stock != cards(f"5C 6C 7C {stack} {last}")  # shuffled, not just put on top
    assert total_cards(game) == total_cards(
        table(f"centre: A | {stack} | 2 3\na hand: {last} 4\nstock: 5C 6C 7C")
    )


def test_a_freed_slot_takes_an_ace_again_and_brings_back_the_ace_obligation():
    game = table("centre: A 2 3 4 5 6 7 8 9 10 J Q | A | A | A\na hand: K A")
    assert END in game.legal_actions()  # no free slot: the ace may wait
    game.apply(play("K"))
    assert END not in game.legal_actions()
    assert play("A", to="centre1") in game.legal_actions()


# --- side plays (rules 9, 11, 12) ---------------------------------------------------------------------------

SIDE_CASES = [
    # (a's side stack 1, card, error or None)
    ("", "K", None),
    ("", "2", None),
    ("", "JK", None),
    ("", "A", "An ace can never go on a side stack."),
    ("9", "9", None),
    ("9", "8", None),
    ("9", "7", "You cannot put 7♠ on side stack 1, which shows a 9: play a 9 or an 8 there."),
    ("9", "10", "You cannot put 10♠ on side stack 1, which shows a 9: play a 9 or an 8 there."),
    ("9", "JK", None),
    ("Q", "J", None),
    ("Q", "K", "You cannot put K♠ on side stack 1, which shows a queen: play a queen or a jack there."),
    ("9 8", "9", "You cannot put 9♠ on side stack 1, which shows an 8: play an 8 or a 7 there."),
    ("2", "A", "An ace can never go on a side stack."),
    ("2", "2", None),
    ("2", "3", "You cannot put 3♠ on side stack 1, which shows a 2: play a 2 there."),
    ("9 JK", "8", None),  # checked against the nearest non-joker below
    ("9 JK JK", "9", None),
    (
        "9 JK",
        "7",
        "You cannot put 7♠ on side stack 1, which shows a 9 under a joker: play a 9 or an 8 there.",
    ),
    (
        "9 JK",
        "10",
        "You cannot put 10♠ on side stack 1, which shows a 9 under a joker: play a 9 or an 8 there.",
    ),
    ("JK", "4", None),  # only jokers below: any card but an ace
    ("JK JK", "K", None),
    ("JK", "A", "An ace can never go on a side stack."),
]


@pytest.mark.parametrize(("stack", "card", "error"), SIDE_CASES)
def test_side_plays(stack, card, error):
    game = table(f"centre: A | A | A | A\na hand: {card} 5\na side: {stack}")
    action = play(card, to="side1")
    before = game.model_dump_json()
    if error is None:
        assert action in game.legal_actions()
        events = game.apply(action)
        assert kinds(events) == ["card_played", "turn_ended", "turn_started"]
        assert events[1].side_play and events[1].moved
        assert game.side["a"][0] == cards(f"{stack} {card}")
        assert game.current_player == "b"  # a side play ends the turn
    else:
        assert action not in game.legal_actions()
        with pytest.raises(IllegalAction) as caught:
            game.apply(action)
        assert english(caught.value) == error
        assert game.model_dump_json() == before


def test_side_plays_go_only_onto_the_players_own_stacks():
    game = table("a hand: 5\nb side: 6 | 6 | 6 | 6\na side: K | K | K | K")
    assert [a for a in game.legal_actions() if a.kind == "play" and a.to.startswith("side")] == []
    with pytest.raises(IllegalAction):
        game.apply(play("5", to="side1"))  # side1 is a's own stack showing K, not b's 6


# --- the ace obligation (rule 9) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["a hand: A 5", "a hand: 5\na payoff: K A", "centre: A 2 | A | A\na hand: A 5"]
)
def test_the_turn_cannot_end_while_an_ace_must_go_to_the_centre(spec):
    game = table(spec)
    assert END not in game.legal_actions()
    assert game.view("a").must_play_ace
    for action in (END, play("5", to="side1")):
        with refused(r"^You must first play your ace to the centre\.$"):
            game.apply(action)
    ace = game.default_action()
    assert ace.card.rank == Rank.ACE and ace.to.startswith("centre")
    game.apply(ace)
    assert END in game.legal_actions() and not game.view("a").must_play_ace
    assert game.default_action() == END


def test_with_four_centre_stacks_an_ace_may_stay_in_the_hand():
    game = table("centre: A | A | A | A\na hand: A 5\na payoff: K A")
    assert END in game.legal_actions()
    assert game.default_action() == END
    assert not [a for a in game.legal_actions() if a.kind == "play" and a.card.rank == Rank.ACE]


def test_the_timeout_default_prefers_the_payoff_ace_and_then_ends_the_turn():
    game = table("a hand: A 5\na payoff: K A")
    assert game.default_action() == play("A", source="payoff", to="centre1")
    game.apply(game.default_action())
    assert game.default_action() == play("A", to="centre2")
    game.apply(game.default_action())
    assert game.default_action() == END
    game.apply(game.default_action())
    assert game.current_player == "b"


def test_a_joker_is_never_forced_to_the_centre():
    game = table("a hand: JK 5")
    assert END in game.legal_actions()


# --- legal_actions lists every legal move once --------------------------------------------------------------


def test_legal_actions_lists_every_move_exactly_once():
    game = table("""
        centre: A 2 | A
        a hand: 3 2 JK JK 9
        a payoff: K 4
        a side: 5 | JK
    """)
    expected = [
        play("3", to="centre1"),
        play("2", to="centre2"),
        play("JK", to="centre1", as_rank="3"),
        play("JK", to="centre2", as_rank="2"),
        play("JK", to="centre3", as_rank="A"),
        play("JK", to="centre4", as_rank="A"),
        play("JK", source="side2", to="centre1", as_rank="3"),
        play("JK", source="side2", to="centre2", as_rank="2"),
        play("JK", source="side2", to="centre3", as_rank="A"),
        play("JK", source="side2", to="centre4", as_rank="A"),
        *[play("3", to=f"side{n}") for n in (2, 3, 4)],
        *[play("2", to=f"side{n}") for n in (2, 3, 4)],
        *[play("JK", to=f"side{n}") for n in (1, 2, 3, 4)],
        *[play("9", to=f"side{n}") for n in (2, 3, 4)],
        END,
    ]
    actions = game.legal_actions()
    assert len(actions) == len(set(actions)) == len(expected)
    assert set(actions) == set(expected)
    assert not {a.kind for a in actions} & {"resign", "end_game"}


def test_an_ace_may_start_any_free_slot():
    game = table("centre: | A 2\na hand: A")
    assert {a.to for a in game.legal_actions() if a.kind == "play"} == {"centre1", "centre3", "centre4"}


# --- the end (rules 15-17), resigning and cancelling --------------------------------------------------------


def test_playing_the_last_payoff_card_wins_at_once():
    game = table("centre: A 2 3 4\na hand: 9 9\na payoff: 5\nb payoff: 2 3 4", stake=2)
    events = game.apply(play("5", source="payoff"))
    assert kinds(events) == ["card_played", "game_over", "chips"]
    over = events[1]
    assert (over.reason, over.winner, over.loser, over.score, over.chips) == (
        "payoff_emptied",
        "a",
        "b",
        3,
        6,
    )
    assert events[2] == ChipTransfer(from_account="b", to_account="a", amount=6, reason="malice_score")
    assert game.is_over and game.current_player is None and game.legal_actions() == []
    assert game.default_action() is None
    standings = game.standings()
    assert [(s.player, s.placement, s.net, s.won) for s in standings] == [
        ("a", 1, 6, True),
        ("b", 2, -6, False),
    ]
    for action in (END, play("9", to="side1"), Resign(player="b"), EndGame()):
        with refused(r"^The game is over\.$"):
            game.apply(action)


def test_the_last_payoff_card_wins_even_when_it_completes_a_stack():
    game = table("centre: A 2 3 4 5 6 7 8 9 10 J Q\na payoff: K\nb payoff: 2")
    events = game.apply(play("K", source="payoff"))
    assert kinds(events) == ["card_played", "stack_completed", "game_over", "chips"]
    assert game.result.winner == "a" and game.result.score == 1
    assert game.public_view().centre == [[], [], [], []]


@pytest.mark.parametrize(
    ("a_payoff", "b_payoff", "stake", "winner", "score", "chips"),
    [
        ("2 3 4", "2 3 4 5 6", 3, "a", 2, 6),
        ("2 3 4 5", "2", 1, "b", 3, 3),
        ("2 3", "4 5", 5, None, 0, 0),
        ("2 3 4", "2 3 4 5 6", 0, "a", 2, 0),
    ],
)
def test_two_idle_turns_in_a_row_are_a_stalemate_won_by_fewer_payoff_cards(
    a_payoff, b_payoff, stake, winner, score, chips
):
    game = table(f"a payoff: {a_payoff}\nb payoff: {b_payoff}\nstock: 7 7 7 7 7 7 7", stake=stake)
    first = game.apply(END)
    assert not game.is_over and first[0].moved is False
    events = game.apply(END)  # b drew cards, but drawing is not a move
    assert kinds(events)[:2] == ["turn_ended", "game_over"]
    over = events[1]
    assert (over.reason, over.winner, over.score, over.chips) == ("stalemate", winner, score, chips)
    transfers = [e for e in events if isinstance(e, ChipTransfer)]
    loser = None if winner is None else ("b" if winner == "a" else "a")
    assert transfers == (
        [ChipTransfer(from_account=loser, to_account=winner, amount=chips, reason="malice_score")]
        if chips
        else []
    )
    standings = {s.player: s for s in game.standings()}
    if winner is None:
        assert all(s.placement == 1 and s.net == 0 and not s.won for s in standings.values())
    else:
        assert standings[winner].placement == 1 and standings[winner].net == chips and standings[winner].won
        assert standings[loser].placement == 2 and standings[loser].net == -chips


def test_a_move_between_idle_turns_prevents_the_stalemate():
    game = table("centre: A\nb hand: 2 9")
    game.apply(END)  # a idle
    game.apply(play("2"))  # b moves a card, then ends
    game.apply(END)
    game.apply(END)  # a idle again: only one idle turn in a row
    assert not game.is_over
    game.apply(END)  # b idle too: now both, one after the other
    assert game.is_over and game.result.reason == "stalemate"


def test_a_side_play_is_a_move():
    game = table("a hand: 9\nb hand: 9")
    game.apply(END)
    game.apply(play("9", to="side1"))
    game.apply(END)
    assert not game.is_over


def test_the_turn_cap_ends_the_game_scored_as_a_stalemate():
    game = table("a hand: K K\nb hand: Q\na payoff: 2 3 4\nb payoff: 2 3", max_turns=3, stake=2)
    game.apply(play("K", to="side1"))
    game.apply(play("Q", to="side1"))
    assert not game.is_over
    events = game.apply(play("K", to="side1"))
    assert kinds(events) == ["card_played", "turn_ended", "game_over", "chips"]
    assert (events[2].reason, events[2].winner, events[2].score, events[2].chips) == ("turn_cap", "b", 1, 2)


def test_the_default_cap_is_500_turns():
    game = new_game(["p1", "p2"], "cap")
    assert game.max_turns == 500 and new_game(["p1", "p2"], "cap", max_turns=7).max_turns == 7


@pytest.mark.parametrize("who", ["a", "b"])
def test_a_player_may_resign_at_any_time(who):
    game = table("a payoff: 2 3 4 5\nb payoff: 2 3", stake=2)
    assert not [a for a in game.legal_actions() if a.kind == "resign"]
    events = game.apply(Resign(player=who))
    winner = "b" if who == "a" else "a"
    score = 4 if who == "a" else 2
    assert (events[0].reason, events[0].winner, events[0].score) == ("resign", winner, score)
    assert events[1] == ChipTransfer(
        from_account=who, to_account=winner, amount=score * 2, reason="malice_score"
    )


def test_only_a_seated_player_can_resign():
    game = table()
    with refused("^<@zz> is not playing in this game.$", key="malice.refusal.not_playing"):
        game.apply(Resign(player="zz"))


def test_cancelling_ends_the_game_scored_as_a_stalemate():
    game = table("a payoff: 2 3 4 5\nb payoff: 2 3")
    events = game.apply(EndGame())
    assert (events[0].reason, events[0].winner, events[0].score) == ("cancelled", "b", 2)
    assert game.standings()[0].player == "b"


def test_standings_are_refused_before_the_end():
    with pytest.raises(ValueError, match="not over"):
        table().standings()


# --- views --------------------------------------------------------------------------------------------------


def test_a_players_view_shows_his_hand_and_nothing_of_the_other_hand():
    game = table("a hand: 2 3 4\nb hand: 7 8 9 10 J\ncentre: A")
    a_view, public = game.view("a"), game.public_view()
    assert a_view.hand == cards("2 3 4") and game.view("b").hand == cards("7 8 9 10 J")
    assert set(type(a_view).model_fields) - set(type(public).model_fields) == {
        "player",
        "hand",
        "must_play_ace",
    }
    assert a_view.hand_counts == {"a": 3, "b": 5}
    for hidden in cards("7 8 9 10 J"):
        assert str(hidden) not in a_view.model_dump_json()
    with pytest.raises(ValueError):
        game.view("zz")


def test_the_public_view_has_the_contract_fields():
    view = new_game(["p1", "p2"], "view").public_view()
    for name in ("stock_count", "payoff_counts", "payoff_top", "hand_counts", "centre", "side"):
        assert name in type(view).model_fields
    assert len(view.centre) == 4 and all(len(stacks) == 4 for stacks in view.side.values())
    assert view.current_player in ("p1", "p2") and view.last_play is None


def test_a_rank_for_a_card_on_a_side_stack_is_refused():
    game = table("a hand: JK")
    with refused("keeps its own rank"):
        game.apply(play("JK", to="side1", as_rank="5"))


def test_a_joker_may_leave_its_rank_out_and_takes_the_one_the_stack_needs():
    game = table("centre: A 2 3 4 5 6\na hand: JK 9")
    (played,) = game.apply(play("JK", to="centre1"))
    assert played.as_rank == Rank.SEVEN and game.public_view().centre_needs[0] == Rank.EIGHT


@pytest.mark.parametrize(
    "data",
    [
        '{"kind": "play", "source": "hand", "card": "JK", "to": "centre2", "as_rank": "A"}',
        {"kind": "play", "source": "hand", "card": "🃏", "to": "centre2", "as_rank": "a"},
    ],
)
def test_actions_parse_from_the_action_log(data):
    action = parse_action(data)
    assert action == play("JK", to="centre2", as_rank="A")
    assert action.model_dump_json() == (
        '{"kind":"play","source":"hand","card":"JK","to":"centre2","as_rank":"A"}'
    )
    assert parse_action(action.model_dump_json()) == action
    assert parse_action({"kind": "resign", "player": "7"}) == Resign(player="7")
    assert parse_action('{"kind": "end_turn"}') == END and parse_action({"kind": "end_game"}) == EndGame()


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "fold"},
        {"kind": "play", "source": "deck", "card": "5S", "to": "centre1"},
        {"kind": "play", "source": "hand", "card": "5S", "to": "centre5"},
        {"kind": "play", "source": "hand", "card": "1S", "to": "centre1"},
        {"kind": "play", "source": "hand", "card": "5S", "to": "centre1", "as_rank": "X"},
    ],
)
def test_malformed_actions_are_refused_by_the_parser(bad):
    with pytest.raises(ValueError):
        parse_action(bad)


def test_only_the_player_to_move_is_told_to_play_his_ace():
    game = table("a hand: 5\nb hand: A")
    assert not game.view("b").must_play_ace and not game.view("a").must_play_ace
    game.apply(END)
    assert game.view("b").must_play_ace
