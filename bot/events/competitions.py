"""The competitions of the process, beside its sessions: the runner (rounds, deadlines, start times) and the
service the /tournament commands ask. Built by the bot's composition root (`CardBot.setup_hook`) with what
they need; started after the tables are resumed, closed before the sessions."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.events.runner import Runner
from bot.events.service import Tournaments
from bot.sessions import SessionManager
from storage.contract import Store


class Competitions:
    def __init__(
        self,
        store: Store,
        sessions: SessionManager,
        *,
        clock: Callable[[], float] = time.time,
        owns_guild: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.runner = Runner(store, sessions, clock=clock, owns_guild=owns_guild)
        self.tournaments = Tournaments(store, sessions, self.runner, clock=clock)

    async def start(self) -> int:
        """Hear the tables' ends and take every running event up where the store has it. Returns how many."""
        self.runner.start()
        return await self.runner.resume()

    async def close(self) -> None:
        await self.runner.close()
