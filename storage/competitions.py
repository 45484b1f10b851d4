"""A competition's records (migration 10): the event, its entrants, its matches; SQL written once for both
databases, each function one transaction's work (see `storage.database`).

The one place a table meets a competition is `table_finished`, run by `storage.writes.append` in the
transaction that finishes the game: the table's match (found by its `table_id`) gets its places, and if that
was the round's last unsettled match the competition's `round_done` becomes the round. Locks are taken in one
order everywhere (the game table's row, the ratings, the match, the competition's row last), so two games of
one round finishing at once on two processes queue at the competition's row: the second sees the first's
match settled and marks the round done. Pairing the next round (`advance`) is guarded by `round` and
`round_done` under the same row lock: it happens once, whoever asks and however often.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from storage.database import Transaction
from storage.errors import StoreError
from storage.models import ResultIn

CompetitionStatus = Literal["open", "running", "finished", "cancelled"]


class CompetitionError(StoreError):
    """A competition step refused: `reason` says which (`not_found`, `not_open`, `taken`, ...)."""

    def __init__(self, competition_id: int, reason: str) -> None:
        super().__init__(f"competition {competition_id}: {reason}")
        self.competition_id = competition_id
        self.reason = reason


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class EntrantRow(_Row):
    player: str
    rating: float
    joined_at: float
    checked_in: float | None
    dropped: int | None
    display_name: str | None = None  # as Discord last showed him (migration 13)


class MatchRow(_Row):
    id: int
    competition_id: int
    round: int
    table_no: int
    players: tuple[str, ...]
    table_id: int | None
    places: tuple[int, ...] | None
    forfeits: tuple[str, ...]
    settled_at: float | None

    @property
    def settled(self) -> bool:
        return self.places is not None or len(self.players) == 1


class CompetitionRow(_Row):
    id: int
    guild_id: int
    channel_id: int
    kind: str
    format: str
    rounds: int
    options: dict[str, Any]
    host_id: int
    status: CompetitionStatus
    round: int
    round_done: int
    announced: int
    deadline: float | None
    starts_at: float | None
    created_at: float
    finished_at: float | None
    entrants: tuple[EntrantRow, ...] = ()
    matches: tuple[MatchRow, ...] = ()

    def current(self) -> list[MatchRow]:
        return [m for m in self.matches if m.round == self.round]


_COLUMNS = (
    "id, guild_id, channel_id, kind, format, rounds, options, host_id, status, round, round_done, announced,"
    " deadline, starts_at, created_at, finished_at"
)
_MATCH_COLUMNS = "id, competition_id, round, table_no, players, table_id, places, forfeits, settled_at"


def _match(r: dict[str, Any]) -> MatchRow:
    places = None if r["places"] is None else tuple(json.loads(r["places"]))
    return MatchRow(
        **{
            **r,
            "players": tuple(json.loads(r["players"])),
            "places": places,
            "forfeits": tuple(json.loads(r["forfeits"])),
        }
    )


async def read(tx: Transaction, competition_id: int) -> CompetitionRow | None:
    row = await tx.one(f"SELECT {_COLUMNS} FROM competitions WHERE id = ?", competition_id)
    if row is None:
        return None
    entrants = await tx.fetch(
        "SELECT player, rating, joined_at, checked_in, dropped, display_name FROM competition_entrants"
        " WHERE competition_id = ? ORDER BY joined_at, player",
        competition_id,
    )
    matches = await tx.fetch(
        f"SELECT {_MATCH_COLUMNS} FROM competition_matches WHERE competition_id = ? ORDER BY round, table_no",
        competition_id,
    )
    return CompetitionRow(
        **{**row, "options": json.loads(row["options"])},
        entrants=tuple(EntrantRow(**e) for e in entrants),
        matches=tuple(_match(m) for m in matches),
    )


async def ids(tx: Transaction, where: str, args: tuple[Any, ...], order: str = "id") -> list[int]:
    rows = await tx.fetch(f"SELECT id FROM competitions WHERE {where} ORDER BY {order}", *args)
    return [int(r["id"]) for r in rows]


async def _lock(tx: Transaction, competition_id: int) -> dict[str, Any]:
    row = await tx.one(
        f"SELECT status, round, round_done, announced FROM competitions WHERE id = ?{tx.dialect.row_lock}",
        competition_id,
    )
    if row is None:
        raise CompetitionError(competition_id, "not_found")
    return row


async def create(
    tx: Transaction,
    now: float,
    guild_id: int,
    channel_id: int,
    kind: str,
    fmt: str,
    rounds: int,
    options: str,
    host_id: int,
    starts_at: float | None,
) -> int:
    new = await tx.value(
        "INSERT INTO competitions (guild_id, channel_id, kind, format, rounds, options, host_id, status,"
        " starts_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id",
        guild_id,
        channel_id,
        kind,
        fmt,
        rounds,
        options,
        host_id,
        starts_at,
        now,
    )
    return int(new)


async def join(
    tx: Transaction, now: float, competition_id: int, player: str, rating: float, name: str | None = None
) -> bool:
    """False if he is in already; CompetitionError `not_open` once it started. `name`: his display name."""
    if (await _lock(tx, competition_id))["status"] != "open":
        raise CompetitionError(competition_id, "not_open")
    added = await tx.execute(
        "INSERT INTO competition_entrants (competition_id, player, rating, joined_at, display_name)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (competition_id, player) DO NOTHING",
        competition_id,
        player,
        rating,
        now,
        name,
    )
    return added == 1


async def leave(tx: Transaction, competition_id: int, player: str) -> bool:
    if (await _lock(tx, competition_id))["status"] != "open":
        raise CompetitionError(competition_id, "not_open")
    sql = "DELETE FROM competition_entrants WHERE competition_id = ? AND player = ?"
    return await tx.execute(sql, competition_id, player) == 1


async def check_in(tx: Transaction, now: float, competition_id: int, player: str) -> bool:
    if (await _lock(tx, competition_id))["status"] != "open":
        raise CompetitionError(competition_id, "not_open")
    return (
        await tx.execute(
            "UPDATE competition_entrants SET checked_in = ? WHERE competition_id = ? AND player = ?"
            " AND checked_in IS NULL",
            now,
            competition_id,
            player,
        )
        == 1
    )


async def _insert_round(
    tx: Transaction, now: float, competition_id: int, round_no: int, tables: Sequence[Sequence[str]]
) -> None:
    rows = [
        (competition_id, round_no, n + 1, json.dumps(list(t)), now if len(t) == 1 else None)
        for n, t in enumerate(tables)
    ]
    await tx.execute_many(
        "INSERT INTO competition_matches (competition_id, round, table_no, players, settled_at)"
        " VALUES (?, ?, ?, ?, ?)",
        rows,
    )


async def start(
    tx: Transaction,
    now: float,
    competition_id: int,
    entrants: Sequence[str],
    tables: Sequence[Sequence[str]],
    deadline: float | None,
) -> None:
    """Open -> running with round one's tables; entrants not in `entrants` (not checked in) are taken out."""
    if (await _lock(tx, competition_id))["status"] != "open":
        raise CompetitionError(competition_id, "not_open")
    kept = set(entrants)
    for row in await tx.fetch(
        "SELECT player FROM competition_entrants WHERE competition_id = ?", competition_id
    ):
        if row["player"] not in kept:
            await tx.execute(
                "DELETE FROM competition_entrants WHERE competition_id = ? AND player = ?",
                competition_id,
                row["player"],
            )
    await _insert_round(tx, now, competition_id, 1, tables)
    await tx.execute(
        "UPDATE competitions SET status = 'running', round = 1, deadline = ? WHERE id = ?",
        deadline,
        competition_id,
    )
    await _round_check(tx, competition_id, 1)


async def _round_check(tx: Transaction, competition_id: int, round_no: int) -> bool:
    """Caller holds the competition's row: the round is done once none of its matches is unsettled."""
    left = await tx.value(
        "SELECT COUNT(*) FROM competition_matches WHERE competition_id = ? AND round = ?"
        " AND settled_at IS NULL",
        competition_id,
        round_no,
    )
    if int(left) == 0:
        done = await tx.execute(
            "UPDATE competitions SET round_done = ? WHERE id = ? AND round = ? AND round_done < ?",
            round_no,
            competition_id,
            round_no,
            round_no,
        )
        return done == 1
    return False


async def table_finished(
    tx: Transaction, now: float, table_id: int, finish: Sequence[ResultIn], taken_over: Sequence[str] = ()
) -> bool:
    """The fact "table N finished", in the finishing transaction: its match settled by the results' places
    (a seat the computer played at the end scores nothing: a forfeit, with the no-shows already marked), the
    round marked done if it was the last. True if this finished the round. A table of no competition:
    nothing (one indexed read)."""
    match = await tx.one(
        "SELECT id, competition_id, round, players, forfeits FROM competition_matches WHERE table_id = ?",
        table_id,
    )
    if match is None:
        return False
    places = {r.player: r.placement for r in finish}
    players = json.loads(match["players"])
    forfeits = sorted({*json.loads(match["forfeits"]), *(p for p in taken_over if p in players)})
    return await _settle(tx, now, match, [places.get(p, len(players)) for p in players], forfeits)


async def settle(
    tx: Transaction, now: float, match_id: int, places: Sequence[int], forfeits: Sequence[str]
) -> bool:
    """A match settled without its table's end (both players absent, a table that never opened)."""
    match = await tx.one(
        "SELECT id, competition_id, round, players, forfeits FROM competition_matches WHERE id = ?", match_id
    )
    if match is None:
        raise CompetitionError(0, f"no match {match_id}")
    return await _settle(tx, now, match, places, forfeits)


async def _settle(
    tx: Transaction, now: float, match: dict[str, Any], places: Sequence[int], forfeits: Sequence[str] | None
) -> bool:
    changed = await tx.execute(
        "UPDATE competition_matches SET places = ?, forfeits = COALESCE(?, forfeits), settled_at = ?"
        " WHERE id = ? AND settled_at IS NULL",
        json.dumps(list(places)),
        None if forfeits is None else json.dumps(list(forfeits)),
        now,
        match["id"],
    )
    await _lock(tx, match["competition_id"])  # last: see the module's note on the lock order
    return changed == 1 and await _round_check(tx, match["competition_id"], match["round"])


async def mark_forfeits(tx: Transaction, match_id: int, forfeits: Sequence[str]) -> None:
    """The no-shows of a match its deadline settles (its table's end follows, through the game)."""
    await tx.execute(
        "UPDATE competition_matches SET forfeits = ? WHERE id = ? AND settled_at IS NULL",
        json.dumps(sorted(forfeits)),
        match_id,
    )


async def advance(
    tx: Transaction,
    now: float,
    competition_id: int,
    done_round: int,
    tables: Sequence[Sequence[str]] | None,
    deadline: float | None,
) -> bool:
    """After round `done_round`: its next round's tables, or (None) the end. False, and nothing written,
    unless that round is the one in play and done: whoever comes second finds it advanced already."""
    row = await _lock(tx, competition_id)
    if row["status"] != "running" or row["round"] != done_round or row["round_done"] != done_round:
        return False
    if tables is None:
        await tx.execute(
            "UPDATE competitions SET status = 'finished', finished_at = ?, deadline = NULL WHERE id = ?",
            now,
            competition_id,
        )
        return True
    await _insert_round(tx, now, competition_id, done_round + 1, tables)
    await tx.execute(
        "UPDATE competitions SET round = ?, deadline = ? WHERE id = ?",
        done_round + 1,
        deadline,
        competition_id,
    )
    await _round_check(tx, competition_id, done_round + 1)  # a round of byes alone is done at once
    return True


async def announce(tx: Transaction, now: float, competition_id: int, round_no: int, lease: float) -> bool:
    """Claim the round's announcement (the round after the last: the final standings): True once (the caller
    then sends it and marks it `posted`), False ever after; a later round's claim also closes every earlier
    one. A claim `lease` seconds old and not posted may be taken again (its sender is gone)."""
    sql = (
        "UPDATE competitions SET announced = ?, announce_at = ? WHERE id = ? AND (announced < ?"
        " OR (announced = ? AND posted < announced AND (announce_at IS NULL OR announce_at < ?)))"
    )
    return await tx.execute(sql, round_no, now, competition_id, round_no, round_no, now - lease) == 1


async def posted(tx: Transaction, competition_id: int, round_no: int) -> None:
    """The round's announcement reached the channel."""
    sql = "UPDATE competitions SET posted = ? WHERE id = ? AND posted < ?"
    await tx.execute(sql, round_no, competition_id, round_no)


async def drop(tx: Transaction, competition_id: int, player: str) -> int:
    """He plays no round after the one in play; returns that round (0 before the start)."""
    row = await _lock(tx, competition_id)
    if row["status"] not in ("open", "running"):
        raise CompetitionError(competition_id, "not_running")
    await tx.execute(
        "UPDATE competition_entrants SET dropped = ? WHERE competition_id = ? AND player = ?"
        " AND dropped IS NULL",
        row["round"],
        competition_id,
        player,
    )
    return int(row["round"])


async def cancel(tx: Transaction, now: float, competition_id: int) -> None:
    row = await _lock(tx, competition_id)
    if row["status"] not in ("open", "running"):
        raise CompetitionError(competition_id, "not_running")
    await tx.execute(
        "UPDATE competitions SET status = 'cancelled', finished_at = ?, deadline = NULL WHERE id = ?",
        now,
        competition_id,
    )


async def void_match(tx: Transaction, table_id: int) -> bool:
    """A moderator voided the match's finished table (`storage.fairplay.void`, in its transaction): the match
    stays settled and paired as it was (rounds already paired are not paired again) but counts as if none of
    its players had shown up: every one of them a forfeit, so nobody scores from it. False: no match."""
    match = await tx.one("SELECT id, players FROM competition_matches WHERE table_id = ?", table_id)
    if match is None:
        return False
    players = sorted(json.loads(match["players"]))
    sql = "UPDATE competition_matches SET forfeits = ? WHERE id = ?"
    await tx.execute(sql, json.dumps(players), match["id"])
    return True


async def link_table(tx: Transaction, match_id: int, table_id: int) -> None:
    """A match's table, linked in the transaction that creates it: never two tables for one match (the second
    opener's link finds the first's and its transaction is rolled back: CompetitionError `taken`)."""
    linked = await tx.execute(
        "UPDATE competition_matches SET table_id = ? WHERE id = ? AND table_id IS NULL"
        " AND settled_at IS NULL",
        table_id,
        match_id,
    )
    if linked != 1:
        raise CompetitionError(0, "taken")
