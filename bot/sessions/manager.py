"""Tables per channel: lobby, seats, the apply-persist-announce cycle, turn timers, computer turns, resume.

Every command, click, timer and computer move goes through one cycle, under the channel's lock:
load the table -> check the actor may act now -> `game.apply` -> `store.append_action` (action, ledger
entries, snapshot and results in one transaction) -> announce -> schedule the next timer -> let a computer
seat move.
Storing comes before announcing, so nothing announced is ever lost; a restart resumes exactly what was stored.
No discord.py here: the Discord side is reached through the `Announcer` protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot import render
from bot.games import ai, engine
from bot.games.base import ChipTransfer, IllegalAction, seed_commitment
from bot.games.replay import replay
from bot.render.common import LOG_LIMIT, LogGroup, LogLine, Message, name
from bot.sessions.errors import NotAllowed
from bot.sessions.kinds import RULES, KindRules
from bot.sessions.state import Table, TableMeta
from storage.errors import ChannelBusy, SequenceConflict
from storage.models import LedgerIn, ResultIn, SeatIn, TableRow

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_TAKEOVER = 3
MAX_COMPUTER_STEPS = 2000  # a guard: a computer loop that never yields the turn is a bug, not a hang


def new_seed() -> str:
    """A table's secret seed: drawn by the session, never by the engine (tests replace this to fix games)."""
    return secrets.token_hex(16)


class DMClosed(Exception):
    """The user does not accept DMs from the bot (Discord error 50007)."""


class Announcer(Protocol):
    """The Discord side of a session, implemented in the cogs (and by a recorder in tests)."""

    async def send(self, channel_id: int, message: Message) -> int:
        """Post a public message in the channel; returns its id."""

    async def edit(self, channel_id: int, message_id: int, message: Message) -> bool:
        """Edit a message in place; False when it no longer exists."""

    async def delete(self, channel_id: int, message_id: int) -> None:
        """Delete a public message; a message that no longer exists is fine."""

    async def dm(self, user_id: int, message: Message) -> None:
        """Send a direct message; raises `DMClosed` when the user's DMs are closed."""


class Stopped(Exception):
    """The manager is closing."""


class SessionManager:
    def __init__(
        self,
        store: Any,
        announcer: Announcer,
        *,
        default_timeout: float,
        bot_user_id: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.announcer = announcer
        self.default_timeout = default_timeout
        self.bot_user_id = bot_user_id
        self.clock = clock
        self._tables: dict[int, Table] = {}  # channel id -> open table
        self._by_id: dict[int, int] = {}  # table id -> channel id
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.Task] = {}  # table id -> its one live timer (also while it runs)
        self._tasks: set[asyncio.Task] = set()  # computer turns in flight
        self._closed = False

    # ------------------------------------------------------------------ plumbing

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    def table_in(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    def _require_table(self, channel_id: int) -> Table:
        table = self._tables.get(channel_id)
        if table is None:
            raise NotAllowed(
                "There is no game in this channel: start one with /insomnia new or /malice challenge."
            )
        return table

    def _rules(self, table: Table) -> KindRules:
        return RULES[table.kind]

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("session task failed", exc_info=task.exception())

    async def idle(self) -> None:
        """Wait until no computer turn is in flight (tests and shutdown use this)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop every timer and computer turn; the stored state is already complete."""
        self._closed = True
        tasks = list(self._timers.values()) + list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._timers.clear()
        self._tasks.clear()

    def _forget(self, table: Table) -> None:
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]
        self._by_id.pop(table.id, None)
        self._cancel_timer(table)

    def _remember(self, table: Table) -> None:
        self._tables[table.channel_id] = table
        self._by_id[table.id] = table.channel_id

    @staticmethod
    def _from_row(row: TableRow) -> Table:
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
                table.game = engine(row.kind).Game.model_validate_json(row.snapshot)
            except ValueError:
                table.snapshot = None  # unreadable: resume_all rebuilds the game from the action log
        return table

    async def _save_meta(self, table: Table) -> None:
        await self.store.update_meta(table.id, table.meta.model_dump())

    async def _seat(self, table: Table) -> None:
        seats = [
            SeatIn(seat=i, player=p, user_id=None if render.is_computer(p) else int(p))
            for i, p in enumerate(table.players)
        ]
        await self.store.set_seats(table.id, seats)

    # ------------------------------------------------------------------ lobby

    async def open_table(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict,
        players: list[str] | None = None,
    ) -> Table:
        """A new lobby in the channel, with its public message. The seed is drawn here, not in the engine."""
        async with self.lock(channel_id):
            if channel_id in self._tables:
                raise NotAllowed("This channel already has a game: finish it or /cancel it first.")
            options = {k: v for k, v in options.items() if v is not None}
            options.setdefault("timeout", self.default_timeout)
            seed = new_seed()
            commitment = seed_commitment(seed)
            try:
                table_id = await self.store.create_table(
                    guild_id, channel_id, kind, host_id, options, seed, commitment
                )
            except ChannelBusy as exc:
                raise NotAllowed("This channel already has a game: finish it or /cancel it first.") from exc
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
                meta=TableMeta(),
            )
            await self._seat(table)
            self._remember(table)
            table.meta.table_message_id = await self.announcer.send(
                channel_id, render.table_message(table.info(), None)
            )
            await self._save_meta(table)
            return table

    async def open_insomnia(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        chips: int | None = None,
        deals: int | None = None,
        timeout: float | None = None,
    ) -> Table:
        return await self.open_table(
            kind="insomnia",
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            options={"chips": chips, "deals": deals, "timeout": timeout},
        )

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        opponent_id: int,
        *,
        stake: int | None = None,
        timeout: float | None = None,
        turns: int | None = None,
        opponent_is_bot: bool = False,
    ) -> Table:
        """A Malice challenge; challenging the bot itself starts a game against the computer at once."""
        vs_computer = self.bot_user_id is not None and opponent_id == self.bot_user_id
        if opponent_id == host_id:
            raise NotAllowed("You cannot challenge yourself: pick another player, or challenge me.")
        if opponent_is_bot and not vs_computer:
            raise NotAllowed("That is a bot: challenge a person, or challenge me to play the computer.")
        opponent = "ai:1" if vs_computer else str(opponent_id)
        table = await self.open_table(
            kind="malice",
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            options={"stake": stake, "timeout": timeout, "turns": turns},
            players=[str(host_id), opponent],
        )
        if vs_computer:
            await self._start(table)
        return table

    async def join(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._lobby(channel_id, "insomnia")
            player = str(user_id)
            if player in table.players:
                raise NotAllowed("You are already seated at this table.")
            if len(table.players) >= self._rules(table).max_players:
                raise NotAllowed("The table is full.")
            table.players.append(player)
            await self._seat(table)
            await self._refresh(table)
            return "You joined the table."

    async def leave(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._lobby(channel_id, "insomnia")
            player = str(user_id)
            if player not in table.players:
                raise NotAllowed("You are not seated at this table.")
            if user_id == table.host_id:
                raise NotAllowed("You are the host: use Cancel (or /cancel) to close the table.")
            table.players.remove(player)
            await self._seat(table)
            await self._refresh(table)
            return "You left the table."

    async def add_computer(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._lobby(channel_id, "insomnia")
            self._require_host(table, user_id, "add a computer player")
            if len(table.players) >= self._rules(table).max_players:
                raise NotAllowed("The table is full.")
            used = {int(p.split(":", 1)[1]) for p in table.players if render.is_computer(p)}
            number = next(n for n in range(1, 100) if n not in used)
            table.players.append(f"ai:{number}")
            await self._seat(table)
            await self._refresh(table)
            return f"Computer {number} joined the table."

    async def start(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._lobby(channel_id, "insomnia")
            self._require_host(table, user_id, "start the game")
            if len(table.players) < self._rules(table).min_players:
                raise NotAllowed(
                    "At least two players are needed: wait for someone to join, or add a computer."
                )
        await self._start(table)
        return "The game started."

    async def accept(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._lobby(channel_id, "malice")
            if str(user_id) != table.players[1]:
                raise NotAllowed("Only the challenged player can accept this challenge.")
        await self._start(table)
        return "Challenge accepted: the game started."

    async def decline(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._lobby(channel_id, "malice")
            if str(user_id) not in table.players:
                raise NotAllowed("Only the challenged player can decline this challenge.")
            await self._close_lobby(table, f"{name(str(user_id))} declined the challenge.")
            return "Challenge declined."

    def _lobby(self, channel_id: int, kind: str) -> Table:
        table = self._require_table(channel_id)
        if table.kind != kind:
            raise NotAllowed(f"This channel's table is a {table.kind.capitalize()} game.")
        if table.status != "lobby":
            raise NotAllowed("The game has already started.")
        return table

    @staticmethod
    def _require_host(table: Table, user_id: int, what: str) -> None:
        if user_id != table.host_id:
            raise NotAllowed(f"Only the host, {name(str(table.host_id))}, can {what}.")

    async def _close_lobby(self, table: Table, note: str) -> None:
        await self.store.cancel_table(table.id)
        table.status = "cancelled"
        self._forget(table)
        await self._edit_table_message(table, note=note)

    async def _start(self, table: Table) -> None:
        """Lobby -> running: deal, store the first snapshot, announce, then timers and computer turns."""
        async with self.lock(table.channel_id):
            if table.status != "lobby":
                raise NotAllowed("The game has already started.")
            module = engine(table.kind)
            game = module.new_game(
                list(table.players), table.seed, **self._rules(table).engine_options(table.options)
            )
            snapshot = game.model_dump_json()
            await self.store.start_table(table.id, snapshot)
            table.game, table.snapshot = game, snapshot
            table.status = "running"
            lead = [render.start_line(table.info(), game)]
            # Insomnia's first deal and throw happen inside new_game(); they are announced like any event.
            opening = list(getattr(game, "opening_events", []))
            await self._announce(table, [], opening, started=True, lead=lead)
        await self._after_cycle(table)

    # ------------------------------------------------------------------ the cycle

    def _check_actor(self, table: Table, user_id: int) -> str:
        player = str(user_id)
        if table.status == "lobby":
            raise NotAllowed("The game has not started yet.")
        if player not in table.players:
            raise NotAllowed("You are not playing at this table.")
        if player in table.meta.computer_seats:
            raise NotAllowed("A computer player has taken over your seat for the rest of this game.")
        current = table.game.current_player
        if current != player:
            raise NotAllowed(
                f"It is not your turn: {name(current)} is to play." if current else "The game is over."
            )
        return player

    async def _apply(self, table: Table, actor: str, action: Any) -> list[Any]:
        """Apply one action; store it with its ledger entries and snapshot before anything is announced."""
        module = engine(table.kind)
        before = table.snapshot if table.snapshot is not None else table.game.model_dump_json()
        try:
            events = table.game.apply(action)
        except IllegalAction as exc:
            table.game = module.Game.model_validate_json(before)
            raise NotAllowed(str(exc)) from exc
        ledger = [
            LedgerIn(from_account=e.from_account, to_account=e.to_account, amount=e.amount, reason=e.reason)
            for e in events
            if isinstance(e, ChipTransfer)
        ]
        finish = None
        if table.game.is_over:
            finish = [
                ResultIn(
                    player=s.player, final_chips=s.final_chips, net=s.net, placement=s.placement, won=s.won
                )
                for s in table.game.standings()
            ]
        after = table.game.model_dump_json()
        try:
            await self.store.append_action(
                table.id, table.seq, actor, action.model_dump_json(), ledger, after, finish
            )
        except SequenceConflict:
            # Another writer got there first (it cannot happen inside one process): reload the truth.
            table.game = module.Game.model_validate_json(before)
            await self._reload(table)
            raise NotAllowed("The table changed while you acted: look again and retry.") from None
        except BaseException:
            table.game = module.Game.model_validate_json(before)
            raise
        table.snapshot = after
        table.seq += 1
        if table.game.is_over:
            table.status = "finished"
        return events

    async def _reload(self, table: Table) -> None:
        row = await self.store.get_table(table.id)
        fresh = self._from_row(row)
        table.game, table.snapshot = fresh.game, fresh.snapshot
        table.seq, table.status = fresh.seq, fresh.status

    async def act(self, channel_id: int, user_id: int, action: Any, *, seq: int | None = None) -> Message:
        """A player's own action (command or button). Returns the ephemeral answer for him."""
        async with self.lock(channel_id):
            table = self._require_table(channel_id)
            if seq is not None and seq != table.seq:
                raise NotAllowed("That button is stale: use the newest message.")
            player = self._check_actor(table, user_id)
            if isinstance(action, dict | str):
                try:
                    action = engine(table.kind).parse_action(action)
                except ValueError:  # pydantic's ValidationError too
                    # Buttons are the only source of raw actions: one the engine cannot read was not drawn
                    # for this game as it stands (or was edited): one sentence, not "something went wrong".
                    raise NotAllowed("That button is stale: use the newest message.") from None
            events = await self._apply(table, player, action)
            table.meta.timeouts.pop(player, None)
            await self._announce(table, [], events)
            answer = render.action_receipt(table.info(), table.game, player, action)
        await self._after_cycle(table)
        return answer

    async def _after_cycle(self, table: Table) -> None:
        """Schedule the next timer; if a computer holds the turn, let it move (not holding up the caller)."""
        if table.status in ("finished", "cancelled"):
            self._forget(table)
            return
        if table.status != "running" or self._closed:
            return
        current = table.game.current_player
        if current is not None and table.seat_is_computer(current):
            self._cancel_timer(table)
            self._spawn(self._computer_turns(table))
        else:
            self._schedule_timer(table)

    async def _computer_turns(self, table: Table) -> None:
        async with self.lock(table.channel_id):
            if self._tables.get(table.channel_id) is not table or table.status != "running":
                return
            events: list[Any] = []
            steps = 0
            while table.status == "running" and steps < MAX_COMPUTER_STEPS:
                current = table.game.current_player
                if current is None or not table.seat_is_computer(current):
                    break
                actor = current if render.is_computer(current) else "ai"
                action = self._computer_choice(table, current)
                try:
                    events.extend(await self._apply(table, actor, action))
                except NotAllowed:
                    # A computer move the engine refuses is a bug in the computer player; the game goes on
                    # with the safe default rather than stalling the table.
                    log.warning("table %s: computer move %r refused; playing the default", table.id, action)
                    events.extend(await self._apply(table, actor, table.game.default_action()))
                steps += 1
            await self._announce(table, [], events)
        await self._after_cycle(table)

    @staticmethod
    def _computer_choice(table: Table, player: str) -> Any:
        try:
            return ai.choose_action(table.game, player, computer_seed(table.seed, table.seq))
        except Exception:
            log.warning("table %s: the computer player failed; playing the default", table.id, exc_info=True)
            return table.game.default_action()

    # ------------------------------------------------------------------ timers

    def _cancel_timer(self, table: Table) -> None:
        timer = self._timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def _schedule_timer(self, table: Table) -> None:
        self._cancel_timer(table)
        if table.timeout <= 0 or self._closed:
            return
        task = asyncio.ensure_future(self._timer(table, table.seq, table.timeout))
        self._timers[table.id] = task

    async def _timer(self, table: Table, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock(table.channel_id):
            # Keyed by sequence: any action since this timer was set makes it stale.
            if (
                self._tables.get(table.channel_id) is not table
                or table.seq != seq
                or table.status != "running"
            ):
                return
            # The timer stays in `_timers` while it applies and announces, so `close()` (a restart) stops it
            # half way instead of letting it go on posting next to the new process.
            player = table.game.current_player
            if player is None or table.seat_is_computer(player):
                return
            rules = self._rules(table)
            events: list[Any] = []
            for action in rules.timeout_actions(table.game, player):
                events.extend(await self._apply(table, "timeout", action))
                if table.status != "running" or table.game.current_player != player:
                    break
            count = table.meta.timeouts.get(player, 0) + 1
            table.meta.timeouts[player] = count
            lines = [f"⏰ {name(player)} ran out of time: {render.timeout_text(table.kind)}."]
            if count >= TIMEOUTS_BEFORE_TAKEOVER and table.status == "running":
                lines.extend(
                    await self._take_over(table, player, events, reason="timed out three times in a row")
                )
            await self._announce(table, lines, events)
        await self._after_cycle(table)

    async def _take_over(self, table: Table, player: str, events: list[Any], *, reason: str) -> list[str]:
        """Insomnia: a computer player takes the seat. Malice: the player forfeits. Caller holds the lock."""
        if self._rules(table).takeover == "computer":
            if player not in table.meta.computer_seats:
                table.meta.computer_seats.append(player)
            table.meta.timeouts.pop(player, None)
            return [
                f"🤖 {name(player)} {reason}: a computer player takes the seat "
                f"(the seat's result still counts for {name(player)})."
            ]
        action = engine(table.kind).parse_action({"kind": "resign", "player": player})
        events.extend(await self._apply(table, "timeout" if "time" in reason else player, action))
        return [f"🏳️ {name(player)} {reason} and forfeits the game."]

    # ------------------------------------------------------------------ resign, cancel

    async def resign(self, channel_id: int, user_id: int) -> str:
        async with self.lock(channel_id):
            table = self._require_table(channel_id)
            player = str(user_id)
            if table.status != "running":
                raise NotAllowed("The game has not started yet: use Leave, or /cancel if you are the host.")
            if player not in table.players:
                raise NotAllowed("You are not playing at this table.")
            if player in table.meta.computer_seats:
                raise NotAllowed("A computer player already plays your seat.")
            events: list[Any] = []
            lines = await self._take_over(table, player, events, reason="resigned")
            await self._announce(table, lines, events)
        await self._after_cycle(table)
        return "You resigned."

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> str:
        async with self.lock(channel_id):
            table = self._require_table(channel_id)
            if user_id != table.host_id and not can_manage:
                raise NotAllowed(
                    f"Only the host, {name(str(table.host_id))}, or a server manager can cancel."
                )
            if table.status == "lobby":
                await self._close_lobby(table, f"The table was cancelled by {name(str(user_id))}.")
                return "The table was cancelled."
            action = engine(table.kind).parse_action({"kind": "end_game"})
            events = await self._apply(table, str(user_id), action)
            lines = [f"🛑 {name(str(user_id))} ended the game: {render.cancel_text(table.kind)}."]
            await self._announce(table, lines, events)
        await self._after_cycle(table)
        return "The game was ended and settled."

    # ------------------------------------------------------------------ announcing

    async def _announce(
        self,
        table: Table,
        notes: list[str],
        events: list[Any],
        *,
        started: bool = False,
        lead: list[str] | None = None,
        note: str | None = None,
    ) -> None:
        """Tell the channel (and DMs) what happened. Failures here are logged: the state is already stored."""
        try:
            await self._announce_unsafe(table, notes, events, started=started, lead=lead or [], note=note)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("announcing table %s failed", table.id)

    async def _announce_unsafe(
        self,
        table: Table,
        notes: list[str],
        events: list[Any],
        *,
        started: bool,
        lead: list[str],
        note: str | None,
    ) -> None:
        info = table.info()
        game = table.game
        lines = render.log_lines(info, game, events, current=table.meta.log_group, notes=notes, lead=lead)
        await self._edit_table_message(table, note=note)
        # Anything posted now lands below the turn message, which must stay the last thing in the channel.
        posted = await self._write_log(table, lines)
        if not game.is_over:
            for player in self._rules(table).hands_to_send(game, events, started):
                posted = await self._dm_hand(table, player) or posted
        await self._turn_message(table, fresh=posted)
        await self._save_meta(table)

    async def _write_log(self, table: Table, lines: list[LogLine]) -> bool:
        """Add lines to the table's public log: the log message of the current group is edited in place; a
        new group, or a message that would pass `LOG_LIMIT`, starts a new one. Returns whether one was posted.

        The log message's id, group and text are in the table meta, so a new process after a restart goes on
        editing the same message."""
        meta = table.meta
        message_id, text, group = meta.log_message_id, meta.log_text, meta.log_group
        pages: list[tuple[int | None, str, LogGroup | None]] = []  # log messages to send or edit, in order
        changed = False
        for line in lines:
            add = line.text[:LOG_LIMIT]
            same = group is not None and line.group.key == group.key
            if same and text and len(text) + 1 + len(add) <= LOG_LIMIT:
                text = f"{text}\n{add}"
                changed = True
                continue
            if changed:
                pages.append((message_id, text, group))
            message_id, changed = None, True
            if same and group is not None and group.title:  # the group goes on in a new message
                text = f"{group.title} (continued)\n{add}"
            else:
                text = add
            group = line.group
        if changed:
            pages.append((message_id, text, group))
        posted = False
        for page_id, page, page_group in pages:
            message = Message(content=page)
            if page_id is None or not await self.announcer.edit(table.channel_id, page_id, message):
                # A new group, or the log message was deleted by hand: post it (again).
                page_id = await self.announcer.send(table.channel_id, message)
                posted = True
            meta.log_message_id, meta.log_text, meta.log_group = page_id, page, page_group
        return posted

    async def _edit_table_message(self, table: Table, *, note: str | None = None) -> None:
        message = render.table_message(table.info(), table.game, note=note)
        message_id = table.meta.table_message_id
        if message_id is not None and await self.announcer.edit(table.channel_id, message_id, message):
            return
        table.meta.table_message_id = await self.announcer.send(table.channel_id, message)

    async def _refresh(self, table: Table) -> None:
        await self._edit_table_message(table)
        await self._save_meta(table)

    async def _turn_message(self, table: Table, *, fresh: bool = False, restarted: bool = False) -> None:
        """Keep at most one live turn message per table, so the channel never shows stale turns.

        The same person keeps the turn: the message is edited in place (new hint, new deadline). The turn
        passes to another person (or `fresh`): the old message is deleted first, then a new one is posted, so
        the mention notifies him (only once per turn: a message posted again for the same person, to stay
        below the log, does not ping him again; after a restart it does, the deadline being new). A computer's
        turn or the end of the game: the old message is deleted.
        """
        game = table.game
        current = None if game is None or game.is_over else game.current_player
        if current is None or table.seat_is_computer(current):
            await self._drop_turn_message(table)
            return
        deadline = int(self.clock() + table.timeout) if table.timeout > 0 else None
        message = render.turn_message(table.info(), game, deadline)
        message_id = table.meta.turn_message_id
        if not fresh and message_id is not None and table.meta.turn_player == current:
            if await self.announcer.edit(table.channel_id, message_id, message):
                return
            table.meta.turn_message_id = None  # someone deleted it: post a new one
        if table.meta.turn_player == current and not restarted:
            # Posted again only to stay below new log lines: the player was already told, so no second ping.
            message.mentions = []
        await self._drop_turn_message(table)
        table.meta.turn_message_id = await self.announcer.send(table.channel_id, message)
        table.meta.turn_player = current

    async def _drop_turn_message(self, table: Table) -> None:
        message_id = table.meta.turn_message_id
        table.meta.turn_message_id = None
        table.meta.turn_player = None
        if message_id is None:
            return
        try:
            await self.announcer.delete(table.channel_id, message_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # A stale turn message left behind is harmless next to a turn message not posted: go on.
            log.warning("table %s: deleting turn message %s failed", table.id, message_id, exc_info=True)

    async def _dm_hand(self, table: Table, player: str) -> bool:
        """DM the player his hand; returns whether a public message had to be posted instead."""
        if table.seat_is_computer(player) or player in table.meta.dm_closed:
            return False
        message = render.hand_message(table.info(), table.game, player, dm=True)
        try:
            await self.announcer.dm(int(player), message)
            return False
        except DMClosed:
            table.meta.dm_closed.append(player)
            await self.announcer.send(
                table.channel_id,
                Message(
                    content=f"📪 {name(player)}, I cannot DM you: use /hand to see your cards.",
                    mentions=[int(player)],
                ),
            )
            return True
        except Exception:
            # Any other failure (Discord unwell, another 403): the hand stays available by /hand, and the rest
            # of the announcement (other DMs, the turn message, the meta) must still happen.
            log.warning("table %s: DMing the hand to %s failed", table.id, player, exc_info=True)
            return False

    # ------------------------------------------------------------------ reading

    def hand(self, channel_id: int, user_id: int) -> Message:
        table = self._require_table(channel_id)
        player = str(user_id)
        if table.status == "lobby":
            raise NotAllowed("The game has not started yet.")
        if player not in table.players:
            raise NotAllowed("You are not playing at this table.")
        return render.hand_message(table.info(), table.game, player, dm=False)

    def table_view(self, channel_id: int) -> Message:
        table = self._require_table(channel_id)
        return render.table_message(table.info(), table.game)

    def choices(self, channel_id: int, user_id: int, command: str, option: str, namespace: dict) -> list:
        """Autocomplete: exactly the caller's legal choices for this option now (none when not his turn)."""
        table = self._tables.get(channel_id)
        if table is None or table.status != "running" or table.game is None:
            return []
        player = str(user_id)
        if table.game.current_player != player or table.seat_is_computer(player):
            return []
        return render.choices(table.kind, table.game, player, command, option, namespace)

    async def command(self, channel_id: int, user_id: int, kind: str, command: str, params: dict) -> Message:
        """A slash command's action: who may act is checked under the lock, before the options are read and
        turned into the engine's action (which the engine still validates)."""
        async with self.lock(channel_id):
            table = self._require_table(channel_id)
            if table.kind != kind:
                raise NotAllowed(f"This channel's game is {table.kind.capitalize()}.")
            player = self._check_actor(table, user_id)
            action = self._rules(table).build_action(table.game, command, params, player)
        return await self.act(channel_id, user_id, action)

    # ------------------------------------------------------------------ buttons

    async def click(
        self, table_id: int, user_id: int, token: str, seq: int | None, *, can_manage: bool = False
    ) -> Message | str | None:
        """A persistent button. Returns an ephemeral answer (or None when the click needs none)."""
        channel_id = self._by_id.get(table_id)
        if channel_id is None:
            raise NotAllowed("That table is closed.")
        table = self._tables[channel_id]
        lobby = {
            "join": self.join,
            "leave": self.leave,
            "addbot": self.add_computer,
            "start": self.start,
            "accept": self.accept,
            "decline": self.decline,
        }
        if token in lobby:
            return await lobby[token](channel_id, user_id)
        if token == "cancel":
            return await self.cancel(channel_id, user_id, can_manage=can_manage)
        if token == "hand":
            return self.hand(channel_id, user_id)
        if token == "table":
            return self.table_view(channel_id)
        if seq is not None and seq != table.seq:
            raise NotAllowed("That button is stale: use the newest message.")
        action = render.parse_token(table.kind, token)
        if action is None:
            raise NotAllowed("That button is stale: use the newest message.")
        return await self.act(channel_id, user_id, action, seq=seq)

    # ------------------------------------------------------------------ restart

    async def _check_against_log(self, table: Table) -> bool:
        """The action log is the truth, the snapshot only a cache: rebuild the game from its seed and log, and
        should the stored snapshot disagree (or be unreadable), play on from the rebuilt game. False when the
        table cannot be resumed at all (no readable snapshot and a log the rules no longer accept)."""
        log_actions = [row.action for row in await self.store.actions(table.id)]
        options = self._rules(table).engine_options(table.options)
        try:
            rebuilt = replay(table.kind, table.players, table.seed, options, log_actions)
        except ValueError:
            log.exception("table %s: its action log no longer replays under these rules", table.id)
            return table.game is not None
        rebuilt_json = rebuilt.model_dump_json()
        if rebuilt_json != table.snapshot:
            log.error("table %s: the stored snapshot differs from its action log; resuming from the log",
                      table.id)
            table.game, table.snapshot = rebuilt, rebuilt_json
        return True

    async def resume_all(self) -> int:
        """After a restart: every open table back in memory, its message saying so, timers restarted."""
        count = 0
        for row in await self.store.open_tables():
            table = self._from_row(row)
            if table.channel_id in self._tables:
                continue
            if table.status == "running" and not await self._check_against_log(table):
                continue
            self._remember(table)
            count += 1
            async with self.lock(table.channel_id):
                note = (
                    "♻️ The bot restarted: this game resumed."
                    if table.status == "running"
                    else "♻️ The bot restarted: this table is open again."
                )
                try:
                    await self._edit_table_message(table, note=note)
                    if table.status == "running":
                        # The timer restarts, so the deadline is new: a fresh turn message (the mention
                        # notifies again) replaces the one the old process posted.
                        await self._turn_message(table, fresh=True, restarted=True)
                    await self._save_meta(table)
                except Exception:
                    log.exception("resuming table %s: announcing failed", table.id)
            if table.status == "running":
                await self._after_cycle(table)
        return count

    async def history(self, channel_id: int, game: str | None = None) -> tuple[TableRow, list]:
        kind = None
        table_id = None
        if game:
            text = game.strip().lstrip("#").lower()
            if text.isdigit():
                table_id = int(text)
            elif text in RULES:
                kind = text
            else:
                raise NotAllowed("Name a game as insomnia, malice or a table number like #12.")
        if table_id is not None:
            row = await self.store.get_table(table_id)
            if row is None or row.channel_id != channel_id:
                raise NotAllowed(f"There is no table #{table_id} in this channel.")
        else:
            row = await self.store.last_table(channel_id, kind)
            if row is None:
                raise NotAllowed("No game has been played in this channel yet.")
        return row, await self.store.history(row.id)


def computer_seed(table_seed: str, seq: int) -> str:
    """The computer player's seed for one decision: the same position always gets the same move (also after a
    restart), but it is a one-way hash, so the computer never holds the table's secret seed."""
    return hashlib.sha256(f"computer/{table_seed}/{seq}".encode()).hexdigest()
