"""/settings show: a server's settings as one private message, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.registry import REGISTRY
from bot.i18n import t
from bot.render import game_name
from bot.render.common import Embed, EmbedField, Message, channel, role
from bot.render.options import option_lines
from bot.render.registry import PRESENTATIONS

COLOUR = 0x2ECC71
FIELD_LIMIT = 1024  # Discord's limit for an embed field's value


def settings_message(
    *,
    chosen_language: str | None,
    public_language: str,
    host_role: int | None,
    channels: Sequence[int],
    defaults: Mapping[str, Mapping[str, Any]],
    seasons: str = "monthly",
    locale: object,
    threads: bool = False,
) -> Message:
    """`defaults`: per game, the options a new table gets unless its command chooses (the server's defaults,
    with the bot's turn time under them)."""
    language = t(locale, f"language.{public_language}")
    if chosen_language is None:
        language = t(locale, "settings.show.language_default", language=language)
    listed = ", ".join(channel(c) for c in channels)
    fields = [
        EmbedField(name=t(locale, "settings.show.language"), value=language),
        EmbedField(
            name=t(locale, "settings.show.channels"), value=listed or t(locale, "settings.show.channels_all")
        ),
        EmbedField(
            name=t(locale, "settings.show.role"),
            value=(
                t(locale, "settings.show.role_set", role=role(host_role))
                if host_role is not None
                else t(locale, "settings.show.role_none")
            ),
        ),
        EmbedField(
            name=t(locale, "settings.show.threads"),
            value=(
                t(locale, "settings.show.threads_on") if threads else t(locale, "settings.show.threads_off")
            ),
        ),
        EmbedField(
            name=t(locale, "settings.show.seasons"), value=t(locale, f"settings.show.seasons_{seasons}")
        ),
    ]
    for kind, options in defaults.items():
        layout = PRESENTATIONS[kind].rules if kind in PRESENTATIONS else None
        lines = option_lines(REGISTRY[kind].options, layout, options, locale)
        fields.append(
            EmbedField(
                name=t(locale, "settings.show.defaults", game=game_name(kind, locale)),
                value="\n".join(lines)[:FIELD_LIMIT],
            )
        )
    embed = Embed(
        title=t(locale, "settings.show.title"),
        fields=fields,
        footer=t(locale, "settings.show.footer"),
        colour=COLOUR,
    )
    return Message(embeds=[embed])
