"""Fair play (migration 10): a moderator voids a finished game or excludes a person from the leaderboards.

A void never edits the chip ledger: it appends one action to the game's log (actor `void`, seq after the
last) and under it one compensating entry for each of the game's entries, the same amount the other way;
every kept total (balances, the season's leaderboard, biggest wins) is corrected in the same transaction, and
the game's ratings are taken out: its `rating_changes` rows deleted and every later rated game of that server
and kind rated again in order from the history without it (the rater is the caller's, as when a game
finishes). A game that was a tournament's match counts in its standings as if none of its players had
shown up (`competitions.void_match`). The moderation record (append-only) keeps who did what and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage import competitions
from storage.common import ALL_KINDS, is_person, season_of
from storage.database import Transaction
from storage.errors import StoreError, TableNotFound
from storage.models import LedgerIn, Rate, RatingIn
from storage.writes import BALANCES, LEDGER, SEASON_RATINGS

VOID = "void"  # the void's actor in the action log
VOID_ACTION = '{"kind":"void"}'


class FairPlayError(StoreError):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_RECORD = (
    "INSERT INTO moderation (guild_id, action, table_id, player, moderator, reason, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


async def void(tx: Transaction, now: float, table_id: int, moderator: int, reason: str, rate: Rate) -> int:
    """Void a finished game (see the module's note). Returns its guild. FairPlayError `not_finished` or
    `already_void`; TableNotFound."""
    row = await tx.one(
        "SELECT status, guild_id, kind, voided_at, finished_at FROM game_tables"
        f" WHERE id = ?{tx.dialect.row_lock}",
        table_id,
    )
    if row is None:
        raise TableNotFound(table_id)
    if row["status"] != "finished":
        raise FairPlayError("not_finished")
    if row["voided_at"] is not None:
        raise FairPlayError("already_void")
    guild, kind = int(row["guild_id"]), str(row["kind"])
    seq = int(await tx.value("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = ?", table_id))
    await tx.execute(
        "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
        table_id,
        seq,
        VOID,
        VOID_ACTION,
        now,
    )
    entries = await tx.fetch(
        "SELECT from_account, to_account, amount, reason FROM ledger WHERE table_id = ? ORDER BY seq, id",
        table_id,
    )
    back = [
        LedgerIn(
            from_account=e["to_account"],
            to_account=e["from_account"],
            amount=e["amount"],
            reason=f"void: {e['reason']}",
        )
        for e in entries
    ]
    await tx.execute_many(
        LEDGER.sql,
        [(table_id, seq, guild, kind, e.from_account, e.to_account, e.amount, e.reason, now) for e in back],
    )
    net: dict[str, int] = {}
    for e in back:
        net[e.to_account] = net.get(e.to_account, 0) + e.amount
        net[e.from_account] = net.get(e.from_account, 0) - e.amount
    results = {
        r["player"]: r
        for r in await tx.fetch("SELECT player, net, won FROM results WHERE table_id = ?", table_id)
        if is_person(r["player"])
    }
    await tx.execute("UPDATE game_tables SET voided_at = ? WHERE id = ?", now, table_id)
    kinds = sorted({kind, ALL_KINDS})
    rows = []
    for player in sorted(set(net) | set(results)):
        if not is_person(player):
            continue
        r = results.get(player)
        games, wins = (-1, -int(bool(r["won"]))) if r is not None else (0, 0)
        rows += [(guild, player, k, net.get(player, 0), games, wins, None) for k in kinds]
    await tx.execute_many(BALANCES.sql, rows)
    await _biggest_wins(tx, guild, sorted(results), kinds)
    if results and row["finished_at"] is not None:
        season = season_of(float(row["finished_at"]))
        await tx.execute_many(
            "UPDATE season_balances SET net = net - ?, games = games - 1, wins = wins - ?"
            " WHERE guild_id = ? AND season = ? AND kind = ? AND player = ?",
            [
                (int(r["net"]), int(bool(r["won"])), guild, season, k, p)
                for p, r in sorted(results.items())
                for k in kinds
            ],
        )
    # A row left with nothing in it (a person whose only game this was) is as if it had never been written:
    # rows only add up, so dropping an empty one loses nothing, and he is on no leaderboard.
    await tx.execute("DELETE FROM balances WHERE guild_id = ? AND games = 0 AND net = 0", guild)
    await tx.execute("DELETE FROM season_balances WHERE guild_id = ? AND games = 0 AND net = 0", guild)
    if await tx.value("SELECT 1 FROM rating_changes WHERE table_id = ? LIMIT 1", table_id) is not None:
        await tx.execute("DELETE FROM rating_changes WHERE table_id = ?", table_id)
        await rerate(tx, guild, kind, rate)
    await competitions.void_match(tx, table_id)  # a tournament's match: out of its standings too
    await tx.execute(_RECORD, guild, "void", table_id, None, moderator, reason, now)
    return guild


async def _biggest_wins(tx: Transaction, guild: int, players: Sequence[str], kinds: Sequence[str]) -> None:
    """The biggest win is a maximum: taken again from the results of the games not voided."""
    for player in players:
        for k in kinds:
            biggest = await tx.value(
                "SELECT MAX(r.net) FROM results r JOIN game_tables t ON t.id = r.table_id"
                " WHERE r.guild_id = ? AND r.player = ? AND r.net > 0 AND t.voided_at IS NULL"
                + ("" if k == ALL_KINDS else " AND r.kind = ?"),
                *((guild, player) if k == ALL_KINDS else (guild, player, k)),
            )
            await tx.execute(
                "UPDATE balances SET biggest_win = ? WHERE guild_id = ? AND player = ? AND kind = ?",
                biggest,
                guild,
                player,
                k,
            )


async def rerate(tx: Transaction, guild: int, kind: str, rate: Rate) -> None:
    """Every rated game of the server and kind rated again in order, from nothing: the ratings, the games'
    changes and the seasons' rating leaderboards as if the games no longer there had never been played."""
    changes = await tx.fetch(
        "SELECT table_id, player, rank, ended_at FROM rating_changes WHERE guild_id = ? AND kind = ?"
        " ORDER BY ended_at, table_id, player",
        guild,
        kind,
    )
    games: dict[int, list[dict[str, Any]]] = {}
    for c in changes:
        games.setdefault(int(c["table_id"]), []).append(c)
    now: dict[str, tuple[float, float, float, int]] = {}  # player -> mu, sigma, score, games
    seasons: dict[tuple[str, str], tuple[float, int, int]] = {}  # (season, player) -> score, games, played
    updates = []
    for table_id, rows in games.items():
        ask = [
            RatingIn(
                player=r["player"],
                rank=int(r["rank"]),
                games=now.get(r["player"], (0, 0, 0, 0))[3],
                mu=now[r["player"]][0] if r["player"] in now else None,
                sigma=now[r["player"]][1] if r["player"] in now else None,
            )
            for r in rows
        ]
        for r, p, (before, after) in zip(rows, ask, rate(ask), strict=True):
            count = p.games + 1
            now[p.player] = (after.mu, after.sigma, after.score, count)
            season = season_of(float(r["ended_at"]))
            played = seasons.get((season, p.player), (0.0, 0, 0))[2]
            seasons[(season, p.player)] = (after.score, count, played + 1)
            updates.append(
                (
                    before.mu,
                    before.sigma,
                    before.score,
                    after.mu,
                    after.sigma,
                    after.score,
                    count,
                    table_id,
                    p.player,
                )
            )
    await tx.execute_many(
        "UPDATE rating_changes SET mu_before = ?, sigma_before = ?, score_before = ?, mu_after = ?,"
        " sigma_after = ?, score_after = ?, games = ? WHERE table_id = ? AND player = ?",
        updates,
    )
    await tx.execute("DELETE FROM ratings WHERE guild_id = ? AND kind = ?", guild, kind)
    await tx.execute_many(
        "INSERT INTO ratings (guild_id, kind, player, mu, sigma, score, games) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(guild, kind, p, *v) for p, v in sorted(now.items())],
    )
    await tx.execute("DELETE FROM season_ratings WHERE guild_id = ? AND kind = ?", guild, kind)
    await tx.execute_many(
        SEASON_RATINGS.sql.split(" ON CONFLICT")[0],
        [(guild, season, kind, p, *v) for (season, p), v in sorted(seasons.items())],
    )


async def exclude(
    tx: Transaction, now: float, guild: int, player: str, moderator: int, reason: str, on: bool
) -> bool:
    """Take a person off the server's leaderboards (`on`), or let him back; False if nothing changed."""
    if on:
        changed = await tx.execute(
            "INSERT INTO leaderboard_exclusions (guild_id, player) VALUES (?, ?)"
            " ON CONFLICT (guild_id, player) DO NOTHING",
            guild,
            player,
        )
    else:
        changed = await tx.execute(
            "DELETE FROM leaderboard_exclusions WHERE guild_id = ? AND player = ?", guild, player
        )
    if changed:
        await tx.execute(_RECORD, guild, "exclude" if on else "include", None, player, moderator, reason, now)
    return changed == 1


MODERATION = (
    "SELECT id, guild_id, action, table_id, player, moderator, reason, created_at FROM moderation"
    " WHERE guild_id = ? ORDER BY id DESC LIMIT ?"
)
