"""The command line's table options (`cardtable-bot play` and `simulate`), read from the registered games.

Each table option a game's options model has (but the session's: turn time, pictures) is a flag named like it
(`--chips`, `--deals`, `--stake`, `--turns`), with the model's description and limits: the command line
accepts exactly what a table accepts, and a game added to the registry brings its flags with it.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from bot import limits
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec, option_range
from bot.sessions.kinds import SESSION_OPTIONS


def table_options(spec: GameSpec) -> list[str]:
    """The game's own table options, in its model's order."""
    return [name for name in spec.options.model_fields if name not in SESSION_OPTIONS]


def option_names() -> list[str]:
    """Every registered game's table options, each once, in registration order."""
    names: list[str] = []
    for spec in REGISTRY:
        names += [name for name in table_options(spec) if name not in names]
    return names


def _games_with(name: str) -> list[GameSpec]:
    return [spec for spec in REGISTRY if name in table_options(spec)]


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """A `--<option>` flag for each table option, its help naming the games that have it and their limits."""
    for name in option_names():
        parts = []
        for spec in _games_with(name):
            field = spec.options.model_fields[name]
            low, high = option_range(spec.options, name)
            parts.append(f"{spec.title}: {field.description or name}, {low}-{high}")
        parser.add_argument(f"--{name}", type=int, default=None, help="; ".join(parts))


def players_help(default: Mapping[str, int]) -> str:
    """The help of `--players`: each game's seats and the number taken when the flag is left out."""
    parts = []
    for spec in REGISTRY:
        if spec.min_players == spec.max_players:
            parts.append(f"{spec.title}: {spec.min_players}")
        else:
            seats = f"{spec.min_players}-{spec.max_players}"
            parts.append(f"{spec.title}: {seats} (default {default.get(spec.name, spec.min_players)})")
    return "; ".join(parts)


def checked_options(
    spec: GameSpec, args: argparse.Namespace, parser: argparse.ArgumentParser
) -> dict[str, int]:
    """The table options given on the command line for this game, or a usage error naming the first flag the
    game does not take or whose value a table would refuse."""
    own = table_options(spec)
    given = {name: getattr(args, name) for name in option_names() if getattr(args, name) is not None}
    for name in given:
        if name not in own:
            others = " or ".join(s.title for s in _games_with(name))
            parser.error(f"--{name} is not a {spec.title} option (only {others} has it).")
    for name, value in given.items():
        try:
            limits.Limit(*option_range(spec.options, name)).check(value, f"--{name}")
        except ValueError as exc:
            parser.error(f"{exc}.")
    return given


def checked_players(spec: GameSpec, players: int, parser: argparse.ArgumentParser) -> int:
    """The number of seats, or a usage error when the game does not seat that many."""
    if spec.min_players == spec.max_players and players != spec.min_players:
        parser.error(f"{spec.title} is for exactly {spec.min_players} players.")
    try:
        limits.Limit(spec.min_players, spec.max_players).check(players, "--players")
    except ValueError as exc:
        parser.error(f"{exc}.")
    return players
