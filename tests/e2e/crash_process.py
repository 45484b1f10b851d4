"""A real bot process that kills itself right after chosen writes: `python -m tests.e2e.crash_process`.

It is `tests.e2e.bot_process` (the real `cardtable-bot run` against the fake Discord) with one hook armed in
the storage layer (`storage.database.COMMITTED`, called right after every write transaction commits, on the
thread that committed it): each write is appended to the file CRASH_WRITES as a line `<n> <name>`, n counting
every write of every run on that file (so a restarted process goes on counting where the killed one stopped),
and the process sends itself SIGKILL right after a write whose `<name>#<k>` (the k-th write of that name over
all runs) is listed in CRASH_AFTER (comma-separated). SIGKILL: no `finally`, no flush, no goodbye to Discord,
exactly what `kill -9` does; the commit it follows is durable, the next write never begins.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections import Counter
from pathlib import Path

WRITES_ENV = "CRASH_WRITES"
AFTER_ENV = "CRASH_AFTER"


def arm(log: Path, after: set[str]) -> None:
    from storage.database import COMMITTED

    seen: Counter[str] = Counter()
    total = 0
    if log.exists():
        for line in log.read_text().splitlines():
            total += 1
            seen[line.split(" ", 1)[1]] += 1
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    lock = threading.Lock()  # SQLite commits on its writer's thread, PostgreSQL on the event loop

    def committed(name: str) -> None:
        nonlocal total
        with lock:
            total += 1
            seen[name] += 1
            os.write(fd, f"{total} {name}\n".encode())
            if f"{name}#{seen[name]}" in after:
                os.kill(os.getpid(), signal.SIGKILL)

    COMMITTED.append(committed)


def quicker() -> None:
    """Time, not behaviour: the fake has one guild, so discord.py's 2 s wait for more is cut (as the
    in-process harness does), and an announcement claimed by a process killed before it posted it is taken
    again after 3 s instead of 2 minutes (the lease that keeps a slow live sender from being doubled), and on
    PostgreSQL a restarted process takes its share of the token's budget after 0.2 s, not 3.5 s (the fake
    keeps no rate limits here: nothing to wait for)."""
    import bot.client
    from bot.events import runner
    from bot.sessions import share

    share.SETTLE = 0.2

    init = bot.client.CardBot.__init__

    def quick(self: bot.client.CardBot, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("guild_ready_timeout", 0.05)
        init(self, *args, **kwargs)  # type: ignore[arg-type]

    bot.client.CardBot.__init__ = quick  # type: ignore[method-assign]
    runner.ANNOUNCE_LEASE = 3.0
    runner.REPOST_EVERY = 1.0


if __name__ == "__main__":
    from tests.e2e.bot_process import point_at_the_fake

    arm(Path(os.environ[WRITES_ENV]), {a for a in os.environ.get(AFTER_ENV, "").split(",") if a})
    quicker()
    point_at_the_fake()
    from bot.cli import main

    sys.exit(main(["run"]))
