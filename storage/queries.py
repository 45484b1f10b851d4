"""Standings read from the ledger (the truth for chips) and the results of finished tables.

The ledger has one row per movement with two accounts; a player's net is what came in (to_account) minus
what went out (from_account). The covering indexes `ledger_in` / `ledger_out` (guild_id, account, kind,
amount) let SQLite compute both sums from the indexes alone, already grouped by account.
"""

from __future__ import annotations

import aiosqlite

from storage.models import KindStats, LeaderboardRow, PlayerStats

# Computer seats ("ai:<n>") and table accounts ("@pot") are not people: they never rank.
_PERSON = "substr({col}, 1, 3) <> 'ai:' AND substr({col}, 1, 1) <> '@'"

LEADERBOARD_SQL = f"""
WITH moves(player, delta) AS (
    SELECT to_account, amount FROM ledger
     WHERE guild_id = :guild AND (:kind IS NULL OR kind = :kind) AND {_PERSON.format(col="to_account")}
    UNION ALL
    SELECT from_account, -amount FROM ledger
     WHERE guild_id = :guild AND (:kind IS NULL OR kind = :kind) AND {_PERSON.format(col="from_account")}
),
nets AS (SELECT player, SUM(delta) AS net FROM moves GROUP BY player),
played AS (
    SELECT player, COUNT(*) AS games, SUM(won) AS wins FROM results
     WHERE guild_id = :guild AND (:kind IS NULL OR kind = :kind) AND {_PERSON.format(col="player")}
     GROUP BY player
),
everyone AS (SELECT player FROM nets UNION SELECT player FROM played)
SELECT e.player, COALESCE(n.net, 0) AS net, COALESCE(p.games, 0) AS games, COALESCE(p.wins, 0) AS wins
  FROM everyone e LEFT JOIN nets n ON n.player = e.player LEFT JOIN played p ON p.player = e.player
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
