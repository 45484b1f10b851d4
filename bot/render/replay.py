"""The replay viewer as message data: the Replay button, the step counter and the four steering buttons.

A replay is stateless on Discord's side: every button's action names its table and the step it leads to
(`Action(token=<nav>, seq=<step>)`, `steers="replay"`; Discord's renderer makes its persistent custom id),
so a viewer opened before a restart keeps working after it. `nav` tells the four buttons apart (two of them
may lead to the same step) and says how the click is answered: `open` answers with a new private viewer,
the others update the viewer they are on.
"""

from __future__ import annotations

from bot.i18n import t
from bot.render.common import MAX_BUTTON_ROWS, MAX_BUTTONS_PER_ROW, Button, Message, click

NAVS = ("first", "back", "forward", "last")
OPEN = "open"


def replay_button(table_id: int, *, locale: object = "en") -> Button:
    """The Replay button of a finished table (its message, a /history answer): the viewer at the start."""
    label = t(locale, "replay.button.open")
    return Button(label=label, table=table_id, action=click(OPEN, 0), steers="replay")


def finished_rows(
    rows: list[list[Button]], table_id: int, status: str, *, locale: object = "en"
) -> list[list[Button]]:
    """A table message's rows, with the Replay button once its game is finished: on the last row while it has
    room, else on a row of its own, so the message stays within Discord's five buttons a row (other buttons
    may be there already). A game not finished offers no replay (its hands are still secret)."""
    if status != "finished":
        return rows
    button = replay_button(table_id, locale=locale)
    out = [list(row) for row in rows if row]
    if out and len(out[-1]) < MAX_BUTTONS_PER_ROW:
        out[-1].append(button)
    elif len(out) < MAX_BUTTON_ROWS:
        out.append([button])
    return out


def steering(table_id: int, step: int, steps: int, *, locale: object = "en") -> list[Button]:
    """First, back, forward, last: each leads to its step; those leading nowhere new are disabled."""
    targets = {"first": 0, "back": max(step - 1, 0), "forward": min(step + 1, steps), "last": steps}
    return [
        Button(
            label=t(locale, f"replay.button.{nav}"),
            table=table_id,
            action=click(nav, targets[nav]),
            steers="replay",
            style="primary" if nav == "forward" else "secondary",
            disabled=targets[nav] == step,
        )
        for nav in NAVS
    ]


def viewer(table: Message, table_id: int, step: int, steps: int, *, locale: object = "en") -> Message:
    """The private viewer of one step: the table message as it stood then (`table`, worded and drawn for the
    reader), headed by the step counter, with the steering buttons in place of the table's own."""
    if step == 0:
        counter = t(locale, "replay.counter_start", table=table_id, steps=steps)
    else:
        counter = t(locale, "replay.counter", table=table_id, step=step, steps=steps)
    content = f"{counter}\n{table.content}" if table.content else counter
    return Message(
        content=content,
        embeds=table.embeds,
        rows=[steering(table_id, step, steps, locale=locale)],
        mentions=[],  # it names the players as they stood; nobody is pinged by a replay
        picture=table.picture,
    )
