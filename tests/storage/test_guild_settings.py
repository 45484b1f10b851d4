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
