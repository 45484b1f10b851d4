"""The fake Discord's part for Activities (issue 33), as strict as Discord where the bot uses it:

- response type 12 (LAUNCH_ACTIVITY) to a slash command or a button starts (or joins) the app's Activity
  instance in the interaction's channel for that user; any other interaction type is refused, and the body is
  checked against Discord's schema like every callback (a type 12 carries no `data`);
- OAuth2: `POST /oauth2/token` (form-encoded, the application's client id and secret, grant_type
  authorization_code) trades a code the Discord client handed the Activity (`authorize_code`) for a bearer
  token, once; a wrong secret is 401 `invalid_client`, an unknown or used code 400 `invalid_grant`;
- `GET /users/@me` with `Authorization: Bearer <token>` is that token's user; an unknown token is 401;
- `GET /applications/{id}/activity-instances/{instance_id}` (bot token): the instance, its channel and users.

Tests drive the Discord client's side through `authorize_code(user)` (what the client's AUTHORIZE answers)
and `instances` (what the client knows of a launched Activity)."""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

CLIENT_SECRET = "fake-client-secret-0123456789"
APPLICATION_COMMAND, MESSAGE_COMPONENT = 2, 3
PRIMARY_ENTRY_POINT, DISCORD_LAUNCH_ACTIVITY = 4, 2  # a command's type, an entry point's handler
ENTRY_POINT_REMOVED = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry "
    "Point command in your update request or delete it separately."
)


@dataclass
class ActivityInstance:
    instance_id: str
    launch_id: str
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)

    def payload(self, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {
            "id": f"{'gc' if self.guild_id else 'pc'}-{self.channel_id}",
            "kind": "gc" if self.guild_id else "pc",
            "channel_id": str(self.channel_id),
        }
        if self.guild_id:
            location["guild_id"] = str(self.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": location,
            "users": [str(u) for u in self.users],
        }


class ActivityFake:
    """Mixed into FakeDiscord: the Activity's instances and OAuth2's codes and tokens."""

    application_id: int
    members: dict[str, Any]

    def _init_activity(self) -> None:
        self.client_secret = CLIENT_SECRET
        self.activity_enabled = False  # the developer portal's "Activities" switch: `enable_activities()`
        self.instances: dict[str, ActivityInstance] = {}
        self.launches: list[tuple[int, str]] = []  # (user id, instance id) per LAUNCH_ACTIVITY answered
        self._codes: dict[str, int] = {}
        self.access_tokens: dict[str, int] = {}
        self.oauth_calls = 0
        self._instance_ids = itertools.count(1)

    def enable_activities(self) -> None:
        """The developer portal's switch: Discord creates the app's default Entry Point command ("Launch",
        handled by Discord itself), which a bulk overwrite of the global commands must then keep (50240)."""
        self.activity_enabled = True
        commands: list[dict[str, Any]] = getattr(self, "global_commands", [])
        if not any(c.get("type") == PRIMARY_ENTRY_POINT for c in commands):
            commands.append(
                {
                    "id": str(self.application_id + 7),
                    "application_id": str(self.application_id),
                    "version": "1",
                    "type": PRIMARY_ENTRY_POINT,
                    "name": "launch",
                    "description": "",
                    "handler": DISCORD_LAUNCH_ACTIVITY,
                    "integration_types": [0, 1],
                    "contexts": [0, 1, 2],
                    "default_member_permissions": None,
                    "nsfw": False,
                }
            )
            self.global_commands = commands

    def entry_point_dropped(self, current: list[dict[str, Any]], body: list[dict[str, Any]]) -> bool:
        """A bulk overwrite of the global commands that would remove the Entry Point command."""
        had = any(c.get("type") == PRIMARY_ENTRY_POINT for c in current)
        return had and not any(c.get("type") == PRIMARY_ENTRY_POINT for c in body)

    # ---- what Discord's client does

    def authorize_code(self, user: Any) -> str:
        """The code AUTHORIZE answers the Activity with, for `user` (a FakeUser, a handle or an id)."""
        code = "code-" + secrets.token_hex(8)
        self._codes[code] = int(getattr(user, "id", user))
        return code

    def instance_of(self, channel_id: int) -> ActivityInstance | None:
        return next((i for i in self.instances.values() if i.channel_id == channel_id), None)

    def launch(self, kind: int, user_id: int, channel_id: int, guild_id: int | None) -> str | None:
        """A LAUNCH_ACTIVITY answer: the problem, or None with the user in the channel's instance."""
        if kind not in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
            return "response type 12 (LAUNCH_ACTIVITY) answers only a command or a component"
        if not self.activity_enabled:
            return "response type 12: the application has no Activity (developer portal: Activities)"
        instance = self.instance_of(channel_id)
        if instance is None:
            n = next(self._instance_ids)
            instance = ActivityInstance(f"i-{n}-{secrets.token_hex(4)}", f"launch-{n}", channel_id, guild_id)
            self.instances[instance.instance_id] = instance
        if user_id not in instance.users:
            instance.users.append(user_id)
        self.launches.append((user_id, instance.instance_id))
        return None

    # ---- REST

    async def _oauth_token(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        self.oauth_calls += 1
        form = body if isinstance(body, dict) else {}
        if (
            str(form.get("client_id")) != str(self.application_id)
            or form.get("client_secret") != self.client_secret
        ):
            return _oauth_error(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return _oauth_error(400, "unsupported_grant_type")
        user_id = self._codes.pop(str(form.get("code")), None)
        if user_id is None:
            return _oauth_error(400, "invalid_grant")
        token = "tok-" + secrets.token_hex(12)
        self.access_tokens[token] = user_id
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": "ref-" + secrets.token_hex(8),
                "scope": "identify",
            }
        )

    def bearer_user(self, request: web.Request) -> int | None:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return None
        return self.access_tokens.get(header.removeprefix("Bearer ").strip())

    async def _get_instance(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        instance = self.instances.get(p["instance_id"])
        if instance is None or int(p["application_id"]) != self.application_id:
            return web.json_response({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return web.json_response(instance.payload(self.application_id))


def _oauth_error(status: int, error: str) -> web.Response:
    return web.json_response({"error": error}, status=status)
