"""Every picture names everyone as he typed his name (issue 39): drawn with the names of a real international
server (`tests.render.names`: accents, "ẞtraßenbahn", Greek, Cyrillic, Chinese, an emoji, two of Discord's
longest names alike up to their last word), the table of both games, a hand, the result card, the /stats
chart, the standings and the bracket each draw every name whole or cut so that it names him alone (the letters
the font lacks left out, as documented), never two people alike, never "Player N" for a named person; in both
languages. Read from the drawing's own record of what it drew (`recording`), as a reader would read it."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bot import render
from bot.render import tournament as words
from bot.render.charts import stats_chart
from bot.render.drawings import CACHE, hand_picture, table_picture
from bot.render.pictures.text import Mark, recording
from bot.render.tournament import Board, Table
from tests.render.names import (
    CHIPS,
    DRAWN,
    NAMES,
    PEOPLE,
    WEINSTEIGER,
    WOLKENSTEIN,
    board,
    finished,
    insomnia_tricks,
    malice_middle,
)
from tests.render.states import info
from tests.render.test_picture_names import reads_as

LANGUAGES = ["en", "de"]
UNNAMED = {"en": "Player ", "de": "Spieler "}


def candidates(marks: list[Mark]) -> list[str]:
    """What a reader reads as one label: each text, and each text joined with the one right under it (a name
    drawn on two lines)."""
    texts = [m for m in marks if m.kind == "text"]
    out = [m.text for m in texts]
    for a in texts:
        for b in texts:
            below = 0 <= b.box[1] - a.box[3] <= a.size // 2 + 6 and b.size == a.size
            if below and a.box[0] < b.box[2] and b.box[0] < a.box[2]:
                out.append(f"{a.text} {b.text}")
    return out


def readers_of(label: str, drawn: Mapping[str, str]) -> list[str]:
    return [p for p, whole in drawn.items() if reads_as(label, whole)]


def check(marks: list[Mark], drawn: Mapping[str, str], expected: list[str], locale: str) -> None:
    """Every expected person named alone by some label, no label naming two, no named person "Player N"."""
    labels = candidates(marks)
    for player in expected:
        assert any(readers_of(label, drawn) == [player] for label in labels), (drawn[player], labels)
    for label in labels:
        if label.strip() == "…":  # a match's seat still to be decided names nobody
            continue
        # A name's first line may start two names alike ("Maximilian-A…"): with its second it names one.
        continued = [c for c in labels if c.startswith(label + " ")]
        alone = len(readers_of(label, drawn)) <= 1
        assert alone or any(len(readers_of(c, drawn)) == 1 for c in continued), label
    assert not any(UNNAMED[locale] in m.text for m in marks if m.kind == "text")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_insomnia_table_and_a_hand_name_all_eight(locale):
    game = insomnia_tricks()
    table = info("insomnia", PEOPLE, names=NAMES)
    CACHE.clear()
    with recording() as marks:
        assert table_picture(table, game, locale=locale) is not None
    check(marks, DRAWN, PEOPLE, locale)
    for player in PEOPLE:
        with recording() as marks:
            assert hand_picture(table, game, player, locale=locale) is not None
        others = {p: n for p, n in DRAWN.items() if p != player}  # his own seat is "you"
        check(marks, others, [], locale)


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("pair", [(0, 1), (2, 5), (3, 4), (6, 7)])
def test_the_malice_table_and_hands_name_both_players(pair, locale):
    players = [PEOPLE[i] for i in pair]
    game = malice_middle(players)
    names = {p: NAMES[p] for p in players}
    drawn = {p: DRAWN[p] for p in players}
    table = info("malice", players, names=names)
    CACHE.clear()
    with recording() as marks:
        assert table_picture(table, game, locale=locale) is not None
    check(marks, drawn, players, locale)
    for player in players:
        with recording() as marks:
            assert hand_picture(table, game, player, locale=locale) is not None
        check(marks, {p: n for p, n in drawn.items() if p != player}, [], locale)


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [
        ("insomnia", PEOPLE, {"chips": 15, "max_deals": 1}),
        ("malice", PEOPLE[:2], {}),
    ],
)
def test_the_result_card_names_everyone(kind, players, options, locale):
    game = finished(kind, players, **options)
    named = info(kind, players, names={p: NAMES[p] for p in players})
    table = named.model_copy(update={"status": "finished"})
    CACHE.clear()
    with recording() as marks:
        picture = render.table_picture(table, game, locale=locale)
    assert picture is not None and picture.filename == f"{kind}-result.png"
    check(marks, {p: DRAWN[p] for p in players}, players, locale)
    assert all(NAMES[p] in picture.alt for p in players)  # the alt text: every name as typed


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("player", PEOPLE)
def test_the_stats_chart_is_headed_by_whose_it_is(player, locale):
    CACHE.clear()
    with recording() as marks:
        picture = stats_chart(CHIPS, [], season="2026-12", locale=locale, name=NAMES[player])
    assert picture is not None and picture.alt.startswith(NAMES[player])
    check(marks, DRAWN, [player], locale)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_standings_name_every_entrant(locale):
    with recording() as marks:
        words.standings_picture(board("swiss"), locale)
    check(marks, DRAWN, PEOPLE, locale)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_bracket_tells_the_story_with_every_name(locale):
    with recording() as marks:
        picture = words.bracket_picture(board("knockout"), locale)
    check(marks, DRAWN, PEOPLE, locale)
    texts = [m.text for m in marks if m.kind == "text"]
    no_show = {"en": "no-show", "de": "nicht angetreten"}[locale]
    assert texts.count(no_show) == 1  # round one's forfeit, said as such
    champion = {"en": "Champion: ", "de": "Sieger: "}[locale]
    (crowned,) = [t for t in texts if t.startswith(champion)]
    assert readers_of(crowned[len(champion) :], DRAWN) == [PEOPLE[0]]
    assert WOLKENSTEIN in picture.alt
    # Each settled match marks its winner with a star at the end of his line: 4 + 2 + 1 matches.
    stars = [m for m in marks if m.kind == "sprite" and m.box[2] - m.box[0] <= 16]
    assert len(stars) == 7
    # The final's two names, alike for 21 letters, each read as one of them only.
    final = [t for t in texts if readers_of(t, DRAWN) in ([PEOPLE[0]], [PEOPLE[1]])]
    assert {readers_of(t, DRAWN)[0] for t in final} == {PEOPLE[0], PEOPLE[1]}
    assert NAMES[PEOPLE[1]] == WEINSTEIGER


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_bye_is_said_as_such_and_the_bracket_crowns_nobody_while_it_plays(locale):
    p = PEOPLE
    running = Board(
        event=9,
        kind="malice",
        format="knockout",
        status="running",
        round=2,
        rounds=3,
        entrants=tuple(p[:6]),
        bracket=(
            (
                Table(1, (p[0],)),
                Table(2, (p[2], p[5]), places=(1, 2)),
                Table(3, (p[1],)),
                Table(4, (p[3], p[4]), places=(2, 1)),
            ),
            (Table(1, (p[0], p[2])), Table(2, (p[1], p[4]))),
        ),
        names=NAMES,
    )
    with recording() as marks:
        words.bracket_picture(running, locale)
    check(marks, {q: DRAWN[q] for q in p[:6]}, p[:6], locale)
    texts = [m.text for m in marks if m.kind == "text"]
    assert texts.count({"en": "bye", "de": "Freilos"}[locale]) == 2
    assert not any(t.startswith(("Champion", "Sieger")) for t in texts)
