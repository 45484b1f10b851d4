"""Fair play in `/history`, with a real store on both backends: the first page of a game's log names its
players a moderator has taken off the server's leaderboards (in the reader's language), and stops naming a
player once he is let back; a void already shows as its own line (tests/storage/test_fairplay.py)."""

from __future__ import annotations

from bot import render
from bot.discord_out import discord_words
from bot.sessions.fairplay import excluded_at
from tests.storage.conftest import running_table
from tests.test_sessions import ALICE, BOB, GUILD, fixed_seeds, manager  # noqa: F401  (fixed games)

CHANNEL = 8811


async def test_history_names_the_players_taken_off_the_leaderboards(store, announcer):
    sessions = await manager(store, announcer)
    table = await running_table(store, CHANNEL, [str(ALICE), str(BOB), "ai:1"], guild=GUILD)
    await store.exclude_player(GUILD, str(BOB), moderator=77, reason="farming")
    await store.exclude_player(GUILD + 1, str(ALICE), moderator=77, reason="elsewhere")  # another server's
    row, entries = await sessions.replays.history(CHANNEL, table_id=table)
    excluded = await excluded_at(store, row)
    assert excluded == [str(BOB)]
    de = render.history_pages(row.kind, row.id, row.status, entries, locale="de", excluded=excluded)
    first = discord_words(de[0].description or "").splitlines()[0]
    assert first.startswith("⚖️ Ein Moderator hat <@") and f"<@{BOB}>" in first and f"<@{ALICE}>" not in first
    en = render.history_pages(row.kind, row.id, row.status, entries, locale="en", excluded=excluded)
    assert "off this server's leaderboards" in en[0].description
    await store.exclude_player(GUILD, str(BOB), moderator=77, reason="sorted out", on=False)
    assert await excluded_at(store, row) == []
    plain = render.history_pages(row.kind, row.id, row.status, entries, locale="en", excluded=[])
    assert "leaderboards" not in plain[0].description


async def play_malice(sessions, channel: int, moving: set[int]):
    """A Malice game between Alice and Bob (a turn cap of 2: one turn each, long before any deadline) where
    the players in `moving` end their own turns (playing an ace first where rule 9 asks) and every turn of
    the others times out (the timer plays the safe default). Returns the finished table."""
    table = await sessions.open_table(
        "malice", GUILD, channel, ALICE, opponent=BOB, options={"timeout": 300, "turns": 2}
    )
    await sessions.lobbies.accept(channel, BOB)
    while table.status == "running":
        mover = int(table.game.current_player)
        if mover in moving:
            legal = table.game.legal_actions()
            own = next((a for a in legal if a.kind == "end_turn"), legal[0])
            await sessions.moves.act(channel, mover, own)
        else:
            await sessions.life.time_out(table.id, table.seq)
    return table


async def test_a_seat_played_only_by_the_timer_scores_nothing_when_the_game_ends_early(store, announcer):
    """README: a player without a move of his own (his turns timed out) scores nothing, as a forfeit. A game
    that ends before any deadline (the turn cap; two idle turns are a stalemate) leaves his seat unrated,
    whatever the board says; the same game with his own moves is rated for both."""
    sessions = await manager(store, announcer)
    absent = await play_malice(sessions, CHANNEL, moving={BOB})
    standings = {s.player: s for s in absent.game.standings()}
    # By the board Alice did not lose (the timer's idle turn against Bob's: a draw, or a win should the
    # timer have played an ace from her payoff pile), yet she never moved: no rating is made for the game.
    assert standings[str(ALICE)].placement == 1
    assert await store.rating_changes(absent.id) == []
    present = await play_malice(sessions, CHANNEL + 1, moving={ALICE, BOB})
    assert {c.player for c in await store.rating_changes(present.id)} == {str(ALICE), str(BOB)}
    await sessions.close()
