"""The Discord side of the operator's view (`bot.ops`): whether every shard's gateway is connected (for
/healthz), each shard's latency, this process's tables and the presenter's backlog (read at each scrape of
/metrics), and when each interaction reached the bot (its answer's latency is measured when the answer
leaves, in the HTTP layer). Only with `bot.ops` (the bot as `cardtable-bot run` starts it); a bot without it
(tests, benchmarks) loads nothing here."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

import discord
from discord.ext import commands
from prometheus_client import REGISTRY

from bot.ops.metrics import BotCollector, BotReadings

if TYPE_CHECKING:
    from bot.client import CardBot
    from bot.ops import Operations

KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.modal_submit: "modal",
}


class OperatorView(commands.Cog):
    def __init__(self, bot: CardBot, ops: Operations) -> None:
        self.bot = bot
        self.ops = ops
        self.collector = BotCollector(
            BotReadings(tables=self.tables, backlog=self.backlog, latencies=self.latencies, share=self.share)
        )

    async def cog_load(self) -> None:
        self.ops.hear_gateway(self.connected)
        if self.ops.server is not None:
            REGISTRY.register(self.collector)

    async def cog_unload(self) -> None:
        self.ops.hear_gateway(None)
        if self.ops.server is not None:
            REGISTRY.unregister(self.collector)

    def connected(self) -> bool:
        """Ready, and no shard's connection is down (discord.py reconnects it on its own meanwhile)."""
        bot = self.bot
        return bot.is_ready() and not bot.is_closed() and all(not s.is_closed() for s in bot.shards.values())

    def tables(self) -> dict[str, int]:
        sessions = getattr(self.bot, "sessions", None)
        if sessions is None:
            return {}
        return dict(Counter(record.status for record in sessions.tables.all()))

    def backlog(self) -> tuple[int, float]:
        sessions = getattr(self.bot, "sessions", None)
        return (0, 0.0) if sessions is None else sessions.presenter.backlog()

    def latencies(self) -> list[tuple[int, float]]:
        return [(shard, lat if math.isfinite(lat) else math.nan) for shard, lat in self.bot.latencies]

    def share(self) -> tuple[int, int]:
        return self.ops.share.limit(), self.ops.share.processes()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if self.ops.answers is not None:
            self.ops.answers.arrived(interaction.id, KINDS.get(interaction.type, "other"))


async def setup(bot: CardBot) -> None:
    if bot.ops is not None:
        await bot.add_cog(OperatorView(bot, bot.ops))
