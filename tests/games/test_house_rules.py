"""The house rules of docs/rules.md section 3, each on and off, through `legal_actions()` and `apply()`.

Table-driven positions show each rule doing what its text says; seeded whole games then check the invariants
of the rules at every step, with the house rule chosen and at the standard rule. (The audits compare the
engines with independent readings at every house rule as well: test_insomnia_audit.py, test_malice_audit.py;
the conformance suite plays each one: test_conformance.py.)
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from pydantic import ValidationError

from bot.games.base import ChipTransfer, IllegalAction
from bot.games.insomnia import InsomniaOptions, deck_for
from bot.games.insomnia import new_game as new_insomnia
from bot.games.malice import EndTurn, MaliceOptions
from bot.games.malice import new_game as new_malice
from bot.games.registry import REGISTRY
from tests.games.insomnia_helpers import act, first, kinds, pass_to, rig, transfers
from tests.games.malice_helpers import play, table, total_cards
from tests.refusals import english

P3 = ["p0", "p1", "p2"]  # p0 deals: p1, p2, p0 act in that order
DEAL3 = {"p1": "AH AS 9S 10C", "p2": "KH QS JD 9D", "p0": "QH JH 9H KC"}
TRICKS3 = ["9S", "QS", "KC", "KH", "9H", "AH", "10C", "9D", "JH", "AS", "JD", "QH"]  # p1 takes 3, p2 1


# --- the options models -----------------------------------------------------------------------------------


def test_each_house_rule_defaults_to_the_standard_rule_and_refuses_other_values():
    assert InsomniaOptions() == InsomniaOptions(sevens="hearts-spades", bust="ends", stage4="on")
    assert MaliceOptions() == MaliceOptions(discard="optional", stake=1, turns=500)
    for model, name in [
        (InsomniaOptions, "sevens"),
        (InsomniaOptions, "bust"),
        (InsomniaOptions, "stage4"),
        (MaliceOptions, "discard"),
    ]:
        with pytest.raises(ValidationError):
            model.model_validate({name: "sometimes"})
    with pytest.raises(ValueError, match=r"house rule of Insomnia: choose ends or out\.$"):
        new_insomnia(P3, "h", bust="never")
    with pytest.raises(ValueError, match=r"house rule of Malice: choose optional or required\.$"):
        new_malice(["a", "b"], "h", discard="never")


def test_a_table_option_reaches_the_engine_through_the_registry():
    game = REGISTRY["insomnia"].new_game([f"p{i}" for i in range(5)], "h", {"sevens": "all", "stage4": "off"})
    assert (game.sevens, game.stage4, game.bust) == ("all", "off", "ends")
    view = game.public_view()
    assert (view.sevens, view.stage4, view.bust) == ("all", "off", "ends")
    malice = REGISTRY["malice"].new_game(["a", "b"], "h", {"discard": "required"})
    assert malice.discard == "required" and malice.public_view().discard == "required"


def test_the_standard_rules_write_no_house_rule_into_the_json_and_a_house_rule_round_trips():
    standard = new_insomnia(P3, "h")
    assert '"sevens"' not in standard.model_dump_json() and '"out"' not in standard.model_dump_json()
    chosen = new_insomnia(P3, "h", bust="out", stage4="off")
    loaded = type(chosen).model_validate_json(chosen.model_dump_json())
    assert (loaded.bust, loaded.stage4) == ("out", "off")
    assert loaded.model_dump_json() == chosen.model_dump_json()
    assert '"discard"' not in new_malice(["a", "b"], "h").model_dump_json()


# --- H1 sevens ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "standard", "all_sevens"), [(4, 24, 24), (5, 30, 32), (7, 30, 32), (8, 32, 32)]
)
def test_h1_all_four_sevens_at_5_to_7_players(players, standard, all_sevens):
    seats = [f"p{i}" for i in range(players)]
    for sevens, size in (("hearts-spades", standard), ("all", all_sevens)):
        game = new_insomnia(seats, "sevens", sevens=sevens)
        assert first(game.opening_events, "deal_started").deck_size == size
        cards = [c for hand in game.hands.values() for c in hand] + game.stock
        assert sorted(cards) == sorted(deck_for(players, sevens)) and len(cards) == size
    if 5 <= players <= 7:
        added = {str(c) for c in deck_for(players, "all")} - {str(c) for c in deck_for(players)}
        assert added == {"7D", "7C"}


# --- H2 bust ------------------------------------------------------------------------------------------


def test_h2_a_winning_bid_of_his_last_chips_puts_him_out_and_the_others_play_on():
    game = rig(P3, DEAL3, "A A A A", chips={"p0": 15, "p1": 15, "p2": 3}, bust="out")
    pass_to(game, "auction")
    events = act(game, "pass", "bid 3", "pass", "pass")
    won = kinds(events).index("auction_won")
    assert kinds(events)[won : won + 3] == ["auction_won", "chips", "players_out"]
    assert first(events, "players_out").players == ["p2"] and "rethrows_ended" not in kinds(events)
    # He has left: no re-throws, the dice are settled as thrown, stage 2 and the tricks among the other two.
    assert not game.is_over and game.phase == "tricks" and game.pot == 3
    assert game.hands["p2"] == [] and game.chips["p2"] == 0
    assert transfers(events, "stage2_payout") == [("p0", "p1", 2)]
    view = game.public_view()
    assert view.playing == ["p0", "p1"] and view.out == ["p2"] and view.hand_counts["p2"] == 0
    act(game, "9S", "9H")  # a trick of two cards now
    assert game.tricks_won == {"p0": 0, "p1": 1, "p2": 0} and game.current_player == "p1"


def test_h2_at_the_standard_rule_the_same_bid_ends_the_game():
    game = rig(P3, DEAL3, "A A A A", chips={"p0": 15, "p1": 15, "p2": 3})
    pass_to(game, "auction")
    events = act(game, "pass", "bid 3", "pass", "pass")
    assert kinds(events)[-3:] == ["auction_won", "chips", "game_over"] and game.is_over


def test_h2_the_game_ends_when_one_player_holds_chips_and_those_out_together_share_a_place():
    hands = {"p1": "KS KH KD 9C", "p2": "AS AH 10D 10C", "p0": "QS JH 9D AC"}
    game = rig(P3, hands, "K 9 K K", chips={"p0": 2, "p1": 15, "p2": 3}, bust="out")
    events = pass_to(game, "tricks")
    assert transfers(events, "stage1_payout") == [("p0", "p1", 2), ("p2", "p1", 3)]
    assert first(events, "players_out").players == ["p0", "p2"] and kinds(events)[-1] == "game_over"
    assert game.is_over and game.over_reason == "out_of_chips"
    assert [(s.player, s.placement, s.won) for s in game.standings()] == [
        ("p1", 1, True),
        ("p0", 2, False),
        ("p2", 2, False),
    ]


def test_h2_a_new_deal_sends_hands_only_to_the_players_still_in():
    game = rig(P3, DEAL3, "A A A A", chips={"p0": 15, "p1": 15, "p2": 3}, bust="out")
    pass_to(game, "auction")
    act(game, "pass", "bid 3", "pass", "pass")  # p2 goes out
    events: list = []
    while "deal_started" not in kinds(events):  # the rest of the deal, by the safe defaults
        events = game.apply(game.default_action())
    assert game.deal == 2 and game.hands["p2"] == [] and len(game.hands["p0"]) == 4
    assert REGISTRY["insomnia"].session.hands_to_send(game, events, False) == ["p0", "p1"]


def test_h2_the_first_player_out_places_last():
    game = rig(
        ["p0", "p1", "p2", "p3"],
        {"p1": "AS KS QS 9D", "p2": "AH KH QH 9C", "p3": "AD KD 10S 9S", "p0": "AC KC JD 10H"},
        "9 9 9 9",
        bust="out",
    )
    game.chips = {"p0": 0, "p1": 20, "p2": 0, "p3": 5}
    game.out = {"p2": 1, "p0": 2}  # p2 went out first, p0 later
    assert [(s.player, s.placement) for s in game.standings()] == [("p1", 1), ("p3", 2), ("p0", 3), ("p2", 4)]


# --- H3 stage4 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage4", ["on", "off"])
def test_h3_without_stage_4_the_deal_ends_after_the_tricks(stage4):
    game = rig(P3, DEAL3, "A A A A", stage4=stage4)
    pass_to(game, "tricks")
    events = act(game, *TRICKS3)
    after_pot = kinds(events)[kinds(events).index("pot_split") :]
    if stage4 == "off":
        assert after_pot[:3] == ["pot_split", "deal_ended", "deal_started"] and game.deal == 2
        assert "stage4_eligible" not in kinds(events) and game.phase == "exchange"
    else:
        assert after_pot[:2] == ["pot_split", "stage4_eligible"] and game.stage == 4 and game.deal == 1


# --- H4 discard (Malice) ------------------------------------------------------------------------------


def test_h4_required_a_side_play_must_end_the_turn_when_a_card_fits():
    game = table("a hand: 9 5", discard="required")
    legal = game.legal_actions()
    assert EndTurn() not in legal and play("9", to="side1") in legal and play("5", to="side1") in legal
    with pytest.raises(IllegalAction) as refused:
        game.apply(EndTurn())
    assert english(refused.value) == (
        "At this table a card that fits one of your side stacks must go there to end your turn."
    )
    assert game.default_action() == play("9", to="side1")  # the timeout keeps the low card for the centre
    events = game.apply(game.default_action())
    assert kinds(events)[:2] == ["card_played", "turn_ended"] and game.current_player == "b"


def test_h4_optional_is_rule_12_the_turn_may_end_without_a_side_play():
    game = table("a hand: 9 5")
    assert EndTurn() in game.legal_actions() and game.default_action() == EndTurn()


@pytest.mark.parametrize(
    "position",
    [
        "a hand: ",  # he holds no card
        "centre: A | A | A | A\na hand: A",  # his only card is an ace, which never goes to a side stack
    ],
)
def test_h4_required_he_may_end_without_a_side_play_when_no_card_can_go_there(position):
    game = table(position, discard="required")
    assert EndTurn() in game.legal_actions() and game.default_action() == EndTurn()
    game.apply(EndTurn())
    assert game.current_player == "b"


def test_h4_required_leaves_rule_16_two_idle_turns_are_still_a_stalemate():
    game = table("centre: A | A | A | A\na hand: A\nb hand: A", discard="required")
    game.apply(EndTurn())
    events = game.apply(EndTurn())
    assert game.is_over and game.result.reason == "stalemate" and kinds(events)[-1] == "game_over"


# --- whole games: the invariants of each rule, with the house rule and without -------------------------


def _insomnia_games(house: dict[str, str], games: int = 40):
    for g in range(games):
        rng = random.Random(f"house/{g}")
        players = [f"p{i}" for i in range(2 + g % 7)]
        game = new_insomnia(players, f"house/{g}", chips=rng.choice([2, 3, 6]), max_deals=6, **house)
        yield rng, game


@pytest.mark.parametrize("bust", ["ends", "out"])
def test_insomnia_whole_games_keep_every_chip_and_seat_only_players_with_chips(bust):
    went_out = 0
    for rng, game in _insomnia_games({"bust": bust}):
        start = sum(game.chips.values()) + game.pot
        net: Counter[str] = Counter()
        while not game.is_over:
            player = game.current_player
            # Rule 31 / H2: whoever is asked to decide is in the game and has chips; those out hold nothing.
            assert player not in game.out and game.chips[player] > 0
            assert all(game.chips[p] == 0 and not game.hands[p] for p in game.out)
            for event in game.apply(rng.choice(game.legal_actions())):
                if isinstance(event, ChipTransfer):
                    net[event.from_account] -= event.amount
                    net[event.to_account] += event.amount
                if event.kind == "players_out":
                    assert bust == "out" and all(game.chips[p] == 0 for p in event.players)
            assert sum(game.chips.values()) + game.pot == start == sum(game.starting_chips.values())
        went_out += bool(game.out)
        standings = game.standings()
        assert {s.player: s.net for s in standings} == {p: net[p] for p in game.players}
        if game.over_reason == "out_of_chips":
            holding = [p for p in game.players if game.chips[p] > 0]
            # Standard: someone is at 0; H2: exactly one player holds chips, and he alone wins.
            assert min(game.chips.values()) == 0
            if bust == "out":
                assert len(holding) == 1 and [s.player for s in standings if s.won] == holding
        if bust == "out":  # the first out places last
            order = sorted(game.out, key=game.out.__getitem__)
            placement = {s.player: s.placement for s in standings}
            assert all(placement[a] >= placement[b] for a, b in pairwise(order))
    assert (went_out > 5) == (bust == "out")


@pytest.mark.parametrize("stage4", ["on", "off"])
@pytest.mark.parametrize("sevens", ["hearts-spades", "all"])
def test_insomnia_whole_games_deal_the_chosen_deck_and_play_stage_4_only_when_on(sevens, stage4):
    stage4_seen = 0
    for rng, game in _insomnia_games({"sevens": sevens, "stage4": stage4}, games=30):
        events = list(game.opening_events)
        while not game.is_over:
            events += game.apply(rng.choice(game.legal_actions()))
        for event in events:
            if event.kind == "deal_started":
                assert event.deck_size == len(deck_for(len(game.players), sevens))
        stage4_seen += any(e.kind == "stage4_eligible" for e in events)
        assert all(e.stage == 1 for e in events if e.kind == "dice_thrown" and stage4 == "off")
    assert (stage4_seen > 0) == (stage4 == "on")


@pytest.mark.parametrize("discard", ["optional", "required"])
def test_malice_whole_games_end_a_turn_idly_only_as_the_discard_rule_allows(discard):
    ended_idly_with_a_side_play = 0
    for g in range(12):
        rng = random.Random(f"discard/{g}")
        game = new_malice(["a", "b"], f"discard/{g}", max_turns=80, discard=discard)
        while not game.is_over:
            legal = game.legal_actions()
            sides = [a for a in legal if a.kind == "play" and a.to.startswith("side")]
            if EndTurn() in legal:
                ended_idly_with_a_side_play += bool(sides)
            else:  # no end of turn: the ace first (rule 9), or a side play owed (H4)
                assert game._must_play_ace(game.current_player) or (discard == "required" and sides)
            # random play, ending the turn idly whenever it may (the move the house rule is about)
            action = EndTurn() if EndTurn() in legal and rng.random() < 0.3 else rng.choice(legal)
            game.apply(action)
            assert total_cards(game) == 108
    # Under rule 12 a player could end idly with a side play open; under H4 "required" never.
    assert (ended_idly_with_a_side_play > 0) == (discard == "optional")


def test_malice_stake_and_turns_are_house_rules_h5_h6():
    game = new_malice(["a", "b"], "stake", stake=3, max_turns=2)
    while not game.is_over:
        game.apply(game.default_action())
    assert game.result.reason in ("turn_cap", "stalemate") and game.turn <= 2
    assert game.result.chips == 3 * game.result.score
