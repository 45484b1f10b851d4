"""After a restart: every open table back from the store, and the facts of stored moves rebuilt by replay.

The action log is the truth, the snapshot only a cache: a running table is rebuilt from its seed and log, and
should the stored snapshot disagree (or be unreadable) it plays on from the rebuilt game. The same replay
gives the presenter the facts of any stored move it has not shown yet, however long ago it was stored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from bot.games.registry import REGISTRY
from bot.sessions.display import Display
from bot.sessions.kinds import game_options
from bot.sessions.records import MOVES_KEPT, MoveFacts, TableRecord, note
from bot.sessions.rows import record_from_row
from bot.sessions.tables import Tables
from storage.contract import Store
from storage.models import ActionRow

log = logging.getLogger(__name__)

SHOW_ENDS_WITHIN = 3600.0  # seconds: a game that ended this long ago unshown is shown at the next start


def replay_facts(record: TableRecord, rows: list[ActionRow]) -> tuple[MoveFacts, ...]:
    """Every step of the game from its seed: the start (0) and each stored action (1, 2, ...), with the events
    and the game after it. Raises ValueError when the log no longer fits the rules."""
    spec = REGISTRY[record.kind]
    game = spec.new_game(list(record.players), record.seed, game_options(record.options))
    hands = tuple(spec.session.hands_to_send(game, [], True))
    start = MoveFacts(0, None, tuple(game.opening_events), game, hands)
    return (start, *further_facts(record, start, rows))


def further_facts(record: TableRecord, last: MoveFacts, rows: list[ActionRow]) -> tuple[MoveFacts, ...]:
    """The steps after `last` (a step already replayed): one per stored action from its number on (the rows
    before it are skipped). Raises ValueError when the log no longer fits the rules."""
    spec = REGISTRY[record.kind]
    rules = spec.session
    game = last.game
    steps: list[MoveFacts] = []
    for row in rows:
        if row.seq < last.count:
            continue
        game = spec.load(game.model_dump_json())  # each step keeps its own game
        events = tuple(game.apply(spec.parse_action(row.action)))
        hands: tuple[str, ...] = ()
        if not game.is_over:
            hands = tuple(p for p in rules.hands_to_send(game, events, False) if p != row.actor)
        steps.append(MoveFacts(row.seq + 1, row.actor, events, game, hands))
    return tuple(steps)


class Resume:
    def __init__(
        self, store: Store, tables: Tables, *, owns_guild: Callable[[int], bool] = lambda guild_id: True
    ) -> None:
        self.store = store
        self.tables = tables
        self.owns_guild = owns_guild  # with several processes (shards), each resumes its own servers' tables

    async def facts(self, record: TableRecord) -> tuple[MoveFacts, ...]:
        """Every step of a started table, replayed from the store's log (in a thread: a long game takes a few
        milliseconds)."""
        rows = [row for row in await self.store.actions(record.id) if row.seq < record.seq]
        return await asyncio.to_thread(replay_facts, record, rows)

    async def resume_all(self) -> list[TableRecord]:
        """Every open table of this process back in memory from the store alone (no Discord call)."""
        resumed = []
        for row in await self.store.open_tables():
            if not self.owns_guild(row.guild_id) or self.tables.in_channel(row.channel_id) is not None:
                continue
            record = record_from_row(row)
            if not record.players and await self.store.close_unseated(record.id):
                # Left by an older bot killed between a table and its seats: closed, the channel freed.
                log.warning("table %s: a lobby without seats was closed", record.id)
                continue
            if record.status == "running":
                checked = await self._checked(record)
                if checked is None:
                    continue
                record = checked
            said = note("table.resumed_game") if record.status == "running" else note("table.resumed_lobby")
            record = record.evolve(session=record.session.with_banner(said, record.seq))
            self.tables.add(record)
            resumed.append(record)
        return resumed

    async def unshown_ends(self) -> None:
        """Games that ended lately without their table message showing the end (the process died between
        the finishing transaction and the message's edit): their final record published, so the presenter
        shows the result and the rematch button as it would have."""
        for row in await self.store.finished_since(time.time() - SHOW_ENDS_WITHIN):
            shown = Display.of_row(row)
            # A table of a DM (a user install) changes only through a click's answer: nothing to refresh.
            mine = self.owns_guild(row.guild_id) and shown.place == "channel"
            if not mine or shown.table_message_id is None or shown.shown_seq >= row.next_seq:
                continue
            record = record_from_row(row, await self.store.rating_changes(row.id))
            try:
                steps = await self.facts(record)
            except ValueError:
                log.warning("table %s: its end is not shown: its log no longer replays", record.id)
                continue
            self.tables.publish(record.evolve(moves=steps[-MOVES_KEPT:]))

    async def _checked(self, record: TableRecord) -> TableRecord | None:
        """The record with its game as the log says, and its newest steps' facts; None when the table cannot
        be resumed at all (no readable snapshot and a log the rules no longer accept)."""
        try:
            steps = await self.facts(record)
        except ValueError:
            log.exception("table %s: its action log no longer replays under these rules", record.id)
            return record if record.game is not None else None
        rebuilt = steps[-1].game
        rebuilt_json = rebuilt.model_dump_json()
        if rebuilt_json != record.snapshot:
            log.error(
                "table %s: the stored snapshot differs from its action log; resuming from the log", record.id
            )
            record = record.evolve(game=rebuilt, snapshot=rebuilt_json)
        return record.evolve(moves=steps[-MOVES_KEPT:])
