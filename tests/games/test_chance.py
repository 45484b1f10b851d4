"""Chance is injected: the seeded default draws as the games always did, and a scripted chance deals what a
test asks through the real rules, without being able to deal what no deck holds."""

from __future__ import annotations

import random

import pytest

from bot.games import insomnia, malice
from bot.games.cards import Card, Rank, parse_cards, standard_deck
from bot.games.chance import SeededChance
from bot.games.insomnia.hands import DICE_FACES
from tests.games.chance import ScriptedChance
from tests.games.insomnia_helpers import deal_order, rig

DEAL_EXAMPLE = {"p1": "AH AS 9S 10C", "p2": "KH QS JD 9D", "p0": "QH JH 9H KC"}


def test_the_seeded_chance_answers_each_event_from_its_own_key():
    chance = SeededChance()
    items, expected = list(range(20)), list(range(20))
    chance.shuffle("s/3", items)
    random.Random("s/3").shuffle(expected)
    assert items == expected
    rng = random.Random("s/4")
    assert chance.throw("s/4", DICE_FACES, 4) == [rng.choice(DICE_FACES) for _ in range(4)]
    assert chance.index("s/5", 8) == random.Random("s/5").randrange(8)
    # Each event stands alone: asking again with the same key gives the same outcome.
    assert chance.throw("s/4", DICE_FACES, 4) == chance.throw("s/4", DICE_FACES, 4)


def test_a_scripted_chance_deals_the_hands_the_dealer_and_the_throw_asked_for():
    players = ["p0", "p1", "p2"]
    chance = ScriptedChance(indexes=[2], shuffles=[deal_order(players, DEAL_EXAMPLE, 2)], throws=[["K"] * 4])
    game = insomnia.new_game(players, "scripted", chance=chance)
    assert game.public_view().dealer == "p2" and game.current_player == "p0"
    assert {p: game.hands[p] for p in players} == {p: sorted(parse_cards(h)) for p, h in DEAL_EXAMPLE.items()}
    assert game.dice == [Rank.KING] * 4 and chance.exhausted
    assert game.draws == 3  # the dealer, the shuffle and the throw: three random events, as with the seed


def test_a_scripted_shuffle_must_reorder_the_very_cards_being_shuffled():
    not_a_deck = ScriptedChance(shuffles=[parse_cards("AS AS KS")])
    with pytest.raises(AssertionError, match="not a reordering"):
        insomnia.new_game(["a", "b"], "cheat", chance=not_a_deck)
    bad_die = ScriptedChance(indexes=[0], throws=[["2", "A", "A", "A"]])
    with pytest.raises(AssertionError, match="faces"):
        insomnia.new_game(["a", "b"], "cheat", chance=bad_die)


def test_once_the_script_runs_out_the_game_goes_on_seeded_exactly_like_its_json():
    game = rig(["p0", "p1", "p2"], DEAL_EXAMPLE, "A A A A", rethrows=["9"])
    loaded = insomnia.Game.model_validate_json(game.model_dump_json())
    rng = random.Random(0)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        assert [e.model_dump_json() for e in game.apply(action)] == [
            e.model_dump_json() for e in loaded.apply(action)
        ]
        assert game.model_dump_json() == loaded.model_dump_json()


def _deck_a(top_a: str, top_b: str) -> list[Card]:
    """Deck A in its fixed order, but with these cards last in each half: the payoff piles' face-up tops."""
    a, b = Card.parse(top_a), Card.parse(top_b)
    rest = [c for c in standard_deck() if c not in (a, b)]
    return [*rest[:25], a, *rest[25:], b]


def test_malice_deals_the_payoff_piles_from_a_scripted_chance():
    game = malice.new_game(["a", "b"], "scripted", chance=ScriptedChance(shuffles=[_deck_a("7S", "9D")]))
    assert game.public_view().payoff_top == {"a": Card.parse("7S"), "b": Card.parse("9D")}
    assert game.current_player == "b" and game.first_player_reshuffles == 0  # rule 4: the higher top starts


def test_malice_equal_payoff_tops_are_reshuffled_until_they_differ():
    game = malice.new_game(["a", "b"], "scripted", chance=ScriptedChance(shuffles=[_deck_a("KS", "KD")]))
    tops = game.public_view().payoff_top
    assert game.first_player_reshuffles >= 1 and tops["a"] != tops["b"]
    assert tops["a"] is not None and tops["b"] is not None and tops["a"].rank != tops["b"].rank
