"""German words for Malice's places, and the Discord-free part of bot/i18n."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.i18n.places import parse_place


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("mitte", "centre"),
        ("Mitte 2", "centre2"),
        ("mittelstapel4", "centre4"),
        ("seite1", "side1"),
        ("Seitenstapel 3", "side3"),
        ("Zahlstapel", "payoff"),
        ("centre3", "centre3"),
        ("side2", "side2"),
    ],
)
def test_german_places_in_a_german_locale(text, token):
    assert parse_place(text, "de") == token


def test_english_places_everywhere_and_german_only_in_german():
    assert parse_place("center 1", "en-US") == "centre1"
    assert parse_place("payoff", "en") == "payoff"
    assert parse_place("mitte", "en") is None
    assert parse_place("seite", "de") is None  # a side stack needs its number
    assert parse_place("mitte5", "de") is None


def test_the_catalogue_cards_and_rules_need_no_discord():
    """bot/render and bot/sessions are Discord-free and will call these modules."""
    code = (
        "import sys, bot.i18n, bot.i18n.cards, bot.i18n.rules, bot.i18n.places\n"
        "bot.i18n.t('de', 'table.full')\n"
        "print(','.join(sorted(n for n in sys.modules if n.split('.')[0] in ('discord', 'aiosqlite'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"bot.i18n imported {out.stdout.strip()}"
