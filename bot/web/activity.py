"""The game as a Discord Activity (issue 33): the page Discord shows inside a channel, and its API.

Everything lives under `/activity/` (the developer portal maps the Activity's root `/` to
`PUBLIC_URL/activity`, docs/operators/web.md "The Activity"):
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

from aiohttp import web

from bot.i18n import resolve_locale, t
from bot.render.compose import DIALOGS, LAUNCH
from bot.render.pictures.labels import player_name
from bot.render.view import Control, SeatView, plain, text
from bot.render.wording import refusal_text
from bot.sessions.errors import NotAllowed, Text
from bot.sessions.facts import TableFact
from bot.sessions.manager import SessionManager
from bot.sessions.records import TableRecord
from bot.sessions.view import table_info, typed_of
from bot.web import api, html, inputs
from bot.web.feed import Feed, Watched
from bot.web.guard import Refusal
from bot.web.identity import Identity, Player

CLIENT = Path(__file__).parent / "static" / "activity"  # what `npm run build` in client/ writes
WAIT = 20.0  # seconds a table request waits for a newer state before it answers with the same one
LOG_LINES = 12
NOT_CLICKS = DIALOGS | {
    LAUNCH
}  # Discord's own dialogs, and the launch: the Activity shows hand and moves itself
CLICKS = {"lobby", "rematch"}  # the table message's controls the Activity offers too
TYPES = {".js": "application/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


class Activity:
    def __init__(
        self,
        sessions: SessionManager,
        feed: Feed,
        identity: Identity,
        *,
        picture_link: Callable[[int], str] | None = None,
    ) -> None:
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

    def stop_waiting(self) -> None:
        """The server stops: every long poll answers now, and none waits from here on."""
        self.closing.set()
        for events in self._waiting.values():
            for event in events:
                event.set()

    async def close(self) -> None:
        await self.identity.close()

    async def reader(self, request: web.Request, instance_id: str | None) -> tuple[Player, int, str]:
        """The player (Discord's word for the token), the channel his Activity runs in, his language."""
        instance_id = inputs.instance(instance_id)
        player = await self.identity.who(request.headers.get("Authorization", ""))
        instance = await self.identity.instance(instance_id, player.id)
        if instance.guild_id and not (await self.feed.store.guild_settings(instance.guild_id)).web:
            raise Refusal("web.error.off", 403)  # the server turned its pages off (/settings web off)
        locale = resolve_locale(player.locale)
        self.sessions.languages.saw(player.id, locale, display_name=player.name or None)
        return player, instance.channel_id, locale

    async def current(self, channel_id: int) -> Watched | None:
        record = self.sessions.tables.in_channel(channel_id)
        if record is None:
            row = await self.feed.store.last_table(channel_id)
            if row is None:
                return None
            return await self.feed.current(row.id)
        return await self.feed.current(record.id)

    async def wait(self, channel_id: int, table_id: int) -> None:
        """Until a newer state of the channel's table (or a new table there) is stored, `WAIT` at most."""
        if self.closing.is_set():
            return
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

    # ---- what a reader sees

    def picture(self, watched: Watched, locale: str) -> str | None:
        """The table's picture, relative to the page (its path under `/activity/`), or None without one."""
        record = watched.record
        if self.picture_link is None or record.game is None or not table_info(record).pictures:
            return None
        return f"{self.picture_link(record.id).lstrip('/')}/picture/{watched.version}.png?lang={locale}"

    def shown(self, watched: Watched, me: str, locale: str) -> api.TableOut:
        """The reader's answer, drawn from the typed view: his own `SeatView` if he is seated, else the
        `PublicView`; every part as the view typed it (no custom id or token read back here)."""
        record = watched.record
        seated = record.game is not None and me in record.game.players
        view = typed_of(
            record,
            steps=watched.steps,
            deadline=watched.deadline,
            locale=locale,
            reader=me if seated else None,
            log_lines=LOG_LINES,
        )
        public = view.public if isinstance(view, SeatView) else view
        said = (*public.said, *public.board)
        board = html.join(
            [
                html.el("div", html.lines_html(said), class_="content") if said else None,
                *(html.block_html(b) for b in public.blocks),
            ]
        )
        return api.TableOut(
            table=record.id,
            version=f"{record.id}.{watched.version}",
            seq=record.seq,
            status=record.status,
            game=public.game,
            locale=locale,
            phase=html.lines_html([public.phase]) if public.phase is not None else None,
            your_turn=isinstance(view, SeatView) and bool(view.moves),
            seated=me in record.players,
            you=me,
            board=board,
            log=[html.lines_html([line]) for line in public.log],
            seats=[
                api.SeatOut(
                    name=s.person.name,
                    to_move=s.to_move,
                    computer=s.computer,
                    chips=s.chips.n if s.chips is not None else None,
                    you=s.person.id == me,
                )
                for s in public.seats
            ],
            hand=_hand(view) if isinstance(view, SeatView) else None,
            moves=[_move(m) for m in view.moves] if isinstance(view, SeatView) else [],
            controls=[_control(c) for c in public.controls if c.kind in CLICKS],
            picture=self.picture(watched, locale),
            words=_words(locale),
        )


ACTIVITY = web.AppKey("activity", Activity)  # the app's Activity, when its settings are set


# ---- the page (handlers: `bot.web.routes`)


async def redirect(request: web.Request) -> web.Response:
    raise web.HTTPFound("/activity/")


async def index(request: web.Request) -> web.Response:
    page = CLIENT / "index.html"
    if not page.is_file():
        raise Refusal("activity.error.not_built", 503)
    return web.Response(
        body=page.read_bytes(), content_type="text/html", headers={"Cache-Control": "no-store"}
    )


async def asset(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    path = CLIENT / "assets" / name
    kind = TYPES.get(Path(name).suffix)
    if kind is None or "/" in name or name.startswith(".") or not path.is_file():
        raise Refusal("web.error.not_found", 404)
    return web.Response(body=path.read_bytes(), content_type=kind, headers={"Cache-Control": "max-age=3600"})


# ---- the API


async def config(request: web.Request) -> web.Response:
    return _answer(api.Config(client_id=str(request.app[ACTIVITY].identity.client_id)))


async def token(request: web.Request) -> web.Response:
    try:
        code = inputs.body(inputs.TokenBody, await request.read()).code
    except Refusal:
        raise Refusal("activity.error.code", 400) from None
    return _answer(api.Token(access_token=await request.app[ACTIVITY].identity.exchange(code)))


async def schema(request: web.Request) -> web.Response:
    """The JSON schema of every request and answer (`bot.web.api`): what the client's build checks."""
    return web.json_response(api.schema(), headers={"Cache-Control": "max-age=300"})


async def table(request: web.Request) -> web.Response:
    activity = request.app[ACTIVITY]
    after = inputs.after(request.query.get("after"))
    player, channel_id, locale = await activity.reader(request, request.query.get("instance"))
    watched = await activity.current(channel_id)
    if watched is not None and after == f"{watched.record.id}.{watched.version}":
        await activity.wait(channel_id, watched.record.id)
        watched = await activity.current(channel_id)
    if watched is None:
        return _answer(api.NoTable(locale=locale, empty=t(locale, "activity.no_table")))
    return _answer(activity.shown(watched, str(player.id), locale))


async def click(request: web.Request) -> web.Response:
    activity = request.app[ACTIVITY]
    body = inputs.body(inputs.ClickBody, await request.read())  # strict: `true` is no table
    player, channel_id, locale = await activity.reader(request, body.instance)
    table_id, token, seq = body.table, body.token, body.seq
    # A finished table (its Rematch) is no longer in play: the stored one says where it was.
    record = activity.sessions.tables.by_id(table_id)
    if record is None:
        watched = await activity.feed.current(table_id)
        record = watched.record if watched is not None else None
    if record is None or channel_id not in (record.channel_id, record.home_channel_id):
        return _answer(api.Failed(error=t(locale, "activity.error.other_table")), status=403)
    if token in NOT_CLICKS:
        raise Refusal("web.error.bad_request", 400)
    try:
        answer = await activity.sessions.click(table_id, player.id, token, seq, locale=locale)
    except NotAllowed as refusal:
        refused = _plain(refusal_text(refusal, locale), record, locale)
        return _answer(api.Failed(error=refused), status=409)
    said = _plain(answer.word(locale), record, locale) if isinstance(answer, Text) else None
    return _answer(api.Clicked(said=said))


def _plain(words: str, record: TableRecord, locale: str) -> str:
    """A sentence for the page as plain words: its people by the names the table knows."""
    info = table_info(record)
    return plain(text(words, lambda player: player_name(info, player, info.names, locale)))


# The Activity's page lives in Discord's client (an iframe of discord.com, its test builds and the desktop
# app, which loads the same origin): those may frame it, no other site; the rest of the pages' policy stands.
DISCORD_CLIENTS = "https://discord.com https://*.discord.com https://discordapp.com https://*.discordapp.com"
FRAMED_BY_DISCORD = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; "
    f"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {DISCORD_CLIENTS}"
)


async def framed_by_discord(request: web.Request, response: web.StreamResponse) -> None:
    if request.path.startswith("/activity/"):
        response.headers["Content-Security-Policy"] = FRAMED_BY_DISCORD


def _hand(view: SeatView) -> api.HandOut:
    """The reader's own hand (his own view alone has one): its cards to tap and its message's words."""
    cards = [api.CardOut(card=c.code, shown=c.shown) for c in view.hand]
    said = html.el("div", html.lines_html(view.hand_said), class_="content") if view.hand_said else None
    return api.HandOut(cards=cards, html=html.join([said, *(html.block_html(b) for b in view.hand_blocks)]))


def _move(move: Control) -> api.MoveOut:
    """A legal move for the page: its sentence, its words at a glance, its token, and what the tap UI groups
    it by, from the move's typed action."""
    act = move.action
    assert act is not None  # a move always has its action
    return api.MoveOut.model_validate(
        {
            "label": move.label,
            "short": move.short or move.label,
            "token": act.token,
            "seq": act.seq,
            "card": act.card.code if act.card is not None else None,
            "shown": act.card.shown if act.card is not None else None,
            "from": act.source.shown if act.source is not None else None,
            "source": act.source.key if act.source is not None else None,
            "amount": act.amount,
        }
    )


def _control(control: Control) -> api.ControlOut:
    act = control.action
    assert act is not None  # CLICKS are clicked, never links
    return api.ControlOut(label=control.label, token=act.token, seq=act.seq, style=control.style)


def _words(locale: str) -> dict[str, str]:
    keys = ("hand", "moves", "wait", "where", "bid", "log", "seats", "back", "you", "computer", "spectator")
    return {k: t(locale, f"activity.ui.{k}") for k in keys}


def _answer(answer: api.Answer, status: int = 200) -> web.Response:
    return web.Response(
        text=answer.model_dump_json(by_alias=True),
        status=status,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )
