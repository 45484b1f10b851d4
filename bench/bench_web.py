"""Web benchmark: run `python bench/bench_web.py` from the repository root (--tables 50, --viewers 200,
--seconds 20, --write); `--flood`: moves answered with and without 1,000 requests a second from one address.

The bot's side in this process: the session layer on a fresh SQLite file (no Discord: a recording announcer,
no pacing) with its web server (`bot.web`: feed, pages, live frames) on a free port; `--tables` Malice tables,
on each a person playing the computer player's choices against the computer, one move every `--pace`
seconds (the computer answering at once). The viewers in a second process (so their work is not counted as
the bot's): `--viewers` live feeds spread evenly over the tables, each reading every frame and noting when it
arrived. Measured over `--seconds` of play after a warm-up: the bot process's CPU (its own process time per
second of wall time) and memory (resident set, before the viewers came and at the end), the moves stored,
the frames delivered, and for every stored move and every viewer of its table the time from the move being
stored (the session's stored signal, after its commit) to the first frame showing it arriving at the viewer
(one machine's clock). Nothing is asserted. `--write` puts the table into docs/benchmarks.md ("web").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report import write_section
from bot.games.ai import choose_action
from bot.sessions import SessionManager, lobbies
from bot.sessions.replay import Replays
from bot.web.feed import Feed
from bot.web.guard import Limits
from bot.web.links import Signer
from bot.web.server import WebServer
from bot.web.site import Site
from storage import Store
from tests.recording import RecordingAnnouncer

GUILD, BOT, FIRST_CHANNEL, FIRST_PERSON = 1, 999, 5000, 10_000

INTRO = """## The table on the web

Command (from the repository root, in the project's virtualenv):

```sh
python bench/bench_web.py            # --tables 50 --viewers 200 --seconds 20 --pace 1.0, --write
```

The session layer on a fresh SQLite file with the web server (`bot.web`) in one process (the bot; no
Discord), Malice tables where a person plays against the computer, one move of hers every `--pace` seconds per
table (the computer answering at once), and the live viewers in a second process, spread evenly over the
tables (the same play is measured again without any viewer: the CPU the web adds is the difference).
*Stored to viewer*: for each stored move and each viewer of its table, from the move's stored signal (after
its commit) to the first live frame showing it arriving at the viewer. *CPU*: the bot process's own
CPU time per second of wall time while it plays and serves (100 % = one core). *Memory*: its resident set
before the viewers came and at the end."""


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def viewers_child(urls: list[str], seconds: float) -> None:
    """The viewers' process: read every live feed until told to stop; print each table's (seq, time)s."""
    import aiohttp

    seen: dict[str, list[tuple[int, float]]] = {}

    async def view(n: int, url: str) -> None:
        got = seen.setdefault(f"{n}", [])
        async with session.get(url, headers={"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"}) as live:
            async for raw in live.content:
                if raw.startswith(b"data: "):
                    got.append((json.loads(raw[6:])["seq"], time.time()))

    connector = aiohttp.TCPConnector(limit=0)
    forever = aiohttp.ClientTimeout(total=None)
    async with aiohttp.ClientSession(connector=connector, timeout=forever) as session:
        tasks = [asyncio.create_task(view(n, url)) for n, url in enumerate(urls)]
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(seen), flush=True)


async def flood_child(url: str, rate: float) -> None:
    """The flood's process: `rate` requests a second at one page from one address until told to stop; then
    print how many of each status came back."""
    import aiohttp

    statuses: dict[str, int] = {}
    stop = asyncio.Event()

    async def one(session: aiohttp.ClientSession) -> None:
        try:
            async with session.get(url) as answer:
                await answer.read()
                statuses[str(answer.status)] = statuses.get(str(answer.status), 0) + 1
        except aiohttp.ClientError:
            statuses["error"] = statuses.get("error", 0) + 1

    async def send(session: aiohttp.ClientSession) -> None:
        tick = 0.01  # a batch every 10 ms
        pending: set[asyncio.Task[None]] = set()
        next_at = time.perf_counter()
        while not stop.is_set():
            for _ in range(int(rate * tick)):
                task = asyncio.create_task(one(session))
                pending.add(task)
                task.add_done_callback(pending.discard)
            next_at += tick
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        await asyncio.gather(*pending, return_exceptions=True)

    connector = aiohttp.TCPConnector(limit=200)
    async with aiohttp.ClientSession(connector=connector) as session:
        sender = asyncio.create_task(send(session))
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        stop.set()
        await sender
    print(json.dumps(statuses), flush=True)


@contextlib.asynccontextmanager
async def bot(
    limits: Limits | None = None, announcer: RecordingAnnouncer | None = None
) -> AsyncIterator[tuple[SessionManager, Feed, WebServer]]:
    """The bot's side: the session layer on a fresh SQLite file and its web server on a free port
    (`announcer`: where the table messages go; a recording one by default)."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        sessions = SessionManager(
            store,
            announcer or RecordingAnnouncer(),
            default_timeout=3600,
            bot_user_id=BOT,
            coalesce=0.0,
            pacing=False,
        )
        feed = Feed(store, local=sessions.tables.by_id, deadline=sessions.scheduler.deadline)
        sessions.tables.stored.listen(feed.stored)
        signer = Signer("bench-web-secret-0123456789")
        web = WebServer(
            Site(
                store, feed, Replays(store), signer, host="127.0.0.1", port=0, public_url=None, limits=limits
            )
        )
        await web.start()
        try:
            yield sessions, feed, web
        finally:
            await web.close()
            await sessions.close()
            await store.close()


async def flood(tables: int, seconds: float, pace: float, rate: float) -> dict[str, str]:
    """Moves answered with and without `rate` requests a second from one address at a table page."""
    seeds = iter(f"bench-web-flood-{i}" for i in range(1_000_000))
    lobbies.new_seed = lambda: next(seeds)
    async with bot() as (sessions, _, web):
        channels = [FIRST_CHANNEL + i for i in range(tables)]
        first = await sessions.open_table(
            "malice", GUILD, channels[0], FIRST_PERSON, opponent=BOT, options={"timeout": 3600}
        )

        async def phase(flooded: bool, niced: bool = False) -> tuple[list[float], dict[str, int]]:
            answers: list[float] = []
            child = None
            if flooded:
                # `niced`: the flood as if it came from elsewhere: its process at the lowest priority, so the
                # CPU it burns itself on this machine is not taken from the bot.
                command = [sys.executable, __file__, "--flood-child", web.table_url(first.id), str(rate)]
                child = await asyncio.create_subprocess_exec(
                    *(["nice", "-n", "19"] if niced else []),
                    *command,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                )
                assert child.stdout is not None
                await child.stdout.readline()
            stop = asyncio.Event()
            players = [
                asyncio.create_task(person(sessions, channel, FIRST_PERSON + i, pace, stop, answers))
                for i, channel in enumerate(channels)
            ]
            await asyncio.sleep(seconds)
            stop.set()
            await asyncio.gather(*players)
            statuses: dict[str, int] = {}
            if child is not None:
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write(b"stop\n")
                await child.stdin.drain()
                statuses = json.loads((await child.stdout.read()).decode().strip().splitlines()[-1])
                await child.wait()
            return sorted(answers), statuses

        await phase(False)  # warm-up
        calm, _ = await phase(False)
        flooded, statuses = await phase(True)
        elsewhere, niced = await phase(True, niced=True)

    def pct(values: list[float], p: float) -> float:
        return values[min(len(values) - 1, int(p * len(values)))]

    def answered(values: list[float], p: float) -> str:
        return f"{1000 * pct(values, p):.1f} ms ({pct(values, p) / pct(calm, p):.2f}×)"

    def sent(got: dict[str, int]) -> str:
        total = sum(got.values())
        said = ", ".join(f"{k}: {v}" for k, v in sorted(got.items()))
        return f"{total} ({total / seconds:.0f}/s): {said}"

    return {
        "moves": f"{len(calm)} / {len(flooded)} / {len(elsewhere)}",
        "p50": f"{1000 * pct(calm, 0.5):.1f} ms / {answered(flooded, 0.5)} / {answered(elsewhere, 0.5)}",
        "p95": f"{1000 * pct(calm, 0.95):.1f} ms / {answered(flooded, 0.95)} / {answered(elsewhere, 0.95)}",
        "flood": f"— / {sent(statuses)} / {sent(niced)}",
    }


FLOOD_INTRO = """## The web under a flood

Command (from the repository root, in the project's virtualenv):

```sh
python bench/bench_web.py --flood      # --tables 10 --seconds 10 --pace 0.2 --rate 1000, --write
```

The same bot as above (the session layer and the web server in one process), `--tables` Malice tables, on
each a person moving every `--pace` seconds, measured three times for `--seconds`: calm; while a second
process sends `--rate` requests a second at one table's page from one address (the rate per address
answers most of them 429); and the same with the flooding process at the lowest priority (`nice 19`), as if
it ran elsewhere: on one small machine the attacker's own CPU is taken from the bot too, and on a loaded
machine the niced flood may not reach its rate (its row says what it sent). *Move answered*: from a
person's move handed to the session layer to its answer (applied and stored), what her Discord answer waits
for; calm / flooded / flooded from "elsewhere" (the ratio to calm)."""


def flood_table(figures: dict[str, str]) -> str:
    rows = [
        ("moves answered", figures["moves"]),
        ("move answered: median", figures["p50"]),
        ("move answered: p95", figures["p95"]),
        ("the flood's requests and their answers", figures["flood"]),
    ]
    lines = ["| measure | calm / flooded / flooded, attacker niced |", "|---|---|"]
    lines += [f"| {a} | {b} |" for a, b in rows]
    return FLOOD_INTRO + "\n\n" + "\n".join(lines)


async def person(
    sessions: SessionManager,
    channel: int,
    user: int,
    pace: float,
    stop: asyncio.Event,
    answers: list[float] | None = None,
    options: dict[str, object] | None = None,
) -> None:
    """One person moving every `pace` seconds until `stop`; a finished game is opened again (with `options`).
    `answers`: how long each of her moves took to be answered (applied and stored: what her answer waits
    for)."""
    n = 0
    while not stop.is_set():
        record = sessions.tables.in_channel(channel)
        if record is None or record.status != "running":
            await sessions.open_table(
                "malice", GUILD, channel, user, opponent=BOT, options=options or {"timeout": 3600}
            )
            continue
        game = record.playing
        if game.current_player == str(user):
            n += 1
            move = choose_action(game, str(user), f"bench-web/{channel}/{n}")
            # The table may have moved on meanwhile (its end): the next round sees it.
            started = time.perf_counter()
            with contextlib.suppress(Exception):
                await sessions.moves.act(channel, user, move)
            if answers is not None:
                answers.append(time.perf_counter() - started)
        await asyncio.sleep(pace)


async def run(tables: int, viewers: int, seconds: float, pace: float) -> dict[str, str]:
    seeds = iter(f"bench-web-{i}" for i in range(1_000_000))
    lobbies.new_seed = lambda: next(seeds)
    # The viewers come from one machine: their addresses are told apart as a proxy would tell them.
    async with bot(Limits(rate=1000.0, burst=1000.0)) as (sessions, feed, web):
        stored: dict[tuple[int, int], float] = {}
        sessions.tables.stored.listen(lambda f: stored.setdefault((f.record.id, f.record.seq), time.time()))
        channels = [FIRST_CHANNEL + i for i in range(tables)]
        table_ids = []
        for i, channel in enumerate(channels):
            table = await sessions.open_table(
                "malice", GUILD, channel, FIRST_PERSON + i, opponent=BOT, options={"timeout": 3600}
            )
            table_ids.append(table.id)
        await sessions.idle()
        memory_before = rss_mb()
        urls = [web.table_url(table_ids[n % tables]) + "/live" for n in range(viewers)]
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--child",
            str(seconds),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "BENCH_URLS": json.dumps(urls)},
        )
        assert child.stdout is not None and child.stdin is not None
        await child.stdout.readline()  # ready
        while len(feed.viewers) < viewers:
            await asyncio.sleep(0.05)
        stop = asyncio.Event()
        players = [
            asyncio.create_task(person(sessions, channel, FIRST_PERSON + i, pace, stop))
            for i, channel in enumerate(channels)
        ]
        await asyncio.sleep(2.0)  # warm-up
        started_wall, started_cpu = time.time(), time.process_time()
        moves_before = len(stored)
        await asyncio.sleep(seconds)
        cpu = (time.process_time() - started_cpu) / (time.time() - started_wall)
        moves = len(stored) - moves_before
        ended = time.time()
        stop.set()
        await asyncio.gather(*players)
        await sessions.idle()
        await asyncio.sleep(1.0)  # the last frames on their way
        child.stdin.write(b"stop\n")
        await child.stdin.drain()
        seen = json.loads((await child.stdout.read()).decode().strip().splitlines()[-1])
        await child.wait()
        memory_after = rss_mb()
        latencies = []
        frames = 0
        for n, got in seen.items():
            table_id = table_ids[int(n) % tables]
            frames += len(got)
            for (tid, seq), at in stored.items():
                if tid != table_id or not started_wall <= at <= ended:
                    continue
                arrived = next((when for s, when in got if s >= seq), None)
                if arrived is not None:
                    latencies.append(arrived - at)
    latencies.sort() if latencies else latencies.append(float("nan"))

    def pct(p: float) -> str:
        return f"{1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]:.1f} ms"

    return {
        "tables": str(tables),
        "viewers": str(viewers),
        "moves": f"{moves} ({moves / seconds:.0f}/s)",
        "frames": str(frames),
        "p50": pct(0.5),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "max": f"{1000 * latencies[-1]:.1f} ms",
        "over": f"{sum(1 for x in latencies if x > 1.0)} of {len(latencies)}",
        "cpu": f"{100 * cpu:.0f} %",
        "memory": f"{memory_before:.0f} MB → {memory_after:.0f} MB",
    }


def table(figures: dict[str, str], seconds: float) -> str:
    rows = [
        ("tables, live viewers", f"{figures['tables']}, {figures['viewers']}"),
        (f"moves stored in {seconds:g} s", figures["moves"]),
        ("live frames delivered", figures["frames"]),
        ("stored to viewer: median", figures["p50"]),
        ("stored to viewer: p95 / p99", f"{figures['p95']} / {figures['p99']}"),
        ("stored to viewer: slowest", figures["max"]),
        ("moves reaching a viewer after more than 1 s", figures["over"]),
        ("bot CPU (one core = 100 %)", f"{figures['cpu']} (without viewers: {figures['alone']})"),
        ("bot memory (resident)", figures["memory"]),
    ]
    lines = ["| measure | figure |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)]
    return INTRO + "\n\n" + "\n".join(lines)


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        asyncio.run(viewers_child(json.loads(os.environ["BENCH_URLS"]), float(sys.argv[2])))
        return
    if len(sys.argv) > 3 and sys.argv[1] == "--flood-child":
        asyncio.run(flood_child(sys.argv[2], float(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--pace", type=float, default=None)
    parser.add_argument("--flood", action="store_true", help="moves answered with and without a flood")
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.flood:
        got = asyncio.run(flood(args.tables or 10, args.seconds or 10.0, args.pace or 0.2, args.rate))
        text = flood_table(got)
        print(text)
        if args.write:
            write_section("web-flood", text)
        return
    args.tables, args.seconds, args.pace = args.tables or 50, args.seconds or 20.0, args.pace or 1.0
    figures = asyncio.run(run(args.tables, args.viewers, args.seconds, args.pace))
    alone = asyncio.run(run(args.tables, 0, args.seconds, args.pace))  # the play alone: what the web adds
    figures["alone"] = alone["cpu"]
    text = table(figures, args.seconds)
    print(text)
    if args.write:
        write_section("web", text)


if __name__ == "__main__":
    main()
