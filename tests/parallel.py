"""The suite in parallel (pytest-xdist, `python -m pytest -n 6`): who runs first, and who runs alone.

Each xdist worker is a process of its own, so what the fixtures make per test is already its own: `tmp_path`,
the fake Discord (port 0), the bot's metrics and health ports (`tests.pg.free_port()`), the PostgreSQL
databases (`tests.pg.create_database` names them after the worker's pid). What this module adds:

- `@pytest.mark.slow`: the test is handed out first (and tests go out one by one: `--maxschedchunk 1`). The
  workers then end together instead of three of them waiting for the last one's long game (the run lasts
  about as long as its longest test, not that plus the rest of a worker's share).
- `@pytest.mark.alone`: the test runs while no other test of the run does (it counts requests per second or
  races two processes against real deadlines, and a neighbour's load would be part of what it measures).
  Alone tests are handed out last; the other workers finish the test they are in and wait.
  A lock pair in a folder of the run (a gate and a room, `flock`): a test takes the gate shared, the room
  shared, and lets go of the gate; an alone test holds the gate (so no test enters after it) and then the
  room alone (once the tests inside have left). Without xdist (or with `-p no:xdist`) neither lock is taken.

The hooks are tests/conftest.py's (it imports them from here); `order` is called from its
`pytest_collection_modifyitems`.
"""

from __future__ import annotations

import fcntl
import shutil
import tempfile
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

FOLDER_KEY = "cardtable_run_folder"
_folder = pytest.StashKey[Path]()
_turns = pytest.StashKey["Turns"]()


class Turns:
    """One worker's handles on the run's gate and room (each process its own, as `flock` needs)."""

    def __init__(self, folder: Path) -> None:
        self.gate: IO[str] = open(folder / "gate", "a")  # noqa: SIM115 (held for the worker's life)
        self.room: IO[str] = open(folder / "room", "a")  # noqa: SIM115

    @contextmanager
    def turn(self, alone: bool) -> Iterator[None]:
        if alone:
            fcntl.flock(self.gate, fcntl.LOCK_EX)
            fcntl.flock(self.room, fcntl.LOCK_EX)
        else:
            fcntl.flock(self.gate, fcntl.LOCK_SH)
            fcntl.flock(self.room, fcntl.LOCK_SH)
            fcntl.flock(self.gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(self.room, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(self.gate, fcntl.LOCK_UN)

    def close(self) -> None:
        self.gate.close()
        self.room.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: a long test (half a minute or more), handed out first in a parallel run"
    )
    config.addinivalue_line(
        "markers",
        "alone: in a parallel run, no other test runs meanwhile (it measures rates or races real deadlines)",
    )
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and FOLDER_KEY in workerinput:
        config.stash[_turns] = Turns(Path(workerinput[FOLDER_KEY]))
    elif workerinput is None and getattr(config.option, "numprocesses", None):
        config.stash[_folder] = Path(tempfile.mkdtemp(prefix="cardtable-pytest-"))
        if config.option.maxschedchunk is None:
            # One test at a time to each worker (two waiting at most), not xdist's first chunks of a quarter
            # of the suite in a row, which would give all the slow tests, handed out first, to one worker.
            config.option.maxschedchunk = 1


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # type: ignore[no-untyped-def]  (xdist's WorkerController)
    """pytest-xdist's controller, before each worker starts: the run's folder of locks."""
    folder = node.config.stash.get(_folder, None)
    if folder is not None:
        node.workerinput[FOLDER_KEY] = str(folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    turns = config.stash.get(_turns, None)
    if turns is not None:
        turns.close()
    folder = config.stash.get(_folder, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def order(items: list[pytest.Item]) -> None:
    """Slow tests first, alone tests last (a stable sort: the rest keep their order). Last, because an alone
    test waits for the tests running beside it to end, and at the end of the run nobody waits for it."""

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("alone"):
            return 2
        return 0 if item.get_closest_marker("slow") else 1

    items.sort(key=rank)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    turns = item.config.stash.get(_turns, None)
    if turns is None:
        return (yield)
    with turns.turn(alone=item.get_closest_marker("alone") is not None):
        return (yield)
