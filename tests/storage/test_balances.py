"""Balances are kept, not summed: after random ledger sequences and random finishes, written concurrently over
many tables, guilds and both game kinds, every balance the leaderboard and the stats read equals what the
store's own ledger and results add up to."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict

from storage import LedgerIn, ResultIn, Store
from storage.common import is_person

from .conftest import GUILD, running_table

PEOPLE = [str(200 + i) for i in range(9)]
ACCOUNTS = [*PEOPLE, "ai:1", "ai:2", "@pot"]
GUILDS = [GUILD, GUILD + 1]
TABLES = 14
ROUNDS = 12


def random_moves(rng: random.Random, seated: list[str]) -> list[LedgerIn]:
    moves = []
    for _ in range(rng.choice([0, 1, 1, 2, 3, 4])):
        src, dst = rng.sample([*seated, "@pot"], 2)
        moves.append(LedgerIn(from_account=src, to_account=dst, amount=rng.randint(1, 40), reason="bid"))
    return moves


def random_results(rng: random.Random, seated: list[str]) -> list[ResultIn]:
    order = rng.sample(seated, len(seated))
    return [
        ResultIn(
            player=p, net=rng.randint(-30, 30), placement=i + 1, won=i == 0, final_chips=rng.randint(0, 50)
        )
        for i, p in enumerate(order)
    ]


def expected_balances(tables, ledgers, results) -> dict[tuple[int, str, str], list]:
    """(guild, player, kind) -> [net, games, wins, biggest_win], from the stored ledger and results; kind None
    is the player over all kinds."""
    out: dict[tuple[int, str, str | None], list] = defaultdict(lambda: [0, 0, 0, None])
    for (guild, kind), ledger, result in zip(tables, ledgers, results, strict=True):
        for k in (kind, None):
            for e in ledger:
                out[(guild, e.to_account, k)][0] += e.amount
                out[(guild, e.from_account, k)][0] -= e.amount
            for r in result:
                row = out[(guild, r.player, k)]
                row[1] += 1
                row[2] += r.won
                if r.net > 0:
                    row[3] = max(row[3] or 0, r.net)
    return {key: v for key, v in out.items() if is_person(key[1])}


async def test_balances_equal_the_sums_of_the_ledger_and_the_results(store: Store):
    rng = random.Random("balances")
    tables, ids = [], []
    for n in range(TABLES):
        kind, guild = rng.choice(["insomnia", "malice"]), rng.choice(GUILDS)
        seated = rng.sample([*PEOPLE, "ai:1", "ai:2"], rng.randint(2, 5))
        seated = [p for p in seated if is_person(p)] or [PEOPLE[n % len(PEOPLE)]]
        seated += [a for a in ("ai:1", "ai:2") if rng.random() < 0.3]
        ids.append(await running_table(store, 7000 + n, seated, kind=kind, guild=guild))
        tables.append([ids[-1], seated, 0])

    async def step(t: list) -> None:
        table_id, seated, seq = t
        finish = random_results(rng, seated) if rng.random() < 0.08 else None
        await store.append_action(table_id, seq, None, "{}", random_moves(rng, seated), "{}", finish)
        t[2] += 1
        if finish:
            tables.remove(t)

    for _ in range(ROUNDS):
        # Every live table moves at once: on PostgreSQL these are concurrent transactions touching the same
        # players' balance rows (the fixed lock order keeps them from deadlocking).
        await asyncio.gather(*(step(t) for t in list(tables)))

    rows = [await store.get_table(i) for i in ids]
    keys = [(r.guild_id, r.kind) for r in rows]
    ledgers = [await store.ledger(r.id) for r in rows]
    results = [await store.results(r.id) for r in rows]
    assert any(results) and sum(map(len, ledgers)) > 50, (
        "the random sequences should finish games and move chips"
    )
    expected = expected_balances(keys, ledgers, results)

    for guild in GUILDS:
        for kind in (None, "insomnia", "malice"):
            board = await store.leaderboard(guild, kind, limit=1000)
            want = {p: v for (g, p, k), v in expected.items() if g == guild and k == kind}
            assert {r.player: [r.net, r.games, r.wins] for r in board} == {p: v[:3] for p, v in want.items()}
            order = [(-r.net, -r.wins, r.games, r.player) for r in board]
            assert order == sorted(order)
        for player in PEOPLE:
            stats = await store.player_stats(guild, player)
            overall = expected.get((guild, player, None), [0, 0, 0, None])
            assert [stats.net, stats.games, stats.wins, stats.biggest_win] == overall
            per_kind = {k: v for (g, p, k), v in expected.items() if g == guild and p == player and k}
            assert {k: [s.net, s.games, s.wins, s.biggest_win] for k, s in stats.per_game.items()} == per_kind
