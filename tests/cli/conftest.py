"""Fixtures of the command-line tests: the real bot against the local fake Discord (tests/e2e/harness.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

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
