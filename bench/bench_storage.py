"""Storage benchmark, per backend: run `python bench/bench_storage.py [--write]` from the repository root.

1. Writes: actions per second through `Store.append_action` (the checks, the balances, one transaction)
   against bare driver inserts of the same rows (the action, 3 ledger rows, 4 balance upserts, the snapshot
   update; one transaction per action, no checks) into the same schema, measured alternately in the same run.
2. Reads: the leaderboard all-time and for a season, by chips and by rating (and a player's stats, his
   rating history and a head-to-head record) through the Store with 100,000 and 1,000,000 ledger entries
   in one guild, seeded with bulk inserts straight into the tables (with the balances, season rows and
   ratings they add up to; the games' ends spread over twelve months).
With `--baseline REV` (say `--baseline main`), the store's writes are also measured at git revision REV, in a
process of its own running that revision's `storage` package, alternating with the others: the figures before
and after a change to the store, from one run.
PostgreSQL: the server of TEST_DATABASE_URL, else a throwaway one (tests/pg.py: fsync off, as SQLite's
`synchronous=NORMAL` in WAL mode does not sync a commit either). Figures are printed; nothing is asserted;
`--write` puts them in the "storage" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

# A baseline's process (`--baseline`) imports the store from that revision's files (BENCH_CODE).
sys.path.insert(0, os.environ.get("BENCH_CODE") or str(Path(__file__).resolve().parent.parent))

import asyncpg
from pydantic import BaseModel

from bench.report import write_section
from storage import LedgerIn, SeatIn, Store, open_store
from storage.common import balance_changes, season_of
from storage.writes import BALANCES, RATING_CHANGES, SEASON_BALANCES
from tests import pg

ROOT = Path(__file__).resolve().parent.parent
GUILD = 1
PLAYERS = [str(10**17 + i) for i in range(4)]
SNAPSHOT = json.dumps({"seed": "x" * 32, "hands": {p: ["AS", "KH", "QD", "JC", "TS"] * 8 for p in PLAYERS}})
ACTION = '{"kind":"bid","amount":5}'
UPSERT_BALANCE = BALANCES.sql  # the store's own upsert, one row
PG_UPSERT_BALANCE = (
    "INSERT INTO balances (guild_id, player, kind, net, games, wins, biggest_win)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7)"
    " ON CONFLICT (guild_id, player, kind) DO UPDATE SET net = balances.net + EXCLUDED.net,"
    " games = balances.games + EXCLUDED.games, wins = balances.wins + EXCLUDED.wins,"
    " biggest_win = GREATEST(balances.biggest_win, EXCLUDED.biggest_win)"
)


class Options(BaseModel):
    chips: int = 100


def ledger_for(seq: int) -> list[LedgerIn]:
    """Three movements per action, the shape of an Insomnia payout."""
    p, q = PLAYERS[seq % 4], PLAYERS[(seq + 1) % 4]
    return [
        LedgerIn(from_account=p, to_account="@pot", amount=5, reason="bid"),
        LedgerIn(from_account="@pot", to_account=q, amount=3, reason="pot_split"),
        LedgerIn(from_account="@pot", to_account=p, amount=2, reason="pot_split"),
    ]


def rows_for(table: int, seq: int, now: float) -> tuple[tuple, list[tuple], list[tuple]]:
    """The action, ledger and balance rows one action writes (what the bare inserts write by hand)."""
    ledger = ledger_for(seq)
    action = (table, seq, PLAYERS[seq % 4], ACTION, now)
    entries = [
        (table, seq, GUILD, "insomnia", e.from_account, e.to_account, e.amount, e.reason, now) for e in ledger
    ]
    balances = [(GUILD, *c) for c in balance_changes("insomnia", ledger, None)]
    return action, entries, balances


# ---- writes -----------------------------------------------------------------------------------------------


async def running_tables(store: Store, tables: int, first_channel: int) -> list[int]:
    ids = []
    for c in range(first_channel, first_channel + tables):
        table = await store.create_table(GUILD, c, "insomnia", 1, Options(), f"seed{c}", "c")
        await store.set_seats(
            table, [SeatIn(seat=i, player=p, user_id=int(p)) for i, p in enumerate(PLAYERS)]
        )
        await store.start_table(table, SNAPSHOT)
        ids.append(table)
    return ids


async def store_appends(store: Store, ids: list[int], n: int, first_seq: int) -> float:
    """Actions per second through the Store, round-robin over the running tables."""
    start = time.perf_counter()
    for i in range(n):
        seq = first_seq + i // len(ids)
        await store.append_action(ids[i % len(ids)], seq, PLAYERS[seq % 4], ACTION, ledger_for(seq), SNAPSHOT)
    return n / (time.perf_counter() - start)


def sqlite_bare_appends(path: str, ids: list[int], n: int, first_seq: int) -> float:
    """The same rows with plain sqlite3 on the event loop's thread, same PRAGMAs, one transaction each."""
    conn = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON"):
        conn.execute(f"PRAGMA {pragma}")
    start = time.perf_counter()
    for i in range(n):
        table, seq = ids[i % len(ids)], first_seq + i // len(ids)
        action, entries, balances = rows_for(table, seq, time.time())
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)", action
        )
        conn.executemany(
            "INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount, reason,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            entries,
        )
        conn.executemany(UPSERT_BALANCE, balances)
        conn.execute("UPDATE game_tables SET snapshot = ? WHERE id = ?", (SNAPSHOT, table))
        conn.execute("COMMIT")
    rate = n / (time.perf_counter() - start)
    conn.close()
    return rate


async def pg_bare_appends(url: str, ids: list[int], n: int, first_seq: int) -> float:
    """The same rows with plain asyncpg statements, one transaction each."""
    conn = await asyncpg.connect(url)
    try:
        start = time.perf_counter()
        for i in range(n):
            table, seq = ids[i % len(ids)], first_seq + i // len(ids)
            action, entries, balances = rows_for(table, seq, time.time())
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO actions (table_id, seq, actor, action, created_at)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    *action,
                )
                await conn.executemany(
                    "INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount,"
                    " reason, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    entries,
                )
                await conn.executemany(PG_UPSERT_BALANCE, balances)
                await conn.execute("UPDATE game_tables SET snapshot = $1 WHERE id = $2", SNAPSHOT, table)
        return n / (time.perf_counter() - start)
    finally:
        await conn.close()


def checkout(revision: str, into: str) -> str:
    """The files of `revision` (committed, as git has them) in a new folder under `into`."""
    folder = os.path.join(into, "baseline")
    os.mkdir(folder)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    return folder


async def baseline_appends(code: str, target: str, tables: int, n: int, first_channel: int) -> float:
    """Actions per second through the Store of the revision in `code`, in a process of its own: fresh running
    tables on `target`, `n` actions from sequence 0."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--baseline-round",
        target,
        str(tables),
        str(n),
        str(first_channel),
        env={**os.environ, "BENCH_CODE": code},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _err = await proc.communicate()
    if proc.returncode:
        raise SystemExit(f"the baseline's round failed ({proc.returncode})")
    return float(out.decode().split()[-1])


async def baseline_round(target: str, tables: int, n: int, first_channel: int) -> None:
    async with await open_store(target) as store:
        ids = await running_tables(store, tables, first_channel)
        print(await store_appends(store, ids, n, 0))


async def measure_writes(
    target: str, actions: int, tables: int, rounds: int, baseline: str | None
) -> tuple[float, float, float | None]:
    """Median store and bare rates over `rounds` alternating rounds on one database (and the store's at the
    baseline's revision, if given, on the same database)."""
    store_rates, bare_rates, baseline_rates = [], [], []
    async with await open_store(target) as store:
        ours = await running_tables(store, tables, 0)
        theirs = await running_tables(store, tables, 10_000)
        # Whole sweeps over the tables, so each round's sequence numbers start where the last one's ended.
        sweeps = max(1, actions // rounds // tables)
        per_round = sweeps * tables
        for r in range(rounds):
            first_seq = r * sweeps
            if target.startswith("postgres"):
                bare_rates.append(await pg_bare_appends(target, theirs, per_round, first_seq))
            else:
                bare_rates.append(
                    await asyncio.to_thread(sqlite_bare_appends, target, theirs, per_round, first_seq)
                )
            store_rates.append(await store_appends(store, ours, per_round, first_seq))
            if baseline is not None:
                first_channel = 20_000 + r * tables
                baseline_rates.append(
                    await baseline_appends(baseline, target, tables, per_round, first_channel)
                )
    before = statistics.median(baseline_rates) if baseline_rates else None
    return statistics.median(store_rates), statistics.median(bare_rates), before


# ---- reads ------------------------------------------------------------------------------------------------


TABLE_COLUMNS = [
    "id",
    "guild_id",
    "channel_id",
    "kind",
    "status",
    "options",
    "seed",
    "commitment",
    "host_id",
    "meta",
    "snapshot",
    "created_at",
    "started_at",
    "finished_at",
]
LEDGER_COLUMNS = [
    "table_id",
    "seq",
    "guild_id",
    "kind",
    "from_account",
    "to_account",
    "amount",
    "reason",
    "created_at",
]


MONTH = 30 * 86400.0
NOW = time.time()


def seed_rows(first_table: int, entries: int, people: list[str], seed: int, per_table: int = 20):
    """Finished tables of both kinds with their actions, ledger entries, results and ratings, and the balance,
    season and rating rows they make, as plain rows for bulk inserts. The games end over the last twelve
    months (the current season holds about a twelfth of them); the ratings are made up (the rater is not
    what is measured), each person's games in order."""
    rng = random.Random(seed)
    tables, actions, ledger, results, changes = [], [], [], [], []
    balances: dict[tuple[str, str], list] = defaultdict(lambda: [0, 0, 0, None])
    seasons: dict[tuple[str, str, str], list] = defaultdict(lambda: [0, 0, 0])
    ratings: dict[tuple[str, str], list] = {}
    season_ratings: dict[tuple[str, str, str], list] = {}
    count = entries // per_table
    for i, t in enumerate(range(first_table, first_table + count)):
        kind = "insomnia" if t % 3 else "malice"
        seated = [*rng.sample(people, 3), f"ai:{t % 5}"]
        ended = NOW - 12 * MONTH * (1 - (i + 1) / count)  # in order of their ends, the last one now
        season = season_of(ended)
        tables.append((t, GUILD, t, kind, "finished", "{}", "s", "c", 1, "{}", None, ended, ended, ended))
        net = dict.fromkeys(seated, 0)
        for seq in range(per_table):
            actions.append((t, seq, seated[seq % 4], ACTION, ended))
            a, b = rng.sample(seated, 2)
            amount = rng.randint(1, 50)
            net[a] -= amount
            net[b] += amount
            ledger.append((t, seq, GUILD, kind, a, b, amount, "bid", ended))
        ranked = sorted(seated, key=lambda p: -net[p])
        people_rank = 0
        for place, p in enumerate(ranked, 1):
            results.append((t, p, GUILD, kind, None, net[p], place, place == 1, ended))
            if p.startswith("ai:"):
                continue
            people_rank += 1
            for k in (kind, "*"):
                row = balances[(p, k)]
                row[0] += net[p]
                row[1] += 1
                row[2] += place == 1
                if net[p] > 0:
                    row[3] = max(row[3] or 0, net[p])
                in_season = seasons[(season, k, p)]
                in_season[0] += net[p]
                in_season[1] += 1
                in_season[2] += place == 1
            mu, sigma, score, games = ratings.get((kind, p), [25.0, 25 / 3, 1000.0, 0])
            after = [mu + (2 - people_rank) * 0.5, max(1.0, sigma * 0.97), 0.0, games + 1]
            after[2] = 1000 + 20 * (after[0] - 3 * after[1])
            ratings[(kind, p)] = after
            changes.append((t, p, GUILD, kind, ended, people_rank, mu, sigma, score, *after))
            played = season_ratings.get((season, kind, p), [0.0, 0, 0])[2]
            season_ratings[(season, kind, p)] = [after[2], after[3], played + 1]
    return tables, actions, ledger, results, changes, balances, seasons, ratings, season_ratings


def plain_rows(rows) -> dict[str, list[tuple]]:
    """The upserted rows of a seed, by table: the totals it adds (the seeds are disjoint in tables, and the
    rating rows of a later seed replace the earlier ones')."""
    _t, _a, _l, _r, _c, balances, seasons, ratings, season_ratings = rows
    return {
        "balances": [(GUILD, p, k, *v) for (p, k), v in balances.items()],
        "season_balances": [(GUILD, s, k, p, *v) for (s, k, p), v in seasons.items()],
        "ratings": [(GUILD, k, p, *v) for (k, p), v in ratings.items()],
        "season_ratings": [(GUILD, s, k, p, *v) for (s, k, p), v in season_ratings.items()],
    }


RATINGS_UPSERT = (
    "INSERT INTO ratings (guild_id, kind, player, mu, sigma, score, games) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, kind, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " score = excluded.score, games = excluded.games"
)
SEASON_RATINGS_UPSERT = (
    "INSERT INTO season_ratings (guild_id, season, kind, player, score, games, played)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, season, kind, player) DO UPDATE SET"
    " score = excluded.score, games = excluded.games, played = season_ratings.played + excluded.played"
)
UPSERTS = {
    "balances": UPSERT_BALANCE,
    "season_balances": SEASON_BALANCES.sql,
    "ratings": RATINGS_UPSERT,
    "season_ratings": SEASON_RATINGS_UPSERT,
}


def numbered(sql: str) -> str:
    n = iter(range(1, 100))
    return "".join(f"${next(n)}" if ch == "?" else ch for ch in sql)


async def add_seed(target: str, rows) -> None:
    tables, actions, ledger, results, changes = rows[:5]
    upserts = plain_rows(rows)
    if target.startswith("postgres"):
        conn = await asyncpg.connect(target)
        try:
            async with conn.transaction():
                await conn.copy_records_to_table("game_tables", records=tables, columns=TABLE_COLUMNS)
                await conn.copy_records_to_table("actions", records=actions)
                await conn.copy_records_to_table("ledger", records=ledger, columns=LEDGER_COLUMNS)
                await conn.copy_records_to_table("results", records=results)
                await conn.copy_records_to_table("rating_changes", records=changes)
                await conn.executemany(PG_UPSERT_BALANCE, upserts.pop("balances"))
                for table, rows_of in upserts.items():
                    await conn.executemany(numbered(UPSERTS[table]), rows_of)
            await conn.execute("ANALYZE")
        finally:
            await conn.close()
        return

    def insert() -> None:
        conn = sqlite3.connect(target, isolation_level=None)
        conn.execute("BEGIN")
        marks = ", ".join("?" * len(TABLE_COLUMNS))
        conn.executemany(f"INSERT INTO game_tables ({', '.join(TABLE_COLUMNS)}) VALUES ({marks})", tables)
        conn.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", actions)
        marks = ", ".join("?" * len(LEDGER_COLUMNS))
        conn.executemany(f"INSERT INTO ledger ({', '.join(LEDGER_COLUMNS)}) VALUES ({marks})", ledger)
        conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", results)
        conn.executemany(RATING_CHANGES.sql, changes)
        for table, rows_of in upserts.items():
            conn.executemany(UPSERTS[table], rows_of)
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
        conn.close()

    await asyncio.to_thread(insert)


async def time_queries(target: str, repeats: int) -> dict[str, float]:
    """Median milliseconds per query through the Store."""
    out: dict[str, float] = {}
    async with await open_store(target) as store:
        someone = (await store.leaderboard(GUILD, limit=1))[0].player
        other = (await store.leaderboard(GUILD, limit=1, offset=1))[0].player
        season = season_of(NOW)
        queries = {
            "leaderboard (overall, top 10)": lambda: store.leaderboard(GUILD),
            "leaderboard (insomnia, page 5)": lambda: store.leaderboard(GUILD, kind="insomnia", offset=40),
            "leaderboard by chips (season, top 10)": lambda: store.leaderboard(GUILD, season=season),
            "leaderboard by chips (insomnia, season, page 5)": lambda: store.leaderboard(
                GUILD, kind="insomnia", offset=40, season=season
            ),
            "leaderboard by rating (insomnia, top 10)": lambda: store.rating_leaderboard(GUILD, "insomnia"),
            "leaderboard by rating (insomnia, season, top 10)": lambda: store.rating_leaderboard(
                GUILD, "insomnia", season=season
            ),
            "leaderboard by rating (malice, season, page 5)": lambda: store.rating_leaderboard(
                GUILD, "malice", offset=40, season=season
            ),
            "player_stats": lambda: store.player_stats(GUILD, someone),
            "player_ratings": lambda: store.player_ratings(GUILD, someone),
            "rating_history (a season)": lambda: store.rating_history(GUILD, someone, since=NOW - MONTH),
            "head_to_head": lambda: store.head_to_head(GUILD, someone, other),
        }
        for name, query in queries.items():
            await query()  # warm the cache
            samples = []
            for _ in range(repeats):
                start = time.perf_counter()
                await query()
                samples.append((time.perf_counter() - start) * 1000)
            out[name] = statistics.median(samples)
    return out


async def ledger_size(target: str) -> int:
    if target.startswith("postgres"):
        conn = await asyncpg.connect(target)
        try:
            return await conn.fetchval("SELECT COUNT(*) FROM ledger")
        finally:
            await conn.close()
    with sqlite3.connect(target) as conn:
        return conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0]


async def measure_reads(
    target: str, sizes: list[int], players: int, repeats: int
) -> dict[int, dict[str, float]]:
    people = [str(10**17 + i) for i in range(players)]
    await (await open_store(target)).close()  # the schema, by the same migrations
    out, have, next_table = {}, 0, 1
    for size in sizes:
        rows = seed_rows(next_table, size - have, people, seed=size)
        next_table += (size - have) // 20
        await add_seed(target, rows)
        have = await ledger_size(target)
        out[have] = await time_queries(target, repeats)
    return out


# ---- main -------------------------------------------------------------------------------------------------


class Postgres:
    """TEST_DATABASE_URL's server or a throwaway one; fresh databases on it."""

    def __init__(self) -> None:
        self.server = None
        self.admin = os.environ.get(pg.ENV_URL)

    def __enter__(self) -> Postgres:
        if not self.admin:
            bin_dir = pg.find_bin_dir()
            if bin_dir is None:
                raise SystemExit("no PostgreSQL: set TEST_DATABASE_URL or install the postgresql package")
            self.server = pg.ThrowawayServer.start(bin_dir)
            self.admin = self.server.url
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            self.server.stop()

    async def database(self) -> str:
        return await pg.create_database(self.admin)

    async def describe(self) -> str:
        conn = await asyncpg.connect(self.admin)
        try:
            version = await conn.fetchval("SHOW server_version")
            fsync = await conn.fetchval("SHOW fsync")
        finally:
            await conn.close()
        where = "a throwaway server on 127.0.0.1" if self.server else "the server of TEST_DATABASE_URL"
        return f"PostgreSQL {version.split()[0]} ({where}, fsync {fsync}), asyncpg {asyncpg.__version__}"


async def run_backend(name: str, args, tmp: str, postgres: Postgres | None, baseline: str | None) -> dict:
    async def target(label: str) -> str:
        return await postgres.database() if postgres else os.path.join(tmp, f"{label}.sqlite3")

    server = (
        await postgres.describe() if postgres else f"SQLite {sqlite3.sqlite_version}, WAL, synchronous=NORMAL"
    )
    store_rate, bare_rate, before = await measure_writes(
        await target("writes"), args.actions, args.tables, args.rounds, baseline
    )
    reads = await measure_reads(await target("reads"), args.sizes, args.players, args.repeats)
    return {"store": store_rate, "bare": bare_rate, "before": before, "reads": reads, "server": server}


def markdown(results: dict, args) -> str:
    lines = [
        f"**Writes.** {args.actions} actions per backend, round-robin over {args.tables} running tables, "
        "each one transaction holding the action row, 3 ledger rows, 4 balance upserts (2 people, their kind "
        f"and all kinds) and a ~{len(SNAPSHOT)} B snapshot update; `Store.append_action` (sequence and "
        "status checks, the table row locked on PostgreSQL) against bare driver inserts of the same rows (no "
        "checks: sqlite3 called directly, asyncpg statement by statement), alternating "
        f"{args.rounds} rounds in the same run"
        + (
            f" (and the store of revision `{args.baseline}` ({args.baseline_commit}) in a process of its own)"
            if args.baseline
            else ""
        )
        + ", medians:",
        "",
    ]
    if args.baseline:
        lines += [
            f"| backend | `Store.append_action` actions/s | at `{args.baseline}` actions/s | ratio now / then"
            " | bare driver actions/s | ratio store / bare |",
            "|---|---|---|---|---|---|",
        ]
    else:
        lines += [
            "| backend | `Store.append_action` actions/s | bare driver actions/s | ratio store / bare |",
            "|---|---|---|---|",
        ]
    for backend, r in results.items():
        then = f" {r['before']:,.0f} | **{r['store'] / r['before']:.2f}** |" if args.baseline else ""
        lines.append(
            f"| {backend} | {r['store']:,.0f} |{then} {r['bare']:,.0f} | **{r['store'] / r['bare']:.2f}** |"
        )
    lines += [
        "",
        f"**Reads.** Ledger entries in one guild (finished tables of 20 actions, {args.players} people plus "
        "computer seats, both kinds, the games' ends spread over twelve months), seeded by bulk inserts with "
        "their balances, season rows, ratings and rating changes; a season is the current month; median ms "
        f"of {args.repeats} calls through the `Store`:",
        "",
    ]
    sizes = sorted({n for r in results.values() for n in r["reads"]})
    lines.append("| backend | query | " + " | ".join(f"{n:,} entries" for n in sizes) + " |")
    lines.append("|---|---|" + "---|" * len(sizes))
    for backend, r in results.items():
        names = next(iter(r["reads"].values())).keys()
        for q in names:
            cells = " | ".join(f"{r['reads'][n][q]:.2f}" for n in sizes)
            lines.append(f"| {backend} | {q} | {cells} |")
    lines += ["", NOTES, "", "Databases: " + "; ".join(r["server"] for r in results.values()) + "."]
    return "\n".join(lines)


NOTES = """Where the write time goes: on SQLite the store talks through aiosqlite, where every statement is a
round trip between the event loop and the connection's thread (tens of microseconds, more on a loaded
machine). A move sends seven: BEGIN IMMEDIATE, the table's status, the action with the sequence check in its
own INSERT (`INSERT ... SELECT ... WHERE (check) IS ? RETURNING`), the ledger rows and the balance rows each
as one multi-row INSERT, the table row, COMMIT. (The first store on aiosqlite sent a statement per row and
ran at 0.14 - 0.41 of bare sqlite3; the one before this, a hand-made thread running each transaction whole in
one hop, is what `--baseline` measures when given its revision.) On PostgreSQL a move is four round trips
(BEGIN, the row lock, one statement that checks the sequence and writes the action, ledger, balances, results
and table row, COMMIT) where the bare inserts take six. The leaderboard and stats read the balance rows kept
in each move's transaction (an index in leaderboard order), so their cost does not grow with the ledger;
before, the leaderboard summed the ledger on every call (60 - 66 ms at 100,000 entries on SQLite). A season's
leaderboards and the ratings read rows kept the same way, in the transaction that finishes a game
(`season_balances`, `season_ratings`, `ratings`, each with an index in its leaderboard's order): a season by
chips or by rating costs what the all-time board costs, whatever the ledger's size."""


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument("--actions", type=int, default=3000, help="actions per write measurement")
    parser.add_argument("--tables", type=int, default=20, help="running tables the actions go round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating store/bare rounds")
    parser.add_argument("--sizes", default="100000,1000000", help="ledger sizes for the reads")
    parser.add_argument("--players", type=int, default=500, help="people in the guild for the leaderboard")
    parser.add_argument("--repeats", type=int, default=15, help="timed runs per query (median printed)")
    parser.add_argument("--baseline", metavar="REV", help="also the store's writes at git revision REV")
    parser.add_argument("--write", action="store_true", help="write the figures to docs/benchmarks.md")
    if sys.argv[1:2] == ["--baseline-round"]:  # a baseline's process (see baseline_appends)
        target, tables, n, first_channel = sys.argv[2:]
        await baseline_round(target, int(tables), int(n), int(first_channel))
        return
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    backends = args.backends.split(",")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        baseline = None
        if args.baseline:
            args.baseline_commit = subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            baseline = checkout(args.baseline, tmp)
        if "sqlite" in backends:
            results["SQLite"] = await run_backend("sqlite", args, tmp, None, baseline)
        if "postgres" in backends:
            with Postgres() as postgres:
                results["PostgreSQL"] = await run_backend("postgres", args, tmp, postgres, baseline)
    text = markdown(results, args)
    print(text)
    if args.write:
        write_section("storage", text)


if __name__ == "__main__":
    asyncio.run(main())
