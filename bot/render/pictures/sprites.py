"""The pieces every picture is made of: cards, card backs, dice, chips and suit shapes, each drawn once, and
the colours they are drawn in.

Every sprite is cached (`functools.cache` on small immutable keys: there are 53 cards, 6 dice faces, a few
sizes), so drawing a table is mostly pasting. Suits are shapes, not font glyphs: Pillow's bundled font has no
suit symbols, and a shape plus a colour means colour is never the only signal. The four-colour deck (spades
black, hearts red, diamonds blue, clubs green) is the online-poker convention: at phone size the colour tells
the suits apart at a glance, the shape when colour does not.

One meaning per colour, in every picture:
- `TURN` (gold): whose turn it is. Only on the table: his seat's border and name, and the words of the status
  line that name him ("Anna to play").
- `LEGAL` (sky blue): a move you may make now. Only in your hand picture: the ring around a card, pile or
  die you may choose, the tag under it (PLAY, C2, 3) and the hint line that says what the marks mean.
- `LAST` (white ring): the card played last (the Malice table, with a legend line saying so).
- `WHITE` text: names and values; `MUTED` text: what a value is (labels), and what you may not do now.
- The suits' four colours, the red card back, the red-and-white chip and the ivory dice mean only themselves.
No other colour marks anything: a trick's winning card is marked by a star beside its player's name.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.games.cards import Card, Rank, Suit
from bot.i18n.cards import format_rank
from bot.render.pictures.text import (
    FELT_DARK,
    MIN_SIZE,
    RGB,
    WHITE,
    draw_text,
    fit_text,
    font,
    printable,
    record,
    text_mask,
    text_size,
)

__all__ = [
    "FELT_DARK",
    "MIN_SIZE",
    "RGB",
    "WHITE",
    "draw_text",
    "fit_text",
    "font",
    "printable",
    "text_mask",
    "text_size",
]

FELT: RGB = (36, 104, 72)  # opaque mid-tone: readable around it in Discord's light and dark themes
INK: RGB = (24, 24, 28)
PAPER: RGB = (252, 251, 245)
TURN: RGB = (255, 196, 36)
LEGAL: RGB = (92, 204, 255)
LAST: RGB = WHITE
MUTED: RGB = (196, 222, 206)
SUIT_COLOURS: dict[Suit | None, RGB] = {
    Suit.SPADES: (22, 22, 26),
    Suit.HEARTS: (206, 28, 44),
    Suit.DIAMONDS: (28, 86, 204),
    Suit.CLUBS: (18, 124, 58),
    None: (128, 36, 160),  # the joker
}
BACK: RGB = (150, 32, 44)
IVORY: RGB = (244, 236, 214)  # a die's face: warmer than a card's paper
IVORY_SIDE: RGB = (178, 160, 122)  # a die's sides below and right of its face: a cube, not a flat card
SMALL = 18  # the usual small text: about 11 px when Discord shows the picture 360 px wide on a phone
OVERSAMPLE = 4  # shapes are drawn this much larger, then scaled down: Pillow's polygons are not antialiased


# --- shapes ------------------------------------------------------------------------------------------------


def _scaled(mask: Image.Image, size: tuple[int, int]) -> Image.Image:
    return mask.resize(size, Image.Resampling.LANCZOS)


@cache
def suit_mask(suit: Suit | None, size: int) -> Image.Image:
    """The shape of a suit (or the joker's star) as an antialiased "L" mask of `size` x `size`."""
    s = size * OVERSAMPLE
    mask = Image.new("L", (s, s))
    d = ImageDraw.Draw(mask)
    if suit is Suit.DIAMONDS:
        d.polygon([(s / 2, 0), (s * 0.88, s / 2), (s / 2, s), (s * 0.12, s / 2)], fill=255)
    elif suit is Suit.HEARTS:
        r = s * 0.27
        d.ellipse([s * 0.02, s * 0.06, s * 0.02 + 2 * r, s * 0.06 + 2 * r], fill=255)
        d.ellipse([s * 0.98 - 2 * r, s * 0.06, s * 0.98, s * 0.06 + 2 * r], fill=255)
        d.polygon([(s * 0.04, s * 0.42), (s * 0.96, s * 0.42), (s / 2, s * 0.98)], fill=255)
        d.rectangle([s * 0.3, s * 0.2, s * 0.7, s * 0.5], fill=255)
    elif suit is Suit.SPADES:
        r = s * 0.25
        d.polygon([(s / 2, 0), (s * 0.95, s * 0.52), (s * 0.05, s * 0.52)], fill=255)
        d.ellipse([s * 0.03, s * 0.32, s * 0.03 + 2 * r, s * 0.32 + 2 * r], fill=255)
        d.ellipse([s * 0.97 - 2 * r, s * 0.32, s * 0.97, s * 0.32 + 2 * r], fill=255)
        d.polygon([(s / 2, s * 0.6), (s * 0.7, s), (s * 0.3, s)], fill=255)
    elif suit is Suit.CLUBS:
        r = s * 0.23
        for cx, cy in ((s / 2, s * 0.25), (s * 0.25, s * 0.55), (s * 0.75, s * 0.55)):
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=255)
        d.rectangle([s * 0.4, s * 0.3, s * 0.6, s * 0.6], fill=255)
        d.polygon([(s / 2, s * 0.5), (s * 0.72, s), (s * 0.28, s)], fill=255)
    else:  # a five-pointed star for the joker
        points = []
        for i in range(10):
            radius = s / 2 if i % 2 == 0 else s * 0.2
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((s / 2 + radius * math.cos(angle), s * 0.53 + radius * math.sin(angle)))
        d.polygon(points, fill=255)
    return _scaled(mask, (size, size))


@cache
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    s = OVERSAMPLE
    mask = Image.new("L", (width * s, height * s))
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, width * s - 1, height * s - 1], radius * s, fill=255)
    return _scaled(mask, (width, height))


def _blank(
    width: int, height: int, fill: RGB, border: RGB, border_width: int = 1, radius: int | None = None
) -> Image.Image:
    """A rounded rectangle sprite (RGBA, transparent corners) with a border."""
    radius = radius or max(3, width // 10)
    sprite = Image.new("RGBA", (width, height), (*border, 0))
    sprite.paste(border, (0, 0), rounded_mask(width, height, radius))
    inner = rounded_mask(width - 2 * border_width, height - 2 * border_width, max(2, radius - border_width))
    sprite.paste(fill, (border_width, border_width), inner)
    return sprite


# --- cards -------------------------------------------------------------------------------------------------


def card_height(width: int) -> int:
    return round(width * 1.4)


@cache
def card(c: Card, width: int, lang: str = "en") -> Image.Image:
    """A face-up card: rank and suit in the top-left corner (all a fanned stack shows), a big suit below. The
    rank as the reader writes it (`lang` "de": B and D for jack and queen, as the German text says)."""
    height = card_height(width)
    sprite = _blank(width, height, PAPER, (120, 120, 120))
    colour = SUIT_COLOURS[c.suit]
    corner = max(12, round(width * 0.36))
    pad = max(3, width // 14)
    text = "JK" if c.is_joker or c.rank is None else format_rank(c.rank, lang)
    ink_top = round(font(corner).getbbox(text)[1])  # the font's own space above capitals: a fan hides less
    x = pad + draw_text(sprite, (pad, pad - ink_top), text, corner, colour, shadow=False)
    cap = round(font(corner).getbbox("A")[3] - font(corner).getbbox("A")[1])
    if not c.is_joker:
        pip = round(cap * 0.95)
        sprite.paste(colour, (x + 1, pad + (cap - pip) // 2), suit_mask(c.suit, pip))
    big = round(width * 0.56)
    top = pad + corner + (height - pad - corner - big) // 2
    sprite.paste(colour, ((width - big) // 2, top), suit_mask(c.suit, big))
    return sprite


@cache
def card_top(c: Card, width: int, lang: str, shown: int) -> Image.Image:
    """The part of a card a fan shows when the next card lies `shown` pixels lower: those rows, and the rows
    the next card's rounded corners let through (its rows above its opaque middle, `_bands`: below them a
    card laid on another hides everything)."""
    sprite = card(c, width, lang)
    bands = _bands(sprite)
    corner = bands[0].height if bands is not None else sprite.height
    return sprite.crop((0, 0, width, min(sprite.height, shown + corner)))


@cache
def blank_card(width: int) -> Image.Image:
    """A card's face with nothing on it (a legend's swatch)."""
    return _blank(width, card_height(width), PAPER, (120, 120, 120))


@cache
def back(width: int) -> Image.Image:
    """A card back: a plain lattice, so a hidden card never looks like any face."""
    height = card_height(width)
    sprite = _blank(width, height, WHITE, (90, 90, 90))
    inset = max(2, width // 12)
    panel = Image.new("RGB", (width - 2 * inset, height - 2 * inset), BACK)
    d = ImageDraw.Draw(panel)
    step = max(5, width // 6)
    for i in range(-panel.height, panel.width, step):
        d.line([(i, 0), (i + panel.height, panel.height)], fill=(186, 70, 78), width=1)
        d.line([(i, panel.height), (i + panel.height, 0)], fill=(186, 70, 78), width=1)
    sprite.paste(panel, (inset, inset), rounded_mask(panel.width, panel.height, max(2, width // 14)))
    return sprite


@cache
def slot(width: int) -> Image.Image:
    """An empty place for a card (a free centre slot, an empty side stack): a faint outline."""
    height = card_height(width)
    sprite = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle([0, 0, width - 1, height - 1], max(3, width // 10), outline=(*MUTED, 160), width=2)
    return sprite


@cache
def ring(width: int, height: int, thickness: int = 4, colour: RGB = LEGAL) -> Image.Image:
    """An outline around a sprite of `width` x `height`: `LEGAL` (a move you may make) or `LAST` (the card
    played last), with a thin dark edge inside so it shows against a white card as well as on the felt."""
    w, h = width + 2 * thickness, height + 2 * thickness
    s = OVERSAMPLE
    radius = (max(3, width // 10) + thickness) * s
    box = [0, 0, w * s - 1, h * s - 1]
    outer = Image.new("L", (w * s, h * s))
    ImageDraw.Draw(outer).rounded_rectangle(box, radius, outline=255, width=thickness * s)
    edge = Image.new("L", (w * s, h * s))
    inset = thickness * s - s
    inner_box = [inset, inset, w * s - 1 - inset, h * s - 1 - inset]
    ImageDraw.Draw(edge).rounded_rectangle(inner_box, radius - inset, outline=255, width=s)
    sprite = Image.new("RGBA", (w, h), (*colour, 0))
    sprite.putalpha(_scaled(outer, (w, h)))
    dark = Image.new("RGBA", (w, h), (*FELT_DARK, 0))
    dark.putalpha(_scaled(edge, (w, h)))
    return Image.alpha_composite(sprite, dark)


@cache
def panel(width: int, height: int, turn: bool = False) -> Image.Image:
    """A seat's or a player's area: darker felt, a `TURN` border when it is his turn."""
    if turn:
        return _blank(width, height, FELT_DARK, TURN, 3, 10)
    return _blank(width, height, FELT_DARK, FELT_DARK, 1, 10)


@cache
def faded(width: int, height: int) -> Image.Image:
    """A half-transparent card-shaped mask: pasting felt through it fades a card he may not choose now."""
    return rounded_mask(width, height, max(3, width // 10)).point(lambda v: v * 55 // 100)


@cache
def suit_tile(suit: Suit, size: int) -> Image.Image:
    """A suit alone on a white tile (the trump suit)."""
    sprite = _blank(size, size, PAPER, (120, 120, 120))
    inner = round(size * 0.7)
    sprite.paste(SUIT_COLOURS[suit], ((size - inner) // 2, (size - inner) // 2), suit_mask(suit, inner))
    return sprite


# --- dice and chips ----------------------------------------------------------------------------------------


def die_depth(size: int) -> int:
    return max(3, size // 9)


@cache
def die(rank: Rank, size: int, lang: str = "en") -> Image.Image:
    """A poker die (faces 9 10 J Q K A) as a small ivory cube: a square face with round corners and two sides
    in shadow below and to the right, the rank large in the middle. Square, shaded and without a suit, it
    reads as a die beside the flat, taller, suited cards. `size` is the sprite's edge, sides included."""
    depth = die_depth(size)
    face = size - depth
    radius = max(4, face // 5)
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    body = _blank(face, face, IVORY_SIDE, (60, 48, 30), 2, radius)
    for step in range(depth, 0, -1):  # the cube's sides: the face's outline stepped down and to the right
        sprite.alpha_composite(body, (step, step))
    sprite.alpha_composite(_blank(face, face, IVORY, (60, 48, 30), 2, radius), (0, 0))
    face_text = format_rank(rank, lang)
    mask = text_mask(face_text, round(face * 0.56))
    ink = mask.getbbox() or (0, 0, mask.width, mask.height)
    top = (face - (ink[3] - ink[1])) // 2 - ink[1]
    sprite.paste(INK, ((face - mask.width) // 2, top), mask)
    record(sprite, "text", mask, ((face - mask.width) // 2, top), face_text, round(face * 0.56))
    return sprite


@cache
def star(size: int, colour: RGB = WHITE) -> Image.Image:
    """A five-pointed star: beside a player's name, the winner of the trick shown."""
    sprite = Image.new("RGBA", (size, size), (*colour, 0))
    sprite.putalpha(suit_mask(None, size))
    return sprite


@cache
def chip(size: int) -> Image.Image:
    """A poker chip: the icon beside every chip count."""
    s = size * OVERSAMPLE
    sprite = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.ellipse([0, 0, s - 1, s - 1], fill=(214, 48, 48, 255))
    for i in range(6):
        d.pieslice([0, 0, s - 1, s - 1], i * 60 - 10, i * 60 + 10, fill=(250, 250, 250, 255))
    d.ellipse(
        [s * 0.2, s * 0.2, s * 0.8, s * 0.8],
        fill=(214, 48, 48, 255),
        outline=(250, 250, 250, 255),
        width=OVERSAMPLE * 2,
    )
    return sprite.resize((size, size), Image.Resampling.LANCZOS)


@cache
def badge(text: str, size: int, fill: RGB = WHITE, ink: RGB = INK) -> Image.Image:
    """A small round-ended label (the dealer's D, a pile's count)."""
    mask = text_mask(text, size)
    pad = max(3, size // 3)
    width = max(mask.width + 2 * pad, mask.height + 2)
    sprite = _blank(width, mask.height + 2, fill, ink, 1)
    sprite.paste(ink, ((width - mask.width) // 2, 1), mask)
    record(sprite, "text", mask, ((width - mask.width) // 2, 1), text, size)
    return sprite


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    bands = _bands(sprite) if sprite.mode == "RGBA" and sprite.width * sprite.height >= LARGE else None
    if bands is not None:
        head, body, tail = bands
        x, y = xy
        canvas.paste(head, xy, head)
        canvas.paste(body, (x, y + head.height))  # opaque: a copy, the same pixels blending would give
        canvas.paste(tail, (x, y + head.height + body.height), tail)
    else:
        canvas.paste(sprite, xy, sprite)
    record(canvas, "sprite", sprite, xy)


# A sprite (a card, a die, a seat's or a player's panel, up to 572 × 400 pixels) is opaque but for its
# rounded corners: blending each of its pixels through its alpha was half of pasting a Malice table's
# sprites. Its rows that are opaque across are copied instead (the same pixels: blending at alpha 255 gives
# the sprite's own), the rows of its corners blended. The split is kept with the sprite (`Image.info`), so it
# is computed once per sprite, and the sprites are cached (each function's `@cache`). Below LARGE pixels
# (a chip, a small die, a badge) three pastes cost more than one blend; a 64 px card is pasted in half the
# time (6 µs against 13).
LARGE = 2_000  # pixels


def _bands(sprite: Image.Image) -> tuple[Image.Image, Image.Image, Image.Image] | None:
    """The sprite's rows above, across and below its opaque middle (None: its middle row is not opaque)."""
    if "opaque_bands" not in sprite.info:
        alpha = sprite.getchannel("A")
        width = sprite.width
        opaque = [alpha.crop((0, y, width, y + 1)).getextrema()[0] == 255 for y in range(sprite.height)]
        middle = sprite.height // 2
        top = bottom = middle
        if opaque[middle]:
            while top > 0 and opaque[top - 1]:
                top -= 1
            while bottom < sprite.height and opaque[bottom]:
                bottom += 1
        sprite.info["opaque_bands"] = (
            None
            if top == bottom
            else (
                sprite.crop((0, 0, sprite.width, top)),
                sprite.crop((0, top, sprite.width, bottom)).convert("RGB"),
                sprite.crop((0, bottom, sprite.width, sprite.height)),
            )
        )
    bands: tuple[Image.Image, Image.Image, Image.Image] | None = sprite.info["opaque_bands"]
    return bands
