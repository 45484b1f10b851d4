"""The store's write transactions, written once for both databases (see `storage.database`).

Each is an async function of a `Transaction` that awaits nothing but its statements (on SQLite it holds the
one writer connection until it ends). A move is: the table's row (locked on
PostgreSQL: two processes appending to one table queue up there) and its status check, then one `Batch`
with the action, its ledger entries, the balances they change, the results and the table row, guarded by the
sequence check: one statement on PostgreSQL, whose snapshot (taken after the lock) sees what the writer we
may have waited for committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage import competitions
from storage.common import balance_changes, season_changes
from storage.database import Batch, Guard, Insert, Transaction
from storage.errors import ChannelBusy, SeatsChanged, SequenceConflict, TableNotFound, TableStateError
from storage.models import LedgerIn, Rated, RatingIn, ResultIn, SeatIn

_MOVE = ("table_id", "seq", "guild_id", "kind", "created_at")  # the same in every ledger row of a move
ACTIONS = Insert(
    "actions",
    (("table_id", "bigint"), ("seq", "int"), ("actor", "text"), ("action", "text"), ("created_at", "real")),
    same=("table_id", "seq", "actor", "action", "created_at"),  # one row
)
# Ledger ids follow the entry order: the rows are inserted in the order given.
LEDGER = Insert(
    "ledger",
    (
        ("table_id", "bigint"),
        ("seq", "int"),
        ("guild_id", "bigint"),
        ("kind", "text"),
        ("from_account", "text"),
        ("to_account", "text"),
        ("amount", "bigint"),
        ("reason", "text"),
        ("created_at", "real"),
    ),
    same=_MOVE,
)
# A NULL biggest win on either side keeps the other one (what GREATEST does on PostgreSQL, in both dialects).
BALANCES = Insert(
    "balances",
    (
        ("guild_id", "bigint"),
        ("player", "text"),
        ("kind", "text"),
        ("net", "bigint"),
        ("games", "int"),
        ("wins", "int"),
        ("biggest_win", "bigint"),
    ),
    "ON CONFLICT (guild_id, player, kind) DO UPDATE SET net = balances.net + excluded.net,"
    " games = balances.games + excluded.games, wins = balances.wins + excluded.wins,"
    " biggest_win = CASE WHEN excluded.biggest_win IS NULL OR balances.biggest_win >= excluded.biggest_win"
    " THEN balances.biggest_win ELSE excluded.biggest_win END",
    same=("guild_id",),  # not the kind: a move changes its kind's rows and the rows of all kinds
)
RESULTS = Insert(
    "results",
    (
        ("table_id", "bigint"),
        ("player", "text"),
        ("guild_id", "bigint"),
        ("kind", "text"),
        ("final_chips", "bigint"),
        ("net", "bigint"),
        ("placement", "int"),
        ("won", "bool"),
        ("ended_at", "real"),
    ),
    same=("table_id", "guild_id", "kind", "ended_at"),
)
# The season's leaderboard by chips: a finished game's results added to the month it ended in.
SEASON_BALANCES = Insert(
    "season_balances",
    (
        ("guild_id", "bigint"),
        ("season", "text"),
        ("kind", "text"),
        ("player", "text"),
        ("net", "bigint"),
        ("games", "int"),
        ("wins", "int"),
    ),
    "ON CONFLICT (guild_id, season, kind, player) DO UPDATE SET net = season_balances.net + excluded.net,"
    " games = season_balances.games + excluded.games, wins = season_balances.wins + excluded.wins",
    same=("guild_id", "season"),
)
RATING_CHANGES = Insert(
    "rating_changes",
    (
        ("table_id", "bigint"),
        ("player", "text"),
        ("guild_id", "bigint"),
        ("kind", "text"),
        ("ended_at", "real"),
        ("rank", "int"),
        ("mu_before", "real"),
        ("sigma_before", "real"),
        ("score_before", "real"),
        ("mu_after", "real"),
        ("sigma_after", "real"),
        ("score_after", "real"),
        ("games", "int"),
    ),
)
SEASON_RATINGS = Insert(
    "season_ratings",
    (
        ("guild_id", "bigint"),
        ("season", "text"),
        ("kind", "text"),
        ("player", "text"),
        ("score", "real"),
        ("games", "int"),
        ("played", "int"),
    ),
    "ON CONFLICT (guild_id, season, kind, player) DO UPDATE SET score = excluded.score,"
    " games = excluded.games, played = season_ratings.played + 1",
)
_SET_RATING = (
    "UPDATE ratings SET mu = ?, sigma = ?, score = ?, games = ?"
    " WHERE guild_id = ? AND kind = ? AND player = ?"
)
# Creates a person's rating row if it is missing (games 0: never rated, its numbers unused) and locks it
# either way, returning it as the last committed writer left it: PostgreSQL's upsert waits for a concurrent
# writer of the row (another table finishing with the same person, on any process) and then reads its result.
_LOCK_RATINGS = (
    "INSERT INTO ratings (guild_id, kind, player, mu, sigma, score, games) VALUES {rows}"
    " ON CONFLICT (guild_id, kind, player) DO UPDATE SET games = ratings.games"
    " RETURNING player, mu, sigma, games"
)
SEATS = Insert(
    "seats",
    (
        ("table_id", "bigint"),
        ("seat", "int"),
        ("player", "text"),
        ("user_id", "bigint"),
        ("joined_at", "real"),
        ("display_name", "text"),
    ),
)

_ONGOING = "UPDATE game_tables SET snapshot = ?, meta = COALESCE(?, meta) WHERE id = ?"
_FINISHED = (
    "UPDATE game_tables SET snapshot = ?, meta = COALESCE(?, meta), status = 'finished', finished_at = ?"
    " WHERE id = ?"
)
_CREATE = (
    "INSERT INTO game_tables (guild_id, channel_id, kind, status, options, seed, commitment, host_id,"
    " created_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)"
    " ON CONFLICT (channel_id) WHERE status IN ('lobby', 'running') DO NOTHING RETURNING id"
)
SET_GUILD_LANGUAGE = (
    "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language"
)
SET_HOST_ROLE = (
    "INSERT INTO guild_settings (guild_id, host_role) VALUES (?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET host_role = excluded.host_role"
)
SET_WEB = (
    "INSERT INTO guild_settings (guild_id, web) VALUES (?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET web = excluded.web"
)
SET_THREADS = (
    "INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads"
)
ADD_GAME_CHANNEL = (
    "INSERT INTO game_channels (guild_id, channel_id) VALUES (?, ?)"
    " ON CONFLICT (guild_id, channel_id) DO NOTHING"
)
REMOVE_GAME_CHANNEL = "DELETE FROM game_channels WHERE guild_id = ? AND channel_id = ?"
SET_SEASONS = (
    "INSERT INTO guild_settings (guild_id, seasons) VALUES (?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET seasons = excluded.seasons"
)
CLEAR_GAME_CHANNELS = "DELETE FROM game_channels WHERE guild_id = ?"
SET_TABLE_DEFAULT = (
    "INSERT INTO table_defaults (guild_id, kind, name, value) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, kind, name) DO UPDATE SET value = excluded.value"
)
CLEAR_TABLE_DEFAULT = "DELETE FROM table_defaults WHERE guild_id = ? AND kind = ? AND name = ?"
REMEMBER_DM_CHANNEL = (
    "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
    " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id"
)
_NEXT_SEQ = "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE table_id = ?"
_ACTIVE_ID = "SELECT id FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'running')"


async def require_status(tx: Transaction, table_id: int, allowed: tuple[str, ...], op: str) -> str:
    """The table's status, its row held until the transaction ends; TableNotFound, or TableStateError if the
    status is not one of `allowed`."""
    status = await tx.value(f"SELECT status FROM game_tables WHERE id = ?{tx.dialect.row_lock}", table_id)
    if status is None:
        raise TableNotFound(table_id)
    if status not in allowed:
        raise TableStateError(table_id, status, op)
    return str(status)


async def create(
    tx: Transaction,
    guild_id: int,
    channel_id: int,
    kind: str,
    host_id: int,
    options: str,
    seed: str,
    commitment: str,
    now: float,
) -> int:
    """A lobby; ChannelBusy if the channel has a lobby or running table (its unique index says so, so two
    concurrent creates cannot both win)."""
    new = await tx.value(_CREATE, guild_id, channel_id, kind, options, seed, commitment, host_id, now)
    if new is None:
        raise ChannelBusy(channel_id, await tx.value(_ACTIVE_ID, channel_id))
    return int(new)


async def opened(tx: Transaction, values: tuple[Any, ...], seats: Sequence[SeatIn], meta: str | None) -> int:
    """A lobby (`create`'s values) with its seats and its session state, in the caller's transaction."""
    table_id = await create(tx, *values)
    if seats:
        await set_seats(tx, values[-1], table_id, seats)
    if meta is not None:
        await tx.execute("UPDATE game_tables SET meta = ? WHERE id = ?", meta, table_id)
    return table_id


async def set_seats(
    tx: Transaction,
    now: float,
    table_id: int,
    players: Sequence[SeatIn],
    expected: Sequence[str] | None = None,
) -> None:
    """`expected`: the players the caller saw seated, in seat order; if the table's are others (another
    process changed them first: its row is held, so the check and the write are one step), SeatsChanged."""
    await require_status(tx, table_id, ("lobby", "running"), "change seats")
    current = {
        r["player"]: r["id"]
        for r in await tx.fetch(
            "SELECT id, player FROM seats WHERE table_id = ? AND left_at IS NULL ORDER BY seat", table_id
        )
    }
    if expected is not None and list(current) != list(expected):
        raise SeatsChanged(table_id, list(expected), list(current))
    wanted = {s.player for s in players}
    # Free every current seat number first so players can swap seats past the unique index.
    await tx.execute("UPDATE seats SET seat = -1 - id WHERE table_id = ? AND left_at IS NULL", table_id)
    gone = [(now, seat_row) for player, seat_row in current.items() if player not in wanted]
    if gone:
        await tx.execute_many("UPDATE seats SET left_at = ? WHERE id = ?", gone)
    stay = [(s.seat, s.user_id, s.name, current[s.player]) for s in players if s.player in current]
    if stay:
        renamed = "display_name = COALESCE(?, display_name)"  # a seat's name where the caller knows one
        await tx.execute_many(f"UPDATE seats SET seat = ?, user_id = ?, {renamed} WHERE id = ?", stay)
    new = [(table_id, s.seat, s.player, s.user_id, now, s.name) for s in players if s.player not in current]
    if new:
        await tx.execute_many(SEATS.sql, new)


async def start(
    tx: Transaction, now: float, table_id: int, snapshot_json: str, meta: str | None, thread_id: int | None
) -> None:
    """Lobby -> running; with `thread_id`, the table moves into that thread (its channel kept as its home)."""
    await require_status(tx, table_id, ("lobby",), "start")
    await tx.execute(
        "UPDATE game_tables SET status = 'running', started_at = ?, snapshot = ?, meta = COALESCE(?, meta)"
        " WHERE id = ?",
        now,
        snapshot_json,
        meta,
        table_id,
    )
    if thread_id is not None:
        await tx.execute(
            "UPDATE game_tables SET home_channel_id = channel_id, channel_id = ? WHERE id = ?",
            thread_id,
            table_id,
        )


async def append(
    tx: Transaction,
    now: float,
    table_id: int,
    seq: int,
    actor: str | None,
    action_json: str,
    ledger: Sequence[LedgerIn],
    snapshot_json: str,
    finish: Sequence[ResultIn] | None,
    meta: str | None,
    season: str,
    rated: Rated | None = None,
    taken_over: Sequence[str] = (),
) -> int:
    row = await tx.one(
        f"SELECT status, guild_id, kind FROM game_tables WHERE id = ?{tx.dialect.row_lock}", table_id
    )
    if row is None:
        raise TableNotFound(table_id)
    if row["status"] != "running":
        # A stale writer hears of the conflict first, whatever happened to the table since.
        if (next_seq := await tx.value(_NEXT_SEQ, table_id)) != seq:
            raise SequenceConflict(table_id, seq, next_seq)
        raise TableStateError(table_id, row["status"], "record an action")
    guild, kind = row["guild_id"], row["kind"]
    last: tuple[str, tuple[Any, ...]] = (
        (_ONGOING, (snapshot_json, meta, table_id))
        if finish is None
        else (_FINISHED, (snapshot_json, meta, now, table_id))
    )
    rows = (
        (ACTIONS, [(table_id, seq, actor, action_json, now)]),
        (
            LEDGER,
            [
                (table_id, seq, guild, kind, e.from_account, e.to_account, e.amount, e.reason, now)
                for e in ledger
            ],
        ),
        # Sorted by (player, kind): every writer takes the balance rows' locks in one order (no deadlock).
        (BALANCES, [(guild, *c) for c in balance_changes(kind, ledger, finish)]),
        (
            RESULTS,
            [
                (table_id, r.player, guild, kind, r.final_chips, r.net, r.placement, r.won, now)
                for r in finish or ()
            ],
        ),
        (SEASON_BALANCES, [(guild, season, *c) for c in season_changes(kind, finish or ())]),
    )
    # The sequence read after the lock (on PostgreSQL in the batch's statement): it sees what the writer we
    # may have waited for committed.
    found = await tx.write(Batch(rows, *last, guard=Guard(_NEXT_SEQ, (table_id,), seq)))
    if found != seq:
        raise SequenceConflict(table_id, seq, found)
    if finish is not None and rated is not None:
        await rate(tx, now, season, table_id, guild, kind, rated)
    if finish is not None:  # the one fact a competition hears of its tables: "table N finished"
        await competitions.table_finished(tx, now, table_id, finish, taken_over)
    return seq


async def rate(
    tx: Transaction, now: float, season: str, table_id: int, guild: int, kind: str, rated: Rated
) -> None:
    """Rate a finished game among its people, in its finishing transaction: once (its rows in
    `rating_changes` are keyed by the table), each person's rating row locked from before it is read until
    the new one is committed, the rows taken in player order (two games finishing at once never deadlock)."""
    people = sorted(rated.ranks)
    if len(people) < 2:
        return
    if await tx.value("SELECT 1 FROM rating_changes WHERE table_id = ? LIMIT 1", table_id) is not None:
        return
    rows = ", ".join("(?, ?, ?, 0, 0, 0, 0)" for _ in people)
    found = await tx.fetch(_LOCK_RATINGS.format(rows=rows), *(v for p in people for v in (guild, kind, p)))
    held = {r["player"]: r for r in found}
    ask = [
        RatingIn(
            player=p,
            rank=rated.ranks[p],
            games=int(held[p]["games"]),
            mu=float(held[p]["mu"]) if held[p]["games"] else None,
            sigma=float(held[p]["sigma"]) if held[p]["games"] else None,
        )
        for p in people
    ]
    answers = list(rated.rate(ask))
    if len(answers) != len(ask):
        raise ValueError(f"the rater answered {len(answers)} ratings for {len(ask)} people")
    new = [(p, before, after, p.games + 1) for p, (before, after) in zip(ask, answers, strict=True)]
    await tx.execute_many(
        _SET_RATING, [(a.mu, a.sigma, a.score, games, guild, kind, p.player) for p, _b, a, games in new]
    )
    await tx.execute_many(
        RATING_CHANGES.sql,
        [
            (
                table_id,
                p.player,
                guild,
                kind,
                now,
                p.rank,
                b.mu,
                b.sigma,
                b.score,
                a.mu,
                a.sigma,
                a.score,
                games,
            )
            for p, b, a, games in new
        ],
    )
    await tx.execute_many(
        SEASON_RATINGS.sql, [(guild, season, kind, p.player, a.score, games, 1) for p, _b, a, games in new]
    )


async def close_unseated(tx: Transaction, now: float, table_id: int) -> bool:
    """Cancel a lobby that has no seat (only a database written before tables were opened with their seats
    in one transaction holds one) and free its competition's match for a new table. False: it has seats, or
    is no longer a lobby."""
    if (
        await tx.value(f"SELECT status FROM game_tables WHERE id = ?{tx.dialect.row_lock}", table_id)
        != "lobby"
    ):
        return False
    if await tx.value("SELECT 1 FROM seats WHERE table_id = ? LIMIT 1", table_id) is not None:
        return False
    await tx.execute(
        "UPDATE game_tables SET status = 'cancelled', finished_at = ? WHERE id = ?", now, table_id
    )
    await tx.execute("UPDATE competition_matches SET table_id = NULL WHERE table_id = ?", table_id)
    return True


async def replace_meta(tx: Transaction, table_id: int, seq: int, meta: str) -> None:
    """The session state, if the table's log still has `seq` actions (its row locked while it checks)."""
    if await tx.value(f"SELECT id FROM game_tables WHERE id = ?{tx.dialect.row_lock}", table_id) is None:
        raise TableNotFound(table_id)
    if (found := await tx.value(_NEXT_SEQ, table_id)) != seq:
        raise SequenceConflict(table_id, seq, found)
    await tx.execute("UPDATE game_tables SET meta = ? WHERE id = ?", meta, table_id)


async def cancel(tx: Transaction, now: float, table_id: int) -> None:
    status = await require_status(tx, table_id, ("lobby", "running"), "cancel")
    played = await tx.value("SELECT 1 FROM actions WHERE table_id = ? LIMIT 1", table_id)
    if status == "running" and played is not None:
        raise TableStateError(table_id, "running with actions played", "cancel (end the game)")
    await tx.execute(
        "UPDATE game_tables SET status = 'cancelled', finished_at = ? WHERE id = ?", now, table_id
    )
