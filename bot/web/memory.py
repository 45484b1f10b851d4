"""Memory given back after a crowd of viewers (issue 38).

A crowd of live viewers costs the process connection buffers, frames in flight and pictures drawn in worker
threads; once they are gone, Python frees those objects, but glibc's allocator keeps the freed pages in its
arenas (one per thread that allocated), so the resident set stays where the crowd took it
(bench/bench_web_soak.py: some 15 MB after each flood of 200 viewers). When the last live feed of a crowd
closes, `Crowd.left` waits `SETTLE` seconds (the connections' last buffers and reference cycles go), then in a
worker thread collects the cycles and asks glibc to return its free pages (`malloc_trim(0)`: some
milliseconds). Elsewhere than glibc (musl, macOS) it does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import sys
from collections.abc import Callable

CROWD = 50  # live feeds open at once that make a crowd worth trimming after
SETTLE = 1.0  # seconds after the last of a crowd left


def _trimmer() -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int

    def collect_and_trim() -> None:
        gc.collect()  # (the crowd's cycles: requests, responses, protocols)
        trim(0)

    return collect_and_trim


class Crowd:
    def __init__(self, least: int = CROWD, trim: Callable[[], None] | None = None) -> None:
        self.least = least
        self._trim = trim if trim is not None else _trimmer()
        self.peak = 0
        self.trims = 0

    def came(self, now_open: int) -> None:
        self.peak = max(self.peak, now_open)

    def left(self, now_open: int) -> None:
        """A live feed closed (`now_open` still open): after the last of a crowd, memory is given back."""
        if now_open or self.peak < self.least or self._trim is None:
            return
        self.peak = 0
        self.trims += 1
        trim = self._trim
        with contextlib.suppress(RuntimeError):  # (no loop: the process is ending)
            loop = asyncio.get_running_loop()
            loop.call_later(SETTLE, lambda: loop.run_in_executor(None, trim))
