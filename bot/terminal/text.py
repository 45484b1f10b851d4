"""The bot's rendered messages as terminal text: Discord markdown and mentions become plain words."""

from __future__ import annotations

import re

from bot.games.registry import REGISTRY
from bot.render.common import Embed, Message

_TABLE_NO = re.compile(r"(,| ·)? table #\d+")


def _slash() -> re.Pattern[str]:
    """A game's slash command in a hint (`/insomnia pass, `), for every registered game."""
    games = "|".join(re.escape(name) for name in REGISTRY.names())
    return re.compile(rf"/({games}) \w+(, )?")


def plain(text: str, names: dict[str, str]) -> str:
    """Markdown off, `<@id>` as the player's name, slash-command hints (which mean nothing here) dropped."""
    for player, shown in names.items():
        text = text.replace(f"<@{player}>", shown)
    text = text.replace("**", "").replace("`", "").replace("__", "")
    text = _slash().sub("", text).replace(" ()", "")
    return _TABLE_NO.sub("", text)


def embed_text(embed: Embed) -> list[str]:
    lines = [line for line in (embed.title, embed.description) if line]
    lines += [f"{field.name}: {field.value}" for field in embed.fields]
    if embed.footer:
        lines.append(embed.footer)
    return lines


def message_text(message: Message, names: dict[str, str]) -> str:
    lines = [message.content] if message.content else []
    for embed in message.embeds:
        lines += embed_text(embed)
    return plain("\n".join(lines), names)
