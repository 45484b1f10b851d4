"""Fair play at the table: who scores nothing as a no-show, and what fair play shows in a game's `/history`
(the moderation itself is `storage.fairplay`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from storage.contract import Store
from storage.models import TableRow


async def excluded_at(store: Store, row: TableRow) -> list[str]:
    """The players of a game whom a moderator has taken off the server's leaderboards (now): its `/history`
    names them, so a player and a moderator see why its results are on no leaderboard."""
    if not row.guild_id:
        return []
    excluded = set(await store.excluded(row.guild_id))
    return [p for p in row.players if p in excluded]


async def no_shows(
    store: Store,
    table_id: int,
    players: Sequence[str],
    timed_out: Collection[str],
    *,
    turn: str | None = None,
    acting: str | None = None,
) -> list[str]:
    """The people at a table without a move of their own although the turn was theirs: their turn timed out
    (`timed_out`: the session's timeouts in a row, which a move of their own clears) or it is theirs now
    (`turn`: at a round's deadline). Such a seat scores nothing, as a forfeit, however the game ends, at the
    deadline or before it (a short turn cap, a stalemate of two idle turns): the moves the timer made for it
    (the safe default) are not his. `acting`: who makes the move being stored now (not in the log yet).

    The log is read only when someone may be one (a person's own moves carry his id as their actor; the
    timer's carry `timeout`, the computer's `ai`)."""
    candidates = [
        p for p in players if not p.startswith("ai:") and p != acting and (p == turn or p in timed_out)
    ]
    if not candidates:
        return []
    actors = {row.actor for row in await store.actions(table_id)}
    return [p for p in candidates if p not in actors]
