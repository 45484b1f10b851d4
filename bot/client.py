"""The bot object and the composition root: `setup_hook` builds every part with what it needs in its
constructor, and no part is wired by assigning into another afterwards (tests/test_composition.py checks).

Start-up order (`setup_hook`), each step relying on the ones before it:
1. open the store (this migrates the database), unless `cardtable-bot run` handed one in;
2. build the parts: the session manager (`self.sessions`, its Discord side `DiscordAnnouncer`), the
   competitions beside it (`self.competitions`: the tournament runner and service, `bot.events`), fair play
   (`self.fair_play`), and the web server with its Activity when `WEB_PORT` is set (`self.web`, `bot.web`);
3. resume the tables still open in the store (timers running; no Discord call: the presenter refreshes
   their messages once the gateway is ready), then the running events;
4. load the extensions it was given (`cogs.extensions()`: every module of the `cogs` package, each with
   `async def setup(bot)`; the command line passes them, tests add their own): the cogs only ask the parts,
   register their persistent buttons and install their table hooks (`self.table_hooks`, a `TableHooks`);
5. set the command translator (German command names), then sync the command tree: to `DEV_GUILD_ID` if
   set (instant), else globally;
6. warm up (`bot.warmup`): play and render a few moves of every game, so the first player is answered as
   quickly as any later one, then keep what start-up left alive out of later garbage collections.
`close()` undoes it in reverse: the competitions stop, then the sessions (timers, computer turns, the last
writes), the web server, discord.py (which unloads the extensions), and the store last. `stop()` is the
graceful way there (SIGTERM, SIGINT): new commands are refused, the commands and button presses already
running get `STOP_GRACE_SECONDS` to finish, then `close()`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import warmup
from bot.config import Settings
from bot.discord_out import DiscordAnnouncer, note_languages
from bot.errors import report_error
from bot.events.competitions import Competitions
from bot.games.refusal import Refusal
from bot.i18n import t
from bot.i18n.commands import CommandTranslator
from bot.input_checks import check_command_input, without_nulls
from bot.interactions import TableHooks
from bot.sessions import SessionManager
from bot.sessions.fairplay import FairPlay
from storage import Store

if TYPE_CHECKING:
    from bot.ops import Operations
    from bot.web import WebServer

log = logging.getLogger(__name__)
AUTOCOMPLETE = discord.InteractionType.autocomplete

STOP_GRACE_SECONDS = 10.0
# discord.py runs each command and each button press in a task of its own, named with these prefixes; a
# graceful stop waits for them (it has no public way to list the interactions in flight).
_HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)


class CardTree(app_commands.CommandTree):
    """The command tree; every command failure ends here and becomes one ephemeral sentence."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """While the bot stops, a new command gets one sentence instead of starting a move; otherwise every
        command's input is checked against what the command declares, before it runs."""
        if getattr(self.client, "stopping", False):
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(
                    t(interaction.locale, "errors.restarting"), ephemeral=True
                )
            return False
        note_languages(interaction)
        if interaction.type in (discord.InteractionType.application_command, AUTOCOMPLETE):
            data: Any = interaction.data
            if isinstance(data, dict):
                without_nulls(data)  # in place: discord.py reads the options from it next
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            check_command_input(interaction)
        except Refusal as error:
            await report_error(interaction, error)
            return False
        return True


class CardBot(commands.AutoShardedBot):
    """The Cardtable bot. `store`: an already opened store (`cardtable-bot run` opens it before connecting),
    else `setup_hook` opens one. `extensions`: the cog modules `setup_hook` loads (`cogs.extensions()`, and
    tests' own test-only commands); `ops`: the operations of `cardtable-bot run` (the token's budget, the
    metrics, health); other keyword arguments go to `commands.Bot`."""

    store: Store
    sessions: SessionManager  # created in `setup_hook`, before the cogs that use it
    competitions: Competitions  # beside the sessions: tournaments (`bot.events`)
    fair_play: FairPlay  # the moderators' service, for any game
    web: WebServer | None = None  # the table on the web, when WEB_PORT is set (`bot.web`)

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str],
        store: Store | None = None,
        ops: Operations | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no message content needed
            intents=discord.Intents.default(),
            tree_cls=CardTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # Unset: Discord's recommended number of shards, all in this process.
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,  # type: ignore[arg-type]  # None (all) is discord.py's own default
            **options,
        )
        self.settings = settings
        self.ops = ops  # `cardtable-bot run`'s: the token's budget, metrics, health (None in tests)
        self.extension_names = tuple(extensions)
        # discord.py's AutoShardedClient makes its event queue in connect() but close() always uses it: a bot
        # closed before it connected (a rejected token, a test that only builds the command tree) would fail
        # (the same case's shards were fixed in Rapptz/discord.py#1614, its queue not; Red-DiscordBot#6633
        # meets it too). No public way around it: the private queue is made here (with cogs/table.py's
        # `handled`, the only private discord.py members the bot touches).
        self._AutoShardedClient__queue: asyncio.PriorityQueue[Any] = asyncio.PriorityQueue()
        self.stopping = False
        # Table button actions a cog answers first (cogs/private_play.py: Move, in DMs), installed by cogs.
        self.table_hooks = TableHooks()
        self._closing: asyncio.Future[None] | None = None
        if store is not None:
            self.store = store

    async def setup_hook(self) -> None:
        if "store" not in self.__dict__:
            # Store.open creates the SQLite file and its folder (or connects to PostgreSQL).
            self.store = await Store.open(self.settings.database())
        self.sessions = SessionManager(
            self.store,
            DiscordAnnouncer(self, self.store, await self.store.dm_channels()),
            default_timeout=self.settings.turn_timeout_seconds,
            bot_user_id=self.user.id if self.user else None,
            present_now=False,
            owns_guild=self.settings.owns_guild,
            door=self.ops.door if self.ops is not None else None,  # the token's budget across processes
        )
        self.competitions = Competitions(self.store, self.sessions, owns_guild=self.settings.owns_guild)
        self.fair_play = FairPlay(self.store, bot_user_id=self.user.id if self.user else None)
        if self.settings.web_port is not None:
            from bot.web import start_web

            self.web = await start_web(
                self.settings, self.sessions, self.store, discord_api=discord.http.Route.BASE
            )
        resumed = await self.sessions.resume_all()
        if resumed:
            log.info("resumed %d open tables", resumed)
        # What spans tables, beside the sessions: started once the tables are back, so a round's next step
        # finds its tables.
        events = await self.competitions.start()
        if events:
            log.info("resumed %d running events", events)
        for extension in self.extension_names:
            await self.load_extension(extension)
        # German names and descriptions go with the sync, so the translator must be set before it.
        await self.tree.set_translator(CommandTranslator())
        await self.sync_commands()
        # Before the gateway connects: the first player is answered as quickly as any later one. (The
        # interpreter's switch interval stays Python's 5 ms: 1 ms made the threads hand the GIL over more
        # often for no quicker answers, measured in docs/design.md.)
        await asyncio.to_thread(warmup.warm_up)
        warmup.settle_memory()

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild_id)
        else:
            if self.settings.activity_on():  # keep the app's Entry Point command (the Activity's)
                count = await sync_global(self)
            else:
                count = len(await self.tree.sync())
            log.info("synced %d global commands (Discord may take up to an hour to show changes)", count)

    async def on_ready(self) -> None:
        # No public write before the gateway is ready: resumed tables are refreshed from here, paced.
        self.sessions.presenter.start()
        log.info(
            "logged in as %s (id %s) in %d guilds",
            self.user,
            self.user.id if self.user else "?",
            len(self.guilds),
        )

    async def stop(self) -> None:
        """The graceful stop: refuse new commands, let running ones finish (at most STOP_GRACE_SECONDS),
        then close. Every move is stored before it is announced, so nothing a player saw is lost."""
        if self.stopping:
            return
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_GRACE_SECONDS
        while (left := deadline - loop.time()) > 0:
            me = asyncio.current_task()
            running = [
                t for t in asyncio.all_tasks() if t is not me and t.get_name().startswith(_HANDLER_TASKS)
            ]
            if not running:
                break
            await asyncio.wait(running, timeout=left)
        # Computer turns started by those moves run in the session manager's own tasks: let them finish too.
        idle = getattr(getattr(self, "sessions", None), "idle", None)
        if idle is not None and (left := deadline - loop.time()) > 0:
            await asyncio.wait([asyncio.ensure_future(idle())], timeout=left)
        await self.close()

    async def close(self) -> None:
        """Close Discord, then the store. Every caller (the stop, `async with`, discord.py itself) waits for
        the same one closing, so the process never ends while the store is still being closed."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._closing)

    async def _close_once(self) -> None:
        try:
            competitions = self.__dict__.get("competitions")
            if competitions is not None:  # what spans tables stops before the tables
                await competitions.close()
            sessions = self.__dict__.get("sessions")
            if sessions is not None:
                await sessions.close()
            web, self.web = self.web, None
            if web is not None:
                if sessions is not None:
                    sessions.pages.remove(web)  # as the web installed itself: a pair
                await web.close()
            await super().close()
        finally:
            store = self.__dict__.pop("store", None)
            if store is not None:
                await store.close()
            warmup.release_memory()


PRIMARY_ENTRY_POINT = 4  # an application command's type: the App Launcher's entry into the Activity
ENTRY_POINT_FIELDS = (
    "id",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "default_member_permissions",
    "contexts",
    "integration_types",
    "handler",
    "type",
)


async def sync_global(bot: CardBot) -> int:
    """The global commands synced with the app's Entry Point command kept: once Activities are on, Discord
    made one ("Launch", in the App Launcher) and refuses a bulk overwrite that leaves it out (error 50240),
    which `CommandTree.sync` would do. Returns how many commands the bot synced."""
    tree = bot.tree
    app_id = bot.application_id
    assert app_id is not None  # set at login, before the commands are synced
    existing: list[dict[str, Any]] = [dict(c) for c in await bot.http.get_global_commands(app_id)]
    entry: list[dict[str, Any]] = [
        {k: c[k] for k in ENTRY_POINT_FIELDS if k in c}
        for c in existing
        if c.get("type") == PRIMARY_ENTRY_POINT
    ][:1]
    commands: list[Any] = [
        *tree.get_commands(type=discord.AppCommandType.chat_input),
        *tree.get_commands(type=discord.AppCommandType.user),
        *tree.get_commands(type=discord.AppCommandType.message),
    ]
    translator = tree.translator
    payload = [
        await c.get_translated_payload(tree, translator) if translator else c.to_dict(tree) for c in commands
    ]
    await bot.http.bulk_upsert_global_commands(app_id, payload=[*payload, *entry])
    return len(payload)
