"""The shipped font draws every name as typed: its own character map covers every letter of the test names
(Latin with accents, ẞ, Greek, Cyrillic) but the scripts documented as left out (Chinese, emoji), it ships in
the package with its license, and every text of a picture is drawn in it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from bot.render.pictures import fontfile
from bot.render.pictures.text import drawable, font, printable, text_mask
from tests.render.names import LEFT_OUT, NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_the_fonts_own_character_map_covers_every_letter_of_the_names_but_the_documented_ones():
    letters = {c for name in NAMES.values() for c in name if not c.isspace()}
    missing = {c for c in letters if ord(c) not in fontfile.code_points()}
    assert missing == LEFT_OUT
    for c in "ÄÖÜäöüßẞéèêàçñøåæœłđșțğışčřžő" + "ΑΩαωάέήίόύώ" + "АЯЁЖЩЪЫЬЭЮяёжщъыьэю" + "ІЇЄҐіїєґЎў":
        assert fontfile.has(c), c


def test_a_name_is_drawn_as_typed_and_only_the_letters_the_font_lacks_are_left_out():
    assert printable("José") == "José" and printable("ẞtraßenbahn") == "ẞtraßenbahn"
    assert printable("Ωmega") == "Ωmega" and printable("Дмитрий") == "Дмитрий"
    assert printable("Bruce 李小龍") == "Bruce" and printable("🎲🎲") == ""
    assert drawable("Jose\u0301") == "José"  # an accent typed apart is composed into the font's own letter


def test_each_letter_is_its_own_glyph_not_a_look_alike():
    """The old font drew "ß" as "ss", dropped "Ω" and "ẞ": each is now a glyph of its own, not a neighbour."""
    for ours, other in (("ẞ", "SS"), ("ß", "ss"), ("é", "e"), ("Ω", "O"), ("Д", "D"), ("ü", "u")):
        assert text_mask(ours, 24).tobytes() != text_mask(other, 24).tobytes(), ours
        assert text_mask(ours, 24).getbbox() is not None, ours


def test_the_font_and_its_license_ship_in_the_package():
    here = fontfile.font_path()
    assert here.is_file() and (here.parent / "OFL.txt").is_file()
    assert "SIL OPEN FONT LICENSE" in (here.parent / "OFL.txt").read_text()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "fonts/*.ttf" in data["bot.render.pictures"] and "fonts/OFL.txt" in data["bot.render.pictures"]
    assert font(20).path == str(here)
