"""Malice's /rules summary: its blocks and house decisions in the order /rules shows them (the words are the
catalogue's `rules.malice.*`; every rule docs/rules.md marks [D] is among the house decisions), and its house
rules by their numbers in docs/rules.md section 3."""

from __future__ import annotations

from bot.i18n.rules import RulesLayout

RULES = RulesLayout(
    game="malice",
    blocks=("turn", "side", "winning"),
    house_decisions=("rule3", "rule9", "rule11", "rule13", "rule16", "rule17"),
    house_rules=(("discard", 4), ("turns", 5), ("stake", 6)),
)
