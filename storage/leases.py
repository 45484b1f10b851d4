"""The contract of the lease rows through which the processes of one bot share its token's global rate budget
(the rules are `bot.sessions.share`'s; PostgreSQL's rows are `storage.postgres.leases`). SQLite has none: one
process alone has the whole budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Renewal:
    """What one renewal statement did and saw: whether it (re)created this process's row (a join), and the
    beat of every other process's row of the token, as committed before the statement started."""

    joined: bool
    others: dict[str, int]


class Leases(Protocol):
    """The lease rows of one token in the shared database."""

    process: str

    async def renew(self, forget: list[str]) -> Renewal:
        """One statement: create this process's row or count its beat up; delete the rows of `forget`;
        return the others' beats as the statement saw them."""
        ...

    async def leave(self) -> None:
        """Delete this process's row."""
        ...

    async def close(self) -> None: ...
