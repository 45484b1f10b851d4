"""Who reads in which language and by which name, and which language a server's tables speak.

An interaction tells the reader's language, his name as Discord shows it and his server's locale; a server
may choose its public language (`/settings language`). Its tables take the readers' facts with their next
stored change (`Readers.noted`) and speak the server's language from their next write on (`Moves.speak`).
"""

from __future__ import annotations

import asyncio
import logging

from bot.i18n import DEFAULT, resolve_locale
from bot.sessions.moves import Moves
from bot.sessions.tables import Readers
from storage.contract import Store

log = logging.getLogger(__name__)


class Languages:
    def __init__(self, store: Store, readers: Readers, moves: Moves) -> None:
        self.store = store
        self.readers = readers
        self.moves = moves
        self.guild_locales: dict[int, str] = {}  # guild id -> its locale, as its last interaction told it
        self._renames: set[asyncio.Task[None]] = set()  # names being stored (`saw`)

    def saw(
        self,
        user_id: int,
        locale: object,
        guild_id: int | None = None,
        guild_locale: object = None,
        display_name: str | None = None,
    ) -> None:
        """An interaction's languages and the user's name as Discord shows it: his DMs' language and the
        pictures' name once he sits at a table; the server's default public language for tables opened
        later."""
        if self.readers.saw(user_id, locale, display_name) and display_name:
            self._store_name(str(user_id), display_name)
        if guild_id is not None and guild_locale is not None:
            self.guild_locales[guild_id] = resolve_locale(guild_locale)

    def _store_name(self, player: str, name: str) -> None:
        """A name this process did not know him by, onto his seats at open tables and his entries of events
        not over (a restart's pictures name him from there); in the background: the interaction that showed
        it must answer within Discord's 3 s, and a name is no step of a game."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test calling in from outside): nothing to store with
            return

        async def store() -> None:
            try:
                await self.store.rename(player, name)
            except Exception:
                log.warning("storing the display name of %s failed", player, exc_info=True)

        task = loop.create_task(store())
        self._renames.add(task)
        task.add_done_callback(self._renames.discard)

    async def flush(self, timeout: float) -> None:
        """Give the names on their way to the store up to `timeout` seconds (a graceful stop)."""
        if self._renames:
            await asyncio.wait(set(self._renames), timeout=timeout)

    def opening(self, guild_id: int, chosen: str | None, opener: str | None = None) -> str:
        """A new table's public language: the server's choice, else the opener's (a DM of a user install),
        else the server's locale as its last interaction told it."""
        return chosen or opener or self.guild_locales.get(guild_id, DEFAULT)

    async def public(self, guild_id: int) -> str:
        """The language of a server's public messages: its `/settings language`, else its own locale."""
        chosen = await self.store.guild_language(guild_id)
        return chosen or self.guild_locales.get(guild_id, DEFAULT)

    async def choose(self, guild_id: int, language: str | None) -> str:
        """Store the server's choice (None: its own locale again); its open tables speak it from their next
        write on, their whole log included. Returns the language now in force."""
        await self.store.set_guild_language(guild_id, language)
        now = await self.public(guild_id)
        await self.moves.speak(guild_id, now)
        return now
