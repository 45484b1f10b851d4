"""A server's leaderboard from the store, one section at a time: the one query and wording that
`/leaderboard` (cogs/ledger.py) and the board's web page (bot/web/shown.py) both draw."""

from __future__ import annotations

from bot.render.leaderboard import RATING, BoardSection, board_section, leaderboard_line, rating_board_line
from storage import ALL_TIME
from storage.contract import Store


async def board(
    store: Store,
    guild_id: int,
    kind: str | None,
    by: str,
    season: str,
    *,
    page: int,
    size: int,
    locale: object,
) -> BoardSection:
    """One page (`size` players from `page * size`) of a section: by chips (all games or one) or by rating
    (one game), all-time or in one season."""
    limit, offset = size + 1, page * size  # one row more than a page tells whether a next page exists
    if by == RATING and kind:
        rated = await store.rating_leaderboard(guild_id, kind, limit=limit, offset=offset, season=season)
        lines = [rating_board_line(r, locale) for r in rated]
    else:
        rows = await store.leaderboard(guild_id, kind, limit=limit, offset=offset, season=season)
        lines = [leaderboard_line(r, locale) for r in rows]
    kept = season != ALL_TIME and not lines and bool(await store.seasons(guild_id))
    return board_section(kind, by, season, lines, page=page, size=size, seasons_kept=kept, locale=locale)
