"""Fixtures: a Store on a real SQLite file in a temporary folder, with a deterministic clock."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable

import pytest

from storage import LedgerIn, SeatIn, Store

GUILD = 1000


def ticking_clock(start: float = 1_700_000_000.0) -> Callable[[], float]:
    """Each call is one second later: times are deterministic and strictly increasing."""
    counter = itertools.count()
    return lambda: start + next(counter)


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "cardtable.sqlite3")


@pytest.fixture
async def store(db_path) -> AsyncIterator[Store]:
    s = await Store.open(db_path, clock=ticking_clock())
    try:
        yield s
    finally:
        await s.close()


async def running_table(
    store: Store,
    channel: int,
    players: list[str],
    kind: str = "insomnia",
    guild: int = GUILD,
) -> int:
    """A started table with those players seated (user ids for people, None for `ai:` seats)."""
    table = await store.create_table(
        guild, channel, kind, 1, {"chips": 100}, f"seed-{channel}", f"c-{channel}"
    )
    await store.set_seats(
        table,
        [
            SeatIn(seat=i, player=p, user_id=None if p.startswith("ai:") else int(p))
            for i, p in enumerate(players)
        ],
    )
    await store.start_table(table, '{"start": true}')
    return table


def move(src: str, dst: str, amount: int, reason: str = "bid") -> LedgerIn:
    return LedgerIn(from_account=src, to_account=dst, amount=amount, reason=reason)
