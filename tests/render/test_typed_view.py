"""The typed view of a table (bot/render/view.py, issue 40): people, moments, cards, places and controls as
typed parts; the public view and a seat's view distinct; no surface but Discord's sees Discord's markup, and
Discord's table message says what it said before."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_out import discord_message, discord_words
from bot.render.compose import compose, table_message, typed_view
from bot.render.view import Moment, Person, PublicView, SeatView, plain, text
from bot.web import html
from tests.engines import engine
from tests.render.states import MALICE_SEATS, info, insomnia_auction

ROOT = Path(__file__).parents[2]
DISCORD_MARKUP = ("<t:", "<@", "<#", "custom_id", "CUSTOM_ID_PREFIX", "cardtable:")


def malice():
    return info("malice", MALICE_SEATS), engine("malice").new_game(MALICE_SEATS, "typed-1")


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_public_view_types_the_mover_and_his_clock_and_has_no_hand(locale):
    table, game = malice()
    view = typed_view(table, game, deadline=1_900_000_000, locale=locale)
    assert isinstance(view, PublicView) and not hasattr(view, "hand")
    mover = game.current_player
    assert view.turn == Person(id=mover, name=table.names[mover])
    assert view.deadline == Moment(at=1_900_000_000)
    said = [s for line in view.said for s in line.spans]
    assert Moment(at=1_900_000_000) in said, "the clock is a moment in the turn line, not Discord's markup"
    assert any(isinstance(s, Person) and s.id == mover and s.name == table.names[mover] for s in said)
    dumped = view.model_dump_json()
    assert not any(mark in dumped for mark in ("<t:", "<@", "\x0e")), dumped[:300]


@pytest.mark.parametrize("locale", ["en", "de"])
def test_a_seat_view_holds_his_own_hand_and_moves_with_their_cards_and_places(locale):
    table, game = malice()
    mover = game.current_player
    view = typed_view(table, game, deadline=1_900_000_000, reader=mover, locale=locale)
    assert isinstance(view, SeatView) and view.reader.id == mover
    assert [c.code for c in view.hand] == [str(c) for c in game.view(mover).hand]
    moves = [m.action for m in view.moves if m.action is not None]
    assert len(moves) == len(game.legal_actions()) and moves
    played = [a for a in moves if a.card is not None and a.to is not None]
    assert played and all(a.to.shown and a.card.shown for a in played)
    other = next(p for p in game.players if p != mover)
    assert not typed_view(table, game, reader=other, locale=locale).moves  # type: ignore[union-attr]


def test_an_auction_bid_is_a_typed_amount():
    table, game, mover = insomnia_auction()
    view = typed_view(table, game, reader=mover, locale="en")
    assert isinstance(view, SeatView)
    bids = [m.action.amount for m in view.moves if m.action is not None and m.action.amount is not None]
    assert bids == sorted(bids) and bids[0] >= 1


@pytest.mark.parametrize("locale", ["en", "de"])
def test_discords_table_message_still_says_mentions_and_timestamps(locale):
    """The Discord message draws the same composition in Discord's words: what players see is unchanged."""
    table, game = malice()
    message = discord_message(table_message(compose(table, game, deadline=1_900_000_000, locale=locale)))
    words = "\n".join(message.texts())
    assert "<t:1900000000:R>" in words and f"<@{game.current_player}>" in words
    assert "\x0e" not in words and "\x0f" not in words


def test_the_log_is_worded_once_for_every_surface_and_discord_draws_its_people():
    """The render floor writes a person only as a reference: the same lines serve the page and Discord, and
    Discord's renderer draws each reference as the person's mention."""
    from bot.render import tablelog
    from bot.sessions.records import MoveFacts

    table, game = malice()
    mover = game.current_player
    action = next(a for a in game.legal_actions() if a.kind == "play")
    events = tuple(game.apply(action))
    step = MoveFacts(count=1, actor=mover, events=events, game=game)
    worded = [line.text for line in tablelog.log_of(table, [step], [], locale="en")]
    assert any("\x0e" in line for line in worded) and not any("<@" in line for line in worded)
    discord = [discord_words(line) for line in worded]
    assert any(f"<@{mover}>" in line for line in discord) and not any("\x0e" in line for line in discord)


def test_emphasis_people_and_moments_become_typed_spans():
    from bot.render.common import moment, name

    words = f"**{name('7')}** plays · `x*y` until {moment(5)}\n-# small"
    lines = text(words, lambda p: f"N{p}")
    assert lines[0].spans[0] == Person(id="7", name="N7", marks=("strong",))
    assert lines[0].spans[-1] == Moment(at=5)
    assert lines[1].style == "small"
    assert plain(lines) == "N7 plays · x*y until 5\nsmall"
    page = html.lines_html(lines)
    assert '<strong><span class="who">N7</span></strong>' in page and "<code>x*y</code>" in page


def test_a_name_with_markup_reaches_the_page_escaped():
    table, game = malice()
    table.names[MALICE_SEATS[0]] = "<b>**Eve**</b>"
    view = typed_view(table, game, deadline=1_900_000_000, locale="en")
    assert isinstance(view, PublicView)
    page = html.view_html(view)
    assert "&lt;b&gt;**Eve**&lt;/b&gt;" in page and "<b>" not in page


@pytest.mark.parametrize("floor", ["bot/web", "bot/events"])
def test_no_discord_markup_in_the_web_and_events_floors(floor):
    """Discord's markup (`<t:...>`, `<@id>`, `<#id>`) and custom ids are made on the Discord side alone."""
    assert not _marked(floor, DISCORD_MARKUP)


@pytest.mark.parametrize("floor", ["bot/render", "bot/sessions"])
def test_the_render_floor_and_the_sessions_write_no_discord_markup(floor):
    """A person, a moment, a channel and a role are written as references only (`bot.render.common`), a
    control's action as data: Discord's renderer (`bot.discord_out`) alone draws them as `<@id>`,
    `<t:...>`, `<#id>`, `<@&id>` and encodes custom ids."""
    assert not _marked(floor, ("<t:", "<@", "<#", "custom_id", "cardtable:", "cardreplay:"))


def _marked(floor: str, marks: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}: {mark}"
        for path in sorted([*(ROOT / floor).rglob("*.py"), *(ROOT / floor).glob("static/*.js")])
        for mark in marks
        if mark in path.read_text(encoding="utf-8")
    ]


def test_the_web_reads_no_surface_with_a_regular_expression():
    """The page draws typed spans: bot/web/html.py has no regular expression at all."""
    source = (ROOT / "bot/web/html.py").read_text(encoding="utf-8")
    assert "import re" not in source and "re.compile" not in source


def test_the_leaderboard_names_people_as_people_on_the_web():
    """`/leaderboard`'s lines name a person by reference: a mention on Discord, a Person on the page."""
    from types import SimpleNamespace

    from bot.render.leaderboard import leaderboard_line

    row = SimpleNamespace(rank=1, player="100000000000000001", net=5, games=2, wins=1)
    said = leaderboard_line(row, "en")
    assert "<@100000000000000001>" in discord_words(said)  # Discord's /leaderboard, as before
    page = html.markdown(said, lambda p: "Alice")
    assert '<span class="who">Alice</span>' in page and "&lt;@" not in page


def test_the_composition_places_the_tables_pages_and_the_activitys_launch():
    """Play here and Watch while the table plays, Replay once it is over: placed by the composition from the
    pages' facts (the web signs the URLs and words nothing)."""
    from bot.render.common import PageLinks

    table, game = malice()
    table.pages = PageLinks(watch="https://cards.example/table/1/x/sig", launch=True)
    message = table_message(compose(table, game, locale="en"))
    labels = [b.label for row in message.rows for b in row]
    assert labels[-2:] == ["Play here", "Watch"], labels
    assert message.rows[-1][-1].url == "https://cards.example/table/1/x/sig"
    view = typed_view(table, game, locale="en")
    assert isinstance(view, PublicView)
    assert [c.kind for c in view.controls][-2:] == ["launch", "link"]
    table.pages = None
    assert "Watch" not in [b.label for row in table_message(compose(table, game)).rows for b in row]
