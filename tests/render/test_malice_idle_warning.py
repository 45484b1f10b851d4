"""Malice is a race: the hand (and so the answer to every move) warns a player before an idle end of his turn
lets the opponent who leads end the game by rule 16 (issue 22), in his own language."""

from __future__ import annotations

import pytest

from bot import render
from bot.games.malice import EndTurn, MaliceGame
from tests.games.malice_helpers import cards
from tests.render.states import info

SEATS = ["101", "ai:1"]


def position(mine: int, theirs: int, *, idle: int = 0, moved: bool = False, discard: str = "optional"):
    """The person (101) to move, holding 9 and 5 (side plays, or the end of his turn, are open to him)."""
    return MaliceGame.model_validate(
        {
            "seed": "warning",
            "players": SEATS,
            "seat": 0,
            "moved": moved,
            "idle_turns": idle,
            "discard": discard,
            "stock": cards("6 7 8"),
            "centre": [[], [], [], []],
            "hands": {"101": cards("9 5"), "ai:1": cards("7 7")},
            "payoff": {"101": cards("K " * mine), "ai:1": cards("Q " * theirs)},
            "side": {p: [[], [], [], []] for p in SEATS},
        }
    )


def hand_text(game: MaliceGame, locale: str = "en") -> str:
    message = render.hand_message(info("malice", SEATS), game, "101", dm=False, locale=locale, picture=False)
    return message.content


@pytest.mark.parametrize(
    ("locale", "idle", "warning"),
    [
        (
            "en",
            0,
            "⚠️ If you end your turn now without moving a card, Computer 1 can end the game by doing "
            "the same: Computer 1 has 1 payoff card left, you have 17.",
        ),
        (
            "en",
            1,
            "⚠️ If you end your turn now without moving a card, the game ends and Computer 1 wins: "
            "Computer 1 has 1 payoff card left, you have 17.",
        ),
        (
            "de",
            0,
            "⚠️ Beendest du deinen Zug jetzt, ohne eine Karte zu bewegen, kann Computer 1 das Spiel "
            "auf dieselbe Weise beenden: Computer 1 hat noch 1 Karte auf dem Zahlstapel, du 17.",
        ),
        (
            "de",
            1,
            "⚠️ Beendest du deinen Zug jetzt, ohne eine Karte zu bewegen, endet das Spiel und "
            "Computer 1 gewinnt: Computer 1 hat noch 1 Karte auf dem Zahlstapel, du 17.",
        ),
    ],
)
def test_the_hand_warns_before_an_idle_end_lets_the_leader_end_the_game(locale, idle, warning):
    game = position(17, 1, idle=idle)
    assert EndTurn() in game.legal_actions()
    assert warning in hand_text(game, locale).splitlines()


def test_the_warning_counts_the_leaders_cards_in_the_plural():
    assert "Computer 1 has 3 payoff cards left, you have 5." in hand_text(position(5, 3))


@pytest.mark.parametrize(
    "game",
    [
        position(5, 5),  # even: an idle end risks a draw at most
        position(3, 9),  # he leads himself
        position(17, 1, moved=True),  # a card has moved: this turn is not idle
        position(17, 1, discard="required"),  # house rule H4: he cannot end without a side play anyway
    ],
    ids=["even", "leading", "moved", "discard-required"],
)
def test_no_warning_when_an_idle_end_costs_nothing_of_the_kind(game):
    text = hand_text(game)
    assert "It is your turn." in text and "⚠️" not in text
