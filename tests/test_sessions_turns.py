"""One turn message at a time: edited while the same person keeps the turn, replaced (the old one deleted,
a new one posted so the mention notifies) when the turn passes, deleted when a computer moves or the game
ends, and still deleted by a new process after a restart."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.render.common import Message
from bot.sessions import SessionManager
from tests.test_sessions import (  # noqa: F401 - fixed_seeds is an autouse fixture
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    RecordingAnnouncer,
    best_malice_move,
    fixed_seeds,
    manager,
    started_insomnia,
)


def is_turn(message: Message) -> bool:
    return (message.content or "").startswith("➡️")


def live_turns(announcer: RecordingAnnouncer) -> dict[int, Message]:
    return {mid: m for mid, m in announcer.messages.items() if is_turn(m)}


def assert_never_two_turn_messages(announcer: RecordingAnnouncer) -> int:
    """Replays the whole record: at no moment were two turn messages live. Returns how many were posted."""
    live: set[int] = set()
    posted = 0
    for sent in announcer.log:
        if sent.kind == "send" and is_turn(sent.message):
            live.add(sent.message_id)
            posted += 1
        elif sent.kind == "delete":
            live.discard(sent.message_id)
        assert len(live) <= 1, f"two turn messages live at once: {sorted(live)}"
    return posted


def deleted(announcer: RecordingAnnouncer, message_id: int) -> bool:
    return any(s.kind == "delete" and s.message_id == message_id for s in announcer.log)


async def test_the_turn_message_is_edited_for_the_same_player_and_replaced_when_the_turn_passes(
    store, announcer
):
    sessions = await manager(store, announcer)
    table = await sessions.challenge(GUILD, CHANNEL, ALICE, BOB, timeout=300, turns=6)
    await sessions.accept(CHANNEL, BOB)
    previous: tuple[str, int] | None = None
    passes = keeps = 0
    for _ in range(500):
        if table.status != "running":
            break
        current = table.game.current_player
        live = live_turns(announcer)
        assert len(live) == 1
        ((message_id, message),) = live.items()
        assert message.mentions == [int(current)] and f"<@{current}>, your turn" in message.content
        assert table.meta.turn_message_id == message_id and table.meta.turn_player == current
        if previous is not None and previous[0] == current:
            keeps += 1
            assert message_id == previous[1], "the same player's turn message is edited in place"
            assert [s.kind for s in announcer.log if s.message_id == message_id][-1] == "edit"
        elif previous is not None:
            passes += 1
            assert message_id != previous[1], "a new player gets a new message (the mention notifies)"
            assert deleted(announcer, previous[1]) and previous[1] not in announcer.messages
        previous = (current, message_id)
        await sessions.act(CHANNEL, int(current), best_malice_move(table.game))
    assert table.status == "finished"
    assert passes >= 4 and keeps >= 2, (passes, keeps)
    assert live_turns(announcer) == {}, "the game is over: no turn message is left"
    assert deleted(announcer, previous[1])
    assert assert_never_two_turn_messages(announcer) == passes + 1
    assert (await store.get_table(table.id)).meta["turn_message_id"] is None


async def test_a_restarted_manager_deletes_the_old_turn_message_and_posts_a_fresh_one(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.challenge(GUILD, CHANNEL, ALICE, BOB, timeout=300)
    await sessions.accept(CHANNEL, BOB)
    await sessions.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    old_id = table.meta.turn_message_id
    assert old_id is not None and (await store.get_table(table.id)).meta["turn_message_id"] == old_id
    await sessions.close()

    # A new process knows only what is stored: the old id comes from the table meta.
    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    resumed: SessionManager = await manager(store, later)
    assert await resumed.resume_all() == 1
    table2 = resumed.table_in(CHANNEL)
    assert deleted(later, old_id) and old_id not in later.messages
    ((new_id, message),) = live_turns(later).items()
    assert new_id != old_id and message.mentions == [int(table2.game.current_player)]
    kinds = [(s.kind, s.message_id) for s in later.log if s.message_id in (old_id, new_id)]
    assert kinds.index(("delete", old_id)) < kinds.index(("send", new_id)), "never two at once"
    assert (await store.get_table(table.id)).meta["turn_message_id"] == new_id
    await resumed.close()


async def test_no_turn_message_stays_while_a_computer_moves_or_after_the_game(store, announcer):
    sessions = await manager(store, announcer)
    table = await started_insomnia(sessions, computer=True, chips=5, deals=1, timeout=300)
    computer_turns = 0
    for _ in range(500):
        if table.status != "running":
            break
        player = table.game.current_player
        await sessions.act(CHANNEL, int(player), table.game.legal_actions()[0])
        if table.status == "running" and table.game.current_player == "ai:1":
            # The computer has not moved yet: the human's turn message is already gone.
            computer_turns += 1
            assert live_turns(announcer) == {} and table.meta.turn_message_id is None
        await sessions.idle()
        if table.status == "running":
            ((_, message),) = live_turns(announcer).items()
            assert message.mentions == [int(table.game.current_player)]
    assert table.status == "finished" and computer_turns >= 1
    assert live_turns(announcer) == {}
    posted = assert_never_two_turn_messages(announcer)
    turns = [s.message for s in announcer.log if s.kind == "send" and is_turn(s.message)]
    assert posted == len(turns) and all(m.mentions[0] in (ALICE, BOB) for m in turns)


@dataclass
class HoldingAnnouncer(RecordingAnnouncer):
    """Holds the first public message that contains `hold` until the test lets it go (it never does here)."""

    hold: str = ""
    held: asyncio.Event = field(default_factory=asyncio.Event)
    cancelled: bool = False

    async def _wait_if_held(self, message: Message) -> None:
        if self.hold and not self.held.is_set() and any(self.hold in t for t in message.texts()):
            self.held.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled = True
                raise

    async def send(self, channel_id: int, message: Message) -> int:
        await self._wait_if_held(message)
        return await super().send(channel_id, message)

    async def edit(self, channel_id: int, message_id: int, message: Message) -> bool:
        await self._wait_if_held(message)
        return await super().edit(channel_id, message_id, message)


async def test_closing_the_manager_stops_a_timer_that_is_half_way_through_its_cycle(store):
    """A restart while a timeout is being announced: the old process must not go on posting (or writing to a
    store about to close) after `close()` returned, next to the new process that resumed the table."""
    announcer = HoldingAnnouncer(hold="ran out of time")
    sessions = await manager(store, announcer, timeout=0.05)
    table = await sessions.challenge(GUILD, CHANNEL, ALICE, BOB)
    await sessions.accept(CHANNEL, BOB)
    await asyncio.wait_for(announcer.held.wait(), 10)  # the timer stored the default and is announcing it
    stored = await store.actions(table.id)
    assert stored and {a.actor for a in stored} == {"timeout"}
    await sessions.close()
    assert announcer.cancelled, "close() stopped the announcement in flight instead of leaving it running"
    posted = len(announcer.log)
    # Nothing of the old manager runs any more: a new one resumes from what was stored and finds it intact.
    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    resumed = await manager(store, later)
    assert await resumed.resume_all() == 1
    assert resumed.table_in(CHANNEL).seq == len(stored) and len(announcer.log) == posted
    await resumed.close()



async def test_a_turn_message_posted_again_for_the_same_player_does_not_ping_him_twice(store, announcer):
    """When something lands below the turn message (a new log message, the closed-DMs note) it is posted again
    to stay last; the player was told already, so only the first post pings him, unless the bot restarted
    (the deadline is new then)."""
    sessions = await manager(store, announcer)
    table = await started_insomnia(sessions, chips=10, timeout=300)
    player = int(table.game.current_player)

    def turn_posts():
        return [s.message for s in announcer.log if s.kind == "send" and is_turn(s.message)]

    assert turn_posts()[-1].mentions == [player]
    await sessions._turn_message(table, fresh=True)  # what the log does when its new message lands below
    again = turn_posts()[-1]
    assert f"<@{player}>, your turn" in again.content and again.mentions == []
    await sessions._turn_message(table, fresh=True, restarted=True)
    assert turn_posts()[-1].mentions == [player]
    await sessions.act(CHANNEL, player, {"kind": "pass"})  # the turn passes: the next player is pinged
    nxt = int(table.game.current_player)
    assert nxt != player and turn_posts()[-1].mentions == [nxt]
    await sessions.close()
