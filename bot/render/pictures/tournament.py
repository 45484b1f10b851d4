"""A tournament's pictures: the standings (one line per entrant: place, name, points, the tie-breaks) and a
knockout's bracket (a column per round, each match its two names, the winner bright with a star, the loser
dim, a no-show said as such under the match, a bye as the second line, the champion named under it all),
drawn like the table pictures (the felt, the shipped font) and readable at 360 px wide on a phone: no text
below `SMALL`.

The caller words every heading and names every player (his drawn name, `labels.drawn_name`); this module
fits each name to its room by the one rule every picture cuts names by (`labels.shorten`: it still reads as
that entrant alone among `names`) and draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import shorten
from bot.render.pictures.text import FELT_DARK, WHITE

TITLE, SUBTITLE, ROW, SIZE = 26, 20, 32, 22
DIM = (170, 200, 180)


@dataclass(frozen=True)
class Column:
    heading: str
    width: int  # pixels
    right: bool = True  # numbers sit right


def standings(
    title: str,
    subtitle: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    names: Sequence[str] = (),
) -> Image.Image:
    """`rows`: each line's texts, one per column (the first two: place and name); `names`: every entrant's
    drawn name, which a cut name must still tell apart (the second column is cut by that rule)."""
    height = MARGIN + TITLE + 8 + SUBTITLE + 14 + ROW * (len(rows) + 1) + MARGIN
    canvas = new_canvas(height)
    sp.draw_text(canvas, (MARGIN, MARGIN), sp.fit_text(title, TITLE, WIDTH - 2 * MARGIN), TITLE)
    y = MARGIN + TITLE + 8
    sp.draw_text(canvas, (MARGIN, y), sp.fit_text(subtitle, SUBTITLE, WIDTH - 2 * MARGIN), SUBTITLE, DIM)
    y += SUBTITLE + 14
    xs = _xs(columns)
    for (x, w), column in zip(xs, columns, strict=True):
        _cell(canvas, x, w, y, column.heading, column.right, DIM)
    draw = ImageDraw.Draw(canvas)
    for i, row in enumerate(rows):
        y += ROW
        if i % 2 == 0:
            draw.rectangle([MARGIN // 2, y - 3, WIDTH - MARGIN // 2, y + ROW - 5], fill=FELT_DARK)
        for c, ((x, w), column, text) in enumerate(zip(xs, columns, row, strict=True)):
            if c == 1:
                text = shorten(text, names or [text], SIZE, w)[0]
            _cell(canvas, x, w, y, text, column.right, WHITE)
    return canvas


def _xs(columns: Sequence[Column]) -> list[tuple[int, int]]:
    out, x = [], MARGIN
    for column in columns:
        out.append((x, column.width))
        x += column.width + 8
    return out


def _cell(
    canvas: Image.Image, x: int, w: int, y: int, text: str, right: bool, colour: tuple[int, int, int]
) -> None:
    text = sp.fit_text(text, SIZE, w)
    if right:
        sp.draw_text(canvas, (x + w, y), text, SIZE, colour, anchor="r")
    else:
        sp.draw_text(canvas, (x, y), text, SIZE, colour)


@dataclass(frozen=True)
class Box:
    """One match of the bracket: its names (one: a bye, none yet: to be decided), which of them won, and
    what is said under it (a no-show: "Anna: no-show")."""

    names: tuple[str, ...]
    winner: int | None = None
    note: str = ""


BOX_H, BOX_GAP, LINE, NOTE = 58, 10, 26, 22
NAME = 18  # a match's names: the room of a column of three, the telling end of two alike names kept
STAR = 14


def bracket(
    title: str,
    headings: Sequence[str],
    rounds: Sequence[Sequence[Box]],
    bye: str,
    names: Sequence[str] = (),
    champion: str = "",
) -> Image.Image:
    """A column per round; round r's match i sits between the two matches of round r-1 it follows. `bye`:
    what an empty seat of round one says; `names`: every entrant's drawn name (a cut keeps them apart);
    `champion`: the line under the bracket once the final is won."""
    first = max(1, len(rounds[0]) if rounds else 1)
    box_h = BOX_H + (NOTE if any(b.note for matches in rounds for b in matches) else 0)
    top = MARGIN + TITLE + 14 + SIZE + 10
    height = top + first * (box_h + BOX_GAP) + MARGIN + (SIZE + 14 if champion else 0)
    canvas = new_canvas(height)
    sp.draw_text(canvas, (MARGIN, MARGIN), sp.fit_text(title, TITLE, WIDTH - 2 * MARGIN), TITLE)
    count = max(1, len(rounds))
    col = (WIDTH - 2 * MARGIN - (count - 1) * 10) // count
    draw = ImageDraw.Draw(canvas)
    for r, matches in enumerate(rounds):
        x = MARGIN + r * (col + 10)
        if r < len(headings):
            sp.draw_text(canvas, (x, MARGIN + TITLE + 14), sp.fit_text(headings[r], 18, col), 18, DIM)
        span = (box_h + BOX_GAP) * (2**r)
        for i, box in enumerate(matches):
            y = top + i * span + (span - box_h - BOX_GAP) // 2
            draw.rounded_rectangle([x, y, x + col, y + box_h], radius=8, fill=FELT_DARK, outline=DIM, width=2)
            _box(canvas, box, x, y, col, bye, names)
    if champion:
        y = height - MARGIN - SIZE - 6
        sp.paste(canvas, sp.star(STAR + 6, sp.TURN), (MARGIN, y + 2))
        room = WIDTH - 2 * MARGIN - STAR - 16
        sp.draw_text(canvas, (MARGIN + STAR + 14, y), sp.fit_text(champion, SIZE, room), SIZE, sp.TURN)
    return canvas


def _box(canvas: Image.Image, box: Box, x: int, y: int, col: int, bye: str, names: Sequence[str]) -> None:
    """A match's two lines (the winner's bright, with a star at its end; the loser's dim) and its note."""
    for n in range(2):
        if n < len(box.names):
            room = col - 14 - (STAR + 6 if box.winner == n else 0)
            text = shorten(box.names[n], names or box.names, NAME, room)[0]
        else:
            text = bye if len(box.names) == 1 else "…"
        lit = box.winner is None or box.winner == n
        line_y = y + 4 + n * LINE
        sp.draw_text(canvas, (x + 8, line_y + 1), text, NAME, WHITE if lit else DIM)
        if box.winner == n:
            sp.paste(canvas, sp.star(STAR, sp.TURN), (x + col - STAR - 8, line_y + 6))
    if box.note:
        note = sp.fit_text(box.note, sp.SMALL, col - 14)
        sp.draw_text(canvas, (x + 8, y + 4 + 2 * LINE), note, sp.SMALL, DIM)
