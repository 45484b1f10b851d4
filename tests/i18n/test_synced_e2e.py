"""The real bot, started against the fake Discord (its setup_hook registers the translator): what Discord
stores after the sync carries German names and descriptions, and a command still runs by its English name."""

from __future__ import annotations

from typing import Any


def nodes(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for o in options:
        out.append(o)
        out += nodes(o.get("options") or [])
    return out


async def test_the_synced_tree_is_german_for_german_clients(harness):
    fake = harness.fake
    synced = fake.global_commands or fake.guild_commands.get(fake.guild_id, [])
    everything = nodes(synced)
    assert len(everything) >= 40  # 44 commands and options today
    for node in everything:
        assert node.get("name_localizations", {}).get("de"), node["name"]
        if node.get("type") == 2 and node in synced:  # a user context menu has a name only
            continue
        assert node.get("description_localizations", {}).get("de"), node["name"]
        for choice in node.get("choices") or []:
            assert choice.get("name_localizations", {}).get("de"), f"{node['name']}={choice['value']}"
    by_name = {c["name"]: c for c in synced}
    assert by_name["rules"]["name_localizations"] == {"de": "regeln"}
    assert by_name["Challenge to Malice"]["name_localizations"] == {"de": "Zu Malice herausfordern"}
    # Discord sends interactions with the default names, so the bot answers as before.
    reply = await harness.user("alice").slash("rules", game="malice")
    assert "Malice" in reply.text
