"""Names on the pictures stay apart: with the longest names Discord allows (32 characters, wide letters, names
alike until their last letters, names the bundled font draws alike or not at all, two computers), every name
drawn on a table picture, under a trick's cards, on the seats and on the result card names one seat only,
and none runs out of its room. Measured on what was drawn (`recording`), as a reader would tell them."""

from __future__ import annotations

import random

import pytest

from bot.render.insomnia.pictures import NAME_LINE, TRICK_CARD
from bot.render.pictures import result
from bot.render.pictures import sprites as sp
from bot.render.pictures.text import Mark, recording
from bot.render.ratings import result_ratings
from tests.engines import engine
from tests.render.states import STATES, info
from tests.render.test_picture_layout import drawn, on_picture, overlaps
from tests.render.test_result_card import RATED

W32 = "W" * 32  # the widest 32 letters
W31M = "W" * 31 + "M"  # alike but for the last
DRAGON = "xXx_DragonSlayer_9000_WWWWWWWxXx"
CRUZ = "José María Fernández de la Cruz"  # alike but for the last word
ROSA = "José María Fernández de la Rosa"
CJK = "王小明李华张伟" * 4 + "王小明李"  # 32 letters the shipped font has none of: named by the seat's number
LONG_WORDS = "Bartholomew the Magnificent III"

# Seatings: the people's display names in seat order around two computers (seats 3 and 4), and what a
# reader should read for each seat, whole ("No. 2": the font draws none of the name; "Anna (5)": two
# names the font draws alike, told apart by the seat).
SEATINGS = {
    "eight": (
        [W32, W31M, CRUZ, ROSA, "Anna 🎲", "Anna 🌟"],
        [W32, W31M, "Computer 1", "Computer 2", CRUZ, ROSA, "Anna (7)", "Anna (8)"],
    ),
    "six": (
        [DRAGON, CJK, "Zoë 🎲🎲🎲", LONG_WORDS],
        [DRAGON, "No. 2", "Computer 1", "Computer 2", "Zoë", LONG_WORDS],
    ),
    "four": ([W32, W31M], [W32, W31M, "Computer 1", "Computer 2"]),
}


def seating(name: str):
    """A table of the seating in the middle of a trick, every seat but the last having played."""
    people, _ = SEATINGS[name]
    ids = [str(101 + i) for i in range(len(people))]
    players = [*ids[:2], "ai:1", "ai:2", *ids[2:]]
    game = engine("insomnia").new_game(players, "names", chips=30)
    rng = random.Random(1)
    while not (game.public_view().phase == "tricks" and len(game.public_view().trick) == len(players) - 1):
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind == "pass"), None) or rng.choice(legal))
    return info("insomnia", players, names=dict(zip(ids, people, strict=True))), game


def expected(name: str, players: list[str], locale: str) -> dict[str, str]:
    whole = SEATINGS[name][1]
    if locale == "de":
        whole = [w.replace("No.", "Nr.") for w in whole]
    return dict(zip(players, whole, strict=True))


def reads_as(label: str, whole: str) -> bool:
    """Whether a drawn label (its lines joined) can be read as the name `whole`: the same letters, or the
    name's start and end around one ellipsis (where the lines break does not matter)."""
    label, whole = "".join(label.split()), "".join(whole.split())
    if "…" not in label:
        return label == whole
    head, _, tail = label.partition("…")
    return whole.startswith(head) and whole.endswith(tail) and len(head) + len(tail) < len(whole)


def seats_read(label: str, names: dict[str, str]) -> list[str]:
    return [p for p, whole in names.items() if reads_as(label, whole)]


def trick_labels(texts: list[Mark], sprites: list[Mark]) -> list[str]:
    """The names under the trick's cards, card by card in the order played (rows left to right, top down):
    the small texts just below a card, nearest to it."""
    size = (TRICK_CARD, sp.card_height(TRICK_CARD))
    cards = sorted(
        (m for m in sprites if (m.box[2] - m.box[0], m.box[3] - m.box[1]) == size),
        key=lambda m: (m.box[1], m.box[0]),
    )
    lines: dict[int, list[Mark]] = {i: [] for i in range(len(cards))}
    for text in texts:
        below = [
            i
            for i, c in enumerate(cards)
            if text.size == sp.SMALL and c.box[3] <= text.box[1] < c.box[3] + 2 * NAME_LINE + 4
        ]
        if below:
            centre = (text.box[0] + text.box[2]) / 2
            nearest = min(below, key=lambda i: abs((cards[i].box[0] + cards[i].box[2]) / 2 - centre))
            lines[nearest].append(text)
    return [" ".join(m.text for m in sorted(lines[i], key=lambda m: m.box[1])) for i in range(len(cards))]


def assert_within_and_apart(texts: list[Mark], width: int, height: int) -> None:
    for i, mark in enumerate(texts):
        assert mark.box[0] >= 0 and mark.box[1] >= 0 and mark.box[2] <= width and mark.box[3] <= height, mark
        for other in texts[i + 1 :]:
            assert not overlaps(mark.box, other.box), (mark.text, other.text)


@pytest.mark.parametrize("locale", ["en", "de"])
@pytest.mark.parametrize("name", list(SEATINGS))
def test_the_names_under_a_trick_and_on_the_seats_each_name_one_seat(name, locale):
    table_info, game = seating(name)
    names = expected(name, table_info.players, locale)
    canvas, alt, marks = drawn(table_info, game, None, locale)
    mine = on_picture(canvas, marks)
    texts = [m for m in mine if m.kind == "text"]
    assert_within_and_apart(texts, canvas.width, canvas.height)

    plays = game.public_view().trick
    under = trick_labels(texts, [m for m in mine if m.kind == "sprite"])
    assert len(under) == len(plays)
    for play, label in zip(plays, under, strict=True):
        assert seats_read(label, names) == [play.player], (label, names[play.player])
    assert len(set(under)) == len(under)
    computers = [label for play, label in zip(plays, under, strict=True) if play.player.startswith("ai:")]
    assert computers and set(computers) <= {"Computer 1", "Computer 2"}  # whole, on one line or two

    for text in texts:  # the seats, the status line: nothing drawn reads as two seats
        assert len(seats_read(text.text, names)) <= 1, text.text
    for player, whole in names.items():  # every seat is named where it sits
        assert any(seats_read(t.text, names) == [player] for t in texts if t.size == 20), whole
    for person, display in zip(table_info.names, SEATINGS[name][0], strict=True):
        assert display in alt  # the alt text keeps every name as it is
        assert person not in " ".join(t.text for t in texts)


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_result_card_shows_long_names_whole_on_two_lines_and_keeps_alike_ones_apart(locale):
    table_info, game, _ = STATES["insomnia-over"]()
    players = table_info.players  # three people and a computer
    display = {players[0]: W32, players[1]: W31M, players[3]: LONG_WORDS}
    table_info = table_info.model_copy(update={"names": display})
    names = {**display, players[2]: "Computer 1"}
    for rated in (result_ratings(RATED), result_ratings([]), None):  # rated: the name's room is narrowest
        with recording() as marks:
            canvas, alt = result.draw(table_info, "Insomnia", game.standings(), display, rated, locale=locale)
        texts = [m for m in marks if m.kind == "text" and m.canvas == id(canvas)]
        assert_within_and_apart(texts, canvas.width, canvas.height)
        named = (m for m in texts if m.size in (result.NAME, result.SMALL_NAME))
        lines = sorted(named, key=lambda m: m.box[1])
        rows: list[list[Mark]] = []
        for line in lines:  # a row's second line lies one line below its first
            if rows and line.box[1] - rows[-1][-1].box[1] <= result.NAME_LINE + 8:
                rows[-1].append(line)
            else:
                rows.append([line])
        labels = [" ".join(m.text for m in row) for row in rows]
        assert sorted(p for label in labels for p in seats_read(label, names)) == sorted(names)
        assert LONG_WORDS in labels  # the name the card once cut at 16 letters, whole
        assert all(len(row) <= 2 for row in rows)
        assert all(whole in alt for whole in display.values())


@pytest.mark.parametrize("locale", ["en", "de"])
def test_stage_four_shows_no_trumps_as_the_tricks_are_over(locale):
    trumps = {"en": "Trumps", "de": "Trumpf"}[locale]
    for state, shown in (("insomnia-tricks", True), ("insomnia-stage4", False)):
        table_info, game, player = STATES[state]()
        for whose in (None, player):
            canvas, alt, marks = drawn(table_info, game, whose, locale)
            words = [m.text for m in on_picture(canvas, marks) if m.kind == "text"]
            assert (trumps in words) is shown, (state, whose, words)
            assert (trumps in alt) is shown, (state, whose, alt)
