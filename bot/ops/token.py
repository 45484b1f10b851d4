"""The bot token's shape, checked offline (`cardtable-bot check`): three parts of base64url joined by dots,
the first the application's id (a snowflake, in digits) in base64. What is pasted instead is named: the
application id itself, the client secret or the public key (from other pages of the developer portal),
the token with a `Bot ` prefix, in quotes, or with a space in it."""

from __future__ import annotations

import base64
import binascii
import re

_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+$")
_SNOWFLAKE = re.compile(r"^[0-9]{17,20}$")
_HEX = re.compile(r"^[0-9a-fA-F]+$")
WHERE = "copy the token from the Bot page of your application in the Discord developer portal (Reset Token)"


def application_id(token: str) -> int:
    """The application id a well-shaped token starts with; raises ValueError with the one sentence that
    says what is wrong with it (`token` as the settings hold it, outer spaces stripped)."""
    problem = _problem(token)
    if problem is not None:
        raise ValueError(f"DISCORD_TOKEN {problem}: {WHERE}.")
    return int(_decode(token.split(".")[0]) or "0")


def _decode(part: str) -> str | None:
    try:
        text = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode("ascii")
    except (binascii.Error, ValueError):
        return None
    return text if _SNOWFLAKE.match(text) else None


def _problem(token: str) -> str | None:
    if token[:1] in "\"'" or token[-1:] in "\"'":
        return "is in quotes (leave them out)"
    if token.lower().startswith("bot "):
        return 'starts with "Bot " (leave the prefix out: the bot adds it)'
    if any(c.isspace() for c in token):
        return "contains a space (a token has none)"
    if _SNOWFLAKE.match(token):
        return "is an application id (a number), not the token"
    parts = token.split(".")
    if len(parts) == 1 and _HEX.match(token) and len(token) == 64:
        return "is the application's public key, not the token"
    if len(parts) == 1 and _BASE64URL.match(token) and len(token) == 32:
        return "looks like the client secret (the OAuth2 page), not the bot token"
    if len(parts) != 3 or not all(_BASE64URL.match(p) for p in parts):
        return "is not a bot token (a token is three parts of letters, digits, - and _ joined by dots)"
    if _decode(parts[0]) is None:
        return "is not a bot token (its first part should be the application id in base64)"
    return None
