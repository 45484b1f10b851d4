"""Tables in places where the bot may only answer interactions (a DM or group DM of a user install), on the
session layer alone: nothing is ever sent, edited, deleted or DMed in their channel; the table message is the
opening command's answer; changes nobody clicked for go through the live token of the last answer on it, at
most 5 times and while it is under 15 minutes old, else wait for the next click. Real engines, a real Store,
a recording Announcer."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.discord_out import encode
from bot.render.common import Message
from bot.sessions.places import INTERACTION, TOKEN_USES
from tests.recording import RecordingAnnouncer
from tests.refusals import refused
from tests.test_sessions import ALICE, BOB, BOT, CHANNEL, best_malice_move, fixed_seeds  # noqa: F401
from tests.test_sessions_presenter import manager


@dataclass
class AnsweringAnnouncer(RecordingAnnouncer):
    """Also edits an interaction's original response through its token (the only write in a DM)."""

    by_token: list[tuple[str, Message]] = field(default_factory=list)
    dead: set[str] = field(default_factory=set)

    async def edit_original(self, token: str, message: Message) -> bool:
        if token in self.dead:
            return False
        self.by_token.append((token, message))
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def open_in_dm(sessions, announcer):
    record = await sessions.open_table(
        "malice", 0, CHANNEL, ALICE, opponent=BOB, place=INTERACTION, options={"timeout": 300}
    )
    async with sessions.places.first_answer(record.id) as first:
        assert first is not None and "Accept" in first.message.texts()
        first.sent(7001, "open-token")
    return record


async def test_a_dm_table_is_never_written_in_its_channel_and_shows_through_the_live_token(store):
    announcer, clock = AnsweringAnnouncer(), Clock()
    sessions = manager(store, announcer, clock=clock)
    record = await open_in_dm(sessions, announcer)
    row = await store.get_table(record.id)
    assert row is not None and row.guild_id == 0 and row.display["place"] == INTERACTION
    await sessions.lobbies.accept(CHANNEL, BOB)  # a slash command: no click on the table message
    await sessions.idle()
    assert [t for t, _ in announcer.by_token] == ["open-token"]
    assert "Malice · table" in "\n".join(announcer.by_token[-1][1].texts())
    # Moves by command: each shown through that token, at most TOKEN_USES times in all.
    for _ in range(8):
        table = sessions.table_in(CHANNEL)
        await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
        await sessions.idle()
    assert len(announcer.by_token) == TOKEN_USES
    # A click on the table message answers with the newest state and its token takes over.
    async with sessions.presenter.answers.update(record.id, 7001, "click-token") as update:
        assert update is not None and any(b.label == "Move" for row in update.rows for b in row)
    table = sessions.table_in(CHANNEL)
    await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    assert announcer.by_token[-1][0] == "click-token"
    # Fifteen minutes on, the token is not used any more: the change waits for the next click.
    clock.now += 15 * 60
    shown = len(announcer.by_token)
    table = sessions.table_in(CHANNEL)
    await sessions.moves.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    await sessions.idle()
    assert len(announcer.by_token) == shown and sessions.places.behind(record.id)
    async with sessions.presenter.answers.update(record.id, 7001, "late-click") as update:
        assert update is not None and update.picture is not None
    await sessions.idle()  # the click's answer showed everything, its picture too: no edit follows it
    assert not sessions.places.behind(record.id) and len(announcer.by_token) == shown
    assert announcer.log == [], "no send, edit, delete or DM in a DM's channel"
    await sessions.close()


async def test_a_token_discord_refuses_is_dropped_and_the_dialog_is_the_movers_alone(store):
    announcer = AnsweringAnnouncer(dead={"open-token"})
    sessions = manager(store, announcer)
    record = await open_in_dm(sessions, announcer)
    await sessions.lobbies.accept(CHANNEL, BOB)
    await sessions.idle()
    assert announcer.by_token == [] and sessions.places.behind(record.id)
    table = sessions.table_in(CHANNEL)
    mover = int(table.game.current_player)
    other = ALICE if mover == BOB else BOB
    with refused(key="table.not_your_turn"):
        sessions.places.move_dialog(record.id, other, locale="en")
    with refused("You are not playing at this table"):
        sessions.places.move_dialog(record.id, 103, locale="en")
    dialog = sessions.places.move_dialog(record.id, mover, locale="de")
    assert encode(record.id, dialog.action) == f"cardtable:{record.id}:pick:{table.seq}"
    assert len(dialog.title) <= 45
    tokens = [value for chunk in dialog.moves for _, value in chunk]
    assert "end" in tokens and all(len(chunk) <= 25 for chunk in dialog.moves)
    assert "Deine Hand" in dialog.text
    await sessions.close()


async def test_insomnia_is_not_opened_where_the_bot_may_only_answer(store):
    sessions = manager(store, AnsweringAnnouncer())
    with refused("Insomnia is played only in servers", key="dm.servers_only"):
        await sessions.open_table("insomnia", 0, CHANNEL, ALICE, place=INTERACTION)
    assert sessions.table_in(CHANNEL) is None
    await sessions.close()


def test_a_channel_tables_token_serves_only_its_own_table_message_and_has_no_use_limit() -> None:
    from bot.sessions.places import CHANNEL_TOKEN_USES, TOKEN_LIFETIME, TOKEN_MARGIN, Tokens

    now = [1000.0]
    tokens = Tokens(lambda: now[0])
    tokens.took(1, "old-message", 10, CHANNEL_TOKEN_USES)
    assert tokens.usable(1, 11) is None, "the table message was replaced since: its token is no use"
    tokens.took(1, "click", 11, CHANNEL_TOKEN_USES)
    assert [tokens.usable(1, 11) for _ in range(TOKEN_USES * 4)] == ["click"] * (TOKEN_USES * 4)
    now[0] += TOKEN_LIFETIME - TOKEN_MARGIN + 1
    assert tokens.usable(1, 11) is None, "a token is not used in its last minute"
