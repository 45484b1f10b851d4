"""Every request bounded: a rate per address (a token bucket: `RATE` a second, bursts of `BURST`), live feeds
per address and in all, no body, short queries; and every refusal one clear sentence with its 4xx status,
never a traceback (a bug is a 500 with a sentence, logged here with its traceback).

The address is the peer's, or, when the peer is this machine (a reverse proxy in front: docs/operators/web.md,
"Behind a reverse proxy"), the last address the proxy added to `X-Forwarded-For`.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from bot.web.quiet import RefusalLog, shown

log = logging.getLogger(__name__)

RATE = 20.0  # requests a second per address, on average
BURST = 40.0  # and at once
LIVE_PER_ADDRESS = 8  # live feeds one address holds open
LIVE_IN_ALL = 2000  # live feeds of the whole process
ADDRESSES_KEPT = 10_000  # buckets remembered (the oldest forgotten: a full bucket again)
MAX_QUERY = 256  # characters of a query string
MAX_BODY = 1024  # bytes of a request body (only the Activity's API takes one: a short JSON object)
API = "/activity/api/"  # the Activity's API (bot/web/activity.py): the only POSTs, the only bodies


@dataclass
class Bucket:
    tokens: float
    at: float


class Refusal(Exception):
    """A request refused with `status` and the sentence of catalogue key `key` (`params` fill it)."""

    def __init__(self, key: str, status: int, *, retry_after: int | None = None, **params: object) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.params = params
        self.retry_after = retry_after


class Limits:
    def __init__(
        self, clock: Callable[[], float] = time.monotonic, *, rate: float = RATE, burst: float = BURST
    ) -> None:
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self.live: dict[str, int] = {}
        self.refused = 0

    def note_refused(self) -> None:
        """A request refused (counted for /metrics)."""
        self.refused += 1

    def take(self, address: str) -> None:
        """One request of `address`, or Refusal(429)."""
        now = self.clock()
        bucket = self._buckets.pop(address, None) or Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        self._buckets[address] = bucket
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        if bucket.tokens < 1:
            wait = max(1, int((1 - bucket.tokens) / self.rate + 0.999))
            raise Refusal("web.error.rate", 429, retry_after=wait)
        bucket.tokens -= 1

    def open_live(self, address: str) -> None:
        if self.live.get(address, 0) >= LIVE_PER_ADDRESS:
            raise Refusal("web.error.rate", 429, retry_after=5)
        if sum(self.live.values()) >= LIVE_IN_ALL:
            raise Refusal("web.error.busy", 503, retry_after=30)
        self.live[address] = self.live.get(address, 0) + 1

    def close_live(self, address: str) -> None:
        left = self.live.get(address, 0) - 1
        if left > 0:
            self.live[address] = left
        else:
            self.live.pop(address, None)


def address_of(request: web.Request) -> str:
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and _loopback(peer):
        return forwarded.split(",")[-1].strip()[:64] or peer
    return peer


@functools.lru_cache(maxsize=1024)
def _loopback(peer: str) -> bool:
    try:
        return ipaddress.ip_address(peer).is_loopback
    except ValueError:
        return False


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Answer = Callable[[web.Request, Refusal], web.Response]


def guard(
    limits: Limits, answer: Answer, refusals: RefusalLog
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    """The middleware: bounds first, then the page; any refusal (or failure) answered by `answer`, each
    refusal one line in `refusals`' log, each failure its traceback with an error id."""

    def refuse(request: web.Request, refusal: Refusal) -> web.Response:
        refusals.refused(address_of(request), refusal.status, request.method, request.path_qs, refusal.key)
        return answer(request, refusal)

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            limits.take(address_of(request))
            api_post = request.method == "POST" and request.path.startswith(API)
            if request.method not in ("GET", "HEAD") and not api_post:
                raise Refusal("web.error.method", 405)
            if (request.content_length or request.body_exists) and not api_post:
                raise Refusal("web.error.too_large", 413)
            if len(request.query_string) > MAX_QUERY:
                raise Refusal("web.error.too_large", 414)
            return await handler(request)
        except Refusal as refusal:
            limits.note_refused()
            return refuse(request, refusal)
        except web.HTTPNotFound:
            return refuse(request, Refusal("web.error.not_found", 404))
        except web.HTTPMethodNotAllowed:
            return refuse(request, Refusal("web.error.method", 405))
        except web.HTTPRedirection:
            raise  # (the Activity's `/activity` to `/activity/`)
        except web.HTTPException as exc:
            if exc.status >= 500:
                raise
            return refuse(request, Refusal("web.error.bad_request", exc.status))
        except ConnectionResetError:
            raise
        except Exception:
            error_id = secrets.token_hex(3)
            log.exception("error id %s: web page %s failed", error_id, shown(request.path_qs))
            return answer(request, Refusal("web.error.server", 500, error_id=error_id))

    return middleware
