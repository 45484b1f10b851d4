"""A table's life around the moves: resigning, cancelling, the channel deleted, turn timeouts and what becomes
of a seat given up (a computer plays on, or the player forfeits: each game's `SessionRules` say which).

Every step takes the channel's lock, applies through `Moves.commit` (one transaction a move), and words
nothing: its public notes are facts (`NoteFact`), worded when the table message shows them.
"""

from __future__ import annotations

from typing import Any

from bot.games.registry import REGISTRY
from bot.i18n import catalogue
from bot.render.common import name
from bot.render.registry import PRESENTATIONS
from bot.sessions.errors import NotAllowed, TableChanged, Text
from bot.sessions.lobbies import cancel_lobby
from bot.sessions.moves import Moves
from bot.sessions.records import NoteFact, SessionState, TableRecord, note, player
from bot.sessions.servers import mention_role
from bot.sessions.tables import Tables

TIMEOUTS_BEFORE_TAKEOVER = 3


def game_note(kind: str, what: str, own: str, **params: Any) -> NoteFact:
    """A note worded for this game (`log.<what>.<game>`), else the generic note around the game's own words
    (a game added without translations: its renderer's `timeout_text()` / `cancel_text()`)."""
    if f"log.{what}.{kind}" in catalogue():
        return note(f"log.{what}.{kind}", **params)
    words = getattr(PRESENTATIONS[kind].renderer, own, None)
    return note(f"log.{what}.other", what=words() if callable(words) else "", **params)


class Life:
    def __init__(self, tables: Tables, moves: Moves) -> None:
        self.tables = tables
        self.moves = moves

    async def resign(self, channel_id: int, user_id: int) -> Text:
        async with self.tables.lock(channel_id):
            record = self.tables.require(channel_id)
            me = str(user_id)
            if record.status != "running":
                raise NotAllowed("table.resign_not_started")
            if me not in record.players:
                raise NotAllowed("table.not_playing")
            if me in record.session.computer_seats:
                raise NotAllowed("table.already_computer")
            if REGISTRY[record.kind].session.takeover == "computer":
                # No engine action: the seat's new controller is the stored change.
                session, notes = _to_computer(record.session, me, "resigned")
                await self.moves.store_session(record, session.with_notes(notes, at=record.seq + 1))
            else:
                await self._forfeit(record, me, "resigned", actor=me, session=record.session)
        return Text("table.resigned")

    async def cancel(
        self, channel_id: int, user_id: int, *, can_manage: bool, role: int | None = None
    ) -> Text:
        """`can_manage`: he may cancel any table (Manage Server, or the server's host role, `role`)."""
        async with self.tables.lock(channel_id):
            record = self.tables.require(channel_id)
            if user_id != record.host_id and not can_manage:
                host = name(str(record.host_id))
                if role is not None:  # the refusal names the setting that also lets people cancel
                    raise NotAllowed("settings.refused.cancel", host=host, role=mention_role(role))
                raise NotAllowed("table.cancel_not_allowed", host=host)
            if record.status == "lobby":
                return await cancel_lobby(self.moves.store, self.tables, record, user_id)
            why = game_note(record.kind, "cancelled", "cancel_text", player=player(str(user_id)))
            await self._end(record, str(user_id), why)
        return Text("table.ended")

    async def _end(self, record: TableRecord, actor: str | None, why: NoteFact) -> None:
        """End a running game by the rules (`end_game`: settled as the game says). Caller holds the lock."""
        action = REGISTRY[record.kind].parse_action({"kind": "end_game"})
        await self.moves.commit(record, actor, action, notes=[why])

    async def end(self, table_id: int, why: NoteFact) -> None:
        """End a running game from outside it (a competition's deadline): settled by the rules, as /cancel."""
        record = self.tables.by_id(table_id)
        if record is None:
            return
        async with self.tables.lock(record.channel_id):
            record = self.tables.by_id(table_id)
            if record is not None and record.status == "running":
                await self._end(record, None, why)

    async def channel_gone(self, table_id: int) -> None:
        """The channel was deleted: a lobby closes, a game ends and is settled by the rules."""
        record = self.tables.by_id(table_id)
        if record is None:
            return
        async with self.tables.lock(record.channel_id):
            record = self.tables.by_id(table_id)
            if record is None:
                return
            if record.status == "lobby":
                await self.moves.store.cancel_table(record.id)
                self.tables.publish(record.evolve(status="cancelled"))
            elif record.status == "running":
                await self._end(record, None, note("log.channel_deleted"))

    async def time_out(self, table_id: int, seq: int) -> None:
        """The turn timer ran out (keyed by the action count: any action since makes it stale). A timer of a
        table another process moved meanwhile takes the stale path: the table is reloaded and its own turn
        timer starts from the stored turn."""
        try:
            await self._time_out(table_id, seq)
        except TableChanged:
            return

    async def _time_out(self, table_id: int, seq: int) -> None:
        record = self.tables.by_id(table_id)
        if record is None:
            return
        async with self.tables.lock(record.channel_id):
            record = self.tables.by_id(table_id)
            if record is None or record.seq != seq or record.status != "running":
                return
            me = record.playing.current_player
            if me is None or record.seat_is_computer(me):
                return
            rules = REGISTRY[record.kind].session
            count = record.session.timeouts.get(me, 0) + 1
            session = record.session.model_copy(update={"timeouts": {**record.session.timeouts, me: count}})
            notes = [game_note(record.kind, "timeout", "timeout_text", player=player(me))]
            takeover = count >= TIMEOUTS_BEFORE_TAKEOVER
            if takeover and rules.takeover == "computer":
                session, more = _to_computer(session, me, "timeouts")
                notes.extend(more)
            # The game's timeout actions follow the game as it goes: a copy kept in step with what is stored.
            following = REGISTRY[record.kind].load(record.snapshot or "")
            for action in rules.timeout_actions(following, me):
                record = await self.moves.commit(record, "timeout", action, notes=notes, session=session)
                following.apply(action)
                notes, session = [], record.session
                if record.status != "running" or record.playing.current_player != me:
                    break
            if takeover and record.status == "running" and rules.takeover == "forfeit":
                await self._forfeit(record, me, "timeouts", actor="timeout", session=record.session)

    async def _forfeit(
        self, record: TableRecord, who: str, reason: str, *, actor: str, session: SessionState
    ) -> None:
        action = REGISTRY[record.kind].parse_action({"kind": "resign", "player": who})
        await self.moves.commit(
            record, actor, action, notes=[note(f"log.forfeit.{reason}", player=player(who))], session=session
        )


def _to_computer(session: SessionState, who: str, reason: str) -> tuple[SessionState, list[NoteFact]]:
    """`reason`: `timeouts` or `resigned` (the key of the public note)."""
    seats = session.computer_seats if who in session.computer_seats else (*session.computer_seats, who)
    timeouts = {k: v for k, v in session.timeouts.items() if k != who}
    changed = session.model_copy(update={"computer_seats": seats, "timeouts": timeouts})
    return changed, [note(f"log.takeover.{reason}", player=player(who))]
