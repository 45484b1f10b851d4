"""What fair play shows in a game's `/history` (the moderation itself is `storage.fairplay`)."""

from __future__ import annotations

from storage.contract import Store
from storage.models import TableRow


async def excluded_at(store: Store, row: TableRow) -> list[str]:
    """The players of a game whom a moderator has taken off the server's leaderboards (now): its `/history`
    names them, so a player and a moderator see why its results are on no leaderboard."""
    if not row.guild_id:
        return []
    excluded = set(await store.excluded(row.guild_id))
    return [p for p in row.players if p in excluded]
