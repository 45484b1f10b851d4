"""Fair play in `/history`, with a real store on both backends: the first page of a game's log names its
players a moderator has taken off the server's leaderboards (in the reader's language), and stops naming a
player once he is let back; a void already shows as its own line (tests/storage/test_fairplay.py)."""

from __future__ import annotations

from bot import render
from bot.sessions.fairplay import excluded_at
from tests.storage.conftest import running_table
from tests.test_sessions import ALICE, BOB, GUILD, manager

CHANNEL = 8811


async def test_history_names_the_players_taken_off_the_leaderboards(store, announcer):
    sessions = await manager(store, announcer)
    table = await running_table(store, CHANNEL, [str(ALICE), str(BOB), "ai:1"], guild=GUILD)
    await store.exclude_player(GUILD, str(BOB), moderator=77, reason="farming")
    await store.exclude_player(GUILD + 1, str(ALICE), moderator=77, reason="elsewhere")  # another server's
    row, entries = await sessions.history(CHANNEL, table_id=table)
    excluded = await excluded_at(store, row)
    assert excluded == [str(BOB)]
    de = render.history_pages(row.kind, row.id, row.status, entries, locale="de", excluded=excluded)
    first = de[0].description.splitlines()[0]
    assert first.startswith("⚖️ Ein Moderator hat <@") and f"<@{BOB}>" in first and f"<@{ALICE}>" not in first
    en = render.history_pages(row.kind, row.id, row.status, entries, locale="en", excluded=excluded)
    assert "off this server's leaderboards" in en[0].description
    await store.exclude_player(GUILD, str(BOB), moderator=77, reason="sorted out", on=False)
    assert await excluded_at(store, row) == []
    plain = render.history_pages(row.kind, row.id, row.status, entries, locale="en", excluded=[])
    assert "leaderboards" not in plain[0].description
