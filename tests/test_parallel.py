"""The suite's parallel runs (tests/parallel.py), as a contributor relies on them: in a run of three workers a
test marked `alone` overlaps no other test, and a test marked `slow` is among the first to start, wherever
it stands in its file. A small suite of its own, run by pytest-xdist in a process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CONFTEST = """
from tests.parallel import (  # noqa: F401
    order, pytest_configure, pytest_configure_node, pytest_runtest_protocol, pytest_unconfigure,
)


def pytest_collection_modifyitems(items):
    order(items)
"""

TESTS = """
import os
import time

import pytest

LOG = os.environ["PARALLEL_LOG"]


def spend(name):
    start = time.monotonic()
    time.sleep(0.3)
    with open(LOG, "a") as log:
        log.write(f"{name} {start} {time.monotonic()}\\n")


@pytest.mark.alone
def test_alone_first_in_the_file():
    spend("alone1")


@pytest.mark.parametrize("n", range(9))
def test_plain(n):
    spend(f"plain{n}")


@pytest.mark.alone
def test_alone_in_the_middle():
    spend("alone2")


@pytest.mark.slow
def test_slow_last_in_the_file():
    spend("slow")
"""


def test_alone_tests_run_by_themselves_and_slow_ones_start_first(tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_spend.py").write_text(TESTS)
    log = tmp_path / "log"
    env = {**os.environ, "PARALLEL_LOG": str(log), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "3", "-q", "-p", "no:cacheprovider", str(suite)],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = (line.split() for line in log.read_text().splitlines())
    runs = {name: (float(start), float(end)) for name, start, end in lines}
    assert len(runs) == 12
    for name in ("alone1", "alone2"):
        start, end = runs[name]
        beside = [o for o, (a, b) in runs.items() if o != name and a < end and start < b]
        assert beside == [], f"{name} ran beside {beside}"
    first = sorted(runs, key=lambda n: runs[n][0])[:3]
    assert "slow" in first, f"the first three to start: {first}"
