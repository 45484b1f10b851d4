"""/leaderboard [game] (public, pages by buttons that survive restarts) and /stats [user] (ephemeral).

Figures come straight from the store (net chips from the chip ledger, games and wins from results); players
are shown as mentions that never ping anybody. The leaderboard is public, so it speaks the server's language
(`/settings language`); /stats answers privately, in the user's own.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import guarded
from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY
from bot.i18n import signed, t, tn
from bot.render import game_name
from bot.sessions.charts import season_chart

if TYPE_CHECKING:
    from bot.client import CardBot
    from storage import KindStats, LeaderboardRow

PAGE_SIZE = 10
MAX_PAGE = 99_999  # no server has that many players; a forged page number stops here
COLOUR = discord.Colour.teal()
NO_PINGS = discord.AllowedMentions.none()


def player_label(player: str) -> str:
    return f"<@{player}>" if player.isdigit() else player


def leaderboard_line(row: LeaderboardRow, locale: object = "en") -> str:
    return t(
        locale,
        "ledger.line",
        rank=row.rank,
        player=player_label(row.player),
        net=signed(locale, row.net),
        games=tn(locale, "count.game", row.games),
        wins=tn(locale, "count.win", row.wins),
    )


async def public_language(bot: CardBot, guild_id: int) -> str:
    """The server's language for public messages (the session manager knows it; English without one)."""
    sessions = getattr(bot, "sessions", None)
    return await sessions.public_language(guild_id) if sessions is not None else "en"


async def leaderboard_page(
    bot: CardBot, guild_id: int, kind: str | None, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the public leaderboard, in the server's language."""
    locale = await public_language(bot, guild_id)
    # One row more than a page tells whether a next page exists.
    rows = await bot.store.leaderboard(guild_id, kind, limit=PAGE_SIZE + 1, offset=page * PAGE_SIZE)
    if kind:
        title = t(locale, "ledger.title.game", game=game_name(kind, locale))
    else:
        title = t(locale, "ledger.title.all")
    if rows:
        description = "\n".join(leaderboard_line(r, locale) for r in rows[:PAGE_SIZE])
    elif page == 0:
        description = t(locale, "ledger.empty")
    else:
        description = t(locale, "ledger.no_more")
    embed = discord.Embed(title=title, description=description, colour=COLOUR)
    # What the figures are, said plainly: the net is every movement in the chip ledger, so a running game's
    # chips already count; games and wins come from the results of finished games.
    embed.set_footer(text=t(locale, "ledger.footer", page=page + 1, figures=t(locale, "ledger.figures")))
    view = discord.ui.View(timeout=None)
    scope = kind or "all"
    previous, following = t(locale, "ledger.button.previous"), t(locale, "ledger.button.next")
    view.add_item(LeaderboardPageButton(scope, max(page - 1, 0), previous, disabled=page == 0))
    view.add_item(LeaderboardPageButton(scope, page + 1, following, disabled=len(rows) <= PAGE_SIZE))
    return embed, view


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<scope>[a-z][a-z0-9_]{0,31}):(?P<page>\d+)",
):
    """A page button of a leaderboard message; its custom_id carries the page, so it works after a restart."""

    def __init__(self, scope: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=f"lb:{scope}:{page}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.scope = scope
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPageButton:
        # A forged id may carry any number of digits: past the last page is simply an empty page.
        # A scope that is no registered game (a forged id, a game no longer offered) shows all games.
        scope = match["scope"] if match["scope"] in REGISTRY else "all"
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(scope, min(int(match["page"][:6]), MAX_PAGE), label or "")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("ledger.server_only")
        kind = None if self.scope == "all" else self.scope
        bot: CardBot = interaction.client  # type: ignore[assignment]
        embed, view = await leaderboard_page(bot, interaction.guild_id, kind, self.page)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


def _kind_lines(stats: KindStats, locale: object) -> str:
    none_yet = t(locale, "stats.none_yet")
    biggest = signed(locale, stats.biggest_win) if stats.biggest_win is not None else none_yet
    return t(
        locale,
        "stats.kind_lines",
        games=stats.games,
        wins=stats.wins,
        net=signed(locale, stats.net),
        biggest=biggest,
    )


class Ledger(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardPageButton)

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.describe(game="Only this game (all games if left out)")
    @app_commands.choices(game=[app_commands.Choice(name=s.name, value=s.name) for s in REGISTRY])
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """Show the chip leaderboard of this server."""
        if interaction.guild_id is None:
            raise Refusal("ledger.server_only")
        embed, view = await leaderboard_page(self.bot, interaction.guild_id, game, 0)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose statistics (yours if left out)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Show your games, wins and chips in this server (or someone else's); only you see the answer."""
        if interaction.guild_id is None:
            raise Refusal("errors.server_only")
        locale = interaction.locale
        target = user or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, str(target.id))
        if stats.games == 0:
            if target.id == interaction.user.id:
                text = t(locale, "stats.nothing_self")
            else:
                text = t(locale, "stats.nothing_other", player=target.mention)
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
            return
        embed = discord.Embed(
            title=t(locale, "stats.title"),
            description=t(locale, "stats.description", player=target.mention),
            colour=COLOUR,
        )
        embed.add_field(name=t(locale, "stats.all_games"), value=_kind_lines(stats, locale), inline=False)
        for kind, per_kind in sorted(stats.per_game.items()):
            if per_kind.games:
                value = _kind_lines(per_kind, locale)
                embed.add_field(name=game_name(kind, locale), value=value, inline=False)
        embed.set_footer(text=t(locale, "ledger.figures_sentence"))
        chart = await season_chart(self.bot.store, interaction.guild_id, str(target.id), locale=locale)
        files = []
        if chart is not None:  # the chips and ratings of the season beside the figures (bot.render.charts)
            files.append(discord.File(io.BytesIO(chart.data), chart.filename, description=chart.alt))
            embed.set_image(url=f"attachment://{chart.filename}")
        await interaction.response.send_message(
            embed=embed, files=files, ephemeral=True, allowed_mentions=NO_PINGS
        )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Ledger(bot))
