"""End-to-end harness: the real bot (`bot.client.CardBot`, unmodified) against the local fake Discord.

Guide
-----
Fixtures (tests/e2e/conftest.py):
- `harness`: a started fake Discord and a started bot on a fresh SQLite file in `tmp_path`.
  Per-test settings with a marker: `@pytest.mark.bot(turn_timeout_seconds=0.5, extra_extensions=[...])`
  (any `Settings` field, plus `extra_extensions`: more cog modules to load, e.g. a test-only cog, and
  `rate_limits=True`: Discord's rate limits in the fake, see below).
- `discord_fake`: the `FakeDiscord` of that harness (same object as `harness.fake`).
- `@pytest.mark.both_backends` (tests/e2e/conftest.py): the test runs twice, `[sqlite]` and `[postgres]`, the
  bot's DATABASE_URL then a fresh database on the throwaway PostgreSQL server of tests/conftest.py (skipped
  with the reason when there is none). The whole-game tests (test_malice_game.py, test_insomnia_game.py) are.

Shards and guilds: `fake.add_guild("Dice Den", ["den-games"])` adds a guild (by default on the other shard of
2 from the first) with channels of its own; `FakeDiscord(shard_count=2)` or `fake.shard_count = 2` is what
GET /gateway/bot recommends. Each gateway connection gets only its shard's guilds and their interactions
(`fake.connected_shards()`, `fake.shard_events`); `slash(..., channel="den-games")` runs in that guild.
Bots as separate processes: tests/e2e/bot_process.py (see tests/e2e/test_two_processes.py).

Users (`UserHandle`): `alice = harness.user("alice")` (members: alice, bob, carol, dave, erin, frank; erin
owns the guild and has Manage Server). Channels: "general", "games" (the default), "lounge".
Roles: every guild has @everyone, Moderator (Manage Server: erin's), the bot's managed role and two plain
roles, "Dealers" and "Regulars", which grant nothing by themselves: `fake.give_role(alice, "Dealers")` (her
next interaction carries it), `fake.role_id("Dealers")`; a role option takes the role's name:
`erin.slash("settings role", role="Dealers")`, resolved as Discord resolves it.
Languages: `alice.user.locale = "de"` (her client's language, sent with each of her interactions; default
"en-US"); `fake.guild_locale = "de"` (the server's, sent as `guild_locale` with every interaction).
- `reply = await alice.slash("insomnia new", chips=10)`; options are checked against the synced definitions
  as Discord would (unknown option, missing required option, choices, min/max all raise `FakeDiscordError`);
  user options take a handle: `await alice.slash("malice challenge", opponent=bob)`; `channel="lounge"`.
- `await bob.click(message, "Join")` (label or custom_id), `await bob.select(message, "custom_id", ["v"])`.
- `choices = await alice.autocomplete("insomnia play", "card", "")` -> `[Choice(name, value), ...]`.
Each call waits until the bot answered (a deferred answer: until its message is completed) and returns a
`Reply`: `.kind` ("message", "deferred", "update", "deferred_update", "autocomplete", "modal"), `.message`,
`.ephemeral`, `.text` (content and embed texts of the answer and its followups), `.followups`, `.embeds`.

Who saw what (`FakeMessage.visibility` is public in a channel, ephemeral to a user, or DM to a user):
- `fake.channel_messages("games")`: public messages of a channel, current versions; `message.history` lists
  the text of every version (edits), `message.text` the current one, `message.buttons` / `.button_labels`.
- `alice.ephemerals()`, `alice.dms()`, `alice.seen()` (everything she can see), `fake.public_messages()`.
- `message.pinged`: the users a message notified (allowed_mentions applied).

User installs: `friends = fake.add_private_channel("friends", ["alice", "bob", "carol"])` is a group DM with
no bot in it (`group=False`: a DM between two), where the app is used as installed to each user (context 2,
only the user install authorising): `alice.slash("malice challenge", opponent=bob, channel=friends)`; every
channel REST call there answers 403 / 50001 (`fake.refused_private_calls` lists them); at most 5 follow-ups
per interaction. A command is offered only where its synced `contexts` and `integration_types` say (else
`FakeDiscordError`; `unchecked=True` sends it anyway). `await alice.user_command("Challenge to Malice", bob,
channel=...)` uses a user context-menu command; `await alice.submit(reply, {"pick1": ["end"]})` submits the
modal `reply` opened (selects by custom_id).

Threads the bot opens (`channel.create_thread`, `message.create_thread`; archive, lock or rename with
`thread.edit`) are in `fake.threads` and are channels like any other: `fake.channel_messages("thread name")`,
`alice.slash(..., channel="thread name")`, a bucket of their own; a locked thread refuses messages (50083).

Waiting (never sleep): `await fake.wait_for_message(channel="games", contains="Stage 2", since=mark)` with
`mark = fake.mark()` taken before the action; `await fake.wait_for(lambda: <truthy when done>)`.
Time-outs are generous (`fake.default_timeout`, 10 s) and only reached when something is broken.

Parallel runs (`python -m pytest -n 6`, tests/parallel.py): each test has its own fake Discord (port 0), its
own `tmp_path` and its own PostgreSQL database, so a new test is safe beside others as long as it binds port 0
(or takes `tests.pg.free_port()` for a child process) and writes only under `tmp_path`. Mark a test of half a
minute or more `@pytest.mark.slow`, and one that counts requests per second or races a real deadline
between processes `@pytest.mark.alone`.

Failures: `fake.close_dms(alice)` (DMs to her answer 403 / 50007),
`fake.fail_next("POST /channels/{channel_id}/messages", 429, retry_after=0.05)` or `(..., 500)`;
`fake.calls(route)` lists the recorded REST calls of a route template. `await fake.drop_gateway()` closes
every gateway connection and refuses new ones (503) until `fake.restore_gateway()`.
`chaos = fake.fail_randomly(MESSAGE_WRITE_ROUTES, rate=0.3, statuses=(500, 503), seed=1)` fails that share
of the calls of those routes from now on, at a fixed seed (429s carry `retry_after=`); `chaos.injected`
counts them by status; `fake.stop_failing()` ends it.

Hostile input (what Discord itself would refuse, sent anyway): `slash(..., unchecked=True)` and
`autocomplete(..., unchecked=True)` send option values unchecked (any JSON value, missing, out of range or
choices, a user id nobody has); `values={"timeout": 5}` passes options named like a keyword of the helper;
`alice.forged_click("cardtable:1:x", message=msg)` sends any custom_id, on a message she can see (what Discord
never delivers, a click without a message or on another's ephemeral one, raises `FakeDiscordError`);
`alice.dm_channel()` is her DM channel with the bot, to send commands from (`channel=alice.dm_channel()`).

Discord's limits (tests/e2e/fake_discord.py; each answers as Discord does, the bot must cope):
- Rate limits are OFF unless asked for: `@pytest.mark.bot(rate_limits=True)` (or
  `Harness(..., rate_limits=True)`, `FakeDiscord(rate_limits=True)`, or `fake.rate_limits = True` at any
  moment). Then: 5 message writes per 5 s per channel, shared by POST/PATCH/DELETE of its messages (a DM
  channel is a channel of its own), 50 requests/s in all (interaction callbacks and webhook followups
  excluded), `X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket` on every answer (discord.py paces
  itself by them), 429 with `retry_after` (`global`, `X-RateLimit-Scope`, `Retry-After`) past them. Off, no
  rate-limit header is sent.
- Always on: the first callback of an interaction more than 3 s after it was dispatched gets 404 / 10062
  (`slash`/`click` then raise `FakeDiscordError` naming 10062); an interaction token expires after 15 min
  (401 / 50027); a message older than an hour takes `fake.old_message_edit_allowance` (3) more edits, then
  PATCH fails with 400 / 30046.
- The fake's clock: `fake.now()` (epoch seconds); `fake.advance(seconds)` moves it on (message ages,
  deadlines, rate-limit windows), never the bot's clock.
- Every request body (JSON, or a multipart's `payload_json`) is validated against Discord's own OpenAPI
  schema of the route (tests/e2e/discord_api, regenerated by scripts/extract_discord_schema.py): an unknown
  field or a broken limit answers 400 / 50035 and is a violation.
- `stats = fake.rest_stats(since=None)`: `stats.calls` (each rate-limited REST call, i.e. all but interaction
  callbacks and followups: `.at` on the fake's clock, `.route` template, `.status`, `.bucket`), `stats.total`,
  `stats.by_route()` (a Counter), `stats.times(route)`, `stats.peak(window=1.0)` (most calls in any window),
  `stats.per_second()` (calls in each whole second of the fake's clock),
  `stats.sent_429` / `stats.answers_429` / `stats.global_429`, `stats.error_codes` (Counter of Discord error
  codes answered: 10062, 30046, 50035, ...). Counted whether the limits are on or off.
- `reply.interaction` is the fake's record of an interaction (`.token`, `.dispatched_at`);
  `fake.interaction_deadline` (3.0) and `fake.old_message_edit_allowance` (3) are plain attributes.

Restart: `await harness.restart_bot()` stops the bot (closing its store) and starts a NEW `CardBot` on the
same database file; the fake keeps its messages, so old buttons can be clicked on the new bot. Settings can
change on restart: `await harness.restart_bot(turn_timeout_seconds=5)`. `harness.bot` is the current bot.
`await harness.crash_bot()` is a kill -9 instead: every task of the bot is cancelled wherever it is (no
graceful stop, nothing flushed, nothing logged any more), its sockets and database file closed as the OS
would; then `start_bot()` starts the next one on the same database.

At teardown the test fails if the bot called a REST route the fake does not know, broke a Discord rule
(`fake.violations`), or logged an error. A test that provokes an error on purpose takes it with
`harness.take_logged_errors()` and asserts on it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cogs
from bot.client import CardBot
from bot.config import Settings
from tests.e2e.fake_discord import FakeDiscord, FakeDiscordError, UserHandle

START_TIMEOUT = 20.0
# Which bot (by its start number) a task belongs to: set in the context the bot is started in, so every task
# it spawns (gateway, handlers, timers, presenter) inherits it and `crash_bot` can find them all.
_BOT_NUMBER: contextvars.ContextVar[int] = contextvars.ContextVar("e2e_bot_number")


class _ErrorCollector(logging.Handler):
    """Keeps every ERROR record logged while a test runs (discord.py swallows exceptions into its log)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Harness:
    def __init__(
        self,
        fake: FakeDiscord,
        tmp_path: Path,
        *,
        extra_extensions: Sequence[str] = (),
        rate_limits: bool | None = None,
        **settings: Any,
    ) -> None:
        self.fake = fake
        if rate_limits is not None:
            fake.rate_limits = rate_limits
        self.tmp_path = tmp_path
        self.extra_extensions = tuple(extra_extensions)
        self.settings = self._settings(**settings)
        self.bot: CardBot | None = None
        self._connect_task: asyncio.Task[None] | None = None
        self.bots_started = 0
        self.crashes = 0
        self._errors = _ErrorCollector()
        self._bot_tasks: dict[int, weakref.WeakSet[asyncio.Task[Any]]] = {}
        self._old_task_factory: Any = None

    def _settings(self, **overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "discord_token": self.fake.token,
            "database_path": self.tmp_path / "cardbot.sqlite3",
            "turn_timeout_seconds": 30.0,
            "log_level": "DEBUG",
        }
        # model_copy skips validation: tests shorten the turn timeout below the 10 s a real setting allows.
        return Settings(_env_file=None, **values).model_copy(update=overrides)  # type: ignore[call-arg]

    def user(self, name: str) -> UserHandle:
        return self.fake.user(name)

    @property
    def store(self) -> Any:
        """The running bot's store (to seed or inspect the database)."""
        if self.bot is None:
            raise FakeDiscordError("the bot is not running")
        return self.bot.store

    # ---- lifecycle

    async def start_bot(self, **settings: Any) -> CardBot:
        if self.bot is not None:
            raise FakeDiscordError("the bot is already running; use restart_bot()")
        if settings:
            self.settings = self.settings.model_copy(update=settings)
        logging.getLogger().addHandler(self._errors)
        self._track_bot_tasks()
        number = self.bots_started + self.crashes + 1
        context = contextvars.copy_context()
        context.run(_BOT_NUMBER.set, number)
        identifies = len(self.fake.identifies)
        # A short guild_ready_timeout: the fake sends its only GUILD_CREATE right after READY, so waiting the
        # default 2 s for more guilds would only slow every start.
        bot = context.run(
            CardBot,
            self.settings,
            extensions=[*cogs.extensions(), *self.extra_extensions],
            guild_ready_timeout=0.05,
        )
        self.bot = bot
        token = self.settings.token()
        assert token is not None
        # login runs setup_hook: store, cogs, command sync; errors surface here
        await asyncio.get_running_loop().create_task(bot.login(token), context=context)
        self._connect_task = asyncio.get_running_loop().create_task(
            bot.connect(reconnect=False), name="bot-connect", context=context
        )
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {self._connect_task, ready}, timeout=START_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self._connect_task in done:
                self._connect_task.result()  # raises why the connection ended
            raise FakeDiscordError("the bot did not become ready")
        # Every guild on this bot's shards (all of them unless SHARD_IDS says otherwise).
        mine = [gid for gid in self.fake.guilds if self.settings.owns_guild(gid)]
        await self.fake.wait_for(
            lambda: len(self.fake.identifies) > identifies and all(bot.get_guild(g) for g in mine),
            what="the bot to see its guilds",
        )
        self.bots_started += 1
        return bot

    async def stop_bot(self) -> None:
        bot, task = self.bot, self._connect_task
        self.bot = None
        self._connect_task = None
        if bot is not None:
            await bot.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, START_TIMEOUT)
            except (asyncio.CancelledError, Exception) as exc:  # a closed connection may end with an error
                logging.getLogger(__name__).debug("bot connection ended: %r", exc)
        # Let the gateway handler notice the closed socket, so a new bot can identify cleanly.
        await self.fake.wait_for(lambda: not self.fake.connected, what="the gateway to close")

    def _track_bot_tasks(self) -> None:
        """Record every task a bot creates (by the bot number in its context), for `crash_bot`."""
        loop = asyncio.get_running_loop()
        if self._old_task_factory is not None:
            return
        self._old_task_factory = loop.get_task_factory() or _DEFAULT_FACTORY
        previous = self._old_task_factory

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
            task = previous(loop, coro, **kwargs)
            context = kwargs.get("context") or contextvars.copy_context()
            number = context.get(_BOT_NUMBER, None)
            if number is not None:
                self._bot_tasks.setdefault(number, weakref.WeakSet()).add(task)
            return task

        loop.set_task_factory(factory)

    async def crash_bot(self) -> None:
        """Kill the bot as kill -9 would: no graceful stop, no flush. Every task it started is cancelled where
        it stands; then what the OS does for a dead process: its sockets and its database file are closed
        (closing commits nothing: each write is its own transaction, committed or not). What the dying bot
        logs while its tasks unwind is dropped: a killed process logs nothing. `start_bot()` starts the next
        bot on the same database."""
        bot = self.bot
        if bot is None:
            raise FakeDiscordError("the bot is not running")
        number = self.bots_started + self.crashes
        self.bot, self._connect_task = None, None
        logged = len(self._errors.records)
        me = asyncio.current_task()
        # Rounds until none is left, as nothing of a dead process runs on: a task unwinding may start another
        # (a table's worker woken in a `finally`), and one may swallow a cancellation (asyncio.wait_for in
        # Python 3.11 can), so each round cancels what is still running, new or old.
        pending: set[asyncio.Task[Any]] = set()
        for _ in range(20):
            pending |= {t for t in self._bot_tasks.pop(number, ()) if t is not me}
            pending = {t for t in pending if not t.done()}
            if not pending:
                break
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=START_TIMEOUT / 20)
        await bot.http.close()  # its connections, the gateway's included, drop
        store = bot.__dict__.get("store")
        if store is not None:
            await store.close()
        del self._errors.records[logged:]
        self.crashes += 1
        await self.fake.wait_for(lambda: not self.fake.connected, what="the gateway to notice the crash")

    async def restart_bot(self, **settings: Any) -> CardBot:
        """Stop the bot and start a new one on the same database (and the same fake Discord)."""
        await self.stop_bot()
        return await self.start_bot(**settings)

    # ---- checks

    def take_logged_errors(self) -> list[logging.LogRecord]:
        """The ERROR records logged so far (and forget them, so teardown does not fail on them)."""
        records, self._errors.records = self._errors.records, []
        return records

    def problems(self) -> list[str]:
        """What must fail the test: unknown routes, broken Discord rules, errors in the log."""
        found = [f"the bot called a route the fake does not know: {r}" for r in self.fake.unknown_routes]
        found += [f"Discord would refuse: {v}" for v in self.fake.violations]
        for record in self._errors.records:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
            found.append(f"logged error from {record.name}: {text}")
        return found

    async def close(self) -> None:
        try:
            await self.stop_bot()
        finally:
            logging.getLogger().removeHandler(self._errors)
            if self._old_task_factory is not None:
                previous = self._old_task_factory
                asyncio.get_running_loop().set_task_factory(
                    None if previous is _DEFAULT_FACTORY else previous
                )


def _default_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
    return asyncio.Task(coro, loop=loop, **kwargs)


_DEFAULT_FACTORY = _default_factory
