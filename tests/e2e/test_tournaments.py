"""Tournaments through the real bot and the fake Discord, Discord's rate limits on, games in threads.

An 8-person Malice Swiss of 3 rounds: each round's pairings posted once in the channel (every player pinged
in it once), the matches played in their threads (the loser resigns), the bot killed (-9) in the middle of
round 2 and started again, a player dropping out (so round 3 has a bye) and a no-show in round 3 settled by
the round's deadline; pairings without repeats, the bye to the lowest-ranked player without one, and the
standings equal to the test's own computation from what was played. A 5-person knockout gives its byes to
the top seeds. A 7-person Insomnia event plays two table rounds and a final table, settled by the deadline.
A moderator voids a farmed game and takes a cheater off the leaderboard.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import pytest

from bot.events import plan
from tests.e2e.fake_discord import THREAD_PERMISSIONS, FakeMessage, UserHandle
from tests.e2e.harness import Harness
from tests.e2e.test_game_support import poll

pytestmark = pytest.mark.bot(rate_limits=True)
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank")


async def setup_event(harness: Harness, people: int, **create: Any) -> tuple[int, dict[str, UserHandle]]:
    """Threads on, an event created by alice, `people` members joined (in NAMES order)."""
    fake = harness.fake
    for name in NAMES[len(fake.members) :]:
        fake.add_member(name)
    fake.bot_permissions |= THREAD_PERMISSIONS
    await harness.user("erin").slash("settings threads", threads="thread-per-game")
    made = await harness.user("alice").slash("tournament create", **create)
    assert not made.ephemeral and "is open" in made.text, made.text
    event = int(made.text.split("#", 1)[1].split(" ", 1)[0])
    users = {}
    for name in NAMES[:people]:
        user = harness.user(name)
        joined = await user.slash("tournament join")
        assert joined.ephemeral and f"#{event}" in joined.text, joined.text
        users[str(user.user.id)] = user
    return event, users


def runner(harness: Harness) -> Any:
    return harness.bot.competitions.runner


async def row_of(harness: Harness, event: int) -> Any:
    return await harness.store.competition(event)


async def round_opened(harness: Harness, event: int, round_no: int) -> Any:
    """The event once round `round_no` is paired and each of its matches has its table (or needs none)."""

    async def check() -> Any:
        row = await row_of(harness, event)
        if row.round != round_no:
            return None
        if any(
            not m.settled and harness.bot.sessions.tables.by_id(m.table_id or 0) is None
            for m in row.current()
        ):
            return None
        return row

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60  # the channel's writes are paced: 5 per 5 s, as Discord allows
    while loop.time() < deadline:
        found = await check()
        if found is not None:
            return found
        await asyncio.sleep(0.05)
    row = await row_of(harness, event)
    raise AssertionError(f"round {round_no} never opened: {row.round}/{row.round_done} {row.current()}")


def announcements(harness: Harness, event: int) -> list[FakeMessage]:
    return [m for m in harness.fake.channel_messages("games") if f"Tournament #{event}:" in m.text]


async def resign(harness: Harness, users: dict[str, UserHandle], match: Any, loser: str) -> None:
    """The loser resigns in the match's thread (once its game is dealt: after a restart it may be a lobby)."""

    def running() -> Any:
        record = harness.bot.sessions.tables.by_id(match.table_id)
        return record is not None and record.status == "running" and record

    thread = (await poll(running, timeout=30, what=f"table {match.table_id} dealt")).channel_id
    said = await users[loser].slash("resign", channel=thread)
    assert said.ephemeral and said.text == "You resigned.", said.text


# ---------------------------------------------------------------- the test's own Swiss arithmetic


def points_of(matches: list[Any]) -> dict[str, float]:
    """Win 1, bye 1, draw a half, a no-show nothing: from the stored places and no-shows."""
    score: Counter[str] = Counter()
    for m in matches:
        if len(m.players) == 1:
            score[m.players[0]] += 1
            continue
        a, b = m.players
        pa = 9 if a in m.forfeits else m.places[0]
        pb = 9 if b in m.forfeits else m.places[1]
        if a not in m.forfeits:
            score[a] += 1 if pa < pb else 0.5 if pa == pb else 0
        if b not in m.forfeits:
            score[b] += 1 if pb < pa else 0.5 if pa == pb else 0
    return score


def expected_standings(players: list[str], matches: list[Any]) -> list[tuple[str, float, float, float]]:
    score = points_of(matches)
    rows = []
    for p in players:
        mine = [m for m in matches if p in m.players and len(m.players) == 2]
        opponents = [next(q for q in m.players if q != p) for m in mine]
        buchholz = sum(score[o] for o in opponents)
        sb = sum(score[o] * points_of([m])[p] for m, o in zip(mine, opponents, strict=True))
        rows.append((p, score[p], buchholz, sb))
    order = {p: i for i, p in enumerate(players)}  # all unrated: who joined first
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], order[r[0]]))
    return rows


@pytest.mark.both_backends
@pytest.mark.slow
async def test_an_eight_person_swiss_survives_a_kill_a_drop_and_a_no_show(harness: Harness) -> None:
    event, users = await setup_event(harness, 8, game="malice", format="swiss", rounds=3, deadline=30)
    players = list(users)
    started = await users[players[0]].slash("tournament start")
    assert "round one is paired" in started.text, started.text
    seen_pairs: set[frozenset[str]] = set()

    # Round 1: every match in its own thread; the first seat wins (the second resigns).
    row = await round_opened(harness, event, 1)
    (posted,) = await harness.fake.wait_for(lambda: announcements(harness, event) or None, what="round 1")
    assert posted.pinged == frozenset(int(p) for p in players), "every player pinged once, in one message"
    assert "Round 1 of 3" in posted.text and posted.text.count("Table ") == 4
    for m in row.current():
        seen_pairs.add(frozenset(m.players))
        assert f"<#{harness.bot.sessions.tables.by_id(m.table_id).channel_id}>" in posted.text
        await resign(harness, users, m, m.players[1])

    # Round 2: two matches finish, the bot is killed, two finish after its restart.
    row = await round_opened(harness, event, 2)
    for m in row.current():
        assert frozenset(m.players) not in seen_pairs, "no pairing twice"
        seen_pairs.add(frozenset(m.players))
    first, second, *rest = row.current()
    await resign(harness, users, first, first.players[1])
    await resign(harness, users, second, second.players[0])
    await poll(lambda: harness.bot.sessions.tables.by_id(second.table_id) is None, what="two games over")
    # Killed once the runner has taken the step those two ends asked for (the round is not done). Killed in
    # the middle of the runner's opening, the PostgreSQL run hung twice in ~14 in the harness's closing of the
    # dead bot's pool (asyncpg: "Pool.close() is taking over 60 seconds"); not yet explained. A lobby opened
    # but not dealt before a kill is tests/events/test_service.py's case.
    await runner(harness).idle()
    await harness.crash_bot()
    await harness.start_bot()
    dropped = rest[-1].players[1]  # a loser of round 2 drops out: round 3 has seven players and a bye
    said = await users[dropped].slash("tournament drop")
    assert "not paired after round 2" in said.text, said.text
    for m in rest:
        await resign(harness, users, m, m.players[1])

    # Round 3: one match is a no-show (nobody moves); the others finish; the deadline settles the rest.
    row = await round_opened(harness, event, 3)
    byes = [m for m in row.current() if len(m.players) == 1]
    assert len(byes) == 1 and dropped not in {p for m in row.current() for p in m.players}
    before = [m for m in row.matches if m.round < 3]
    score = points_of(before)
    had_bye = {m.players[0] for m in before if len(m.players) == 1}
    active = [p for p in players if p != dropped]
    lowest = min(score[p] for p in active if p not in had_bye)
    assert score[byes[0].players[0]] == lowest, "the bye goes to a player of the lowest score without one"
    games = [m for m in row.current() if len(m.players) == 2]
    for m in games:
        assert frozenset(m.players) not in seen_pairs, "no pairing twice"
    absent, *played = games
    for m in played:
        await resign(harness, users, m, m.players[1])
    await poll(
        lambda: all(harness.bot.sessions.tables.by_id(m.table_id) is None for m in played), what="played"
    )
    turn = harness.bot.sessions.tables.by_id(absent.table_id).playing.current_player
    clock = runner(harness).clock
    runner(harness).clock = lambda: clock() + 31 * 60  # the round's 30 minutes are up
    await harness.fake.wait_for(
        lambda: len(announcements(harness, event)) == 4, what="the final standings", timeout=40
    )

    row = await row_of(harness, event)
    assert row.status == "finished" and [m.round for m in row.matches].count(3) == 4
    settled = next(m for m in row.matches if m.id == absent.id)
    assert settled.forfeits == (turn,), "the player whose turn it was forfeits; the other wins"
    counts = Counter(m.round for m in row.matches)
    assert counts == {1: 4, 2: 4, 3: 4}, "each round paired once"
    posts = [m.text.split("\n", 1)[0] for m in announcements(harness, event)]
    assert sum("Round 2 of 3" in p for p in posts) == 1 and sum("Round 3 of 3" in p for p in posts) == 1
    final = announcements(harness, event)[-1]
    assert [a["filename"] for a in final.attachments] == ["tournament-standings.png"]
    expected = expected_standings(players, list(row.matches))
    shown = plan.standings(row)
    assert [(s.player, s.points, s.tiebreaks[0], s.tiebreaks[1]) for s in shown] == expected
    assert f"<@{expected[0][0]}>" in final.text
    # Tournament games are rated as any game between people: the played ones, not the one the deadline ended.
    rated = [m for m in row.matches if len(m.players) == 2 and m.id != absent.id]
    for m in rated:
        assert len(await harness.store.rating_changes(m.table_id)) == 2
    assert await harness.store.rating_changes(absent.table_id) == []


class Clock:
    """The runner's clock moved on by whole rounds' deadlines (the round's minutes pass at once)."""

    def __init__(self, harness: Harness) -> None:
        self.base = runner(harness).clock
        self.shift = 0.0
        runner(harness).clock = lambda: self.base() + self.shift

    def pass_deadline(self, minutes: int) -> None:
        self.shift += (minutes + 1) * 60


@pytest.mark.both_backends
@pytest.mark.slow
async def test_a_five_person_knockout_gives_its_byes_to_the_top_seeds(harness: Harness) -> None:
    event, users = await setup_event(harness, 5, game="malice", format="knockout", deadline=30)
    players = list(users)
    # Ratings seed the bracket: the later joiners rate higher (the seeds are the join order reversed).
    for n, p in enumerate(players):
        await harness.store._db.execute(
            "INSERT INTO ratings (guild_id, kind, player, mu, sigma, score, games) VALUES (?, 'malice', ?,"
            " 25, 8, ?, 3)",
            harness.fake.guild_id,
            p,
            1000.0 + 10 * n,
        )
    for p in players:  # the ratings are read when they join: join again (leave first)
        await users[p].slash("tournament leave")
        await users[p].slash("tournament join")
    seeds = players[::-1]
    await users[players[0]].slash("tournament start")
    row = await round_opened(harness, event, 1)
    assert [m.players for m in row.current()] == [(seeds[0],), (seeds[3], seeds[4]), (seeds[1],), (seeds[2],)]
    (posted,) = await harness.fake.wait_for(lambda: announcements(harness, event) or None, what="round 1")
    assert posted.text.count("Bye: ") == 3 and posted.pinged == frozenset(int(p) for p in players)
    assert [a["filename"] for a in posted.attachments] == ["tournament-bracket.png"]
    # Round 1: the fifth seed beats the fourth; then the lower seed wins every match (the higher resigns).
    (match,) = [m for m in row.current() if len(m.players) == 2]
    await resign(harness, users, match, seeds[3])
    row = await round_opened(harness, event, 2)
    assert [m.players for m in row.current()] == [(seeds[0], seeds[4]), (seeds[1], seeds[2])]
    for m in row.current():
        await resign(harness, users, m, m.players[0])
    row = await round_opened(harness, event, 3)
    assert [m.players for m in row.current()] == [(seeds[4], seeds[2])]
    await resign(harness, users, row.current()[0], seeds[2])
    await harness.fake.wait_for(lambda: len(announcements(harness, event)) == 4, what="the final", timeout=40)
    row = await row_of(harness, event)
    assert row.status == "finished"
    final = announcements(harness, event)[-1]
    assert f"The winner: <@{seeds[4]}>" in final.text
    assert [a["filename"] for a in final.attachments] == ["tournament-bracket.png"]
    shown = await users[players[0]].slash("tournament show")
    assert shown.ephemeral and "Finished after 3 rounds" in shown.text


@pytest.mark.both_backends
@pytest.mark.slow
async def test_a_seven_person_insomnia_event_of_two_table_rounds_and_a_final(harness: Harness) -> None:
    event, users = await setup_event(
        harness, 7, game="insomnia", format="tables", rounds=2, deadline=20, options="chips=5 deals=1"
    )
    players = list(users)
    clock = Clock(harness)
    await users[players[0]].slash("tournament start")
    met: set[frozenset[str]] = set()
    for round_no, sizes in ((1, [4, 3]), (2, [4, 3]), (3, [6])):
        row = await round_opened(harness, event, round_no)
        tables = row.current()
        assert [len(m.players) for m in tables] == sizes
        if round_no == 1:  # by rating (all unrated: the join order), the strongest together
            assert [m.players for m in tables] == [tuple(players[:4]), tuple(players[4:])]
        if round_no == 3:  # the final table: the six leaders after the table rounds
            done = [m for m in row.matches if m.round < 3]
            score = table_points(done)
            ranked = sorted(players, key=lambda p: (-score[p], -firsts(done, p), players.index(p)))
            assert tables[0].players == tuple(ranked[:6])
        for m in tables:
            met |= {frozenset((a, b)) for a in m.players for b in m.players if a < b}
            # The player whose turn it is makes one move; the next one never does (a no-show).
            record = harness.bot.sessions.tables.by_id(m.table_id)
            await poll(
                lambda m=m: (
                    (r := harness.bot.sessions.tables.by_id(m.table_id)) is not None
                    and r.status == "running"
                    and r.game is not None
                ),
                what="dealt",
            )
            record = harness.bot.sessions.tables.by_id(m.table_id)
            mover = record.playing.current_player
            said = await users[mover].slash("insomnia pass", channel=record.channel_id)
            assert said.ephemeral, said.text
        clock.pass_deadline(20)
        await poll(lambda: True)
    await harness.fake.wait_for(
        lambda: len(announcements(harness, event)) == 4, what="the final standings", timeout=40
    )
    row = await row_of(harness, event)
    assert row.status == "finished" and all(m.settled for m in row.matches)
    final = next(m for m in row.matches if m.round == 3)
    assert final.forfeits, "a no-show at the final table forfeits"
    expected_first = min(
        (p for p in final.players if p not in final.forfeits),
        key=lambda p: (final.places[final.players.index(p)], final.players.index(p)),
    )
    assert f"The winner: <@{expected_first}>" in announcements(harness, event)[-1].text


def table_points(matches: list[Any]) -> Counter[str]:
    """One point for each player finished ahead of, a half for a tie; no-shows nothing and count last."""
    score: Counter[str] = Counter()
    for m in matches:
        last = len(m.players) + 1
        place = {p: last if p in m.forfeits else m.places[i] for i, p in enumerate(m.players)}
        for p in m.players:
            if p not in m.forfeits:
                score[p] += sum(
                    1 if place[p] < place[q] else 0.5 if place[p] == place[q] else 0
                    for q in m.players
                    if q != p
                )
    return score


def firsts(matches: list[Any], player: str) -> int:
    count = 0
    for m in matches:
        if player in m.players and player not in m.forfeits:
            place = m.places[m.players.index(player)]
            count += place == 1
    return count


async def test_a_moderator_voids_a_game_and_takes_a_player_off_the_leaderboard(harness: Harness) -> None:
    from tests.e2e.test_rematch import malice_game

    async def finished(harness: Harness, table: int) -> None:
        games = harness.fake.channel("games").id
        await poll(lambda: harness.bot.sessions.tables.in_channel(games) is None, what=f"table {table} over")

    alice, bob, erin = harness.user("alice"), harness.user("bob"), harness.user("erin")
    farmed = await malice_game(harness, alice, bob, stake=3)
    await alice.slash("resign")
    await finished(harness, farmed)
    assert f"<@{bob.id}>" in (await alice.slash("leaderboard")).text
    refused = await alice.slash("moderation void", table=farmed)
    assert refused.ephemeral and "Manage Server" in refused.text, refused.text
    said = await erin.slash("moderation void", table=farmed, reason="farmed")
    assert said.ephemeral and f"Game #{farmed} (Malice) is voided" in said.text, said.text
    again = await erin.slash("moderation void", table=farmed)
    assert "already voided" in again.text
    history = await alice.slash("history", game=f"#{farmed}")
    assert "A moderator voided this game" in history.text
    board = await alice.slash("leaderboard")
    assert f"<@{bob.id}>" not in board.text and f"<@{alice.id}>" not in board.text, "as if never played"
    assert await harness.store.rating_changes(farmed) == []

    second = await malice_game(harness, alice, bob)
    await bob.slash("resign")
    await finished(harness, second)
    said = await erin.slash("moderation exclude", player=bob, reason="cheating")
    assert f"<@{bob.id}> is off this server's leaderboards" in said.text
    board = await alice.slash("leaderboard")
    assert f"<@{alice.id}>" in board.text and f"<@{bob.id}>" not in board.text
    # The bot itself (it plays the computer seats) is on no leaderboard: refused, nothing recorded (issue 38).
    bot_user = harness.fake.bot_user
    said = await erin.slash("moderation exclude", player=bot_user, reason="test")
    assert said.ephemeral and f"<@{bot_user.id}> is a bot" in said.text, said.text
    record = await erin.slash("moderation log")
    assert f"<@{bot_user.id}>" not in record.text
    assert record.ephemeral and f"voided the game at table #{farmed}" in record.text
    assert f"took <@{bob.id}> off the leaderboards · cheating" in record.text


async def test_a_start_time_that_is_no_time_is_refused_in_the_readers_language(harness: Harness) -> None:
    """Found by the fuzz test: a start time that is not a timestamp ended in an error id; it is a refusal
    that says what a start time looks like, and no event is made."""
    alice = harness.user("alice")
    said = await alice.slash("tournament create", game="malice", format="swiss", starts="**bold** tomorrow")
    assert said.ephemeral and "must be a Discord timestamp" in said.text, said.text
    alice.user.locale = "de"
    said = await alice.slash("tournament create", game="malice", format="swiss", starts="morgen")
    assert said.ephemeral and "muss ein Discord-Zeitstempel sein" in said.text, said.text
    assert "is open" not in (await alice.slash("tournament show")).text
    # Within a stated window (issue 38): not in the past, not over a year ahead; refused in her language.
    said = await alice.slash("tournament create", game="malice", format="swiss", starts="<t:1000000000:F>")
    assert said.ephemeral and "Diese Startzeit ist schon vorbei" in said.text, said.text
    alice.user.locale = "en-US"
    said = await alice.slash("tournament create", game="malice", format="swiss", starts="<t:999999999999:F>")
    assert said.ephemeral and "A tournament starts within a year" in said.text, said.text
    said = await alice.slash("tournament create", game="malice", format="swiss", starts="<t:١٢٣٤٥٦٧٨٩٠:F>")
    assert said.ephemeral and "must be a Discord timestamp" in said.text, said.text
    tomorrow = int(time.time()) + 86_400
    made = await alice.slash("tournament create", game="malice", format="swiss", starts=f"<t:{tomorrow}:F>")
    assert not made.ephemeral and "is open" in made.text, made.text
