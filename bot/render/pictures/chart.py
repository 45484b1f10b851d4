"""The /stats chart: a person's chips and rating over the season, game by game, drawn like the table
pictures (the felt, the bundled font, every text at least `SMALL`).

One panel per series, stacked: first the chips (his running net, from 0 before his first game of the
season, a dashed line at 0 when it crosses it), then his rating in each game he has rated games of. Each
panel is headed by what it shows and where it ends (the text beside the chart says the same in words), its
highest and lowest value at its left, and the games counted along its foot ("Game 1 2 3 …", every second
or fifth number when they would crowd, the last always). Games are evenly spaced: the order matters, not
the days between. The caller words the headings and the axis (`Panel`); this module draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import signed
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import shorten

HEAD = 34  # a panel's heading line
PLOT_H = 96
AXIS_H = 26  # the game numbers under a plot
TICK_ROOM = 14  # the least room between two game numbers
GAP = 18
AXIS_W = 70  # the values' column left of the plot
DOT = 5
LINE = 3
OVERSAMPLE = 4


@dataclass(frozen=True)
class Panel:
    """One series: its heading (worded), its values game by game, and whether they are signed (chips).
    `axis` names the games along the foot ("Game"); `first` is the number of the first value's game (0: the
    start, before the first game, which gets no number)."""

    heading: str
    values: tuple[int, ...]
    signed: bool = False
    axis: str = ""
    first: int = 1


NAME = 26  # whose chart it is, over the panels
NAME_H = 40


def chart_height(panels: int, named: bool = False) -> int:
    return MARGIN + (NAME_H if named else 0) + panels * (HEAD + PLOT_H + AXIS_H + GAP) - GAP + MARGIN + 6


def draw(panels: Sequence[Panel], *, locale: object = "en", name: str = "") -> Image.Image:
    """The panels, stacked; `name`: whose chart it is (his drawn name, `labels.drawn_name`), on top, cut by
    the rule every picture cuts names by."""
    canvas = new_canvas(chart_height(len(panels), bool(name)))
    y = MARGIN
    if name:
        sp.draw_text(canvas, (MARGIN, y), shorten(name, [name], NAME, WIDTH - 2 * MARGIN)[0], NAME)
        y += NAME_H
    for panel in panels:
        sp.draw_text(canvas, (MARGIN, y), sp.fit_text(panel.heading, 22, WIDTH - 2 * MARGIN), 22)
        _plot(canvas, panel, y + HEAD, locale)
        y += HEAD + PLOT_H + AXIS_H + GAP
    return canvas


def _plot(canvas: Image.Image, panel: Panel, top: int, locale: object) -> None:
    left, right = MARGIN + AXIS_W, WIDTH - MARGIN - 12
    bottom = top + PLOT_H - 8
    sp.paste(canvas, sp.panel(WIDTH - 2 * MARGIN, PLOT_H + AXIS_H), (MARGIN, top - 4))
    values = list(panel.values)
    high, low = max(values), min(values)
    if high == low:  # a flat line sits in the middle
        high, low = high + 1, low - 1

    def word(v: int) -> str:
        return signed(locale, v) if panel.signed else str(v)  # a rating reads as one figure, never grouped

    if max(values) == min(values):  # one value: once, beside its line
        middle = (top + bottom) // 2 - 11
        sp.draw_text(canvas, (left - 10, middle), word(values[0]), sp.SMALL, sp.MUTED, anchor="r")
    else:
        sp.draw_text(canvas, (left - 10, top), word(high), sp.SMALL, sp.MUTED, anchor="r")
        sp.draw_text(canvas, (left - 10, bottom - 20), word(low), sp.SMALL, sp.MUTED, anchor="r")

    def at(i: int, v: int) -> tuple[float, float]:
        x = left + (right - left) * (i / (len(values) - 1) if len(values) > 1 else 0.5)
        return x, top + 8 + (bottom - top - 16) * (high - v) / (high - low)

    width, height = right - left + 2 * DOT, bottom - top + 2 * DOT
    mask = Image.new("L", (width * OVERSAMPLE, height * OVERSAMPLE))
    pen = ImageDraw.Draw(mask)

    def big(x: float, y: float) -> tuple[float, float]:
        return (x - left + DOT) * OVERSAMPLE, (y - top + DOT) * OVERSAMPLE

    if panel.signed and low < 0 < high:  # the zero line, dashed
        _, zero = at(0, 0)
        for dash in range(left, right, 14):
            pen.line([big(dash, zero), big(min(dash + 7, right), zero)], fill=140, width=OVERSAMPLE * 2)
    points = [big(*at(i, v)) for i, v in enumerate(values)]
    if len(points) > 1:
        pen.line(points, fill=255, width=LINE * OVERSAMPLE, joint="curve")
    r = DOT * OVERSAMPLE
    for px, py in points:
        pen.ellipse([px - r, py - r, px + r, py + r], fill=255)
    small = mask.resize((width, height), Image.Resampling.LANCZOS)
    canvas.paste(sp.WHITE, (left - DOT, top - DOT), small)
    _games(canvas, panel, [at(i, 0)[0] for i in range(len(values))], bottom + 8)


def ticks(first: int, xs: Sequence[float]) -> list[int]:
    """Which points get their game's number: every one, or every 2nd, 5th, 10th… when the numbers would
    crowd, and the last (in place of the one before it when they are too close). Indices into `xs`."""
    numbered = [i for i in range(len(xs)) if first + i >= 1]
    if not numbered:
        return []
    last = numbered[-1]
    room = sp.text_size(str(first + last), sp.SMALL)[0] + TICK_ROOM
    pitch = (xs[-1] - xs[0]) / (len(xs) - 1) if len(xs) > 1 else room
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if n * pitch >= room)
    chosen = [i for i in numbered if (first + i) % every == 0]
    if chosen and chosen[-1] != last and xs[last] - xs[chosen[-1]] < room:
        chosen.pop()
    return [*chosen, last] if last not in chosen else chosen


def _games(canvas: Image.Image, panel: Panel, xs: list[float], y: int) -> None:
    """The games along the panel's foot: the axis' name left of the plot, each chosen game's number."""
    sp.draw_text(canvas, (MARGIN + AXIS_W - 10, y), panel.axis, sp.SMALL, sp.MUTED, anchor="r")
    for i in ticks(panel.first, xs):
        sp.draw_text(canvas, (round(xs[i]), y), str(panel.first + i), sp.SMALL, sp.MUTED, anchor="m")
