"""The pages' one HTML builder: `el` makes an element, `page` the skeleton every page is drawn in, and the
typed view (`bot.render.view`) drawn with them (a person by the name the table knows, a moment as a `<time>`
element the page's script counts down in the reader's language, emphasis as its elements).

Escaped by construction: what `el` and `join` make is `Markup`; anything else placed in them, a player's
name or a stored word, is text and is escaped there, an attribute's value always. No page writes a tag in a
string of its own. Nothing here reads another surface's output: the words arrive as typed spans
(`bot.render.view.text`).
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
VOID = frozenset({"meta", "link", "img", "br"})  # elements without content or an end tag


class Markup(str):
    """HTML made by this module: placed as it is. (Joining two by `+` gives a plain `str`, which is text:
    join with `join`.)"""

    __slots__ = ()


Child = Markup | str | None  # a plain str is text (escaped where it is placed); None is nothing


def text(words: str) -> Markup:
    return Markup(html.escape(words, quote=False))


def join(children: Iterable[Child]) -> Markup:
    return Markup("".join(c if isinstance(c, Markup) else text(c) for c in children if c is not None))


def _attribute(name: str) -> str:
    return name.rstrip("_").replace("_", "-")  # class_ -> class, data_step -> data-step


def el(tag: str, *children: Child, **attributes: str | int | None) -> Markup:
    """`<tag a="v">children</tag>`: every attribute's value and every plain-text child escaped; an attribute
    whose value is None is left out."""
    attrs = "".join(
        f' {_attribute(name)}="{html.escape(str(value))}"'
        for name, value in attributes.items()
        if value is not None
    )
    if tag in VOID:
        return Markup(f"<{tag}{attrs}>")
    return Markup(f"<{tag}{attrs}>{join(children)}</{tag}>")


# ---- the typed view


def span_html(span: typed.Span) -> Markup:
    match span:
        case typed.Words():
            inner = text(span.text)
        case typed.Person():
            inner = el("span", span.name, class_="who")
        case typed.Channel():
            inner = text("#")
        case typed.Moment():
            inner = el("time", data_t=span.at, data_style=span.style)
    for mark in reversed(span.marks):
        inner = el(_TAGS[mark], inner)
    return inner


def inline_html(line: typed.Line) -> Markup:
    return join(span_html(s) for s in line.spans)


def lines_html(lines: Iterable[typed.Line]) -> Markup:
    """Typed lines as the page's lines (a small line, a quote, a heading by its style)."""
    out = []
    for line in lines:
        inner = inline_html(line) if any(_seen(s) for s in line.spans) else Markup("&nbsp;")
        cls = _CLASSES.get(line.style)
        out.append(el("div", inner, class_=f"line {cls}" if cls else "line"))
    return join(out)


def _seen(span: typed.Span) -> bool:
    return not isinstance(span, typed.Words) or bool(span.text.strip())


def markdown(words: str, names: Namer) -> Markup:
    """Composed words as HTML lines."""
    return lines_html(typed.text(words, names))


def picture_html(picture: str, alt: str) -> Markup:
    return el("img", class_="picture", src=picture, alt=alt)


def block_html(block: typed.Block, *, picture: str | None = None, alt: str = "") -> Markup:
    fields = None
    if block.fields:
        rows = [
            el(
                "div",
                el("dt", inline_html(name)),
                el("dd", lines_html(value)),
                class_=None if inline else "wide",
            )
            for name, value, inline in block.fields
        ]
        fields = el("dl", *rows, class_="fields")
    return el(
        "section",
        el("h2", inline_html(block.title)) if block.title is not None else None,
        el("div", lines_html(block.text), class_="text") if block.text else None,
        fields,
        picture_html(picture, alt) if picture is not None else None,
        el("footer", lines_html(block.footer)) if block.footer else None,
        class_="card",
        style=None if block.colour is None else f"border-color:#{block.colour:06x}",
    )


def embed_html(embed: Embed, names: Namer, *, picture: str | None = None, alt: str = "") -> Markup:
    return block_html(typed.block(embed, names), picture=picture, alt=alt)


def message_html(message: Message, names: Namer, *, picture: str | None = None) -> Markup:
    """A message as the page's main part: its content, then its embeds (the picture in the first)."""
    parts = []
    if message.content:
        parts.append(el("div", markdown(message.content, names), class_="content"))
    alt = message.picture.alt if message.picture is not None else ""
    for i, embed in enumerate(message.embeds):
        parts.append(embed_html(embed, names, picture=picture if i == 0 else None, alt=alt))
    if not message.embeds and picture is not None:
        parts.append(picture_html(picture, alt))
    return join(parts)


def view_html(view: typed.PublicView, *, picture: str | None = None) -> Markup:
    """A table's typed public view as the live page's main part: whose turn and until when, the seats
    (names, chips, who is to move), the board with its picture, the recent moves."""
    parts = [el("div", lines_html(view.said), class_="content")] if view.said else []
    if view.board:
        parts.append(el("div", lines_html(view.board), class_="content"))
    if view.phase is not None:
        parts.append(el("p", inline_html(view.phase), class_="phase"))
    seats = [
        el(
            "li",
            seat.person.name,
            None if seat.chips is None else join([" ", el("span", seat.chips.shown, class_="chips")]),
            class_="to-move" if seat.to_move else None,
        )
        for seat in view.seats
    ]
    if seats:
        parts.append(el("ul", *seats, class_="seats"))
    alt = ""  # the picture is the page's own request (its alt is the picture's)
    for i, block in enumerate(view.blocks):
        parts.append(block_html(block, picture=picture if i == 0 else None, alt=alt))
    if not view.blocks and picture is not None:
        parts.append(picture_html(picture, alt))
    if view.log:
        log = el("ol", *(el("li", inline_html(line)) for line in view.log))
        parts.append(el("section", el("h2", t(view.locale, "web.log")), log, class_="card log"))
    return join(parts)


# ---- the page


def page(
    *,
    title: str,
    body: Markup,
    locale: str,
    data: dict[str, str] | None = None,
    script: bool = False,
) -> str:
    """A whole page: phone-first (readable at 360 px), the reader's language, no outside resource; `data`
    the body's `data-*` attributes (what the page's script reads)."""
    head = el(
        "head",
        el("meta", charset="utf-8"),
        el("meta", name="viewport", content="width=device-width, initial-scale=1"),
        el("meta", name="referrer", content="no-referrer"),
        el("meta", name="robots", content="noindex, nofollow"),
        el("title", title),
        el("link", rel="icon", href="/static/favicon.svg", type="image/svg+xml"),
        el("link", rel="stylesheet", href="/static/web.css"),
        el("script", src="/static/web.js", defer="") if script else None,
    )
    attributes: dict[str, str | int | None] = {f"data-{k}": v for k, v in (data or {}).items()}
    body_el = el(
        "body", el("main", body), el("footer", t(locale, "web.footer"), class_="about"), **attributes
    )
    return "<!doctype html>" + el("html", head, body_el, lang=locale)


def error_page(status: int, sentence: str, locale: str) -> str:
    body = el("section", el("h2", str(status)), el("p", sentence), class_="card error")
    return page(title=f"{status} · {sentence}", body=body, locale=locale)
