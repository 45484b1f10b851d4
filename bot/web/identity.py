"""Who is asking, as Discord says (the Activity, `bot.web.activity`): nothing the browser claims is trusted.

- `exchange(code)`: the code the Discord client gave the Activity (AUTHORIZE), traded at Discord's
  `POST /oauth2/token` with the application's client secret, which never leaves the bot;
- `who(token)`: the user of a bearer token (`GET /users/@me`), asked of Discord and kept `WHO_FOR` seconds
  (a refused one too), so a forged or another user's token is refused by Discord itself; new tokens are asked
  about within a budget (`ASK_RATE`), so a flood of made-up ones cannot get the bot's address banned;
- `instance(id)`: where an Activity runs and who is in it (`GET /applications/{id}/activity-instances/{id}`,
  with the bot's token): the channel a player may act in is Discord's word, never the page's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypeVar

import aiohttp

from bot.web import inputs
from bot.web.guard import Refusal
from bot.web.inputs import MAX_ID, digits

WHO_FOR = 60.0  # seconds a token's user is trusted before Discord is asked again
# Seconds an instance's channel and users are trusted (asked again for a user not in it: he just launched it);
# each question is a bot-token request outside discord.py's pacing, so few of them.
INSTANCE_FOR = 120.0
KEPT = 4096  # tokens and instances remembered at most (the oldest forgotten first)
ASK_RATE, ASK_BURST = 5.0, 30  # questions a second about tokens not known yet, and at once (all players)
TIMEOUT = aiohttp.ClientTimeout(total=10)
T = TypeVar("T")


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    locale: str


@dataclass(frozen=True)
class Instance:
    channel_id: int
    guild_id: int
    users: frozenset[int]


class Identity:
    def __init__(self, api: str, client_id: int, client_secret: str, bot_token: str) -> None:
        self.api = api.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token
        self._who: dict[str, tuple[Player | None, float]] = {}
        self._asks = (float(ASK_BURST), time.monotonic())  # the budget of questions about unknown tokens
        self._instances: dict[str, tuple[Instance, float]] = {}
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def exchange(self, code: str) -> str:
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._session().post(f"{self.api}/oauth2/token", data=form) as answer:
                body = await answer.json(content_type=None)
                status = answer.status
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise Refusal("activity.error.discord", 502) from None
        if status != 200 or not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            raise Refusal("activity.error.code", 401)
        return str(body["access_token"])

    async def who(self, header: str) -> Player:
        """The player behind an `Authorization: Bearer <token>` header (401 without a token Discord knows)."""
        token = header.removeprefix("Bearer ").strip()
        if not header.startswith("Bearer ") or not 8 <= len(header) <= 300 or not _printable(token):
            raise Refusal("activity.error.token", 401)  # (a token is ASCII: nothing else goes to Discord)
        now = time.monotonic()
        known = self._who.get(token)
        if known is not None and now - known[1] < WHO_FOR:
            if known[0] is None:
                raise Refusal("activity.error.token", 401)
            return known[0]
        self._ask(now)
        body = await self._get("/users/@me", f"Bearer {token}")
        user_id = digits(str(body.get("id", "")), MAX_ID) if body is not None else None
        if body is None or not user_id:
            _keep(self._who, token, (None, now))  # a forged token costs Discord one question a minute
            raise Refusal("activity.error.token", 401)
        name = str(body.get("global_name") or body.get("username") or "")
        player = Player(user_id, name, str(body.get("locale") or ""))
        _keep(self._who, token, (player, now))
        return player

    def _ask(self, now: float) -> None:
        """One question to Discord about a token (or an instance) not known yet, within `ASK_RATE` a second
        (bursts of `ASK_BURST`): Discord bans an address that sends it many unauthorised requests, so a flood
        of made-up tokens is refused here (429) instead of being passed on."""
        left, at = self._asks
        left = min(float(ASK_BURST), left + (now - at) * ASK_RATE)
        if left < 1:
            self._asks = (left, now)
            raise Refusal("web.error.rate", 429, retry_after=max(1, int((1 - left) / ASK_RATE + 0.999)))
        self._asks = (left - 1, now)

    async def instance(self, instance_id: str, user_id: int) -> Instance:
        """The Activity instance `user_id` is in (403 when Discord does not know him in it)."""
        instance_id = inputs.instance(instance_id)  # (it is a part of the path asked below)
        now = time.monotonic()
        known = self._instances.get(instance_id)
        if known is None or now - known[1] >= INSTANCE_FOR or user_id not in known[0].users:
            self._ask(now)  # a made-up instance, or a player not in it, asks Discord within the budget too
            path = f"/applications/{self.client_id}/activity-instances/{instance_id}"
            body = await self._get(path, f"Bot {self._bot}")
            location = body.get("location") if body is not None else None
            channel = digits(str(location.get("channel_id")), MAX_ID) if isinstance(location, dict) else None
            if body is None or not isinstance(location, dict) or not channel:
                raise Refusal("activity.error.instance", 403)
            listed = body.get("users")
            ids = (digits(str(u), MAX_ID) for u in (listed if isinstance(listed, list) else ()))
            users = frozenset(u for u in ids if u)
            guild = digits(str(location.get("guild_id") or 0), MAX_ID) or 0
            known = (Instance(channel, guild, users), now)
            _keep(self._instances, instance_id, known)
        if user_id not in known[0].users:
            raise Refusal("activity.error.instance", 403)
        return known[0]

    async def _get(self, path: str, authorization: str) -> dict[str, object] | None:
        try:
            async with self._session().get(
                self.api + path, headers={"Authorization": authorization}
            ) as answer:
                if answer.status in (401, 403, 404):
                    return None
                if answer.status != 200:
                    raise Refusal("activity.error.discord", 502)
                body = await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise Refusal("activity.error.discord", 502) from None
        return body if isinstance(body, dict) else None


def _printable(text: str) -> bool:
    return text.isascii() and text.isprintable()


def _keep(cache: dict[str, T], key: str, value: T) -> None:
    cache[key] = value
    while len(cache) > KEPT:
        cache.pop(next(iter(cache)))
