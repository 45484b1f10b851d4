"""The `/<game>` groups are generated from each game's command data (`cogs/games.py`): what Discord is sent
for every command and option is exactly what the spec says, for the real games and for a game only the tests
know; and an open command's ranges are exactly what a table accepts."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.games.registry import REGISTRY
from bot.render.registry import PRESENTATIONS, registered
from cogs.games import build_group
from tests.games.highcard import SPEC as HIGHCARD
from tests.games.highcard_render import PRESENTATION


@pytest.fixture(autouse=True)
def highcard():
    with registered(HIGHCARD, PRESENTATION):
        yield HIGHCARD


def commands_of(spec):
    return PRESENTATIONS[spec.name].commands


TYPES = {
    "string": discord.AppCommandOptionType.string.value,
    "integer": discord.AppCommandOptionType.integer.value,
    "user": discord.AppCommandOptionType.user.value,
    "boolean": discord.AppCommandOptionType.boolean.value,
}

LIMIT_KEYS = {"integer": ("min_value", "max_value"), "string": ("min_length", "max_length")}


@pytest.mark.parametrize("spec", [*REGISTRY, HIGHCARD], ids=lambda s: s.name)
def test_each_command_and_option_is_sent_as_the_spec_describes_it(spec):
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = build_group(spec).to_dict(tree)
    assert payload["name"] == spec.name and payload["description"] == commands_of(spec).description
    # A challenge (two players) runs anywhere, a user install's DMs and group DMs too; a lobby needs a server.
    if spec.table == "challenge":
        assert (payload["contexts"], payload["integration_types"]) == ([0, 1, 2], [0, 1])
    else:
        assert (payload["contexts"], payload["integration_types"]) == ([0], [0]), "lobbies: servers only"
    sent = {c["name"]: c for c in payload["options"]}
    assert list(sent) == [c.name for c in commands_of(spec).commands]
    for command in commands_of(spec).commands:
        got = sent[command.name]
        assert got["description"] == command.description
        assert [o["name"] for o in got.get("options", [])] == [o.name for o in command.options]
        for option, option_sent in zip(command.options, got.get("options", []), strict=True):
            assert option_sent["description"] == option.description
            assert option_sent["type"] == TYPES[option.type]
            assert option_sent["required"] == option.required
            assert option_sent.get("autocomplete", False) == option.autocomplete
            low, high = LIMIT_KEYS["integer" if option.type == "integer" else "string"]
            assert option_sent.get(low) == option.min and option_sent.get(high) == option.max


def test_the_open_commands_offer_the_table_options_with_the_limits_a_table_accepts():
    for spec in REGISTRY:
        opener = next(c for c in commands_of(spec).commands if c.role == "open")
        for option in (o for o in opener.options if o.type == "integer"):
            assert not option.required, "a table option left out takes its default"
            for refused in (option.min - 1, option.max + 1):
                with pytest.raises(ValueError):
                    spec.make_options({option.name: refused})
            for accepted in (option.min, option.max):
                assert getattr(spec.make_options({option.name: accepted}), option.name) == accepted
