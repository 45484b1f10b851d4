"""The typed view as HTML (`bot.render.view`): each typed part drawn as the page draws it (a person by the
name the table knows, a moment as a `<time>` element the page's script counts down in the reader's
language, emphasis as its elements); then the pages around it. Every word is escaped: nothing of a player's
name or a stored word reaches the page as markup. Nothing here reads another surface's output: the words
arrive as typed spans (`bot.render.view.text`), worded `neutral()`.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from bot.i18n import t
from bot.render import view as typed
from bot.render.common import Embed, Message

Namer = typed.Namer  # a player id -> the name the page shows
_TAGS = {"strong": "strong", "em": "em", "u": "u", "s": "s", "code": "code"}
_CLASSES = {"small": "small", "quote": "quote", "h1": "h1", "h2": "h2", "h3": "h3"}


def span_html(span: typed.Span) -> str:
    match span:
        case typed.Words():
            inner = html.escape(span.text, quote=False)
        case typed.Person():
            inner = f'<span class="who">{html.escape(span.name, quote=False)}</span>'
        case typed.Channel():
            inner = "#"
        case typed.Moment():
            inner = f'<time data-t="{span.at}" data-style="{span.style}"></time>'
    for mark in reversed(span.marks):
        inner = f"<{_TAGS[mark]}>{inner}</{_TAGS[mark]}>"
    return inner


def inline_html(line: typed.Line) -> str:
    return "".join(span_html(s) for s in line.spans)


def lines_html(lines: Iterable[typed.Line]) -> str:
    """Typed lines as the page's lines (a small line, a quote, a heading by its style)."""
    out = []
    for line in lines:
        inner = inline_html(line) if any(_seen(s) for s in line.spans) else "&nbsp;"
        cls = _CLASSES.get(line.style)
        out.append(f'<div class="line {cls}">{inner}</div>' if cls else f'<div class="line">{inner}</div>')
    return "".join(out)


def _seen(span: typed.Span) -> bool:
    return not isinstance(span, typed.Words) or bool(span.text.strip())


def markdown(text: str, names: Namer) -> str:
    """Words worded `neutral()` as HTML lines."""
    return lines_html(typed.text(text, names))


def _inline(text: str, names: Namer) -> str:
    return inline_html(typed.line(text, names))


def block_html(block: typed.Block, *, picture: str | None = None, alt: str = "") -> str:
    parts = ['<section class="card"']
    if block.colour is not None:
        parts.append(f' style="border-color:#{block.colour:06x}"')
    parts.append(">")
    if block.title is not None:
        parts.append(f"<h2>{inline_html(block.title)}</h2>")
    if block.text:
        parts.append(f'<div class="text">{lines_html(block.text)}</div>')
    if block.fields:
        parts.append('<dl class="fields">')
        for name, value, inline in block.fields:
            wide = "" if inline else ' class="wide"'
            parts.append(f"<div{wide}><dt>{inline_html(name)}</dt><dd>{lines_html(value)}</dd></div>")
        parts.append("</dl>")
    if picture is not None:
        parts.append(f'<img class="picture" src="{html.escape(picture)}" alt="{html.escape(alt)}">')
    if block.footer:
        parts.append(f"<footer>{lines_html(block.footer)}</footer>")
    parts.append("</section>")
    return "".join(parts)


def embed_html(embed: Embed, names: Namer, *, picture: str | None = None, alt: str = "") -> str:
    return block_html(typed.block(embed, names), picture=picture, alt=alt)


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


def view_html(view: typed.PublicView, *, picture: str | None = None) -> str:
    """A table's typed public view as the live page's main part: whose turn and until when, the seats
    (names, chips, who is to move), the board with its picture, the recent moves."""
    parts = [f'<div class="content">{lines_html(view.said)}</div>'] if view.said else []
    if view.board:
        parts.append(f'<div class="content">{lines_html(view.board)}</div>')
    if view.phase is not None:
        parts.append(f'<p class="phase">{inline_html(view.phase)}</p>')
    seats = []
    for seat in view.seats:
        chips = (
            ""
            if seat.chips is None
            else f' <span class="chips">{html.escape(seat.chips.shown, quote=False)}</span>'
        )
        mark = ' class="to-move"' if seat.to_move else ""
        seats.append(f"<li{mark}>{html.escape(seat.person.name, quote=False)}{chips}</li>")
    if seats:
        parts.append(f'<ul class="seats">{"".join(seats)}</ul>')
    alt = ""  # the picture is the page's own request (its alt is the picture's)
    for i, block in enumerate(view.blocks):
        parts.append(block_html(block, picture=picture if i == 0 else None, alt=alt))
    if not view.blocks and picture is not None:
        parts.append(f'<img class="picture" src="{html.escape(picture)}" alt="{html.escape(alt)}">')
    if view.log:
        log = "".join(f"<li>{inline_html(line)}</li>" for line in view.log)
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
