"""Applying and storing a move: the one path every action takes, a player's, a timeout's or a computer's.

A move goes: the table's lock -> who may act -> the engine's action -> `apply` on a fresh copy of the stored
game -> one `store.append_action` transaction (the action, its ledger entries, the snapshot, the results at
the end, and the session state) -> a new record published. Until the transaction is done nothing has changed:
the published record is the old one, so a failed write needs no rollback and nobody ever sees a move that was
not stored. The player's answer is built from the new record. No discord.py here.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from bot import render
from bot.games import ai
from bot.games.base import ActionInput, ChipTransfer, GameAction, GameEvent, IllegalAction
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec
from bot.render.common import Message, name
from bot.render.registry import PRESENTATIONS
from bot.sessions.errors import GameName, Later, NotAllowed, TableChanged
from bot.sessions.fairplay import no_shows
from bot.sessions.kinds import offered_move
from bot.sessions.rating import rated
from bot.sessions.records import MoveFacts, NoteFact, SessionState, TableRecord
from bot.sessions.rows import record_from_row
from bot.sessions.tables import Readers, Tables
from bot.sessions.view import table_info
from storage.contract import Store
from storage.errors import SequenceConflict, TableNotFound
from storage.models import LedgerIn, RatingChange, ResultIn

log = logging.getLogger(__name__)

MAX_COMPUTER_STEPS = 2000  # a guard: a computer loop that never yields the turn is a bug, not a hang


def computer_seed(table_seed: str, seq: int) -> str:
    """The computer player's seed for one decision: the same position always gets the same move (also after a
    restart), but it is a one-way hash, so the computer never holds the table's secret seed."""
    return hashlib.sha256(f"computer/{table_seed}/{seq}".encode()).hexdigest()


def spec_of(record: TableRecord) -> GameSpec:
    return REGISTRY[record.kind]


def ledger_of(events: Sequence[GameEvent]) -> list[LedgerIn]:
    return [
        LedgerIn(from_account=e.from_account, to_account=e.to_account, amount=e.amount, reason=e.reason)
        for e in events
        if isinstance(e, ChipTransfer)
    ]


class Moves:
    def __init__(self, store: Store, tables: Tables, readers: Readers) -> None:
        self.store = store
        self.tables = tables
        self.readers = readers

    async def commit(
        self,
        record: TableRecord,
        actor: str | None,
        action: GameAction,
        *,
        notes: Sequence[NoteFact] = (),
        session: SessionState | None = None,
        answered: str | None = None,
    ) -> TableRecord:
        """Apply one action and store it with everything it changed, in one transaction; publish and return
        the new record. Caller holds the lock. `session`: the session state to store with it (timeouts, seat
        control the caller changed); `answered`: the player whose answer shows his hand (no DM for him)."""
        spec = spec_of(record)
        if record.snapshot is None:
            raise RuntimeError(f"table {record.id} has no stored game")
        game = spec.load(record.snapshot)  # a copy: the published record's game is never changed
        events = tuple(game.apply(action))  # a refusal leaves everything as stored
        count = record.seq + 1
        state = self.readers.noted(session or record.session, record.players).with_notes(notes, at=count)
        finish, rating, unscored = None, None, tuple(state.computer_seats)
        if game.is_over:
            # A seat the computer played at the end, or one without a move of its own (the timer's moves are
            # not his), scores nothing: a forfeit in a tournament, left out of the rating.
            absent = await no_shows(self.store, record.id, record.players, state.timeouts, acting=actor)
            unscored += tuple(p for p in absent if p not in unscored)
            rating = rated(game, action, unscored)
            finish = [
                ResultIn(
                    player=s.player, final_chips=s.final_chips, net=s.net, placement=s.placement, won=s.won
                )
                for s in game.standings()
            ]
        hands: tuple[str, ...] = ()
        if not game.is_over:
            hands = tuple(p for p in spec.session.hands_to_send(game, events, False) if p != answered)
        after = game.model_dump_json()
        try:
            await self.store.append_action(
                record.id,
                record.seq,
                actor,
                action.model_dump_json(),
                ledger_of(events),
                after,
                finish,
                meta=state,
                rated=rating,
                taken_over=unscored if finish else (),
            )
        except SequenceConflict:
            # Another writer got there first (another process, after a kill): reload the truth.
            await self.reload(record)
            raise TableChanged from None
        move = MoveFacts(count=count, actor=actor, events=events, game=game, hands=hands)
        changes = await self._ratings(record.id) if rating is not None else record.ratings
        new = record.evolve(
            seq=count,
            session=state,
            snapshot=after,
            game=game,
            status="finished" if game.is_over else record.status,
            moves=record.with_move(move),
            ratings=changes,
        )
        self.tables.publish(new)
        return new

    async def _ratings(self, table_id: int) -> tuple[RatingChange, ...]:
        """The rating the finishing transaction made, read back for the result lines. The move is stored
        whatever this read does: if it fails, the result is shown without them (the store has them)."""
        try:
            return tuple(await self.store.rating_changes(table_id))
        except Exception:  # the database's own error, whichever driver: the move itself is stored
            log.warning("table %s: its rating was not read back for the result", table_id, exc_info=True)
            return ()

    async def store_session(self, record: TableRecord, session: SessionState) -> TableRecord:
        """A change of the session state alone (a seat to the computer, the language): stored, published;
        `TableChanged` (the stale path) if another process moved the table since `record`."""
        try:
            await self.store.update_meta(record.id, session, seq=record.seq)
        except SequenceConflict:
            await self.reload(record)
            raise TableChanged from None
        new = record.evolve(session=session)
        self.tables.publish(new)
        return new

    async def speak(self, guild_id: int, language: str) -> None:
        """The server's open tables speak `language` from their next write on (their whole log included)."""
        for record in self.tables.all():
            if record.guild_id == guild_id and record.language != language:
                async with self.tables.lock(record.channel_id):
                    current = self.tables.by_id(record.id)
                    if current is not None:
                        try:
                            await self.store_session(current, _speaking(current, language))
                        except TableChanged:  # another process moved it: once more on the table reloaded
                            if (current := self.tables.by_id(record.id)) is not None:
                                await self.store_session(current, _speaking(current, language))

    async def reload(self, record: TableRecord) -> None:
        """The table as the store has it, published in place of `record` (the stale path). Its newest steps'
        facts are not kept: the presenter replays what it has not shown from the log."""
        log.info("table %s: another process stored move %s first; reloaded", record.id, record.seq)
        row = await self.store.get_table(record.id)
        if row is None:
            raise TableNotFound(record.id)
        # Another writer may have finished the game: its result shows the rating that writer made.
        ratings = await self._ratings(row.id) if row.status == "finished" else ()
        fresh = record_from_row(row, ratings)
        self.tables.publish(fresh.evolve(revision=record.revision + 1))

    # ------------------------------------------------------------------ a player's move

    def check_actor(self, record: TableRecord, user_id: int) -> str:
        player = str(user_id)
        if record.status == "lobby":
            raise NotAllowed("table.not_started")
        if player not in record.players:
            raise NotAllowed("table.not_playing")
        if player in record.session.computer_seats:
            raise NotAllowed("table.seat_taken_over")
        current = record.playing.current_player
        if current != player:
            if current is None:
                raise NotAllowed("table.game_over")
            raise NotAllowed("table.not_your_turn", player=name(current))
        return player

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: ActionInput,
        *,
        seq: int | None = None,
        locale: object = "en",
        receipt: bool = True,
    ) -> Message | Later:
        """A player's own action (a button); his answer in his language, built from what was stored (only
        when it is sent, `Later`, without `receipt`: a click answered in place with the table message)."""
        async with self.tables.lock(channel_id), self._judged_as_stored(channel_id):
            done = await self._act(channel_id, user_id, action, seq=seq, locale=locale)
        return done.build() if receipt else done

    @contextlib.asynccontextmanager
    async def _judged_as_stored(self, channel_id: int) -> AsyncIterator[None]:
        """A refusal of a player's move judged on this process's table, which may be behind the store
        (another process moved it: a rolling restart's overlap): then the stale path instead, so nobody is
        refused by a table he no longer sees. Refusals are rare, so the store is asked only for them."""
        record = self.tables.in_channel(channel_id)
        try:
            yield
        except TableChanged:
            raise
        except NotAllowed:
            if record is not None and record.status != "lobby":
                row = await self.store.get_table(record.id)
                if row is not None and (row.next_seq != record.seq or row.status != record.status):
                    await self.reload(record)
                    raise TableChanged from None
            raise

    async def _act(
        self, channel_id: int, user_id: int, action: ActionInput, *, seq: int | None, locale: object
    ) -> Later:
        record = self.tables.require(channel_id)
        if seq is not None and seq != record.seq:
            raise NotAllowed("table.stale_button")
        player = self.check_actor(record, user_id)
        try:
            parsed = spec_of(record).parse_action(action)  # an action object passes as it is
        except IllegalAction:
            raise  # a refusal by the rules: its own sentence
        except ValueError:  # pydantic's ValidationError: a button not drawn for this game as it stands
            raise NotAllowed("table.stale_button") from None
        session = record.session
        if player in session.timeouts:
            session = session.model_copy(update={"timeouts": _without(session.timeouts, player)})
        new = await self.commit(record, player, parsed, session=session, answered=player)
        info = table_info(new)
        return Later(lambda: render.action_receipt(info, new.playing, player, parsed, locale=locale))

    async def command(
        self,
        channel_id: int,
        user_id: int,
        kind: str,
        command: str,
        params: dict[str, Any],
        *,
        locale: object = "en",
    ) -> Message:
        """A slash command's move (its options already in the engine's notation): who may act is checked
        under the lock, before the options become the engine's action (which the engine still validates)."""
        async with self.tables.lock(channel_id), self._judged_as_stored(channel_id):
            record = self.tables.require(channel_id)
            spec = spec_of(record)
            if record.kind != kind:
                raise NotAllowed("table.wrong_game", game=GameName(record.kind, spec.title))
            player = self.check_actor(record, user_id)
            params, offered_at = offered_move(params)
            if offered_at is not None and offered_at != record.seq:
                raise NotAllowed("table.choice_outdated")
            commands = PRESENTATIONS[record.kind].commands
            if commands is None:
                game = GameName(record.kind, spec.title)
                raise NotAllowed("table.unknown_action", game=game, command=command)
            action = commands.build_action(record.playing, command, params, player)
            # Under the same lock as the checks above: a copy of this command sent at the same moment sees the
            # move stored and is refused as outdated.
            done = await self._act(channel_id, user_id, action, seq=offered_at, locale=locale)
        return done.build()

    # ------------------------------------------------------------------ the computer's moves

    async def computer_moves(self, table_id: int) -> None:
        """Every move of the computer seats holding the turn, each stored in its own transaction."""
        record = self.tables.by_id(table_id)
        if record is None:
            return
        async with self.tables.lock(record.channel_id):
            for _ in range(MAX_COMPUTER_STEPS):
                record = self.tables.by_id(table_id)
                if record is None or record.status != "running":
                    return
                current = record.playing.current_player
                if current is None or not record.seat_is_computer(current):
                    return
                actor = current if current.startswith("ai:") else "ai"
                # Thinking happens off the event loop: other tables' answers do not wait for it. The record's
                # game is never changed, so the thread reads a stored state.
                action = await asyncio.to_thread(self._computer_choice, record, current)
                try:
                    await self.commit(record, actor, action)
                except TableChanged:
                    # Another process moved first: the reloaded record is published, and its own stored
                    # signal starts the next computer turn if there is one.
                    return
                except NotAllowed:
                    # A computer move the engine refuses is a bug in the computer player: the game goes on
                    # with the safe default rather than stalling the table.
                    log.warning("table %s: computer move %r refused; playing the default", record.id, action)
                    await self.commit(record, actor, default_action(record))

    @staticmethod
    def _computer_choice(record: TableRecord, player: str) -> GameAction:
        try:
            return ai.choose_action(record.playing, player, computer_seed(record.seed, record.seq))
        except Exception:
            log.warning("table %s: the computer player failed; playing the default", record.id, exc_info=True)
            return default_action(record)


def default_action(record: TableRecord) -> GameAction:
    action = record.playing.default_action()
    if action is None:  # only a finished game has none, and a finished game has no turn to play
        raise RuntimeError(f"table {record.id}: no default action in a finished game")
    return action


def _speaking(record: TableRecord, language: str) -> SessionState:
    return record.session.model_copy(update={"language": language})


def _without(mapping: dict[str, int], key: str) -> dict[str, int]:
    return {k: v for k, v in mapping.items() if k != key}
