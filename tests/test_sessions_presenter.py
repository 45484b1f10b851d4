"""What the channel shows and when: the answer first, the presenter's pace, its catching up after failures
and restarts, Discord's errors, the turn ping, and how little a game leaves behind. Real engines, a real
Store on a tmp file, a recording Announcer (some of them failing on purpose)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from bot.render.common import Message
from bot.sessions import ChannelGone, EditExpired, MissingPermission, SessionManager
from tests.live import TestSessions
from tests.recording import RecordingAnnouncer
from tests.refusals import refused
from tests.test_sessions import ALICE, BOB, BOT, CHANNEL, GUILD, best_malice_move, fixed_seeds  # noqa: F401


def manager(store, announcer, **options) -> SessionManager:
    settings = {"default_timeout": 300.0, "bot_user_id": BOT, "coalesce": 0.0, "pacing": False}
    settings.update(options)
    return TestSessions(store, announcer, **settings)


async def malice_between_people(sessions):
    table = await sessions.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOB, options={"stake": 1, "timeout": 300, "turns": 40}
    )
    await sessions.lobbies.accept(CHANNEL, BOB)
    return table


def table_text(announcer: RecordingAnnouncer, table) -> str:
    return "\n".join(announcer.messages[table.message_id].texts())


async def test_a_move_is_answered_before_anything_is_written_and_quick_moves_become_one_write(store):
    announcer = RecordingAnnouncer()
    sessions = manager(store, announcer, coalesce=0.3, pacing=True)
    table = await malice_between_people(sessions)
    await sessions.idle()
    before = len(announcer.log)
    for _ in range(3):
        mover = int(table.game.current_player)
        answer = await sessions.moves.act(CHANNEL, mover, best_malice_move(table.game))
        assert isinstance(answer, Message)
        assert len(announcer.log) == before, "the answer came first: nothing was written yet"
    await sessions.idle()
    writes = announcer.log[before:]
    assert [w.kind for w in writes] == ["edit"], "three moves inside one window became one edit"
    assert table.log_lines()[-1].text in table_text(announcer, table)
    await sessions.close()


async def test_the_presenter_paces_itself_under_the_channel_bucket(store, monkeypatch):
    monkeypatch.setattr("bot.sessions.pacing.CHANNEL_WRITES", 2)
    monkeypatch.setattr("bot.sessions.pacing.CHANNEL_PERIOD", 0.4)
    times: list[float] = []

    @dataclass
    class Timed(RecordingAnnouncer):
        async def edit(self, channel_id, message_id, message):
            times.append(time.monotonic())
            return await super().edit(channel_id, message_id, message)

    announcer = Timed()
    sessions = manager(store, announcer, pacing=True)
    table = await malice_between_people(sessions)
    for _ in range(12):
        if table.status != "running":
            break
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
        await asyncio.sleep(0.05)
    await sessions.idle()
    assert len(times) >= 3
    for i in range(len(times) - 2):
        assert times[i + 2] - times[i] >= 0.4 - 0.01, "never three writes inside one 0.4 s window"
    # Paced, not dropped: the channel shows the newest state.
    assert table.log_lines()[-1].text in table_text(announcer, table)
    await sessions.close()


@dataclass
class Failing(RecordingAnnouncer):
    """Fails the next `failures` sends/edits with `error` (Discord unwell), then works."""

    failures: int = 0
    error: type[Exception] = RuntimeError
    failed: int = 0

    def _maybe_fail(self) -> None:
        if self.failures > 0:
            self.failures -= 1
            self.failed += 1
            raise self.error("Discord is unwell")

    async def send(self, channel_id, message):
        self._maybe_fail()
        return await super().send(channel_id, message)

    async def edit(self, channel_id, message_id, message):
        self._maybe_fail()
        return await super().edit(channel_id, message_id, message)


async def test_failed_writes_are_retried_and_the_channel_catches_up_without_losing_a_line(store, monkeypatch):
    monkeypatch.setattr("bot.sessions.presenter.RETRY_PAUSES", (0.01, 0.02))
    announcer = Failing()
    sessions = manager(store, announcer)
    table = await malice_between_people(sessions)
    await sessions.idle()
    announcer.failures = 4
    for _ in range(3):
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    assert announcer.failed == 4
    shown = table_text(announcer, table)
    for line in table.log_lines()[-5:]:
        assert line.text in shown
    await sessions.close()


async def test_a_resign_is_stored_whatever_discord_does_and_survives_a_restart(store):
    """The seat's new controller is stored in the move's own transaction, before any Discord call."""
    announcer = Failing()
    sessions = manager(store, announcer)
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE, options={"chips": 10})
    await sessions.lobbies.join(CHANNEL, BOB)
    await sessions.lobbies.start(CHANNEL, ALICE)
    await sessions.idle()
    announcer.failures = 10_000  # from now on every send and edit fails
    assert (await sessions.life.resign(CHANNEL, ALICE)).word("en") == "You resigned."
    await sessions.close()
    assert (await store.get_table(table.id)).meta["computer_seats"] == [str(ALICE)]
    later = manager(store, RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id))
    await later.resume_all()
    assert list(later.table_in(CHANNEL).session.computer_seats) == [str(ALICE)]
    await later.close()


async def test_moves_stored_but_never_shown_are_shown_after_a_restart(store):
    """A crash between storing and announcing: what the channel shows comes from the stored state, so the
    next process catches up."""
    announcer = RecordingAnnouncer()
    sessions = manager(store, announcer)
    table = await malice_between_people(sessions)
    await sessions.idle()
    sessions.presenter._started.clear()  # from here on nothing reaches Discord: the "crash" loses it all
    for _ in range(3):
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    unseen = [line.text for line in table.log_lines()[-3:]]
    assert not any(line in table_text(announcer, table) for line in unseen[-1:])
    await sessions.close()
    later_announcer = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    later = manager(store, later_announcer)
    await later.resume_all()
    await later.idle()
    shown = table_text(later_announcer, later.table_in(CHANNEL))
    assert all(line in shown for line in unseen)
    assert "restarted" in shown
    await later.close()


async def test_an_old_table_message_that_can_no_longer_be_edited_is_replaced(store):
    @dataclass
    class Expiring(RecordingAnnouncer):
        expired: set[int] = field(default_factory=set)

        async def edit(self, channel_id, message_id, message):
            if message_id in self.expired:
                raise EditExpired("30046")
            return await super().edit(channel_id, message_id, message)

    announcer = Expiring()
    sessions = manager(store, announcer)
    table = await malice_between_people(sessions)
    await sessions.idle()
    old = table.message_id
    announcer.expired.add(old)
    await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    new = table.message_id
    assert new != old and old not in announcer.messages, "a fresh table message, the old one deleted"
    assert (await store.get_table(table.id)).display["table_message_id"] == new
    assert table.log_lines()[-1].text in table_text(announcer, table)
    await sessions.close()


async def test_a_deleted_channel_ends_the_game_and_settles_it(store):
    @dataclass
    class Gone(RecordingAnnouncer):
        gone: bool = False

        async def edit(self, channel_id, message_id, message):
            if self.gone:
                raise ChannelGone("10003")
            return await super().edit(channel_id, message_id, message)

    announcer = Gone()
    sessions = manager(store, announcer)
    table = await malice_between_people(sessions)
    await sessions.idle()
    announcer.gone = True
    await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    row = await store.get_table(table.id)
    assert row.status == "finished" and table.game.public_view().result.reason == "cancelled"
    assert sum(e.amount for e in await store.ledger(table.id) if e.to_account == str(ALICE)) == sum(
        e.amount for e in await store.ledger(table.id) if e.from_account == str(BOB)
    )
    assert sessions.table_in(CHANNEL) is None, "the channel is free again"
    await sessions.close()


async def test_a_lobby_the_bot_cannot_post_is_refused_in_a_sentence_and_not_left_open(store):
    @dataclass
    class Mute(RecordingAnnouncer):
        async def send(self, channel_id, message):
            raise MissingPermission("send_messages")

    sessions = manager(store, Mute())
    with refused("Send Messages"):
        await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE)
    assert await store.active_table(CHANNEL) is None and sessions.table_in(CHANNEL) is None
    await sessions.close()
    working = manager(store, RecordingAnnouncer())
    assert (await working.open_table("insomnia", GUILD, CHANNEL, ALICE)).status == "lobby"
    await working.close()


async def test_a_lobby_posted_while_discord_fails_appears_when_it_recovers(store, monkeypatch):
    monkeypatch.setattr("bot.sessions.presenter.RETRY_PAUSES", (0.01,))
    announcer = Failing(failures=2)
    sessions = manager(store, announcer)
    table = await sessions.open_table("insomnia", GUILD, CHANNEL, ALICE)
    assert table.status == "lobby"
    await sessions.idle()
    assert table.message_id in announcer.messages
    assert "Join" in [b.label for row in announcer.messages[table.message_id].rows for b in row]
    await sessions.close()


async def test_a_lobby_still_on_its_way_when_the_presenter_looks_is_edited_not_posted_twice(
    store, monkeypatch
):
    """Many tables opening at once: a lobby's post may wait for its turn longer than the presenter's pause,
    so its worker looks while the lobby is still on its way. The lobby's message must become the table
    message all the same: no second message, no lobby left behind showing one seat."""
    on_its_way = asyncio.Event()

    @dataclass
    class Held(RecordingAnnouncer):
        async def send(self, channel_id, message):
            if not self.log:  # the lobby's post: answered only once the worker has looked
                await on_its_way.wait()
            return await super().send(channel_id, message)

    announcer = Held()
    sessions = manager(store, announcer)
    presenter = sessions.presenter
    write_table, looked = presenter.write_table, asyncio.Event()

    async def looking(job):
        looked.set()  # the worker does not pause from here until it waits for the lobby's post
        await write_table(job)

    monkeypatch.setattr(presenter, "write_table", looking)
    opening = asyncio.ensure_future(sessions.open_table("insomnia", GUILD, CHANNEL, ALICE))
    await looked.wait()
    on_its_way.set()
    table = await opening
    await sessions.lobbies.join(CHANNEL, BOB)
    await sessions.lobbies.add_computer(CHANNEL, ALICE)
    await sessions.lobbies.start(CHANNEL, ALICE)
    await sessions.idle()
    posted = [s.message_id for s in announcer.log if s.kind == "send" and s.target == CHANNEL]
    assert posted == [table.message_id], "one message in the channel: the lobby's, edited into the game"
    labels = [b.label for row in announcer.messages[table.message_id].rows for b in row]
    assert "Move" in labels and "Join" not in labels
    await sessions.close()


async def test_the_turn_ping_comes_after_a_quiet_while_and_goes_when_the_turn_passes(store):
    announcer = RecordingAnnouncer()
    sessions = manager(store, announcer, ping_after=0.2)
    table = await malice_between_people(sessions)

    def is_ping(s):
        return s.kind == "send" and "it is your turn" in (s.message.content or "")

    async def play_out_turn():
        mover = table.game.current_player
        for _ in range(30):
            if table.game.current_player != mover:
                return
            await sessions.moves.act(CHANNEL, int(mover), best_malice_move(table.game))

    await asyncio.sleep(0.3)
    await sessions.idle()
    assert not [s for s in announcer.log if is_ping(s)], "no ping for the first turn: nobody passed it on"
    await play_out_turn()
    second = table.game.current_player
    await sessions.idle()
    assert not [s for s in announcer.log if is_ping(s)], "no ping at once: the player may be watching"
    ping = await announcer.wait_for(is_ping)
    assert ping.message.mentions == [int(second)]
    await play_out_turn()
    await sessions.idle()
    assert ping.message_id not in announcer.messages, "the ping went with the turn"
    again = await announcer.wait_for(lambda s: is_ping(s) and s is not ping)
    assert again.message.mentions == [int(table.game.current_player)] != [int(second)]
    await sessions.close()


async def test_a_finished_game_leaves_only_its_table_message(store):
    announcer = RecordingAnnouncer()
    sessions = manager(store, announcer, ping_after=0.0)
    table = await sessions.open_table(
        "malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"stake": 1, "turns": 40}
    )
    for _ in range(2000):
        await sessions.idle()
        if table.status != "running":
            break
        await sessions.moves.act(CHANNEL, ALICE, best_malice_move(table.game))
    await sessions.idle()
    assert table.status == "finished"
    assert list(announcer.messages) == [table.message_id]
    assert "Game over" in table_text(announcer, table)
    pings = [s for s in announcer.log if s.kind == "send" and "it is your turn" in (s.message.content or "")]
    assert not pings, "against the computer the turn never passes to another person: no ping"
    await sessions.close()


async def test_without_attach_files_the_table_goes_on_in_text_and_says_so_once(store):
    @dataclass
    class NoFiles(RecordingAnnouncer):
        refused: int = 0

        async def edit(self, channel_id, message_id, message):
            if message.picture is not None:
                self.refused += 1
                raise MissingPermission("attach_files")
            return await super().edit(channel_id, message_id, message)

    announcer = NoFiles()
    sessions = manager(store, announcer)
    table = await malice_between_people(sessions)
    await sessions.idle()
    for _ in range(3):
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    assert announcer.refused == 1, "refused once, then text only"
    assert (await store.get_table(table.id)).display["pictures_off"] is True
    shown = announcer.messages[table.message_id]
    assert shown.picture is None and table.log_lines()[-1].text in table_text(announcer, table)
    notes = [s for s in announcer.public() if any("Attach Files" in t for t in s.message.texts())]
    assert notes, "the channel is told why there are no pictures"
    await sessions.close()


async def test_a_restart_on_the_computers_turn_still_says_so_on_the_table(store):
    """The computer moves at once after a restart; the "restarted" note must survive until it was shown."""
    announcer = RecordingAnnouncer()
    sessions = manager(store, announcer)
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"turns": 40})
    for _ in range(200):
        await sessions.idle()
        if table.playing.current_player == str(ALICE):
            break
    # Alice ends her turn; the process stops before the computer could move.
    while table.playing.current_player == str(ALICE):
        await sessions.moves.act(CHANNEL, ALICE, best_malice_move(table.playing))
    await sessions.close(flush=0)
    later_announcer = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    later = manager(store, later_announcer)
    await later.resume_all()
    await later.idle()
    resumed = later.table_in(CHANNEL)
    assert resumed is not None and resumed.seq > table.seq, "the computer moved right after the restart"
    shown = [t for s in later_announcer.public() for t in s.message.texts()]
    assert any("restarted" in t for t in shown)
    await later.close()
