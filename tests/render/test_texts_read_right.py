"""The texts read as a person writes them, in English and German: lists of names joined as the language joins
them, no "each" for a single winner, no word said twice ("Stage: Stage 1"), and stage 4 shows the cards each
player won (the hand is empty then, and the won cards decide the stage), in the text and in the pictures."""

from __future__ import annotations

import random
import re

import pytest

from bot import render
from bot.discord_out import discord_message, discord_words
from bot.games.insomnia.models import PlayersOut, PotSplit, Stage4Eligible
from bot.i18n.cards import format_cards
from bot.render.common import Message
from bot.render.drawings import hand_picture, table_picture
from bot.render.pictures.labels import cards_words
from tests.engines import engine
from tests.render.states import INSOMNIA_SEATS, MALICE_SEATS, STATES, info, table_message


def log_texts(events: list, locale: str) -> list[str]:
    table_info, game, _ = STATES["insomnia-stage4"]()
    entries = render.renderer("insomnia").log_entries(table_info, game.public_view(), events, locale=locale)
    return [discord_words(e) for e in entries if isinstance(e, str)]  # as Discord shows them


@pytest.mark.parametrize(
    ("locale", "three", "two"),
    [
        ("en", "<@101>, <@202>, and Computer 1 may bid.", "<@101> and <@303> may bid."),
        ("de", "<@101>, <@202> und Computer 1 dürfen bieten.", "<@101> und <@303> dürfen bieten."),
    ],
)
def test_the_players_of_the_second_dice_round_are_joined_as_the_language_joins_a_list(locale, three, two):
    (line,) = log_texts([Stage4Eligible(players=["101", "202", "ai:1"])], locale)
    assert line.endswith(three), line
    (line,) = log_texts([Stage4Eligible(players=["101", "303"])], locale)
    assert line.endswith(two), line


@pytest.mark.parametrize(("locale", "each"), [("en", " each"), ("de", " je ")])
def test_one_winner_takes_the_pot_without_each_and_winners_who_share_it_take_each_their_share(locale, each):
    (one,) = log_texts([PotSplit(winners=["101"], tricks={"101": 3}, pot=9, share=9, remainder=0)], locale)
    assert each not in one and "9" in one, one
    tie = PotSplit(winners=["101", "202"], tricks={"101": 2, "202": 2}, pot=9, share=4, remainder=1)
    (two,) = log_texts([tie], locale)
    assert each in two and "<@101>" in two and "<@202>" in two, two


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [
        (
            "en",
            "🚪 <@303> has no chips left and is out of the game.",
            "🚪 <@101> and Computer 1 have no chips left and are out of the game.",
        ),
        (
            "de",
            "🚪 <@303> hat keine Chips mehr und scheidet aus.",
            "🚪 <@101> und Computer 1 haben keine Chips mehr und scheiden aus.",
        ),
    ],
)
def test_players_going_out_under_house_rule_bust_out_are_announced_in_each_language(locale, one, two):
    (line,) = log_texts([PlayersOut(players=["303"], playing=["101", "202", "ai:1"])], locale)
    assert line == one
    (line,) = log_texts([PlayersOut(players=["101", "ai:1"], playing=["202", "303"])], locale)
    assert line == two


@pytest.mark.parametrize(("locale", "mark"), [("en", "out of the game"), ("de", "ausgeschieden")])
def test_the_table_marks_a_player_who_is_out(locale, mark):
    table_info, game, _ = STATES["insomnia-stage4"]()
    game.out = {"303": 1}
    game.chips = {**game.chips, "303": 0}
    message = discord_message(table_message(table_info, game, None, locale=locale, picture=False))
    seats = message.embeds[0].description
    (line,) = [row for row in seats.splitlines() if "<@303>" in row]
    assert line.endswith(mark) and all(mark not in row for row in seats.splitlines() if row != line)


# --- no word twice ------------------------------------------------------------------------------------------

# "Stage: Stage 1", "Computer 1 (computer)"; a list of slots ("1: free  2: free") is not one word twice.
DOUBLED = re.compile(r"\b([^\W\d_]{3,})\b(?:\s+\d+(?![\d*]*:))?[\s:·,*()]+\1\b", re.IGNORECASE)


def doubled(message: Message) -> list[str]:
    """Words said twice in a row in a message, and embed fields whose value starts with the field's name."""
    found = [m.group(0) for text in message.texts() for m in DOUBLED.finditer(text)]
    for embed in message.embeds:
        for field in embed.fields:
            last = field.name.split()[-1].lower() if field.name.split() else ""
            first = field.value.split()[0].lower() if field.value.split() else ""
            if last and last == first:
                found.append(f"{field.name}: {field.value}")
    return found


def walk(kind: str, players: list[str], seed: str, steps: int, **options):
    """Each state of a seeded game with the events that led to it (an auction bids rarely)."""
    game = engine(kind).new_game(players, seed, **options)
    rng = random.Random(seed)
    events: list = []
    for _ in range(steps):
        yield game, events
        if game.is_over:
            return
        legal = game.legal_actions()
        passes = [a for a in legal if a.kind == "pass"]
        action = passes[0] if passes and rng.random() < 0.7 else rng.choice(legal)
        events = list(game.apply(action))


@pytest.mark.parametrize("locale", ["en", "de"])
@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [("insomnia", INSOMNIA_SEATS, {"chips": 8}), ("malice", MALICE_SEATS, {"max_turns": 60})],
)
def test_no_message_says_a_word_twice(kind, players, options, locale):
    table_info = info(kind, players)
    seen = set()
    for game, events in walk(kind, players, f"words-{kind}", 400, **options):
        messages = [table_message(table_info, game, picture=False, locale=locale)]
        if game.current_player:
            hand = render.hand_message(
                table_info, game, game.current_player, dm=False, locale=locale, picture=False
            )
            messages.append(hand)
        lines = render.log_lines(table_info, game.public_view(), events, current=None, locale=locale)
        messages.append(Message(content="\n".join(line.text for line in lines)))
        for message in messages:
            assert not doubled(message), doubled(message)
        seen.add(getattr(game.public_view(), "phase", "malice"))
    assert kind == "malice" or {"exchange", "auction", "tricks"} <= seen


# --- stage 4: the won cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "de"])
def test_stage_4_shows_the_cards_each_player_won_in_the_table_and_hand_texts(locale):
    table_info, game, player = STATES["insomnia-stage4"]()
    view = game.public_view()
    assert view.stage == 4 and len(view.eligible) == 3 and not game.view(player).hand
    table = "\n".join(discord_message(table_message(table_info, game, picture=False, locale=locale)).texts())
    for p in view.eligible:
        assert f"<@{p}>: {format_cards(view.won_cards[p], locale)}" in table
    hand = render.hand_message(table_info, game, player, dm=True, picture=False, locale=locale).content or ""
    assert format_cards(view.won_cards[player], locale) in hand


@pytest.mark.parametrize("locale", ["en", "de"])
def test_stage_4_shows_the_cards_each_player_won_in_the_pictures(locale):
    table_info, game, player = STATES["insomnia-stage4"]()
    view = game.public_view()
    table = table_picture(table_info, game, locale=locale)
    hand = hand_picture(table_info, game, player, locale=locale)
    assert table is not None and hand is not None
    for p in view.eligible:
        assert f"{table_info.names[p]}: {cards_words(view.won_cards[p], locale)}" in table.alt
    assert cards_words(view.won_cards[player], locale) in hand.alt
    no_cards = {"en": "No cards", "de": "Keine Karten"}[locale]
    assert no_cards not in hand.alt


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_text_names_the_trumps_in_the_tricks_only_as_the_picture_does(locale):
    trumps = {"en": "Trumps", "de": "Trumpf"}[locale]
    for state, shown in (("insomnia-tricks", True), ("insomnia-stage4", False)):
        table_info, game, _ = STATES[state]()
        assert game.public_view().trump is not None, state  # chosen in both: stage 4 comes after the tricks
        fields = table_message(table_info, game, None, locale=locale, picture=False).embeds[0].fields
        assert any(f.name == trumps for f in fields) is shown, (state, [f.name for f in fields])
