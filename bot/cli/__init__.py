"""The command line: `cardtable-bot` and `python -m bot` are this one entry point.

    cardtable-bot [run]            run the bot (the default)
    cardtable-bot check            settings, the token's shape, database and migrations, without Discord
    cardtable-bot health           the running bot's /healthz (METRICS_PORT set), else `check`
    cardtable-bot simulate ...     computer-vs-computer games, headless, with figures
    cardtable-bot play GAME ...    play a game in the terminal against computer players
    cardtable-bot backup FILE      copy the database while the bot runs

Heavy modules (discord.py, the store, the engines) are imported by the command that needs them, so `--help`
and `--version` answer at once and open nothing. Bad arguments are one line and exit 2, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from bot.config import Settings

PROG = "cardtable-bot"
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message.rstrip('.')} (see {self.prog} --help).\n")


def version() -> str:
    try:
        return metadata.version("cardtable-bot")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def build_parser() -> Parser:
    from bot import simulate
    from bot.terminal import cli as terminal_cli

    parser = Parser(
        prog=PROG,
        description="Cardtable: card games for Discord. Settings come from the environment and .env "
        "(see .env.example). Exit codes: 2 settings or arguments, 3 token rejected, 4 database unusable, "
        "5 Discord unreachable.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.add_parser("run", help="run the bot (the default)", description="Run the bot until stopped.")
    commands.add_parser(
        "check",
        help="check the settings, the token's shape and the database (opened and migrated), without "
        "connecting to Discord",
        description="Check the settings and the token's shape (offline: it names a pasted application id, "
        "client secret, quotes or spaces), open the database and apply its migrations; connects to nothing "
        "else. Exit 0 when the bot could start, 2 for settings or the token, 4 for the database.",
    )
    commands.add_parser(
        "health",
        help="ask the running bot's /healthz (with METRICS_PORT set), else the same as check (the "
        "container's health check)",
        description="With METRICS_PORT set: ask the running bot's /healthz (gateway connected, database "
        "answering); exit 0 when healthy, 1 with the reason when not. Without: the same as check.",
    )
    sim = commands.add_parser(
        "simulate",
        help="computer-vs-computer games, headless, with figures",
        description="Play computer-vs-computer games headless; print figures.",
    )
    simulate.add_arguments(sim)
    play = commands.add_parser(
        "play",
        help="play a game in the terminal against computer players",
        description=terminal_cli.description(),
    )
    terminal_cli.add_arguments(play)
    # Each command's own parser, so its usage errors name it (`cardtable-bot simulate: ...`).
    sim.set_defaults(subparser=sim)
    play.set_defaults(subparser=play)
    backup = commands.add_parser(
        "backup",
        help="copy the database to FILE (safe while the bot runs)",
        description="Copy the database (DATABASE_PATH) to FILE with SQLite's online backup, safe while the "
        "bot runs. FILE is replaced only once the copy is complete and checked.",
    )
    backup.add_argument("file", metavar="FILE", type=Path, help="where the copy goes")
    migrate = commands.add_parser(
        "migrate-db",
        help="copy the SQLite database into an empty PostgreSQL database",
        description="Copy every table, seat, action, ledger entry, result and balance of the SQLite database "
        "(DATABASE_PATH) into the empty PostgreSQL database at --to, and check the copy (row counts and "
        "every table's ledger). Then set DATABASE_URL to that URL. Stop the bot first.",
    )
    migrate.add_argument("--to", required=True, metavar="URL", help="postgresql://user:password@host/db")
    migrate.set_defaults(subparser=migrate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    handlers: dict[str | None, Callable[[argparse.Namespace, Parser], int]] = {
        None: _run,
        "run": _run,
        "check": _check,
        "health": _health,
        "backup": _backup,
        "simulate": _simulate,
        "play": _play,
        "migrate-db": _migrate_db,
    }
    try:
        return handlers[args.command](args, parser)
    except KeyboardInterrupt:  # Ctrl+C in a command without its own handling (the bot has one)
        return 130


def _settings(*, need_token: bool = True) -> Settings:
    """The settings; when they are invalid (or the token is missing and needed), the one sentence that says
    why is printed and the process exits 2."""
    from pydantic import ValidationError

    from bot.cli.serve import EXIT_CONFIG, NO_TOKEN, fail
    from bot.config import Settings, setting_problems

    try:
        settings = Settings()
    except ValidationError as exc:
        where = "Settings come from the environment and .env (see .env.example)."
        raise SystemExit(fail(f"{setting_problems(exc)}. {where}", EXIT_CONFIG)) from None
    if need_token and settings.token() is None:
        raise SystemExit(fail(NO_TOKEN, EXIT_CONFIG))
    return settings


def _run(args: argparse.Namespace, parser: Parser) -> int:
    settings = _settings()
    from bot.cli.logs import setup_logging
    from bot.cli.serve import run

    setup_logging(settings.log_level, settings.log_format)
    return asyncio.run(run(settings))


def _check(args: argparse.Namespace, parser: Parser) -> int:
    settings = _settings()
    from bot.cli.database import DatabaseUnusable, describe, open_database
    from bot.cli.serve import EXIT_CONFIG, EXIT_STORAGE, fail
    from bot.ops.token import application_id

    try:  # offline: Discord itself is asked only by `run`
        application = application_id(settings.token() or "")
    except ValueError as exc:
        return fail(str(exc), EXIT_CONFIG)
    activity = activity_check(settings, application)
    if activity.startswith("!"):
        return fail(activity[1:], EXIT_CONFIG)

    async def check() -> str:
        store = await open_database(settings)
        try:
            return await describe(store)
        finally:
            await store.close()

    try:
        found = asyncio.run(check())
    except DatabaseUnusable as exc:
        return fail(f"{exc}.", EXIT_STORAGE)
    print(
        f"{PROG}: settings are valid; the token is shaped like a bot token of application {application}; "
        f"database {settings.database_name()}: {found}.{activity} Ready to run."
    )
    return 0


def activity_check(settings: Settings, application: int) -> str:
    """What `check` says of the Activity (docs/operators/web.md): "" when it is off, a sentence
    when it is ready, "!" and the problem when it cannot work as set."""
    if settings.discord_client_id is None:
        return ""
    if settings.discord_client_id != application:
        return (
            f"!DISCORD_CLIENT_ID is {settings.discord_client_id}, but the token belongs to application "
            f"{application}: use that application's client id and secret (developer portal, OAuth2)."
        )
    if settings.web_port is None:
        return (
            "!DISCORD_CLIENT_ID is set but WEB_PORT is not: the Activity is served by the web pages' server."
        )
    from bot.web.activity import CLIENT

    if not (CLIENT / "index.html").is_file():
        return f"!the Activity's page is not built ({CLIENT}): run `npm ci && npm run build` in client/."
    url = settings.web_url()
    if not url.startswith("https://"):
        return (
            f" The Activity is on, but PUBLIC_URL ({url}) is not https: Discord's proxy reaches only https "
            "targets; set the URL mapping / to your https address + /activity (docs/operators/web.md)."
        )
    mapping = url.split("://", 1)[1] + "/activity"
    return f" The Activity is ready: in the developer portal map the root / to {mapping} (URL Mappings)."


EXIT_UNHEALTHY = 1
HEALTH_TIMEOUT = 5.0


def _health(args: argparse.Namespace, parser: Parser) -> int:
    settings = _settings(need_token=False)  # asking /healthz needs no token
    if settings.metrics_port is None:
        return _check(args, parser)
    import urllib.error
    import urllib.request

    from bot.cli.serve import fail

    host = settings.metrics_host
    host = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # listening everywhere: ask this machine
    url = f"http://{f'[{host}]' if ':' in host else host}:{settings.metrics_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTH_TIMEOUT) as response:
            print(f"{PROG}: healthy ({response.read().decode(errors='replace').strip()}).")
            return 0
    except urllib.error.HTTPError as exc:
        why = exc.read().decode(errors="replace").strip() or exc.reason
        return fail(f"not healthy: {why} ({url} answered {exc.code}).", EXIT_UNHEALTHY)
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        return fail(f"the bot does not answer at {url} ({reason}): is it running?", EXIT_UNHEALTHY)


def _backup(args: argparse.Namespace, parser: Parser) -> int:
    settings = _settings(need_token=False)  # copying the database needs no token
    source = settings.database_path
    from bot.cli.database import DatabaseUnusable, backup
    from bot.cli.serve import EXIT_CONFIG, EXIT_STORAGE, fail

    if settings.database_url is not None:
        # The SQLite file is not the bot's database then: a copy of it would be a backup of nothing.
        return fail(
            "DATABASE_URL is set, so the database is PostgreSQL: back it up with pg_dump "
            "(see docs/operators/backups.md).",
            EXIT_CONFIG,
        )

    try:
        size = backup(source, args.file)
    except DatabaseUnusable as exc:
        return fail(f"{exc}.", EXIT_STORAGE)
    print(f"{PROG}: copied {source} to {args.file} ({size:,} bytes).")
    return 0


def _simulate(args: argparse.Namespace, parser: Parser) -> int:
    from bot import simulate

    return simulate.run(args, args.subparser)


def _play(args: argparse.Namespace, parser: Parser) -> int:
    from bot.terminal import cli as terminal_cli

    return terminal_cli.run(args, args.subparser)


def _migrate_db(args: argparse.Namespace, parser: Parser) -> int:
    if not args.to.startswith(("postgresql://", "postgres://")):
        args.subparser.error("--to must be a postgresql:// URL")
    source = _settings(need_token=False).database_path
    from bot.cli.database import DatabaseUnusable, migrate_to_postgres
    from bot.cli.serve import EXIT_STORAGE, fail

    try:
        summary = asyncio.run(migrate_to_postgres(source, args.to))
    except DatabaseUnusable as exc:
        return fail(f"{exc}.", EXIT_STORAGE)
    print(f"{PROG}: {summary}. Now set DATABASE_URL to that database and start the bot.")
    return 0
