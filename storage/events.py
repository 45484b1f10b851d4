"""The store's competitions and fair play (migration 10): part of `Store` (`storage.contract`), kept apart so
that each class stays one job's size. The SQL is `storage.competitions` and `storage.fairplay`."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from storage import competitions as sql
from storage import fairplay, names, writes
from storage.common import dumps
from storage.competitions import CompetitionRow
from storage.database import Database, Transaction
from storage.models import Rate, SeatIn


class ModerationRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    action: str  # void, exclude, include
    table_id: int | None
    player: str | None
    moderator: int
    reason: str
    created_at: float


class Competitions:
    _db: Database
    _clock: Callable[[], float]

    # ---- competitions -------------------------------------------------------------------------------------

    async def create_competition(
        self,
        guild_id: int,
        channel_id: int,
        kind: str,
        fmt: str,
        rounds: int,
        options: dict[str, Any],
        host_id: int,
        starts_at: float | None = None,
    ) -> int:
        now, data = self._clock(), json.dumps(options, sort_keys=True)
        return await self._db.write(
            lambda tx: sql.create(tx, now, guild_id, channel_id, kind, fmt, rounds, data, host_id, starts_at)
        )

    async def competition(self, competition_id: int) -> CompetitionRow | None:
        """The event with its entrants (by joining time) and matches (by round and table), one snapshot."""
        return await self._db.read(lambda tx: sql.read(tx, competition_id))

    async def competitions(self, *, guild_id: int | None = None, running: bool = True) -> list[int]:
        """The ids of events open or running (`running`), of one server or all, oldest first."""
        where = "status IN ('open', 'running')" if running else "1 = 1"
        args: tuple[Any, ...] = ()
        if guild_id is not None:
            where, args = f"{where} AND guild_id = ?", (guild_id,)
        return await self._db.read(lambda tx: sql.ids(tx, where, args))

    async def competition_of_table(self, table_id: int) -> int | None:
        """The event whose match a table plays, if any."""
        rows = await self._db.fetch(
            "SELECT competition_id FROM competition_matches WHERE table_id = ?", table_id
        )
        return int(rows[0]["competition_id"]) if rows else None

    async def competitions_in(self, channel_id: int) -> list[int]:
        """The events of a channel, newest first (any status)."""
        return await self._db.read(lambda tx: sql.ids(tx, "channel_id = ?", (channel_id,), "id DESC"))

    async def set_competition_room(self, competition_id: int, room: list[bool]) -> None:
        """Where the event's matches may open threads, as its start command's channel says."""
        await self._db.write(lambda tx: _set_room(tx, competition_id, room))

    async def join_competition(
        self, competition_id: int, player: str, rating: float, name: str | None = None
    ) -> bool:
        now = self._clock()
        return await self._db.write(lambda tx: sql.join(tx, now, competition_id, player, rating, name))

    async def rename(self, player: str, name: str) -> int:
        """His display name on his seats at open tables and his entries of events not over (migration 13)."""
        return await self._db.write(lambda tx: names.rename(tx, player, name))

    async def leave_competition(self, competition_id: int, player: str) -> bool:
        return await self._db.write(lambda tx: sql.leave(tx, competition_id, player))

    async def check_in(self, competition_id: int, player: str) -> bool:
        now = self._clock()
        return await self._db.write(lambda tx: sql.check_in(tx, now, competition_id, player))

    async def start_competition(
        self,
        competition_id: int,
        entrants: Sequence[str],
        tables: Sequence[Sequence[str]],
        deadline: float | None,
        room: list[bool] | None = None,
    ) -> None:
        """Open -> running, round one paired, and (if given) the `room` its start command's channel gives
        its matches (`set_competition_room`): one transaction."""
        now = self._clock()

        async def work(tx: Transaction) -> None:
            if room is not None:
                await _set_room(tx, competition_id, room)
            await sql.start(tx, now, competition_id, entrants, tables, deadline)

        await self._db.write(work)

    async def advance_competition(
        self,
        competition_id: int,
        done_round: int,
        tables: Sequence[Sequence[str]] | None,
        deadline: float | None,
    ) -> bool:
        """The next round's tables (None: the end) once round `done_round` is done; False if it advanced
        already (or is not done)."""
        now = self._clock()
        return await self._db.write(
            lambda tx: sql.advance(tx, now, competition_id, done_round, tables, deadline)
        )

    async def claim_announcement(self, competition_id: int, round_no: int, lease: float = 120.0) -> bool:
        """True once for a round's announcement (the caller sends it, then `announcement_posted`); again
        only if `lease` seconds later it was not posted (see `unposted_announcements`)."""
        now = self._clock()
        return await self._db.write(lambda tx: sql.announce(tx, now, competition_id, round_no, lease))

    async def announcement_posted(self, competition_id: int, round_no: int) -> None:
        await self._db.write(lambda tx: sql.posted(tx, competition_id, round_no))

    async def unposted_announcements(self, lease: float) -> list[int]:
        """Events (not cancelled) with an announcement owed: claimed over `lease` seconds ago and not posted
        (its sender died, or Discord refused it), or never claimed (a crash before the claim)."""
        where = (
            "(status IN ('running', 'finished') AND posted < announced"
            " AND (announce_at IS NULL OR announce_at < ?))"
            " OR (status = 'running' AND announced < round) OR (status = 'finished' AND announced <= round)"
        )
        cutoff = self._clock() - lease
        return await self._db.read(lambda tx: sql.ids(tx, where, (cutoff,)))

    async def drop_out(self, competition_id: int, player: str) -> int:
        return await self._db.write(lambda tx: sql.drop(tx, competition_id, player))

    async def cancel_competition(self, competition_id: int) -> None:
        now = self._clock()
        await self._db.write(lambda tx: sql.cancel(tx, now, competition_id))

    async def mark_forfeits(self, match_id: int, forfeits: Sequence[str]) -> None:
        await self._db.write(lambda tx: sql.mark_forfeits(tx, match_id, forfeits))

    async def settle_match(self, match_id: int, places: Sequence[int], forfeits: Sequence[str]) -> bool:
        now = self._clock()
        return await self._db.write(lambda tx: sql.settle(tx, now, match_id, places, forfeits))

    async def create_match_table(
        self,
        match_id: int,
        guild_id: int,
        channel_id: int,
        kind: str,
        host_id: int,
        options: BaseModel,
        seed: str,
        commitment: str,
        *,
        seats: Sequence[SeatIn] = (),
        meta: BaseModel | None = None,
    ) -> int:
        """`create_table` for a competition's match (its seats and session state too), linked to it in the
        same transaction (CompetitionError `taken` if the match has a table already, ChannelBusy as
        `create_table`)."""
        now, data = self._clock(), dumps(options.model_dump(mode="json"))
        state = None if meta is None else dumps(meta.model_dump(mode="json"))
        values = (guild_id, channel_id, kind, host_id, data, seed, commitment, now)

        async def work(tx: Transaction) -> int:
            table_id = await writes.opened(tx, values, seats, state)
            await sql.link_table(tx, match_id, table_id)
            return table_id

        return await self._db.write(work)

    # ---- fair play ----------------------------------------------------------------------------------------

    async def void_table(self, table_id: int, moderator: int, reason: str, rate: Rate) -> int:
        """Void a finished game (`storage.fairplay`): compensating ledger entries, balances and seasons
        corrected, its ratings taken out and the later ones rated again with `rate`. Returns its guild."""
        now = self._clock()
        return await self._db.write(lambda tx: fairplay.void(tx, now, table_id, moderator, reason, rate))

    async def exclude_player(
        self, guild_id: int, player: str, moderator: int, reason: str, on: bool = True
    ) -> bool:
        now = self._clock()
        return await self._db.write(
            lambda tx: fairplay.exclude(tx, now, guild_id, player, moderator, reason, on)
        )

    async def excluded(self, guild_id: int) -> list[str]:
        rows = await self._db.fetch(
            "SELECT player FROM leaderboard_exclusions WHERE guild_id = ? ORDER BY player", guild_id
        )
        return [str(r["player"]) for r in rows]

    async def moderation(self, guild_id: int, limit: int = 20) -> list[ModerationRow]:
        """What the server's moderators did, newest first."""
        return [ModerationRow(**r) for r in await self._db.fetch(fairplay.MODERATION, guild_id, limit)]

    async def voided_at(self, table_id: int) -> float | None:
        value = await self._db.fetch("SELECT voided_at FROM game_tables WHERE id = ?", table_id)
        return None if not value or value[0]["voided_at"] is None else float(value[0]["voided_at"])


async def _set_room(tx: Transaction, competition_id: int, room: list[bool]) -> None:
    row = await tx.one("SELECT options FROM competitions WHERE id = ?", competition_id)
    if row is not None:
        options = {**json.loads(row["options"]), "room": room}
        await tx.execute("UPDATE competitions SET options = ? WHERE id = ?", dumps(options), competition_id)
