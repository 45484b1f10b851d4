"""Issue 12's acceptance under faults: with 30% of the bot's message writes failing (5xx, then 429 with a
retry_after) and the bot restarted in the middle, gracefully and by a kill -9, whole games of both kinds end
(Malice against the computer, Insomnia with a computer seat), every stored move is announced on the table
message (the log rebuilt from its versions equals the log worded from the stored moves, replayed from the seed
and the action log: the presenter's record of what it showed is stored, so no move is skipped), every ledger
sums to zero and the results match it, and a move picked from autocomplete and sent three times at once is
stored once."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.discord_out import discord_words
from bot.games.ai import choose_action
from bot.sessions.resume import replay_facts
from bot.sessions.rows import record_from_row
from bot.sessions.view import log_of
from tests.e2e.fake_discord import MESSAGE_WRITE_ROUTES, UserHandle
from tests.e2e.harness import Harness
from tests.e2e.test_fuzz import RealGames
from tests.e2e.test_game_support import announced_log, ledger_net, table_message

SEED = "faults-12"
RATE = 0.3


class Player:
    """The people of one table, playing the computer player's choice on each of their turns: typed, or picked
    from autocomplete (the value carries the move number), and now and then sent three times at once."""

    def __init__(self, harness: Harness, channel: str, people: list[UserHandle], seed: int) -> None:
        self.harness = harness
        self.fake = harness.fake
        self.channel = channel
        self.by_id = {str(u.id): u for u in people}
        self.rng = random.Random(seed)
        self.table_id: int | None = None
        self.moves = 0
        self.duplicates_sent = 0
        self.duplicates_refused = 0

    def table(self) -> Any:
        assert self.harness.bot is not None
        return self.harness.bot.sessions.tables.in_channel(self.fake.channel(self.channel).id)

    async def step(self) -> bool:
        """One decision of a person; False once the game is over."""
        table = self.table()
        if table is None:
            return False
        self.table_id = table.id
        game = table.game
        if game is None or game.is_over:
            return False
        player = game.current_player
        user = self.by_id.get(player or "")
        if user is None or table.seat_is_computer(player):
            await asyncio.sleep(0.01)  # the computer's turn: it moves in the bot's own tasks
            return True
        action = choose_action(game, player, f"{SEED}/{table.seq}")
        path, options = RealGames.command_for(table.kind, action)
        self.moves += 1
        if not options or self.rng.random() < 0.4:
            await user.slash(path, channel=self.channel, values=options)
            return True
        picked: dict[str, Any] = {}
        for name, value in options.items():
            choices = await user.autocomplete(path, name, "", channel=self.channel, values=picked)
            offered = [c.value for c in choices if str(c.value).split("@")[0] == str(value)]
            assert offered, f"{value!r} not offered for {name}: {choices}"
            picked[name] = offered[0]
        if self.rng.random() < 0.3:
            # The same picked move sent three times at once (a double tap, a laggy client): stored once.
            before = table.seq
            copies = self.rng.choice([2, 3])
            replies = await asyncio.gather(
                *(user.slash(path, channel=self.channel, values=picked) for _ in range(copies))
            )
            self.duplicates_sent += copies - 1
            self.duplicates_refused += sum(
                "moved on" in r.text or "not your turn" in r.text.lower() for r in replies
            )
            after = await self.harness.store.actions(table.id)
            mine = [a for a in after[before:] if a.actor == player]
            assert len(mine) == 1, f"{copies} copies of {picked} stored {len(mine)} times"
        else:
            await user.slash(path, channel=self.channel, values=picked)
        return True


async def play_all(
    harness: Harness, players: list[Player], events: dict[int, str], *, steps: int | None = None
) -> Counter[str]:
    """Step every game in turn until all have ended (or for `steps` rounds); at the rounds named in `events`,
    restart the bot gracefully ("restart") or kill it ("crash") and start a new one on the same database.
    Every few rounds the players look at the table: the presenter catches up (through the failures), so
    the channel sees many writes, as at a people's pace."""
    done: Counter[str] = Counter()
    running = [p for p in players if p.table() is not None]
    for step in itertools.count():
        if not running or step == steps:
            return done
        assert step < 3000, "the games did not end"
        if step in events:
            if events[step] == "restart":
                await harness.restart_bot()
            else:
                await harness.crash_bot()
                await harness.start_bot()
            done[events[step]] += 1
        for player in list(running):
            if not await player.step():
                running.remove(player)
        if step % 2 == 1:
            assert harness.bot is not None
            await harness.bot.sessions.idle()
    raise AssertionError("unreachable")


async def open_games(harness: Harness) -> list[Player]:
    """A Malice game against the computer in #games, an Insomnia table of two people and a computer seat in
    #lounge. The lobby is run through slash commands: its message may not be posted yet (failures)."""
    fake = harness.fake
    alice, bob, carol = harness.user("alice"), harness.user("bob"), harness.user("carol")
    await alice.slash("malice challenge", opponent=fake.bot_user, stake=2, turns=60)
    await bob.slash("insomnia new", chips=5, deals=3, channel="lounge")
    await carol.slash("insomnia join", channel="lounge")
    await bob.slash("insomnia addbot", channel="lounge")
    await bob.slash("insomnia start", channel="lounge")
    return [Player(harness, "games", [alice], seed=1), Player(harness, "lounge", [bob, carol], seed=2)]


async def check_announced_and_settled(harness: Harness, player: Player) -> None:
    """The game ended; the log of every stored move (worded from the store alone: the seed, the action log and
    the session's notes) was shown on its table message, once and in order; no chip made or lost, and the
    results are what the ledger says."""
    fake = harness.fake
    assert player.table_id is not None
    row = await harness.store.get_table(player.table_id)
    assert row is not None and row.status == "finished", f"table {player.table_id}: {row and row.status}"
    record = record_from_row(row, await harness.store.rating_changes(row.id))
    steps = replay_facts(record, await harness.store.actions(row.id))
    stored = [discord_words(line.text) for line in log_of(record, steps, locale="en")]
    title = f"{row.kind.capitalize()} · table #{row.id}"
    table = table_message(fake, title, player.channel)
    assert "Game over" in table.text, table.text
    assert stored[0].startswith("▶️") and stored[-1].startswith("🔑 Seed")
    assert announced_log(table) == stored, title
    if row.kind == "malice":
        actions = await harness.store.actions(row.id)
        plays = sum(json.loads(a.action)["kind"] == "play" for a in actions)
        assert sum(" plays " in line for line in stored) == plays, "every stored play announced"
    net = ledger_net(await harness.store.ledger(row.id))
    assert sum(net.values()) == 0
    results = {r.player: r.net for r in await harness.store.results(row.id)}
    assert results and results == {p: net.get(p, 0) for p in results} and set(results) <= set(row.players)


# Two rounds of both games: the first under 5xx failures, the second under 429s; each with graceful restarts
# and kills at these rounds of play.
ROUNDS = [
    ((500, 503), {3: "restart", 10: "crash", 18: "crash"}),
    ((429,), {0: "crash", 8: "restart", 15: "crash", 25: "crash"}),
]


@pytest.mark.slow
@pytest.mark.bot(turn_timeout_seconds=30.0)
async def test_whole_games_end_and_every_move_is_announced_under_faults_and_restarts(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = itertools.count()
    monkeypatch.setattr("bot.sessions.lobbies.new_seed", lambda: f"{SEED}-{next(seeds)}")
    fake = harness.fake
    restarts: Counter[str] = Counter()
    games: list[Player] = []
    chaos = None
    for number, (statuses, events) in enumerate(ROUNDS):
        # 30% of every message write (posts, edits, deletes, DMs) fails, from before the tables open.
        chaos = fake.fail_randomly(
            MESSAGE_WRITE_ROUTES, rate=RATE, statuses=statuses, seed=f"{SEED}-{number}", retry_after=0.1
        )
        players = await open_games(harness)
        restarts += await play_all(harness, players, events)
        games += players
    fake.stop_failing()
    assert harness.bot is not None and chaos is not None
    await harness.bot.sessions.idle()

    writes = sum(len(fake.calls(r)) for r in MESSAGE_WRITE_ROUTES)
    duplicates = sum(p.duplicates_sent for p in games), sum(p.duplicates_refused for p in games)
    print(
        f"faults: injected {dict(chaos.injected)} on {writes} message writes; restarts {dict(restarts)}; "
        f"{len(games)} games, moves by people {sum(p.moves for p in games)}; duplicate copies sent "
        f"{duplicates[0]}, refused {duplicates[1]}"
    )
    assert chaos.injected[429] > 0 and chaos.injected[500] > 0 and chaos.injected[503] > 0
    assert restarts["restart"] >= 2 and restarts["crash"] >= 4
    assert duplicates[0] > 0 and duplicates[0] == duplicates[1]
    for player in games:
        await check_announced_and_settled(harness, player)
