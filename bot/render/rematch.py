"""A finished table's rematch as its message shows it (the composition places it, `bot.render.compose`): its
line and, while it is open, its button. The sessions keep its state (`bot.sessions.rematch`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import join, t
from bot.render.common import Button, RematchShown, click, name

TOKEN = "rematch"  # the button's action (its token)
OPEN, STARTED = "open", "started"


def button(table_id: int, *, locale: object) -> Button:
    return Button(label=t(locale, "rematch.button"), table=table_id, action=click(TOKEN), style="success")


def names(players: Sequence[str], locale: object) -> str:
    """Players as a worded param ("Alice and Bob", each a person's reference) in the reader's language."""
    return join(locale, [name(p, locale) for p in players])


def line(shown: RematchShown, *, locale: object) -> str:
    """What the finished table message says of its rematch."""
    if shown.outcome == STARTED:
        return t(locale, "rematch.line.started", table=shown.table or 0)
    if shown.outcome != OPEN:
        return t(locale, f"rematch.line.{shown.outcome}")
    if not shown.clicked:
        return t(locale, "rematch.line.offer", minutes=shown.minutes)
    clicked, waiting = names(shown.clicked, locale), names(shown.waiting, locale)
    return t(locale, "rematch.line.waiting", clicked=clicked, waiting=waiting)
