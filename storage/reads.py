"""The store's reads, written once for both databases (see `storage.database`): the tables with their seats
in one read transaction, the log and the ledger, the standings from the balance rows."""

from __future__ import annotations

import json
from typing import Any

from storage.common import ALL_KINDS
from storage.database import Transaction
from storage.models import GuildSettings, HeadToHead, HistoryEntry, LedgerRow, TableRow

_TABLE_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.kind, t.status, t.options, t.seed, t.commitment, t.host_id, t.meta, "
    "t.display, t.snapshot, t.created_at, t.started_at, t.finished_at, t.home_channel_id, "
    "(SELECT m.competition_id FROM competition_matches m WHERE m.table_id = t.id) AS competition_id, "
    "(SELECT COALESCE(MAX(a.seq) + 1, 0) FROM actions a WHERE a.table_id = t.id) AS next_seq"
)
# A person a moderator excluded is on no leaderboard of the server (migration 10, `storage.fairplay`).
_NOT_EXCLUDED = (
    " AND NOT EXISTS (SELECT 1 FROM leaderboard_exclusions x WHERE x.guild_id = {t}.guild_id"
    " AND x.player = {t}.player)"
)
ACTIONS = "SELECT table_id, seq, actor, action, created_at FROM actions WHERE table_id = ? ORDER BY seq"
LEDGER = (
    "SELECT id, table_id, seq, from_account, to_account, amount, reason, created_at FROM ledger"
    " WHERE table_id = ? ORDER BY seq, id"
)
RESULTS = (
    "SELECT table_id, kind, player, final_chips, net, placement, won FROM results"
    " WHERE table_id = ? ORDER BY placement, player"
)
LEADERBOARD = (
    "SELECT player, net, games, wins FROM balances WHERE guild_id = ? AND kind = ?"
    f"{_NOT_EXCLUDED.format(t='balances')}"
    " ORDER BY net DESC, wins DESC, games ASC, player ASC LIMIT ? OFFSET ?"
)
STATS = "SELECT kind, net, games, wins, biggest_win FROM balances WHERE guild_id = ? AND player = ?"
GUILD_LANGUAGE = "SELECT language FROM guild_settings WHERE guild_id = ?"
GUILD_SETTINGS = "SELECT language, host_role, threads, seasons, web FROM guild_settings WHERE guild_id = ?"
GAME_CHANNELS = "SELECT channel_id FROM game_channels WHERE guild_id = ? ORDER BY channel_id"
TABLE_DEFAULTS = "SELECT kind, name, value FROM table_defaults WHERE guild_id = ? ORDER BY kind, name"
DM_CHANNELS = "SELECT user_id, channel_id FROM dm_channels"
SEASON_LEADERBOARD = (
    "SELECT player, net, games, wins FROM season_balances WHERE guild_id = ? AND season = ? AND kind = ?"
    f"{_NOT_EXCLUDED.format(t='season_balances')}"
    " ORDER BY net DESC, wins DESC, games ASC, player ASC LIMIT ? OFFSET ?"
)
RATING_LEADERBOARD = (
    "SELECT player, score, games, games AS played FROM ratings WHERE guild_id = ? AND kind = ?"
    f"{_NOT_EXCLUDED.format(t='ratings')}"
    " ORDER BY score DESC, player ASC LIMIT ? OFFSET ?"
)
SEASON_RATING_LEADERBOARD = (
    "SELECT player, score, games, played FROM season_ratings WHERE guild_id = ? AND season = ? AND kind = ?"
    f"{_NOT_EXCLUDED.format(t='season_ratings')}"
    " ORDER BY score DESC, player ASC LIMIT ? OFFSET ?"
)
SEASONS = "SELECT DISTINCT season FROM season_balances WHERE guild_id = ? AND kind = ? ORDER BY season DESC"
RATING_CHANGES = (
    "SELECT table_id, player, guild_id, kind, ended_at, rank, mu_before, sigma_before, score_before,"
    " mu_after, sigma_after, score_after, games FROM rating_changes WHERE table_id = ? ORDER BY rank, player"
)
PLAYER_RATINGS = (
    "SELECT player, kind, mu, sigma, score, games,"
    " (SELECT c.score_after - c.score_before FROM rating_changes c"
    " WHERE c.guild_id = r.guild_id AND c.player = r.player AND c.kind = r.kind"
    " ORDER BY c.ended_at DESC, c.table_id DESC LIMIT 1) AS last_change"
    " FROM ratings r WHERE guild_id = ? AND player = ? AND games > 0 ORDER BY kind"
)
RATING_HISTORY = (
    "SELECT table_id, kind, ended_at, score_after AS score, games FROM rating_changes"
    " WHERE guild_id = ? AND player = ? AND ended_at >= ?{kind} ORDER BY ended_at, table_id"
)
CHIP_HISTORY = (
    "SELECT table_id, kind, ended_at, net FROM results"
    " WHERE guild_id = ? AND player = ? AND ended_at >= ?{kind} ORDER BY ended_at, table_id"
)
# The games two people both finished (the first's results by time, the second's by the table's key), each
# with the chips that went straight between them in it (the table's ledger, by its index).
TOGETHER = (
    "SELECT a.kind, a.placement AS mine, b.placement AS theirs,"
    " (SELECT SUM(CASE WHEN l.to_account = a.player THEN l.amount ELSE -l.amount END) FROM ledger l"
    "   WHERE l.table_id = a.table_id AND ((l.from_account = a.player AND l.to_account = b.player)"
    "   OR (l.from_account = b.player AND l.to_account = a.player))) AS net"
    " FROM results a JOIN results b ON b.table_id = a.table_id AND b.player = ?"
    " WHERE a.guild_id = ? AND a.player = ?"
)


async def tables(
    tx: Transaction, where: str, params: tuple[Any, ...], order: str, limit: int | None
) -> list[TableRow]:
    """The tables `where` says (a condition on `t`, a `?` for each of `params`), in `order`, with their
    seats."""
    chosen = f"FROM game_tables t WHERE {where} ORDER BY {order}"
    if limit is not None:
        chosen += f" LIMIT {int(limit)}"
    rows = await tx.fetch(f"SELECT {_TABLE_COLUMNS} {chosen}", *params)
    if not rows:
        return []
    seats: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
    # The same choice again (the same snapshot in this transaction), so no list of ids has to fit a statement.
    for s in await tx.fetch(
        "SELECT table_id, seat, player, user_id, joined_at, display_name FROM seats"
        f" WHERE table_id IN (SELECT t.id {chosen}) AND left_at IS NULL ORDER BY table_id, seat",
        *params,
    ):
        seats[s["table_id"]].append(s)
    return [
        TableRow.model_validate(
            {
                **r,
                "options": json.loads(r["options"]),
                "meta": json.loads(r["meta"]),
                "display": json.loads(r["display"]),
                "seats": seats[r["id"]],
            }
        )
        for r in rows
    ]


async def history(tx: Transaction, table_id: int) -> list[HistoryEntry]:
    """Every action in seq order, each with the chip movements it caused in entry order."""
    acts = await tx.fetch(ACTIONS, table_id)
    by_seq: dict[int, list[LedgerRow]] = {}
    for r in await tx.fetch(LEDGER, table_id):
        by_seq.setdefault(r["seq"], []).append(LedgerRow(**r))
    return [HistoryEntry(**a, ledger=by_seq.get(a["seq"], [])) for a in acts]


async def guild_settings(tx: Transaction, guild_id: int) -> GuildSettings:
    """A server's settings, its three parts read in one transaction (one consistent state)."""
    row = await tx.one(GUILD_SETTINGS, guild_id)
    channels = [int(r["channel_id"]) for r in await tx.fetch(GAME_CHANNELS, guild_id)]
    defaults: dict[str, dict[str, Any]] = {}
    for r in await tx.fetch(TABLE_DEFAULTS, guild_id):
        defaults.setdefault(r["kind"], {})[r["name"]] = json.loads(r["value"])
    return GuildSettings(
        guild_id=guild_id,
        language=None if row is None else row["language"],
        host_role=None if row is None or row["host_role"] is None else int(row["host_role"]),
        channels=channels,
        defaults=defaults,
        threads=row is not None and bool(row["threads"]),
        web=row is None or bool(row["web"]),
        seasons=(None if row is None else row["seasons"]) or "monthly",
    )


def head_to_head(together: list[dict[str, Any]]) -> dict[str, HeadToHead]:
    """Per game kind and over all kinds (`*`), from the rows of TOGETHER: the games both played, the first
    one's wins, draws and losses against the other by place, and the chips that went between them."""
    counts: dict[str, dict[str, int]] = {}
    for r in together:
        outcome = "wins" if r["mine"] < r["theirs"] else "draws" if r["mine"] == r["theirs"] else "losses"
        for kind in (r["kind"], ALL_KINDS):
            c = counts.setdefault(kind, {"games": 0, "wins": 0, "draws": 0, "losses": 0, "net": 0})
            c["games"] += 1
            c[outcome] += 1
            c["net"] += int(r["net"] or 0)
    return {kind: HeadToHead(**c) for kind, c in sorted(counts.items())}
