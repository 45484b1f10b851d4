"""The bot's composed messages as terminal text: markdown off, people as their names (the terminal's own
drawing of the words' references)."""

from __future__ import annotations

import re

from bot.games.registry import REGISTRY
from bot.i18n.rules import Rules
from bot.render.common import PERSON, Embed, Message, drawn

# The table's number means nothing with one table (English and German: "table #1", "Tisch #1").
_TABLE_NO = re.compile(r" \((?:table|Tisch) #\d+\)|(?:,| ·)? (?:table|Tisch) #\d+")


def _slash() -> re.Pattern[str]:
    """A game's slash command in a hint (`/insomnia pass, `), for every registered game."""
    games = "|".join(re.escape(name) for name in REGISTRY.names())
    return re.compile(rf"/({games}) \w+(, )?")


def unmarked(text: str) -> str:
    """Discord's markdown off."""
    return text.replace("**", "").replace("`", "").replace("__", "")


def plain(text: str, names: dict[str, str]) -> str:
    """Markdown off, a person as his name, slash-command hints (which mean nothing here) dropped."""
    text = drawn(text, lambda kind, value: names.get(value, value) if kind == PERSON else "")
    text = _slash().sub("", unmarked(text)).replace(" ()", "")
    return _TABLE_NO.sub("", text)


def embed_text(embed: Embed, *, footer: bool = True) -> list[str]:
    lines = [line for line in (embed.title, embed.description) if line]
    lines += [f"{field.name}: {field.value}" for field in embed.fields]
    if embed.footer and footer:
        lines.append(embed.footer)
    return lines


def message_text(message: Message, names: dict[str, str]) -> str:
    lines = [message.content] if message.content else []
    for embed in message.embeds:
        lines += embed_text(embed)
    return plain("\n".join(lines), names)


def rules_text(rules: Rules) -> str:
    """A game's rules summary as terminal text: its blocks, its house decisions, then the game's options and
    house rules, each under a title, and its footer (the caller's: the terminal's own, with no slash
    command)."""
    parts = [rules.title, rules.intro]
    parts += [f"{block.title}\n{block.text}" for block in rules.blocks]
    if rules.house_decisions:
        parts.append(f"{rules.house_title}\n{rules.house_text()}")
    if rules.options:
        parts.append(f"{rules.options_title}\n{rules.options_text()}")
    return unmarked("\n\n".join([*(plain(part, {}) for part in parts if part), rules.footer]))
