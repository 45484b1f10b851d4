"""Pieces both games' pictures lay out: chip counts, the dice row, a row of fanned cards, the status line, a
legend; each returns where it ends so the caller can place what follows without overlap."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import cache
from typing import Any

from PIL import Image

from bot.render.pictures import sprites as sp
from bot.render.pictures.labels import SeatNames


def chips(canvas: Image.Image, x: int, y: int, amount: int, size: int = 22, *, anchor: str = "l") -> int:
    """A chip icon and a number; with anchor "r" the pair ends at `x`. Returns the width."""
    text = str(amount)
    width = size + 6 + sp.text_size(text, size)[0]
    left = x - width if anchor == "r" else x
    sp.paste(canvas, sp.chip(size), (left, y + 2))
    sp.draw_text(canvas, (left + size + 6, y), text, size)
    return width


def dice_row(
    canvas: Image.Image,
    dice: Sequence[Any],
    x: int,
    y: int,
    size: int,
    gap: int,
    lang: str,
    marked: Collection[int] = (),
) -> int:
    """The four dice from `x`; returns the x after them. When some may be re-thrown (`marked`, 1-4), those
    are ringed and every die has its number below (the one /insomnia rethrow takes)."""
    for i, rank in enumerate(dice):
        if i + 1 in marked:
            sp.paste(canvas, sp.ring(size, size, 3, sp.LEGAL), (x - 3, y - 3))
        sp.paste(canvas, sp.die(rank, size, lang), (x, y))
        if marked:
            colour = sp.LEGAL if i + 1 in marked else sp.MUTED
            sp.draw_text(canvas, (x + size // 2, y + size + 5), str(i + 1), sp.SMALL, colour, anchor="m")
        x += size + gap
    return x


def fan_step(count: int, width: int, room: int, most: int) -> int:
    """How far apart `count` cards of `width` lie to fit in `room` pixels: `most` when they fit, closer when
    not (from about 9 cards of 46 px in a row, a 10's suit is partly hidden; its rank still shows)."""
    if count <= 1:
        return most
    return max(min(most, (room - width) // (count - 1)), 12)


def card_row(
    canvas: Image.Image,
    cards: Sequence[Any],
    x: int,
    y: int,
    width: int,
    room: int,
    lang: str,
    most: int | None = None,
) -> int:
    """Cards side by side from `x`, overlapping left to right when they need to (each card's top-left corner
    shows its rank and suit); returns the x after the last."""
    step = fan_step(len(cards), width, room, width + 8 if most is None else most)
    for i, c in enumerate(cards):
        sp.paste(canvas, sp.card(c, width, lang), (x + i * step, y))
    return x + (len(cards) - 1) * step + width if cards else x


def fit_names(
    make: Callable[[list[str]], str], players: Sequence[str], names: SeatNames, size: int, width: int
) -> str:
    """The sentence `make(labels)` naming `players` cut to `width` by shortening the names in it, each so
    that it still names its seat alone (`SeatNames.line`), so that "Maximilian Alexander von H… wins with 12
    chips" keeps its verb."""
    text = make([names(p) for p in players])
    if sp.text_size(text, size)[0] <= width:
        return text
    # Each name gets its share of the room the sentence leaves, less and less if kerning wants it.
    share = (width - sp.text_size(make([""] * len(players)), size)[0]) // max(len(players), 1)
    while share > 0:
        text = make([names.line(p, size, share) for p in players])
        if sp.text_size(text, size)[0] <= width:
            return text
        share -= 6
    return sp.fit_text(text, size, width)


def fitted_size(text: str, width: int, sizes: Sequence[int] = (20, 18)) -> int:
    """The largest of `sizes` at which `text` fits in `width` (the smallest when none does)."""
    return next((size for size in sizes if sp.text_size(text, size)[0] <= width), sizes[-1])


SEP = "  ·  "


def status_lines(what: str, who: str, size: int, room: int) -> int:
    """How many lines the status line takes: one when what is going on and whose turn it is fit side by
    side, else two (what on the first, who on the second)."""
    both = what + SEP + who if what and who else what or who
    return 1 if sp.text_size(both, size)[0] <= room else 2


def status(canvas: Image.Image, x: int, y: int, what: str, who: str, size: int, room: int) -> int:
    """The status line: what is going on in white, whose turn it is in the turn colour (already fitted by
    the caller, see `fit_names`); on two lines when they do not fit on one. Returns the lines drawn."""
    if status_lines(what, who, size, room) == 1:
        x += sp.draw_text(canvas, (x, y), what + SEP if what and who else what, size)
        sp.draw_text(canvas, (x, y), who, size, sp.TURN)
        return 1
    sp.draw_text(canvas, (x, y), sp.fit_text(what, size, room), size)
    sp.draw_text(canvas, (x, y + size + 8), sp.fit_text(who, size, room), size, sp.TURN)
    return 2


@cache
def ringed_card(width: int, colour: sp.RGB) -> Image.Image:
    """A small blank card in a ring of `colour`: a legend's swatch for that ring."""
    thickness = 3
    height = sp.card_height(width)
    swatch = sp.ring(width, height, thickness, colour).copy()
    swatch.alpha_composite(sp.blank_card(width), (thickness, thickness))
    return swatch


def legend(canvas: Image.Image, x: int, y: int, entries: Sequence[tuple[Image.Image, str]]) -> int:
    """A line of (swatch, meaning) pairs: what a mark's colour means. Returns the x after it."""
    for swatch, words in entries:
        sp.paste(canvas, swatch, (x, y + (22 - swatch.height) // 2))
        x += swatch.width + 6
        x += sp.draw_text(canvas, (x, y), words, sp.SMALL, sp.MUTED) + 18
    return x


def count_badge(canvas: Image.Image, x: int, y: int, n: int, width: int) -> None:
    """A pile's size on a badge at the top-right corner of a pile `width` wide at `x` (it stands 8 px out
    above the pile: a label above a pile leaves room for it)."""
    b = sp.badge(str(n), sp.MIN_SIZE, sp.INK, sp.WHITE)
    sp.paste(canvas, b, (x + width - b.width + 6, y - 8))


def pile(
    canvas: Image.Image,
    top: Any,
    count: int,
    x: int,
    y: int,
    width: int,
    lang: str,
    *,
    ring: sp.RGB | None = None,
) -> None:
    """A pile seen from above: its top card (or an empty slot), its size on a badge; ringed in `ring`."""
    if ring is not None:
        sp.paste(canvas, sp.ring(width, sp.card_height(width), 4, ring), (x - 4, y - 4))
    if top is None:
        sp.paste(canvas, sp.slot(width), (x, y))
    else:
        if count > 1:  # the edge of the cards below, so a pile looks like a pile
            sp.paste(canvas, sp.back(width), (x + 3, y + 3))
        sp.paste(canvas, sp.card(top, width, lang), (x, y))
    if count:
        count_badge(canvas, x, y, count, width)
