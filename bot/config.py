"""Settings of the bot process, read from the environment and `.env` (see `.env.example`).

Tests build `Settings(...)` directly (with `_env_file=None`) so nothing from the developer's machine leaks in.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot import limits


class Settings(BaseSettings):
    """Every setting of the bot. Environment variables use the upper-case field names."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    # SecretStr: the token prints as '**********' in reprs, logs and validation errors.
    discord_token: SecretStr | None = None
    database_path: Path = Path("cardbot.sqlite3")
    # When set, commands are synced to this guild only (instant updates while developing).
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: str = "INFO"
    # `text` for people (colour only on a terminal), `json` (one object per line) for log collectors.
    log_format: Literal["text", "json"] = "text"
    # The default turn timeout of a new table; a table option may override it, within the same limits.
    turn_timeout_seconds: float = Field(
        default=float(limits.DEFAULT_TURN_TIMEOUT), ge=limits.TURN_TIMEOUT.min, le=limits.TURN_TIMEOUT.max
    )

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {value!r}: use DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        # `DEV_GUILD_ID=` in .env means "not set", not a validation error.
        return None if isinstance(value, str) and not value.strip() else value

    def token(self) -> str | None:
        """The token in clear text, or None when it is missing or blank."""
        if self.discord_token is None:
            return None
        return self.discord_token.get_secret_value().strip() or None
