"""The arguments of `cardtable-bot play` and their checks (the same limits as a table's options)."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from bot.games.registry import REGISTRY
from bot.terminal.flags import add_option_flags, checked_options, checked_players, players_help

DEFAULT_SEATS = 3  # you and two computer players, where the game seats that many


def _titles() -> str:
    titles = [spec.title for spec in REGISTRY]
    return ", ".join(titles[:-1]) + " or " + titles[-1] if len(titles) > 1 else "".join(titles)


def description() -> str:
    return (
        f"Play {_titles()} in the terminal against computer players, with the bot's own rules, computer "
        "players and texts. Moves come from standard input, typed or piped: 'help' lists your legal moves "
        "(type one, or its number), 'hand' and 'table' show the game, 'quit' ends."
    )


def _default_seats(spec_min: int, spec_max: int) -> int:
    return max(spec_min, min(DEFAULT_SEATS, spec_max))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=REGISTRY.names(), help="which game")
    defaults = {s.name: _default_seats(s.min_players, s.max_players) for s in REGISTRY}
    seats = players_help(defaults)
    parser.add_argument("--players", type=int, default=None, help=f"seats, you included: {seats}")
    add_option_flags(parser)
    parser.add_argument("--seed", default=None, help="replay the same deal and the same computer moves")
    parser.add_argument("--name", default="Player", help="your name in the game's texts (default Player)")


def options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[int, dict[str, Any]]:
    """The number of seats and the table options, or a usage error naming the first bad argument."""
    spec = REGISTRY[args.game]
    seats = _default_seats(spec.min_players, spec.max_players) if args.players is None else args.players
    checked_players(spec, seats, parser)
    return seats, dict(checked_options(spec, args, parser))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    seats, table_options = options(args, parser)
    from bot.terminal.session import TerminalGame

    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            # A terminal without UTF-8 shows ? for a suit instead of a traceback.
            stream.reconfigure(errors="replace")
    game = TerminalGame(
        args.game, seats, args.seed or secrets.token_hex(8), table_options, name=args.name,
        read=sys.stdin.readline, write=sys.stdout.write, echo=not sys.stdin.isatty(),
    )
    return game.play()
