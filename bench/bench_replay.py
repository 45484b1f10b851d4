"""Replay benchmark: run `python bench/bench_replay.py` from the repository root (--runs N, --write).

Two finished games are played through the session layer onto a fresh SQLite file (Malice, a person playing
the computer player's choices against the computer to the end by the rules; Insomnia, four computer seats over
several deals), then, in one run:
- baseline: one write of the live table message at the game's end, as the presenter words and draws it
  (the log worded, the picture drawn, the pictures' cache empty);
- step: one step of the replay viewer (a click on Forward) with the table's states in memory, the
  pictures' cache empty (a step not seen before);
- step, seen: the same step again (every cache warm: what Back to a step just seen costs);
- full replay: the first click on a table not in memory: its row and action log read, every state replayed
  from the seed, the log worded, one step drawn;
- states alone: the replay of every state from the seed and the log (no words, no picture).
Figures are medians of `--runs` (p95 in brackets); nothing is asserted. `--write` puts the table into
docs/benchmarks.md (its "replay" section).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import write_section
from bot import render
from bot.games.ai import choose_action
from bot.render.drawings import CACHE
from bot.sessions import SessionManager, lobbies
from bot.sessions.replay import Replays
from bot.sessions.resume import replay_facts
from bot.sessions.rows import record_from_row
from bot.sessions.view import log_of, message_of, table_info, view_of, window
from storage import Store
from tests.recording import RecordingAnnouncer

clock = time.perf_counter
GUILD, CHANNEL, ALICE, BOT = 1, 500, 101, 999

INTRO = """## Replays

Command (from the repository root, in the project's virtualenv):

```sh
python bench/bench_replay.py            # --runs 30 (default), --write
```

Two finished games played through the session layer onto a fresh SQLite file. *Baseline*: one write of the
live table message at the game's end (its log worded, its picture drawn with the pictures' cache empty), what
the presenter pays for every move. *Step*: one click on the replay viewer with the table's states in memory
and the pictures' cache empty (a step not seen before); *step, seen*: the same step again (Back to a step just
seen). *Full replay*: the first click on a table not in memory (its row and log read, every state replayed
from the seed, the log worded, one step drawn); *states alone*: only the replay of every state. """


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:.2f} ({p95 * 1000:.2f})"


async def timed(call: Callable[[], Awaitable[object]], runs: int, before: Callable[[], None]) -> list[float]:
    samples = []
    for _ in range(runs):
        before()
        start = clock()
        await call()
        samples.append(clock() - start)
    return samples


async def malice(sessions: SessionManager) -> int:
    """Alice plays the computer player's choices against the computer until the game ends by the rules."""
    table = await sessions.open_table("malice", GUILD, CHANNEL, ALICE, opponent=BOT, options={"timeout": 300})
    for n in range(2000):
        await sessions.idle()
        record = sessions.tables.by_id(table.id)
        if record is None or record.status != "running":
            return table.id
        game = record.playing
        await sessions.moves.act(CHANNEL, ALICE, choose_action(game, str(ALICE), f"bench/{n}"))
    raise RuntimeError("the Malice game did not end")


async def insomnia(sessions: SessionManager) -> int:
    """Alice and three computers; she resigns at once and the computers play every deal out."""
    options = {"deals": 3, "timeout": 300}
    table = await sessions.open_table("insomnia", GUILD, CHANNEL + 1, ALICE, options=options)
    for _ in range(3):
        await sessions.lobbies.add_computer(CHANNEL + 1, ALICE)
    await sessions.lobbies.start(CHANNEL + 1, ALICE)
    await sessions.life.resign(CHANNEL + 1, ALICE)
    await sessions.idle()
    return table.id


async def measure(store: Store, table_id: int, runs: int) -> dict[str, str]:
    row = await store.get_table(table_id)
    assert row is not None and row.status == "finished"
    record = record_from_row(row)
    actions = await store.actions(table_id)
    steps = replay_facts(record, actions)
    rng = random.Random(1)

    async def baseline() -> None:
        lines = log_of(record, steps[-16:], locale="en")
        view = view_of(record, deadline=None, locale="en", log=window(lines, -1, 0, record.seq))
        message = message_of(record, view)
        render.attach_picture(message, render.table_picture(table_info(record), record.game, locale="en"))

    warm = Replays(store)
    await warm.step(table_id, 0, guild_id=GUILD, locale="en")
    chosen = [rng.randrange(len(actions) + 1) for _ in range(runs)]
    picks = iter(chosen * 2)

    async def step() -> None:
        await warm.step(table_id, next(picks), guild_id=GUILD, locale="en")

    async def seen() -> None:
        await warm.step(table_id, chosen[0], guild_id=GUILD, locale="en")

    async def full() -> None:
        await Replays(store).step(table_id, len(actions), guild_id=GUILD, locale="en")

    async def states() -> None:
        replay_facts(record, actions)

    return {
        "moves": str(len(actions)),
        "baseline": ms(await timed(baseline, runs, CACHE.clear)),
        "step": ms(await timed(step, runs, CACHE.clear)),
        "seen": ms(await timed(seen, runs, lambda: None)),
        "full": ms(await timed(full, runs, CACHE.clear)),
        "states": ms(await timed(states, runs, lambda: None)),
    }


def table(rows: list[tuple[str, dict[str, str]]]) -> str:
    head = (
        "| game | moves | baseline: live table write (ms) | step (ms) | step, seen (ms) | full replay (ms) "
        "| states alone (ms) |\n|---|---|---|---|---|---|---|"
    )
    lines = [
        f"| {name} | {r['moves']} | {r['baseline']} | {r['step']} | {r['seen']} | {r['full']} "
        f"| {r['states']} |"
        for name, r in rows
    ]
    return "\n".join([head, *lines])


async def run(runs: int) -> str:
    seeds = iter(["bench-replay-malice-2", "bench-replay-insomnia"])  # a long Malice game: 386 moves
    lobbies.new_seed = lambda: next(seeds)  # fixed games: the same figures measure the same moves each run
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        sessions = SessionManager(
            store, RecordingAnnouncer(), default_timeout=300, bot_user_id=BOT, coalesce=0.0, pacing=False
        )
        games = [
            ("Malice, to the end by the rules", await malice(sessions)),
            ("Insomnia, 4 computers, 3 deals", await insomnia(sessions)),
        ]
        await sessions.close()
        rows = [(name, await measure(store, table_id, runs)) for name, table_id in games]
        await store.close()
    return table(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="measurements per figure (default 30)")
    parser.add_argument("--write", action="store_true", help="write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    markdown = asyncio.run(run(args.runs))
    print(markdown)
    if args.write:
        write_section("replay", f"{INTRO}Medians of {args.runs} runs, p95 in brackets.\n\n{markdown}")
        print("written to docs/benchmarks.md")


if __name__ == "__main__":
    main()
