"""Replays of finished games (`bot.sessions.replay`, `bot.render.replay`): every step rebuilt from the seed
and the action log, the last one the stored final state byte for byte; each step shows only what the public
table showed then; only a finished game of the reader's server is replayed; the replayed tables kept in memory
stay within their bound; the Replay button keeps a finished message's rows valid."""

from __future__ import annotations

import pytest

from bot.discord_out import custom_id, decode
from bot.render.common import Button, click
from bot.render.replay import finished_rows, steering
from bot.sessions import NotAllowed
from bot.sessions.replay import Replays
from tests.test_sessions import (  # noqa: F401
    ALICE,
    BOB,
    BOT,
    CHANNEL,
    GUILD,
    assert_no_hidden_card,
    fixed_seeds,
    hidden_cards_of,
    manager,
    play_malice_human,
    started_insomnia,
)


async def finished_malice(sessions, channel: int = CHANNEL):
    """Alice against the computer: played to its end by the rules in CHANNEL, else resigned at once."""
    table = await sessions.open_table("malice", GUILD, channel, ALICE, opponent=BOT, options={"timeout": 300})
    await sessions.idle()
    if channel == CHANNEL:
        await play_malice_human(sessions, table, ALICE)
    else:
        await sessions.life.resign(channel, ALICE)
    await sessions.idle()
    return table


async def finished_insomnia(sessions):
    table = await started_insomnia(sessions, computer=True, chips=5, deals=1)
    await sessions.life.resign(CHANNEL, ALICE)
    await sessions.life.resign(CHANNEL, BOB)  # three computers play the deal out
    await sessions.idle()
    return table


@pytest.mark.parametrize("kind", ["malice", "insomnia"])
async def test_the_last_step_is_the_stored_final_state_byte_for_byte(store, announcer, kind):
    sessions = await manager(store, announcer)
    table = await (finished_malice(sessions) if kind == "malice" else finished_insomnia(sessions))
    row = await store.get_table(table.id)
    assert row.status == "finished"
    replayed = await sessions.replays.replayed_table(table.id, GUILD)
    actions = await store.actions(table.id)
    assert [s.count for s in replayed.steps] == list(range(len(actions) + 1))
    assert replayed.steps[-1].game.model_dump_json() == row.snapshot
    assert replayed.last == len(actions) > 5
    await sessions.close()


async def test_each_step_shows_what_the_public_table_showed_then(store, announcer):
    sessions = await manager(store, announcer)
    table = await finished_insomnia(sessions)
    replayed = await sessions.replays.replayed_table(table.id, GUILD)
    for step in range(replayed.last + 1):
        message = await sessions.replays.step(table.id, step, guild_id=GUILD, locale="en")
        texts = list(message.texts())
        game = replayed.steps[step].game
        hidden = {c for cards in hidden_cards_of(game, list(table.players)).values() for c in cards}
        if not game.is_over:
            assert_no_hidden_card(texts, hidden)
            assert table.seed not in "\n".join(texts), "the seed only at the end"
        counter = f"move {step} of {replayed.last}" if step else f"the start (move 0 of {replayed.last})"
        assert counter in texts[0]
        assert message.picture is not None and message.mentions == []
        # The steering buttons lead to their steps; those leading nowhere are disabled.
        ids = [decode(custom_id(b), "replay") for b in message.rows[0]]
        targets = [0, max(step - 1, 0), min(step + 1, replayed.last), replayed.last]
        assert [i[1].seq for i in ids if i] == targets
    final = await sessions.replays.step(table.id, replayed.last, guild_id=GUILD, locale="en")
    assert table.seed in "\n".join(final.texts())
    beyond = await sessions.replays.step(table.id, 10_000, guild_id=GUILD, locale="en")
    assert beyond.content == final.content, "a step past the end is the last one"
    german = await sessions.replays.step(table.id, 3, guild_id=GUILD, locale="de")
    assert f"Schritt 3 von {replayed.last}" in german.content
    assert [b.label for b in german.rows[0]] == ["⏮ Anfang", "◀ Zurück", "Vor ▶", "Ende ⏭"]
    await sessions.close()


async def test_only_a_finished_game_of_the_readers_server_is_replayed(store, announcer):
    sessions = await manager(store, announcer)
    table = await started_insomnia(sessions, chips=5, deals=1)
    with pytest.raises(NotAllowed) as refused:
        await sessions.replays.step(table.id, 0, guild_id=GUILD, locale="en")
    assert refused.value.key == "replay.not_finished"
    # The running table's message offers no replay; the finished one's does.
    assert not any("cardreplay" in custom_id(b) for b in _buttons(announcer))
    await sessions.cancel(CHANNEL, ALICE, can_manage=True)
    await sessions.idle()
    assert f"cardreplay:{table.id}:0:open" in [custom_id(b) for b in _buttons(announcer)]
    for guild, unknown in ((GUILD + 1, table.id), (GUILD, table.id + 100)):
        with pytest.raises(NotAllowed) as refused:
            await sessions.replays.step(unknown, 0, guild_id=guild, locale="en")
        assert refused.value.key == "replay.no_table"
    await sessions.close()


def _buttons(announcer) -> list[Button]:
    return [b for m in announcer.messages.values() for row in m.rows for b in row if b.url is None]


async def test_replayed_tables_are_kept_within_their_bound(store, announcer):
    sessions = await manager(store, announcer)
    first = await finished_malice(sessions)
    second = await finished_malice(sessions, channel=CHANNEL + 1)
    replays = Replays(store, keep=1)
    for table_id in (first.id, first.id, second.id, second.id, first.id):
        await replays.step(table_id, 1, guild_id=GUILD, locale="en")
    assert replays.replayed == 3, "each table replayed when it was not the one kept"
    assert len(replays._kept) == 1
    # A bound on the steps kept in all: the table asked for is kept however long, older ones go.
    few = Replays(store, steps=10)
    for table_id in (first.id, second.id, second.id):
        await few.step(table_id, 1, guild_id=GUILD, locale="en")
    assert few.replayed == 2 and list(few._kept) == [second.id]
    await sessions.close()


def test_the_replay_button_keeps_a_finished_messages_rows_valid():
    def buttons(n: int) -> list[Button]:
        return [Button(label=str(i), table=7, action=click(f"x{i}")) for i in range(n)]

    assert finished_rows([], 7, "running") == [] and finished_rows([], 7, "cancelled") == []
    assert [len(r) for r in finished_rows([], 7, "finished")] == [1]
    assert [len(r) for r in finished_rows([buttons(2)], 7, "finished")] == [3]
    assert [len(r) for r in finished_rows([buttons(5)], 7, "finished")] == [5, 1]
    full = [buttons(5) for _ in range(5)]
    assert finished_rows(full, 7, "finished") == full, "no sixth row: Discord allows five"
    assert decode("cardreplay:12:34:back", "replay") == (12, click("back", 34))
    assert decode("cardreplay:12:34:sideways", "replay") is None
    assert [b.disabled for b in steering(1, 0, 0)] == [True, True, True, True]
    assert len({custom_id(b) for b in steering(1, 0, 9)}) == 4, "custom ids unique on one message"
