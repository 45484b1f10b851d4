"""The pieces every picture is made of: cards, card backs, dice, chips, suit shapes and text, each drawn once.

Every sprite is cached (`functools.cache` on small immutable keys: there are 53 cards, 6 dice faces, a few
sizes), so drawing a table is mostly pasting. Suits are shapes, not font glyphs: Pillow's bundled font has no
suit symbols, and a shape plus a colour means colour is never the only signal. The four-colour deck (spades
black, hearts red, diamonds blue, clubs green) is the online-poker convention: at phone size the colour tells
the suits apart at a glance, the shape when colour does not.
"""

from __future__ import annotations

import math
import unicodedata
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.games.cards import Card, Rank, Suit

RGB = tuple[int, int, int]

FELT: RGB = (36, 104, 72)  # opaque mid-tone: readable around it in Discord's light and dark themes
FELT_DARK: RGB = (24, 74, 51)
INK: RGB = (24, 24, 28)
WHITE: RGB = (250, 250, 246)
PAPER: RGB = (252, 251, 245)
GOLD: RGB = (255, 196, 36)
MUTED: RGB = (196, 222, 206)
SUIT_COLOURS: dict[Suit | None, RGB] = {
    Suit.SPADES: (22, 22, 26),
    Suit.HEARTS: (206, 28, 44),
    Suit.DIAMONDS: (28, 86, 204),
    Suit.CLUBS: (18, 124, 58),
    None: (128, 36, 160),  # the joker
}
BACK: RGB = (150, 32, 44)
SMALL = 18  # the smallest text: about 12 px when Discord shows a picture 400 px wide on a phone
OVERSAMPLE = 4  # shapes are drawn this much larger, then scaled down: Pillow's polygons are not antialiased


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font (Pillow >= 10.1): nothing to download or ship."""
    return ImageFont.load_default(size=size)


# The bundled font has no German letters beyond ASCII: an umlaut is drawn as its vowel with two dots added
# (`_diaereses`), ß as "ss" (as Swiss German writes it); without this a German label shows empty boxes.
# By code point, from their Unicode decomposition: these are glyphs, not words (the literal scan reads
# letters as text).
UMLAUTS = {chr(c): unicodedata.normalize("NFD", chr(c))[0] for c in (0xE4, 0xF6, 0xFC, 0xC4, 0xD6, 0xDC)}
SHARP_S = chr(0xDF)


def _drawable(text: str) -> str:
    return "".join(UMLAUTS.get(ch, ch) for ch in text.replace(SHARP_S, "ss"))


def _diaereses(draw: ImageDraw.ImageDraw, f: ImageFont.FreeTypeFont, text: str, x0: int) -> None:
    """Two dots above each umlaut's vowel in the mask of `_drawable(text)` drawn from `x0`."""
    text = text.replace(SHARP_S, "ss")
    radius = max(1.0, f.size / 16)
    for i, ch in enumerate(text):
        base = UMLAUTS.get(ch)
        if base is None:
            continue
        _l, top, _r, _b = f.getbbox(base)
        middle = x0 + f.getlength(_drawable(text[:i])) + f.getlength(base) / 2
        y = max(radius, top - f.size / 10 - radius)
        for dx in (-f.size / 8, f.size / 8):
            cx = middle + dx
            draw.ellipse([cx - radius, y - radius, cx + radius, y + radius], fill=255)


@cache
def text_mask(text: str, size: int) -> Image.Image:
    """A text as an "L" mask, tight to its ink plus the font's line height, so texts of one size align."""
    f = font(size)
    if not isinstance(f, ImageFont.FreeTypeFont):  # load_default(size=) is scalable from Pillow 10.1
        raise RuntimeError("Pillow's bundled font is not scalable: Pillow 10.1 or later is needed")
    drawn = _drawable(text)
    left, _top, right, _bottom = (round(v) for v in f.getbbox(drawn))
    ascent, descent = f.getmetrics()
    mask = Image.new("L", (max(1, right - min(left, 0)), ascent + descent))
    draw = ImageDraw.Draw(mask)
    draw.text((-min(left, 0), 0), drawn, font=f, fill=255)
    if drawn != text:
        _diaereses(draw, f, text, -min(left, 0))
    return mask


def text_size(text: str, size: int) -> tuple[int, int]:
    return text_mask(text, size).size


def draw_text(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    colour: RGB = WHITE,
    *,
    shadow: bool = True,
    anchor: str = "l",
) -> int:
    """Paste a text at `xy` (its left, centre or right edge by `anchor` "l", "m", "r"); returns its width.
    White text on the felt gets a dark shadow so it stays sharp after the picture is scaled down."""
    if not text:
        return 0
    mask = text_mask(text, size)
    x, y = xy
    if anchor == "m":
        x -= mask.width // 2
    elif anchor == "r":
        x -= mask.width
    if shadow:
        canvas.paste(FELT_DARK, (x + 1, y + 2), mask)
    canvas.paste(colour, (x, y), mask)
    return mask.width


def fit_text(text: str, size: int, width: int) -> str:
    """The text cut with an ellipsis to fit `width` pixels (long names, long stage texts)."""
    if text_size(text, size)[0] <= width:
        return text
    while len(text) > 1 and text_size(text + "…", size)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
def card(c: Card, width: int) -> Image.Image:
    """A face-up card: rank and suit in the top-left corner (all a fanned stack shows), a big suit below."""
    height = card_height(width)
    sprite = _blank(width, height, PAPER, (120, 120, 120))
    colour = SUIT_COLOURS[c.suit]
    corner = max(12, round(width * 0.36))
    pad = max(3, width // 14)
    text = "JK" if c.is_joker or c.rank is None else c.rank.short
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
def ring(width: int, height: int, thickness: int = 4) -> Image.Image:
    """The gold outline that marks a legal move, drawn around a sprite of `width` x `height`."""
    w, h = width + 2 * thickness, height + 2 * thickness
    s = OVERSAMPLE
    mask = Image.new("L", (w * s, h * s))
    radius = (max(3, width // 10) + thickness) * s
    box = [0, 0, w * s - 1, h * s - 1]
    ImageDraw.Draw(mask).rounded_rectangle(box, radius, outline=255, width=thickness * s)
    sprite = Image.new("RGBA", (w, h), (*GOLD, 0))
    sprite.putalpha(_scaled(mask, (w, h)))
    return sprite


@cache
def panel(width: int, height: int, highlight: bool = False) -> Image.Image:
    """A seat's or a player's area: darker felt, a gold border when it is his turn."""
    if highlight:
        return _blank(width, height, FELT_DARK, GOLD, 3, 10)
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


@cache
def die(rank: Rank, size: int) -> Image.Image:
    """A poker die face (9 10 J Q K A): ivory, the rank large and dark."""
    sprite = _blank(size, size, (246, 240, 222), (70, 60, 40), 2)
    mask = text_mask(rank.short, round(size * 0.55))
    colour = (170, 24, 36) if rank in (Rank.ACE, Rank.KING) else INK
    sprite.paste(colour, ((size - mask.width) // 2, (size - mask.height) // 2), mask)
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
    d.ellipse([s * 0.2, s * 0.2, s * 0.8, s * 0.8], fill=(214, 48, 48, 255), outline=(250, 250, 250, 255),
              width=OVERSAMPLE * 2)
    return sprite.resize((size, size), Image.Resampling.LANCZOS)


@cache
def badge(text: str, size: int, fill: RGB = WHITE, ink: RGB = INK) -> Image.Image:
    """A small round-ended label (the dealer's D, a pile's count)."""
    mask = text_mask(text, size)
    pad = max(3, size // 3)
    width = max(mask.width + 2 * pad, mask.height + 2)
    sprite = _blank(width, mask.height + 2, fill, ink, 1)
    sprite.paste(ink, ((width - mask.width) // 2, 1), mask)
    return sprite


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    canvas.paste(sprite, xy, sprite)
