"""The app installed to a user, through the real bot and the fake Discord with Discord's limits on: Malice in
a group DM where no bot is a member (the table message is the challenge's answer, every move the answer to
the Move dialog opened from it, and not one channel REST call), the "Challenge to Malice" user menu in a
server and in a DM, a restart in the middle of a DM game, the ledger and /history under the players (no
server), and the synced command tree saying where each command runs."""

from __future__ import annotations

from typing import Any

import pytest

from bot import render
from bot.games.ai import choose_action
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeDiscordError, FakeMessage, Reply, UserHandle
from tests.e2e.harness import Harness

SEED = "e2e-malice-261"  # tests/e2e/test_malice_game.py: both seats as the computer plays end in 218 moves
ANYWHERE = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
SERVERS = {"integration_types": [0], "contexts": [0]}


def game_in(harness: Harness, channel: FakeChannel) -> Any:
    assert harness.bot is not None
    table = harness.bot.sessions.tables.in_channel(channel.id)
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
        "activity": SERVERS,  # the Activity runs in a server's channel (cogs/activity.py)
        "tournament": SERVERS,  # an event is a server's, played in its channels
        "moderation": SERVERS,  # fair play on a server's leaderboards
    }
    menu = synced["Challenge to Malice"]
    assert menu["type"] == 2 and not menu.get("description") and not menu.get("options")
    assert menu["name_localizations"] == {"de": "Zu Malice herausfordern"}
    # The PUT went through Discord's schema (a violation would fail the test at teardown).
    assert [c.status for c in fake.calls("PUT /applications/{application_id}/commands")] == [200]


@pytest.mark.slow
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
    # The finished table's Replay works there too: its steps are interaction answers.
    viewer = await carol.click(table, "Replay")
    assert viewer.ephemeral and "Malice" in viewer.text
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


def table_of(fake: FakeDiscord, channel: str = "games") -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if "Malice" in m.text)


@pytest.mark.bot(rate_limits=True)
async def test_the_challenge_menu_in_a_server_opens_a_challenge_by_the_rules(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    robot = fake.add_member("robot", bot=True)

    myself = await alice.user_command("Challenge to Malice", alice)
    assert myself.ephemeral and myself.text.startswith("You cannot challenge yourself")
    alice.user.locale = "de"
    assert (await alice.user_command("Zu Malice herausfordern", robot)).text.startswith("Das ist ein Bot")
    alice.user.locale = "en-US"
    assert fake.channel_messages("games") == []

    reply = await alice.user_command("Challenge to Malice", bob)
    assert reply.ephemeral
    challenge = await fake.wait_for_message(channel="games", contains="Malice")
    assert bob.id in challenge.pinged and "Accept" in challenge.button_labels
    assert "Move" not in challenge.button_labels  # a server channel: moves by command and the hand's buttons
    await bob.click(challenge, "Accept")
    await fake.wait_for_message(channel="games", contains="Malice · table")
    busy = await alice.user_command("Challenge to Malice", bob)
    assert busy.ephemeral and "already" in busy.text


@pytest.mark.bot(rate_limits=True)
async def test_the_challenge_menu_in_a_dm_and_what_a_dm_refuses(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    pair = fake.add_private_channel("pair", ["alice", "bob"], group=False)

    outsider = await alice.user_command("Challenge to Malice", carol, channel=pair)
    assert outsider.ephemeral and outsider.text.startswith(f"<@{carol.id}> is not in this conversation")
    alice.user.locale = "de"
    german = await alice.user_command("Zu Malice herausfordern", carol, channel=pair)
    assert german.text.startswith(f"<@{carol.id}> ist nicht in dieser Unterhaltung")
    # Insomnia is not offered outside servers; a client that sends it anyway is told where it is played.
    with pytest.raises(FakeDiscordError, match="does not offer"):
        await alice.slash("insomnia new", channel=pair)
    refused = await alice.slash("insomnia new", channel=pair, unchecked=True)
    assert refused.ephemeral and "nur auf Servern gespielt" in refused.text
    assert "/malice herausfordern" in refused.text
    alice.user.locale = "en-US"
    assert "Insomnia is played in servers only" in (await alice.slash("help", channel=pair)).text
    assert "played only in servers" in (await alice.slash("insomnia new", channel=pair, unchecked=True)).text

    reply = await alice.user_command("Challenge to Malice", bob, channel=pair)
    assert reply.kind == "message" and not reply.ephemeral
    table = reply.message
    assert table is not None and table.visible_to(bob.user) and not table.visible_to(carol.user)
    assert (await bob.click(table, "Accept")).kind == "update"
    assert "Malice · table" in table.text and "Move" in table.button_labels
    assert calls_in(fake, pair) == [] and fake.refused_private_calls == []


@pytest.mark.bot(rate_limits=True)
async def test_a_restart_in_the_middle_of_a_group_dm_game(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    people = {str(alice.id): alice, str(bob.id): bob}
    friends = fake.add_private_channel("friends", ["alice", "bob", "carol"])
    table = (await alice.slash("malice challenge", opponent=bob, channel=friends)).message
    assert table is not None
    await bob.click(table, "Accept")
    for n in range(6):
        game = game_in(harness, friends)
        await move(people[game.current_player], table, game, f"{SEED}/{n}")
    game = game_in(harness, friends)
    mover = people[game.current_player]
    opened = await mover.click(table, "Move")  # a dialog open across the restart
    token = render.token("malice", choose_action(game, game.current_player, f"{SEED}/6"))
    seq = harness.bot.sessions.tables.in_channel(friends.id).seq

    await harness.restart_bot()
    assert harness.bot.sessions.tables.in_channel(friends.id).seq == seq
    done = await mover.submit(opened, {select_of(opened, token): [token]})
    assert done.kind == "update", done.text
    assert harness.bot.sessions.tables.in_channel(friends.id).seq == seq + 1
    for n in range(7, 12):  # the table message's buttons work on the new process
        game = game_in(harness, friends)
        await move(people[game.current_player], table, game, f"{SEED}/{n}")
    stale = await mover.submit(opened, {select_of(opened, token): [token]})
    assert stale.ephemeral and "stale" in stale.text
    assert calls_in(fake, friends) == [] and fake.refused_private_calls == []


@pytest.mark.bot(rate_limits=True)
async def test_the_computer_in_the_bots_dm_is_shown_through_her_interactions_alone(harness: Harness) -> None:
    fake = harness.fake
    alice = harness.user("alice")
    dm = alice.dm_channel()
    opened = await alice.slash("malice challenge", opponent=fake.bot_user, channel=dm)
    table = opened.message
    assert opened.kind == "message" and table is not None and "Malice · table" in table.text
    shown, seen = 0, 1
    for n in range(40):
        game = game_in(harness, dm)
        if game is None or game.is_over:
            break
        if game.current_player != str(alice.id):
            # The computer's moves reach the table message through her interactions alone (no channel call
            # may be made in a DM of a user install).
            await fake.wait_for(lambda: game_in(harness, dm).current_player in (str(alice.id), None))
            await harness.bot.sessions.idle()
            continue
        # A new turn of hers: the table message shows the computer's turn ended, brought by her last
        # answer (the computer's immediate reply rides in it) or by its live token (a later one).
        if game.turn > 1 and game.turn != seen:
            assert f"Turn {game.turn} of at most" in table.text, table.text
            seen, shown = game.turn, shown + 1
        await move(alice, table, game, f"dm/{n}")
    assert shown >= 5, "the computer's turns were shown on the table message"
    assert [m for m in fake.all_messages() if m.channel_id == dm.id and not m.webhook] == []
    assert calls_in(fake, dm) == []


@pytest.mark.slow
@pytest.mark.bot(rate_limits=True, turn_timeout_seconds=1.0)
async def test_timeouts_show_through_the_live_token_then_at_the_next_click(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    friends = fake.add_private_channel("friends", ["alice", "bob"])
    table = (await alice.slash("malice challenge", opponent=bob, channel=friends)).message
    assert table is not None
    await bob.click(table, "Accept")
    # The first timeout: shown at once, through the token of bob's click on the table message.
    await fake.wait_for(lambda: "ran out of time" in table.text, what="the timeout on the table message")
    assert "Move" in table.button_labels
    # Fifteen minutes later (Discord's clock) that token is dead. The second timeout in a row without a move
    # ends the game as a stalemate (rule 16): the table message cannot show it until someone clicks on it.
    fake.advance(16 * 60)
    tables = harness.bot.sessions.tables
    await fake.wait_for(lambda: tables.in_channel(friends.id) is None, what="the game's end")
    await fake.wait_for(lambda: fake.rest_stats().error_codes[50027] >= 1, what="the dead token refused")
    await harness.bot.sessions.idle()
    assert "stalemate" not in table.text and "Move" in table.button_labels
    clicked = await alice.click(table, "My hand")
    assert clicked.kind == "update" and "stalemate" in table.text, table.text
    assert "Move" not in table.button_labels
    assert calls_in(fake, friends) == [] and fake.refused_private_calls == []


@pytest.mark.bot(extra_extensions=["tests.e2e.probe_cog"])
async def test_the_fake_refuses_what_discord_refuses_a_user_install(harness: Harness) -> None:
    """The fake is as strict as Discord in a group DM without the bot: context 2 and only the user install
    in the interaction, 403 / 50001 for every channel call, at most 5 follow-ups, commands offered only
    where they say."""
    import aiohttp

    fake = harness.fake
    alice = harness.user("alice")
    friends = fake.add_private_channel("friends", ["alice", "bob"])
    with pytest.raises(FakeDiscordError, match="does not offer"):
        await alice.slash("probe say", text="hi", channel=friends)  # declares no contexts: servers only
    reply = await alice.slash("probe say", text="hi", channel=friends, unchecked=True)
    sent = next(p for e, p in reversed(fake.gateway_events) if e == "INTERACTION_CREATE")
    assert sent["context"] == 2 and sent["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert "guild_id" not in sent and sent["channel"]["type"] == 3
    followups = f"{fake.api_base}/webhooks/{fake.application_id}/{reply.interaction.token}"
    bot_token = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{fake.api_base}/channels/{friends.id}/messages", json={"content": "x"}, headers=bot_token
        ) as answer:
            assert answer.status == 403 and (await answer.json())["code"] == 50001
        async with session.get(f"{fake.api_base}/channels/{friends.id}", headers=bot_token) as answer:
            assert answer.status == 403
        statuses = []
        for n in range(6):
            async with session.post(followups, json={"content": f"follow-up {n}"}) as answer:
                statuses.append(answer.status)
    assert statuses == [200] * 5 + [400]
    assert fake.refused_private_calls == [
        "POST /channels/{channel_id}/messages in 'friends'",
        "GET /channels/{channel_id} in 'friends'",
    ]
    assert [v for v in fake.violations if "6th follow-up" in v]
    fake.violations.clear()  # provoked on purpose


async def test_a_rematch_in_a_group_dm_is_the_last_clicks_answer(harness: Harness) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    friends = fake.add_private_channel("friends", ["alice", "bob"])
    table = (await alice.slash("malice challenge", opponent=bob, stake=2, channel=friends)).message
    assert table is not None
    await bob.click(table, "Accept")
    first = (await harness.store.last_table(friends.id)).id
    assert (await alice.slash("resign", channel=friends)).ephemeral
    # The resignation shows through the live token of the last answer on the table message.
    await fake.wait_for(lambda: "Rematch" in table.button_labels, what="Rematch on the DM's table message")

    clicked = await alice.click(table, "Rematch")
    assert clicked.kind == "update" and "still to click" in table.text
    started = await bob.click(table, "Rematch")
    assert started.kind == "message" and not started.ephemeral, "the new table is the last click's answer"
    new_table = started.message
    assert new_table is not None and "Move" in new_table.button_labels
    row = await harness.store.last_table(friends.id)
    assert row.id != first and row.guild_id == 0 and row.status == "running"
    assert row.players == [str(bob.id), str(alice.id)] and row.options["stake"] == 2, "seats one on"
    # Played on from the new message, with no channel call at all there.
    game = game_in(harness, friends)
    user = {str(alice.id): alice, str(bob.id): bob}[game.current_player]
    await move(user, new_table, game, "rematch/0")
    assert calls_in(fake, friends) == [] and fake.refused_private_calls == []
    stats = fake.rest_stats()
    assert stats.error_codes[10062] == 0 and stats.sent_429 == 0
