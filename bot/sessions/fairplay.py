"""Fair play, for any game: the moderators' service (`FairPlay`: void a finished game, take a person off the
server's leaderboards and let him back, the record of both; stored by `storage.fairplay`), who scores
nothing as a no-show, and what fair play shows in a game's `/history`. Voiding a game and excluding a person
take Manage Server (the /moderation commands, cogs/moderation.py, check it)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.render.common import name
from bot.sessions.errors import NotAllowed, Text
from bot.sessions.rating import rate
from storage.contract import Store
from storage.events import ModerationRow
from storage.fairplay import FairPlayError
from storage.models import TableRow


class FairPlay:
    """What the /moderation commands ask: each stores and answers with a `Text` (worded by the cog in the
    caller's language)."""

    def __init__(self, store: Store, *, bot_user_id: int | None = None) -> None:
        self.store = store
        self.bot_user_id = bot_user_id  # the bot itself: it plays the computer seats

    async def void(self, guild_id: int, table_id: int, moderator: int, reason: str) -> Text:
        """Void a finished game of this server: its chips given back, its ratings taken out (a tournament's
        match it played counts for nobody)."""
        row = await self.store.get_table(table_id)
        if row is None or row.guild_id != guild_id:
            raise NotAllowed("moderation.refused.no_table", table=table_id)
        try:
            await self.store.void_table(table_id, moderator, reason, rate)
        except FairPlayError as exc:
            raise NotAllowed(f"moderation.refused.{exc.reason}", table=table_id) from None
        return Text("moderation.voided", table=table_id, game=Text(f"game.{row.kind}"))

    async def exclude(
        self, guild_id: int, player: int, moderator: int, reason: str, on: bool, *, computer: bool = False
    ) -> Text:
        """Take a person off the server's leaderboards (`on`) or let him back; never the bot itself (it plays
        the computer seats) nor another bot (`computer`): they are on no leaderboard."""
        if computer or player == self.bot_user_id:
            raise NotAllowed("moderation.refused.computer", player=name(str(player)))
        changed = await self.store.exclude_player(guild_id, str(player), moderator, reason, on)
        key = (
            ("excluded" if on else "included") if changed else ("already_excluded" if on else "not_excluded")
        )
        return Text(f"moderation.{key}", player=name(str(player)))

    async def log(self, guild_id: int) -> list[ModerationRow]:
        """What this server's moderators did, as stored."""
        return await self.store.moderation(guild_id)


async def excluded_at(store: Store, row: TableRow) -> list[str]:
    """The players of a game whom a moderator has taken off the server's leaderboards (now): its `/history`
    names them, so a player and a moderator see why its results are on no leaderboard."""
    if not row.guild_id:
        return []
    excluded = set(await store.excluded(row.guild_id))
    return [p for p in row.players if p in excluded]


async def no_shows(
    store: Store,
    table_id: int,
    players: Sequence[str],
    timed_out: Collection[str],
    *,
    turn: str | None = None,
    acting: str | None = None,
) -> list[str]:
    """The people at a table without a move of their own although the turn was theirs: their turn timed out
    (`timed_out`: the session's timeouts in a row, which a move of their own clears) or it is theirs now
    (`turn`: at a round's deadline). Such a seat scores nothing, as a forfeit, however the game ends, at the
    deadline or before it (a short turn cap, a stalemate of two idle turns): the moves the timer made for it
    (the safe default) are not his. `acting`: who makes the move being stored now (not in the log yet).

    The log is read only when someone may be one (a person's own moves carry his id as their actor; the
    timer's carry `timeout`, the computer's `ai`)."""
    candidates = [
        p for p in players if not p.startswith("ai:") and p != acting and (p == turn or p in timed_out)
    ]
    if not candidates:
        return []
    actors = {row.actor for row in await store.actions(table_id)}
    return [p for p in candidates if p not in actors]
