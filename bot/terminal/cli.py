"""The arguments of `cardtable-bot play` and their checks (the same limits as a table's options)."""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shlex
import sys
from collections.abc import Mapping
from typing import Any

from bot.games.registry import REGISTRY
from bot.i18n import t
from bot.i18n.locale import LANGUAGES, resolve_locale
from bot.terminal.console import EXIT_INPUT_REFUSED, IDLE_LINES, Console
from bot.terminal.flags import (
    add_option_flags,
    checked_options,
    checked_players,
    default_seats,
    option_names,
    players_help,
)

NAME_LENGTH = 32  # as a Discord display name
# Where a terminal says its language, in the order POSIX (and gettext) read them.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _titles() -> str:
    titles = [spec.title for spec in REGISTRY]
    return ", ".join(titles[:-1]) + " or " + titles[-1] if len(titles) > 1 else "".join(titles)


def description() -> str:
    return (
        f"Play {_titles()} in the terminal against computer players, with the bot's own rules, computer "
        "players and texts. Moves come from standard input, typed or piped: type a move as you would on "
        "Discord ('play 7h centre', 'bid 8', or a number: an amount where one is asked, else the move of "
        "that number in the list); 'help' lists your legal moves, 'hand', 'table' and 'rules' show the game "
        f"and its rules, 'quit' leaves the game (after a 'yes'). Piped input that makes no move {IDLE_LINES} "
        f"lines in a row ends the game with exit code {EXIT_INPUT_REFUSED} and says why on standard error."
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=REGISTRY.names(), help="which game")
    defaults = {s.name: default_seats(s) for s in REGISTRY}
    seats = players_help(defaults)
    parser.add_argument("--players", type=int, default=None, help=f"seats, you included: {seats}")
    add_option_flags(parser)
    parser.add_argument("--seed", default=None, help="replay the same deal and the same computer moves")
    parser.add_argument(
        "--name",
        default=None,
        help=f"your name in the game's texts, 1 to {NAME_LENGTH} printable "
        "characters (default Player; in German Spieler)",
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="the game's language (default: the terminal's, from LANGUAGE, LC_ALL, LC_MESSAGES or LANG: "
        "German for de, else English); German also reads German card names (DH, Herz Dame) and places "
        "(mitte)",
    )


def terminal_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language the terminal's locale settings ask for: the first one set decides (C, POSIX: English)."""
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            # LANGUAGE is a list (de:en); its first entry is the wish.
            return resolve_locale(value.split(":", 1)[0])
    return "en"


def checked_name(name: str | None, parser: argparse.ArgumentParser, locale: str = "en") -> str:
    """The player's name (none given: the game's language's word for a player), or a usage error: 1 to 32
    printable characters, as a Discord display name."""
    if name is None:
        return t(locale, "terminal.default_name")
    name = name.strip()
    if not 1 <= len(name) <= NAME_LENGTH or not name.isprintable():
        parser.error(f"--name must be 1 to {NAME_LENGTH} printable characters")
    return name


def again(args: argparse.Namespace) -> str:
    """The command that plays another game like this one: every option given, but the seed."""
    words = ["cardtable-bot", "play", args.game]
    if args.players is not None:
        words += ["--players", str(args.players)]
    for option in option_names():
        if getattr(args, option) is not None:
            words += [f"--{option}", str(getattr(args, option))]
    if args.name is not None:
        words += ["--name", args.name.strip()]
    if args.language is not None:
        words += ["--language", args.language]
    return shlex.join(words)


def options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[int, dict[str, Any]]:
    """The number of seats and the table options, or a usage error naming the first bad argument."""
    spec = REGISTRY[args.game]
    seats = default_seats(spec) if args.players is None else args.players
    checked_players(spec, seats, parser)
    return seats, dict(checked_options(spec, args, parser))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    seats, table_options = options(args, parser)
    locale = args.language or terminal_language()
    name = checked_name(args.name, parser, locale)
    from bot.terminal.session import TerminalGame

    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            # A terminal without UTF-8 shows ? for a suit instead of a traceback.
            stream.reconfigure(errors="replace")
    console = Console(sys.stdin, sys.stdout, sys.stderr)
    game = TerminalGame(
        args.game,
        seats,
        args.seed or secrets.token_hex(8),
        table_options,
        name=name,
        console=console,
        locale=locale,
        again=again(args),
    )
    try:
        return game.play()
    except KeyboardInterrupt:  # Ctrl+C: the game is left, as with quit
        game.say()
        game.say(game.left_line())
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): nothing more can be shown. Python would complain again when it
        # flushes standard output at exit, so it goes to /dev/null.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
