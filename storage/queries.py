"""Standings read from the ledger (the truth for chips) and the results of finished tables.

The ledger has one row per movement with two accounts; a player's net is what came in (to_account) minus
what went out (from_account). The covering indexes `ledger_in` / `ledger_out` (guild_id, account, kind,
amount) let SQLite compute each sum from one index alone, walked in account order so the GROUP BY needs no
sort; only the few hundred per-player totals are then joined and ordered.
"""

from __future__ import annotations

import aiosqlite

from storage.models import KindStats, LeaderboardRow, PlayerStats

# Computer seats ("ai:<n>") and table accounts ("@pot") are not people: they never rank. The filter applies
# after grouping (one test per account, not per ledger row).
LEADERBOARD_SQL = """
WITH ins AS (
    SELECT to_account AS player, SUM(amount) AS total FROM ledger
     WHERE guild_id = :guild AND (:kind IS NULL OR kind = :kind) GROUP BY to_account
),
outs AS (
    SELECT from_account AS player, SUM(amount) AS total FROM ledger
     WHERE guild_id = :guild AND (:kind IS NULL OR kind = :kind) GROUP BY from_account
),
played AS (
    SELECT player, COUNT(*) AS games, SUM(won) AS wins FROM results
     WHERE guild_id = :guild AND (:kind IS NULL OR kind = :kind) GROUP BY player
),
everyone AS (SELECT player FROM ins UNION SELECT player FROM outs UNION SELECT player FROM played)
SELECT e.player, COALESCE(i.total, 0) - COALESCE(o.total, 0) AS net,
       COALESCE(p.games, 0) AS games, COALESCE(p.wins, 0) AS wins
  FROM everyone e
  LEFT JOIN ins i ON i.player = e.player
  LEFT JOIN outs o ON o.player = e.player
  LEFT JOIN played p ON p.player = e.player
 WHERE substr(e.player, 1, 3) <> 'ai:' AND substr(e.player, 1, 1) <> '@'
 ORDER BY net DESC, wins DESC, games ASC, e.player ASC
 LIMIT :limit OFFSET :offset
"""


async def leaderboard(
    db: aiosqlite.Connection, guild_id: int, kind: str | None, limit: int, offset: int
) -> list[LeaderboardRow]:
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset must not be negative")
    params = {"guild": guild_id, "kind": kind, "limit": limit, "offset": offset}
    async with db.execute(LEADERBOARD_SQL, params) as cur:
        rows = await cur.fetchall()
    return [
        LeaderboardRow(
            rank=offset + i + 1, player=r["player"], net=r["net"], games=r["games"], wins=r["wins"]
        )
        for i, r in enumerate(rows)
    ]


async def player_stats(db: aiosqlite.Connection, guild_id: int, player: str) -> PlayerStats:
    per_kind: dict[str, dict] = {}

    def slot(kind: str) -> dict:
        return per_kind.setdefault(kind, {"games": 0, "wins": 0, "net": 0, "biggest_win": None})

    for column, sign in (("to_account", 1), ("from_account", -1)):
        async with db.execute(
            f"SELECT kind, SUM(amount) AS total FROM ledger"
            f" WHERE guild_id = ? AND {column} = ? GROUP BY kind",
            (guild_id, player),
        ) as cur:
            for r in await cur.fetchall():
                slot(r["kind"])["net"] += sign * r["total"]
    async with db.execute(
        "SELECT kind, COUNT(*) AS games, SUM(won) AS wins,"
        " MAX(CASE WHEN net > 0 THEN net END) AS biggest FROM results"
        " WHERE guild_id = ? AND player = ? GROUP BY kind",
        (guild_id, player),
    ) as cur:
        for r in await cur.fetchall():
            s = slot(r["kind"])
            s.update(games=r["games"], wins=r["wins"], biggest_win=r["biggest"])
    per_game = {k: KindStats(**v) for k, v in sorted(per_kind.items())}
    wins_by_game = [s.biggest_win for s in per_game.values() if s.biggest_win is not None]
    return PlayerStats(
        player=player,
        games=sum(s.games for s in per_game.values()),
        wins=sum(s.wins for s in per_game.values()),
        net=sum(s.net for s in per_game.values()),
        biggest_win=max(wins_by_game) if wins_by_game else None,
        per_game=per_game,
    )
