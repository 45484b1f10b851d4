"""Server settings in the session layer, with the real engines and a real store on both backends: defaults
for new tables checked by the game's options model, the game channels and the host role where they apply,
and /rules as a table has its rules (a 40-turn Malice table says 40)."""

from __future__ import annotations

import logging

from bot.discord_out import discord_words
from bot.render.wording import word
from tests.refusals import refused
from tests.test_sessions import ALICE, BOB, BOT, CAROL, CHANNEL, GUILD, fixed_seeds, manager  # noqa: F401

DEALERS = 4242
OTHER = CHANNEL + 1


def said(text) -> str:
    return discord_words(word(text.key, text.params, "en"))


async def test_server_defaults_fill_what_the_command_left_out(store, announcer):
    sessions = await manager(store, announcer)
    servers = sessions.servers
    answer = await servers.set_default(GUILD, "malice", "turns", " 40 ")
    assert said(answer) == (
        "New Malice tables now start with Turn cap: 40 turns. Open tables keep their options."
    )
    await servers.set_default(GUILD, "malice", "stake", "3")
    await servers.set_default(GUILD, "insomnia", "bust", "OUT")
    await servers.set_default(GUILD, "insomnia", "pictures", "false")
    assert (await store.guild_settings(GUILD)).defaults == {
        "insomnia": {"bust": "out", "pictures": False},
        "malice": {"stake": 3, "turns": 40},
    }
    # The command's own choice wins; what it leaves out comes from the server; the game sees the rest.
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"stake": 1})
    assert table.options == {"stake": 1, "turns": 40, "timeout": 300.0}
    await sessions.lobbies.accept(CHANNEL, BOB)
    assert table.game.public_view().max_turns == 40 and table.game.public_view().stake == 1
    insomnia = await sessions.open_table("insomnia", GUILD, OTHER, CAROL, options={"chips": None})
    assert insomnia.options == {"bust": "out", "pictures": False, "timeout": 300.0}
    # Another server's tables are its own.
    third = await sessions.open_table("malice", GUILD + 1, OTHER + 1, ALICE, opponent=CAROL)
    assert third.options == {"timeout": 300.0}
    await sessions.close()


async def test_a_default_is_checked_by_the_games_options_model(store, announcer):
    sessions = await manager(store, announcer)
    servers = sessions.servers
    with refused(r"^1000 does not fit Turn cap: it takes a whole number from 1 to 500\.$"):
        await servers.set_default(GUILD, "malice", "turns", "1000")
    with refused("takes one of optional, required", key="settings.defaults.bad_value"):
        await servers.set_default(GUILD, "malice", "discard", "sometimes")
    with refused("takes true \\(yes\\) or false \\(no\\)"):
        await servers.set_default(GUILD, "malice", "pictures", "perhaps")
    with refused(r"^Malice has no option chips; its options are timeout, pictures, stake, turns, discard\.$"):
        await servers.set_default(GUILD, "malice", "chips", "20")
    with refused("keine Option chips", locale="de"):
        await servers.set_default(GUILD, "malice", "chips", "20")
    assert (await store.guild_settings(GUILD)).defaults == {}
    await servers.set_default(GUILD, "insomnia", "timeout", "60")
    cleared = await servers.set_default(GUILD, "insomnia", "timeout", None)
    assert said(cleared) == "New Insomnia tables take the game's own default again, Turn time: 300 seconds."
    assert (await store.guild_settings(GUILD)).defaults == {}
    await sessions.close()


async def test_a_stored_default_the_game_no_longer_takes_is_left_out(store, announcer, caplog):
    sessions = await manager(store, announcer)
    # Written behind the settings' back, as an older version with wider limits might have left it.
    await store.set_table_default(GUILD, "malice", "turns", 9999)
    await store.set_table_default(GUILD, "malice", "stake", 2)
    with caplog.at_level(logging.WARNING):
        table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    assert table.options == {"stake": 2, "timeout": 300.0}
    assert "turns=9999 no longer fits malice" in caplog.text
    await sessions.close()


async def test_rules_at_a_40_turn_malice_table_say_40(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"turns": 40, "discard": "required"}
    )
    rules = await sessions.servers.rules(GUILD, CHANNEL, None, locale="en")
    rule17 = ("Rule 17", "a game that reaches 40 turns ends and is scored as a stalemate.")
    assert rule17 in rules.house_decisions
    assert rules.options_title == f"Table #{table.id} in this channel"
    assert "• **H5** (house rule) Turn cap: 40 turns" in rules.options
    discard = "with a side play whenever a card of the hand fits a side stack"
    assert f"• **H4** (house rule) Ending a turn: {discard}" in rules.options
    assert "• Turn time: 300 seconds" in rules.options
    german = await sessions.servers.rules(GUILD, CHANNEL, "malice", locale="de")
    assert ("Regel 17", "ein Spiel, das 40 Züge erreicht, endet und wird als Patt gewertet.") in (
        german.house_decisions
    )
    # Elsewhere: a new table of the server; outside a server (a DM): the game's own defaults.
    elsewhere = await sessions.servers.rules(GUILD, OTHER, "malice", locale="en")
    assert elsewhere.options_title == "A new table in this server"
    assert ("Rule 17", "a game that reaches 500 turns ends and is scored as a stalemate.") in (
        elsewhere.house_decisions
    )
    direct = await sessions.servers.rules(None, OTHER, "insomnia", locale="en")
    assert direct.options_title == "A new table" and "Everyone starts with 15 chips" in direct.intro
    with refused("There is no table in this channel"):
        await sessions.servers.rules(GUILD, OTHER, None, locale="en")
    await sessions.close()


async def test_game_channels_and_the_host_role_where_they_apply(store, announcer):
    sessions = await manager(store, announcer)
    servers = sessions.servers
    answer = await servers.set_channel(GUILD, OTHER, True)
    assert said(answer) == f"Games may now be opened only in <#{OTHER}>."
    with refused(
        f"only in <#{OTHER}>. Members with Manage Server change it with /settings channels",
        key="settings.refused.channel",
    ):
        await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, can_manage=True)
    with refused("ändert sie mit /einstellungen kanäle", locale="de"):
        await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE)
    assert await store.active_table(CHANNEL) is None
    await sessions.open_table("insomnia", GUILD, OTHER, ALICE)
    await sessions.lobbies.cancel(sessions.table_in(OTHER), ALICE)
    assert said(await servers.all_channels(GUILD)) == "Games may be opened in every channel."

    await servers.set_role(GUILD, DEALERS)
    with refused(
        f"role <@&{DEALERS}> \\(or Manage Server\\).*setting \\*\\*host role\\*\\*",
        key="settings.refused.role",
    ):
        await sessions.open_table("malice", GUILD, CHANNEL, BOB, opponent=ALICE, roles={1, 2})
    await sessions.open_table("malice", GUILD, OTHER, ALICE, opponent=BOB, can_manage=True)  # Manage Server
    table = await sessions.open_table("malice", GUILD, CHANNEL, BOB, opponent=ALICE, roles={DEALERS})
    with refused(
        f"Only the host \\(<@{BOB}>\\), members with the role <@&{DEALERS}>", key="settings.refused.cancel"
    ):
        await sessions.cancel(CHANNEL, CAROL, can_manage=False, roles={1})
    await sessions.cancel(CHANNEL, CAROL, can_manage=False, roles={DEALERS})
    assert (await store.get_table(table.id)).status == "cancelled"
    # Without a host role the refusal is the old one: the host or Manage Server.
    await servers.set_role(GUILD, None)
    with refused("Only the host", key="table.cancel_not_allowed"):
        await sessions.cancel(OTHER, CAROL, can_manage=False, roles={DEALERS})
    await sessions.close()
