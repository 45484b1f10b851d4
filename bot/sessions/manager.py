"""The session layer's front: what the cogs call. It wires the three parts together, one job each:

- `TableService` (service.py): applies and stores every lobby change and move, one transaction each;
- `Scheduler` (scheduler.py): turn timers and computer turns, calling the service like any player;
- `Presenter` (presenter.py): shows the stored state in the channel at Discord's pace.

A command is answered from what the service stored; the presenter writes the channel afterwards, so no answer
ever waits for a public message. No discord.py here: the Discord side is the presenter's `Announcer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from bot import render
from bot.games.base import ActionInput
from bot.games.registry import REGISTRY
from bot.i18n import DEFAULT, resolve_locale
from bot.render.common import Message, name
from bot.sessions.errors import ChannelGone, MissingPermission, NotAllowed, Text
from bot.sessions.failures import expected
from bot.sessions.kinds import offered_move
from bot.sessions.pacing import Budget
from bot.sessions.presenter import Announcer, Presenter, table_view
from bot.sessions.scheduler import Scheduler
from bot.sessions.service import TableService, engine_notation
from bot.sessions.state import Table
from storage.contract import Store
from storage.models import HistoryEntry, TableRow

log = logging.getLogger(__name__)


class SessionManager:
    def __init__(
        self,
        store: Store,
        announcer: Announcer,
        *,
        default_timeout: float,
        bot_user_id: int | None = None,
        clock: Callable[[], float] = time.time,
        present_now: bool = True,
        coalesce: float = 0.15,
        ping_after: float = 15.0,
        pacing: bool = True,
        owns_guild: Callable[[int], bool] = lambda guild_id: True,
        door: Budget | None = None,
    ) -> None:
        self.service = TableService(
            store,
            default_timeout=default_timeout,
            bot_user_id=bot_user_id,
            clock=clock,
            owns_guild=owns_guild,
        )
        self.scheduler = Scheduler(self.service, clock=clock)
        self.presenter = Presenter(
            announcer,
            save=self.service.save_meta,
            channel_gone=self.service.channel_gone,
            clock=clock,
            coalesce=coalesce,
            ping_after=ping_after,
            pacing=pacing,
            door=door,
        )
        self.service.on_stored = self.scheduler.after
        self.service.on_change = self.presenter.changed
        self.bot_user_id = bot_user_id
        self.guild_locales: dict[int, str] = {}  # guild id -> its locale, as its last interaction told it
        if present_now:
            self.presenter.start()

    @property
    def store(self) -> Store:
        return self.service.store

    def start_presenting(self) -> None:
        """The gateway is ready: the presenter may write (resumed tables are refreshed at its pace)."""
        self.presenter.start()

    def table_in(self, channel_id: int) -> Table | None:
        return self.service.table_in(channel_id)

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self.service.lock(channel_id)

    async def idle(self) -> None:
        """Wait until no computer turn is in flight and the channel shows everything (tests, shutdown)."""
        for _ in range(100):
            await self.scheduler.idle()
            await self.presenter.idle()
            if not self.scheduler._tasks:
                return

    async def close(self, flush: float = 5.0) -> None:
        """Stop timers and computer turns, give the channel up to `flush` seconds to show the last state
        (a graceful stop), then stop writing. The stored state is already complete: what is not shown by
        then is shown by the next process."""
        await self.scheduler.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.presenter.idle(), flush)
        await self.presenter.close()

    # ------------------------------------------------------------------ lobby

    async def open_table(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        options: dict[str, Any] | None = None,
        opponent: int | None = None,
        opponent_is_bot: bool = False,
    ) -> Table:
        """A new table of `kind` in the channel, filled as its spec says: an open lobby the host starts, or a
        challenge to `opponent` (challenging the bot itself starts a game against the computer at once)."""
        spec = REGISTRY[kind]
        if spec.table == "lobby":
            return await self._open(kind, guild_id, channel_id, host_id, options or {})
        if opponent is None:
            raise NotAllowed("table.challenge_self")
        vs_computer = self.bot_user_id is not None and opponent == self.bot_user_id
        if opponent == host_id:
            raise NotAllowed("table.challenge_self")
        if opponent_is_bot and not vs_computer:
            raise NotAllowed("table.challenge_bot")
        seat = "ai:1" if vs_computer else str(opponent)
        table = await self._open(
            kind, guild_id, channel_id, host_id, options or {}, players=[str(host_id), seat]
        )
        if vs_computer and table.status == "lobby":
            await self.service.start(table)
        return table

    async def _open(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        players: list[str] | None = None,
    ) -> Table:
        table = await self.service.open_table(
            kind=kind, guild_id=guild_id, channel_id=channel_id, host_id=host_id, options=options,
            players=players,
            language=await self.public_language(guild_id),
        )
        try:
            await self.presenter.post_now(table)
        except (MissingPermission, ChannelGone) as exc:
            await self.service.abandon_lobby(table)
            what = exc.permission if isinstance(exc, MissingPermission) else "view_channel"
            raise NotAllowed("table.cannot_open", permission=Text(f"permission.{what}")) from None
        except Exception as exc:
            # Discord did not answer well: the table exists and its message follows when Discord recovers.
            why = expected(exc)
            log.warning("table %s: posting the lobby failed (%s); the presenter retries", table.id,
                        why or type(exc).__name__, exc_info=why is None)
            table.version += 1
            self.presenter.changed(table)
        return table

    async def join(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.service.lobby(channel_id, "lobby")
            player = str(user_id)
            if player in table.players:
                raise NotAllowed("table.already_seated")
            if len(table.players) >= self.service.spec(table).max_players:
                raise NotAllowed("table.full")
            await self.service.change_seats(table, [*table.players, player])
            return Text("table.joined")

    async def leave(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.service.lobby(channel_id, "lobby")
            player = str(user_id)
            if player not in table.players:
                raise NotAllowed("table.not_seated")
            if user_id == table.host_id:
                raise NotAllowed("table.host_cannot_leave")
            await self.service.change_seats(table, [p for p in table.players if p != player])
            return Text("table.left")

    async def add_computer(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.service.lobby(channel_id, "lobby")
            self._require_host(table, user_id, "addbot")
            if len(table.players) >= self.service.spec(table).max_players:
                raise NotAllowed("table.full")
            used = {int(p.split(":", 1)[1]) for p in table.players if render.is_computer(p)}
            number = next(n for n in range(1, 100) if n not in used)
            await self.service.change_seats(table, [*table.players, f"ai:{number}"])
            return Text("table.computer_joined", number=number)

    async def start(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.service.lobby(channel_id, "lobby")
            self._require_host(table, user_id, "start")
            if len(table.players) < self.service.spec(table).min_players:
                raise NotAllowed("table.need_two")
        await self.service.start(table)
        return Text("table.started")

    async def accept(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.service.lobby(channel_id, "challenge")
            if str(user_id) != table.players[1]:
                raise NotAllowed("malice.only_challenged.accept")
        await self.service.start(table)
        return Text("malice.accepted")

    async def decline(self, channel_id: int, user_id: int) -> Text:
        async with self.lock(channel_id):
            table = self.service.lobby(channel_id, "challenge")
            if str(user_id) not in table.players:
                raise NotAllowed("malice.only_challenged.decline")
            await self.service.close_lobby(table, Text("malice.declined_by", player=name(str(user_id))))
            return Text("malice.declined")

    @staticmethod
    def _require_host(table: Table, user_id: int, what: str) -> None:
        """`what`: `addbot` or `start` (the refusal's key)."""
        if user_id != table.host_id:
            raise NotAllowed(f"table.host_only.{what}", host=name(str(table.host_id)))

    # ------------------------------------------------------------------ moves

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: ActionInput,
        *,
        seq: int | None = None,
        locale: object = "en",
    ) -> Message:
        return await self.service.act(channel_id, user_id, action, seq=seq, locale=locale)

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
        return await self.service.command(channel_id, user_id, kind, command, params, locale=locale)

    async def resign(self, channel_id: int, user_id: int) -> Text:
        return await self.service.resign(channel_id, user_id)

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> Text:
        return await self.service.cancel(channel_id, user_id, can_manage=can_manage)

    async def click(
        self,
        table_id: int,
        user_id: int,
        token: str,
        seq: int | None,
        *,
        can_manage: bool = False,
        locale: object = "en",
    ) -> Message | Text | None:
        """A persistent button. Returns the clicker's private answer (or None when the click needs none): a
        hand in the clicker's `locale`, or a `Text` the cog words in it."""
        table = self.service.table_by_id(table_id)
        if table is None:
            raise NotAllowed("table.closed")
        channel_id = table.channel_id
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
            return self.hand(channel_id, user_id, locale=locale)
        if token == "table":
            return self.table_view(channel_id, locale=locale)
        if seq is not None and seq != table.seq:
            raise NotAllowed("table.stale_button")
        action = render.parse_token(table.kind, token)
        if action is None:
            raise NotAllowed("table.stale_button")
        return await self.act(channel_id, user_id, action, seq=seq, locale=locale)

    @contextlib.asynccontextmanager
    async def table_update(self, table_id: int, message_id: int) -> AsyncIterator[Message | None]:
        """For a click on a table's own message: its newest version, to send as the click's response (which
        costs no channel write). Yields None when the message is not (or no longer) the table message."""
        table = self.service.table_by_id(table_id) or self._recently_closed(table_id)
        if table is None or table.meta.table_message_id != message_id:
            yield None
            return
        async with self.presenter.interaction_update(table) as message:
            yield message

    def _recently_closed(self, table_id: int) -> Table | None:
        job = self.presenter._jobs.get(table_id)
        return job.table if job is not None else None

    # ------------------------------------------------------------------ reading

    def hand(self, channel_id: int, user_id: int, *, locale: object = "en") -> Message:
        """The caller's hand, in his own language (`locale`)."""
        table = self.service.require_table(channel_id)
        player = str(user_id)
        if table.status == "lobby":
            raise NotAllowed("table.not_started")
        if player not in table.players:
            raise NotAllowed("table.not_playing")
        return render.hand_message(table.info(), table.game, player, dm=False, locale=locale)

    def table_view(self, channel_id: int, *, locale: object = "en") -> Message:
        """The public state as /table shows it privately: in the caller's language."""
        table = self.service.require_table(channel_id)
        message = table_view(table, table.seq, locale=locale)
        message.rows = [[b for b in row if b.custom_id.endswith(":hand")] for row in message.rows]
        message.rows = [row for row in message.rows if row]
        return message

    def choices(
        self,
        channel_id: int,
        user_id: int,
        command: str,
        option: str,
        namespace: dict[str, Any],
        *,
        locale: object = "en",
    ) -> list[tuple[str, str]]:
        """Autocomplete: exactly the caller's legal choices for this option now (none when not his turn),
        labelled in his language; the values stay in the engine's notation."""
        table = self.service.table_in(channel_id)
        if table is None or table.status != "running" or table.game is None:
            return []
        player = str(user_id)
        if table.game.current_player != player or table.seat_is_computer(player):
            return []
        namespace, _ = offered_move(namespace)
        namespace = engine_notation(namespace, locale)
        offered = render.choices(table.kind, table.game, player, command, option, namespace, locale=locale)
        return [(label, f"{value}@{table.seq}") for label, value in offered]

    # ------------------------------------------------------------------ languages

    def saw(
        self, user_id: int, locale: object, guild_id: int | None = None, guild_locale: object = None
    ) -> None:
        """An interaction's languages: the user's (his DMs, once he sits at a table) and the server's (the
        default public language of tables opened later)."""
        self.service.saw(user_id, locale)
        if guild_id is not None and guild_locale is not None:
            self.guild_locales[guild_id] = resolve_locale(guild_locale)

    async def public_language(self, guild_id: int) -> str:
        """The language of a server's public messages: its `/settings language`, else its own locale."""
        chosen = await self.service.store.guild_language(guild_id)
        return chosen or self.guild_locales.get(guild_id, DEFAULT)

    async def set_public_language(self, guild_id: int, language: str | None) -> str:
        """Store the server's choice (None: its own locale again); the open tables of the server speak it
        from their next message on. Returns the language now in force."""
        await self.service.store.set_guild_language(guild_id, language)
        now = await self.public_language(guild_id)
        for table in self.service.open_tables():
            if table.guild_id == guild_id and table.meta.language != now:
                table.meta.language = now
                await self.service.save_meta(table)
                table.version += 1
                self.presenter.changed(table)
        return now

    async def resume_all(self) -> int:
        """After a restart: every open table back from the store, its timers running; no Discord call (the
        presenter refreshes each table message once it may write, paced under the global limit)."""
        resumed = await self.service.resume_all()
        for table in resumed:
            table.version += 1
            self.scheduler.after(table)
            self.presenter.changed(table)
        return len(resumed)

    async def history(self, channel_id: int, game: str | None = None) -> tuple[TableRow, list[HistoryEntry]]:
        return await self.service.history(channel_id, game)
