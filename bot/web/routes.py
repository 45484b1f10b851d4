"""Every route of the web server, in one place (aiohttp's route table: `web.get(path, handler)`); the
handlers are plain functions of the request that read what they share from its `Site` (`bot.web.site`).

A page is behind its signed link (`/<kind>/<id>/<until>/<sig>`, `bot.web.links`):
- `/table/...`: a table, live; `.../live` its feed (server-sent events: one frame per stored change, the
  page's main part as HTML), `.../picture/<version>.png` its picture;
- `/replay/...?step=n`: a finished table, step by step; `.../step/<n>` one step's part (JSON),
  `.../picture/<n>.png` its picture;
- `/board/...`: a server's leaderboard;
- `/event/...`: a tournament's standings, pairings and bracket; `.../picture.png` its picture;
- `/static/...`: the pages' style and script. Nothing else: no index, no listing.

A new page: its module of handlers, its lines here and, if it has a link of its own, its kind in
`bot.web.links.KINDS` (docs/design.md, "Where a new thing goes").
"""

from __future__ import annotations

from aiohttp import web

from bot.web import activity, assets, board, event, live, replaying

LINK = "/{id}/{until}/{sig}"

PAGES: list[web.RouteDef] = [
    web.get("/table" + LINK, live.table_page),
    web.get("/table" + LINK + "/live", live.table_live),
    web.get("/table" + LINK + "/picture/{version}.png", live.table_png),
    web.get("/replay" + LINK, replaying.replay_page),
    web.get("/replay" + LINK + "/step/{step}", replaying.replay_part),
    web.get("/replay" + LINK + "/picture/{step}.png", replaying.replay_png),
    web.get("/board" + LINK, board.board_page),
    web.get("/event" + LINK, event.event_page),
    web.get("/event" + LINK + "/picture.png", event.event_png),
    web.get("/static/{name}", assets.static),
    web.get("/favicon.ico", assets.favicon),
]

# The game as a Discord Activity (`bot.web.activity`), served when its settings are set. Everything under
# `/activity/`: the developer portal maps the Activity's `/` there.
ACTIVITY: list[web.RouteDef] = [
    web.get("/activity", activity.redirect),
    web.get("/activity/", activity.index),
    web.get("/activity/assets/{name}", activity.asset),
    web.get("/activity/api/config", activity.config),
    web.get("/activity/api/schema.json", activity.schema),
    web.post("/activity/api/token", activity.token),
    web.get("/activity/api/table", activity.table),
    web.post("/activity/api/click", activity.click),
    web.get("/activity/favicon.ico", assets.favicon),
    # its table's picture (the result card once over): the live page's, where Discord's proxy maps
    web.get("/activity/table" + LINK + "/picture/{version}.png", live.table_png),
]
