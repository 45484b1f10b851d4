"""The web server's log under attack: a refused request costs the operator one line, never a traceback.

- Every refusal (a 4xx, a 503 when full) is one line on the `bot.web.access` logger at INFO: status, method,
  path (cut and escaped), address, the reason's catalogue key.
- An address refused `REPEATS` times within `WINDOW` seconds gets one WARNING line saying so; its further
  refusals in that window are counted, not logged, and the count is logged (WARNING) once the window is
  over: when the address is refused again, or at the server's next `flush` (every `WINDOW` seconds, and as
  it stops), whichever comes first. A flood of 1,000 refused requests is a dozen lines.
- HTTP that aiohttp's parser refuses (an over-long request line or header, a null byte, bytes that are not
  UTF-8, an unknown method) is answered `400 Bad Request` in plain words without echoing the request back,
  and logged as one refusal; aiohttp itself writes a traceback of ten lines and echoes the line.
- A 500 is a bug and stays one: its traceback is logged with an error id the reader is shown (`guard`).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest
from aiohttp.web_server import Server

access = logging.getLogger("bot.web.access")

REPEATS = 10  # refusals of one address within WINDOW before it is a WARNING and no longer logged one by one
WINDOW = 60.0
ADDRESSES_KEPT = 10_000  # addresses whose refusals are counted (the oldest forgotten)
SHOWN = 120  # characters of a path the line shows


@dataclass
class Count:
    since: float
    refused: int = 0
    quiet: int = 0  # refused but not logged (past REPEATS in this window)


def shown(text: str) -> str:
    """Text from a request as one safe log line: cut, control and non-ASCII characters escaped."""
    cut = text[:SHOWN] + ("..." if len(text) > SHOWN else "")
    return cut.encode("ascii", "backslashreplace").decode().replace("\n", "\\n").replace("\r", "\\r")


class RefusalLog:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._counts: OrderedDict[str, Count] = OrderedDict()

    def refused(self, address: str, status: int, method: str, path: str, why: str) -> None:
        now = self.clock()
        count = self._counts.pop(address, None)
        if count is not None and now - count.since > WINDOW:
            _summary(address, count)
            count = None
        count = count or Count(now)
        self._counts[address] = count  # (most recent last: the oldest is forgotten first)
        while len(self._counts) > ADDRESSES_KEPT:
            self._counts.popitem(last=False)
        count.refused += 1
        if count.refused > REPEATS:
            count.quiet += 1
            return
        line = "refused %d %s %s from %s: %s"
        args = (status, shown(method), shown(path), shown(address), why)
        if count.refused == REPEATS:
            access.warning(
                line + " (%d refusals in %g s: more are counted, not logged)", *args, REPEATS, WINDOW
            )
        else:
            access.info(line, *args)

    def flush(self, *, everything: bool = False) -> None:
        """The counts of the windows that are over logged, one line per address that had any (`everything`:
        every window, over or not: the server stops), and those windows forgotten."""
        now = self.clock()
        for address, count in list(self._counts.items()):
            if everything or now - count.since > WINDOW:
                del self._counts[address]
                _summary(address, count)


def _summary(address: str, count: Count) -> None:
    if count.quiet:
        access.warning("%d more refused requests from %s were not logged", count.quiet, shown(address))


class _QuietHandler(RequestHandler):
    """aiohttp's connection handler, with its answer to malformed HTTP made quiet (see the module's text)."""

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status >= 500:  # a bug (or a handler's timeout): aiohttp's traceback is what an operator needs
            return super().handle_error(request, status, exc, message)
        refusals: RefusalLog | None = getattr(self._manager, "refusals", None)
        if refusals is not None:
            why = f"malformed HTTP ({type(exc).__name__ if exc is not None else status})"
            refusals.refused(request.remote or "?", status, "-", "-", why)
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun: the connection is closed")
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Bad Request"
        response = web.Response(status=status, text=f"{status} {phrase}\n", content_type="text/plain")
        response.force_close()
        return response


class _QuietServer(Server):
    refusals: RefusalLog | None = None

    def __call__(self) -> RequestHandler:
        return _QuietHandler(self, loop=self._loop, **self._kwargs)


class QuietRunner(web.AppRunner):
    """The app's runner whose connections answer malformed HTTP quietly, logging it to `refusals`."""

    def __init__(self, app: web.Application, refusals: RefusalLog, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.refusals = refusals

    async def _make_server(self) -> Server:
        server = await super()._make_server()
        # aiohttp has no setting for the handler's class: the server made for the app becomes the quiet one
        # (a subclass adding no state but a reference to the log).
        server.__class__ = _QuietServer
        server.refusals = self.refusals  # type: ignore[attr-defined]
        return server
