"""The table's pages outside Discord (the web's live page and replay, the Activity: `bot.web`): one hook,
asked each time the table message is composed, for facts (signed URLs, whether the Activity is on); the
composition words and places their buttons (`bot.render.compose`)."""

from __future__ import annotations

from typing import Protocol

from bot.render.common import MAX_BUTTON_ROWS, MAX_BUTTONS_PER_ROW, Button, Message, PageLinks
from bot.sessions.records import TableRecord


class Links(Protocol):
    async def pages(self, record: TableRecord) -> PageLinks | None:
        """The table's pages (None: none for it)."""
        ...


class Pages:
    """Where the table's pages come from: none until a surface outside Discord serves them. Made with the
    sessions; the web server installs itself once it listens (its address known only then) and removes itself
    when it closes, as a pair. One at a time: a second is a bug."""

    def __init__(self) -> None:
        self._links: Links | None = None

    def install(self, links: Links) -> None:
        if self._links is not None:
            raise ValueError("the table's pages are already served")
        self._links = links

    def remove(self, links: Links) -> None:
        if self._links is links:
            self._links = None

    async def pages(self, record: TableRecord) -> PageLinks | None:
        return await self._links.pages(record) if self._links is not None else None


def with_links(message: Message, buttons: list[Button]) -> Message:
    """The message with the link buttons at the end of its last row while it has room, else on a row of
    their own (within Discord's five rows of five)."""
    rows = [list(row) for row in message.rows if row]
    for button in buttons:
        if rows and len(rows[-1]) < MAX_BUTTONS_PER_ROW:
            rows[-1].append(button)
        elif len(rows) < MAX_BUTTON_ROWS:
            rows.append([button])
    message.rows = rows
    return message
