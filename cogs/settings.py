"""/settings: this server's settings of the bot (Manage Server).

- `/settings show`: every setting below, as the server has it;
- `/settings language <English|Deutsch|server default>`: the language of the public messages;
- `/settings defaults game option [value]`: a default for the server's new tables of a game (any table
  option and house rule, checked by the game's options model; without a value: the game's own again);
- `/settings channels add|remove channel`, `/settings channels all`: the channels where games may be opened
  (none listed: every channel);
- `/settings role [role]`: a role whose members may open games and cancel any game (besides Manage Server);
  without a role: anyone may open a game again;
- `/settings threads on|off`: a thread per game (`bot.sessions.threads`); the answer names the permissions the
  bot then needs (the invite link asks only for the minimal ones).
- `/settings seasons <monthly|off>`: leaderboards per calendar month besides all-time, or all-time only.

Only people who may manage the server change them: Discord hides the commands from others
(`default_permissions`), and the bot checks again (`has_permissions`), since a server can override what
Discord shows. The choices are stored (`guild_settings`, `game_channels`, `table_defaults`); tables opened
later follow them (open tables keep their options); open tables speak a new language from their next
message on. Private answers and DMs stay in each player's own language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.interactions import respond
from bot.render.registry import PRESENTATIONS

if TYPE_CHECKING:
    from bot.client import CardBot

# The choice's value is the stored language; "default" stores none (the server's own locale then).
Language = Literal["en", "de", "default"]
CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Deutsch", value="de"),
    app_commands.Choice(name="server default", value="default"),
]
# A choice is translated by its value alone (`cmd.choice.<value>`): these values are this command's own.
SWITCH = [
    app_commands.Choice(name="on: a thread per game", value="thread-per-game"),
    app_commands.Choice(name="off: games in the channel", value="in-channel"),
]
PAGES = [
    app_commands.Choice(name="on: pages on the web", value="pages-on"),
    app_commands.Choice(name="off: no pages", value="pages-off"),
]
# Seasons are calendar months (UTC) of the games' ends; off shows all-time alone (nothing is deleted).
SEASONS = [
    app_commands.Choice(name="monthly", value="monthly"),
    app_commands.Choice(name="off (all-time only)", value="no-seasons"),
]
# The games whose tables take defaults: those with commands (and so tables), read when the cogs load.
GAMES = [app_commands.Choice(name=p.kind, value=p.kind) for p in PRESENTATIONS if p.commands is not None]


def _guild(interaction: discord.Interaction) -> int:
    assert interaction.guild_id is not None  # guild_only
    return interaction.guild_id


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.default_permissions(manage_guild=True)
class Settings(commands.GroupCog, group_name="settings"):
    """Server settings of this bot (Manage Server)."""

    channels = app_commands.Group(name="channels", description="The channels where games may be opened.")

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def show(self, interaction: discord.Interaction) -> None:
        """Show this server's settings of the bot."""
        sessions = self.bot.sessions
        guild = _guild(interaction)
        language = await sessions.languages.public(guild)
        await respond(
            interaction,
            lambda: sessions.servers.show(guild, public_language=language, locale=interaction.locale),
        )

    @app_commands.command(name="language")
    @app_commands.describe(language="English, Deutsch, or the server's own language")
    @app_commands.choices(language=CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        """The language of the bot's public messages in this server."""
        chosen = None if language.value == "default" else language.value
        now = await self.bot.sessions.languages.choose(_guild(interaction), chosen)
        # The answer is the manager's own, in his language; it names the public language in his words.
        locale = interaction.locale
        language_name = t(locale, f"language.{now}")
        if chosen is None:
            text = t(locale, "settings.language.default", language=language_name)
        else:
            text = t(locale, "settings.language.chosen", language=language_name)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="defaults")
    @app_commands.describe(
        game="the game whose new tables this is for",
        option="a table option or house rule of that game",
        value="its new default (leave it out: back to the game's own default)",
    )
    @app_commands.choices(game=GAMES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def defaults(
        self, interaction: discord.Interaction, game: str, option: str, value: str | None = None
    ) -> None:
        """A default for this server's new tables of a game."""
        servers = self.bot.sessions.servers
        await respond(interaction, lambda: servers.set_default(_guild(interaction), game, option, value))

    @defaults.autocomplete("option")
    async def _options(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        found = self.bot.sessions.servers.option_choices(game, current, locale=interaction.locale)
        return [app_commands.Choice(name=label[:100], value=value) for label, value in found][:25]

    @defaults.autocomplete("value")
    async def _values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        namespace = interaction.namespace
        found = self.bot.sessions.servers.value_choices(
            getattr(namespace, "game", None),
            getattr(namespace, "option", None),
            current,
            locale=interaction.locale,
        )
        return [app_commands.Choice(name=label[:100], value=value) for label, value in found][:25]

    @channels.command(name="add")
    @app_commands.describe(channel="a channel where games may be opened")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def add_channel(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        """Games may be opened in this channel (and the others listed, no longer everywhere)."""
        servers = self.bot.sessions.servers
        await respond(interaction, lambda: servers.set_channel(_guild(interaction), channel.id, True))

    @channels.command(name="remove")
    @app_commands.describe(channel="a channel where games may no longer be opened")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def remove_channel(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        """Games may no longer be opened in this channel (the last one taken off: everywhere again)."""
        servers = self.bot.sessions.servers
        await respond(interaction, lambda: servers.set_channel(_guild(interaction), channel.id, False))

    @channels.command(name="all")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def all_channels(self, interaction: discord.Interaction) -> None:
        """Games may be opened in every channel again."""
        servers = self.bot.sessions.servers
        await respond(interaction, lambda: servers.all_channels(_guild(interaction)))

    @app_commands.command(name="threads")
    @app_commands.describe(threads="on: each game plays in a thread of its own; off: in the channel")
    @app_commands.choices(threads=SWITCH)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def threads(self, interaction: discord.Interaction, threads: app_commands.Choice[str]) -> None:
        """A thread per game: the lobby stays in the channel, the game plays in a thread on it."""
        servers = self.bot.sessions.servers
        on = threads.value == "thread-per-game"
        await respond(interaction, lambda: servers.set_threads(_guild(interaction), on))

    @app_commands.command(name="web")
    @app_commands.describe(web="on: tables, replays and the leaderboard have pages; off: none opens")
    @app_commands.choices(web=PAGES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def web(self, interaction: discord.Interaction, web: app_commands.Choice[str]) -> None:
        """The server's pages on the web: a live table to watch, replays, the leaderboard."""
        servers = self.bot.sessions.servers
        on = web.value == "pages-on"
        served = self.bot.web is not None
        await respond(interaction, lambda: servers.set_web(_guild(interaction), on, served=served))

    @app_commands.command(name="seasons")
    @app_commands.describe(
        seasons="monthly: a leaderboard per calendar month besides all-time; off: all-time only"
    )
    @app_commands.choices(seasons=SEASONS)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def seasons(self, interaction: discord.Interaction, seasons: app_commands.Choice[str]) -> None:
        """Leaderboards per month (seasons) besides all-time, or all-time only."""
        servers = self.bot.sessions.servers
        chosen = "off" if seasons.value == "no-seasons" else "monthly"
        await respond(interaction, lambda: servers.set_seasons(_guild(interaction), chosen))

    @app_commands.command(name="role")
    @app_commands.describe(role="the role (leave it out: anyone may open a game again)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """A role that may open games and cancel any game, besides Manage Server."""
        servers = self.bot.sessions.servers
        chosen = None if role is None else role.id
        await respond(interaction, lambda: servers.set_role(_guild(interaction), chosen))


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Settings(bot))
