"""/leaderboard [game] [season] [by] (public, pages by buttons that survive restarts) and /stats [user]
(ephemeral).

Figures come straight from the store (net chips from the chip ledger, games and wins from results, ratings
from the finishing transactions); players are shown as mentions that never ping anybody. A season is the
calendar month a game ended in (the current one by default, all-time when the server's seasons are off).
The leaderboard is public, so it speaks the server's language (`/settings language`); /stats answers
privately, in the user's own, and with `user:` adds your record against that person. Outside a server
(a DM) /stats reads the games played outside servers (scope 0).
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import ratings
from bot.discord_out import discord_words
from bot.errors import guarded
from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY
from bot.i18n import signed, t, tn
from bot.interactions import ledger_guild
from bot.render import game_name
from bot.render.leaderboard import (
    CHIPS,
    RATING,
)
from bot.render.ratings import change_text, rating_text
from bot.sessions.boards import board
from bot.sessions.charts import season_chart
from storage import ALL_TIME

if TYPE_CHECKING:
    from bot.client import CardBot
    from storage import HeadToHead, KindStats, PlayerRating

PAGE_SIZE = 10
MAX_PAGE = 99_999  # no server has that many players; a forged page number stops here
COLOUR = discord.Colour.teal()
RANKINGS = [app_commands.Choice(name=CHIPS, value=CHIPS), app_commands.Choice(name=RATING, value=RATING)]
NO_PINGS = discord.AllowedMentions.none()


async def public_language(bot: CardBot, guild_id: int) -> str:
    """The server's language for public messages (the session manager knows it; English without one)."""
    sessions = getattr(bot, "sessions", None)
    return await sessions.languages.public(guild_id) if sessions is not None else "en"


async def leaderboard_page(
    bot: CardBot, guild_id: int, kind: str | None, page: int, season: str = ALL_TIME, by: str = CHIPS
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the public leaderboard, in the server's language: by chips (all games or one) or by
    rating (one game), all-time or in one season."""
    locale = await public_language(bot, guild_id)
    section = await board(bot.store, guild_id, kind, by, season, page=page, size=PAGE_SIZE, locale=locale)
    embed = discord.Embed(title=section.title, description=discord_words(section.text), colour=COLOUR)
    embed.set_footer(text=t(locale, "ledger.footer", page=page + 1, figures=section.figures))
    view = discord.ui.View(timeout=None)
    scope, when = kind or "all", "all" if season == ALL_TIME else season
    previous, following = t(locale, "ledger.button.previous"), t(locale, "ledger.button.next")
    view.add_item(LeaderboardPageButton(scope, max(page - 1, 0), previous, when, by, disabled=page == 0))
    view.add_item(LeaderboardPageButton(scope, page + 1, following, when, by, disabled=not section.more))
    if bot.web is not None:  # the board's page on the web
        link = await bot.web.link_to("board", guild_id, guild_id, locale)
        if link is not None and link.url is not None:
            view.add_item(discord.ui.Button(label=link.label, url=link.url))
    return embed, view


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # A button posted before seasons carries no season and ranking: it stays the all-time chips board.
    template=r"lb:(?P<scope>[a-z][a-z0-9_]{0,31}):(?P<page>\d+)(?::(?P<season>all|\d{4}-\d{2}):(?P<by>chips|rating))?",
):
    """A page button of a leaderboard message; its custom_id carries the page, the season and the ranking,
    so it works after a restart."""

    def __init__(
        self,
        scope: str,
        page: int,
        label: str,
        season: str = "all",
        by: str = CHIPS,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"lb:{scope}:{page}:{season}:{by}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.scope = scope
        self.page = page
        self.season = season
        self.by = by

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPageButton:
        # A forged id may carry any number of digits: past the last page is simply an empty page.
        # A scope that is no registered game (a forged id, a game no longer offered) shows all games.
        scope = match["scope"] if match["scope"] in REGISTRY else "all"
        label = item.label if isinstance(item, discord.ui.Button) else None
        season, by = match["season"] or "all", match["by"] or CHIPS
        return cls(scope, min(int(match["page"][:6]), MAX_PAGE), label or "", season, by)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("ledger.server_only")
        kind = None if self.scope == "all" else self.scope
        season = ALL_TIME if self.season == "all" else self.season
        bot: CardBot = interaction.client  # type: ignore[assignment]
        embed, view = await leaderboard_page(bot, interaction.guild_id, kind, self.page, season, self.by)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


def _kind_lines(stats: KindStats, locale: object, rating: PlayerRating | None = None) -> str:
    none_yet = t(locale, "stats.none_yet")
    biggest = signed(locale, stats.biggest_win) if stats.biggest_win is not None else none_yet
    lines = t(
        locale,
        "stats.kind_lines",
        games=stats.games,
        wins=stats.wins,
        net=signed(locale, stats.net),
        biggest=biggest,
    )
    if rating is not None:
        lines += "\n" + _rating_line(rating, locale)
    return lines


def _rating_line(rating: PlayerRating, locale: object) -> str:
    """ "Rating: 1043 (provisional) · last game +43"."""
    shown = rating_text(rating.score, rating.games, locale=locale)
    if rating.last_change is None:
        return t(locale, "stats.rating", rating=shown)
    last = change_text(rating.score - rating.last_change, rating.score, locale=locale)
    return t(locale, "stats.rating_change", rating=shown, change=last)


def head_to_head_lines(
    record: dict[str, HeadToHead],
    mine: dict[str, PlayerRating],
    theirs: dict[str, PlayerRating],
    other: str,
    locale: object,
) -> str:
    """Your record against `other` (a mention): over all games, then per game with both ratings."""
    total = record.get("*")
    if total is None:
        return t(locale, "stats.h2h.none", player=other)
    lines = [t(locale, "stats.h2h.total", **_h2h_words(total, locale), player=other)]
    for kind, per_kind in record.items():
        if kind == "*":
            continue
        line = t(locale, "stats.h2h.game", game=game_name(kind, locale), **_h2h_words(per_kind, locale))
        if kind in mine or kind in theirs:
            ratings_now = {
                "mine": _rating_or_none(mine.get(kind), locale),
                "theirs": _rating_or_none(theirs.get(kind), locale),
            }
            line += " · " + t(locale, "stats.h2h.ratings", player=other, **ratings_now)
        lines.append(line)
    return "\n".join(lines)


def _h2h_words(record: HeadToHead, locale: object) -> dict[str, str]:
    return {
        "games": tn(locale, "count.game", record.games),
        "wins": tn(locale, "count.win", record.wins),
        "draws": tn(locale, "count.draw", record.draws),
        "losses": tn(locale, "count.loss", record.losses),
        "net": signed(locale, record.net),
    }


def _rating_or_none(rating: PlayerRating | None, locale: object) -> str:
    if rating is None:
        return t(locale, "stats.rating_none")
    return rating_text(rating.score, rating.games, locale=locale)


def scope_of(interaction: discord.Interaction) -> int:
    """The server whose figures a command reads; 0 outside a server the bot is in (the games played in DMs
    and group DMs of its user install)."""
    return ledger_guild(interaction)


class Ledger(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardPageButton)

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.describe(
        game="Only this game (all games if left out)",
        season="A month like 2026-11, or all-time (default: this month's season)",
        by="Rank by chips or by rating (rating: choose a game)",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=s.name, value=s.name) for s in REGISTRY], by=RANKINGS
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        season: str | None = None,
        by: str | None = None,
    ) -> None:
        """Show the leaderboard of this server, by chips or by rating."""
        if interaction.guild_id is None:
            raise Refusal("ledger.server_only")
        ranking = by or CHIPS
        if ranking == RATING and game is None:
            raise Refusal("ledger.rating_needs_game")
        when = await self.bot.sessions.servers.season(interaction.guild_id, season)
        embed, view = await leaderboard_page(self.bot, interaction.guild_id, game, 0, when, ranking)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @leaderboard.autocomplete("season")
    async def _seasons(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        game = getattr(interaction.namespace, "game", None)
        kind = game if isinstance(game, str) and game in REGISTRY else None
        found = await self.bot.sessions.servers.season_choices(interaction.guild_id, kind, current)
        return [app_commands.Choice(name=s, value=s) for s in found][:25]

    @app_commands.command(name="stats")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(user="Whose statistics, with your record against them (yours if left out)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Show your games, wins, chips and ratings (or someone's, and your record against them); private."""
        locale, scope = interaction.locale, scope_of(interaction)
        target = user or interaction.user
        me, them = str(interaction.user.id), str(target.id)
        stats = await self.bot.store.player_stats(scope, them)
        server = bool(scope)  # else the texts say "in DMs and group DMs"
        if stats.games == 0:
            if target.id == interaction.user.id and server:
                text = t(locale, "stats.nothing_self")
            elif target.id == interaction.user.id:
                text = t(locale, "stats.nothing_self.private")
            elif server:
                text = t(locale, "stats.nothing_other", player=target.mention)
            else:
                text = t(locale, "stats.nothing_other.private", player=target.mention)
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
            return
        theirs = {r.kind: r for r in await self.bot.store.player_ratings(scope, them)}
        if server:
            description = t(locale, "stats.description", player=target.mention)
        else:
            description = t(locale, "stats.description.private", player=target.mention)
        embed = discord.Embed(title=t(locale, "stats.title"), description=description, colour=COLOUR)
        embed.add_field(name=t(locale, "stats.all_games"), value=_kind_lines(stats, locale), inline=False)
        for kind, per_kind in sorted(stats.per_game.items()):
            if per_kind.games:
                value = _kind_lines(per_kind, locale, theirs.get(kind))
                embed.add_field(name=game_name(kind, locale), value=value, inline=False)
        if them != me:
            record = await self.bot.store.head_to_head(scope, me, them)
            mine = {r.kind: r for r in await self.bot.store.player_ratings(scope, me)}
            value = head_to_head_lines(record, mine, theirs, target.mention, locale)
            embed.add_field(name=t(locale, "stats.h2h.title"), value=value[:1024], inline=False)
        meaning = t(locale, "stats.rating_meaning", games=ratings.PROVISIONAL_GAMES)
        embed.set_footer(text=f"{t(locale, 'ledger.figures_sentence')} · {meaning}")
        chart = await season_chart(self.bot.store, scope, them, locale=locale, name=target.display_name)
        files = []
        if chart is not None:  # the chips and ratings of the season beside the figures (bot.render.charts)
            files.append(discord.File(io.BytesIO(chart.data), chart.filename, description=chart.alt))
            embed.set_image(url=f"attachment://{chart.filename}")
        await interaction.response.send_message(
            embed=embed, files=files, ephemeral=True, allowed_mentions=NO_PINGS
        )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Ledger(bot))
