"""Invariants over many random games played with the real engines and stored through the real Store.

Each game is played through `legal_actions()` / `apply()` with a seeded random choice; every `ChipTransfer`
event becomes a ledger entry, as the session does. Checked: the ledger of every finished table sums to zero
over all its accounts, each player's movements in it equal his result and its pot account holds what the game
left in the pot; a player's net on the leaderboard and in his stats equals the sum of his ledger movements
(counted independently while playing); replaying a table's log from its seed reproduces the stored
snapshot exactly, also after reopening the file mid-game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.base import POT, ChipTransfer, seed_commitment
from storage import LedgerIn, ResultIn, SeatIn, Store, open_store
from tests.engines import engine
from tests.games.replaying import replay

from .conftest import GUILD, Doc, ticking_clock

PEOPLE = ["101", "102", "103", "104", "105"]
GAMES_PER_KIND = 12
ACTION_CAP = 400  # a random game still going after this many actions is ended with the system action


def table_setup(kind: str, rng: random.Random) -> tuple[list[str], dict]:
    if kind == "malice":
        players = [*rng.sample(PEOPLE, 1), rng.choice([*PEOPLE, "ai:1"])]
        while players[1] == players[0]:
            players[1] = rng.choice([*PEOPLE, "ai:1"])
        return players, {"stake": rng.randint(1, 3), "timeout": 60}
    players = rng.sample(PEOPLE, rng.randint(2, 4)) + (["ai:1"] if rng.random() < 0.5 else [])
    return players, {"chips": rng.randint(8, 20), "max_deals": rng.randint(1, 3), "timeout": 60}


def choose(actions: list, rng: random.Random):
    """A random legal action: a kind of action first, then one of that kind; bids stay low so that games last
    a few deals instead of ending on the first all-in bid."""
    kinds = sorted({a.kind for a in actions})
    # Malice stalls into a drawn stalemate when turns are ended at random: mostly play cards instead.
    kind = "play" if "play" in kinds and rng.random() < 0.9 else rng.choice(kinds)
    same = [a for a in actions if a.kind == kind]
    if kind == "bid":
        same = sorted(same, key=lambda a: a.amount)[:3]
    return rng.choice(same)


class Table:
    """One game in play, mirrored into the store action by action."""

    def __init__(self, kind: str, players: list[str], seed: str, options: dict, table_id: int) -> None:
        self.kind, self.players, self.seed, self.options, self.id = kind, players, seed, options, table_id
        self.game = replay(kind, players, seed, options, [])
        self.seq = 0

    async def step(self, store: Store, rng: random.Random, moved: Counter) -> None:
        eng = engine(self.kind)
        if self.seq >= ACTION_CAP:
            actor, action = None, eng.parse_action({"kind": "end_game"})
        elif self.kind == "malice" and rng.random() < 0.002:
            actor, action = None, eng.parse_action({"kind": "resign", "player": rng.choice(self.players)})
        else:
            actor, action = self.game.current_player, choose(self.game.legal_actions(), rng)
        events = self.game.apply(action)
        ledger = []
        for e in events:
            if isinstance(e, ChipTransfer):
                ledger.append(
                    LedgerIn(**e.model_dump(include={"from_account", "to_account", "amount", "reason"}))
                )
                moved[e.from_account] -= e.amount
                moved[e.to_account] += e.amount
        finish = None
        if self.game.is_over:
            finish = [ResultIn(**s.model_dump()) for s in self.game.standings()]
        await store.append_action(
            self.id, self.seq, actor, action.model_dump_json(), ledger, self.game.model_dump_json(), finish
        )
        self.seq += 1


async def start(store: Store, kind: str, n: int, rng: random.Random) -> Table:
    players, options = table_setup(kind, rng)
    seed = f"{kind}-{n}-{rng.random()}"
    table_id = await store.create_table(
        GUILD, 500 + n, kind, int(players[0]), Doc(**options), seed, seed_commitment(seed)
    )
    await store.set_seats(
        table_id,
        [
            SeatIn(seat=i, player=p, user_id=None if p.startswith("ai:") else int(p))
            for i, p in enumerate(players)
        ],
    )
    table = Table(kind, players, seed, options, table_id)
    await store.start_table(table_id, table.game.model_dump_json())
    return table


async def assert_replay_matches(store: Store, table_id: int) -> None:
    row = await store.get_table(table_id)
    log = [a.action for a in await store.actions(table_id)]
    rebuilt = replay(row.kind, row.players, row.seed, row.options, log)
    assert rebuilt.model_dump_json() == row.snapshot
    assert row.commitment == seed_commitment(row.seed) == rebuilt.seed_commitment


@pytest.mark.parametrize("kind", ["insomnia", "malice"])
async def test_random_games_keep_the_ledger_exact_and_replay_to_the_snapshot(database, kind):
    rng = random.Random(f"storage-invariants-{kind}")
    moved: Counter = Counter()  # every player's chip movements, counted here independently of the store
    store = await open_store(database, clock=ticking_clock())
    tables = [await start(store, kind, n, rng) for n in range(GAMES_PER_KIND)]
    try:
        # Interleave the games, as a bot with many channels would.
        live = list(tables)
        halfway = False
        while live:
            t = rng.choice(live)
            await t.step(store, rng, moved)
            if t.game.is_over:
                live.remove(t)
            if not halfway and sum(t.seq for t in tables) > 3 * GAMES_PER_KIND:
                # A restart mid-play: reopen the file, resume every open table from its log, carry on.
                halfway = True
                await store.close()
                store = await open_store(database, clock=ticking_clock(1_800_000_000))
                assert {r.id for r in await store.open_tables()} == {t.id for t in live}
                for t in live:
                    await assert_replay_matches(store, t.id)
                    row = await store.get_table(t.id)
                    t.game = replay(
                        kind,
                        row.players,
                        row.seed,
                        row.options,
                        [a.action for a in await store.actions(t.id)],
                    )
                    assert t.seq == row.next_seq
        assert halfway and await store.open_tables() == []

        for t in tables:
            row = await store.get_table(t.id)
            assert row.status == "finished"
            await assert_replay_matches(store, t.id)
            balance: Counter = Counter()
            for e in await store.ledger(t.id):
                balance[e.from_account] -= e.amount
                balance[e.to_account] += e.amount
            assert sum(balance.values()) == 0
            # Rule 31: chips still in the pot when the game ends stay on the table's pot account.
            assert balance[POT] == getattr(t.game, "pot", 0)
            results = {r.player: r for r in await store.results(t.id)}
            assert set(results) == set(t.players)
            assert {p: balance[p] for p in t.players} == {p: r.net for p, r in results.items()}

        board = {r.player: r for r in await store.leaderboard(GUILD, limit=100)}
        people = {p for t in tables for p in t.players if not p.startswith("ai:")}
        assert set(board) == people
        for p in people:
            stats = await store.player_stats(GUILD, p)
            assert board[p].net == stats.net == stats.per_game[kind].net == moved[p]
            assert board[p].games == stats.games == sum(p in t.players for t in tables)
        assert sum(r.net for r in board.values()) + sum(v for k, v in moved.items() if k[0] in "a@") == 0
        assert any(moved[p] != 0 for p in people), "the random games should move some chips"
    finally:
        await store.close()
