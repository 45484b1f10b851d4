"""The arguments of `cardtable-bot play` and their checks (the same limits as a table's options)."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from bot import limits
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec, option_range
from bot.sessions.kinds import SESSION_OPTIONS

DEFAULT_SEATS = 3  # you and two computer players, where the game seats that many
FLAGS = ("players", "chips", "deals", "stake", "turns")  # in the order their errors are told

DESCRIPTION = (
    "Play Insomnia or Malice in the terminal against computer players, with the bot's own rules, computer "
    "players and texts. Moves come from standard input, typed or piped: 'help' lists your legal moves (type "
    "one, or its number), 'hand' and 'table' show the game, 'quit' ends."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=REGISTRY.names(), help="which game")
    parser.add_argument(
        "--players", type=int, default=None,
        help=f"Insomnia: seats at the table, you included, {limits.INSOMNIA_PLAYERS.min}-"
        f"{limits.INSOMNIA_PLAYERS.max} (default 3); Malice is for 2",
    )
    parser.add_argument(
        "--chips", type=int, default=None,
        help=f"Insomnia: starting chips, {limits.CHIPS.min}-{limits.CHIPS.max} "
        f"(default {limits.DEFAULT_CHIPS})",
    )
    parser.add_argument(
        "--deals", type=int, default=None,
        help=f"Insomnia: end after this many deals ({limits.DEALS.max} at most)",
    )
    parser.add_argument(
        "--stake", type=int, default=None,
        help=f"Malice: chips per card of the score, {limits.STAKE.min}-{limits.STAKE.max} "
        f"(default {limits.DEFAULT_STAKE})",
    )
    parser.add_argument(
        "--turns", type=int, default=None,
        help=f"Malice: the turn cap, {limits.TURNS.min}-{limits.TURNS.max} (default {limits.DEFAULT_TURNS})",
    )
    parser.add_argument("--seed", default=None, help="replay the same deal and the same computer moves")
    parser.add_argument("--name", default="Player", help="your name in the game's texts (default Player)")


def own_flags(spec: GameSpec) -> set[str]:
    """The command-line options a game takes: `--players` unless its seats are fixed, and its table options
    (the flags are named like the options, e.g. `--chips`; the turn time and pictures are the session's: a
    terminal game has neither)."""
    flags = {name for name in spec.options.model_fields if name not in SESSION_OPTIONS}
    return flags | ({"players"} if spec.min_players != spec.max_players else set())


def options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[int, dict[str, Any]]:
    """The number of seats and the table options, or a usage error naming the first bad argument."""
    spec = REGISTRY[args.game]
    own = own_flags(spec)
    for flag in FLAGS:
        if getattr(args, flag) is not None and flag not in own:
            other = next(s.title for s in REGISTRY if flag in own_flags(s))
            parser.error(f"--{flag} is a {other} option.")
    for flag in (f for f in FLAGS if f in own):
        value = getattr(args, flag)
        if value is None:
            continue
        low, high = (
            (spec.min_players, spec.max_players) if flag == "players" else option_range(spec.options, flag)
        )
        try:
            limits.Limit(low, high).check(value, f"--{flag}")
        except ValueError as exc:
            parser.error(f"{exc}.")
    seats = args.players or max(spec.min_players, min(DEFAULT_SEATS, spec.max_players))
    return seats, {k: getattr(args, k) for k in own - {"players"} if getattr(args, k) is not None}


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
