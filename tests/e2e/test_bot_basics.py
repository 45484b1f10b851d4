"""The real bot against the fake Discord: start, sync, answer; clean failures."""

from __future__ import annotations

from tests.e2e.harness import Harness


async def test_bot_starts_syncs_and_identifies_without_privileged_intents(harness: Harness) -> None:
    fake = harness.fake
    assert harness.bot is not None and harness.bot.is_ready()
    assert fake.identifies and fake.identifies[-1]["intents"] & ((1 << 1) | (1 << 8) | (1 << 15)) == 0
    assert fake.calls("PUT /applications/{application_id}/commands")  # global sync (no DEV_GUILD_ID)
    assert not fake.guild_commands
