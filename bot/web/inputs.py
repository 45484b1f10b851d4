"""Every untrusted input of the web pages and the Activity's API, read here and nowhere else: path parts,
query values, headers and JSON bodies, each to a plain value within its stated bounds, or a `Refusal` (a
4xx with one sentence) before the page does anything, before a live feed sends its 200.

Why one place and these rules: `str.isdigit()` takes "²" (which `int()` then refuses with a ValueError,
a 500) and "١" (which `int()` reads as 1); a string of 5,000 digits passes `isdigit()` and `int()` refuses
it past Python's 4,300-digit limit; JSON's `true` is an `int` to Python and 2**70 fits no database column.
So a number here is ASCII digits only, of bounded length, within a bound that SQLite and PostgreSQL both
hold (a signed 64-bit integer), and a JSON body is a pydantic model in strict mode (a boolean is not a
number, a string not an id).
"""

from __future__ import annotations

import re
from typing import Annotated, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.web.guard import Refusal

MAX_ID = 2**63 - 1  # the largest id SQLite's INTEGER and PostgreSQL's BIGINT both hold
MAX_DAY = 10**9  # a link's day (days since 1970): any real one is far below
MAX_VERSION = 2**62  # a table's state counter (per process; counts stored changes)
_DIGITS = re.compile(r"[0-9]{1,19}")  # ASCII digits only (`\d` and isdigit() take every script's)
_SEASON = re.compile(r"[0-9]{4}-[0-9]{2}")
_AFTER = re.compile(r"[0-9]{1,19}\.[0-9]{1,19}")
_INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,200}")
_Q = re.compile(r"q=(0(\.[0-9]{0,3})?|1(\.0{0,3})?)")


def digits(text: str | None, most: int) -> int | None:
    """`text` as a whole number from 0 to `most`, written in ASCII digits; None for anything else."""
    if text is None or _DIGITS.fullmatch(text) is None:
        return None
    value = int(text)
    return value if value <= most else None


def number(text: str | None, most: int) -> int:
    """`digits`, or 400 (a step that is no step)."""
    value = digits(text, most)
    if value is None:
        raise Refusal("web.error.number", 400)
    return value


def link_part(text: str, most: int = MAX_ID) -> int:
    """A link's id or day: a link with anything else in it is no link (404, as a forged one)."""
    value = digits(text, most)
    if value is None:
        raise Refusal("web.error.not_found", 404)
    return value


def last_event_id(header: str | None) -> int:
    """The live feed's `Last-Event-ID` (the version of the last frame the browser got; absent or empty: 0).
    Read before the feed answers 200: a malformed one is a 400, never a broken stream."""
    if header is None or header == "":
        return 0
    value = digits(header, MAX_VERSION)
    if value is None:
        raise Refusal("web.error.bad_request", 400)
    return value


def season(text: str) -> str:
    """A leaderboard season: `YYYY-MM` in ASCII digits (the caller allows all-time)."""
    if _SEASON.fullmatch(text) is None or not 1 <= int(text[5:]) <= 12:
        raise Refusal("web.error.season", 400)
    return text


def quality(params: str) -> float | None:
    """An `Accept-Language` entry's `q=` (0 to 1, three decimals at most); None when it is malformed."""
    params = params.strip()
    if not params:
        return 1.0
    if _Q.fullmatch(params) is None:
        return None
    return float(params[2:])


def after(text: str | None) -> str:
    """The Activity's `after` (`<table>.<version>` of the state the page shows, or empty)."""
    if not text:
        return ""
    if _AFTER.fullmatch(text) is None:
        raise Refusal("web.error.bad_request", 400)
    return text


def instance(text: str | None) -> str:
    """An Activity instance id as the page got it from Discord's SDK (`i-<digits>-gc-...`: letters, digits,
    `-` and `_`, 1 to 200); Discord alone says what it is (`identity.Identity.instance`). Nothing else: the
    id goes into a path of Discord's API asked with the bot's token (`../` would ask another route)."""
    if text is None or _INSTANCE.fullmatch(text) is None:
        raise Refusal("activity.error.instance", 403)
    return text


# ---- the Activity's bodies (strict: JSON's types as they are, no coercion; unknown fields ignored)

Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Short = Annotated[str, Field(min_length=1, max_length=200)]


class Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class TokenBody(Body):
    code: Short


class ClickBody(Body):
    instance: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,200}$")]
    table: Id
    token: Annotated[str, Field(min_length=1, max_length=80)]
    seq: Annotated[int, Field(ge=0, le=MAX_ID)] | None = None


M = TypeVar("M", bound=Body)


def body(model: type[M], raw: bytes) -> M:
    """A JSON body as `model`, or 400: not JSON, not an object, a field missing, of the wrong type (a
    boolean for a number) or out of bounds (an id past 2**63-1)."""
    try:
        return model.model_validate_json(raw, strict=True)
    except (ValidationError, ValueError):
        raise Refusal("web.error.bad_request", 400) from None
