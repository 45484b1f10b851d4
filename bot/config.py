"""Settings of the bot process, read from the environment and `.env` (see `.env.example`).

Tests build `Settings(...)` directly (with `_env_file=None`) so nothing from the developer's machine leaks in.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot import limits

# pydantic's error types, as a sentence after the setting's name (`METRICS_PORT must be at most 65535`).
_PROBLEMS = {
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "literal_error": "must be {expected}",
    "path_type": "must be a file path",
}


_SECRET = ("discord_token", "database_url")  # never echoed, not even when malformed


def _plain(value: object) -> object:
    """A limit as a person writes it: 10, not 10.0."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def setting_problems(error: ValidationError) -> str:
    """What is wrong with the settings, one clause per wrong setting, each naming it as it is set in the
    environment or .env (`LOG_LEVEL must be DEBUG, ... , not 'LOUD'`): never pydantic's own wording."""
    clauses = []
    for err in error.errors():
        name = str(err["loc"][0]).upper() if err["loc"] else ""
        template = _PROBLEMS.get(err["type"])
        if template is not None:
            problem = template.format(**{k: _plain(v) for k, v in (err.get("ctx") or {}).items()})
            if name and name.lower() not in _SECRET and isinstance(err.get("input"), str | int | float):
                problem += f", not {str(err['input'])[:40]!r}"  # what was set, as set (never a secret)
        else:
            problem = str(err["msg"]).removeprefix("Value error, ")  # our validators' own clauses
        clause = f"{name} {problem}" if name and not problem.startswith(name) else problem
        if clause not in clauses:
            clauses.append(clause)
    return "; ".join(clauses)


class Settings(BaseSettings):
    """Every setting of the bot. Environment variables use the upper-case field names."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # SecretStr: the token prints as '**********' in reprs, logs and validation errors.
    discord_token: SecretStr | None = None
    database_path: Path = Path("cardbot.sqlite3")
    # `postgresql://user:password@host/db` selects PostgreSQL (several processes, one database); unset: the
    # SQLite file at DATABASE_PATH. Secret: it may hold a password.
    database_url: SecretStr | None = None
    # Shards: unset, one process runs Discord's recommended number of shards. Several processes each run a
    # range of SHARD_IDS out of SHARD_COUNT (all of them against one PostgreSQL database).
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    # When set, commands are synced to this guild only (instant updates while developing).
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: str = "INFO"
    # `text` for people (colour only on a terminal), `json` (one object per line) for log collectors.
    log_format: Literal["text", "json"] = "text"
    # Metrics and health for operators: with METRICS_PORT set, /metrics (Prometheus) and /healthz are served
    # on METRICS_HOST (this machine only unless set otherwise, e.g. 0.0.0.0 in a container).
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    # The table on the web (bot/web): with WEB_PORT set, the pages (a live table, a finished table's replay,
    # a server's leaderboard) are served on WEB_HOST; PUBLIC_URL is the address people reach them by (behind
    # a reverse proxy: its https address), written into the links the bot posts; WEB_SECRET signs those links
    # (at least 16 characters; every process of the bot must have the same one).
    web_port: int | None = Field(default=None, ge=0, le=65535)
    web_host: str = "127.0.0.1"
    public_url: str | None = None
    web_secret: SecretStr | None = None
    # The game as a Discord Activity (docs/operators/web.md): the application's
    # OAuth2 client id and secret from the developer portal. The secret stays on the server (the bot trades
    # the Activity's code for a token at Discord with it); both, with WEB_PORT, turn the Activity on.
    discord_client_id: int | None = Field(default=None, gt=0)
    discord_client_secret: SecretStr | None = None
    # The default turn timeout of a new table; a table option may override it, within the same limits.
    turn_timeout_seconds: float = Field(
        default=float(limits.DEFAULT_TURN_TIMEOUT), ge=limits.TURN_TIMEOUT.min, le=limits.TURN_TIMEOUT.max
    )

    @field_validator("metrics_host", "web_host", mode="before")
    @classmethod
    def _default_host(cls, value: object) -> object:
        return "127.0.0.1" if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {value!r}")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        # `SHARD_IDS=0,1` as well as JSON `[0, 1]`; blank means unset.
        if isinstance(value, str):
            parts = [part.strip() for part in value.strip().strip("[]").split(",") if part.strip()]
            if not all(part.isascii() and part.isdigit() for part in parts):
                raise ValueError(f"must be shard numbers separated by commas, like 0,1, not {value!r}")
            return [int(part) for part in parts] or None
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_only(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            if not text.startswith(("postgresql://", "postgres://")):
                raise ValueError("must start with postgresql://; for SQLite, set DATABASE_PATH instead")
            return text
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to {self.shard_count - 1}")
        return self

    def database(self) -> str:
        """Where the store lives: the PostgreSQL URL (in clear text: keep it out of logs) or the SQLite
        path."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return str(self.database_path)

    def database_name(self) -> str:
        """The database as logs and messages may show it (a URL without its password)."""
        if self.database_url is None:
            return str(self.database_path)
        from storage.common import redact

        return redact(self.database_url.get_secret_value())

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the guild's tables: the guild is on one of its shards (Discord's
        formula: (guild_id >> 22) % shard_count)."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @field_validator("public_url", mode="before")
    @classmethod
    def _public_url(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip().rstrip("/")
            if not text:
                return None
            if not text.startswith(("http://", "https://")):
                raise ValueError("must start with https:// (or http://): where people open the pages")
            return text
        return value

    @model_validator(mode="after")
    def _web_signed(self) -> Settings:
        if self.web_port is not None:
            secret = self.web_secret.get_secret_value().strip() if self.web_secret is not None else ""
            if not secret:
                raise ValueError(
                    "WEB_PORT needs WEB_SECRET, at least 16 characters (the pages' links are signed with it)"
                )
            if len(secret) < 16:  # set, but a short secret is guessed: say so, not that it is missing
                raise ValueError(
                    f"WEB_SECRET is too short: it needs at least 16 characters, not {len(secret)} (the "
                    "pages' links are signed with it; make one with openssl rand -hex 24)"
                )
        return self

    def web_url(self) -> str:
        """Where the pages are reached: PUBLIC_URL, else the address they are served on."""
        if self.public_url:
            return self.public_url
        return f"http://{self.web_host}:{self.web_port or 0}"

    @model_validator(mode="after")
    def _activity_pair(self) -> Settings:
        secret = self.discord_client_secret.get_secret_value().strip() if self.discord_client_secret else ""
        if (self.discord_client_id is None) != (not secret):
            raise ValueError(
                "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together (the Activity needs both, from the "
                "developer portal's OAuth2 page)"
            )
        return self

    def activity_on(self) -> bool:
        """Whether the Activity is served: its OAuth2 pair set and the web server on."""
        return self.discord_client_id is not None and self.web_port is not None

    @field_validator(
        "dev_guild_id", "shard_count", "metrics_port", "web_port", "discord_client_id", mode="before"
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        # `DEV_GUILD_ID=` in .env means "not set", not a validation error.
        return None if isinstance(value, str) and not value.strip() else value

    def token(self) -> str | None:
        """The token in clear text, or None when it is missing or blank."""
        if self.discord_token is None:
            return None
        return self.discord_token.get_secret_value().strip() or None
