"""A finished table's replay: the page at a step, one step's part for the page's script, a step's picture.
Handlers (`bot.web.routes`) reading what they share from the request's `Site`."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.i18n import t
from bot.render.common import Message
from bot.render.pictures.labels import player_name
from bot.sessions.errors import NotAllowed
from bot.sessions.view import table_info
from bot.web import metrics
from bot.web.guard import Refusal
from bot.web.html import Markup, Namer, el, join, markdown, message_html, page
from bot.web.links import REPLAY
from bot.web.shown import replay_step
from bot.web.site import SITE, html_page, locale_of, number, png

MAX_STEP = 100_000
NAVIGATION = ("first", "back", "forward", "last")


@dataclass(frozen=True)
class Shown:
    """A step as the page shows it: its number (a step past the end is the end), the last step's, the
    reader's language, the step's message and its part of the page."""

    step: int
    last: int
    locale: str
    message: Message
    part: Markup


async def _step(request: web.Request, step: int) -> Shown:
    site = request.app[SITE]
    table_id = site.linked(request, REPLAY)
    row = await site.store.get_table(table_id)
    if row is None:
        raise Refusal("web.error.not_found", 404)
    await site.guild_on(row.guild_id)
    if row.status != "finished":
        raise Refusal("replay.not_finished", 409)
    locale = locale_of(request, (row.meta or {}).get("language", "en"))
    try:
        viewer = await site.replays.step(table_id, step, guild_id=row.guild_id, locale=locale)
        replayed = await site.replays.replayed_table(table_id, row.guild_id)
    except NotAllowed as refused:
        raise Refusal(refused.key, 409) from None
    step = min(step, replayed.last)
    entry = None
    if step > 0:
        history = await site.store.history(table_id)
        entry = history[step - 1] if step - 1 < len(history) else None
    shown = replay_step(viewer, row.kind, entry, replayed.last, locale=locale)
    info = table_info(replayed.record)
    namer: Namer = lambda player: player_name(info, player, info.names, locale)  # noqa: E731
    link = request.path.split("/step/")[0]
    picture = f"{link}/picture/{step}.png?lang={locale}" if shown.message.picture is not None else None
    action = None if shown.action is None else el("div", markdown(shown.action, namer), class_="action")
    part = join([action, message_html(shown.message, namer, picture=picture)])
    return Shown(step, shown.last, locale, shown.message, part)


async def replay_page(request: web.Request) -> web.Response:
    shown = await _step(request, number(request.query.get("step", "0"), MAX_STEP))
    step, last, locale = shown.step, shown.last, shown.locale
    metrics.PAGES.labels(REPLAY).inc()
    targets = {"first": 0, "back": max(step - 1, 0), "forward": min(step + 1, last), "last": last}
    buttons = [
        el(
            "a",
            t(locale, f"replay.button.{nav}"),
            class_=f"button {nav}",
            data_nav=nav,
            href=f"?step={targets[nav]}&lang={locale}",
            aria_disabled="true" if targets[nav] == step else None,
        )
        for nav in NAVIGATION
    ]
    body = join(
        [
            el("nav", *buttons, class_="steps"),
            el("p", t(locale, "web.replay.keys"), class_="keys"),
            el("div", shown.part, id="step"),
        ]
    )
    title = t(locale, "web.title.replay", table=request.app[SITE].linked(request, REPLAY))
    data = {"step": str(step), "last": str(last), "lang": locale, "base": request.path}
    return html_page(page(title=title, body=body, locale=locale, data=data, script=True))


async def replay_part(request: web.Request) -> web.Response:
    shown = await _step(request, number(request.match_info["step"], MAX_STEP))
    metrics.PAGES.labels("replay_step").inc()
    return web.json_response({"step": shown.step, "last": shown.last, "html": shown.part})


async def replay_png(request: web.Request) -> web.Response:
    shown = await _step(request, number(request.match_info["step"], MAX_STEP))
    return png(shown.message.picture)
