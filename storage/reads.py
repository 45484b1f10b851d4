"""The store's reads, written once for both databases (see `storage.database`): the tables with their seats
in one read transaction, the log and the ledger, the standings from the balance rows."""

from __future__ import annotations

import json
from typing import Any

from storage.database import Transaction
from storage.models import GuildSettings, HistoryEntry, LedgerRow, TableRow

_TABLE_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.kind, t.status, t.options, t.seed, t.commitment, t.host_id, t.meta, "
    "t.display, t.snapshot, t.created_at, t.started_at, t.finished_at, t.home_channel_id, "
    "(SELECT COALESCE(MAX(a.seq) + 1, 0) FROM actions a WHERE a.table_id = t.id) AS next_seq"
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
    " ORDER BY net DESC, wins DESC, games ASC, player ASC LIMIT ? OFFSET ?"
)
STATS = "SELECT kind, net, games, wins, biggest_win FROM balances WHERE guild_id = ? AND player = ?"
GUILD_LANGUAGE = "SELECT language FROM guild_settings WHERE guild_id = ?"
GUILD_SETTINGS = "SELECT language, host_role, threads FROM guild_settings WHERE guild_id = ?"
GAME_CHANNELS = "SELECT channel_id FROM game_channels WHERE guild_id = ? ORDER BY channel_id"
TABLE_DEFAULTS = "SELECT kind, name, value FROM table_defaults WHERE guild_id = ? ORDER BY kind, name"
DM_CHANNELS = "SELECT user_id, channel_id FROM dm_channels"


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
        "SELECT table_id, seat, player, user_id, joined_at FROM seats"
        f" WHERE table_id IN (SELECT t.id {chosen}) AND left_at IS NULL ORDER BY table_id, seat",
        *params,
    ):
        seats[s["table_id"]].append(s)
    return [
        TableRow.model_validate(
            {**r, "options": json.loads(r["options"]), "meta": json.loads(r["meta"]),
             "display": json.loads(r["display"]), "seats": seats[r["id"]]}
        )
        for r in rows
    ]  # fmt: skip


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
    )
