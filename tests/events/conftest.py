"""What the competitions' tests share: a tournament service over a real store, its runner started."""

from __future__ import annotations

import pytest

from bot.events.runner import Runner
from bot.events.service import Tournaments
from tests.test_sessions import manager


@pytest.fixture
async def events(store, announcer):
    sessions = await manager(store, announcer)
    runner = Runner(store, sessions)
    runner.start()
    yield Tournaments(store, sessions, runner)
    await runner.close()
    await sessions.close(flush=0)
