"""A server's settings in the session layer (`/settings`): read from the store at each use (one read), so a
change counts at once in every process; checked where they apply.

- the defaults for new tables, per game and option, checked by the game's options model (`defaults.py`);
- the channels where games may be opened (none listed: every channel);
- a host role: when set, only its members and members with Manage Server open games, and its members may
  cancel any game, as Manage Server may.

A command a setting refuses says which setting refused it and who can change it (`settings.refused.*`).
The cogs tell who asks: his user id, whether he has Manage Server, his roles; nothing here knows Discord.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from bot import render
from bot.games.registry import REGISTRY
from bot.games.spec import option_choices, option_range
from bot.i18n.rules import Rules
from bot.render.common import Message, channel, role
from bot.render.options import OptionName, OptionValue, option_label, option_value
from bot.render.registry import PRESENTATIONS
from bot.render.settings import settings_message
from bot.sessions.defaults import check_default, game_name, option_names, table_options
from bot.sessions.errors import NotAllowed, Text
from bot.sessions.tables import Tables
from storage.common import ALL_TIME, SEASON
from storage.contract import Store
from storage.models import GuildSettings

# What a person may type for all-time (the option is free text, its offers say "all-time").
ALL_TIME_WORDS = (ALL_TIME, "all", "alltime", "gesamt", "insgesamt", "ewig")


def mention_channels(channels: Collection[int]) -> str:
    return ", ".join(channel(c) for c in channels)


def mention_role(role_id: int) -> str:
    return role(role_id)


class Servers:
    def __init__(self, store: Store, tables: Tables, *, default_timeout: float) -> None:
        self.store = store
        self.tables = tables
        self.default_timeout = default_timeout

    async def of(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    # ------------------------------------------------------------------ where they apply

    def may_open(
        self,
        settings: GuildSettings,
        channel_id: int,
        *,
        can_manage: bool,
        roles: Collection[int],
        parent_id: int | None = None,
    ) -> None:
        """Refuse opening a table here, naming the setting, if the server's settings say no. A thread
        (`parent_id`: its channel) is a game channel when its channel is."""
        listed = settings.channels
        if listed and channel_id not in listed and (parent_id is None or parent_id not in listed):
            raise NotAllowed("settings.refused.channel", channels=mention_channels(settings.channels))
        role = settings.host_role
        if role is not None and not can_manage and role not in roles:
            raise NotAllowed("settings.refused.role", role=mention_role(role))

    @staticmethod
    def may_cancel_any(settings: GuildSettings, *, can_manage: bool, roles: Collection[int]) -> bool:
        """Whether he may cancel any table, not only his own: Manage Server, or the host role."""
        return can_manage or (settings.host_role is not None and settings.host_role in roles)

    def new_table_options(
        self, settings: GuildSettings, kind: str, given: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The options of a new table of `kind`: the command's over the server's defaults, checked."""
        return table_options(REGISTRY[kind], settings.defaults.get(kind, {}), given)

    async def rules(
        self, guild_id: int | None, channel_id: int, kind: str | None, *, locale: object
    ) -> Rules:
        """/rules: the rules of the table in this channel (of its game, or of `kind` if it is the same game),
        else those of a new table of `kind` in this server (its defaults), or outside a server the game's."""
        record = self.tables.in_channel(channel_id)
        if record is not None and kind in (None, record.kind):
            options = {**record.options, "timeout": record.timeout}
            summary = render.rules_summary(record.kind, locale, options, table=record.id)
            kind = record.kind
        elif kind is None:
            raise NotAllowed("rules.name_a_game")
        else:
            options = {"timeout": self.default_timeout}
            if guild_id is not None:
                stored = (await self.of(guild_id)).defaults.get(kind, {})
                options.update(table_options(REGISTRY[kind], stored, {}))
            summary = render.rules_summary(kind, locale, options, server=guild_id is not None)
        if summary is None:
            raise NotAllowed("rules.none", game=game_name(REGISTRY[kind]))
        return summary

    # ------------------------------------------------------------------ shown and changed with /settings

    async def show(self, guild_id: int, *, public_language: str, locale: object) -> Message:
        settings = await self.of(guild_id)
        defaults = {
            spec.name: {"timeout": self.default_timeout, **settings.defaults.get(spec.name, {})}
            for spec in REGISTRY
            if spec.name in PRESENTATIONS
        }
        return settings_message(
            chosen_language=settings.language,
            public_language=public_language,
            host_role=settings.host_role,
            channels=settings.channels,
            defaults=defaults,
            locale=locale,
            threads=settings.threads,
            seasons=settings.seasons,
        )

    async def set_default(self, guild_id: int, kind: str, option: str, value: str | None) -> Text:
        """One default for the server's new tables of `kind` (None: the game's own again); open tables keep
        the options they were opened with."""
        spec = REGISTRY[kind]
        checked = check_default(spec, option, value)
        await self.store.set_table_default(guild_id, kind, option, checked)
        shown = checked
        if shown is None:
            shown = self.default_timeout if option == "timeout" else spec.options.model_fields[option].default
        words = {"game": game_name(spec), "name": OptionName(option), "value": OptionValue(option, shown)}
        if checked is None:
            return Text("settings.defaults.cleared", **words)
        return Text("settings.defaults.set", **words)

    async def set_channel(self, guild_id: int, channel_id: int, allowed: bool) -> Text:
        before = (await self.of(guild_id)).channels
        if not allowed and channel_id not in before:
            if not before:
                raise NotAllowed("settings.channels.all_already")
            raise NotAllowed(
                "settings.channels.not_listed", channel=channel(channel_id), channels=mention_channels(before)
            )
        await self.store.set_game_channel(guild_id, channel_id, allowed)
        return await self._channels_now(guild_id)

    async def all_channels(self, guild_id: int) -> Text:
        await self.store.clear_game_channels(guild_id)
        return Text("settings.channels.everywhere")

    async def _channels_now(self, guild_id: int) -> Text:
        channels = (await self.of(guild_id)).channels
        if not channels:
            return Text("settings.channels.everywhere")
        return Text("settings.channels.only", channels=mention_channels(channels))

    async def set_threads(self, guild_id: int, on: bool) -> Text:
        """A thread per game (`bot.sessions.threads`): tables that start from now on follow it. The answer
        says which permissions the bot then needs."""
        await self.store.set_threads(guild_id, on)
        if on:
            return Text("settings.threads.on")
        return Text("settings.threads.off")

    async def set_web(self, guild_id: int, on: bool, *, served: bool) -> Text:
        """The server's pages on the web (`bot.web`): off, no page of its tables or leaderboard opens, links
        posted before included. `served`: whether this bot serves pages at all (WEB_PORT)."""
        await self.store.set_web(guild_id, on)
        if not served:
            return Text("web.settings.not_served")
        if on:
            return Text("web.settings.on")
        return Text("web.settings.off")

    async def season(self, guild_id: int, asked: str | None) -> str:
        """The season a leaderboard shows: the one asked for ("2026-11", or "all-time"), else the current
        one; all-time alone while the server's seasons are off (asking for a month then says so)."""
        seasons = (await self.of(guild_id)).seasons
        typed = (asked or "").strip().lower()
        if typed in ALL_TIME_WORDS:
            return ALL_TIME
        if not typed:
            return ALL_TIME if seasons == "off" else self.store.current_season()
        if not SEASON.fullmatch(typed):
            raise NotAllowed("ledger.bad_season", season=asked or "", example=self.store.current_season())
        if seasons == "off":
            raise NotAllowed("settings.refused.seasons")
        return typed

    async def season_choices(self, guild_id: int, kind: str | None, typed: str) -> list[str]:
        """What the season option offers: all-time, then the seasons in which games ended (newest first)."""
        offered = [ALL_TIME]
        if (await self.of(guild_id)).seasons != "off":
            offered += await self.store.seasons(guild_id, kind)
        typed = typed.strip().lower()
        return [s for s in offered if typed in s]

    async def set_seasons(self, guild_id: int, seasons: str) -> Text:
        await self.store.set_seasons(guild_id, None if seasons == "monthly" else seasons)
        if seasons == "off":
            return Text("settings.seasons.off")
        return Text("settings.seasons.monthly", season=self.store.current_season())

    async def set_role(self, guild_id: int, role_id: int | None) -> Text:
        await self.store.set_host_role(guild_id, role_id)
        if role_id is None:
            return Text("settings.role.cleared")
        return Text("settings.role.set", role=mention_role(role_id))

    # ------------------------------------------------------------------ what /settings defaults offers

    def option_choices(self, kind: object, typed: str, *, locale: object) -> list[tuple[str, str]]:
        """The options of the chosen game, labelled in the reader's language, filtered by his typing."""
        if not isinstance(kind, str) or kind not in REGISTRY:
            return []
        found = [(option_label(n, locale), n) for n in option_names(REGISTRY[kind])]
        typed = typed.strip().lower()
        return [(label, n) for label, n in found if typed in label.lower() or typed in n]

    def value_choices(
        self, kind: object, option: object, typed: str, *, locale: object
    ) -> list[tuple[str, str]]:
        """Values the chosen option takes: its choices, yes and no, or whole numbers (what he typed if it
        fits, else the smallest, the standard and the largest), labelled in the reader's language."""
        if not isinstance(kind, str) or kind not in REGISTRY:
            return []
        if option not in REGISTRY[kind].options.model_fields:
            return []
        spec, name = REGISTRY[kind], str(option)
        field = spec.options.model_fields[name]
        values: list[object] = list(option_choices(spec.options, name))
        if not values and field.annotation in (bool, bool | None):
            values = [True, False]
        if not values:
            low, high = option_range(spec.options, name)
            number = typed.strip()
            fits = number.isdigit() and low <= int(number) <= high
            standard = self.default_timeout if name == "timeout" else field.default
            ends = (low, None if standard is None else int(standard), high)
            values = [int(number)] if fits else list(dict.fromkeys(v for v in ends if v is not None))
        return [(option_value(name, v, locale), str(v).lower()) for v in values]
