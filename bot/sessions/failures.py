"""Which failures of the Discord side are expected (Discord or the network unwell: the write is retried
later) and how to say one in a log line. The presenter logs those as one warning line; anything else is a
bug and keeps its traceback. Duck-typed, since the session layer never imports discord: discord.py's
`HTTPException` carries the HTTP `status`; a lost connection is an `OSError`, a `TimeoutError` or one of
aiohttp's own exceptions."""

from __future__ import annotations


def expected(exc: BaseException) -> str | None:
    """One line saying what went wrong when `exc` is a failure worth retrying (5xx, 429, a lost connection);
    None when it is not (a bug: log it with its traceback)."""
    status = getattr(exc, "status", None)
    if isinstance(status, int) and (status >= 500 or status == 429):
        return " ".join(str(exc).split()) or str(status)
    if isinstance(exc, OSError | TimeoutError) or type(exc).__module__.startswith("aiohttp"):
        return f"{type(exc).__name__}: {' '.join(str(exc).split())}".rstrip(": ")
    return None
