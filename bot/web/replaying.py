"""A finished table's replay: the page at a step, one step's part for the page's script, a step's picture."""

from __future__ import annotations

from html import escape

from aiohttp import web

from bot.i18n import t
from bot.render.common import Message, neutral
from bot.render.pictures.labels import player_name
from bot.sessions.errors import NotAllowed
from bot.sessions.view import table_info
from bot.web import html, metrics
from bot.web.base import PageBase
from bot.web.guard import Refusal
from bot.web.links import REPLAY
from bot.web.shown import replay_step

MAX_STEP = 100_000


class ReplayPages(PageBase):
    # ---- the replay

    async def _step(self, request: web.Request, step: int) -> tuple[str, Message, str | None, int]:
        table_id = self._id(request, REPLAY)
        row = await self.store.get_table(table_id)
        if row is None:
            raise Refusal("web.error.not_found", 404)
        await self._guild_on(row.guild_id)
        if row.status != "finished":
            raise Refusal("replay.not_finished", 409)
        locale = self._locale(request, (row.meta or {}).get("language", "en"))
        try:
            with neutral():  # the page draws the typed view's words
                viewer = await self.replays.step(table_id, step, guild_id=row.guild_id, locale=locale)
            replayed = await self.replays.replayed_table(table_id, row.guild_id)
        except NotAllowed as refused:
            raise Refusal(refused.key, 409) from None
        step = min(step, replayed.last)
        entry = None
        if step > 0:
            history = await self.store.history(table_id)
            entry = history[step - 1] if step - 1 < len(history) else None
        with neutral():
            shown = replay_step(viewer, row.kind, entry, step, replayed.last, locale=locale)
        info = table_info(replayed.record)
        namer: html.Namer = lambda player: player_name(info, player, info.names, locale)  # noqa: E731
        link = request.path.split("/step/")[0]
        picture = f"{link}/picture/{step}.png?lang={locale}" if shown.message.picture is not None else None
        part = ""
        if shown.action is not None:
            part += f'<div class="action">{html.markdown(shown.action, namer)}</div>'
        part += html.message_html(shown.message, namer, picture=picture)
        return locale, shown.message, part, shown.last

    async def replay_page(self, request: web.Request) -> web.Response:
        step = self._number(request.query.get("step", "0"), MAX_STEP)
        locale, _, part, last = await self._step(request, step)
        step = min(step, last)
        metrics.PAGES.labels(REPLAY).inc()
        labels = {nav: t(locale, f"replay.button.{nav}") for nav in ("first", "back", "forward", "last")}
        targets = {"first": 0, "back": max(step - 1, 0), "forward": min(step + 1, last), "last": last}
        buttons = "".join(
            f'<a class="button {nav}" data-nav="{nav}" href="?step={targets[nav]}&amp;lang={locale}"'
            f"{' aria-disabled=true' if targets[nav] == step else ''}>{escape(label)}</a>"
            for nav, label in labels.items()
        )
        body = (
            f'<nav class="steps">{buttons}</nav><p class="keys">{escape(t(locale, "web.replay.keys"))}</p>'
            f'<div id="step">{part}</div>'
        )
        page = html.page(
            title=t(locale, "web.title.replay", table=self._id(request, REPLAY)), body=body, locale=locale,
            data={"step": str(step), "last": str(last), "lang": locale, "base": request.path},
            script=True,
        )  # fmt: skip
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def replay_part(self, request: web.Request) -> web.Response:
        step = self._number(request.match_info["step"], MAX_STEP)
        _, _, part, last = await self._step(request, step)
        metrics.PAGES.labels("replay_step").inc()
        return web.json_response({"step": min(step, last), "last": last, "html": part})

    async def replay_png(self, request: web.Request) -> web.Response:
        step = self._number(request.match_info["step"], MAX_STEP)
        _, message, _, _ = await self._step(request, step)
        return self._png(message.picture)
