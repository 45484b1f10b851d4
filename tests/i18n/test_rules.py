"""/rules in both languages: the English summary is today's text word for word, the German one says the same
rules with every house decision of docs/rules.md flagged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.render import rules_summary
from bot.render.registry import PRESENTATIONS

GAMES = [p.kind for p in PRESENTATIONS if p.rules is not None]


def rules(game: str, locale: str):
    summary = rules_summary(game, locale)
    assert summary is not None
    return summary


DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def decided_rules(game: str) -> set[int]:
    """The numbers of the rules docs/rules.md tags [D] (a decision made here) in that game's section."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## 1. Insomnia" if game == "insomnia" else "## 2. Malice")
    end = text.index("## 2. Malice") if game == "insomnia" else text.index("## 3.")
    numbers, current = set(), None
    for line in text[start:end].splitlines():
        if m := re.match(r"^(\d+)\. ", line.strip()):
            current = int(m.group(1))
        if "[D]" in line and current is not None:
            numbers.add(current)
    return numbers


def covered(refs: list[str]) -> set[int]:
    """ "Rule 2", "Regeln 26-28" -> {2}, {26, 27, 28}."""
    out: set[int] = set()
    for ref in refs:
        for a, b in re.findall(r"(\d+)(?:-(\d+))?", ref):
            out |= set(range(int(a), int(b or a) + 1))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_german_rules_flag_every_house_decision(game):
    german = rules(game, "de")
    assert german.house_title == "Hausregeln"
    assert german.house_text().count("(Hausregel)") == len(german.house_decisions) > 0
    decided = decided_rules(game)
    assert decided, "docs/rules.md tags no [D] rule: the parser is broken"
    assert decided <= covered([ref for ref, _ in german.house_decisions]), game
    # The same rules in the same order as the English text.
    english = rules(game, "en")
    order = [covered([r]) for r, _ in english.house_decisions]
    assert [covered([r]) for r, _ in german.house_decisions] == order


@pytest.mark.parametrize("game", GAMES)
def test_german_rules_are_german(game):
    german, english = rules(game, "de"), rules(game, "en")
    assert len(german.blocks) == len(english.blocks)
    for de, en in zip(german.blocks, english.blocks, strict=True):
        assert de.title != en.title and de.text != en.text
    command = {"insomnia": "/insomnia neu", "malice": "/malice herausfordern"}[game]
    assert command in german.footer


def test_german_rules_use_german_card_names():
    intro = rules("insomnia", "de").intro
    assert "B < D < K < A" in intro and "Karo < Kreuz < Herz < Pik" in intro
    assert "J" not in re.findall(r"\b[JQ]\b", intro)
    assert "Stich" in rules("insomnia", "de").blocks[4].text
    assert "Zahlstapel" in rules("malice", "de").intro
