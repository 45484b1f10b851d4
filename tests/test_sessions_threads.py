"""A thread per game in the session layer, with the real engines, a real store on both backends and the
recording announcer: a started game moves into a thread opened on its lobby message (the store's channel is
the thread, the channel it came from its home), the channel takes the next table, the home message shows the
game and then its result, the thread is archived last; without the permissions the game stays and says so."""

from __future__ import annotations

from bot.render.wording import word
from bot.sessions.threads import Room
from tests.refusals import refused
from tests.test_sessions import ALICE, BOB, CAROL, CHANNEL, GUILD, fixed_seeds, manager  # noqa: F401

THREADS = Room(can_thread=True, permitted=True)
DAVE = 104


def texts(message) -> str:
    return "\n".join(message.texts())


async def test_games_move_into_their_threads_and_leave_one_message_each_in_the_channel(store, announcer):
    await store.set_threads(GUILD, True)
    sessions = await manager(store, announcer)
    first = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.idle()
    lobby = sessions.presenter.message_id(first.id)
    await sessions.lobbies.accept(CHANNEL, BOB, THREADS)
    moved = sessions.tables.by_id(first.id)
    assert (moved.channel_id, moved.home_channel_id) == (lobby, CHANNEL)  # a message's thread has its id
    assert sessions.table_in(CHANNEL) is None
    second = await sessions.open_table("malice", GUILD, CHANNEL, CAROL, opponent=DAVE)
    await sessions.idle()
    await sessions.lobbies.accept(CHANNEL, DAVE, THREADS)
    two = sessions.tables.by_id(second.id).channel_id
    assert sessions.tables.threads_of(CHANNEL) == sorted([lobby, two])
    with refused("play in their threads", key="table.in_threads"):
        await sessions.life.resign(CHANNEL, ALICE)
    await sessions.idle()
    home = announcer.messages[lobby]
    assert f"the game is on in <#{lobby}>" in texts(home) and not home.rows

    await sessions.life.resign(lobby, ALICE)
    await sessions.life.resign(two, CAROL)
    await sessions.idle()
    assert sorted(s.target for s in announcer.log if s.kind == "archive") == sorted([lobby, two])
    for thread in (lobby, two):
        result = texts(announcer.messages[thread])
        assert f"Played in <#{thread}>" in result and "Game over" in result
    # The channel's own messages: the two lobbies, nothing else; the tables in the threads wrote there.
    in_channel = {s.message_id for s in announcer.log if s.target == CHANNEL and s.kind in ("send", "edit")}
    assert in_channel == {lobby, two}
    for thread in (lobby, two):  # archived last: nothing written in the thread after it
        archived = next(i for i, s in enumerate(announcer.log) if s.kind == "archive" and s.target == thread)
        assert not [s for s in announcer.log[archived + 1 :] if s.target == thread and s.kind != "dm"]
    row = await store.get_table(first.id)
    assert (row.status, row.channel_id, row.home_channel_id) == ("finished", lobby, CHANNEL)
    got, _ = await sessions.replays.history(CHANNEL, table_id=first.id)
    assert got.id == first.id and (await sessions.replays.history(lobby))[0].id == first.id
    await sessions.close()


async def test_without_the_permissions_or_the_setting_a_game_plays_in_its_channel(store, announcer):
    sessions = await manager(store, announcer)
    await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.lobbies.accept(CHANNEL, BOB, THREADS)  # the setting is off: no thread, no note
    table = sessions.table_in(CHANNEL)
    assert table is not None and table.status == "running" and not table.session.notes
    await sessions.life.resign(CHANNEL, ALICE)

    answer = await sessions.servers.set_threads(GUILD, True)
    assert "Send Messages in Threads" in word(answer.key, answer.params, "en")
    await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOB)
    await sessions.lobbies.accept(CHANNEL, BOB, Room(can_thread=True, permitted=False))
    table = sessions.table_in(CHANNEL)
    assert table is not None and table.home_channel_id is None
    assert [n.key for n in table.session.notes] == ["table.threads_missing"]
    await sessions.idle()
    assert not [s for s in announcer.log if s.kind == "thread"]
    await sessions.close()


async def test_a_thread_is_a_game_channel_when_its_channel_is(store, announcer):
    sessions = await manager(store, announcer)
    await store.set_game_channel(GUILD, CHANNEL, True)
    await sessions.open_table("malice", GUILD, 7001, ALICE, opponent=BOB, parent_id=CHANNEL)
    with refused("game channels", key="settings.refused.channel"):
        await sessions.open_table("malice", GUILD, 7002, ALICE, opponent=BOB, parent_id=CHANNEL + 1)
    await sessions.close()
