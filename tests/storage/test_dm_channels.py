"""Each person's DM channel with the bot, remembered across restarts on both backends: after a restart a
hand is one request to Discord, not two."""

from __future__ import annotations

from storage import open_store
from tests.storage.conftest import ticking_clock


async def test_nobody_has_a_dm_channel_at_first(store):
    assert await store.dm_channels() == {}


async def test_channels_are_kept_per_person_and_a_newer_one_replaces_the_old(store):
    await store.remember_dm_channel(11, 9011)
    await store.remember_dm_channel(12, 9012)
    await store.remember_dm_channel(11, 9111)
    assert await store.dm_channels() == {11: 9111, 12: 9012}


async def test_the_channels_survive_a_restart(database):
    first = await open_store(database, clock=ticking_clock())
    await first.remember_dm_channel(1_577_000_000_000_000_001, 1_577_000_000_000_000_002)
    await first.close()
    again = await open_store(database, clock=ticking_clock())
    try:
        assert await again.dm_channels() == {1_577_000_000_000_000_001: 1_577_000_000_000_000_002}
    finally:
        await again.close()
