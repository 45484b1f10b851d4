"""A large sprite is pasted in bands (its opaque middle rows copied, its corners' rows blended: issue 42): the
picture a player gets is the same, pixel for pixel, as the sprite blended whole through its alpha."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.games.cards import JOKER, Rank, standard_deck
from bot.render.pictures import sprites as sp


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    width=st.integers(150, 572),
    height=st.integers(134, 420),
    turn=st.booleans(),
    x=st.integers(-20, 40),
    y=st.integers(-20, 40),
)
def test_a_panel_pasted_in_bands_is_the_panel_blended_whole(width, height, turn, x, y):
    panel = sp.panel(width, height, turn)
    assert width * height >= sp.LARGE
    base = Image.new("RGB", (620, 480), sp.FELT)
    base.paste((200, 40, 40), (0, 0, 310, 240))  # not one colour under it: every blended pixel shows
    banded, blended = base.copy(), base.copy()
    sp.paste(banded, panel, (x, y))
    blended.paste(panel, (x, y), panel)
    assert ImageChops.difference(banded, blended).getbbox() is None


def test_a_sprite_with_no_opaque_middle_is_blended_whole():
    ring = sp.ring(300, 300, 4, sp.LAST)  # large, but see-through in the middle
    assert ring.width * ring.height >= sp.LARGE
    banded, blended = Image.new("RGB", (320, 320), sp.FELT), Image.new("RGB", (320, 320), sp.FELT)
    sp.paste(banded, ring, (5, 5))
    blended.paste(ring, (5, 5), ring)
    assert ImageChops.difference(banded, blended).getbbox() is None


def test_every_card_back_and_die_pasted_in_bands_is_the_sprite_blended_whole():
    sprites = [
        sp.card(c, size, lang)
        for c in [*standard_deck(), JOKER]
        for size in (64, 96)
        for lang in ("en", "de")
    ]
    sprites += [sp.back(64), sp.back(96), sp.slot(64)] + [sp.die(r, s) for r in Rank for s in (44, 56)]
    for sprite in sprites:
        base = Image.new("RGB", (120, 140), sp.FELT)
        base.paste((200, 40, 40), (0, 0, 60, 70))
        banded, blended = base.copy(), base.copy()
        sp.paste(banded, sprite, (7, 9))
        blended.paste(sprite, (7, 9), sprite)
        assert ImageChops.difference(banded, blended).getbbox() is None


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    cards=st.lists(st.sampled_from([*standard_deck(), JOKER]), min_size=1, max_size=14),
    ring=st.booleans(),
    lang=st.sampled_from(["en", "de"]),
)
def test_a_fan_of_card_tops_is_the_fan_of_whole_cards(cards, ring, lang):
    """A side stack pastes only what shows of each card under another (its corner, and the rows the next
    card's rounded corners let through): the same pixels as every card pasted whole."""
    from bot.render.malice import pictures

    height = pictures._fan_height(len(cards)) + 8
    fanned, whole = Image.new("RGB", (80, height), sp.FELT), Image.new("RGB", (80, height), sp.FELT)
    pictures._fan(fanned, cards, 8, 4, lang, ring_top=ring)
    step = pictures._fan_step(len(cards))
    for i, card in enumerate(cards):
        if ring and i == len(cards) - 1:
            sp.paste(whole, sp.ring(pictures.CARD, sp.card_height(pictures.CARD), 4, sp.LAST), (4, i * step))
        sp.paste(whole, sp.card(card, pictures.CARD, lang), (8, 4 + i * step))
    assert ImageChops.difference(fanned, whole).getbbox() is None
