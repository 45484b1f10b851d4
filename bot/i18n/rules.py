"""The /rules summaries in the reader's language, read from the catalogue (`rules.*` keys).

The English text is bot/rules_text.py's, word for word (a test compares them); the German one says the same,
with every house decision flagged as "Hausregel" and numbered as in docs/rules.md. The structure (which
blocks, which house decisions, in which order) lives here once for both languages, so a block added in one
language and forgotten in the other is a missing key, which the catalogue test names.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n.catalogue import t
from bot.i18n.locale import resolve_locale

# Each game's blocks and house decisions, in the order /rules shows them; the names are key parts.
BLOCKS = {
    "insomnia": ("exchange", "auction", "payout", "best_hand", "tricks", "stage4", "end"),
    "malice": ("turn", "side", "winning"),
}
HOUSE_DECISIONS = {
    "insomnia": ("rule2", "rule19", "rule20", "rule23", "rule25", "rule26_28", "rule31", "rule32"),
    "malice": ("rule3", "rule9", "rule11", "rule13", "rule16", "rule17"),
}
GAMES = tuple(BLOCKS)


@dataclass(frozen=True)
class Block:
    title: str
    text: str


@dataclass(frozen=True)
class Rules:
    game: str
    locale: str
    title: str
    intro: str
    blocks: tuple[Block, ...]
    house_decisions: tuple[tuple[str, str], ...]  # (rule reference, the decision)
    footer: str

    @property
    def house_title(self) -> str:
        return t(self.locale, "rules.house_title")

    def house_text(self) -> str:
        lines = [t(self.locale, "rules.house_intro")]
        for ref, text in self.house_decisions:
            lines.append(t(self.locale, "rules.house_line", ref=ref, text=text))
        return "\n".join(lines)


def rules(game: str, locale: object) -> Rules:
    """The rules summary of `insomnia` or `malice` for a reader in `locale`."""
    lang = resolve_locale(locale)
    blocks = tuple(
        Block(t(lang, f"rules.{game}.block.{b}.title"), t(lang, f"rules.{game}.block.{b}.text"))
        for b in BLOCKS[game]
    )
    house = tuple(
        (t(lang, f"rules.{game}.house.{h}.ref"), t(lang, f"rules.{game}.house.{h}.text"))
        for h in HOUSE_DECISIONS[game]
    )
    return Rules(
        game=game,
        locale=lang,
        title=t(lang, f"rules.{game}.title"),
        intro=t(lang, f"rules.{game}.intro"),
        blocks=blocks,
        house_decisions=house,
        footer=t(lang, f"rules.{game}.footer"),
    )
