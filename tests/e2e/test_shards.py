"""The fake Discord's shards, with the real bot in this process: two guilds on shards 0 and 1 of 2, one
gateway connection per shard, each told only of its own guild and carrying only that guild's interactions."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord, shard_of
from tests.e2e.harness import Harness


async def test_one_bot_with_two_shards_plays_in_both_guilds_each_on_its_own_connection(
    fake_server: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_server
    fake.shard_count = 2  # what GET /gateway/bot recommends: the bot (SHARD_COUNT unset) follows it
    den = fake.add_guild("Dice Den", ["den-games"])
    assert {shard_of(den.id, 2), shard_of(fake.guild_id, 2)} == {0, 1}
    harness = Harness(fake, tmp_path)
    try:
        bot = await harness.start_bot()
        assert bot.shard_count == 2 and fake.connected_shards() == {0, 1}
        ready = {
            tuple(d["shard"]): [int(g["id"]) for g in d["guilds"]]
            for e, d in fake.gateway_events
            if e == "READY"
        }
        assert ready == {(shard_of(den.id, 2), 2): [den.id], (shard_of(fake.guild_id, 2), 2): [fake.guild_id]}
        assert bot.get_guild(den.id).shard_id == shard_of(den.id, 2)
        assert bot.get_guild(fake.guild_id).shard_id == shard_of(fake.guild_id, 2)

        # A game in each guild: each command reaches the bot on its guild's connection, and the table is
        # stored under that guild.
        alice = harness.user("alice")
        for channel, guild in (("den-games", den.id), ("games", fake.guild_id)):
            reply = await alice.slash("malice challenge", opponent=fake.bot_user, channel=channel)
            assert "the game against the computer started" in reply.text
            await fake.wait_for_message(channel=channel, contains="Malice · table")
            row = await harness.store.last_table(fake.channel(channel).id)
            assert row.guild_id == guild and row.status == "running"
        sent_on = {
            (int(d["guild_id"]), shard) for shard, e, d in fake.shard_events if e == "INTERACTION_CREATE"
        }
        assert sent_on == {(den.id, shard_of(den.id, 2)), (fake.guild_id, shard_of(fake.guild_id, 2))}
    finally:
        await harness.close()
    assert harness.problems() == []
