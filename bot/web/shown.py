"""What each page shows, as Discord-free message data (`bot.render.common.Message`), made by the same code
that makes what Discord shows: never a second wording.

`table_view` is THE one adapter from a stored table to the live page: the one composition of a table's view
(`bot.render.compose.compose`, through `bot.sessions.view.view_of`), which the Discord table message draws
from too, for the public reader only. The replay is the Replay button's viewer
(`bot.sessions.replay.Replays.step`), each step headed by its action as `/history` words it; the leaderboard
is `/leaderboard`'s wording (`bot.render.leaderboard`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import render
from bot.render.common import Embed, Message, Picture
from bot.render.leaderboard import (
    ALL_TIME,
    CHIPS,
    RATING,
)
from bot.render.registry import PRESENTATIONS
from bot.render.view import PublicView
from bot.sessions.boards import board
from bot.sessions.view import banner_of, table_info, typed_of
from bot.web.feed import Watched
from storage.contract import Store
from storage.models import HistoryEntry

BOARD_ROWS = 25  # players per section of the leaderboard page


def table_view(watched: Watched, *, locale: str) -> PublicView:
    """The live page of a table for a spectator: the one composition's typed public view
    (`bot.render.view.PublicView`, through the sessions' adapter from a stored record): no hand, no move."""
    record = watched.record
    banner = banner_of(record, record.session.next_note)
    view = typed_of(
        record,
        steps=watched.steps,
        banner=[banner] if banner is not None else [],
        deadline=watched.deadline,
        locale=locale,
        reader=None,
    )
    assert isinstance(view, PublicView)  # no reader: the public view
    return view


def table_picture(watched: Watched, *, locale: str) -> Picture | None:
    """The table message's picture of the same state (the public board; a finished game's result card)."""
    record = watched.record
    return render.table_picture(table_info(record), record.game, locale=locale)


@dataclass(frozen=True)
class Step:
    """One step of a replay: the Replay viewer's message and the step's action as /history words it."""

    message: Message
    action: str | None  # None: the start
    last: int


def replay_step(viewer: Message, kind: str, entry: HistoryEntry | None, last: int, *, locale: str) -> Step:
    viewer = viewer.model_copy(
        update={"rows": []}
    )  # its steering buttons are Discord's; the page has its own
    # `/history` numbers a move from 1 (step 17 is seq 16), so the line's badge, the counter above it
    # ("move 17 of 35") and `/history` say the same number.
    action = None if entry is None else render.history_line(kind, "finished", entry, locale=locale)
    return Step(viewer, action, last)


def board_sections(kinds: list[str], season: str, seasons_on: bool) -> list[tuple[str | None, str, str]]:
    """The leaderboard page's sections (game, ranking, season): by chips over all games, then each game's
    ratings; the season's and all-time (all-time only when the server has seasons off)."""
    seasons = [season, ALL_TIME] if seasons_on and season != ALL_TIME else [ALL_TIME]
    sections: list[tuple[str | None, str, str]] = [(None, CHIPS, s) for s in seasons]
    sections += [(kind, RATING, s) for kind in kinds for s in seasons]
    return sections


async def board_view(store: Store, guild_id: int, season: str, seasons_on: bool, *, locale: str) -> Message:
    """A server's leaderboard as `/leaderboard` words it, every section of it on one page (people as the
    words' references, which the page draws by name)."""
    embeds = []
    for kind, by, when in board_sections(list(PRESENTATIONS.names()), season, seasons_on):
        section = await board(store, guild_id, kind, by, when, page=0, size=BOARD_ROWS, locale=locale)
        embeds.append(Embed(title=section.title, description=section.text, footer=section.figures))
    return Message(embeds=embeds)
