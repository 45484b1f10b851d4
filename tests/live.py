"""A test's handle on a table: the newest record the session layer published for it.

Records are immutable (each stored change publishes a new one), so a test that opened a table and then plays
reads the table as it stands through this handle, as a player would look at the channel again."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.discord_out import discord_words
from bot.sessions import SessionManager
from bot.sessions.facts import TableFact
from bot.sessions.records import TableRecord
from bot.sessions.view import Line, log_of, table_info, word_note


class Live:
    def __init__(self, sessions: SessionManager, record: TableRecord) -> None:
        self._sessions = sessions
        self.record = record
        self._message_id: int | None = None
        sessions.tables.stored.listen(self._update)

    def _update(self, fact: TableFact) -> None:
        record = fact.record
        if record.id == self.record.id and record.revision >= self.record.revision:
            self.record = record
            self._message_id = self._sessions.presenter.message_id(record.id) or self._message_id

    def __getattr__(self, name: str) -> Any:
        return getattr(self.record, name)

    @property
    def message_id(self) -> int | None:
        """The table message's id, as the presenter keeps it."""
        self._message_id = self._sessions.presenter.message_id(self.record.id) or self._message_id
        return self._message_id

    def info(self):
        return table_info(self.record)

    def log_lines(self, locale: object = None) -> list[Line]:
        """The log of the steps the record carries, worded now (in the table's language by default), as
        Discord's renderer draws it in the table's channel."""
        locale = self.record.language if locale is None else locale
        lines = log_of(self.record, self.record.moves, locale=locale)
        return [replace(line, text=discord_words(line.text)) for line in lines]

    def banner(self, locale: object = None) -> str | None:
        banner = self.record.session.banner
        if banner is None:
            return None
        return word_note(banner, self.record.language if locale is None else locale)


class TestSessions(SessionManager):
    """The session manager whose `open_table` hands the test a live handle."""

    __test__ = False

    async def open_table(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return Live(self, await super().open_table(*args, **kwargs))

    def table_in(self, channel_id: int) -> Any:
        """The channel's table as a live handle (the tests' shorthand for `tables.in_channel`)."""
        record = self.tables.in_channel(channel_id)
        return None if record is None else Live(self, record)
