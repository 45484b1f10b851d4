"""The arguments of `cardtable-bot play` and their checks (the same limits as a table's options)."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from bot import limits

DESCRIPTION = (
    "Play Insomnia or Malice in the terminal against computer players, with the bot's own rules, computer "
    "players and texts. Moves come from standard input, typed or piped: 'help' lists your legal moves (type "
    "one, or its number), 'hand' and 'table' show the game, 'quit' ends."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["insomnia", "malice"], help="which game")
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


def options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[int, dict[str, Any]]:
    """The number of seats and the engine options, or a usage error naming the first bad argument."""
    own = {"insomnia": ("players", "chips", "deals"), "malice": ("stake", "turns")}[args.game]
    for flag in ("players", "chips", "deals", "stake", "turns"):
        if getattr(args, flag) is not None and flag not in own:
            other = "Malice" if args.game == "insomnia" else "Insomnia"
            parser.error(f"--{flag} is a {other} option.")
    checks = {
        "players": limits.INSOMNIA_PLAYERS, "chips": limits.CHIPS, "deals": limits.DEALS,
        "stake": limits.STAKE, "turns": limits.TURNS,
    }
    for flag, limit in checks.items():
        value = getattr(args, flag)
        if value is not None:
            try:
                limit.check(value, f"--{flag}")
            except ValueError as exc:
                parser.error(f"{exc}.")
    if args.game == "malice":
        engine_options = {"stake": args.stake, "max_turns": args.turns}
        return 2, {k: v for k, v in engine_options.items() if v is not None}
    engine_options = {"chips": args.chips, "max_deals": args.deals}
    return args.players or 3, {k: v for k, v in engine_options.items() if v is not None}


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    seats, engine_options = options(args, parser)
    from bot.terminal.session import TerminalGame

    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            # A terminal without UTF-8 shows ? for a suit instead of a traceback.
            stream.reconfigure(errors="replace")
    game = TerminalGame(
        args.game, seats, args.seed or secrets.token_hex(8), engine_options, name=args.name,
        read=sys.stdin.readline, write=sys.stdout.write, echo=not sys.stdin.isatty(),
    )
    return game.play()
