"""The public log: a game's announcements gathered in one message per group (a Malice turn, a stage of an
Insomnia deal), edited in place as events happen; a new message when the group changes or the text would pass
the limit; always above the turn message; the same message edited on after a restart."""

from __future__ import annotations

from bot.games.ai import choose_action
from bot.render.common import LOG_LIMIT
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
from tests.test_sessions_turns import is_turn


def is_log(content: str | None) -> bool:
    return (content or "").startswith(("▶️", "**Turn ", "**Deal ", "🏁"))


def log_posts(announcer: RecordingAnnouncer) -> list[int]:
    return [s.message_id for s in announcer.log if s.kind == "send" and is_log(s.message.content)]


def assert_turn_message_is_last(announcer: RecordingAnnouncer, table) -> None:
    """While a person must act, the newest message in the channel is the turn message naming him."""
    if table.status != "running" or table.seat_is_computer(table.game.current_player):
        return
    newest = announcer.messages[max(announcer.messages)]
    assert is_turn(newest) and f"<@{table.game.current_player}>, your turn" in newest.content


async def test_a_malice_turn_is_one_log_message_edited_move_by_move(store, announcer):
    sessions = await manager(store, announcer)
    table = await sessions.challenge(GUILD, CHANNEL, ALICE, BOB, timeout=300, turns=8)
    await sessions.accept(CHANNEL, BOB)
    (first,) = log_posts(announcer)
    opening = announcer.messages[first].content
    assert opening.startswith("▶️ **Malice**") and "Seed commitment" in opening
    assert f"**Turn 1** · <@{table.game.current_player}>" in opening
    assert_turn_message_is_last(announcer, table)
    turn_messages: dict[int, int] = {}  # turn -> its log message
    for _ in range(500):
        if table.status != "running":
            break
        turn, player = table.game.public_view().turn, table.game.current_player
        before = len(log_posts(announcer))
        before_id = table.meta.log_message_id
        text_before = announcer.messages[before_id].content
        action = best_malice_move(table.game)
        await sessions.act(CHANNEL, int(player), action)
        posted = log_posts(announcer)[before:]
        log_id = table.meta.log_message_id
        if table.status == "running" and table.game.public_view().turn == turn:
            assert posted == [], "a move within a turn posts nothing: the turn's log message is edited"
            assert turn_messages.setdefault(turn, log_id) == log_id
            text = announcer.messages[log_id].content
            added = text.removeprefix(text_before + "\n").splitlines()
            assert text.startswith(text_before) and added[0].startswith(
                f"<@{player}> plays {action.card.pretty}"
            )
        elif table.status == "running":
            # The turn passed: its last move closed its message, the next turn's message is posted at once.
            assert posted == [log_id]
            closed = announcer.messages[before_id].content
            assert closed.startswith(text_before + "\n") and f"<@{player}>" in closed.splitlines()[-1]
            title = f"**Turn {turn + 1}** · <@{table.game.current_player}>"
            assert announcer.messages[log_id].content == title
        assert_turn_message_is_last(announcer, table)
    assert table.status == "finished"
    result = announcer.messages[table.meta.log_message_id].content
    assert result.startswith("🏁 **Game over**") and table.seed in result
    assert len(log_posts(announcer)) == table.game.public_view().turn + 1
    # Only the table, the log messages and the turn messages were ever posted in the channel.
    sends = [s for s in announcer.log if s.kind == "send"]
    others = [s for s in sends if not is_log(s.message.content) and not is_turn(s.message)]
    assert [s.message_id for s in others] == [table.meta.table_message_id]


async def test_a_long_group_goes_on_in_a_continued_message_below_which_the_turn_message_is_posted_again(
    store, announcer, monkeypatch
):
    monkeypatch.setattr("bot.sessions.manager.LOG_LIMIT", 160)
    sessions = await manager(store, announcer)
    table = await sessions.challenge(GUILD, CHANNEL, ALICE, BOB, timeout=300, turns=8)
    await sessions.accept(CHANNEL, BOB)
    while table.status == "running":
        await sessions.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
        assert_turn_message_is_last(announcer, table)
    logs = [announcer.messages[i].content for i in log_posts(announcer)]
    continued = [text for text in logs if text.split("\n", 1)[0].endswith("(continued)")]
    assert continued and all(len(text) <= 160 for text in logs)
    assert all(text.startswith("**Turn ") for text in continued)
    assert LOG_LIMIT == 1800  # the real limit keeps a message well inside Discord's 2,000 characters


async def test_a_restarted_manager_edits_the_same_log_message_and_reposts_one_deleted_by_hand(
    store, announcer
):
    sessions = await manager(store, announcer)
    table = await sessions.challenge(GUILD, CHANNEL, ALICE, BOB, timeout=300)
    await sessions.accept(CHANNEL, BOB)
    # Find a position where the player to move has a centre play that keeps his turn, then stop there.
    while not [a for a in table.game.legal_actions() if a.kind == "play" and a.to.startswith("centre")]:
        await sessions.act(CHANNEL, int(table.game.current_player), best_malice_move(table.game))
    log_id = table.meta.log_message_id
    assert (await store.get_table(table.id)).meta["log_message_id"] == log_id
    await sessions.close()

    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    resumed: SessionManager = await manager(store, later)
    assert await resumed.resume_all() == 1
    table2 = resumed.table_in(CHANNEL)
    player = table2.game.current_player
    await resumed.act(CHANNEL, int(player), best_malice_move(table2.game))
    assert table2.game.current_player == player and log_posts(later) == []
    assert [s.kind for s in later.log if s.message_id == log_id] == ["edit"]
    assert later.messages[log_id].content.startswith(announcer.messages[log_id].content)

    # A moderator removed the log message: the next line posts it again, with what it held, below.
    kept = later.messages.pop(log_id).content
    await resumed.act(CHANNEL, int(player), best_malice_move(table2.game))
    reposted = log_posts(later)[0]
    assert reposted != log_id and later.messages[reposted].content.startswith(kept + "\n")
    assert_turn_message_is_last(later, table2)
    await resumed.close()


async def test_an_insomnia_deal_is_one_log_message_per_stage(store, announcer):
    sessions = await manager(store, announcer)
    table = await started_insomnia(sessions, computer=True, chips=30, deals=2, timeout=300)
    actions = 0
    while table.status == "running":
        assert_turn_message_is_last(announcer, table)
        player = table.game.current_player
        # The people play what the computer player would: auctions, re-throws and stage 4 all happen.
        action = choose_action(table.game, player, f"log-test/{actions}")
        await sessions.act(CHANNEL, int(player), action)
        await sessions.idle()
        actions += 1
    logs = [announcer.messages[i].content for i in log_posts(announcer)]
    titles = [text.splitlines()[0] for text in logs[1:]]
    parts = [
        "exchanges (stage 1)",
        "auction (stage 1)",
        "re-throws and payouts (stages 1 and 2)",
        "tricks (stage 3)",
        "second dice round (stage 4)",
    ]
    assert table.game.public_view().deal == 2
    expected = [f"**Deal {d} · {p}**" for d in (1, 2) for p in parts]
    assert logs[0].startswith("▶️ **Insomnia**") and expected[0] in logs[0].splitlines()
    # Every group of deal 1, then deal 2's as far as it went (a player may run out of chips), then the result.
    assert titles[:-1] == expected[1 : len(titles)] and len(titles) > len(parts)
    assert titles[-1].startswith("🏁 **Game over**")
    assert len(logs) <= 2 * len(parts) + 1 < actions, "fewer public messages than actions"
    text = "\n".join(logs)
    for needed in ("throws the dice", "bids", "wins the auction", "Trick 4", "After deal 1", "Deal 2"):
        assert needed in text
