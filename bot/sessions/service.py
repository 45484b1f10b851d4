"""Applying and storing: every lobby change and every move, one table at a time, each in one transaction.

A move goes: the table's lock -> who may act -> `game.apply` -> one `store.append_action` transaction (the
action, its ledger entries, the snapshot, the results at the end, and the meta: seat control, timeout counts,
the public lines and hands to DM) -> release. The player's answer is built from what was stored; the channel
is told afterwards by the presenter (`on_change`), and the scheduler (`on_stored`) sets the next timer or
lets a computer move. Nothing here waits for Discord, so a move never waits behind a public message.
No discord.py here.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot import render
from bot.games import ai
from bot.games.base import (
    ActionInput,
    ChipTransfer,
    GameAction,
    GameEvent,
    IllegalAction,
    seed_commitment,
)
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec, TableStyle
from bot.i18n import catalogue, resolve_locale, t
from bot.i18n.cards import parse_card
from bot.i18n.places import parse_place
from bot.render.common import Message, name
from bot.render.registry import PRESENTATIONS
from bot.sessions.errors import GameName, NotAllowed, Text
from bot.sessions.kinds import game_options, offered_move
from bot.sessions.state import RECENT_KEPT, RecentLine, Table, TableMeta
from storage.contract import Store
from storage.errors import ChannelBusy, SequenceConflict, TableNotFound
from storage.models import HistoryEntry, LedgerIn, ResultIn, SeatIn, TableRow

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_TAKEOVER = 3
MAX_COMPUTER_STEPS = 2000  # a guard: a computer loop that never yields the turn is a bug, not a hang


def new_seed() -> str:
    """A table's secret seed: drawn by the session, never by the engine (tests replace this to fix games)."""
    return secrets.token_hex(16)


def computer_seed(table_seed: str, seq: int) -> str:
    """The computer player's seed for one decision: the same position always gets the same move (also after a
    restart), but it is a one-way hash, so the computer never holds the table's secret seed."""
    return hashlib.sha256(f"computer/{table_seed}/{seq}".encode()).hexdigest()


def engine_notation(params: dict[str, Any], locale: object) -> dict[str, Any]:
    """A slash command's card and place as the engine writes them: a German player may type `BKr`, "Herz
    Dame" or `mitte2`; English text and the autocomplete's values pass as they are (the engine reads them)."""
    out = dict(params)
    card, to = out.get("card"), out.get("to")
    if isinstance(card, str) and parse_place(card, locale) is None:
        # Not a card in any notation: left as typed, for the game's own refusal.
        with contextlib.suppress(ValueError):
            out["card"] = str(parse_card(card, locale))
    elif isinstance(card, str):
        out["card"] = parse_place(card, locale)
    if isinstance(to, str) and (place := parse_place(to, locale)) is not None:
        out["to"] = place
    return out


def _ignore(table: Table) -> None:
    return None


class TableService:
    def __init__(
        self,
        store: Store,
        *,
        default_timeout: float,
        bot_user_id: int | None = None,
        clock: Callable[[], float] = time.time,
        owns_guild: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.store = store
        # With several processes (shards), each runs the tables of its own shards' servers only.
        self.owns_guild = owns_guild
        self.default_timeout = default_timeout
        self.bot_user_id = bot_user_id
        self.clock = clock
        self.on_change: Callable[[Table], None] = _ignore  # the presenter: show the newest state
        self.on_stored: Callable[[Table], None] = _ignore  # the scheduler: next timer, computer turns
        self._tables: dict[int, Table] = {}  # channel id -> open table
        self._by_id: dict[int, int] = {}  # table id -> channel id
        self._locks: dict[int, asyncio.Lock] = {}
        self.user_locales: dict[str, str] = {}  # player id -> "en"/"de", from his last interaction

    # ------------------------------------------------------------------ plumbing

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    def table_in(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    def table_by_id(self, table_id: int) -> Table | None:
        channel_id = self._by_id.get(table_id)
        return None if channel_id is None else self._tables.get(channel_id)

    def open_tables(self) -> list[Table]:
        return list(self._tables.values())

    def require_table(self, channel_id: int) -> Table:
        table = self._tables.get(channel_id)
        if table is None:
            raise NotAllowed("table.no_game")
        return table

    @staticmethod
    def spec(table: Table) -> GameSpec:
        return REGISTRY[table.kind]

    def is_current(self, table: Table) -> bool:
        return self._tables.get(table.channel_id) is table

    def _forget(self, table: Table) -> None:
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
        self._by_id.pop(table.id, None)

    def _remember(self, table: Table) -> None:
        self._tables[table.channel_id] = table
        self._by_id[table.id] = table.channel_id

    def _changed(self, table: Table) -> None:
        """After a stored change: the scheduler first (the deadline the message shows), then the presenter."""
        table.version += 1
        if table.status in ("finished", "cancelled"):
            self._forget(table)
        self.on_stored(table)
        self.on_change(table)

    async def save_meta(self, table: Table) -> None:
        """Store the meta alone (the presenter's message ids, DMs sent); under the lock, so it never
        interleaves with a move's transaction."""
        async with self.lock(table.channel_id):
            await self.store.update_meta(table.id, table.meta.model_dump())

    @staticmethod
    def from_row(row: TableRow) -> Table:
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            kind=row.kind,
            host_id=row.host_id,
            options=dict(row.options),
            seed=row.seed,
            commitment=row.commitment,
            status=row.status,
            players=row.players,
            seq=row.next_seq,
            meta=TableMeta.model_validate(row.meta or {}),
            snapshot=row.snapshot,
        )
        if row.snapshot is not None:
            try:
                table.game = REGISTRY[row.kind].load(row.snapshot)
            except ValueError:
                table.snapshot = None  # unreadable: resume rebuilds the game from the action log
        return table

    async def _seat(self, table: Table) -> None:
        seats = [
            SeatIn(seat=i, player=p, user_id=None if render.is_computer(p) else int(p))
            for i, p in enumerate(table.players)
        ]
        await self.store.set_seats(table.id, seats)

    def _add_lines(self, table: Table, texts: Iterable[str]) -> None:
        meta = table.meta
        meta.recent.extend(RecentLine(seq=table.seq, text=t) for t in texts)
        del meta.recent[:-RECENT_KEPT]

    def _log_events(
        self, table: Table, events: Sequence[GameEvent], notes: Iterable[str] = (), lead: Iterable[str] = ()
    ) -> None:
        lines = render.log_lines(
            table.info(),
            table.playing.public_view(),
            events,
            current=table.meta.log_group,
            notes=list(notes),
            lead=list(lead),
            locale=table.language,
        )
        self._add_lines(table, (line.text for line in lines))
        if lines:
            table.meta.log_group = lines[-1].group

    def _track_turn(self, table: Table, actor: str | None) -> None:
        """Who holds the turn, and since when he is idle: the presenter pings a person who has had the
        turn passed to him and not moved for a while."""
        game = table.game
        current = None if game is None or game.is_over else game.current_player
        now = self.clock()
        if actor is not None and actor == table.turn_holder:
            table.turn_since = now  # he is here and moving: no ping
        if current is not None and not table.seat_is_computer(current) and current != table.turn_holder:
            # A ping only when the turn passes between two people: not at the start, not after a restart,
            # never for a turn that comes back after the computer's.
            table.ping_wanted = table.turn_holder is not None
            table.turn_holder, table.turn_since = current, now

    # ------------------------------------------------------------------ lobby

    async def open_table(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        players: list[str] | None = None,
        language: str = "en",
    ) -> Table:
        """A new lobby in the channel (its message is the presenter's), its public messages in `language`.
        The seed is drawn here."""
        async with self.lock(channel_id):
            if channel_id in self._tables:
                raise NotAllowed("table.channel_busy")
            options = {k: v for k, v in options.items() if v is not None}
            options.setdefault("timeout", self.default_timeout)
            seed = new_seed()
            commitment = seed_commitment(seed)
            try:
                table_id = await self.store.create_table(
                    guild_id, channel_id, kind, host_id, options, seed, commitment
                )
            except ChannelBusy as exc:
                raise NotAllowed("table.channel_busy") from exc
            table = Table(
                id=table_id,
                guild_id=guild_id,
                channel_id=channel_id,
                kind=kind,
                host_id=host_id,
                options=options,
                seed=seed,
                commitment=commitment,
                status="lobby",
                players=players or [str(host_id)],
                seq=0,
                meta=TableMeta(language=resolve_locale(language)),
            )
            self.note_locales(table)
            await self._seat(table)
            self._remember(table)
            return table

    async def abandon_lobby(self, table: Table) -> None:
        """Close a lobby whose message could not be posted (the bot may not write in the channel)."""
        async with self.lock(table.channel_id):
            if table.status == "lobby":
                await self.store.cancel_table(table.id)
                table.status = "cancelled"
                self._forget(table)

    def lobby(self, channel_id: int, style: TableStyle) -> Table:
        """The channel's table, which must be waiting for players and fill the `style` way (lobby steps
        belong to lobbies, accept and decline to challenges)."""
        table = self.require_table(channel_id)
        if self.spec(table).table != style:
            raise NotAllowed("table.wrong_kind", game=GameName(table.kind, self.spec(table).title))
        if table.status != "lobby":
            raise NotAllowed("table.already_started")
        return table

    async def change_seats(self, table: Table, players: list[str]) -> None:
        """Caller holds the lock. The seats are stored before anyone is told."""
        old = table.players
        table.players = players
        self.note_locales(table)
        try:
            await self._seat(table)
        except BaseException:
            table.players = old
            raise
        self._changed(table)

    async def close_lobby(self, table: Table, note: Text) -> None:
        """Caller holds the lock. `note` is public: worded in the table's language."""
        await self.store.cancel_table(table.id)
        table.status = "cancelled"
        table.meta.note = note.word(table.language)
        self._changed(table)

    async def start(self, table: Table) -> None:
        """Lobby -> running: deal and store the first snapshot with the opening lines and the hands to DM,
        in one transaction."""
        async with self.lock(table.channel_id):
            if table.status != "lobby":
                raise NotAllowed("table.already_started")
            game = self.spec(table).new_game(list(table.players), table.seed, game_options(table.options))
            meta_before = table.meta.model_copy(deep=True)
            table.game = game
            lead = [render.start_line(table.info(), locale=table.language)]
            # What new_game() itself did (a first deal, a throw) is announced like any event.
            self._log_events(table, list(game.opening_events), lead=lead)
            table.meta.dm_pending = self.spec(table).session.hands_to_send(game, [], True)
            self.note_locales(table)
            table.meta.note = None
            snapshot = game.model_dump_json()
            try:
                await self.store.start_table(table.id, snapshot, table.meta.model_dump())
            except BaseException:
                table.game, table.meta = None, meta_before
                raise
            table.snapshot = snapshot
            table.status = "running"
            self._track_turn(table, None)
            self._changed(table)

    # ------------------------------------------------------------------ moves

    def check_actor(self, table: Table, user_id: int) -> str:
        player = str(user_id)
        if table.status == "lobby":
            raise NotAllowed("table.not_started")
        if player not in table.players:
            raise NotAllowed("table.not_playing")
        if player in table.meta.computer_seats:
            raise NotAllowed("table.seat_taken_over")
        current = table.playing.current_player
        if current != player:
            if current is None:
                raise NotAllowed("table.game_over")
            raise NotAllowed("table.not_your_turn", player=name(current))
        return player

    async def commit(
        self,
        table: Table,
        actor: str | None,
        action: GameAction,
        *,
        notes: Iterable[str] = (),
        answered: str | None = None,
    ) -> list[GameEvent]:
        """Apply one action and store it, with everything it changed, in one transaction. Caller holds the
        lock; the meta changes the caller made before (timeouts, seat control) are stored with it. `answered`:
        the player whose private answer to this move shows his hand (a new hand needs no DM for him)."""
        spec = self.spec(table)
        before = table.snapshot if table.snapshot is not None else table.playing.model_dump_json()
        # As JSON, not a deep copy: pydantic's deep copy of the recent lines costs more than the whole move;
        # the JSON is read back only when the move is not stored.
        meta_before = table.meta.model_dump_json()
        try:
            events = list(table.playing.apply(action))
        except IllegalAction:  # the engine's refusal reaches the player as it is (a key, worded for him)
            table.game = spec.load(before)
            raise
        ledger = [
            LedgerIn(from_account=e.from_account, to_account=e.to_account, amount=e.amount, reason=e.reason)
            for e in events
            if isinstance(e, ChipTransfer)
        ]
        finish = None
        if table.playing.is_over:
            finish = [
                ResultIn(
                    player=s.player, final_chips=s.final_chips, net=s.net, placement=s.placement, won=s.won
                )
                for s in table.playing.standings()
            ]
        table.seq += 1
        self._log_events(table, events, notes=notes)
        if not table.playing.is_over:
            table.meta.dm_pending.extend(
                p for p in spec.session.hands_to_send(table.playing, events, False)
                if p not in table.meta.dm_pending and p != answered
            )
        if table.meta.note == table.shown_note:
            table.meta.note = None  # shown: the move replaces it (one not shown yet stays until it is)
        after = table.playing.model_dump_json()
        try:
            await self.store.append_action(
                table.id, table.seq - 1, actor, action.model_dump_json(), ledger, after, finish,
                meta=table.meta.model_dump(),
            )
        except SequenceConflict:
            # Another writer got there first (another process, after a kill): reload the truth.
            await self._reload(table)
            raise NotAllowed("table.changed") from None
        except BaseException:
            table.game = spec.load(before)
            table.meta, table.seq = TableMeta.model_validate_json(meta_before), table.seq - 1
            raise
        table.snapshot = after
        if table.playing.is_over:
            table.status = "finished"
        self._track_turn(table, actor)
        return events

    async def _reload(self, table: Table) -> None:
        row = await self.store.get_table(table.id)
        if row is None:
            raise TableNotFound(table.id)
        fresh = self.from_row(row)
        table.game, table.snapshot, table.meta = fresh.game, fresh.snapshot, fresh.meta
        table.seq, table.status = fresh.seq, fresh.status
        self._changed(table)

    def saw(self, user_id: int, locale: object) -> None:
        """A user's language, as his last interaction told it: kept for the tables he sits at (`note_locales`
        stores it in their meta with the next change), so his DMs come in it."""
        if locale is not None:
            self.user_locales[str(user_id)] = resolve_locale(locale)

    def note_locales(self, table: Table) -> None:
        for player in table.players:
            if player in self.user_locales:
                table.meta.locales[player] = self.user_locales[player]

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: ActionInput,
        *,
        seq: int | None = None,
        locale: object = "en",
    ) -> Message:
        """A player's own action (command or button); returns his answer in his language, built from what was
        stored."""
        async with self.lock(channel_id):
            return await self._act(channel_id, user_id, action, seq=seq, locale=locale)

    async def _act(
        self, channel_id: int, user_id: int, action: ActionInput, *, seq: int | None, locale: object
    ) -> Message:
        """`act` for a caller that holds the table's lock."""
        table = self.require_table(channel_id)
        if seq is not None and seq != table.seq:
            raise NotAllowed("table.stale_button")
        player = self.check_actor(table, user_id)
        try:
            parsed = self.spec(table).parse_action(action)  # an action object passes as it is
        except ValueError:  # pydantic's ValidationError too
            # Buttons are the only source of raw actions: one the engine cannot read was not drawn
            # for this game as it stands (or was edited): one sentence, not "something went wrong".
            raise NotAllowed("table.stale_button") from None
        table.meta.timeouts.pop(player, None)
        self.note_locales(table)
        await self.commit(table, player, parsed, answered=player)
        answer = render.action_receipt(table.info(), table.playing, player, parsed, locale=locale)
        self._changed(table)
        return answer

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
        """A slash command's action: who may act is checked under the lock, before the options are read and
        turned into the engine's action (which the engine still validates)."""
        async with self.lock(channel_id):
            table = self.require_table(channel_id)
            if table.kind != kind:
                raise NotAllowed("table.wrong_game", game=GameName(table.kind, self.spec(table).title))
            player = self.check_actor(table, user_id)
            params, offered_at = offered_move(params)
            params = engine_notation(params, locale)
            if offered_at is not None and offered_at != table.seq:
                raise NotAllowed("table.choice_outdated")
            commands = PRESENTATIONS[table.kind].commands
            if commands is None:
                game = GameName(table.kind, self.spec(table).title)
                raise NotAllowed("table.unknown_action", game=game, command=command)
            action = commands.build_action(table.playing, command, params, player)  # may refuse the input
            # Under the same lock as the checks above: a copy of this command sent at the same moment sees
            # the move stored and is refused as outdated, not as a stale button.
            return await self._act(channel_id, user_id, action, seq=offered_at, locale=locale)

    async def computer_moves(self, table: Table) -> None:
        """Every move of the computer seats holding the turn, each stored in its own transaction."""
        async with self.lock(table.channel_id):
            steps = 0
            while self.is_current(table) and table.status == "running" and steps < MAX_COMPUTER_STEPS:
                current = table.playing.current_player
                if current is None or not table.seat_is_computer(current):
                    break
                actor = current if render.is_computer(current) else "ai"
                # Thinking happens off the event loop (the Insomnia player looks ahead through the auction):
                # other tables' answers do not wait for it. The table's lock keeps its game unchanged.
                action = await asyncio.to_thread(self._computer_choice, table, current)
                try:
                    await self.commit(table, actor, action)
                except NotAllowed:
                    # A computer move the engine refuses is a bug in the computer player; the game goes on
                    # with the safe default rather than stalling the table.
                    log.warning("table %s: computer move %r refused; playing the default", table.id, action)
                    await self.commit(table, actor, self._default(table))
                steps += 1
                table.version += 1
                self.on_change(table)  # the presenter coalesces the streak into few writes
            if steps:
                if table.status in ("finished", "cancelled"):
                    self._forget(table)
                self.on_stored(table)

    @staticmethod
    def _computer_choice(table: Table, player: str) -> GameAction:
        try:
            return ai.choose_action(table.playing, player, computer_seed(table.seed, table.seq))
        except Exception:
            log.warning("table %s: the computer player failed; playing the default", table.id, exc_info=True)
            return TableService._default(table)

    @staticmethod
    def _default(table: Table) -> GameAction:
        action = table.playing.default_action()
        if action is None:  # only a finished game has none, and a finished game has no turn to play
            raise RuntimeError(f"table {table.id}: no default action in a finished game")
        return action

    async def time_out(self, table: Table, seq: int) -> None:
        """The turn timer ran out (keyed by the action count: any action since makes it stale)."""
        async with self.lock(table.channel_id):
            if not self.is_current(table) or table.seq != seq or table.status != "running":
                return
            player = table.playing.current_player
            if player is None or table.seat_is_computer(player):
                return
            count = table.meta.timeouts.get(player, 0) + 1
            table.meta.timeouts[player] = count
            lang = table.language
            notes = [self._game_note(table, "timeout", "timeout_text", player=name(player, lang))]
            takeover = count >= TIMEOUTS_BEFORE_TAKEOVER
            if takeover and self.spec(table).session.takeover == "computer":
                notes.extend(self._seat_to_computer(table, player, "timeouts"))
            for action in self.spec(table).session.timeout_actions(table.playing, player):
                await self.commit(table, "timeout", action, notes=notes)
                notes = []
                if table.status != "running" or table.playing.current_player != player:
                    break
            if takeover and table.status == "running" and self.spec(table).session.takeover == "forfeit":
                await self._forfeit(table, player, "timeouts", actor="timeout")
            self._changed(table)

    def _game_text(self, table: Table, note: str, own: str, **params: Any) -> Text:
        """A log note worded for this game (`log.<note>.<game>`), else the generic note around the game's own
        renderer text (a game added without translations: its `timeout_text()` / `cancel_text()`)."""
        if f"log.{note}.{table.kind}" in catalogue():
            return Text(f"log.{note}.{table.kind}", **params)
        words = getattr(PRESENTATIONS[table.kind].renderer, own, None)
        return Text(f"log.{note}.other", what=words() if callable(words) else "", **params)

    def _game_note(self, table: Table, note: str, own: str, **params: Any) -> str:
        return self._game_text(table, note, own, **params).word(table.language)

    def _seat_to_computer(self, table: Table, player: str, reason: str) -> list[str]:
        """`reason`: `timeouts` or `resigned` (the key of the public note)."""
        if player not in table.meta.computer_seats:
            table.meta.computer_seats.append(player)
        table.meta.timeouts.pop(player, None)
        return [t(table.language, f"log.takeover.{reason}", player=name(player, table.language))]

    async def _forfeit(self, table: Table, player: str, reason: str, *, actor: str) -> None:
        action = self.spec(table).parse_action({"kind": "resign", "player": player})
        note = t(table.language, f"log.forfeit.{reason}", player=name(player, table.language))
        await self.commit(table, actor, action, notes=[note])

    async def resign(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.require_table(channel_id)
            player = str(user_id)
            if table.status != "running":
                raise NotAllowed("table.resign_not_started")
            if player not in table.players:
                raise NotAllowed("table.not_playing")
            if player in table.meta.computer_seats:
                raise NotAllowed("table.already_computer")
            if self.spec(table).session.takeover == "computer":
                # No engine action: the seat's new controller is the stored change, in one transaction.
                meta_before = table.meta.model_copy(deep=True)
                self._add_lines(table, self._seat_to_computer(table, player, "resigned"))
                try:
                    await self.store.update_meta(table.id, table.meta.model_dump())
                except BaseException:
                    table.meta = meta_before
                    raise
            else:
                await self._forfeit(table, player, "resigned", actor=player)
            self._changed(table)
        return Text("table.resigned")

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> Text:
        async with self.lock(channel_id):
            table = self.require_table(channel_id)
            if user_id != table.host_id and not can_manage:
                raise NotAllowed("table.cancel_not_allowed", host=name(str(table.host_id)))
            if table.status == "lobby":
                await self.close_lobby(table, Text("table.cancelled_by", player=name(str(user_id))))
                return Text("table.cancelled")
            why = self._game_text(table, "cancelled", "cancel_text", player=name(str(user_id)))
            await self.end(table, str(user_id), why)
        return Text("table.ended")

    async def end(self, table: Table, actor: str | None, why: Text) -> None:
        """End a running game by the rules (`end_game`: settled as the game kind says); `why` is the public
        note, worded in the table's language. Caller holds the lock."""
        action = self.spec(table).parse_action({"kind": "end_game"})
        await self.commit(table, actor, action, notes=[why.word(table.language)])
        self._changed(table)

    async def channel_gone(self, table: Table) -> None:
        """The channel was deleted: a lobby closes, a game ends and is settled by the rules."""
        async with self.lock(table.channel_id):
            if not self.is_current(table):
                return
            if table.status == "lobby":
                await self.store.cancel_table(table.id)
                table.status = "cancelled"
                self._forget(table)
            elif table.status == "running":
                action = self.spec(table).parse_action({"kind": "end_game"})
                await self.commit(table, None, action, notes=[t(table.language, "log.channel_deleted")])
                self._forget(table)
                self.on_stored(table)

    # ------------------------------------------------------------------ restart

    async def _check_against_log(self, table: Table) -> bool:
        """The action log is the truth, the snapshot only a cache: rebuild the game from its seed and log, and
        should the stored snapshot disagree (or be unreadable), play on from the rebuilt game. False when the
        table cannot be resumed at all (no readable snapshot and a log the rules no longer accept)."""
        log_actions = [row.action for row in await self.store.actions(table.id)]
        try:
            rebuilt = self.spec(table).replay(
                table.players, table.seed, game_options(table.options), log_actions
            )
        except ValueError:
            log.exception("table %s: its action log no longer replays under these rules", table.id)
            return table.game is not None
        rebuilt_json = rebuilt.model_dump_json()
        if rebuilt_json != table.snapshot:
            log.error("table %s: the stored snapshot differs from its action log; resuming from the log",
                      table.id)
            table.game, table.snapshot = rebuilt, rebuilt_json
        return True

    async def resume_all(self) -> list[Table]:
        """After a restart: every open table back in memory from the store alone (no Discord call here: the
        presenter refreshes the messages once the gateway is ready, at its own pace)."""
        resumed = []
        for row in await self.store.open_tables():
            if not self.owns_guild(row.guild_id):
                continue  # another process's shard: it resumes this table
            table = self.from_row(row)
            if table.channel_id in self._tables:
                continue
            if table.status == "running" and not await self._check_against_log(table):
                continue
            self._remember(table)
            if table.status == "running":
                table.meta.note = t(table.language, "table.resumed_game")
            else:
                table.meta.note = t(table.language, "table.resumed_lobby")
            self._track_turn(table, None)
            resumed.append(table)
        return resumed

    async def history(
        self, channel_id: int, game: str | None = None
    ) -> tuple[TableRow, list[HistoryEntry]]:
        kind = None
        table_id = None
        if game:
            text = game.strip().lstrip("#").lower()
            if text.isascii() and text.isdigit() and len(text) <= 18:
                table_id = int(text)
            elif text in REGISTRY:
                kind = text
            else:
                raise NotAllowed("history.name_a_game")
        if table_id is not None:
            row = await self.store.get_table(table_id)
            if row is None or row.channel_id != channel_id:
                raise NotAllowed("history.no_table", table=table_id)
        else:
            row = await self.store.last_table(channel_id, kind)
            if row is None:
                raise NotAllowed("history.none")
        return row, await self.store.history(row.id)
