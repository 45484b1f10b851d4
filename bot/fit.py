"""Everything the bot says fits Discord: every message is cut to Discord's limits before it is sent (a message
past a limit is refused with 50035, and the user would be left with no answer at all). Discord-free, above
the presentation whose messages it cuts. Echoes of user input are short excerpts: `bot.i18n.excerpt`, below
the presentation, which repeats them in its refusals too."""

from __future__ import annotations

from bot.render.common import Embed, EmbedField, Message

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
FIELDS = 25
EMBEDS = 10
EMBED_TOTAL = 6000  # all embeds of one message together


def clip(text: str | None, limit: int) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def fit(message: Message) -> Message:
    """A copy of `message` inside every Discord limit (long texts cut with an ellipsis)."""
    budget = EMBED_TOTAL
    embeds: list[Embed] = []
    for embed in message.embeds[:EMBEDS]:
        title = clip(embed.title, EMBED_TITLE)
        description = clip(embed.description, EMBED_DESCRIPTION)
        footer = clip(embed.footer, FOOTER)
        fields = [
            EmbedField(
                name=clip(f.name, FIELD_NAME) or "", value=clip(f.value, FIELD_VALUE) or "", inline=f.inline
            )
            for f in embed.fields[:FIELDS]
        ]
        size = sum(len(t or "") for t in (title, description, footer))
        size += sum(len(f.name) + len(f.value) for f in fields)
        if size > budget and description:
            description = clip(description, max(1, len(description) - (size - budget)))
            size = budget
        if size > budget:
            break
        budget -= size
        embeds.append(
            embed.model_copy(
                update={"title": title, "description": description, "footer": footer, "fields": fields}
            )
        )
    return message.model_copy(update={"content": clip(message.content, CONTENT), "embeds": embeds})
