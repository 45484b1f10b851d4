"""A server's language for its public messages (`/settings language`): kept per server, on both backends,
across a restart, and only one of the languages the bot speaks."""

from __future__ import annotations

import pytest

from storage import open_store
from tests.storage.conftest import GUILD, raw_fetch, ticking_clock


async def test_a_server_without_a_choice_speaks_its_own_locale(store):
    assert await store.guild_language(GUILD) is None


async def test_the_choice_is_kept_per_server_and_can_go_back_to_the_default(store):
    await store.set_guild_language(GUILD, "de")
    await store.set_guild_language(GUILD + 1, "en")
    assert await store.guild_language(GUILD) == "de"
    assert await store.guild_language(GUILD + 1) == "en"
    await store.set_guild_language(GUILD, "en")
    assert await store.guild_language(GUILD) == "en"
    await store.set_guild_language(GUILD, None)
    assert await store.guild_language(GUILD) is None
    assert await store.guild_language(GUILD + 1) == "en"


async def test_the_choice_survives_a_restart(database):
    first = await open_store(database, clock=ticking_clock())
    await first.set_guild_language(GUILD, "de")
    await first.close()
    again = await open_store(database, clock=ticking_clock())
    try:
        assert await again.guild_language(GUILD) == "de"
    finally:
        await again.close()


async def test_an_unknown_language_is_refused_and_nothing_is_stored(store, database):
    with pytest.raises(ValueError, match="fr"):
        await store.set_guild_language(GUILD, "fr")
    assert await store.guild_language(GUILD) is None
    # The database refuses it too, should any other writer try.
    with pytest.raises(Exception, match=r"(?i)check"):
        await raw_fetch(database, f"INSERT INTO guild_settings (guild_id, language) VALUES ({GUILD}, 'fr')")


# ---- the rest of /settings (migration 7): host role, game channels, table defaults


async def test_a_server_that_chose_nothing_has_every_default(store):
    settings = await store.guild_settings(GUILD)
    assert settings.guild_id == GUILD
    chosen = (settings.language, settings.host_role, settings.channels, settings.defaults)
    assert chosen == (None, None, [], {})


async def test_the_host_role_is_kept_beside_the_language_and_can_be_taken_away(store):
    await store.set_guild_language(GUILD, "de")
    await store.set_host_role(GUILD, 1_500_000_000_000_000_007)  # a snowflake: 64 bits on both backends
    settings = await store.guild_settings(GUILD)
    assert (settings.language, settings.host_role) == ("de", 1_500_000_000_000_000_007)
    await store.set_host_role(GUILD, None)
    settings = await store.guild_settings(GUILD)
    assert (settings.language, settings.host_role) == ("de", None)
    # Choosing a role first leaves the language the server's own.
    await store.set_host_role(GUILD + 1, 5)
    assert (await store.guild_settings(GUILD + 1)).language is None
    assert await store.guild_language(GUILD + 1) is None


async def test_game_channels_are_a_list_per_server_and_empty_means_every_channel(store):
    for channel in (30, 10, 20, 10):  # adding one twice keeps it once
        await store.set_game_channel(GUILD, channel, True)
    await store.set_game_channel(GUILD + 1, 99, True)
    assert (await store.guild_settings(GUILD)).channels == [10, 20, 30]
    await store.set_game_channel(GUILD, 20, False)
    await store.set_game_channel(GUILD, 77, False)  # not on the list: nothing happens
    assert (await store.guild_settings(GUILD)).channels == [10, 30]
    await store.clear_game_channels(GUILD)
    assert (await store.guild_settings(GUILD)).channels == []
    assert (await store.guild_settings(GUILD + 1)).channels == [99]


async def test_table_defaults_keep_their_json_type_per_game_and_option(store):
    await store.set_table_default(GUILD, "malice", "turns", 40)
    await store.set_table_default(GUILD, "malice", "discard", "required")
    await store.set_table_default(GUILD, "insomnia", "pictures", False)
    await store.set_table_default(GUILD, "insomnia", "timeout", 120)
    await store.set_table_default(GUILD + 1, "malice", "turns", 7)
    await store.set_table_default(GUILD, "malice", "turns", 60)  # a new value replaces the old
    assert (await store.guild_settings(GUILD)).defaults == {
        "insomnia": {"pictures": False, "timeout": 120},
        "malice": {"discard": "required", "turns": 60},
    }
    await store.set_table_default(GUILD, "insomnia", "pictures", None)  # back to the game's own default
    await store.set_table_default(GUILD, "insomnia", "timeout", None)
    assert (await store.guild_settings(GUILD)).defaults == {"malice": {"discard": "required", "turns": 60}}
    assert (await store.guild_settings(GUILD + 1)).defaults == {"malice": {"turns": 7}}


async def test_every_setting_survives_a_restart(database):
    first = await open_store(database, clock=ticking_clock())
    await first.set_host_role(GUILD, 42)
    await first.set_game_channel(GUILD, 11, True)
    await first.set_table_default(GUILD, "malice", "turns", 40)
    before = await first.guild_settings(GUILD)
    await first.close()
    again = await open_store(database, clock=ticking_clock())
    try:
        assert await again.guild_settings(GUILD) == before
        assert (before.host_role, before.channels) == (42, [11])
        assert before.defaults == {"malice": {"turns": 40}}
    finally:
        await again.close()


# ---- a thread per game (migration 9)


async def test_a_thread_per_game_is_off_until_chosen_and_kept_beside_the_other_settings(store, database):
    assert (await store.guild_settings(GUILD)).threads is False
    await store.set_host_role(GUILD, 77)
    await store.set_threads(GUILD, True)
    settings = await store.guild_settings(GUILD)
    assert (settings.threads, settings.host_role) == (True, 77)
    assert (await store.guild_settings(GUILD + 1)).threads is False
    await store.set_threads(GUILD + 1, True)  # a server that chose nothing else before
    assert (await store.guild_settings(GUILD + 1)).language is None
    await store.set_threads(GUILD, False)
    assert (await store.guild_settings(GUILD)).threads is False
    again = await open_store(database, clock=ticking_clock())
    try:
        assert (await again.guild_settings(GUILD + 1)).threads is True
    finally:
        await again.close()
