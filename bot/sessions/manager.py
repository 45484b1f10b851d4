"""The session layer's front: what the cogs call. It builds the parts, one job each, every one with what it
needs in its constructor, and joins them by one signal: each stored change of a table as a typed fact
(`Tables.stored`, bot/sessions/facts.py), which the scheduler, the presenter and the rematches hear:

- `Lobbies` (lobbies.py): a table before its game; `Moves` (moves.py): applying and storing every move;
  `Life` (life.py): resign, cancel, the channel deleted, timeouts; `Resume` (resume.py): after a restart;
  `Servers` (servers.py): the server settings, where they apply and `/settings`;
- `Scheduler` (scheduler.py): turn timers and computer turns;
- `Presenter` (presenter.py): shows the stored state in the channel at Discord's pace, worded when shown.

A command is answered from what was stored; the presenter writes the channel afterwards, so no answer waits
for a public message. No discord.py here: the Discord side is the presenter's `Announcer`.

The parts are public attributes, and a caller that needs one part only calls it directly
(`sessions.lobbies.join(...)`, `sessions.moves.act(...)`, `sessions.life.resign(...)`,
`sessions.tables.in_channel(...)`, `sessions.presenter.answers.update(...)`); the manager forwards nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection
from typing import Any

from bot import render
from bot.games.registry import REGISTRY
from bot.render.common import Message
from bot.render.compose import hand_message
from bot.render.rematch import TOKEN as REMATCH
from bot.sessions.errors import ChannelGone, Later, MissingPermission, NotAllowed, Text
from bot.sessions.kinds import offered_move
from bot.sessions.languages import Languages
from bot.sessions.life import Life
from bot.sessions.links import Pages
from bot.sessions.lobbies import Lobbies, challenge_seats
from bot.sessions.moves import Moves
from bot.sessions.pacing import Budget
from bot.sessions.places import CHANNEL, INTERACTION
from bot.sessions.presenter import Announcer, Presenter
from bot.sessions.private import Places
from bot.sessions.records import TableRecord
from bot.sessions.rematch import Rematches
from bot.sessions.replay import Replays
from bot.sessions.resume import Resume
from bot.sessions.scheduler import Scheduler
from bot.sessions.servers import Servers
from bot.sessions.tables import Readers, Tables
from bot.sessions.threads import NO_THREADS, Room, Threads
from bot.sessions.view import message_of, view_of
from storage.contract import Store

log = logging.getLogger(__name__)


class SessionManager:
    """The parts, wired; and what joins several of them (why each method stays here):

    - `idle`, `close`: the scheduler, the rematches and the presenter, stopped or awaited in their order;
    - `open_table`: the server's settings (`Servers`), the challenge's seats, the lobby (`Lobbies`), its first
      message (`post_lobby` or `Answers.here` in an interaction-only place) and a computer game's start;
    - `post_lobby`: the presenter's first write, the lobby abandoned when Discord refuses it;
    - `cancel`: the server's rule of who may cancel (`Servers`) applied by `Life`;
    - `click`: one persistent button routed to the part its token names (lobby, life, moves, rematches);
    - `hand`, `table_view`, `choices`: a record (`Tables`) read with the presenter's and scheduler's facts;
    - `resume_all`: the tables (`Resume`) and then the rematches back after a restart;
    """

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
        self.store = store
        self.tables = Tables()
        self.readers = Readers()
        self.moves = Moves(store, self.tables, self.readers)
        self.life = Life(self.tables, self.moves)
        self.languages = Languages(store, self.readers, self.moves)
        self.servers = Servers(store, self.tables, default_timeout=default_timeout)
        self.resumer = Resume(store, self.tables, owns_guild=owns_guild)
        self.replays = Replays(store)  # past games: /history, and finished ones stepped through privately
        # The table's pages outside Discord: the web server installs itself here once it listens.
        self.pages = Pages()
        self.scheduler = Scheduler(
            computer_moves=self.moves.computer_moves, time_out=self.life.time_out, clock=clock
        )
        self.presenter = Presenter(
            announcer,
            store,
            facts=self.resumer.facts,
            deadline=self.scheduler.deadline,
            channel_gone=self.life.channel_gone,
            clock=clock,
            coalesce=coalesce,
            ping_after=ping_after,
            pacing=pacing,
            door=door,
            pages=self.pages,
        )
        # A game moves into a thread of its own (when its server plays in threads), opened by the presenter.
        self.lobbies = Lobbies(
            store,
            self.tables,
            self.readers,
            default_timeout=default_timeout,
            threads=Threads(store, self.presenter.homes.open_thread),
        )
        self.rematches = Rematches(
            store,
            self.tables,
            self.lobbies,
            latest=self.presenter.record,
            clock=clock,
            owns_guild=owns_guild,
            post=self.post_lobby,
            here=self.presenter.answers.here,
        )
        # The deadline first (the scheduler), then the channel (the presenter shows it), then the rematches.
        self.tables.stored.listen(self.scheduler.after)
        self.tables.stored.listen(self.presenter.heard)
        self.tables.stored.listen(self.rematches.after)
        self.bot_user_id = bot_user_id
        # Tables in DMs and group DMs of a user install, where the bot may only answer interactions.
        self.places = Places(self.tables, self.moves, self.lobbies, self.presenter)
        if present_now:
            self.presenter.start()

    async def idle(self) -> None:
        """Wait until no computer turn is in flight and the channel shows everything (tests, shutdown)."""
        for _ in range(100):
            await self.scheduler.idle()
            await self.presenter.idle()
            if not self.scheduler.busy():
                return

    async def close(self, flush: float = 5.0) -> None:
        """Stop timers and computer turns, give the channel up to `flush` seconds to show the last state, then
        stop writing. The stored state is complete: what is not shown by then, the next process shows."""
        await self.scheduler.close()
        await self.rematches.close()
        await self.languages.flush(flush)
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
        can_manage: bool = False,
        roles: Collection[int] = (),
        parent_id: int | None = None,
        room: Room = NO_THREADS,
        place: str = CHANNEL,
        language: str | None = None,
    ) -> TableRecord:
        """A new table of `kind` in the channel, filled as its spec says: an open lobby the host starts, or a
        challenge to `opponent` (challenging the bot itself starts a game against the computer at once).
        The server's settings may refuse it (its channels, its host role: `can_manage` and `roles` are the
        host's; `parent_id`: the channel of the thread it is opened in) and give the options the command
        left out. `room`: what Discord says of the channel, should the game start at once in a thread.
        `place` INTERACTION: a DM or group DM of a user install (bot/sessions/places.py), `language` the
        public language there (the opener's)."""
        if place == INTERACTION:
            self.places.may_open(kind)
        settings = await self.servers.of(guild_id)
        self.servers.may_open(settings, channel_id, can_manage=can_manage, roles=roles, parent_id=parent_id)
        options = self.servers.new_table_options(settings, kind, options or {})
        challenge = REGISTRY[kind].table == "challenge"
        vs_computer = challenge and self.bot_user_id is not None and opponent == self.bot_user_id
        players = challenge_seats(host_id, opponent, opponent_is_bot, vs_computer) if challenge else None
        record = await self.lobbies.open(
            kind=kind,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            options=options,
            players=players,
            language=self.languages.opening(guild_id, settings.language, language),
        )
        if place == INTERACTION:
            await self.presenter.answers.here(record)
        else:
            await self.post_lobby(record)
        if vs_computer:
            await self.lobbies.start_now(record, room)
        return self.tables.by_id(record.id) or record

    async def post_lobby(self, record: TableRecord) -> None:
        try:
            await self.presenter.post_now(record)
        except (MissingPermission, ChannelGone) as exc:
            await self.lobbies.abandon(record)
            what = exc.permission if isinstance(exc, MissingPermission) else "view_channel"
            raise NotAllowed("table.cannot_open", permission=Text(f"permission.{what}")) from None
        except Exception as exc:
            # Discord did not answer well: the table exists and its message follows when Discord recovers.
            log.warning("table %s: posting the lobby failed (%s); the presenter retries", record.id, exc)
            self.presenter.changed(record)

    # ------------------------------------------------------------------ life and clicks

    async def cancel(
        self, channel_id: int, user_id: int, *, can_manage: bool, roles: Collection[int] = ()
    ) -> Text:
        """The host cancels his table; members with Manage Server (`can_manage`) or the server's host role
        (among `roles`) any table."""
        settings = await self.servers.of(self.tables.require(channel_id).guild_id)
        anyone = self.servers.may_cancel_any(settings, can_manage=can_manage, roles=roles)
        return await self.life.cancel(channel_id, user_id, can_manage=anyone, role=settings.host_role)

    async def click(
        self,
        table_id: int,
        user_id: int,
        token: str,
        seq: int | None,
        *,
        can_manage: bool = False,
        roles: Collection[int] = (),
        locale: object = "en",
        room: Room = NO_THREADS,
        receipt: bool = True,
    ) -> Message | Text | Later | None:
        """A persistent button. Returns the clicker's private answer: a hand in his `locale`, or a `Text`.
        `room`: what Discord says of the channel clicked in (Start and Accept may open a thread)."""
        if token == REMATCH:  # on a finished table's message
            return await self.rematches.click(table_id, user_id, room)
        record = self.tables.by_id(table_id)
        if record is None:
            if self.presenter.answers.behind(table_id):
                return None  # a closed table of a DM its message has not shown: this click's answer does
            raise NotAllowed("table.closed")
        channel_id = record.channel_id
        if token in ("start", "accept"):
            lobbies = self.lobbies
            return await (lobbies.start if token == "start" else lobbies.accept)(channel_id, user_id, room)
        lobby = {
            "join": self.lobbies.join,
            "leave": self.lobbies.leave,
            "addbot": self.lobbies.add_computer,
            "decline": self.lobbies.decline,
        }
        if token in lobby:
            return await lobby[token](channel_id, user_id)
        if token == "cancel":
            return await self.cancel(channel_id, user_id, can_manage=can_manage, roles=roles)
        if token == "hand":
            return self.hand(channel_id, user_id, locale=locale)
        if token == "table":
            return self.table_view(channel_id, locale=locale)
        if seq is not None and seq != record.seq:
            raise NotAllowed("table.stale_button")
        action = render.parse_token(record.kind, token)
        if action is None:
            raise NotAllowed("table.stale_button")
        return await self.moves.act(channel_id, user_id, action, seq=seq, locale=locale, receipt=receipt)

    # ------------------------------------------------------------------ reading

    def hand(self, channel_id: int, user_id: int, *, locale: object = "en") -> Message:
        """The caller's hand, in his own language (`locale`): his private view."""
        record = self.tables.require(channel_id)
        me = str(user_id)
        if record.status == "lobby":
            raise NotAllowed("table.not_started")
        if me not in record.players:
            raise NotAllowed("table.not_playing")
        view = view_of(
            record,
            reader=me,
            locale=locale,
            pictures_off=self.presenter.pictures_off(record.id),
            picture=True,
            hand_buttons=True,
        )
        return hand_message(view)

    def table_view(self, channel_id: int, *, locale: object = "en") -> Message:
        """The public state as /table shows it privately: in the caller's language, with the newest moves."""
        record = self.tables.require(channel_id)
        view = view_of(
            record,
            steps=record.moves,
            deadline=self.scheduler.deadline(record.id),
            locale=locale,
            pictures_off=self.presenter.pictures_off(record.id),
            picture=True,
        )
        message = message_of(record, view)
        message.rows = [[b for b in row if b.token == "hand"] for row in message.rows]
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
        labelled in his language; the values stay in the engine's notation (namespace already in it)."""
        record = self.tables.in_channel(channel_id)
        if record is None or record.status != "running" or record.game is None:
            return []
        me = str(user_id)
        if record.game.current_player != me or record.seat_is_computer(me):
            return []
        namespace, _ = offered_move(namespace)
        offered = render.choices(record.kind, record.game, me, command, option, namespace, locale=locale)
        return [(label, f"{value}@{record.seq}") for label, value in offered]

    async def resume_all(self) -> int:
        """After a restart: every open table back from the store, its timers running; no Discord call (the
        presenter refreshes each table message once it may write, paced under the global limit)."""
        resumed = len(await self.resumer.resume_all())
        await self.rematches.resume()
        await self.resumer.unshown_ends()  # after the rematches: what they stored shows with the end
        return resumed
