"""The /rules summaries: a readable digest of docs/rules.md, Discord-free (plain text blocks).

The texts live in the catalogue (`rules.*` keys, English and German) and are assembled by `bot.i18n.rules`;
this module keeps the names the rest of the bot reads: `summary(game, locale)` for a reader, and the English
`INSOMNIA`, `MALICE` and `SUMMARIES` that each game's spec carries. Every rule marked [D] in docs/rules.md (a
decision this project made where the seed text is silent or garbled) appears under the house decisions with
its rule number, so nobody is surprised at the table; a test checks that the list stays complete.
"""

from __future__ import annotations

from bot.i18n import t
from bot.i18n.rules import Block, Rules, rules

RulesSummary = Rules  # the summary of one game in one language (title, intro, blocks, house decisions)

HOUSE_DECISIONS_TITLE = t("en", "rules.house_title")


def summary(game: str, locale: object = "en") -> RulesSummary:
    """The rules summary of `game` for a reader in `locale`."""
    return rules(game, locale)


INSOMNIA = summary("insomnia")
MALICE = summary("malice")
SUMMARIES = {s.game: s for s in (INSOMNIA, MALICE)}

__all__ = ["HOUSE_DECISIONS_TITLE", "INSOMNIA", "MALICE", "SUMMARIES", "Block", "RulesSummary", "summary"]
