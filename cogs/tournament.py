"""/tournament: events over many tables (`bot.events`).

- `/tournament create game format [rounds] [deadline] [options] [starts] [checkin]`: a new event in this
  channel; its answer is public, so the channel sees how to join;
- `/tournament join|leave|checkin|drop [event]`, `/tournament start|cancel [event]` (the host, the server's
  host role or Manage Server), `/tournament show [event]` (privately: standings, pairings, the bracket).
  `event` defaults to the channel's newest event still open or running.

The bot builds the competitions of the process (`bot.events.competitions.Competitions`: the runner and the
service) beside the sessions, in its `setup_hook`; this cog only asks them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_out import discord_words
from bot.events.formats import FORMATS
from bot.events.service import Tournaments
from bot.games.refusal import Refusal
from bot.i18n import DEFAULT, t
from bot.interactions import can_manage, parent_of, respond, roles_of, room_of
from bot.render import tournament as words
from bot.render.common import Message
from bot.sessions.links import with_links

if TYPE_CHECKING:
    from bot.client import CardBot

# A tournament's or a table's number: what the store can hold; a bigger one is refused by the input check
# with the range, before any lookup.
Number = app_commands.Range[int, 1, 2**31 - 1]

# The choices, from the registries: each format, labelled by its words (`cmd.choice.<format>`), and every
# game some format plays.
FORMAT_CHOICES = [
    app_commands.Choice(name=t(DEFAULT, f"cmd.choice.{fmt.name}"), value=fmt.name) for fmt in FORMATS
]
GAME_CHOICES = [app_commands.Choice(name=kind, value=kind) for kind in FORMATS.kinds()]
_TIMESTAMP = re.compile(r"<t:([0-9]{1,12})(?::[tTdDfFR])?>|^\s*([0-9]{1,12})\s*$")  # ASCII digits only


def timestamp(text: str | None) -> float | None:
    """A Discord timestamp (`<t:1767225600:F>`) or plain unix seconds; None when not given."""
    if not text:
        return None
    found = _TIMESTAMP.search(text)
    if found is None:
        raise Refusal("tournament.refused.bad_start")
    return float(found.group(1) or found.group(2))


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)
class TournamentCommands(commands.GroupCog, group_name="tournament"):
    """Tournaments: Swiss and knockout for Malice, table rounds for Insomnia."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def events(self) -> Tournaments:
        return self.bot.competitions.tournaments

    @app_commands.command(name="create")
    @app_commands.describe(
        game="the game the event plays",
        format="Swiss or knockout (Malice), table rounds (Insomnia)",
        rounds="Swiss: its rounds (default 3); table rounds: the rounds before the final (default 2)",
        deadline="minutes each round may take (default 60); then unfinished matches are settled",
        options="the tables' options and house rules, e.g. stake=2 turns=3 (default: this server's)",
        starts="when it starts, as a Discord timestamp like <t:1767225600:F>",
        checkin="minutes before the start when check-in opens (without: no check-in)",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, 12] | None = None,
        deadline: app_commands.Range[int, 1, 10080] = 60,
        options: str | None = None,
        starts: str | None = None,
        checkin: app_commands.Range[int, 1, 1440] | None = None,
    ) -> None:
        """Create a tournament in this channel."""
        text = await self.events.create(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            interaction.user.id,
            kind=game,
            fmt=format,
            rounds=rounds,
            deadline=deadline,
            options=options,
            starts_at=timestamp(starts),
            checkin=checkin,
            room=room_of(interaction),
            can_manage=can_manage(interaction),
            roles=roles_of(interaction),
            parent_id=parent_of(interaction),
        )
        language = await self.bot.sessions.languages.public(interaction.guild_id or 0)
        await interaction.response.send_message(
            discord_words(text.word(language)), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="join")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def join(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Join a tournament before it starts."""
        await respond(interaction, lambda: self.events.join(*_where(interaction), event))

    @app_commands.command(name="leave")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def leave(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Leave a tournament before it starts."""
        await respond(interaction, lambda: self.events.leave(*_where(interaction), event))

    @app_commands.command(name="checkin")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def checkin(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Check in: you will be there when it starts."""
        await respond(interaction, lambda: self.events.check_in(*_where(interaction), event))

    @app_commands.command(name="start")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def start(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Start a tournament: round one is paired (the host or a server manager)."""
        await respond(
            interaction,
            lambda: self.events.start(
                *_where(interaction),
                event,
                can_manage=can_manage(interaction),
                roles=roles_of(interaction),
                room=room_of(interaction),
            ),
        )

    @app_commands.command(name="show")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def show(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Standings, pairings and the bracket of a tournament (only you see it)."""

        async def shown() -> Message:
            board = await self.events.show(interaction.channel_id or 0, event)
            message = words.show_message(board, interaction.locale)
            if self.bot.web is not None:  # its page on the web (standings, pairings, bracket)
                guild = interaction.guild_id or 0
                link = await self.bot.web.link_to("event", board.event, guild, interaction.locale)
                message = with_links(message, [link] if link else [])
            return message

        await respond(interaction, shown)

    @app_commands.command(name="drop")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def drop(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Drop out of a tournament: you are not paired in its later rounds."""
        await respond(interaction, lambda: self.events.drop(*_where(interaction), event))

    @app_commands.command(name="cancel")
    @app_commands.describe(event="the tournament's number (default: this channel's newest)")
    async def cancel(self, interaction: discord.Interaction, event: Number | None = None) -> None:
        """Cancel a tournament (the host or a server manager); games already playing go on."""
        await respond(
            interaction,
            lambda: self.events.cancel(
                *_where(interaction), event, can_manage=can_manage(interaction), roles=roles_of(interaction)
            ),
        )


def _where(interaction: discord.Interaction) -> tuple[int, int]:
    return interaction.channel_id or 0, interaction.user.id


async def setup(bot: CardBot) -> None:
    await bot.add_cog(TournamentCommands(bot))
