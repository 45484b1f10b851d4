"""What a player sees in the pictures, checked on what was drawn (`text.recording` notes every text and sprite
put on a picture): the players named by name, never "Seat N"; the dice labelled and shaped as dice; each
colour meaning one thing; no label covered or cut off at the edge; every text readable on a phone."""

from __future__ import annotations

import random
import re

import pytest
from PIL import Image

from bot.render.drawings import CACHE, table_picture
from bot.render.insomnia.hand_picture import HAND_DIE
from bot.render.insomnia.pictures import DIE
from bot.render.pictures import sprites as sp
from bot.render.pictures import text as text_module
from bot.render.pictures.canvas import WIDTH
from bot.render.pictures.text import PHONE_WIDTH, Mark, recording
from bot.render.registry import PRESENTATIONS
from tests.engines import engine
from tests.render.states import NAMES, STATES, info

LANGUAGES = ["en", "de"]


def eight_seats():
    """Eight seats with long names in the middle of a trick: the most a table holds."""
    seats = [str(100 + i) for i in range(8)]
    game = engine("insomnia").new_game(seats, "big", chips=30)
    rng = random.Random(1)
    while not (game.public_view().phase == "tricks" and len(game.public_view().trick) == 7):
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind == "pass"), None) or rng.choice(legal))
    names = {p: f"Spielerin Nummer {i + 1} mit langem Namen" for i, p in enumerate(seats)}
    return info("insomnia", seats, names=names), game, game.current_player


CASES = {**STATES, "insomnia-eight-seats": eight_seats}


def drawn(table_info, game, player: str | None, locale: str) -> tuple[Image.Image, str, list[Mark]]:
    """The canvas, alt text and marks of the table picture (`player` None) or of `player`'s hand."""
    drawer = PRESENTATIONS[table_info.kind].pictures
    with recording() as marks:
        if player is None:
            canvas, alt = drawer.table(table_info, game.public_view(), table_info.names, locale=locale)
        else:
            view = game.view(player)
            mine = view.current_player == player and not view.is_over
            legal = list(game.legal_actions()) if mine else []
            canvas, alt = drawer.hand(table_info, view, legal, table_info.names, locale=locale)
    return canvas, alt, marks


def every_picture() -> list:
    return [
        pytest.param(state, make, what, locale, id=f"{state}-{what}-{locale}")
        for state, make in CASES.items()
        for locale in LANGUAGES
        for what in ("table", "hand")
    ]


def on_picture(canvas: Image.Image, marks: list[Mark]) -> list[Mark]:
    return [m for m in marks if m.canvas == id(canvas)]


def texts(canvas: Image.Image, marks: list[Mark]) -> list[str]:
    return [m.text for m in on_picture(canvas, marks) if m.kind == "text"]


# --- names --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("state", "make", "what", "locale"), every_picture())
def test_every_picture_names_the_players_and_never_a_seat_number_or_an_id(state, make, what, locale):
    table_info, game, player = make()
    canvas, alt, marks = drawn(table_info, game, player if what == "hand" else None, locale)
    words = " ".join([alt, *texts(canvas, marks)])
    assert not re.search(r"\b(Seat|Platz|Player|Spieler) \d", words), words
    for p in table_info.players:
        assert p not in re.findall(r"\w+:?\d*", words)  # no id: "101", "ai:1"
        if what == "table":  # the table names everyone: people by display name, computers by number
            expected = table_info.names[p] if p in table_info.names else f"Computer {p.split(':')[1]}"
            assert expected in alt, (expected, alt)


def test_a_long_name_is_shortened_with_an_ellipsis_where_it_is_drawn_and_kept_whole_in_the_alt_text():
    table_info, game, _ = STATES["insomnia-tricks"]()
    long = NAMES["303"]
    canvas, alt, marks = drawn(table_info, game, None, "en")
    drawn_names = [s for s in texts(canvas, marks) if s.startswith(long[:6])]
    assert len(drawn_names) >= 3  # under his trick card (its first line), as the best hand, on his seat
    cut = [s for s in drawn_names if s.endswith("…")]
    assert len(cut) >= 2 and all(long.startswith(s[:-1].rstrip()) for s in cut), drawn_names
    assert all(long.startswith(s) for s in drawn_names if s not in cut), drawn_names
    assert long in alt


def test_a_game_over_headline_shortens_the_name_not_the_sentence():
    table_info, game, _ = STATES["insomnia-over"]()
    winner = max(game.players, key=lambda p: game.public_view().chips[p])
    table_info = table_info.model_copy(update={"names": {**table_info.names, winner: "X" * 60}})
    canvas, _, marks = drawn(table_info, game, None, "en")
    headline = next(s for s in texts(canvas, marks) if s.startswith("XXX"))
    assert re.fullmatch(r"X+… wins with \d+ chips?", headline), headline


@pytest.mark.parametrize(("locale", "player"), [("en", "Player"), ("de", "Spieler")])
def test_a_person_whose_name_is_not_known_is_named_by_his_seat_never_by_his_id(locale, player):
    table_info, game, _ = STATES["insomnia-exchange"]()
    table_info = table_info.model_copy(update={"names": {}})
    canvas, alt, marks = drawn(table_info, game, None, locale)
    for words in (alt, " ".join(texts(canvas, marks))):
        assert f"{player} 1" in words and f"{player} 2" in words and f"{player} 4" in words
        assert "Computer 1" in words and "101" not in words


def test_a_name_is_drawn_as_typed_less_what_the_font_lacks_and_kept_whole_in_the_alt_text():
    table_info, game, _ = STATES["insomnia-exchange"]()
    names = {"101": "José 🔥", "202": "🔥🔥", "303": "Łukasz"}
    table_info = table_info.model_copy(update={"names": names})
    canvas, alt, marks = drawn(table_info, game, None, "en")
    labels = texts(canvas, marks)
    assert "José" in labels and "Łukasz" in labels and "No. 2" in labels  # nothing drawable: his seat
    assert "Player 2" not in labels  # he has a name: the picture cannot draw it, it does not forget it
    assert all(name in alt for name in names.values())
    assert all(text_module.has_glyph(c) for s in labels for c in s)  # nothing drawn as the font's empty box


def test_the_cache_tells_pictures_with_other_names_apart():
    table_info, game, _ = STATES["malice-start"]()
    CACHE.clear()
    first = table_picture(table_info, game)
    renamed = table_info.model_copy(update={"names": {**table_info.names, "101": "Berta"}})
    second = table_picture(renamed, game)
    assert first is not None and second is not None
    assert "Anna" in first.alt and "Berta" in second.alt and first.data != second.data


# --- dice ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["insomnia-tricks", "insomnia-rethrow"])
@pytest.mark.parametrize(("locale", "word"), [("en", "Dice"), ("de", "Würfel")])
def test_the_dice_are_labelled_and_drawn_as_square_shaded_dice_unlike_the_cards(state, locale, word):
    table_info, game, player = STATES[state]()
    for who in (None, player):
        canvas, _, marks = drawn(table_info, game, who, locale)
        mine = on_picture(canvas, marks)
        label = next(m for m in mine if m.kind == "text" and m.text == word)
        size = DIE if who is None else HAND_DIE
        dice = [m for m in mine if m.kind == "sprite" and m.box[2] - m.box[0] == m.box[3] - m.box[1] == size]
        assert len(dice) == 4
        assert all(label.box[3] <= d.box[1] and label.box[0] <= d.box[0] for d in dice)  # the label above
    face = sp.die(game.public_view().dice[0], 54)
    assert face.width == face.height and sp.card_height(54) > 1.3 * 54  # square, not a card's oblong
    inside = face.convert("RGB").getpixel((10, 10))
    assert inside == sp.IVORY and inside != sp.PAPER  # and not a card's white


# --- colours ------------------------------------------------------------------------------------------------


def has_colour(canvas: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(rgb == colour for _, rgb in canvas.getcolors(maxcolors=1 << 20) or [])


@pytest.mark.parametrize("state", list(STATES))
def test_each_colour_means_one_thing(state):
    """The turn colour only on the table (whose turn it is), the legal colour only in a hand whose owner may
    move now: a finished table has no turn colour, a waiting hand no legal colour."""
    table_info, game, _ = STATES[state]()
    table, _, _ = drawn(table_info, game, None, "en")
    assert not has_colour(table, sp.LEGAL)
    assert has_colour(table, sp.TURN) == (not game.is_over)
    for who in game.players:
        hand, _, _ = drawn(table_info, game, who, "en")
        mine = who == game.current_player and not game.is_over and bool(game.legal_actions())
        assert not has_colour(hand, sp.TURN)
        assert has_colour(hand, sp.LEGAL) == mine, who


@pytest.mark.parametrize(
    ("locale", "legend"), [("en", "the card played last"), ("de", "die zuletzt gelegte Karte")]
)
def test_the_card_played_last_is_ringed_and_the_ring_explained(locale, legend):
    table_info, game, _ = STATES["malice-middle"]()
    assert game.public_view().last_play is not None
    canvas, _, marks = drawn(table_info, game, None, locale)
    assert legend in texts(canvas, marks)
    start_info, start, _ = STATES["malice-start"]()
    canvas, _, marks = drawn(start_info, start, None, locale)
    assert legend not in texts(canvas, marks)  # nothing played yet: no ring, no legend


# --- layout -------------------------------------------------------------------------------------------------


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(("state", "make", "what", "locale"), every_picture())
def test_no_label_is_covered_or_cut_off(state, make, what, locale):
    """No text is drawn over by a later sprite or text, and every text lies inside the picture."""
    table_info, game, player = make()
    canvas, _, marks = drawn(table_info, game, player if what == "hand" else None, locale)
    mine = on_picture(canvas, marks)
    for i, mark in enumerate(mine):
        if mark.kind != "text":
            continue
        left, top, right, bottom = mark.box
        assert left >= 0 and top >= 0 and right <= canvas.width and bottom <= canvas.height, mark
        for later in mine[i + 1 :]:
            assert not overlaps(mark.box, later.box), f"{mark.text!r} is covered by {later}"
        for other in mine[:i]:
            if other.kind == "text":
                assert not overlaps(mark.box, other.box), f"{mark.text!r} overlaps {other.text!r}"


def clear_sprites() -> None:
    for module in (sp, text_module):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.mark.parametrize(("state", "make", "what", "locale"), every_picture())
def test_every_text_is_readable_on_a_phone(state, make, what, locale):
    """Shown 360 px wide, every text (labels, card corners, dice, badges) is at least 10 px high."""
    clear_sprites()  # so the sprites' own texts are drawn, and noted, again
    table_info, game, player = make()
    canvas, _, marks = drawn(table_info, game, player if what == "hand" else None, locale)
    assert canvas.width == WIDTH
    sizes = {m.text: m.size for m in marks if m.kind == "text"}
    small = {text: size for text, size in sizes.items() if size * PHONE_WIDTH / WIDTH < 10}
    assert not small, f"too small on a phone: {small}"
