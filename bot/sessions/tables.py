"""The open tables of this process: the newest published record of each, by channel and by id, one lock per
channel, and who reads in which language.

Every stored change goes through `publish`: the record replaces the old one (a closed table leaves the index)
and the `stored` signal tells the scheduler and the presenter. Nobody changes a record: a change is a new one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping

from bot.i18n import resolve_locale
from bot.render.common import channel
from bot.sessions.errors import NotAllowed
from bot.sessions.facts import Stored, fact_of
from bot.sessions.records import SessionState, TableRecord


class Tables:
    def __init__(self) -> None:
        self._by_channel: dict[int, TableRecord] = {}
        self._channel_of: dict[int, int] = {}  # table id -> channel id
        self._locks: dict[int, asyncio.Lock] = {}
        self.stored = Stored()

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    def in_channel(self, channel_id: int) -> TableRecord | None:
        return self._by_channel.get(channel_id)

    def by_id(self, table_id: int) -> TableRecord | None:
        channel_id = self._channel_of.get(table_id)
        return None if channel_id is None else self._by_channel.get(channel_id)

    def require(self, channel_id: int) -> TableRecord:
        record = self._by_channel.get(channel_id)
        if record is None:
            threads = self.threads_of(channel_id)
            if threads:  # asked in the channel whose games play in their threads: name them
                raise NotAllowed("table.in_threads", threads=", ".join(channel(t) for t in threads))
            raise NotAllowed("table.no_game")
        return record

    def threads_of(self, channel_id: int) -> list[int]:
        """The threads where games opened in this channel play now, oldest first."""
        return sorted(r.channel_id for r in self._by_channel.values() if r.home_channel_id == channel_id)

    def all(self) -> list[TableRecord]:
        return list(self._by_channel.values())

    def is_current(self, record: TableRecord) -> bool:
        """Whether `record`'s table is still the open one in its channel (a closed or replaced one is not)."""
        now = self._by_channel.get(record.channel_id)
        return now is not None and now.id == record.id

    def add(self, record: TableRecord) -> None:
        """A table opened or resumed; published like every change."""
        self.publish(record)

    def publish(self, record: TableRecord) -> None:
        """The newest stored state of a table: kept while open, then the signal, as its fact."""
        was_open = self.is_current(record)
        if record.is_open:
            moved_from = self._channel_of.get(record.id)
            # Its game went into a thread of its own: the channel is free for the next table.
            left = None if moved_from in (None, record.channel_id) else self._by_channel.get(moved_from)
            if left is not None and left.id == record.id and moved_from is not None:
                del self._by_channel[moved_from]
            self._by_channel[record.channel_id] = record
            self._channel_of[record.id] = record.channel_id
        elif was_open:
            del self._by_channel[record.channel_id]
            self._channel_of.pop(record.id, None)
        self.stored.emit(fact_of(record, was_open=was_open))


class Readers:
    """Who reads in which language, and the names Discord shows, as each person's last interaction told
    them; a table takes them into its session state with its next stored change."""

    def __init__(self) -> None:
        self.locales: dict[str, str] = {}
        self.names: dict[str, str] = {}

    def saw(self, user_id: int, locale: object, display_name: str | None = None) -> bool:
        """Note what an interaction showed; True when it showed a name this process did not know him by
        (the caller stores it with his seats and entries)."""
        if locale is not None:
            self.locales[str(user_id)] = resolve_locale(locale)
        if display_name and self.names.get(str(user_id)) != display_name:
            self.names[str(user_id)] = display_name
            return True
        return False

    def know(self, names: Mapping[str, str | None]) -> None:
        """Names as stored (an event's entrants after a restart): taken where no interaction told newer."""
        for player, name in names.items():
            if name:
                self.names.setdefault(player, name)

    def noted(self, session: SessionState, players: Iterable[str]) -> SessionState:
        """`session` with the seated people's languages and names as last seen (the same object if none
        changed)."""
        locales, names = dict(session.locales), dict(session.names)
        for p in players:
            if p in self.locales:
                locales[p] = self.locales[p]
            if p in self.names:
                names[p] = self.names[p]
        if locales == session.locales and names == session.names:
            return session
        return session.model_copy(update={"locales": locales, "names": names})
