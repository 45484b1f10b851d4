"""Stopping the background tasks a part keeps (timers, workers, watchers) when the bot closes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """Cancel every task, then wait for each to end; what a task raised on its way out is of no interest to a
    closing bot (the stored state is already complete)."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(BaseException):
            await task
