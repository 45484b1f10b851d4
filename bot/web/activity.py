"""The game as a Discord Activity (issue 33): the page Discord shows inside a channel, and its API.

Everything lives under `/activity/` (the developer portal maps the Activity's root `/` to
`PUBLIC_URL/activity`, README "Playing inside Discord"):
- `/activity/` and `/activity/assets/...`: the client built from `client/` (Vite, the Embedded App SDK);
- `GET api/config`: the application's client id (public; the page's SDK needs it);
- `POST api/token` `{code}`: the code the Discord client gave the page, traded at Discord for an access token
  with the client secret (`identity.Identity.exchange`); the secret never reaches the browser;
- `GET api/table?instance=<id>&after=<version>`: the table of the channel the Activity runs in, as its reader
  may see it (a seated player: his own private view with his legal moves; anyone else: the public view), held
  open until a newer state than `after` is stored (long poll, `WAIT` seconds at most);
- `POST api/click` `{instance, table, token, seq}`: a move or a lobby button, through the session layer's
  click entry point (`SessionManager.click`): the same service, transaction and refusals as a Discord click.

Every API request carries `Authorization: Bearer <the player's Discord token>`, checked with Discord; the
channel is the instance's as Discord says, the table must be that channel's, and the player acts for himself
only (the session layer checks his seat). Nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import render
from bot.i18n import catalogue, resolve_locale, t
from bot.i18n.cards import format_card, parse_card
from bot.render.common import CUSTOM_ID_PREFIX, Button, Message, custom_id
from bot.render.compose import HAND, MOVE, MoveChoice, TableView
from bot.render.pictures.labels import player_name
from bot.render.wording import refusal_text
from bot.sessions.errors import NotAllowed, Text
from bot.sessions.facts import TableFact
from bot.sessions.manager import SessionManager
from bot.sessions.records import TableRecord
from bot.sessions.view import message_of, table_info, view_of
from bot.web import html, inputs
from bot.web.feed import Feed, Watched
from bot.web.guard import Refusal
from bot.web.identity import Identity, Player

CLIENT = Path(__file__).parent / "static" / "activity"  # what `npm run build` in client/ writes
WAIT = 20.0  # seconds a table request waits for a newer state before it answers with the same one
LOG_LINES = 12
PLAY = "play"  # the table message's "Play here" (its click launches the Activity: cogs/activity.py)
NOT_CLICKS = {
    MOVE,
    HAND,
    "table",
    PLAY,
}  # Discord's own dialogs: the Activity shows the hand and the moves itself
TYPES = {".js": "application/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


class Activity:
    def __init__(
        self, sessions: SessionManager, feed: Feed, identity: Identity, *,
        picture_link: Callable[[int], str] | None = None,
    ) -> None:  # fmt: skip
        self.sessions = sessions
        self.feed = feed
        self.identity = identity
        self.closing = asyncio.Event()
        # The signed path of a table's live page (`/table/<id>/<until>/<sig>`, the web server's signer): the
        # Activity shows that page's picture of the table (the result card once it is over).
        self.picture_link = picture_link
        # Long polls waiting per channel: a stored change of any table there (a rematch's new table too)
        # answers them; the feed's own queue answers those of changes stored by another process.
        self._waiting: dict[int, set[asyncio.Event]] = {}
        sessions.tables.stored.listen(self._stored)

    def _stored(self, fact: TableFact) -> None:
        record = fact.record
        for channel in {record.channel_id, record.home_channel_id}:
            for event in self._waiting.get(channel or 0, ()):
                event.set()

    def install(self, app: web.Application) -> None:
        app.on_response_prepare.append(_framed_by_discord)  # after the pages' own headers (bot/web/server.py)
        app.router.add_get("/activity", self.redirect)
        app.router.add_get("/activity/", self.index)
        app.router.add_get("/activity/assets/{name}", self.asset)
        app.router.add_get("/activity/api/config", self.config)
        app.router.add_post("/activity/api/token", self.token)
        app.router.add_get("/activity/api/table", self.table)
        app.router.add_post("/activity/api/click", self.click)

    def buttons(self, record: TableRecord, locale: object) -> list[Button]:
        """The table message's "Play here" while the table is open or playing: it launches the Activity
        (cogs/activity.py answers its click with LAUNCH_ACTIVITY)."""
        if record.status not in ("lobby", "running"):
            return []
        label = t(locale, "activity.button.play")
        return [Button(label=label, custom_id=custom_id(record.id, PLAY), style="primary")]

    async def close(self) -> None:
        self.closing.set()
        await self.identity.close()

    # ---- the page

    async def redirect(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("/activity/")

    async def index(self, request: web.Request) -> web.Response:
        page = CLIENT / "index.html"
        if not page.is_file():
            raise Refusal("activity.error.not_built", 503)
        return web.Response(
            body=page.read_bytes(), content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = CLIENT / "assets" / name
        kind = TYPES.get(Path(name).suffix)
        if kind is None or "/" in name or name.startswith(".") or not path.is_file():
            raise Refusal("web.error.not_found", 404)
        return web.Response(
            body=path.read_bytes(), content_type=kind, headers={"Cache-Control": "max-age=3600"}
        )

    # ---- the API

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.identity.client_id)})

    async def token(self, request: web.Request) -> web.Response:
        try:
            code = inputs.body(inputs.TokenBody, await request.read()).code
        except Refusal:
            raise Refusal("activity.error.code", 400) from None
        return web.json_response({"access_token": await self.identity.exchange(code)})

    async def _reader(self, request: web.Request, instance_id: str | None) -> tuple[Player, int, str]:
        """The player (Discord's word for the token), the channel his Activity runs in, his language."""
        instance_id = inputs.instance(instance_id)
        player = await self.identity.who(request.headers.get("Authorization", ""))
        instance = await self.identity.instance(instance_id, player.id)
        if instance.guild_id and not (await self.feed.store.guild_settings(instance.guild_id)).web:
            raise Refusal("web.error.off", 403)  # the server turned its pages off (/settings web off)
        locale = resolve_locale(player.locale)
        self.sessions.saw(player.id, locale, display_name=player.name or None)
        return player, instance.channel_id, locale

    async def _current(self, channel_id: int) -> Watched | None:
        record = self.sessions.tables.in_channel(channel_id)
        if record is None:
            row = await self.feed.store.last_table(channel_id)
            if row is None:
                return None
            return await self.feed.current(row.id)
        return await self.feed.current(record.id)

    async def table(self, request: web.Request) -> web.Response:
        after = inputs.after(request.query.get("after"))
        player, channel_id, locale = await self._reader(request, request.query.get("instance"))
        watched = await self._current(channel_id)
        if watched is not None and after == f"{watched.record.id}.{watched.version}":
            await self._wait(channel_id, watched.record.id)
            watched = await self._current(channel_id)
        if watched is None:
            return _json({"table": None, "version": "", "locale": locale,
                          "empty": t(locale, "activity.no_table")})  # fmt: skip
        return _json(self.shown(watched, str(player.id), locale))

    async def _wait(self, channel_id: int, table_id: int) -> None:
        """Until a newer state of the channel's table (or a new table there) is stored, `WAIT` at most."""
        event = asyncio.Event()
        self._waiting.setdefault(channel_id, set()).add(event)
        try:
            async with self.feed.watch(table_id) as changed:
                waits = {asyncio.ensure_future(changed.get()), asyncio.ensure_future(event.wait())}
                try:
                    await asyncio.wait(waits, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for wait in waits:
                        wait.cancel()
        finally:
            waiting = self._waiting.get(channel_id, set())
            waiting.discard(event)
            if not waiting:
                self._waiting.pop(channel_id, None)

    async def click(self, request: web.Request) -> web.Response:
        body = inputs.body(inputs.ClickBody, await request.read())  # strict: `true` is no table
        player, channel_id, locale = await self._reader(request, body.instance)
        table_id, token, seq = body.table, body.token, body.seq
        # A finished table (its Rematch) is no longer in play: the stored one says where it was.
        record = self.sessions.tables.by_id(table_id)
        if record is None:
            watched = await self.feed.current(table_id)
            record = watched.record if watched is not None else None
        if record is None or channel_id not in (record.channel_id, record.home_channel_id):
            return _json({"error": t(locale, "activity.error.other_table")}, status=403)
        if token in NOT_CLICKS:
            raise Refusal("web.error.bad_request", 400)
        try:
            answer = await self.sessions.click(table_id, player.id, token, seq, locale=locale)
        except NotAllowed as refusal:
            return _json({"error": refusal_text(refusal, locale)}, status=409)
        said = answer.word(locale) if isinstance(answer, Text) else None
        return _json({"ok": True, "said": said})

    # ---- what a reader sees

    def _picture(self, watched: Watched, locale: str) -> str | None:
        """The table's picture, relative to the page (its path under `/activity/`), or None without one."""
        record = watched.record
        if self.picture_link is None or record.game is None or not table_info(record).pictures:
            return None
        return f"{self.picture_link(record.id).lstrip('/')}/picture/{watched.version}.png?lang={locale}"

    def shown(self, watched: Watched, me: str, locale: str) -> dict[str, Any]:
        record = watched.record
        seated = record.game is not None and me in record.game.players
        view = view_of(
            record, steps=watched.steps, deadline=watched.deadline, locale=locale,
            reader=me if seated else None,
        )  # fmt: skip
        info = table_info(record)

        def namer(player: str) -> str:
            return player_name(info, player, info.names, locale)

        board = view.board.model_copy(deep=True)
        board.content = "\n".join(x for x in (view.turn_line, view.takeover_line, board.content) if x) or None
        controls = [_control(record.kind, b) for row in message_of(record, view).rows for b in row]
        return {
            "table": record.id, "version": f"{record.id}.{watched.version}", "seq": record.seq,
            "status": record.status, "game": view.game_name, "locale": locale,
            "phase": html.markdown(view.phase, namer) if view.phase else None,
            "your_turn": bool(view.moves), "seated": me in record.players, "you": me,
            "board": html.message_html(board, namer),
            "log": [html.markdown(line, namer) for line in view.log[-LOG_LINES:]],
            "seats": [{"name": s.name, "to_move": s.to_move, "computer": s.computer or s.takeover,
                       "chips": s.chips, "you": s.player == me} for s in view.seats],
            "hand": _hand(view, record, me, namer, locale),
            "moves": [_move(record.kind, m, locale) for m in view.moves],
            "controls": [c for c in controls if c is not None],
            "picture": self._picture(watched, locale),
            "words": _words(locale),
        }  # fmt: skip


def _shown(card: object, locale: str) -> str | None:
    """A card as the reader reads it (`A♠`, in his language's ranks); None for no card."""
    if not isinstance(card, str) or not card:
        return None
    try:
        return format_card(parse_card(card), locale)
    except ValueError:
        return card


def _source(kind: str, source: object, locale: str) -> str | None:
    """Where a card is taken from, as the game words its places (`<game>.place.<pile>`: Malice's payoff
    pile, a side stack); None: the hand."""
    if not isinstance(source, str) or source == "hand":
        return None
    name, number = source.rstrip("0123456789"), source[len(source.rstrip("0123456789")) :]
    key = f"{kind}.place.{name}"
    if key not in catalogue():
        return source
    return t(locale, key, number=int(number)) if number else t(locale, key)


# The Activity's page lives in Discord's client (an iframe of discord.com, its test builds and the desktop
# app, which loads the same origin): those may frame it, no other site; the rest of the pages' policy stands.
DISCORD_CLIENTS = "https://discord.com https://*.discord.com https://discordapp.com https://*.discordapp.com"
FRAMED_BY_DISCORD = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; "
    f"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {DISCORD_CLIENTS}"
)


async def _framed_by_discord(request: web.Request, response: web.StreamResponse) -> None:
    if request.path.startswith("/activity/"):
        response.headers["Content-Security-Policy"] = FRAMED_BY_DISCORD


def _hand(view: TableView, record: Any, me: str, namer: html.Namer, locale: str) -> dict[str, Any] | None:
    """The reader's own hand (only in his own view): its cards to tap and its message's words."""
    if view.hand is None or record.game is None:
        return None
    cards = [{"card": str(c), "shown": _shown(str(c), locale)} for c in record.game.view(me).hand]
    hand: Message = view.hand.model_copy(deep=True)
    hand.rows = []
    return {"cards": cards, "html": html.message_html(hand, namer)}


def _move(kind: str, move: MoveChoice, locale: str) -> dict[str, Any]:
    """A legal move for the page: its words (`short` on the button: the card and the place it goes to;
    `label` the whole sentence, the button's description), its token, and what the tap UI groups it by (the
    card it moves and from where, or the amount of a bid), read back from the token as Discord's buttons
    carry it."""
    facts = render.parse_token(kind, move.token) or {}
    amount = facts.get("amount")
    return {
        "label": move.label, "short": _short(kind, facts, locale) or move.label, "token": move.token,
        "seq": move.seq, "card": facts.get("card") or None,
        "shown": _shown(facts.get("card"), locale), "from": _source(kind, facts.get("source"), locale),
        "source": facts.get("source"), "amount": amount if isinstance(amount, int) else None,
    }  # fmt: skip


def _short(kind: str, facts: dict[str, object], locale: str) -> str | None:
    """A move to a place as a button says it at a glance: `J♦ → side stack 2` (a joker played as a rank:
    `🃏 (A) → centre 1`); None for a move that goes to no place (its own label is short already)."""
    card, to = _shown(facts.get("card"), locale), _source(kind, facts.get("to"), locale)
    if card is None or to is None:
        return None
    rank = facts.get("as_rank")
    return f"{card}{f' ({rank})' if isinstance(rank, str) and rank else ''} → {to}"


def _control(kind: str, button: Button) -> dict[str, Any] | None:
    """A table message's button the Activity offers too (a lobby's, the rematch): its label and token. A
    move the table message carries (End turn, Pass) is among the mover's own moves already."""
    if button.url is not None or button.disabled or not button.custom_id:
        return None
    parts = button.custom_id.split(":")
    if len(parts) < 3 or parts[0] != CUSTOM_ID_PREFIX or parts[2] in NOT_CLICKS:  # (the replay's: Discord's)
        return None
    if render.parse_token(kind, parts[2]) is not None:
        return None
    seq = int(parts[3]) if len(parts) > 3 and parts[3].isdigit() else None
    return {"label": button.label, "token": parts[2], "seq": seq, "style": button.style}


def _words(locale: str) -> dict[str, str]:
    keys = ("hand", "moves", "wait", "where", "bid", "log", "seats", "back", "you", "computer", "spectator")
    return {k: t(locale, f"activity.ui.{k}") for k in keys}


def _json(data: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})
