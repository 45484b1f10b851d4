"""The names people go by (migration 13): a seat's and an entrant's display name as Discord last showed it,
kept with the table and the event so a picture drawn after a restart names everyone the bot has seen. Written
when he sits down (`writes.set_seats`) or joins (`competitions.join`), and here when an interaction shows
him under a name the rows do not hold yet."""

from __future__ import annotations

from storage.database import Transaction


async def rename(tx: Transaction, player: str, name: str) -> int:
    """`player`'s display name on every seat he holds at an open table and every entry of an event not over
    (the rows that still differ): how many rows changed."""
    changed = await tx.execute(
        "UPDATE seats SET display_name = ? WHERE player = ? AND left_at IS NULL"
        " AND (display_name IS NULL OR display_name <> ?)"
        " AND table_id IN (SELECT id FROM game_tables WHERE status IN ('lobby', 'running'))",
        name,
        player,
        name,
    )
    changed += await tx.execute(
        "UPDATE competition_entrants SET display_name = ? WHERE player = ?"
        " AND (display_name IS NULL OR display_name <> ?)"
        " AND competition_id IN (SELECT id FROM competitions WHERE status IN ('open', 'running'))",
        name,
        player,
        name,
    )
    return changed
