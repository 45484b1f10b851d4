"""/leaderboard [game] (public, pages by buttons that survive restarts) and /stats [user] (ephemeral).

Figures come straight from the store (net chips from the chip ledger, games and wins from results); players
are shown as mentions that never ping anybody.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError, guarded
from bot.games.registry import REGISTRY
from bot.render.common import plural

if TYPE_CHECKING:
    from bot.client import CardBot
    from storage import KindStats, LeaderboardRow

PAGE_SIZE = 10
MAX_PAGE = 99_999  # no server has that many players; a forged page number stops here
COLOUR = discord.Colour.teal()
NO_PINGS = discord.AllowedMentions.none()
# What the figures are, said plainly: the net is every movement in the chip ledger, so a running game's chips
# already count; games and wins come from the results of finished games.
FIGURES = "net chips from the chip ledger, running games included; games and wins count finished games"


def game_title(kind: str) -> str:
    """A game's name as players read it; a kind no longer registered shows as stored."""
    return REGISTRY[kind].title if kind in REGISTRY else kind


def player_label(player: str) -> str:
    return f"<@{player}>" if player.isdigit() else player


def signed(n: int) -> str:
    return f"{n:+d}"


def leaderboard_line(row: LeaderboardRow) -> str:
    return (
        f"**{row.rank}.** {player_label(row.player)}: **{signed(row.net)}** chips · "
        f"{plural(row.games, 'game')} · {plural(row.wins, 'win')}"
    )


async def leaderboard_page(
    bot: CardBot, guild_id: int, kind: str | None, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    # One row more than a page tells whether a next page exists.
    rows = await bot.store.leaderboard(guild_id, kind, limit=PAGE_SIZE + 1, offset=page * PAGE_SIZE)
    title = f"Leaderboard: {game_title(kind)}" if kind else "Leaderboard: all games"
    if rows:
        description = "\n".join(leaderboard_line(r) for r in rows[:PAGE_SIZE])
    elif page == 0:
        description = (
            "No finished games in this server yet: start one with /insomnia new or /malice challenge."
        )
    else:
        description = "No more players on this page."
    embed = discord.Embed(title=title, description=description, colour=COLOUR)
    embed.set_footer(text=f"Page {page + 1} · {FIGURES}")
    view = discord.ui.View(timeout=None)
    scope = kind or "all"
    view.add_item(LeaderboardPageButton(scope, max(page - 1, 0), "◀ Previous", disabled=page == 0))
    view.add_item(LeaderboardPageButton(scope, page + 1, "Next ▶", disabled=len(rows) <= PAGE_SIZE))
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
            raise UserFacingError("Leaderboards belong to a server; open one there with /leaderboard.")
        kind = None if self.scope == "all" else self.scope
        bot: CardBot = interaction.client  # type: ignore[assignment]
        embed, view = await leaderboard_page(bot, interaction.guild_id, kind, self.page)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


def _kind_lines(stats: KindStats) -> str:
    biggest = signed(stats.biggest_win) if stats.biggest_win is not None else "none yet"
    return (
        f"Games: **{stats.games}** · Wins: **{stats.wins}**\n"
        f"Net chips: **{signed(stats.net)}** · Biggest win: **{biggest}**"
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
            raise UserFacingError("Leaderboards belong to a server: use /leaderboard there.")
        embed, view = await leaderboard_page(self.bot, interaction.guild_id, game, 0)
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose statistics (yours if left out)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Show your games, wins and chips in this server (or someone else's); only you see the answer."""
        if interaction.guild_id is None:
            raise UserFacingError("Statistics belong to a server: use /stats there.")
        target = user or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, str(target.id))
        if stats.games == 0:
            who = "You have" if target.id == interaction.user.id else f"{target.mention} has"
            await interaction.response.send_message(
                f"{who} not finished a game in this server yet.", ephemeral=True, allowed_mentions=NO_PINGS
            )
            return
        embed = discord.Embed(
            title="Statistics", description=f"{target.mention} in this server", colour=COLOUR
        )
        embed.add_field(name="All games", value=_kind_lines(stats), inline=False)
        for kind, per_kind in sorted(stats.per_game.items()):
            if per_kind.games:
                embed.add_field(name=game_title(kind), value=_kind_lines(per_kind), inline=False)
        embed.set_footer(text=FIGURES[0].upper() + FIGURES[1:])
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Ledger(bot))
