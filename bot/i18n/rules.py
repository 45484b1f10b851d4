"""The /rules summaries in the reader's language, read from the catalogue (`rules.<game>.*` keys).

Which blocks and house decisions a game's summary has, in which order, is that game's `RulesLayout`, written
in its presentation folder (`bot/render/<game>/rules.py`) once for both languages: a block added in one
language and forgotten in the other is a missing key, which the catalogue test names. The German text says
what the English one says, with every house decision flagged as "Hausregel" and numbered as in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n.catalogue import t
from bot.i18n.locale import resolve_locale


@dataclass(frozen=True)
class RulesLayout:
    """A game's /rules summary as catalogue keys: `rules.<game>.title`, `.intro`, `.footer`,
    `.block.<block>.title` / `.text` and `.house.<decision>.ref` / `.text`, in this order."""

    game: str
    blocks: tuple[str, ...]
    house_decisions: tuple[str, ...]


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


def rules(layout: RulesLayout, locale: object) -> Rules:
    """The rules summary a game's layout describes, for a reader in `locale`."""
    lang = resolve_locale(locale)
    game = layout.game
    blocks = tuple(
        Block(t(lang, f"rules.{game}.block.{b}.title"), t(lang, f"rules.{game}.block.{b}.text"))
        for b in layout.blocks
    )
    house = tuple(
        (t(lang, f"rules.{game}.house.{h}.ref"), t(lang, f"rules.{game}.house.{h}.text"))
        for h in layout.house_decisions
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
