"""After a restart the action log, not the snapshot, is the truth: a damaged snapshot is rebuilt from the
table's seed and log (with its table options, e.g. a deal cap), and play goes on from the rebuilt game."""

from __future__ import annotations

import sqlite3

from bot.games.registry import REGISTRY
from bot.sessions.kinds import game_options
from tests.recording import RecordingAnnouncer
from tests.test_sessions import CHANNEL, fixed_seeds, manager, started_insomnia  # noqa: F401


async def play_a_few(sessions, table, moves: int) -> None:
    for _ in range(moves):
        game = table.game
        await sessions.moves.act(CHANNEL, int(game.current_player), game.default_action())


async def test_a_damaged_snapshot_is_rebuilt_from_the_log_on_resume(store, announcer, tmp_path):
    sessions = await manager(store, announcer)
    table = await started_insomnia(sessions, chips=6, deals=2, timeout=300)
    await play_a_few(sessions, table, 5)
    truth = table.game.model_dump_json()
    seq = table.seq
    await sessions.close()

    # The log replays to exactly the stored game, with the table's options as the game takes them (deals=2:
    # without it the replay would differ).
    row = await store.get_table(table.id)
    options = game_options(row.options)
    assert options["deals"] == 2
    log = [a.action for a in await store.actions(table.id)]
    rebuilt = REGISTRY["insomnia"].replay(row.players, row.seed, options, log)
    assert rebuilt.model_dump_json() == truth == row.snapshot

    # Damage the cached snapshot behind the store's back (a stale or corrupt cache must not lose the game).
    with sqlite3.connect(str(tmp_path / "cards.sqlite3")) as raw:
        raw.execute("UPDATE game_tables SET snapshot = ? WHERE id = ?", ('{"not": "a game"}', table.id))

    later = RecordingAnnouncer(messages=dict(announcer.messages), _next_id=announcer._next_id)
    resumed = await manager(store, later)
    assert await resumed.resume_all() == 1
    table2 = resumed.table_in(CHANNEL)
    assert table2.seq == seq and table2.game.model_dump_json() == truth
    await play_a_few(resumed, table2, 3)  # and the game goes on, stored as usual
    assert table2.seq == seq + 3
    assert (await store.get_table(table.id)).snapshot == table2.game.model_dump_json()
    await resumed.close()
