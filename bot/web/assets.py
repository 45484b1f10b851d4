"""The pages' own files: their style, script and icon (`/static/...`, and `/favicon.ico`, which every browser
asks for whatever the page says). Nothing else: no index, no listing."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from bot.web.guard import Refusal

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"web.js": "application/javascript", "web.css": "text/css", "favicon.svg": "image/svg+xml"}


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    kind = STATIC_FILES.get(name)
    if kind is None:
        raise Refusal("web.error.not_found", 404)
    return web.Response(
        body=(STATIC / name).read_bytes(), content_type=kind, headers={"Cache-Control": "max-age=3600"}
    )


async def favicon(request: web.Request) -> web.Response:
    return web.Response(
        body=(STATIC / "favicon.svg").read_bytes(),
        content_type="image/svg+xml",
        headers={"Cache-Control": "max-age=86400"},
    )
