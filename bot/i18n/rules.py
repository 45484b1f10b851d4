"""The /rules summaries in the reader's language, read from the catalogue (`rules.<game>.*` keys).

Which blocks and house decisions a game's summary has, in which order, is that game's `RulesLayout`, written
in its presentation folder (`bot/render/<game>/rules.py`) once for both languages: a block added in one
language and forgotten in the other is a missing key, which the catalogue test names. The German text says
what the English one says, with every house decision flagged as "Hausregel" and numbered as in docs/rules.md.

A summary is of one table's rules: its texts take the table's options as params (`{turns}`, `{chips}`,
`{stake}`, worded by `bot.render.options`), and its last section lists the table's options and the house
rules of docs/rules.md section 3 (in German "Tischregeln": "Hausregel" already names the house decisions),
as the table has them; elsewhere those of a new table.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    # The options of the game's options model that are house rules (docs/rules.md section 3), each with its
    # number there (1 for H1); shown by that number wherever a table's rules are named.
    house_rules: tuple[tuple[str, int], ...] = ()


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
    options_title: str = ""  # whose options the last section lists: this table's, or a new table's
    options: tuple[str, ...] = ()  # one line per option and house rule (`bot.render.options.option_lines`)

    @property
    def house_title(self) -> str:
        return t(self.locale, "rules.house_title")

    def house_text(self) -> str:
        lines = [t(self.locale, "rules.house_intro")]
        for ref, text in self.house_decisions:
            lines.append(t(self.locale, "rules.house_line", ref=ref, text=text))
        return "\n".join(lines)

    def options_text(self) -> str:
        return "\n".join([t(self.locale, "rules.options.intro"), *self.options])


def rules(
    layout: RulesLayout,
    locale: object,
    params: Mapping[str, str] | None = None,
    *,
    options_title: str = "",
    options: tuple[str, ...] = (),
) -> Rules:
    """The rules summary a game's layout describes, for a reader in `locale`; `params` fill the texts'
    placeholders (a table's options as words), `options` is the section of the table's options."""
    lang = resolve_locale(locale)
    game = layout.game
    words = dict(params or {})
    blocks = tuple(
        Block(
            t(lang, f"rules.{game}.block.{b}.title", **words),
            t(lang, f"rules.{game}.block.{b}.text", **words),
        )
        for b in layout.blocks
    )
    house = tuple(
        (t(lang, f"rules.{game}.house.{h}.ref", **words), t(lang, f"rules.{game}.house.{h}.text", **words))
        for h in layout.house_decisions
    )
    return Rules(
        game=game,
        locale=lang,
        title=t(lang, f"rules.{game}.title", **words),
        intro=t(lang, f"rules.{game}.intro", **words),
        blocks=blocks,
        house_decisions=house,
        footer=t(lang, f"rules.{game}.footer", **words),
        options_title=options_title,
        options=options,
    )
