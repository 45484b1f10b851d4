"""While the bot stops, a new command gets one sentence and changes nothing (real bot, fake Discord)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import Harness


async def test_a_command_during_the_stop_is_refused_with_one_sentence(harness: Harness) -> None:
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=harness.fake.bot_user)
    table = await harness.store.last_table(harness.fake.channel("games").id)
    harness.bot.stopping = True  # the first thing stop() does, before it waits for running commands
    reply = await alice.slash("malice end")
    assert reply.ephemeral and reply.text == "The bot is restarting: try again in a minute."
    assert await alice.autocomplete("malice play", "card") == []
    # The computer may still be finishing its turn; nothing of alice's was stored.
    assert [a for a in await harness.store.actions(table.id) if a.actor == str(alice.id)] == []


async def test_stop_closes_the_store_after_the_running_commands(harness: Harness) -> None:
    bot = harness.bot
    await bot.stop()
    assert bot.is_closed() and "store" not in bot.__dict__
    assert not Path(f"{harness.settings.database_path}-wal").exists()  # checkpointed and removed on close
