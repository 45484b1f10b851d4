"""Insomnia's /rules summary: its blocks and house decisions in the order /rules shows them (the words are the
catalogue's `rules.insomnia.*`; every rule docs/rules.md marks [D] is among the house decisions), and its
house rules by their numbers in docs/rules.md section 3."""

from __future__ import annotations

from bot.i18n.rules import RulesLayout

RULES = RulesLayout(
    game="insomnia",
    blocks=("exchange", "auction", "payout", "best_hand", "tricks", "stage4", "end"),
    house_decisions=("rule2", "rule19", "rule20", "rule23", "rule25", "rule26_28", "rule31", "rule32"),
    house_rules=(("sevens", 1), ("bust", 2), ("stage4", 3)),
)
