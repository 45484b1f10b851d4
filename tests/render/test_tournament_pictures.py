"""A tournament's pictures: the standings and a knockout's bracket read on a phone (every text at least 10 px
when Discord shows the picture 360 px wide, inside the picture, none over another), in both languages, with
display names (never ids) and an alt text that names the lines; the pairings' text pings each player once."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.discord_out import discord_message
from bot.render import tournament as words
from bot.render.pictures import tournament as draw
from bot.render.pictures.text import PHONE_WIDTH, recording
from bot.render.tournament import Board, Line, Table

NAMES = {
    str(i): n for i, n in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Gina", "Hänsel"], 1)
}
SWISS = Board(
    event=3,
    kind="malice",
    format="swiss",
    status="running",
    round=2,
    rounds=3,
    entrants=tuple(NAMES),
    lines=tuple(Line(i + 1, p, 2 - i * 0.25, 2, (3.0, 1.5, 0.0)) for i, p in enumerate(NAMES)),
    tables=(Table(1, ("1", "5"), place=900), Table(2, ("2", "6"), place=901), Table(3, ("3",))),
    names=NAMES,
    deadline=1_767_225_600,
)
KNOCKOUT = Board(
    event=4,
    kind="malice",
    format="knockout",
    status="running",
    round=2,
    rounds=3,
    entrants=("1", "2", "3", "4", "5"),
    names=NAMES,
    bracket=(
        (Table(1, ("1",)), Table(2, ("4", "5"), places=(2, 1)), Table(3, ("2",)), Table(4, ("3",))),
        (Table(1, ("1", "5")), Table(2, ("2", "3"))),
    ),
)


def readable(marks: list, canvas: Image.Image) -> list:
    texts = [m for m in marks if m.kind == "text" and m.canvas == id(canvas)]
    for m in texts:
        assert m.size * PHONE_WIDTH / canvas.width >= 10, m
        assert m.box[0] >= 0 and m.box[2] <= canvas.width and m.box[3] <= canvas.height, m
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            apart = (
                a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1]
            )
            assert apart, (a, b)
    return texts


def watch(monkeypatch, what: str) -> dict:
    """The canvas the picture module's `what` draws next, with the marks of every text it placed."""
    drawn: dict = {}
    real = getattr(draw, what)

    def keep(*args):
        with recording() as marks:
            drawn["canvas"] = canvas = real(*args)
        drawn["marks"] = marks
        return canvas

    monkeypatch.setattr(draw, what, keep)
    return drawn


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_standings_read_on_a_phone_with_names_in_the_readers_language(locale):
    picture = words.standings_picture(SWISS, locale)
    image = Image.open(io.BytesIO(picture.data))
    assert image.format == "PNG" and image.width == 600
    heading = "after round 2 of 3" if locale == "en" else "nach Runde 2 von 3"
    with recording() as marks:
        canvas = draw.standings(words.title(SWISS, locale), heading, [draw.Column("#", 36)], [["1"]])
    readable(marks, canvas)
    assert ("Standings" if locale == "en" else "Tabelle") in picture.alt and "1. Alice 2" in picture.alt


@pytest.mark.parametrize("locale", ["en", "de"])
def test_every_standings_text_is_readable_and_apart(locale, monkeypatch):
    drawn = watch(monkeypatch, "standings")
    words.standings_picture(SWISS, locale)
    texts = readable(drawn["marks"], drawn["canvas"])
    shown = {m.text for m in texts}
    assert {"Alice", "Hänsel", "Buch", "SB"} <= shown and not any(p in shown for p in ("1" * 3,))


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_bracket_draws_every_round_with_byes_and_the_rounds_to_come(locale, monkeypatch):
    drawn = watch(monkeypatch, "bracket")
    picture = words.bracket_picture(KNOCKOUT, locale)
    texts = readable(drawn["marks"], drawn["canvas"])
    shown = [m.text for m in texts]
    bye = "bye" if locale == "en" else "Freilos"
    assert shown.count(bye) == 3 and shown.count("Alice") == 2 and shown.count("…") == 2
    assert ("Round 3" if locale == "en" else "Runde 3") in shown
    assert picture.filename == "tournament-bracket.png"


def test_a_rounds_pairings_ping_each_player_once_and_say_where_they_play():
    message = discord_message(words.round_message(SWISS, "en"))
    assert sorted(message.mentions) == [1, 2, 3, 5, 6]
    text = message.content or ""
    assert "Table 1: <@1> vs <@5> → <#900>" in text and "Bye: <@3> (counts as a win)" in text
    assert "<t:1767225600:R>" in text and message.picture is not None  # round 2: the standings so far
    german = discord_message(words.round_message(SWISS, "de")).content or ""
    assert "Tisch 1: <@1> gegen <@5> → <#900>" in german and "Freilos: <@3>" in german


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_standings_say_a_round_in_play_is_in_play_and_a_finished_event_is_over(locale, monkeypatch):
    drawn = watch(monkeypatch, "standings")
    words.standings_picture(SWISS, locale)
    live = "round 2 of 3 in play" if locale == "en" else "Runde 2 von 3 läuft"
    assert live in {m.text for m in drawn["marks"]}
    done = Board(**{**SWISS.__dict__, "status": "finished", "round": 3})
    words.standings_picture(done, locale)
    over = "after round 3 of 3" if locale == "en" else "nach Runde 3 von 3"
    assert over in {m.text for m in drawn["marks"]}
