"""Pictures of the table and hands: they look as approved (golden images), never show a hidden card, stay
small, decode as PNG, carry alt text, and ride on the table and hand messages unless the table turned them
off."""

from __future__ import annotations

import io
import os
import random
import re

import pytest
from PIL import Image, ImageChops

from bot import render
from bot.render.drawings import CACHE, hand_picture, table_picture
from bot.render.pictures.labels import card_words
from tests.engines import engine
from tests.render import golden
from tests.render.states import INSOMNIA_SEATS, STATES, info, table_message

MAX_BYTES = 150 * 1024
# Fonts and resampling may differ a little between Pillow builds: a pixel counts as different only past this
# per-channel distance, and a picture matches if almost none do.
CHANNEL_TOLERANCE = 48
PIXEL_SHARE = 0.002


def golden_cases() -> list[tuple[str, str, str]]:
    cases = []
    for state in STATES:
        cases.append((f"{state}-table", state, "table"))
        if not state.endswith("over"):
            cases.append((f"{state}-hand", state, "hand"))
    return cases


def draw(state: str, what: str):
    table_info, game, player = STATES[state]()
    return table_picture(table_info, game) if what == "table" else hand_picture(table_info, game, player)


def differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    return diff.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("name", list(golden.CASES))
def test_each_golden_picture_looks_as_approved(name):
    """Drawn as a phone shows it (360 px wide), with the players' names: UPDATE_GOLDEN=1 redraws the goldens
    (look at them before committing: tests/render/golden.py)."""
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write(name)
        pytest.skip(f"golden {name} redrawn: look at it, then commit it")
    assert golden.path(name).exists(), f"no golden {name}: UPDATE_GOLDEN=1 pytest {__file__} -k golden"
    got, want = golden.on_a_phone(golden.draw(*golden.CASES[name])), golden.read(name)
    assert got.size == want.size, f"{name}: {got.size} drawn, {want.size} approved"
    got = golden.in_palette_of(got, name)  # as the golden was stored: its own few colours
    share = differing_share(got, want)
    assert share <= PIXEL_SHARE, f"{name}: {share:.2%} of the pixels differ from the golden picture"


def test_the_goldens_stay_few_and_small():
    files = sorted(golden.FOLDER.glob("*.png"))
    assert {f.stem for f in files} == set(golden.CASES), "a golden without a case, or a case without one"
    assert sum(f.stat().st_size for f in files) <= 100 * 1024


@pytest.mark.parametrize(("name", "state", "what"), golden_cases())
def test_every_picture_is_a_small_png_with_alt_text(name, state, what):
    picture = draw(state, what)
    assert len(picture.data) <= MAX_BYTES
    image = Image.open(io.BytesIO(picture.data))
    image.verify()
    assert image.format == "PNG" and image.width == 600
    assert picture.filename.endswith(".png") and picture.filename.startswith(state.split("-")[0])
    assert 40 < len(picture.alt) <= 1024


def test_the_largest_tables_stay_under_the_size_limit():
    """Eight seats in the middle of a trick, and a Malice game whose side stacks grew long."""
    seats = [str(100 + i) for i in range(8)]
    game = engine("insomnia").new_game(seats, "big", chips=30)
    rng = random.Random(1)
    while not (game.public_view().phase == "tricks" and len(game.public_view().trick) == 7):
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind == "pass"), None) or rng.choice(legal))
    picture = table_picture(info("insomnia", seats), game)
    assert len(picture.data) <= MAX_BYTES
    table_info, malice, _ = STATES["malice-fanned"]()
    assert max(len(s) for p in malice.players for s in malice.public_view().side[p]) == 13
    assert len(table_picture(table_info, malice).data) <= MAX_BYTES


# --- nothing hidden shows -----------------------------------------------------------------------------------


def fresh(draw_picture):
    """Draw without the cache, so an equal picture is drawn equal, not looked up."""
    CACHE.clear()
    return draw_picture()


def insomnia_twin(game):
    """The same game with every hidden card moved: two players' hands swapped, the stock reversed."""
    twin = game.model_copy(deep=True)
    a, b = game.players[0], game.players[1]
    twin.hands = {**game.hands, a: list(game.hands[b]), b: list(game.hands[a])}
    twin.stock = list(reversed(game.stock))
    return twin


@pytest.mark.parametrize(
    "state", ["insomnia-exchange", "insomnia-auction", "insomnia-rethrow", "insomnia-tricks"]
)
def test_the_insomnia_table_picture_is_the_same_whatever_the_hidden_cards(state):
    table_info, game, _ = STATES[state]()
    a, b = game.players[0], game.players[1]
    assert len(game.hands[a]) == len(game.hands[b]) and game.hands[a] != game.hands[b]
    twin = insomnia_twin(game)
    assert twin.public_view() == game.public_view()
    assert twin.view(a).hand != game.view(a).hand
    drawn = fresh(lambda: table_picture(table_info, game))
    assert drawn.data == fresh(lambda: table_picture(table_info, twin)).data


def malice_twin(game):
    """The same Malice game with every hidden card moved: the hands swapped with cards from the stock, the
    payoff piles below their face-up tops reversed, the stock reversed."""
    twin = game.model_copy(deep=True)
    stock = list(game.stock)
    hands = {}
    for p in game.players:
        n = len(game.hands[p])
        hands[p], stock = stock[:n], stock[n:] + list(game.hands[p])
    twin.hands = hands
    twin.stock = list(reversed(stock))
    twin.payoff = {p: list(reversed(pile[:-1])) + pile[-1:] for p, pile in game.payoff.items()}
    return twin


@pytest.mark.parametrize("state", ["malice-start", "malice-middle"])
def test_the_malice_table_picture_is_the_same_whatever_the_hidden_cards(state):
    table_info, game, _ = STATES[state]()
    twin = malice_twin(game)
    assert twin.public_view() == game.public_view()
    assert any(twin.hands[p] != game.hands[p] for p in game.players)
    drawn = fresh(lambda: table_picture(table_info, game))
    assert drawn.data == fresh(lambda: table_picture(table_info, twin)).data


@pytest.mark.parametrize("state", ["insomnia-tricks", "insomnia-exchange", "malice-middle"])
def test_a_hand_picture_does_not_depend_on_the_other_hands(state):
    table_info, game, player = STATES[state]()
    other = next(p for p in game.players if p != player)
    twin = game.model_copy(deep=True)
    if table_info.kind == "insomnia":
        # Another player's hand and the stock trade cards (his count stays, his cards change).
        trade = min(len(twin.hands[other]), len(twin.stock))
        if trade == 0:  # an empty stock (six seats): trade with a third player instead
            third = next(p for p in game.players if p not in (player, other))
            twin.hands[other], twin.hands[third] = list(game.hands[third]), list(game.hands[other])
        else:
            twin.hands[other] = list(game.stock[:trade]) + list(game.hands[other][trade:])
            twin.stock = list(game.hands[other][:trade]) + list(game.stock[trade:])
    else:
        twin = malice_twin(game)
        twin.hands[player] = list(game.hands[player])
    assert twin.hands[other] != game.hands[other]
    assert twin.view(player) == game.view(player)
    mine = fresh(lambda: hand_picture(table_info, game, player))
    assert mine.data == fresh(lambda: hand_picture(table_info, twin, player)).data
    # ...and it does show his own hand: another player's picture differs.
    assert mine.data != fresh(lambda: hand_picture(table_info, game, other)).data


def test_no_insomnia_table_picture_names_a_hidden_card_in_its_alt_text():
    """A walk through a seeded game: the alt text (read by screen readers, public) never names a card that is
    in a hand or the stock, except the stage-1 winner's shown hand, which the rules make public."""
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "alt-walk", chips=12)
    table_info = info("insomnia", INSOMNIA_SEATS)
    rng = random.Random(2)
    checked = 0
    while not game.is_over and checked < 300:
        view = game.public_view()
        shown = set(view.shown_hand.cards) if view.shown_hand else set()
        hidden = {c for hand in game.hands.values() for c in hand} | set(game.stock)
        text = table_picture(table_info, game).alt
        for card in hidden - shown:
            assert card_words(card) not in text, f"{card} is hidden but the alt text names it"
        legal = game.legal_actions()
        passes = [a for a in legal if a.kind == "pass"]  # few bids: the deals reach the tricks
        game.apply(passes[0] if passes and view.phase == "auction" else rng.choice(legal))
        checked += 1
    assert checked > 100


# --- on the messages ----------------------------------------------------------------------------------------


def test_the_table_and_hand_messages_carry_their_pictures_and_the_embed_shows_it():
    table_info, game, player = STATES["insomnia-tricks"]()
    table = table_message(table_info, game)
    assert table.picture is not None and table.picture.filename == "insomnia-table.png"
    assert table.embeds[0].image == "attachment://insomnia-table.png"
    assert table.picture.alt in list(table.texts())  # tests that scan what is public see the alt text too
    hand = render.hand_message(table_info, game, player, dm=True)
    assert hand.picture is not None and hand.picture.filename == "insomnia-hand.png"


def test_with_pictures_off_the_messages_are_text_only():
    table_info, game, player = STATES["malice-middle"]()
    table_info = table_info.model_copy(update={"pictures": False})
    table = table_message(table_info, game)
    assert table.picture is None and table.embeds[0].image is None
    assert render.hand_message(table_info, game, player, dm=False).picture is None


def test_a_lobby_has_no_picture():
    table_info, _, _ = STATES["insomnia-exchange"]()
    lobby = table_message(table_info.model_copy(update={"status": "lobby"}), None)
    assert lobby.picture is None


def test_an_unchanged_state_is_drawn_once():
    table_info, game, _ = STATES["malice-start"]()
    CACHE.clear()
    first = table_picture(table_info, game)
    again = table_picture(table_info, game)
    assert again is first and CACHE.misses == 1 and CACHE.hits == 1
    game.apply(game.legal_actions()[0])
    assert table_picture(table_info, game).data != first.data


def test_discord_sends_the_picture_as_a_file_and_an_edit_replaces_it():
    from bot.discord_out import discord_kwargs

    table_info, game, _ = STATES["insomnia-auction"]()
    message = table_message(table_info, game)
    sent = discord_kwargs(message)
    (file,) = sent["files"]
    assert file.filename == "insomnia-table.png" and file.fp.read() == message.picture.data
    assert file.description == message.picture.alt
    assert sent["embeds"][0].image.url == "attachment://insomnia-table.png"
    (edited,) = discord_kwargs(message, edit=True)["attachments"]
    assert edited.filename == "insomnia-table.png"
    # Text only (pictures off): an edit removes the old picture, a send attaches nothing.
    text_only = message.model_copy(update={"picture": None})
    assert discord_kwargs(text_only, edit=True)["attachments"] == []
    assert "files" not in discord_kwargs(text_only)


# --- in the reader's language -------------------------------------------------------------------------------

# Words each German alt text of that kind holds (and an English one does not), by the catalogue's vocabulary.
GERMAN_TABLE_WORDS = {
    "insomnia": ("Insomnia-Tisch", "Würfel"),
    "malice": ("Malice-Tisch", "Mitte", "Zahlstapel"),
}


@pytest.mark.parametrize("state", list(STATES))
def test_a_german_table_picture_differs_from_the_english_one_and_its_alt_text_is_german(state):
    table_info, game, _ = STATES[state]()
    english = table_picture(table_info, game, locale="en")
    german = table_picture(table_info, game, locale="de")
    assert german is not english and german.data != english.data  # its labels are drawn in German
    kind = state.split("-")[0]
    for word in GERMAN_TABLE_WORDS[kind]:
        if word == "Würfel" and state.endswith("over"):
            continue  # a finished game shows no dice
        assert word in german.alt and word not in english.alt, (word, german.alt)
    assert "Anna" in german.alt and not re.search(r"(Platz|Spieler) \d", german.alt)
    assert len(german.alt) <= 1024


@pytest.mark.parametrize("state", [s for s in STATES if not s.endswith("over")])
def test_a_german_hand_picture_is_worded_in_german(state):
    table_info, game, player = STATES[state]()
    english = hand_picture(table_info, game, player, locale="en")
    german = hand_picture(table_info, game, player, locale="de")
    assert german.data != english.data
    assert german.alt.startswith("Deine ") and english.alt.startswith("Your ")


def test_the_messages_draw_their_pictures_in_the_readers_language():
    """The table message in the table's language, the hand in its owner's: a German table and an English
    player's hand of the same state."""
    table_info, game, player = STATES["insomnia-tricks"]()
    table = table_message(table_info, game, locale="de")
    assert table.picture is not None and table.picture.alt.startswith("Insomnia-Tisch")
    hand = render.hand_message(table_info, game, player, dm=False, locale="en-US")
    assert hand.picture is not None and hand.picture.alt.startswith("Your Insomnia hand")


def test_a_discord_locale_shares_the_picture_of_its_language():
    """The cache key holds the resolved language: "de" and Discord's "de" locale variants draw once."""
    table_info, game, _ = STATES["malice-middle"]()
    CACHE.clear()
    first = table_picture(table_info, game, locale="de")
    assert table_picture(table_info, game, locale="de-DE") is first
    assert CACHE.misses == 1
