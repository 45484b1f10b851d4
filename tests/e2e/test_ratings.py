"""Ratings, seasons and head-to-head through the real bot and the fake Discord (Discord's rate limits on):
two people finish Malice games and are rated once per game, the table message's result says so,
/leaderboard by rating and by season, /stats user: with the record against that person; and a real bot
process killed right after a game's last move leaves the game finished and rated exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import open_store
from tests.e2e.fake_discord import FakeDiscord, UserHandle
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import announced_log, live_game, table_message
from tests.e2e.test_two_processes import BotProcess

pytestmark = pytest.mark.both_backends
TURNS = 2  # the turn cap: each plays one turn, then the game ends by the rules (scored as a stalemate)


async def one_move(user: UserHandle, channel: str = "games") -> str:
    """The user's next move as autocomplete offers it (a card to where it may go), else the end of his
    turn; the private answer's text."""
    cards = await user.autocomplete("malice play", "card", channel=channel)
    to = await user.autocomplete("malice play", "to", card=cards[0].value, channel=channel) if cards else []
    if to:
        reply = await user.slash("malice play", card=cards[0].value, to=to[0].value, channel=channel)
    else:
        reply = await user.slash("malice end", channel=channel)
    return reply.text


async def duel(harness: Harness, alice: UserHandle, bob: UserHandle) -> int:
    """Alice challenges Bob to a short Malice game, Bob accepts, both play it to its end; its table id."""
    await alice.slash("malice challenge", opponent=bob, turns=TURNS)
    await bob.slash("malice accept")
    people = {str(alice.id): alice, str(bob.id): bob}
    for _ in range(200):
        game = live_game(harness)
        if game is None:
            break
        await one_move(people[game.current_player])
    else:
        raise AssertionError("the game did not end")
    row = await harness.store.last_table(harness.fake.channel("games").id)
    assert row is not None and row.status == "finished"
    return row.id


@pytest.mark.bot(rate_limits=True)
async def test_two_people_are_rated_once_per_game_and_see_it(harness: Harness) -> None:
    fake, store = harness.fake, harness.store
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    first = await duel(harness, alice, bob)
    changes = await store.rating_changes(first)
    assert sorted(c.player for c in changes) == sorted([str(alice.id), str(bob.id)])
    assert [c.games for c in changes] == [1, 1]
    # The table message's result names both new numbers and their changes, before the seed.
    await harness.bot.sessions.idle()
    log = announced_log(table_message(fake, "Malice · table"))
    ratings = [line for line in log if line.startswith("📈 Ratings:")]
    assert len(ratings) == 1 and log[-1].startswith("🔑 Seed") and log[-2] == ratings[0]
    assert f"<@{alice.id}>" in ratings[0] and f"<@{bob.id}>" in ratings[0] and "provisional" in ratings[0]

    second = await duel(harness, bob, alice)
    assert [c.games for c in await store.rating_changes(second)] == [2, 2]
    for user in (alice, bob):  # twice in all: once per game, each from the last
        mine = await store.player_ratings(fake.guild_id, str(user.id))
        assert [(r.kind, r.games) for r in mine] == [("malice", 2)]
        history = await store.rating_history(fake.guild_id, str(user.id))
        assert [p.table_id for p in history] == [first, second]

    board = await carol.slash("leaderboard", game="malice", by="rating")
    assert not board.ephemeral and board.message.pinged == frozenset()
    season = store.current_season()
    assert board.embeds[0]["title"] == f"Rating: Malice · season {season}"
    lines = board.embeds[0]["description"].splitlines()
    assert len(lines) == 2 and all("(provisional)** · 2 games" in line for line in lines)
    by_score = sorted(await store.rating_leaderboard(fake.guild_id, "malice"), key=lambda r: -r.score)
    assert [f"<@{r.player}>" in line for r, line in zip(by_score, lines, strict=True)] == [True, True]
    all_time = await carol.slash("leaderboard", game="malice", by="rating", season="all-time")
    assert all_time.embeds[0]["title"] == "Rating: Malice"
    assert all_time.embeds[0]["description"].splitlines() == lines
    old = await carol.slash("leaderboard", season="2001-01")
    assert "No game ended in season 2001-01 yet." in old.text
    offered = [c.value for c in await carol.autocomplete("leaderboard", "season", "")]
    assert offered == ["all-time", season]
    needs = await carol.slash("leaderboard", by="rating")
    assert needs.ephemeral and "Ratings are kept per game" in needs.text
    bad = await carol.slash("leaderboard", season="last year")
    assert bad.ephemeral and "last year is not a season" in bad.text

    # Head-to-head, privately: games together, wins, draws, losses, the chips between them, both ratings.
    versus = await alice.slash("stats", user=bob)
    assert versus.ephemeral and versus.message.pinged == frozenset()
    fields = {f["name"]: f["value"] for f in versus.embeds[0]["fields"]}
    record = (await store.head_to_head(fake.guild_id, str(alice.id), str(bob.id)))["*"]
    assert record.games == 2 and record.wins + record.draws + record.losses == 2
    assert fields["Head-to-head"].startswith(f"You against <@{bob.id}>: 2 games together")
    assert "rating: you " in fields["Head-to-head"]
    assert "Rating: **" in fields["Malice"] and "last game: **" in fields["Malice"]
    mine = await alice.slash("stats")
    assert "Head-to-head" not in mine.text and "Rating: **" in mine.text


@pytest.mark.bot(rate_limits=True)
async def test_the_seasons_setting_turns_the_months_off_and_on(harness: Harness) -> None:
    alice, bob, erin = harness.user("alice"), harness.user("bob"), harness.user("erin")  # erin manages
    await duel(harness, alice, bob)
    season = harness.store.current_season()
    board = await bob.slash("leaderboard")
    assert board.embeds[0]["title"] == f"Leaderboard: all games · season {season}"
    assert "ended in " + season in board.embeds[0]["footer"]["text"]
    off = await erin.slash("settings seasons", seasons="no-seasons")
    assert off.ephemeral and "all-time only" in off.text
    assert "off: all-time only" in (await erin.slash("settings show")).text
    board = await bob.slash("leaderboard")
    assert board.embeds[0]["title"] == "Leaderboard: all games"
    assert [c.value for c in await bob.autocomplete("leaderboard", "season", "")] == ["all-time"]
    refused = await bob.slash("leaderboard", season=season)
    assert refused.ephemeral and "setting **seasons**" in refused.text
    on = await erin.slash("settings seasons", seasons="monthly")
    assert f"now {season}" in on.text
    board = await bob.slash("leaderboard", season=season)
    assert board.embeds[0]["title"] == f"Leaderboard: all games · season {season}"


# ---- a kill -9 right after a game's last move


@pytest.mark.slow
async def test_a_kill_right_after_the_last_move_leaves_the_game_rated_once(
    database: str, tmp_path: Path
) -> None:
    """The real bot process (`cardtable-bot run`) on SQLite or PostgreSQL, killed with SIGKILL the moment the
    last move's answer arrives (its transaction, the rating included, is committed by then), then started
    again: the game is finished and rated exactly once."""
    url = database
    fake = FakeDiscord(rate_limits=True)
    await fake.start()
    settings = {"SHARD_COUNT": "1", "SHARD_IDS": "0"}
    if url.startswith("postgres"):
        process = BotProcess(fake, url, 0, tmp_path, **settings)
    else:
        process = BotProcess(fake, "", 0, tmp_path, DATABASE_PATH=url, **settings)
    store = await open_store(url)
    try:
        await process.start()
        alice, bob = fake.user("alice"), fake.user("bob")
        await alice.slash("malice challenge", opponent=bob, turns=TURNS)
        await bob.slash("malice accept")
        await fake.wait_for_message(channel="games", contains="Malice · table")
        row = await store.last_table(fake.channel("games").id)
        for _ in range(200):
            for user in (alice, bob):
                if "It is your turn" in (await user.slash("hand")).text:
                    await one_move(user)
                    break
            if (await store.get_table(row.id)).status == "finished":
                await process.kill()  # at once: the presenter may not even have shown the result
                break
        else:
            raise AssertionError("the game did not end")
        changes = await store.rating_changes(row.id)
        assert sorted(c.player for c in changes) == sorted([str(alice.id), str(bob.id)])

        await process.start()
        await alice.slash("malice challenge", opponent=bob, turns=TURNS)  # the channel is free again
        assert [c.games for c in await store.rating_changes(row.id)] == [1, 1], "rated exactly once"
        for user in (alice, bob):
            assert [r.games for r in await store.player_ratings(fake.guild_id, str(user.id))] == [1]
        assert process.problems() == []
    finally:
        await process.stop()
        await store.close()
        await fake.stop()
