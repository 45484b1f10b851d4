"""The app installed to a user, through the real bot and the fake Discord with Discord's limits on: Malice in
a group DM where no bot is a member (the table message is the challenge's answer, every move the answer to
the Move dialog opened from it, and not one channel REST call), the "Challenge to Malice" user menu in a
server and in a DM, a restart in the middle of a DM game, the ledger and /history under the players (no server), and
the synced command tree saying where each command runs."""

from __future__ import annotations

from typing import Any

import pytest

from bot import render
from bot.games.ai import choose_action
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeMessage, Reply, UserHandle
from tests.e2e.harness import Harness

SEED = "e2e-malice-261"  # tests/e2e/test_malice_game.py: both seats as the computer plays end in 218 moves
ANYWHERE = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
SERVERS = {"integration_types": [0], "contexts": [0]}


def game_in(harness: Harness, channel: FakeChannel) -> Any:
    assert harness.bot is not None
    table = harness.bot.sessions.table_in(channel.id)
    return table.game if table is not None else None


def calls_in(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    """Every REST call the bot made with this channel in its route (a DM's: none may be made)."""
    return [f"{r.method} {r.path}" for r in fake.requests if f"/channels/{channel.id}" in r.path]


def select_of(reply: Reply, token: str) -> str:
    """The custom_id of the Move dialog's select that offers this move."""
    assert reply.modal is not None, reply
    for item in reply.modal["components"]:
        inner = item.get("component") or {}
        if token in [o["value"] for o in inner.get("options") or []]:
            return str(inner["custom_id"])
    raise AssertionError(f"the Move dialog does not offer {token}: {reply.modal}")


async def move(user: UserHandle, table: FakeMessage, game: Any, seed: str) -> Reply:
    """The player to move presses Move and picks what the computer player would, in the dialog."""
    opened = await user.click(table, "Move")
    assert opened.kind == "modal", opened
    action = choose_action(game, game.current_player, seed)
    token = render.token("malice", action)
    done = await user.submit(opened, {select_of(opened, token): [token]})
    assert done.kind == "update" and done.message is not None and done.message.id == table.id, done
    return done


@pytest.mark.bot(rate_limits=True)
async def test_the_synced_tree_says_where_each_command_runs(harness: Harness) -> None:
    fake = harness.fake
    synced = {c["name"]: c for c in fake.global_commands or fake.guild_commands[fake.guild_id]}
    kinds = ("integration_types", "contexts")
    declared = {name: {k: command.get(k) for k in kinds} for name, command in synced.items()}
    assert declared == {
        "malice": ANYWHERE,
        "hand": ANYWHERE,
        "table": ANYWHERE,
        "resign": ANYWHERE,
        "cancel": ANYWHERE,
        "history": ANYWHERE,
        "stats": ANYWHERE,
        "rules": ANYWHERE,
        "help": ANYWHERE,
        "Challenge to Malice": ANYWHERE,
        "insomnia": SERVERS,
        "leaderboard": SERVERS,
        "settings": SERVERS,
    }
    menu = synced["Challenge to Malice"]
    assert menu["type"] == 2 and not menu.get("description") and not menu.get("options")
    assert menu["name_localizations"] == {"de": "Zu Malice herausfordern"}
    # The PUT went through Discord's schema (a violation would fail the test at teardown).
    assert [c.status for c in fake.calls("PUT /applications/{application_id}/commands")] == [200]


@pytest.mark.both_backends
@pytest.mark.bot(rate_limits=True)
async def test_a_whole_malice_game_in_a_group_dm_without_one_channel_call(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    friends = fake.add_private_channel("friends", ["alice", "bob", "carol"])

    challenge = await alice.slash("malice challenge", opponent=bob, stake=2, channel=friends)
    assert challenge.kind == "message" and not challenge.ephemeral
    table = challenge.message
    assert table is not None and "Accept" in table.button_labels
    assert table.visible_to(carol.user) and not table.visible_to(dave.user)  # the group DM's members see it
    assert "Only the challenged player" in (await alice.click(table, "Accept")).text
    accepted = await bob.click(table, "Accept")
    assert accepted.kind == "update" and "Malice · table" in table.text
    assert table.button_labels[:2] == ["Move", "My hand"]

    people = {str(alice.id): alice, str(bob.id): bob}
    refusals = False
    for moves in range(1000):
        game = game_in(harness, friends)
        if game is None:
            break
        user = people[game.current_player]
        other = bob if user is alice else alice
        if not refusals:
            refusals = True
            assert (await carol.click(table, "Move")).text == "You are not playing at this table."
            assert (await other.click(table, "Move")).text.startswith("It is not your turn")
            assert "It is your turn" in (await user.click(table, "My hand")).text
        await move(user, table, game, f"{SEED}/{moves}")
        assert table.current.text, "every move is shown on the table message by its own answer"
    else:
        raise AssertionError("the game did not end")

    assert "Result" in table.text or "wins" in table.text, table.text
    assert "Move" not in table.button_labels
    assert calls_in(fake, friends) == [] and fake.refused_private_calls == []
    stats = fake.rest_stats()
    assert stats.error_codes[10062] == 0 and stats.sent_429 == 0
    assert [m for m in fake.all_messages() if m.channel_id == friends.id and not m.webhook] == []

    # Counted under the players, not under a server: guild 0, seen by /stats and /history where they play.
    store = harness.store
    row = await store.last_table(friends.id)
    assert row is not None and row.guild_id == 0 and row.status == "finished"
    results = {r.player: r for r in await store.results(row.id)}
    winner = next(p for p, r in results.items() if r.won)
    mine = await alice.slash("stats", channel=friends)
    assert mine.ephemeral and "in DMs and group DMs" in mine.text and "Games: **1**" in mine.text, mine.text
    assert (await store.player_stats(0, winner)).wins == 1
    assert (await store.player_stats(fake.guild_id, str(alice.id))).games == 0
    history = await bob.slash("history", channel=friends)
    assert history.ephemeral and f"#{row.id}" in history.text
    on_server = await alice.slash("stats")
    assert "not finished a game in this server" in on_server.text
