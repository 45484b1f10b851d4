"""A table's options and house rules in the reader's words: named in the lobby only when they differ from the
standard rules, listed in full (by their numbers in docs/rules.md section 3) by /rules, /history and
/settings show, in English and German."""

from __future__ import annotations

import pytest

from bot import render
from bot.games.insomnia.models import InsomniaOptions
from bot.games.malice.models import MaliceOptions
from bot.render.insomnia.rules import RULES as INSOMNIA_RULES
from bot.render.malice.rules import RULES as MALICE_RULES
from bot.render.options import house_rules_text, option_lines


@pytest.mark.parametrize(
    ("model", "layout", "standard"),
    [
        (InsomniaOptions, INSOMNIA_RULES, {"sevens": "hearts-spades", "bust": "ends", "stage4": "on"}),
        (MaliceOptions, MALICE_RULES, {"discard": "optional", "turns": 500, "stake": 1}),
    ],
)
def test_a_table_of_the_standard_rules_names_no_house_rule(model, layout, standard):
    for locale in ("en", "de"):
        assert house_rules_text(model, layout, {}, locale) is None
        assert house_rules_text(model, layout, standard, locale) is None  # chosen, but the standard


def test_the_lobby_names_only_the_house_rules_chosen_in_their_order():
    chosen = {"stake": 5, "discard": "required", "turns": 500}
    assert house_rules_text(MaliceOptions, MALICE_RULES, chosen, "en") == (
        "House rules: H4 Ending a turn: with a side play whenever a card of the hand fits a side stack · "
        "H6 Stake: 5 chips per card"
    )
    assert house_rules_text(InsomniaOptions, INSOMNIA_RULES, {"bust": "out"}, "de") == (
        "Tischregeln: H2 Wer keine Chips mehr hat: scheidet aus, und die anderen spielen weiter"
    )


def test_every_option_and_house_rule_is_listed_standard_or_chosen():
    lines = option_lines(
        InsomniaOptions,
        INSOMNIA_RULES,
        {"chips": 1, "deals": 3, "stage4": "off", "timeout": 45, "pictures": False},
        "en",
    )
    assert lines == [
        "• Starting chips: 1 chip",
        "• Deals: 3 deals",
        "• Turn time: 45 seconds",
        "• Pictures: off (text only)",
        "• H1 (standard) Sevens at 5-7 players: 7♥ and 7♠ (30 cards)",
        "• H2 (standard) A player without chips: ends the game",
        "• **H3** (house rule) Stage 4 (the second dice round): not played: a deal ends after the tricks",
    ]
    german = option_lines(MaliceOptions, MALICE_RULES, {"turns": 1, "timeout": 60}, "de", skip=("pictures",))
    assert german == [
        "• Bedenkzeit: 60 Sekunden",
        "• H4 (Standard) Zugende: mit einer Karte auf einen Seitenstapel oder ohne",
        "• **H5** (Tischregel) Zuggrenze: 1 Zug",
        "• H6 (Standard) Einsatz: 1 Chip pro Karte",
    ]


def test_history_opens_with_the_options_the_game_was_played_with():
    pages = render.history_pages("malice", 7, "lobby", [], locale="de", options={"turns": 40, "timeout": 30})
    assert pages[0].description.splitlines()[:3] == [
        "**Optionen und Tischregeln**",
        "• Bedenkzeit: 30 Sekunden",
        "• Bilder: an",
    ]
    assert "• **H5** (Tischregel) Zuggrenze: 40 Züge" in pages[0].description
    plain = render.history_pages("malice", 7, "lobby", [], locale="en")
    assert "Options" not in plain[0].description  # without the table's options, the log alone
