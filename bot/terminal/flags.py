"""The command line's table options (`cardtable-bot play` and `simulate`), read from the registered games.

Each table option a game's options model has (but the session's: turn time, pictures) is a flag named like it
(`--chips`, `--deals`, `--stake`, `--turns`; a house rule's words too: `--discard required`), with the model's
description and limits, and any of them may also be given as `--option NAME=VALUE` (repeatable). Every value
is checked by the game's options model: the command line accepts exactly what a table accepts, and a game
added to the registry brings its flags with it.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from pydantic import ValidationError

from bot import limits
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec, option_choices, option_range
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
    """A `--<option>` flag for each table option, its help naming the games that have it and their limits
    (or its words), and `--option NAME=VALUE` for any of them."""
    for name in option_names():
        parts = []
        words: list[str] = []
        for spec in _games_with(name):
            field = spec.options.model_fields[name]
            choices = option_choices(spec.options, name)
            if choices:
                words += [w for w in choices if w not in words]
                parts.append(f"{spec.title}: {field.description or name}")
            else:
                low, high = option_range(spec.options, name)
                parts.append(f"{spec.title}: {field.description or name}, {low}-{high}")
        if words:
            parser.add_argument(f"--{name}", choices=words, default=None, help="; ".join(parts))
        else:
            parser.add_argument(f"--{name}", type=int, default=None, help="; ".join(parts))
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any table option or house rule of the game, repeatable (e.g. --option discard=required), "
        "checked like a table's",
    )


DEFAULT_SEATS = 3  # `play` and `simulate` without --players: three seats, where the game seats that many


def default_seats(spec: GameSpec) -> int:
    """The seats `play` (you and two computer players) and `simulate` take when --players is left out."""
    return max(spec.min_players, min(DEFAULT_SEATS, spec.max_players))


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
) -> dict[str, object]:
    """The table options given on the command line for this game (flags and `--option NAME=VALUE`), checked
    by its options model, or a usage error naming the first one the game does not take or whose value a table
    would refuse."""
    own = table_options(spec)
    given: dict[str, object] = {
        name: getattr(args, name) for name in option_names() if getattr(args, name) is not None
    }
    for name in given:
        if name not in own:
            others = " or ".join(s.title for s in _games_with(name))
            parser.error(f"--{name} is not an option of {spec.title}: only {others} has it.")
    for name, value in given.items():
        if isinstance(value, int):
            _check_range(spec, name, value, f"--{name}", parser)
    for item in getattr(args, "option", None) or []:
        name, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not name:
            parser.error(f"--option takes NAME=VALUE (like --option discard=required), not {item!r}.")
        if name not in own:
            parser.error(f"--option {name}: {spec.title} has no such option (it has {', '.join(own)}).")
        given[name] = _option_value(spec, name, value, parser)
    return given


def _check_range(spec: GameSpec, name: str, value: int, what: str, parser: argparse.ArgumentParser) -> None:
    try:
        limits.Limit(*option_range(spec.options, name)).check(value, what)
    except ValueError as exc:
        parser.error(f"{exc}.")


def _has_range(spec: GameSpec, name: str) -> bool:
    try:
        option_range(spec.options, name)
    except ValueError:
        return False
    return True


def _option_value(spec: GameSpec, name: str, value: str, parser: argparse.ArgumentParser) -> object:
    """`--option NAME=VALUE`'s value as the game's options model takes it, or a usage error in words a person
    reads (the allowed range or words, not the model's own wording)."""
    what = f"--option {name}"
    words = option_choices(spec.options, name)
    if words:
        if value not in words:
            parser.error(f"{what} must be {' or '.join(words)}, not {value!r}.")
    elif _has_range(spec, name):
        text = value.strip()
        if not (text.lstrip("-").isascii() and text.lstrip("-").isdigit()):
            low, high = option_range(spec.options, name)
            parser.error(f"{what} must be a whole number from {low} to {high}, not {value!r}.")
        _check_range(spec, name, int(text), what, parser)
    try:
        checked = spec.make_options({name: value})
    except ValidationError as exc:  # a check of the model beyond its range or words
        problem = exc.errors()[0]["msg"].removeprefix("Value error, ")
        parser.error(f"{what}={value}: {problem[:1].lower()}{problem[1:]}.")
    return getattr(checked, name)


def checked_players(spec: GameSpec, players: int, parser: argparse.ArgumentParser) -> int:
    """The number of seats, or a usage error when the game does not seat that many."""
    if spec.min_players == spec.max_players and players != spec.min_players:
        parser.error(f"{spec.title} is for exactly {spec.min_players} players.")
    try:
        limits.Limit(spec.min_players, spec.max_players).check(players, "--players")
    except ValueError as exc:
        parser.error(f"{exc}.")
    return players
