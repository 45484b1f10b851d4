"""A tournament's pictures: the standings (one line per entrant: place, name, points, the tie-breaks) and a
knockout's bracket (a column per round, each match its two names, the winner bright), drawn like the table
pictures (the felt, the bundled font) and readable at 360 px wide on a phone: no text below `SMALL`.

The caller words every heading and names every player (`printable` display names, or "Player N"); this
module draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.text import FELT_DARK, WHITE

TITLE, SUBTITLE, ROW, SIZE = 26, 20, 32, 22
DIM = (170, 200, 180)


@dataclass(frozen=True)
class Column:
    heading: str
    width: int  # pixels
    right: bool = True  # numbers sit right


def standings(
    title: str, subtitle: str, columns: Sequence[Column], rows: Sequence[Sequence[str]]
) -> Image.Image:
    """`rows`: each line's texts, one per column (the first two: place and name)."""
    height = MARGIN + TITLE + 8 + SUBTITLE + 14 + ROW * (len(rows) + 1) + MARGIN
    canvas = new_canvas(height)
    sp.draw_text(canvas, (MARGIN, MARGIN), sp.fit_text(sp.printable(title), TITLE, WIDTH - 2 * MARGIN), TITLE)
    y = MARGIN + TITLE + 8
    sp.draw_text(
        canvas, (MARGIN, y), sp.fit_text(sp.printable(subtitle), SUBTITLE, WIDTH - 2 * MARGIN), SUBTITLE, DIM
    )
    y += SUBTITLE + 14
    xs = _xs(columns)
    for (x, w), column in zip(xs, columns, strict=True):
        _cell(canvas, x, w, y, column.heading, column.right, DIM)
    draw = ImageDraw.Draw(canvas)
    for i, row in enumerate(rows):
        y += ROW
        if i % 2 == 0:
            draw.rectangle([MARGIN // 2, y - 3, WIDTH - MARGIN // 2, y + ROW - 5], fill=FELT_DARK)
        for (x, w), column, text in zip(xs, columns, row, strict=True):
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
    """One match of the bracket: its names (one: a bye, none yet: to be decided) and which of them won."""

    names: tuple[str, ...]
    winner: int | None = None


BOX_H, BOX_GAP = 58, 10


def bracket(title: str, headings: Sequence[str], rounds: Sequence[Sequence[Box]], bye: str) -> Image.Image:
    """A column per round; round r's match i sits between the two matches of round r-1 it follows. `bye`:
    what an empty seat of round one says."""
    first = max(1, len(rounds[0]) if rounds else 1)
    top = MARGIN + TITLE + 14 + SIZE + 10
    height = top + first * (BOX_H + BOX_GAP) + MARGIN
    canvas = new_canvas(height)
    sp.draw_text(canvas, (MARGIN, MARGIN), sp.fit_text(sp.printable(title), TITLE, WIDTH - 2 * MARGIN), TITLE)
    count = max(1, len(rounds))
    col = (WIDTH - 2 * MARGIN - (count - 1) * 10) // count
    draw = ImageDraw.Draw(canvas)
    for r, matches in enumerate(rounds):
        x = MARGIN + r * (col + 10)
        if r < len(headings):
            sp.draw_text(canvas, (x, MARGIN + TITLE + 14), sp.fit_text(headings[r], 18, col), 18, DIM)
        span = (BOX_H + BOX_GAP) * (2**r)
        for i, box in enumerate(matches):
            y = top + i * span + (span - BOX_H - BOX_GAP) // 2
            draw.rounded_rectangle([x, y, x + col, y + BOX_H], radius=8, fill=FELT_DARK, outline=DIM, width=2)
            for n in range(2):
                name = box.names[n] if n < len(box.names) else (bye if len(box.names) == 1 else "…")
                lit = box.winner is None or box.winner == n
                colour = WHITE if lit else DIM
                sp.draw_text(canvas, (x + 8, y + 4 + n * 26), sp.fit_text(name, 20, col - 14), 20, colour)
    return canvas
