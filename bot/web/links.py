"""The pages' links: unguessable and signed, one per table (its live page, its replay), one per server (its
leaderboard) and one per tournament (its standings), each good until a day it names.

A link is `/<kind>/<id>/<until>/<signature>`: `until` the day (days since 1970, UTC) after which it no longer
opens, `signature` the first 128 bits of HMAC-SHA256 over `<kind>:<id>:<until>` with WEB_SECRET, in base64url.
Nobody without the secret can make a link to a table or a server he was not given, nor stretch a link's
day; changing WEB_SECRET retires every link posted so far. A link is the same all day long (the table message
is not edited for a new link at each move), and `LINK_DAYS` after the day it was made it expires.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import t
from bot.web.guard import Refusal
from bot.web.inputs import MAX_DAY, MAX_ID, link_part

TABLE, REPLAY, BOARD, EVENT = "table", "replay", "board", "event"
LINK_DAYS = 30  # how long a posted link opens its page
DAY = 86_400
SIGNATURE = re.compile(r"[A-Za-z0-9_-]{22}")


@dataclass(frozen=True)
class Kind:
    """A kind of page a link opens: its name (the link's first part) and, when a command links to it with a
    button (`WebServer.link_to`), that button's words in a reader's language."""

    name: str
    button: Callable[[object], str] | None = None


# Every kind of link, by name: a new page with a link of its own is one line here (and its routes in
# `bot.web.routes`). A link of a kind not here is no link (404).
KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(TABLE),  # the live table (the table message's Watch button, placed by the composition)
        Kind(
            REPLAY, lambda locale: t(locale, "web.button.replay")
        ),  # a finished table, step by step: /history
        Kind(BOARD, lambda locale: t(locale, "web.button.board")),  # a server's leaderboard: /leaderboard
        Kind(EVENT, lambda locale: t(locale, "web.button.event")),  # a tournament: /tournament show
    )
}


@dataclass(frozen=True)
class Link:
    kind: str
    id: int
    until: int
    signature: str

    @property
    def path(self) -> str:
        return f"/{self.kind}/{self.id}/{self.until}/{self.signature}"


class Signer:
    def __init__(self, secret: str, clock: Callable[[], float] = time.time) -> None:
        self._key = secret.encode()
        self.clock = clock

    def _sign(self, kind: str, ident: int, until: int) -> str:
        digest = hmac.new(self._key, f"{kind}:{ident}:{until}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")

    def link(self, kind: str, ident: int) -> Link:
        until = int(self.clock()) // DAY + LINK_DAYS
        return Link(kind, ident, until, self._sign(kind, ident, until))

    def check(self, kind: str, ident: str, until: str, signature: str) -> int:
        """The id a link opens, or `Refusal`: 404 for a link that is not one (malformed or forged: nobody is
        told whether the table exists), 410 for one whose day has passed."""
        number, day = link_part(ident, MAX_ID), link_part(until, MAX_DAY)  # ASCII digits, bounded (`inputs`)
        if kind not in KINDS or SIGNATURE.fullmatch(signature) is None:
            raise Refusal("web.error.not_found", 404)
        expected = self._sign(kind, number, day)
        if not hmac.compare_digest(expected, signature):
            raise Refusal("web.error.not_found", 404)
        if int(self.clock()) // DAY > day:
            raise Refusal("web.error.expired", 410)
        return number
