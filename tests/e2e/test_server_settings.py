"""Server settings and each table's own rules, through the real bot and the fake Discord, on both backends:
defaults for new tables (`/settings defaults`), the channels where games may be opened and a host role
(`/settings channels`, `/settings role`), every refusal naming the setting and who changes it in the reader's
language; the lobby naming the house rules chosen, `/rules` at a table showing that table's rules (a 40-turn
Malice table says 40), `/history` recording the options."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness
from tests.e2e.test_game_support import table_message

pytestmark = pytest.mark.both_backends


def german(user) -> None:
    user.user.locale = "de"


async def stored_options(harness: Harness, channel: str) -> dict:
    table = await harness.store.active_table(harness.fake.channel(channel).id)
    assert table is not None, f"no open table in #{channel}"
    return table.options


async def test_server_defaults_make_new_tables_and_rules_says_the_tables_own(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol, erin = (harness.user(n) for n in ("alice", "bob", "carol", "erin"))

    done = await erin.slash("settings defaults", game="malice", option="turns", value="40")
    assert done.ephemeral
    assert done.text == "New Malice tables now start with Turn cap: 40 turns. Open tables keep their options."
    await erin.slash("settings defaults", game="malice", option="discard", value="Required")
    stored = await harness.store.guild_settings(fake.guild_id)
    assert stored.defaults == {"malice": {"discard": "required", "turns": 40}}

    # The game's options model checks every default: a value it refuses is answered, nothing is stored.
    refused = await erin.slash("settings defaults", game="malice", option="turns", value="1000")
    assert refused.text == "1000 does not fit Turn cap: it takes a whole number from 1 to 500."
    refused = await erin.slash("settings defaults", game="malice", option="chips", value="20")
    assert refused.text.startswith("Malice has no option chips; its options are timeout, pictures, stake,")
    german(erin)
    refused = await erin.slash("settings defaults", game="malice", option="discard", value="always")
    assert refused.text == "always passt nicht zu Zugende: erlaubt ist eines von optional, required."
    erin.user.locale = "en-US"
    refused = await alice.slash("settings defaults", game="malice", option="turns", value="30")
    assert refused.text == "You need the Manage Server permission to do that."
    assert (await harness.store.guild_settings(fake.guild_id)).defaults["malice"]["turns"] == 40

    # Typing the option and its value: the game's options and the option's values, in the reader's words.
    options = await erin.autocomplete("settings defaults", "option", "cap", game="malice")
    assert [(c.name, c.value) for c in options] == [("Turn cap (turns)", "turns")]
    values = await erin.autocomplete(
        "settings defaults", "value", "", values={"game": "malice", "option": "discard"}
    )
    assert [c.value for c in values] == ["optional", "required"]

    # A new table takes the defaults; the challenge names the house rules it plays.
    await alice.slash("malice challenge", opponent=bob)
    challenge = await fake.wait_for_message(channel="games", contains="challenges")
    assert "House rules: H4 Ending a turn: with a side play whenever" in challenge.text
    assert "H5 Turn cap: 40 turns" in challenge.text
    assert await stored_options(harness, "games") == {"discard": "required", "turns": 40, "timeout": 30.0}

    # /rules at this table: its rules, the turn cap of rule 17 included, in each reader's language.
    rules = await alice.slash("rules")
    assert rules.ephemeral and "a game that reaches 40 turns ends and is scored as a stalemate" in rules.text
    assert "500" not in rules.text
    table_id = (await harness.store.active_table(fake.channel("games").id)).id
    assert f"Table #{table_id} in this channel" in rules.text
    assert "**H5** (house rule) Turn cap: 40 turns" in rules.text
    assert "H6 (standard) Stake: 1 chip per card" in rules.text
    german(bob)
    regeln = await bob.slash("rules", game="malice")
    assert "ein Spiel, das 40 Züge erreicht, endet" in regeln.text
    assert "(Tischregel) Zuggrenze: 40 Züge" in regeln.text

    # A command's own choice wins over the server's default.
    await alice.slash("malice challenge", opponent=carol, turns=100, channel="lounge")
    assert (await stored_options(harness, "lounge"))["turns"] == 100
    # Elsewhere /rules shows a new table of this server; another game than the table's, that game's.
    rules = await alice.slash("rules", game="malice", channel="general")
    assert "A new table in this server" in rules.text and "a game that reaches 40 turns ends" in rules.text
    rules = await alice.slash("rules", game="insomnia")
    assert "Everyone starts with 15 chips" in rules.text and "A new table in this server" in rules.text
    refused = await alice.slash("rules", channel="general")
    assert refused.text.startswith("There is no table in this channel: name the game")

    # /history records the table's options and house rules.
    history = await alice.slash("history")
    assert "**Options and house rules**" in history.text
    assert "**H5** (house rule) Turn cap: 40 turns" in history.text

    # Back to the game's own default: new tables play 500 turns again, the open ones keep theirs.
    back = await erin.slash("settings defaults", game="malice", option="turns")
    assert back.text == "New Malice tables take the game's own default again, Turn cap: 500 turns."
    shown = await erin.slash("settings show")
    assert "New Malice tables" in shown.text and "Turn cap: 500 turns" in shown.text
    assert "**H4** (house rule) Ending a turn" in shown.text and "every channel" in shown.text
    assert "a game that reaches 40 turns" in (await alice.slash("rules")).text


async def test_house_rules_chosen_at_the_table_are_named_in_the_lobby(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    german(bob)
    await alice.slash("insomnia new", sevens="all", stage4="off", chips=20)
    await fake.wait_for_message(channel="games", contains="opened an **Insomnia** table")
    lobby = table_message(fake, "Insomnia")
    assert "H1 Sevens at 5-7 players: all four sevens (32 cards)" in lobby.text
    assert "H3 Stage 4 (the second dice round): not played" in lobby.text
    assert "H2" not in lobby.text  # the standard rule is not named
    chosen = {"chips": 20, "sevens": "all", "stage4": "off", "timeout": 30.0}
    assert await stored_options(harness, "games") == chosen
    regeln = await bob.slash("rules")
    assert "Alle beginnen mit 20 Chips" in regeln.text
    assert "**H1** (Tischregel) Siebenen bei 5-7 Spielern: alle vier Siebenen" in regeln.text
    assert "H2 (Standard) Wer keine Chips mehr hat: beendet das Spiel" in regeln.text


async def test_game_channels_and_the_host_role_say_which_setting_refused(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol, dave, erin = (harness.user(n) for n in ("alice", "bob", "carol", "dave", "erin"))
    games, lounge = fake.channel("games").id, fake.channel("lounge").id

    done = await erin.slash("settings channels add", values={"channel": "lounge"})
    assert done.text == f"Games may now be opened only in <#{lounge}>."
    refused = await alice.slash("insomnia new")
    assert refused.ephemeral and refused.text == (
        f"Games cannot be opened in this channel: the server's setting **game channels** allows them only in "
        f"<#{lounge}>. Members with Manage Server change it with /settings channels."
    )
    german(alice)
    refused = await alice.slash("malice challenge", opponent=bob)
    assert refused.text.startswith("In diesem Kanal können keine Spiele eröffnet werden")
    assert refused.text.endswith("ändert sie mit /einstellungen kanäle.")
    assert await harness.store.active_table(games) is None, "a refused opening leaves nothing behind"
    assert not [m for m in fake.channel_messages("games") if "table" in m.text.lower()]
    await alice.slash("insomnia new", channel="lounge")  # the listed channel takes games
    assert await harness.store.active_table(lounge) is not None

    # The setting outlives a restart.
    await harness.restart_bot()
    refused = await bob.slash("insomnia new")
    assert "**game channels**" in refused.text
    refused = await erin.slash("settings channels remove", values={"channel": "general"})
    general = fake.channel("general").id
    assert refused.text == f"<#{general}> is not a game channel; the game channels are <#{lounge}>."
    done = await erin.slash("settings channels remove", values={"channel": "lounge"})
    assert done.text == "Games may be opened in every channel."
    refused = await erin.slash("settings channels remove", values={"channel": "lounge"})
    assert refused.text.startswith("Games may be opened in every channel already")

    # A host role: only its members (and Manage Server) open games, and they may cancel any game.
    dealers = fake.role_id("Dealers")
    done = await erin.slash("settings role", role="Dealers")
    assert done.text == (
        f"Only <@&{dealers}> and members with Manage Server may now open games, and <@&{dealers}> may cancel "
        "any game."
    )
    assert (await harness.store.guild_settings(fake.guild_id)).host_role == dealers
    refused = await bob.slash("malice challenge", opponent=carol)
    assert refused.text == (
        f"Only members with the role <@&{dealers}> (or Manage Server) may open games here: that is the "
        "server's setting **host role**. Members with Manage Server change it with /settings role."
    )
    fake.give_role(bob, "Dealers")
    await bob.slash("malice challenge", opponent=carol)
    assert (await harness.store.active_table(games)).host_id == bob.id

    # Cancelling: not carol, who has neither the role nor Manage Server; dave, given the role, may.
    refused = await carol.slash("cancel")
    assert refused.text == (
        f"Only the host (<@{bob.id}>), members with the role <@&{dealers}> or with Manage Server may cancel "
        "this table (the server's setting **host role**; members with Manage Server change it with "
        "/settings role)."
    )
    refused = await carol.click(table_message(fake, "Insomnia", channel="lounge"), "Cancel")
    assert "**host role**" in refused.text and await harness.store.active_table(lounge) is not None
    fake.give_role(dave, "Dealers")
    assert (await dave.slash("cancel")).text == "The table was cancelled."
    assert await harness.store.active_table(games) is None
    assert (await erin.slash("cancel", channel="lounge")).text == "The table was cancelled."

    shown = await erin.slash("settings show")
    assert f"<@&{dealers}> and members with Manage Server open games" in shown.text
    done = await erin.slash("settings role")
    assert done.text.startswith("Anyone may open a game again")
    await carol.slash("insomnia new")
    assert (await harness.store.active_table(games)).host_id == carol.id
