"""A real headless Chromium for the web tests: Debian's `chromium` (/usr/bin/chromium) driven by Playwright
for Python, one browser for the whole test session.

Playwright's sync API lives in one thread of its own here (its objects belong to the thread that made them),
and the async tests hand it work: `await browser.run(lambda b: ...)` runs the function there with the
`playwright.sync_api.Browser` and returns its result. So the browser outlives each test's event loop, and a
test's bot keeps serving pages while the browser waits for them.

`BROWSER_MISSING` says why the browser cannot run (no Chromium, no Playwright); the tests skip with it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (pip install playwright; .ci/run installs it)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run installs it)"
    return None


BROWSER_MISSING = missing()


Work = tuple[Callable[[Any], Any], concurrent.futures.Future[Any]]


class Browser:
    def __init__(self) -> None:
        self._work: queue.Queue[tuple[Callable[[Any], Any], concurrent.futures.Future[Any]] | None] = (
            queue.Queue()
        )
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
        self._thread.start()
        self._ready.result(timeout=60)

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                self._ready.set_result(None)
                while (item := self._work.get()) is not None:
                    work, done = item
                    try:
                        done.set_result(work(browser))
                    except BaseException as exc:  # handed to the test that asked
                        done.set_exception(exc)
                browser.close()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)

    async def run(self, work: Callable[[Any], Any]) -> Any:
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._work.put((work, done))
        return await asyncio.wrap_future(done)

    def close(self) -> None:
        self._work.put(None)
        self._thread.join(timeout=30)
