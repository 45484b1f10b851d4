"""What the /tournament commands ask of the competition layer: each checks who may act, stores, and answers
with a `Text` (worded by the cog in the caller's language). No Discord here.

Who may do what: anyone (the server's host role, if it has one, or Manage Server) creates an event in a
channel where games may be opened; anyone joins, leaves and checks in before the start, drops out after;
the event's host, Manage Server or the host role starts and cancels it. (Fair play, for any game, is
`bot.sessions.fairplay.FairPlay`.)
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection
from typing import Any

from bot.events.formats import FORMATS
from bot.events.runner import Runner
from bot.games.refusal import Player
from bot.games.registry import REGISTRY
from bot.render.tournament import Board
from bot.sessions import SessionManager
from bot.sessions.errors import NotAllowed, Text
from bot.sessions.threads import Room
from storage.competitions import CompetitionError, CompetitionRow
from storage.contract import Store

# A start time within this window: not in the past (a minute's grace for a time typed as "now"), not more than
# a year ahead (a typo of a year, or a time in milliseconds, would keep an event open for ever).
START_GRACE = 60.0
START_AHEAD = 366 * 86_400.0
_OPTION = re.compile(r"(\w+)\s*=\s*([^\s,;]+)")


def parse_options(text: str | None) -> dict[str, Any]:
    """`stake=2 turns=3`: the tables' options as the game's own names (checked by its model later)."""
    if not text or not text.strip():
        return {}
    found = dict(_OPTION.findall(text))
    if not found:
        raise NotAllowed("tournament.refused.options", options=text)
    return found


class Tournaments:
    def __init__(
        self,
        store: Store,
        sessions: SessionManager,
        runner: Runner,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.runner = runner
        self.clock = clock

    # ------------------------------------------------------------------ finding the event

    async def event(self, channel_id: int, event: int | None, *, open_only: bool = True) -> CompetitionRow:
        """The event named, else the channel's newest one still open or running."""
        if event is not None:
            row = await self.store.competition(event)
            if row is None:
                raise NotAllowed("tournament.refused.no_event", event=event)
            return row
        for found in await self.store.competitions_in(channel_id):
            row = await self.store.competition(found)
            if row is not None and (not open_only or row.status in ("open", "running")):
                return row
        raise NotAllowed("tournament.refused.none_here")

    # ------------------------------------------------------------------ the host's steps

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        *,
        kind: str,
        fmt: str,
        rounds: int | None,
        deadline: int,
        options: str | None,
        starts_at: float | None,
        checkin: int | None,
        room: Room,
        can_manage: bool,
        roles: Collection[int],
        parent_id: int | None = None,
    ) -> Text:
        if guild_id == 0:
            raise NotAllowed("tournament.refused.server_only")
        chosen = FORMATS[fmt]
        if kind not in REGISTRY or not chosen.plays(REGISTRY[kind]):
            raise NotAllowed("tournament.refused.format_game", format=Text(f"tournament.format.{fmt}"))
        if starts_at is not None:
            now = self.clock()
            if starts_at < now - START_GRACE:
                raise NotAllowed("tournament.refused.start_past", now=int(now))
            if starts_at > now + START_AHEAD:
                raise NotAllowed("tournament.refused.start_far", latest=int(now + START_AHEAD))
        settings = await self.sessions.servers.of(guild_id)
        self.sessions.servers.may_open(
            settings, channel_id, can_manage=can_manage, roles=roles, parent_id=parent_id
        )
        table = self.sessions.servers.new_table_options(settings, kind, parse_options(options))
        rounds = chosen.rounds(rounds)
        stored = {
            "deadline": deadline,
            "table": table,
            "room": [room.can_thread, room.permitted],
            "language": await self.sessions.languages.public(guild_id),
            "checkin": checkin,
        }
        event = await self.store.create_competition(
            guild_id, channel_id, kind, fmt, rounds, stored, user_id, starts_at
        )
        self.runner.expect(event, starts_at)
        return Text("tournament.created", event=event)

    def _may_run(
        self,
        row: CompetitionRow,
        user_id: int,
        can_manage: bool,
        roles: Collection[int],
        host_role: int | None,
    ) -> None:
        if user_id != row.host_id and not can_manage and (host_role is None or host_role not in roles):
            raise NotAllowed("tournament.refused.host_only", host=Player(str(row.host_id)))

    async def start(
        self,
        channel_id: int,
        user_id: int,
        event: int | None,
        *,
        can_manage: bool,
        roles: Collection[int],
        room: Room | None = None,
    ) -> Text:
        row = await self.event(channel_id, event)
        settings = await self.sessions.servers.of(row.guild_id)
        self._may_run(row, user_id, can_manage, roles, settings.host_role)
        count = await self.runner.begin(row, room if channel_id == row.channel_id else None)
        return Text("tournament.started", event=row.id, count=count)

    async def cancel(
        self, channel_id: int, user_id: int, event: int | None, *, can_manage: bool, roles: Collection[int]
    ) -> Text:
        row = await self.event(channel_id, event)
        settings = await self.sessions.servers.of(row.guild_id)
        self._may_run(row, user_id, can_manage, roles, settings.host_role)
        try:
            await self.store.cancel_competition(row.id)
        except CompetitionError:
            raise NotAllowed("tournament.refused.over") from None
        return Text("tournament.cancelled", event=row.id)

    # ------------------------------------------------------------------ the entrants' steps

    async def join(self, channel_id: int, user_id: int, event: int | None) -> Text:
        row = await self.event(channel_id, event)
        me = str(user_id)
        rating = next(
            (r.score for r in await self.store.player_ratings(row.guild_id, me) if r.kind == row.kind), 0.0
        )
        try:
            added = await self.store.join_competition(row.id, me, rating, self.sessions.readers.names.get(me))
        except CompetitionError:
            raise NotAllowed("tournament.refused.started") from None
        if not added:
            raise NotAllowed("tournament.refused.already_in")
        return Text("tournament.joined", event=row.id)

    async def leave(self, channel_id: int, user_id: int, event: int | None) -> Text:
        row = await self.event(channel_id, event)
        try:
            left = await self.store.leave_competition(row.id, str(user_id))
        except CompetitionError:
            raise NotAllowed("tournament.refused.use_drop") from None
        if not left:
            raise NotAllowed("tournament.refused.not_in")
        return Text("tournament.left", event=row.id)

    async def check_in(self, channel_id: int, user_id: int, event: int | None) -> Text:
        row = await self.event(channel_id, event)
        if str(user_id) not in {e.player for e in row.entrants}:
            raise NotAllowed("tournament.refused.not_in")
        window = row.options.get("checkin")
        if not window:
            raise NotAllowed("tournament.refused.no_checkin")
        if row.starts_at is not None and self.clock() < row.starts_at - float(window) * 60:
            opens = int(row.starts_at - float(window) * 60)
            raise NotAllowed("tournament.refused.checkin_later", at=opens)
        try:
            if not await self.store.check_in(row.id, str(user_id)):
                raise NotAllowed("tournament.refused.checked_in")
        except CompetitionError:
            raise NotAllowed("tournament.refused.started") from None
        return Text("tournament.checked_in", event=row.id)

    async def drop(self, channel_id: int, user_id: int, event: int | None) -> Text:
        row = await self.event(channel_id, event)
        if str(user_id) not in {e.player for e in row.entrants}:
            raise NotAllowed("tournament.refused.not_in")
        if row.status == "open":
            return await self.leave(channel_id, user_id, row.id)
        try:
            after = await self.store.drop_out(row.id, str(user_id))
        except CompetitionError:
            raise NotAllowed("tournament.refused.over") from None
        return Text("tournament.dropped", event=row.id, round=after)

    async def show(self, channel_id: int, event: int | None) -> Board:
        row = await self.event(channel_id, event, open_only=False)
        return self.runner.board(row)
