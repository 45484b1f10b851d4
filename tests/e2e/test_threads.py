"""A thread per game (`/settings threads`), through the real bot and the fake Discord with Discord's rate
limits on: the lobby or challenge stays in the channel, the game plays in a public thread opened on it, the
result comes back on the lobby message and the thread is archived, so the channel keeps exactly one message
per game; two games at once in one channel; the permissions missing (the game plays in the channel and its
table says so, in the table's language); a restart mid-game; a thread Discord archived on its own; the
setting itself and the game channels' allowance for threads, on both backends."""

from __future__ import annotations

import pytest

from bot.games.ai import choose_action
from tests.e2e.fake_discord import THREAD_PERMISSIONS, FakeChannel, FakeDiscord, FakeMessage
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import live_game, poll, table_message

SEED = "e2e-malice-261"
THREAD_ROUTE = "POST /channels/{channel_id}/messages/{message_id}/threads"


def source_value(action) -> str:
    return str(action.card) if action.source == "hand" else action.source


async def threads_on(harness: Harness, *, grant: bool = True) -> str:
    """The server plays in threads (and the bot has the permissions for it, unless `grant` is False)."""
    if grant:
        harness.fake.bot_permissions |= THREAD_PERMISSIONS
    done = await harness.user("erin").slash("settings threads", threads="thread-per-game")
    return done.text


async def thread_on(fake: FakeDiscord, message: FakeMessage) -> FakeChannel:
    await fake.wait_for(lambda: fake.thread_of(message) is not None, what="a thread on the lobby message")
    thread = fake.thread_of(message)
    assert thread is not None
    return thread


async def malice_moves(harness: Harness, where: int, people: dict, count: int, start: int = 0) -> None:
    """`count` moves of the Malice game in `where` (a thread's id), typed as slash commands there by whoever
    holds the turn, as the computer player would choose them."""
    for n in range(start, start + count):
        game = await poll(lambda: live_game(harness, where), what="the game in its thread")
        user = people[game.current_player]
        action = choose_action(game, game.current_player, f"{SEED}/{n}")
        if action.kind == "play":
            reply = await user.slash("malice play", card=source_value(action), to=action.to, channel=where)
        else:
            reply = await user.slash("malice end", channel=where)
        assert reply.ephemeral and "not your turn" not in reply.text, reply.text


async def assert_one_message_per_game(harness: Harness, homes: list[FakeMessage]) -> None:
    fake = harness.fake
    await harness.bot.sessions.idle()
    assert [m.id for m in fake.channel_messages("games")] == [m.id for m in homes]
    for home in homes:
        thread = fake.thread_of(home)
        assert thread is not None and thread.archived, "the thread is archived at the end"
        assert f"Played in <#{thread.id}>" in home.text and "Game over" in home.text
        # The result in the channel carries the finished table's own buttons (Replay), none of the thread.
        assert "Replay" in home.button_labels
        assert all(b.custom_id.startswith(("cardtable:", "cardreplay:")) for b in home.buttons)
    stats = fake.rest_stats()
    assert stats.sent_429 == 0, stats.answers_429


pytestmark = pytest.mark.bot(rate_limits=True)


@pytest.mark.both_backends
async def test_a_malice_game_plays_in_its_thread_and_leaves_one_message_in_the_channel(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    said = await threads_on(harness)
    assert "Create Public Threads" in said and "Send Messages in Threads" in said
    assert (await harness.store.guild_settings(fake.guild_id)).threads

    await alice.slash("malice challenge", opponent=bob)
    challenge = table_message(fake, "challenges")
    assert bob.id in challenge.pinged
    await bob.click(challenge, "Accept")
    thread = await thread_on(fake, challenge)
    assert thread.parent_id == fake.channel("games").id and thread.id == challenge.id
    table_id = harness.bot.sessions.tables.in_channel(thread.id).id
    assert thread.name == f"Malice · table #{table_id}"
    # The table message lives in the thread; the challenge says where the game is, with no buttons left.
    table = await fake.wait_for_message(channel=thread.id, contains="Malice · table")
    await fake.wait_for(lambda: f"<#{thread.id}>" in challenge.text, what="the lobby naming the thread")
    assert "the game is on" in challenge.text and not challenge.buttons
    assert harness.bot.sessions.tables.in_channel(fake.channel("games").id) is None, "the channel is free"

    people = {str(alice.id): alice, str(bob.id): bob}
    await malice_moves(harness, thread.id, people, 12)
    mover = people[live_game(harness, thread.id).current_player]
    assert "It is your turn" in (await mover.slash("hand", channel=thread.id)).text
    assert "Malice" in (await carol.slash("table", channel=thread.id)).text
    # From the channel: the commands say where the games are.
    refused = await carol.slash("table")
    in_threads = f"The games of this channel play in their threads: <#{thread.id}>. Use the command there."
    assert refused.text == in_threads
    assert (await alice.slash("resign")).text.startswith("The games of this channel play in their threads")

    assert (await alice.slash("resign", channel=thread.id)).ephemeral
    await fake.wait_for(lambda: "Game over" in challenge.text, what="the result on the lobby message")
    await fake.wait_for(lambda: thread.archived, what="the thread archived")
    assert "Game over" in table.text, "the thread's table message shows the end too"
    await assert_one_message_per_game(harness, [challenge])
    row = await harness.store.get_table(table_id)
    where = ("finished", thread.id, fake.channel("games").id)
    assert (row.status, row.channel_id, row.home_channel_id) == where
    # /history finds the game from its thread and from the channel.
    assert "resign" in (await alice.slash("history", channel=thread.id)).text.lower()
    assert f"#{table_id}" in (await carol.slash("history")).text
    # Traffic: the channel got the lobby, its two edits (playing, over); the thread had its own budget.
    thread_writes = [c for c in fake.rest_stats().calls if c.bucket == f"message writes {thread.id}"]
    home_writes = [c for c in fake.rest_stats().calls if c.bucket == f"message writes {challenge.channel_id}"]
    assert len(home_writes) == 3 and thread_writes
    assert len(fake.calls(THREAD_ROUTE)) == 1


async def test_an_insomnia_game_plays_in_its_thread_in_german(harness: Harness) -> None:
    fake = harness.fake
    fake.guild_locale = "de"
    alice, bob = harness.user("alice"), harness.user("bob")
    await threads_on(harness)
    await alice.slash("insomnia new")
    lobby = table_message(fake, "Insomnia")
    await bob.click(lobby, "Beitreten")
    await alice.click(lobby, "Computer dazu")
    await alice.click(lobby, "Starten")
    thread = await thread_on(fake, lobby)
    table_id = harness.bot.sessions.tables.in_channel(thread.id).id
    assert thread.name == f"Insomnia · Tisch #{table_id}"
    await fake.wait_for_message(channel=thread.id, contains="Insomnia")
    await fake.wait_for(lambda: "das Spiel läuft in" in lobby.text, what="the lobby naming the thread")
    # The host ends it from the thread: settled by the rules, the result back on the lobby message.
    assert (await alice.slash("cancel", channel=thread.id)).ephemeral
    await fake.wait_for(lambda: thread.archived, what="the thread archived")
    assert f"Gespielt in <#{thread.id}>" in lobby.text
    await harness.bot.sessions.idle()
    assert [m.id for m in fake.channel_messages("games")] == [lobby.id]
    assert fake.rest_stats().sent_429 == 0


async def test_two_games_at_once_in_one_channel_each_in_its_thread(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob, carol, dave = (harness.user(n) for n in ("alice", "bob", "carol", "dave"))
    await threads_on(harness)
    await alice.slash("malice challenge", opponent=bob)
    first = table_message(fake, "challenges")
    # While a challenge waits in the channel, it takes no other table; once it plays in its thread, it does.
    assert "already has a game" in (await carol.slash("malice challenge", opponent=dave)).text
    await bob.click(first, "Accept")
    one = await thread_on(fake, first)
    await carol.slash("malice challenge", opponent=dave)
    second = next(m for m in fake.channel_messages("games") if m.id != first.id)
    await dave.click(second, "Accept")
    two = await thread_on(fake, second)
    assert one.id != two.id

    first_people = {str(alice.id): alice, str(bob.id): bob}
    second_people = {str(carol.id): carol, str(dave.id): dave}
    for turn in range(4):  # the two games move in turn, each in its own thread and bucket
        await malice_moves(harness, one.id, first_people, 3, start=turn * 3)
        await malice_moves(harness, two.id, second_people, 3, start=turn * 3)
    refused = await carol.slash("table")
    assert f"<#{one.id}>, <#{two.id}>" in refused.text
    assert "You are not playing" in (await carol.slash("resign", channel=one.id)).text
    await bob.slash("resign", channel=one.id)
    await dave.slash("resign", channel=two.id)
    await fake.wait_for(lambda: one.archived and two.archived, what="both threads archived")
    await assert_one_message_per_game(harness, [first, second])
    buckets = {c.bucket for c in fake.rest_stats().calls}
    assert {f"message writes {one.id}", f"message writes {two.id}"} <= buckets


async def test_without_the_permissions_the_game_plays_in_the_channel_and_its_table_says_so(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await threads_on(harness, grant=False)  # the invite link's minimal permissions
    await alice.slash("malice challenge", opponent=bob)
    challenge = table_message(fake, "challenges")
    await bob.click(challenge, "Accept")
    missing = "but I may not open one here (I need Create Public Threads and Send Messages in Threads)"
    await fake.wait_for(lambda: missing in challenge.text, what="the table saying why it plays here")
    assert fake.threads == {} and not fake.calls(THREAD_ROUTE), "the bot did not even try"
    await malice_moves(harness, fake.channel("games").id, {str(alice.id): alice, str(bob.id): bob}, 20)
    await harness.bot.sessions.idle()
    told = [h for h in challenge.history if missing in h]
    assert told and missing not in challenge.text, "said once: the log moved on past it"

    # Discord may still refuse a thread the interaction said the bot could open (a channel's own override):
    # the game plays in the channel all the same, and says so, in the table's language (German here).
    await alice.slash("resign")
    fake.bot_permissions |= THREAD_PERMISSIONS
    fake.guild_locale = "de"
    fake.fail_next(THREAD_ROUTE, 403, code=50013)
    carol, dave = harness.user("carol"), harness.user("dave")
    await carol.slash("malice challenge", opponent=dave, channel="lounge")
    lounge = table_message(fake, "fordert", channel="lounge")
    await dave.click(lounge, "Annehmen")
    await fake.wait_for(lambda: "aber ich darf hier keinen eröffnen" in lounge.text, what="the German note")
    assert fake.threads == {} and len(fake.calls(THREAD_ROUTE)) == 1
    assert harness.bot.sessions.tables.in_channel(fake.channel("lounge").id) is not None
    assert fake.rest_stats().sent_429 == 0


@pytest.mark.both_backends
async def test_a_restart_mid_game_resumes_in_the_thread_and_an_archived_thread_is_unarchived(
    harness: Harness, monkeypatch
) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: SEED)
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    people = {str(alice.id): alice, str(bob.id): bob}
    await threads_on(harness)
    await alice.slash("malice challenge", opponent=bob)
    challenge = table_message(fake, "challenges")
    await bob.click(challenge, "Accept")
    thread = await thread_on(fake, challenge)
    await malice_moves(harness, thread.id, people, 6)
    await harness.bot.sessions.idle()

    await harness.restart_bot()
    table = await fake.wait_for_message(channel=thread.id, contains="Malice · table")
    await fake.wait_for(lambda: any("resumed" in h for h in table.history), what="resumed in the thread")
    assert harness.bot.sessions.tables.in_channel(thread.id) is not None
    await malice_moves(harness, thread.id, people, 6, start=6)

    # Idle for a day, Discord archives the thread on its own: the next move's edit unarchives it first.
    await harness.bot.sessions.idle()
    fake.archive_thread(thread)
    before = len(table.versions)
    await malice_moves(harness, thread.id, people, 1, start=12)
    await fake.wait_for(lambda: len(table.versions) > before, what="the table message edited again")
    assert not thread.archived and fake.rest_stats().error_codes[50083] == 1

    await bob.slash("resign", channel=thread.id)
    await fake.wait_for(lambda: thread.archived and "Game over" in challenge.text, what="the end")
    await assert_one_message_per_game(harness, [challenge])
    assert fake.rest_stats().error_codes[50083] == 1, "never an edit of the archived thread at the end"


@pytest.mark.both_backends
async def test_the_thread_setting_and_game_channels_that_take_their_threads(harness: Harness) -> None:
    fake = harness.fake
    alice, bob, erin = harness.user("alice"), harness.user("bob"), harness.user("erin")
    shown = await erin.slash("settings show")
    assert "Thread per game" in shown.text and "off: each game plays in its channel" in shown.text
    refused = await alice.slash("settings threads", threads="thread-per-game")
    assert refused.text == "You need the Manage Server permission to do that."
    said = await erin.slash("settings threads", threads="thread-per-game")
    assert said.text.startswith("Each new game now plays in a thread of its own")
    assert "**Create Public Threads** and **Send Messages in Threads**" in said.text
    erin.user.locale = "de"
    shown = await erin.slash("settings show")
    assert "Ein Thread pro Spiel" in shown.text and "an: jedes Spiel läuft in einem Thread" in shown.text
    off = await erin.slash("settings threads", threads="in-channel")
    assert off.text.startswith("Neue Spiele laufen wieder in ihrem Kanal")
    assert not (await harness.store.guild_settings(fake.guild_id)).threads
    await erin.slash("settings threads", threads="thread-per-game")
    await harness.restart_bot()
    assert (await harness.store.guild_settings(fake.guild_id)).threads, "kept across a restart"

    # Game channels: a thread of a listed channel takes games, one of another channel does not; a game
    # opened in a thread plays there (no thread in a thread).
    fake.bot_permissions |= THREAD_PERMISSIONS
    talk = fake.add_thread("games", "games talk")
    aside = fake.add_thread("lounge", "lounge talk")
    await erin.slash("settings channels add", values={"channel": "games"})
    refused = await alice.slash("malice challenge", opponent=bob, channel=aside.id)
    assert "**game channels**" in refused.text
    await alice.slash("malice challenge", opponent=bob, channel=talk.id)
    challenge = table_message(fake, "challenges", channel=talk.id)
    await bob.click(challenge, "Accept")
    await fake.wait_for(lambda: "Malice · table" in challenge.text, what="the game on the challenge")
    assert fake.thread_of(challenge) is None and not fake.calls(THREAD_ROUTE)
    assert harness.bot.sessions.tables.in_channel(talk.id) is not None


async def test_a_rematch_of_a_game_in_its_thread_opens_in_the_channel_and_plays_in_a_new_thread(
    harness: Harness,
) -> None:
    fake = harness.fake
    alice, bob = harness.user("alice"), harness.user("bob")
    await threads_on(harness)
    await alice.slash("malice challenge", opponent=bob)
    challenge = table_message(fake, "challenges")
    await bob.click(challenge, "Accept")
    thread = await thread_on(fake, challenge)
    first = harness.bot.sessions.tables.in_channel(thread.id).id
    assert (await alice.slash("resign", channel=thread.id)).ephemeral
    await fake.wait_for(lambda: "Game over" in challenge.text, what="the result on the lobby message")
    await fake.wait_for(lambda: "Rematch" in challenge.button_labels, what="Rematch on the channel's message")
    await fake.wait_for(lambda: thread.archived, what="the first thread archived")

    # Both click Rematch on the result left in the channel: the new game opens there and moves to a thread.
    await alice.click(challenge, "Rematch")
    await bob.click(challenge, "Rematch")
    channel = fake.channel("games").id
    row = await poll(
        lambda: (r := harness.bot.sessions.tables.by_id(first + 1)) is not None and r.home_channel_id and r,
        what="the rematch's table moved into its thread",
    )
    assert len(fake.calls(THREAD_ROUTE)) == 2, "a thread of its own"
    assert row.home_channel_id == channel and row.channel_id != thread.id, "a thread of its own, home here"
    assert row.players == (str(bob.id), str(alice.id)), "the seats moved one on"
    started = f"rematch started: table #{row.id}"
    await fake.wait_for(lambda: started in challenge.text, what="the started line on the channel's message")
    assert "Rematch" not in challenge.button_labels
    assert (await bob.slash("resign", channel=row.channel_id)).ephemeral
    await poll(lambda: harness.bot.sessions.tables.by_id(row.id) is None, what="the rematch's end")
    homes = fake.channel_messages("games")
    assert len(homes) == 2, "the channel keeps one message per game"
    await assert_one_message_per_game(harness, homes)
