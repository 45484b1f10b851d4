"""While the bot stops, a new command gets one sentence and changes nothing (real bot, fake Discord)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.client import STOPPING_TEXT
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import Harness


@pytest.fixture
async def harness(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[Harness]:
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    h = Harness(fake, tmp_path)
    try:
        await h.start_bot()
        yield h
    finally:
        await h.close()
        await fake.stop()
    assert h.problems() == []


async def test_a_command_during_the_stop_is_refused_with_one_sentence(harness: Harness) -> None:
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=harness.fake.bot_user)
    table = await harness.store.last_table(harness.fake.channel("games").id)
    before = len(await harness.store.actions(table.id))
    harness.bot.stopping = True  # the first thing stop() does, before it waits for running commands
    reply = await alice.slash("malice end")
    assert reply.ephemeral and reply.text == STOPPING_TEXT
    assert await alice.autocomplete("malice play", "card") == []
    assert len(await harness.store.actions(table.id)) == before


async def test_stop_closes_the_store_after_the_running_commands(harness: Harness) -> None:
    bot = harness.bot
    await bot.stop()
    assert bot.is_closed() and "store" not in bot.__dict__
    assert not Path(f"{harness.settings.database_path}-wal").exists()  # checkpointed and removed on close
