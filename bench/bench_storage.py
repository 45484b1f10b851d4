"""Storage benchmark: run `python bench/bench_storage.py` from the repository root.

1. Action-plus-ledger transactions per second through `Store.append_action` (aiosqlite, the write lock, the
   sequence check, BEGIN IMMEDIATE) against bare `sqlite3` inserts of the same rows into the same schema, one
   transaction per action, measured in the same run.
2. The leaderboard query (and a player's stats) with 100,000 ledger entries in one guild.
Figures are printed; nothing is asserted. `--write` also puts them in docs/benchmarks.md (section "storage").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import machine, write_section
from storage import LedgerIn, ResultIn, SeatIn, Store

GUILD = 1
PLAYERS = [str(10**17 + i) for i in range(4)]
SNAPSHOT = json.dumps({"seed": "x" * 32, "hands": {p: ["AS", "KH", "QD", "JC", "TS"] * 8 for p in PLAYERS}})
ACTION = '{"kind":"bid","amount":5}'


def ledger_for(seq: int) -> list[LedgerIn]:
    """Three movements per action, the shape of an Insomnia payout."""
    p, q = PLAYERS[seq % 4], PLAYERS[(seq + 1) % 4]
    return [
        LedgerIn(from_account=p, to_account="@pot", amount=5, reason="bid"),
        LedgerIn(from_account="@pot", to_account=q, amount=3, reason="pot_split"),
        LedgerIn(from_account="@pot", to_account=p, amount=2, reason="pot_split"),
    ]


async def new_running_table(store: Store, channel: int, kind: str = "insomnia") -> int:
    table = await store.create_table(GUILD, channel, kind, 1, {"chips": 100}, f"seed{channel}", "c")
    await store.set_seats(table, [SeatIn(seat=i, player=p, user_id=int(p)) for i, p in enumerate(PLAYERS)])
    await store.start_table(table, SNAPSHOT)
    return table


async def store_appends(path: str, n: int, tables: int) -> float:
    """Actions per second through the Store, round-robin over `tables` running tables."""
    async with await Store.open(path) as store:
        ids = [await new_running_table(store, c) for c in range(tables)]
        start = time.perf_counter()
        for i in range(n):
            seq = i // tables
            await store.append_action(
                ids[i % tables], seq, PLAYERS[seq % 4], ACTION, ledger_for(seq), SNAPSHOT
            )
        return n / (time.perf_counter() - start)


def bare_appends(path: str, n: int, tables: int) -> float:
    """The same rows with plain sqlite3, same PRAGMAs and schema, one transaction per action, no checks."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    ids = []
    for c in range(tables):
        cur = conn.execute(
            "INSERT INTO game_tables (guild_id, channel_id, kind, status, options, seed, commitment, host_id,"
            " created_at, snapshot) VALUES (?, ?, 'insomnia', 'running', '{}', 's', 'c', 1, ?, ?)",
            (GUILD, 10_000 + c, time.time(), SNAPSHOT),
        )
        ids.append(cur.lastrowid)
    start = time.perf_counter()
    for i in range(n):
        table, seq = ids[i % tables], i // tables
        now = time.time()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
            (table, seq, PLAYERS[seq % 4], ACTION, now),
        )
        conn.executemany(
            "INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount, reason,"
            " created_at) VALUES (?, ?, ?, 'insomnia', ?, ?, ?, ?, ?)",
            [
                (table, seq, GUILD, e.from_account, e.to_account, e.amount, e.reason, now)
                for e in ledger_for(seq)
            ],
        )
        conn.execute("UPDATE game_tables SET snapshot = ? WHERE id = ?", (SNAPSHOT, table))
        conn.execute("COMMIT")
    rate = n / (time.perf_counter() - start)
    conn.close()
    return rate


def fill_ledger(path: str, entries: int, players: int, per_table: int = 20) -> None:
    """`entries` ledger rows in one guild over `players` people (plus computer seats), in finished tables of
    both kinds with their results, written directly (the fill is setup, not what is measured)."""
    rng = random.Random(7)
    people = [str(10**17 + i) for i in range(players)]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    now = time.time()
    for t in range(entries // per_table):
        kind = "insomnia" if t % 3 else "malice"
        seated = [*rng.sample(people, 3), f"ai:{t % 5}"]
        table = conn.execute(
            "INSERT INTO game_tables (guild_id, channel_id, kind, status, options, seed, commitment, host_id,"
            " created_at, finished_at) VALUES (?, ?, ?, 'finished', '{}', 's', 'c', 1, ?, ?)",
            (GUILD, t, kind, now, now),
        ).lastrowid
        net = dict.fromkeys(seated, 0)
        for seq in range(per_table):
            conn.execute(
                "INSERT INTO actions (table_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (table, seq, seated[seq % 4], ACTION, now),
            )
            a, b = rng.sample(seated, 2)
            amount = rng.randint(1, 50)
            net[a] -= amount
            net[b] += amount
            conn.execute(
                "INSERT INTO ledger (table_id, seq, guild_id, kind, from_account, to_account, amount, reason,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'bid', ?)",
                (table, seq, GUILD, kind, a, b, amount, now),
            )
        ranked = sorted(seated, key=lambda p: -net[p])
        for place, p in enumerate(ranked, 1):
            r = ResultIn(player=p, net=net[p], placement=place, won=place == 1)
            conn.execute(
                "INSERT INTO results (table_id, player, guild_id, kind, final_chips, net, placement, won)"
                " VALUES (?, ?, ?, ?, NULL, ?, ?, ?)",
                (table, r.player, GUILD, kind, r.net, r.placement, int(r.won)),
            )
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


async def time_queries(path: str, repeats: int) -> dict[str, float]:
    """Median milliseconds per query through the Store."""
    out: dict[str, float] = {}
    async with await Store.open(path) as store:
        someone = (await store.leaderboard(GUILD, limit=1))[0].player
        queries = {
            "leaderboard (overall, top 10)": lambda: store.leaderboard(GUILD),
            "leaderboard (insomnia, page 5)": lambda: store.leaderboard(GUILD, kind="insomnia", offset=40),
            "player_stats": lambda: store.player_stats(GUILD, someone),
        }
        for name, query in queries.items():
            await query()  # warm the page cache
            samples = []
            for _ in range(repeats):
                start = time.perf_counter()
                await query()
                samples.append((time.perf_counter() - start) * 1000)
            out[name] = statistics.median(samples)
    return out


def markdown(args: argparse.Namespace, store: float, bare: float, queries: dict[str, float]) -> str:
    """The section of docs/benchmarks.md: the figures of this run and what they measure."""
    lines = [
        "## Storage",
        "",
        f"**Writes.** {args.actions} actions, each one transaction holding the action row, 3 ledger rows "
        f"and a ~{len(SNAPSHOT)} B snapshot update, round-robin over {args.tables} running tables, both ways "
        "in the same run on fresh files with the same schema and PRAGMAs (WAL, `synchronous=NORMAL`):",
        "",
        "| path | actions/s |",
        "|---|---|",
        f"| `Store.append_action` (aiosqlite, write lock, `BEGIN IMMEDIATE`, sequence and status checks) "
        f"| {store:,.0f} |",
        f"| bare `sqlite3` inserts of the same rows, one transaction per action, no checks | {bare:,.0f} |",
        f"| ratio store / bare | {store / bare:.2f} |",
        "",
        "Each statement of the store is a round trip to aiosqlite's worker thread (BEGIN, the sequence "
        "and status read, the inserts, the snapshot update, COMMIT); a Discord channel produces a few "
        "actions per second.",
        "",
        f"**Reads.** {args.entries:,} ledger entries in one guild ({args.players} people plus computer "
        f"seats, finished tables of both kinds), median of {args.repeats} runs through the `Store`:",
        "",
        "| query | ms |",
        "|---|---|",
        *(f"| {name} | {ms:.1f} |" for name, ms in queries.items()),
        "",
        "The leaderboard is computed from the ledger on every call (no cached balance), from the covering "
        "indexes `ledger_in` and `ledger_out` alone.",
    ]
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000, help="actions per write measurement")
    parser.add_argument("--tables", type=int, default=20, help="running tables the actions go round")
    parser.add_argument("--entries", type=int, default=100_000, help="ledger entries for the leaderboard")
    parser.add_argument("--players", type=int, default=500, help="people in the guild for the leaderboard")
    parser.add_argument("--repeats", type=int, default=15, help="timed runs per query (median printed)")
    parser.add_argument("--write", action="store_true", help="also write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        store_path, bare_path, board_path = (
            os.path.join(tmp, f"{n}.sqlite3") for n in ("store", "bare", "board")
        )
        for path in (bare_path, board_path):
            async with await Store.open(path):  # the same schema, by the same migrations
                pass
        # Alternate the two measurements so neither gets a warmer disk cache on its own.
        bare = bare_appends(bare_path, args.actions, args.tables)
        store = await store_appends(store_path, args.actions, args.tables)
        print(f"writes: {args.actions} actions x (1 action + 3 ledger rows + ~{len(SNAPSHOT)} B snapshot)")
        print(f"  Store.append_action : {store:9.0f} actions/s")
        print(f"  bare sqlite3        : {bare:9.0f} actions/s")
        print(f"  ratio store/bare    : {store / bare:9.2f}")
        start = time.perf_counter()
        fill_ledger(board_path, args.entries, args.players)
        filled = time.perf_counter() - start
        print(f"reads: {args.entries} ledger entries, {args.players} people (filled in {filled:.1f} s)")
        queries = await time_queries(board_path, args.repeats)
        for name, ms in queries.items():
            print(f"  {name:32s}: {ms:7.1f} ms (median of {args.repeats})")
    if args.write:
        write_section("storage", markdown(args, store, bare, queries))


if __name__ == "__main__":
    asyncio.run(main())
