"""Message data as HTML: Discord's markdown (bold, italics, code, quotes, small lines), its mentions as the
names the table knows and its timestamps as `<time>` elements the page's script counts down in the reader's
language; then the pages around it. Everything a message says is escaped first: nothing of a player's name
or a stored word reaches the page as markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from bot.i18n import t, tn
from bot.render.common import Embed, Message
from bot.render.compose import TableView

# Discord's inline tokens: a user mention, a channel, a timestamp.
_TOKEN = re.compile(r"<@!?(\d{1,20})>|<#(\d{1,20})>|<t:(-?\d{1,12})(?::([tTdDfFR]))?>")
_INLINE = (
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"__(.+?)__"), r"<u>\1</u>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])"), r"<em>\1</em>"),
    (re.compile(r"~~(.+?)~~"), r"<s>\1</s>"),
)
_CODE = re.compile(r"`([^`]+)`")

Namer = Callable[[str], str]  # a player id -> the name the page shows


def _inline(text: str, names: Namer) -> str:
    """One line: tokens replaced, the rest escaped, then the inline markup."""
    out: list[str] = []
    last = 0
    for match in _TOKEN.finditer(text):
        out.append(html.escape(text[last : match.start()], quote=False))
        user, channel, stamp, style = match.groups()
        if user is not None:
            out.append(f'<span class="who">{html.escape(names(user), quote=False)}</span>')
        elif channel is not None:
            out.append("#")
        else:
            out.append(f'<time data-t="{int(stamp)}" data-style="{style or "f"}"></time>')
        last = match.end()
    out.append(html.escape(text[last:], quote=False))
    joined = "".join(out)
    # Code spans keep their text as it is: cut them out before the other markup, then put them back.
    codes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        codes.append(match.group(1))
        return f"\x00{len(codes) - 1}\x00"

    joined = _CODE.sub(keep, joined)
    for pattern, replacement in _INLINE:
        joined = pattern.sub(replacement, joined)
    return re.sub(r"\x00(\d+)\x00", lambda m: f"<code>{codes[int(m.group(1))]}</code>", joined)


def markdown(text: str, names: Namer) -> str:
    """Discord's markdown of one text as HTML lines (headings, quotes and small lines by their prefix)."""
    lines = []
    for raw in text.split("\n"):
        cls, body = "", raw
        for prefix, name in (("-# ", "small"), ("> ", "quote"), ("### ", "h3"), ("## ", "h2"), ("# ", "h1")):
            if raw.startswith(prefix):
                cls, body = name, raw[len(prefix) :]
                break
        inner = _inline(body, names) if body.strip() else "&nbsp;"
        lines.append(f'<div class="line {cls}">{inner}</div>' if cls else f'<div class="line">{inner}</div>')
    return "".join(lines)


def embed_html(embed: Embed, names: Namer, *, picture: str | None = None, alt: str = "") -> str:
    parts = ['<section class="card"']
    if embed.colour is not None:
        parts.append(f' style="border-color:#{embed.colour:06x}"')
    parts.append(">")
    if embed.title:
        parts.append(f"<h2>{_inline(embed.title, names)}</h2>")
    if embed.description:
        parts.append(f'<div class="text">{markdown(embed.description, names)}</div>')
    if embed.fields:
        parts.append('<dl class="fields">')
        for field in embed.fields:
            wide = "" if field.inline else ' class="wide"'
            term, value = _inline(field.name, names), markdown(field.value, names)
            parts.append(f"<div{wide}><dt>{term}</dt><dd>{value}</dd></div>")
        parts.append("</dl>")
    if picture is not None:
        parts.append(f'<img class="picture" src="{html.escape(picture)}" alt="{html.escape(alt)}">')
    if embed.footer:
        parts.append(f"<footer>{markdown(embed.footer, names)}</footer>")
    parts.append("</section>")
    return "".join(parts)


def message_html(message: Message, names: Namer, *, picture: str | None = None) -> str:
    """A message as the page's main part: its content, then its embeds (the picture in the first)."""
    parts = []
    if message.content:
        parts.append(f'<div class="content">{markdown(message.content, names)}</div>')
    alt = message.picture.alt if message.picture is not None else ""
    for i, embed in enumerate(message.embeds):
        parts.append(embed_html(embed, names, picture=picture if i == 0 else None, alt=alt))
    if not message.embeds and picture is not None:
        parts.append(f'<img class="picture" src="{html.escape(picture)}" alt="{html.escape(alt)}">')
    return "".join(parts)


def view_html(view: TableView, names: Namer, *, picture: str | None = None) -> str:
    """A table's composed view as the live page's main part: whose turn and until when, the seats (names,
    chips, who is to move), the board with its picture, the recent moves."""
    lines = [line for line in (view.turn_line, view.takeover_line) if line]
    parts = [f'<div class="content">{markdown(chr(10).join(lines), names)}</div>'] if lines else []
    if view.board.content:
        parts.append(f'<div class="content">{markdown(view.board.content, names)}</div>')
    if view.phase:
        parts.append(f'<p class="phase">{_inline(view.phase, names)}</p>')
    seats = []
    for seat in view.seats:
        count = "" if seat.chips is None else tn(view.locale, "count.chip", seat.chips)
        chips = f' <span class="chips">{html.escape(count, quote=False)}</span>' if count else ""
        mark = ' class="to-move"' if seat.to_move else ""
        seats.append(f"<li{mark}>{html.escape(seat.name, quote=False)}{chips}</li>")
    if seats:
        parts.append(f'<ul class="seats">{"".join(seats)}</ul>')
    alt = view.picture.alt if view.picture is not None else ""
    for i, embed in enumerate(view.board.embeds):
        parts.append(embed_html(embed, names, picture=picture if i == 0 else None, alt=alt))
    if not view.board.embeds and picture is not None:
        parts.append(f'<img class="picture" src="{html.escape(picture)}" alt="{html.escape(alt)}">')
    if view.log:
        log = "".join(f"<li>{_inline(line, names)}</li>" for line in view.log)
        title = html.escape(t(view.locale, "web.log"))
        parts.append(f'<section class="card log"><h2>{title}</h2><ol>{log}</ol></section>')
    return "".join(parts)


def page(
    *,
    title: str,
    body: str,
    locale: str,
    data: dict[str, str] | None = None,
    script: bool = False,
) -> str:
    """A whole page: phone-first (readable at 360 px), the reader's language, no outside resource."""
    attributes = "".join(f' data-{k}="{html.escape(v)}"' for k, v in (data or {}).items())
    script_tag = '<script src="/static/web.js" defer></script>' if script else ""
    return (
        f'<!doctype html><html lang="{locale}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        f'<link rel="stylesheet" href="/static/web.css">{script_tag}</head>'
        f"<body{attributes}><main>{body}</main>"
        f'<footer class="about">{html.escape(t(locale, "web.footer"))}</footer></body></html>'
    )


def error_page(status: int, sentence: str, locale: str) -> str:
    body = f'<section class="card error"><h2>{status}</h2><p>{html.escape(sentence)}</p></section>'
    return page(title=f"{status} · {sentence}", body=body, locale=locale)
