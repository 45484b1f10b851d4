"""Issue 30: every click answered in place. Whole games in a server channel, with Discord's limits on,
played by clicks only after the opening: each person presses Move on the table message and picks his move in
the dialog; its submit is answered by updating the table message (type 7), so a person's move costs no
rate-limited call, and what no click carries (the computer's moves) goes through the last click's token.

The pace: each person moves 1-3 s after the table message shows it is his turn, on the fake's clock
(`fake.advance`: its rate-limit windows and token ages move on; no real waiting; `PACE` scales it). The
bot's own clock is left alone, so no turn times out."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import render
from bot.discord_out import discord_words
from bot.games.ai import choose_action
from bot.sessions.resume import replay_facts
from bot.sessions.rows import record_from_row
from bot.sessions.view import log_of
from tests.e2e.fake_discord import FakeDiscordError, FakeMessage, Reply, UserHandle
from tests.e2e.harness import Harness
from tests.e2e.test_faults import check_announced_and_settled
from tests.e2e.test_user_install import select_of

pytestmark = pytest.mark.bot(rate_limits=True)

PACE = (1.0, 3.0)  # seconds on the fake's clock between "it is his turn" and his move
MOVES_BUDGET = 0.3  # rate-limited calls per move of a person (issue 30)


class Table:
    """One table in a server channel and its people, playing by the Move dialog."""

    def __init__(self, harness: Harness, channel: str, people: list[UserHandle], seed: int) -> None:
        self.harness, self.fake, self.channel = harness, harness.fake, channel
        self.by_id = {str(u.id): u for u in people}
        self.rng = random.Random(seed)
        self.table_id: int | None = None
        self.moves = 0
        self.private_texts: list[str] = []  # what each dialog showed its mover only (his hand)

    def record(self) -> Any:
        assert self.harness.bot is not None
        return self.harness.bot.sessions.tables.by_id(self.table_id or 0)

    def shown(self) -> bool:
        """The table message shows the newest stored state: a person can know whose turn it is."""
        assert self.harness.bot is not None
        return not self.harness.bot.sessions.presenter.answers.behind(self.table_id or 0)

    def message(self) -> FakeMessage:
        assert self.harness.bot is not None
        message_id = self.harness.bot.sessions.presenter.message_id(self.table_id or 0)
        assert message_id is not None
        return self.fake.messages[message_id]

    async def person_to_move(self) -> tuple[Any, UserHandle] | None:
        """Wait until a person may move and the table message shows it; None once the game is over."""

        def ready() -> bool:
            record = self.record()
            if record is None or record.game is None or record.game.is_over:
                return True
            mover = record.game.current_player
            return mover in self.by_id and not record.seat_is_computer(mover) and self.shown()

        await self.fake.wait_for(ready, what="a person's turn on the table message")
        record = self.record()
        if record is None or record.game is None or record.game.is_over:
            return None
        return record, self.by_id[record.game.current_player]

    async def move(self, record: Any, user: UserHandle) -> Reply:
        self.fake.advance(self.rng.uniform(*PACE))  # he reads the table, then moves
        table = self.message()
        # The turn clock: whose turn it is and when it times out, as Discord's relative timestamp.
        assert f"<@{user.id}>, your turn" in table.text and "<t:" in table.text, table.text[:200]
        opened = await user.click(table, "Move")
        assert opened.kind == "modal", opened
        shown = opened.modal["components"]
        self.private_texts += [str(c["content"]) for c in shown if "content" in c]
        action = choose_action(record.game, record.game.current_player, f"in-place/{record.seq}")
        token = render.token(record.kind, action)
        done = await user.submit(opened, {select_of(opened, token): [token]})
        # The answer to his submit is the table message itself, with his move in it.
        assert done.kind == "update" and done.message is not None and done.message.id == table.id, done
        after = self.record() or await self.finished_record()
        mine = next(step for step in after.moves if step.count == record.seq + 1)
        assert mine.actor == str(user.id), "his move was stored"
        said = [text for count, text in shown_log(after) if count == mine.count]
        # (a move the log words with no line of its own, an exchange's pass, shows as the turn moving on)
        assert not said or said[-1] in done.message.text, (said, done.message.text[-300:])
        self.moves += 1
        return done

    async def finished_record(self) -> Any:
        """A finished table's last record (the tables in play have let it go)."""
        assert self.harness.bot is not None
        row = await self.harness.store.get_table(self.table_id or 0)
        actions = await self.harness.store.actions(row.id)
        record = record_from_row(row, await self.harness.store.rating_changes(row.id))
        return record.evolve(moves=tuple(replay_facts(record, actions)))

    async def play(self) -> None:
        while (turn := await self.person_to_move()) is not None:
            await self.move(*turn)


def shown_log(record) -> list[tuple[int, str]]:
    """The table's log lines, by step, as its Discord message shows them."""
    return [(line.count, discord_words(line.text)) for line in log_of(record, record.moves, locale="en")]


def rate_limited(harness: Harness, since: float) -> int:
    """The rate-limited calls the table's play made: message writes and DMs (not the process's own)."""
    stats = harness.fake.rest_stats(since=since)
    routes = stats.by_route().items()
    return sum(n for route, n in routes if "/messages" in route or route.endswith("/channels"))


def check_private(harness: Harness, table: Table) -> None:
    """No dialog's hand (its first line: the cards) appears in any version of any public message."""
    public = [text for m in harness.fake.public_messages() for text in m.history]
    hands = {hand.splitlines()[0] for hand in table.private_texts if hand}
    assert hands, "the dialogs showed their movers' hands"
    for hand in hands:
        assert all(hand not in text for text in public), hand


async def finish(harness: Harness, table: Table, since: float) -> None:
    assert harness.bot is not None
    await harness.bot.sessions.idle()
    stats = harness.fake.rest_stats()
    assert stats.sent_429 == 0 and 10062 not in stats.error_codes and 50035 not in stats.error_codes
    await check_announced_and_settled(harness, table)  # every stored move on the table message
    spent = rate_limited(harness, since)
    print(
        f"{table.moves} moves by people, {spent} rate-limited calls, "
        f"{harness.bot.sessions.presenter.token_edits} edits through a click's token"
    )
    assert table.moves > 10 and spent <= MOVES_BUDGET * table.moves, (spent, table.moves)
    check_private(harness, table)


@pytest.mark.both_backends
async def test_malice_against_the_computer_by_clicks(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "in-place-malice-1")
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=harness.fake.bot_user, stake=1, turns=20)
    record = harness.bot.sessions.tables.in_channel(harness.fake.channel("games").id) if harness.bot else None
    assert record is not None
    table = Table(harness, "games", [alice], seed=30)
    table.table_id = record.id
    since = harness.fake.now()
    await table.play()
    await finish(harness, table, since)


@pytest.mark.both_backends
async def test_insomnia_of_three_people_and_a_computer_by_clicks(harness: Harness, monkeypatch) -> None:
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: "in-place-insomnia-1")
    bob, carol, dave = harness.user("bob"), harness.user("carol"), harness.user("dave")
    await bob.slash("insomnia new", chips=6, deals=2)
    await carol.slash("insomnia join")
    await dave.slash("insomnia join")
    await bob.slash("insomnia addbot")
    await bob.slash("insomnia start")
    record = harness.bot.sessions.tables.in_channel(harness.fake.channel("games").id) if harness.bot else None
    assert record is not None
    table = Table(harness, "games", [bob, carol, dave], seed=31)
    table.table_id = record.id
    assert harness.bot is not None
    await harness.bot.sessions.idle()  # the opening: the table message and the dealt hands
    since = harness.fake.now()
    await table.play()
    await finish(harness, table, since)


async def opened_malice(harness: Harness, monkeypatch, seed: str) -> tuple[Table, UserHandle]:
    """Alice's Malice table against the computer, waiting for her first move."""
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: seed)
    alice = harness.user("alice")
    await alice.slash("malice challenge", opponent=harness.fake.bot_user, stake=1, turns=20)
    assert harness.bot is not None
    record = harness.bot.sessions.tables.in_channel(harness.fake.channel("games").id)
    table = Table(harness, "games", [alice], seed=32)
    table.table_id = record.id
    assert await table.person_to_move() is not None
    return table, alice


@pytest.mark.both_backends
async def test_a_dialog_opened_before_a_restart_submits_after_it_once(harness: Harness, monkeypatch) -> None:
    table, alice = await opened_malice(harness, monkeypatch, "in-place-restart-1")
    message = table.message()
    record = table.record()
    opened = await alice.click(message, "Move")
    await harness.restart_bot()
    action = choose_action(record.game, str(alice.id), "restart")
    token = render.token(record.kind, action)
    done = await alice.submit(opened, {select_of(opened, token): [token]})
    assert done.kind == "update" and done.message is not None and done.message.id == message.id, done
    stored = [a for a in await harness.store.actions(record.id) if a.actor == str(alice.id)]
    assert len(stored) == 1
    after = table.record()
    said = [text for count, text in shown_log(after) if count == record.seq + 1]
    assert said and said[-1] in done.message.text, "her move is shown in the answer to her submit"
    # The same dialog once more (a double tap): refused privately as stale, nothing stored twice.
    again = await alice.submit(opened, {select_of(opened, token): [token]})
    assert again.ephemeral and "stale" in again.text, again
    assert len([a for a in await harness.store.actions(record.id) if a.actor == str(alice.id)]) == 1


async def test_clicks_by_people_not_seated_and_on_an_old_message_are_refused_privately(
    harness: Harness, monkeypatch
) -> None:
    table, _ = await opened_malice(harness, monkeypatch, "in-place-refusals-1")
    bob = harness.user("bob")
    bob.user.locale = "de"
    message = table.message()
    refused = await bob.click(message, "Move")
    assert refused.ephemeral and "Du spielst an diesem Tisch nicht mit." in refused.text, refused
    # An hour on, Discord takes no more edits of the table message (30046): after a restart the presenter
    # refreshes it through the channel (no click's token is left), posts a new one and deletes the old; play
    # goes on by clicks on the new one.
    harness.fake.advance(3700)
    harness.fake.old_message_edit_allowance = 0
    await harness.restart_bot()
    assert harness.bot is not None
    await harness.bot.sessions.idle()
    assert message.deleted and table.message().id != message.id
    assert 30046 in harness.fake.rest_stats().error_codes
    turn = await table.person_to_move()
    assert turn is not None
    done = await table.move(*turn)
    assert done.message is not None and done.message.id == table.message().id


@pytest.mark.both_backends
async def test_a_submit_answered_too_late_still_shows_the_move_and_play_goes_on(
    harness: Harness, monkeypatch
) -> None:
    """A bot too busy to answer within Discord's 3 s: Discord drops the answer (10062), the person's client
    says the interaction failed. His move was stored, so the presenter shows it on the table message through
    the channel; the late answer is a warning in the log, not an error id; his next click plays on."""
    table, alice = await opened_malice(harness, monkeypatch, "in-place-late-1")
    message, record = table.message(), table.record()
    opened = await alice.click(message, "Move")
    action = choose_action(record.game, str(alice.id), "late")
    token = render.token(record.kind, action)
    harness.fake.interaction_deadline = 0.0  # every answer from now on comes too late
    try:
        with pytest.raises(FakeDiscordError, match="10062"):
            await alice.submit(opened, {select_of(opened, token): [token]})
    finally:
        harness.fake.interaction_deadline = 3.0
    stored = [a for a in await harness.store.actions(record.id) if a.actor == str(alice.id)]
    assert len(stored) == 1, "her move was stored once"
    assert harness.bot is not None
    await harness.bot.sessions.idle()
    after = table.record()
    said = [text for count, text in shown_log(after) if count == record.seq + 1]
    assert said and said[-1] in table.message().text, "the table message shows her move"
    assert harness.take_logged_errors() == [], "a late answer is no bug"
    turn = await table.person_to_move()
    assert turn is not None
    await table.move(*turn)
