"""Web soak: run `python bench/bench_web_soak.py` from the repository root (--floods 10, --viewers 200,
--tables 20, --seconds 5, --pace 2.0, --write).

Does the bot's memory come back after crowds of viewers? The bot's side in this process, as in
bench/bench_web.py: the session layer on a fresh SQLite file with its web server, `--tables` Malice tables
where a person plays the computer player's choices against the computer, one move every `--pace` seconds per
table (slow enough that few games end during the soak: the bot's own state of play stays the same size, so
what grows is the web's). Then `--floods` times: `--viewers` live feeds open at once from a second process
(spread over the tables, each from its own address behind the proxy), are fed every frame for `--seconds` of
play, and close;
once the bot has let every one of them go, its resident set is measured (after a garbage collection, as the
process would reach on its own a moment later). The play goes on between floods, so the caches see new
states all along. Printed: the resident set before the first flood and after each; the growth from the
first flood to the last is the figure (issue 38: within 5 MB). `--write` puts the table into
docs/benchmarks.md ("web-soak").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import time
from collections import deque
from collections.abc import Sized
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_web import FIRST_CHANNEL, FIRST_PERSON, GUILD, bot, person, rss_mb
from bench.report import write_section
from bot.sessions import lobbies
from bot.web.guard import Limits
from bot.web.memory import SETTLE
from tests.recording import RecordingAnnouncer

# Pictures off: the Discord table message's picture, drawn in worker threads at every move, is the bot's own
# play (its allocator's per-thread arenas grow with it, viewers or not); without it what grows is the web's.
OPTIONS = {"timeout": 3600, "pictures": False}
VIEWERS_CHILD = str(Path(__file__).resolve().parent / "bench_web.py")  # its `--child`: the viewers' process

INTRO = """## The web under floods of viewers (soak)

Command (from the repository root, in the project's virtualenv):

```sh
python bench/bench_web_soak.py       # --floods 10 --viewers 200 --tables 20 --seconds 5 --pace 2.0, --write
```

The bot's side as in "The table on the web" (the session layer on a fresh SQLite file with its web server,
Malice tables where a person plays the computer's choices against the computer), with the tables' pictures
off: the Discord message's picture, drawn in worker threads at every move, grows the allocator's per-thread
arenas with the play alone, viewers or not (some 2 MB a flood's time here); without it what grows is the
web's. Ten times over, 200 live
viewers open at once from a second process (each from its own address behind the proxy), are fed every frame
for 5 s of play and close; once the bot has let them all go, its resident set is read (after a garbage
collection). The play goes on between floods (one move per table every 2 s, no game ending), so the pages'
caches see new states all along. *Growth*: the resident set after the last flood less the one after the
first (the first flood fills the bounded caches, docs/design.md); the bar is 5 MB. After the last feed of a
crowd closes, the web server gives glibc's free pages back (`bot/web/memory.py`, `malloc_trim`)."""


async def flood(urls: list[str], seconds: float, feed_viewers: Sized) -> int:
    """One flood: the viewers open, are fed for `seconds`, close; the frames they got."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        VIEWERS_CHILD,
        "--child",
        str(seconds),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "BENCH_URLS": json.dumps(urls)},
    )
    assert child.stdout is not None and child.stdin is not None
    await child.stdout.readline()  # ready
    while len(feed_viewers) < len(urls):
        await asyncio.sleep(0.05)
    await asyncio.sleep(seconds)
    child.stdin.write(b"stop\n")
    await child.stdin.drain()
    seen = json.loads((await child.stdout.read()).decode().strip().splitlines()[-1])
    await child.wait()
    while len(feed_viewers):  # the bot lets every feed go (its handler ends with the connection)
        await asyncio.sleep(0.05)
    await asyncio.sleep(SETTLE + 1.0)  # the bot gives its memory back once the crowd has gone
    return sum(len(got) for got in seen.values())


async def run(floods: int, viewers: int, tables: int, seconds: float, pace: float) -> dict[str, object]:
    seeds = iter(f"bench-web-soak-{i}" for i in range(1_000_000))
    lobbies.new_seed = lambda: next(seeds)
    # The table messages the bot sends are forgotten but the last hundred: a recording of every one (each with
    # its picture) would be this bench's own growth, not the bot's.
    announcer = RecordingAnnouncer(log=deque(maxlen=100))  # type: ignore[arg-type]
    async with bot(Limits(rate=1000.0, burst=1000.0), announcer) as (sessions, feed, web):
        channels = [FIRST_CHANNEL + i for i in range(tables)]
        table_ids = []
        for i, channel in enumerate(channels):
            table = await sessions.open_table(
                "malice", GUILD, channel, FIRST_PERSON + i, opponent=999, options=OPTIONS
            )
            table_ids.append(table.id)
        await sessions.idle()
        stop = asyncio.Event()
        players = [
            asyncio.create_task(person(sessions, channel, FIRST_PERSON + i, pace, stop, options=OPTIONS))
            for i, channel in enumerate(channels)
        ]
        gc.collect()
        before = rss_mb()
        after: list[float] = []
        frames: list[int] = []
        started = time.perf_counter()
        for n in range(floods):
            # A rematch opens a new table in the channel: the viewers follow the tables in play now.
            now = [r.id for c in channels if (r := sessions.tables.in_channel(c)) is not None] or table_ids
            urls = [web.table_url(now[k % len(now)]) + "/live" for k in range(viewers)]
            frames.append(await flood(urls, seconds, feed.viewers))
            gc.collect()
            after.append(rss_mb())
            print(f"flood {n + 1}: {frames[-1]} frames, resident {after[-1]:.1f} MB", flush=True)
        stop.set()
        await asyncio.gather(*players)
        await sessions.idle()
        ended = sum(
            1 for c in channels if (r := sessions.tables.in_channel(c)) is None or r.id not in table_ids
        )
        return {
            "ended": ended,
            "trims": web.site.crowd.trims,
            "floods": floods,
            "viewers": viewers,
            "tables": tables,
            "seconds": seconds,
            "before": before,
            "after": after,
            "frames": frames,
            "wall": time.perf_counter() - started,
        }


def table(figures: dict[str, object]) -> str:
    after = figures["after"]
    frames = figures["frames"]
    assert isinstance(after, list) and isinstance(frames, list)
    growth = after[-1] - after[0]
    bar = "within 5 MB" if growth <= 5 else "over 5 MB"
    rows = [
        ("floods × viewers (tables)", f"{figures['floods']} × {figures['viewers']} ({figures['tables']})"),
        ("frames delivered per flood", f"{min(frames)} to {max(frames)}"),
        ("games ended during the soak", str(figures["ended"])),
        ("memory given back after a crowd", f"{figures['trims']}×"),
        ("resident before the first flood", f"{figures['before']:.1f} MB"),
        ("resident after each flood", " · ".join(f"{x:.1f}" for x in after) + " MB"),
        ("growth from the first flood to the last", f"{growth:+.1f} MB ({bar})"),
    ]
    lines = ["| measure | figure |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)]
    return INTRO + "\n\n" + "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floods", type=int, default=10)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--pace", type=float, default=2.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    figures = asyncio.run(run(args.floods, args.viewers, args.tables, args.seconds, args.pace))
    text = table(figures)
    print(text)
    if args.write:
        write_section("web-soak", text)


if __name__ == "__main__":
    main()
