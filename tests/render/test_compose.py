"""The one composition of a table's view (bot/render/compose.py): what each reader may see, composed from
stored facts, and the table message drawn from it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.discord_out import custom_id, discord_message, discord_words
from bot.games.base import GameEvent, GameState
from bot.i18n.cards import format_card
from bot.render.compose import compose, hand_message, table_message
from tests.engines import engine
from tests.render.states import INSOMNIA_SEATS, MALICE_SEATS, info


@dataclass(frozen=True)
class Step:
    count: int
    events: tuple[GameEvent, ...]
    game: GameState


def malice():
    game = engine("malice").new_game(MALICE_SEATS, "compose-1")
    return info("malice", MALICE_SEATS), game


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_public_view_names_the_mover_his_clock_and_no_hidden_card(locale):
    table, game = malice()
    steps = [Step(0, tuple(game.opening_events), game)]
    view = compose(table, game, steps=steps, deadline=1_900_000_000, locale=locale)
    assert view.turn == game.current_player and view.deadline == 1_900_000_000
    assert view.reader is None and view.hand is None and view.moves == []
    assert [s.name for s in view.seats] == ["Anna", "Jörg Weißmüller"]
    message = discord_message(table_message(view))
    text = "\n".join(message.texts())
    assert "<t:1900000000:R>" in text  # Discord words the clock in each reader's language
    assert view.log, "the opening is in the log"
    # The controls: Move first (the private dialog), then My hand and the game's own.
    assert [custom_id(b) for b in message.rows[0]][:2] == ["cardtable:7:move", "cardtable:7:hand"]
    for player in MALICE_SEATS:  # two decks: a card may be public too, but never a hand as it reads
        hand = " ".join(format_card(c, locale) for c in game.view(player).hand)
        assert hand not in text, "a hand in the public view"


def test_a_seats_private_view_has_his_hand_and_exactly_his_legal_moves():
    table, game = malice()
    mover = game.current_player
    other = next(p for p in MALICE_SEATS if p != mover)
    mine = compose(table, game, reader=mover, hand_buttons=True)
    assert len(mine.moves) == len(game.legal_actions()) and all(m.seq == table.seq for m in mine.moves)
    assert hand_message(mine).rows, "the ephemeral hand carries its move buttons"
    theirs = compose(table, game, reader=other)
    assert theirs.hand is not None and theirs.moves == [], "not his turn: nothing to pick"


def test_the_table_says_who_the_computer_plays_for_after_a_takeover():
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "compose-2", chips=15)
    table = info("insomnia", INSOMNIA_SEATS, computer_seats=["202"])
    view = compose(table, game, locale="en")
    assert view.takeover_line is not None and "<@202>" in discord_words(view.takeover_line)
    assert [s.takeover for s in view.seats] == [False, True, False, False]
    assert [s.chips for s in view.seats] == [15, 15, 15, 15]
    assert view.takeover_line in (table_message(view).content or "")


def test_a_lobby_view_has_its_buttons_and_no_move():
    table = info("malice", MALICE_SEATS).model_copy(update={"status": "lobby"})
    view = compose(table, None)
    assert view.turn is None and view.board.content
    assert all(b.token != "move" for b in view.controls)
