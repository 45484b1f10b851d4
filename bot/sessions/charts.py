"""The /stats chart's figures from the store: a person's games of the current season (all time when the
server keeps no seasons), drawn by `bot.render.charts` in a worker thread."""

from __future__ import annotations

import asyncio

from bot.render.charts import stats_chart
from bot.render.common import Picture
from storage import season_bounds
from storage.contract import Store


async def season_chart(
    store: Store, guild_id: int, player: str, *, locale: object, name: str = ""
) -> Picture | None:
    """The chart of `player`'s chips and ratings this season (None: no game in it), headed by `name`, his
    display name."""
    settings = await store.guild_settings(guild_id)
    season = None if settings.seasons == "off" else store.current_season()
    since = season_bounds(season)[0] if season is not None else None
    chips = await store.chip_history(guild_id, player, since=since)
    rated = await store.rating_history(guild_id, player, since=since)
    return await asyncio.to_thread(stats_chart, chips, rated, season=season, locale=locale, name=name)
