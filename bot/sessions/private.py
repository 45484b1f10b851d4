"""The session front for the tables of interaction-only places (`SessionManager.places`): DMs and group DMs
of a user install, where the bot may only answer interactions (bot/sessions/places.py has the design)."""

from __future__ import annotations

import contextlib

from bot.games.registry import REGISTRY
from bot.sessions.errors import GameName, NotAllowed
from bot.sessions.lobbies import Lobbies
from bot.sessions.moves import Moves
from bot.sessions.places import FirstAnswer, MoveDialog, move_dialog
from bot.sessions.presenter import Presenter
from bot.sessions.tables import Tables


class Places:
    """What the cogs call for the tables of interaction-only places (`SessionManager.places`)."""

    def __init__(self, tables: Tables, moves: Moves, lobbies: Lobbies, presenter: Presenter) -> None:
        self.tables = tables
        self.moves = moves
        self.lobbies = lobbies
        self.presenter = presenter

    def may_open(self, kind: str) -> None:
        """Only a challenge game is played here (Malice): an open lobby (Insomnia) needs a server."""
        if REGISTRY[kind].table != "challenge":
            raise NotAllowed("dm.servers_only", game=GameName(kind, REGISTRY[kind].title))

    def first_answer(self, table_id: int) -> contextlib.AbstractAsyncContextManager[FirstAnswer | None]:
        """A table just opened here: its message, to send as the opening command's answer
        (`answer.sent(message_id, token)` once sent)."""
        return self.presenter.answers.first_answer(table_id)

    async def abandon(self, table_id: int) -> None:
        """A challenge whose message nobody saw (its answer failed): closed, so it holds no place."""
        record = self.tables.by_id(table_id)
        if record is not None:
            await self.lobbies.abandon(record)

    def behind(self, table_id: int) -> bool:
        """Whether the table message has not shown the newest state (a timeout, the other's moves)."""
        return self.presenter.answers.behind(table_id)

    def is_table_message(self, table_id: int, message_id: int) -> bool:
        """Whether `message_id` is the table's message now (True while the presenter has not read where it
        is, just after a restart: the click's answer tells)."""
        shown = self.presenter.message_id(table_id)
        return shown is None or shown == message_id

    def is_open(self, table_id: int) -> bool:
        return self.tables.by_id(table_id) is not None

    def move_dialog(self, table_id: int, user_id: int, *, locale: object) -> MoveDialog:
        """The private Move dialog of the player to move (the Move button of the table message)."""
        record = self.tables.by_id(table_id)
        if record is None:
            raise NotAllowed("table.closed")
        player = self.moves.check_actor(record, user_id)
        return move_dialog(record, player, locale=locale)
