"""Moves as the terminal player types them, read the way Discord reads the game's slash commands.

A line is a move command and its options (`play 7h centre1`, `bid 8`; German `legen DH mitte1`, `bieten 8`),
its options alone where only one command takes them now (`7h centre`, `kh`), or a number: the amount, where
the decision asks an amount (`8` bids 8), else the move of that number in the `help` list. Options go through
the same reading as a slash command's (`bot.reading.engine_notation`: every card spelling, German names in a
German locale, `centre` for whichever centre stack takes the card) and the same `build_action`; the engine
checks the rest. Anything refused is a `Refusal` with its reason, worded by the caller.

A game without typed moves is played by number, its actions named by their kind.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.base import GameAction, GameState
from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec
from bot.i18n import catalogue, excerpt, join, t
from bot.i18n.cards import parse_card
from bot.i18n.places import parse_place
from bot.reading import engine_notation
from bot.render import game_name
from bot.render.commands import CommandSet, GameCommand
from bot.render.moves import command_name
from bot.render.presentation import Presentation
from bot.render.registry import PRESENTATIONS

PLAYER = "1"  # the person's player id (see bot.terminal.session.HUMAN)


def _presentation(game: GameState) -> Presentation:
    return PRESENTATIONS[REGISTRY.spec_of(game).name]


def command(action: GameAction, game: GameState, locale: object = "en") -> str:
    """What to type for this action (lower case; input is compared case-insensitively)."""
    moves = _presentation(game).moves
    return moves.command(action, locale) if moves is not None else str(action.kind)


def describe(action: GameAction, game: GameState, locale: object = "en") -> str:
    """The action in words, with what it touches (the die's face, the stack's top)."""
    moves = _presentation(game).moves
    return moves.describe(action, game, locale) if moves is not None else str(action.kind)


def amount(action: GameAction, game: GameState) -> int | None:
    moves = _presentation(game).moves
    return None if moves is None else moves.amount(action)


def asks_amount(game: GameState) -> bool:
    """Whether the decision now asks an amount (a bid): then a number typed alone is that amount."""
    return any(amount(action, game) is not None for action in game.legal_actions())


@dataclass(frozen=True)
class Entry:
    """One line of the `help` list: what to type and what it does (amounts folded into one range)."""

    command: str
    description: str


def entries(game: GameState, locale: object) -> list[Entry]:
    out: list[Entry] = []
    legal = game.legal_actions()
    i = 0
    while i < len(legal):
        action = legal[i]
        low = amount(action, game)
        if low is None:
            out.append(Entry(command(action, game, locale), describe(action, game, locale)))
            i += 1
            continue
        # A run of amounts of one command (bid 6, bid 7, ... bid 15): one line, however many chips.
        word = command(action, game, locale).split()[0]
        j = i
        while j + 1 < len(legal) and amount(legal[j + 1], game) == (amount(legal[j], game) or 0) + 1:
            j += 1
        high = amount(legal[j], game)
        if j == i:
            out.append(Entry(command(action, game, locale), describe(action, game, locale)))
        else:
            out.append(
                Entry(
                    t(locale, "terminal.amount_range", command=word, low=low, high=high),
                    t(locale, "terminal.amount_range_words", low=low, high=high),
                )
            )
        i = j + 1
    return out


def completions(game: GameState, locale: object) -> list[str]:
    """Every move as typed, for the terminal's tab completion."""
    return [command(action, game, locale) for action in game.legal_actions()]


def _move_commands(commands: CommandSet) -> list[GameCommand]:
    return [c for c in commands.commands if c.role == "move"]


def _named(commands: CommandSet, kind: str, word: str, locale: object) -> GameCommand | None:
    """The move command `word` names: its own (English) name, or its name in the reader's language."""
    for cmd in _move_commands(commands):
        if word in (cmd.name, command_name(kind, cmd.name, locale).lower()):
            return cmd
    return None


def _usage(kind: str, cmd: GameCommand, locale: object) -> str:
    """The command as typed, its options by their names in the reader's language: `play <card> <to>`."""
    words = [command_name(kind, cmd.name, locale)]
    for option in cmd.options:
        key = f"cmd.{kind}.{cmd.name}.opt.{option.name}.name"
        words.append(f"<{t(locale, key) if key in catalogue() else option.name}>")
    return " ".join(words)


def _options(cmd: GameCommand, words: Sequence[str], locale: object) -> dict[str, object]:
    """The typed words as the command's options: the last options take one word each, the first the rest
    (a card may be two words, "Herz Dame"). Words that are all one card are the first option alone, the rest
    left unsaid for the game to ask for ("play jack of clubs" in Malice: say where it goes)."""
    names = [option.name for option in cmd.options]
    if not names:
        return {}
    if len(names) > 1 and len(words) > 1:
        with contextlib.suppress(ValueError):
            parse_card(" ".join(words), locale)
            return {names[0]: " ".join(words)}
    tail = len(names) - 1
    if len(words) <= tail:
        return dict(zip(names, words, strict=False))
    head = " ".join(words[: len(words) - tail])
    return {names[0]: head, **dict(zip(names[1:], words[len(words) - tail :], strict=True))}


def _by_number(typed: str, game: GameState, locale: object, help_word: str) -> GameAction:
    legal = game.legal_actions()
    if len(typed) <= 9:
        n = int(typed)
        if 1 <= n <= len(legal):
            return legal[n - 1]
    raise Refusal("terminal.no_such_number", number=excerpt(typed), n=len(legal), help=help_word)


def typeable(game: GameState, locale: object) -> list[str]:
    """What may be typed now, one form per move command: its options by name with an example (`play <card>
    <to> (like play ah centre1)`), an amount's range (`bid 2 to 15`), or the move itself (`pass`); for the
    answer to a line that names no move."""
    kind = REGISTRY.spec_of(game).name
    commands = _presentation(game).commands
    out: list[str] = []
    seen: set[str] = set()
    for entry in entries(game, locale):
        word = entry.command.split(" ")[0]
        if word in seen:
            continue
        seen.add(word)
        cmd = _named(commands, kind, word, locale) if commands is not None else None
        takes_amount = cmd is not None and any(
            amount(a, game) is not None and command(a, game, locale).split(" ")[0] == word
            for a in game.legal_actions()
        )
        if cmd is not None and cmd.options and not takes_amount:
            usage = _usage(kind, cmd, locale)
            out.append(t(locale, "terminal.usage_example", usage=usage, example=entry.command))
        else:
            out.append(entry.command)
    return out


def _other_game(word: str, kind: str, locale: object) -> GameSpec | None:
    """The other registered game whose move command `word` is (`bid` typed in Malice), if any."""
    for spec in REGISTRY:
        other = PRESENTATIONS[spec.name].commands if spec.name in PRESENTATIONS else None
        if spec.name != kind and other is not None and _named(other, spec.name, word, locale) is not None:
            return spec
    return None


def _names_a_value(words: Sequence[str], locale: object) -> bool:
    """Whether a line without a command starts with what a move command takes: a number (`8`, `-3`), a card
    (`kh`, "Herz Dame", "jack of clubs") or a place (`payoff`, `side2`). Anything else is a word nobody's
    move begins with, answered with what may be typed now."""
    first = words[0].removeprefix("-")
    if first.isascii() and first.isdigit():
        return True
    for n in (1, 2, 3):
        if len(words) >= n:
            with contextlib.suppress(ValueError):
                parse_card(" ".join(words[:n]), locale)
                return True
    return parse_place(words[0], locale) is not None


def _typeable_text(game: GameState, locale: object) -> str:
    return join(locale, typeable(game, locale), "or")


def unknown(text: str, game: GameState, locale: object, help_word: str) -> Refusal:
    """The answer to a line that names no move: what was typed, and what may be typed now."""
    return Refusal("terminal.unknown", text=excerpt(text), moves=_typeable_text(game, locale), help=help_word)


def read(text: str, game: GameState, locale: object, *, help_word: str = "help") -> GameAction:
    """The action the person typed; raises a `Refusal` when it names none (the engine checks the action)."""
    typed = " ".join(text.lower().split())
    kind = REGISTRY.spec_of(game).name
    commands = _presentation(game).commands
    if typed.isascii() and typed.isdigit():
        if commands is not None and asks_amount(game):
            action = next(a for a in game.legal_actions() if amount(a, game) is not None)
            typed = f"{command(action, game, 'en').split()[0]} {typed}"
        else:
            return _by_number(typed, game, locale, help_word)
    if commands is None or not typed:
        raise unknown(text, game, locale, help_word)
    words = typed.split(" ")
    presented = _presentation(game).moves
    if presented is not None and words[0] in (said := presented.synonyms(game, locale)):
        words[0] = said[words[0]]  # `keep` in Insomnia's exchange: the prompt said "keep your hand"
    now = {command(a, game, "en").split()[0] for a in game.legal_actions()}  # the commands legal now
    cmd = _named(commands, kind, words[0], locale)
    if cmd is None and (other := _other_game(words[0], kind, locale)) is not None:
        raise Refusal(
            "terminal.other_game",
            word=excerpt(words[0]),
            other=game_name(other.name, locale),
            game=game_name(kind, locale),
            moves=_typeable_text(game, locale),
            help=help_word,
        )
    if cmd is None:
        # Options alone: the one command that takes options now (`kh` exchanges or plays the king).
        taking = [c for c in _move_commands(commands) if c.name in now and c.options]
        if len(taking) != 1 or not _names_a_value(words, locale):
            raise unknown(text, game, locale, help_word)
        cmd, words = taking[0], [taking[0].name, *words]
    given = words[1:]
    needs = any(option.required for option in cmd.options)
    if cmd.name not in now and needs and not given:
        # `play` alone at the auction: no card to try, and the command means nothing now anyway.
        typeable_now = _typeable_text(game, locale)
        raise Refusal("terminal.not_now", word=excerpt(words[0]), moves=typeable_now, help=help_word)
    if given and not cmd.options:
        raise Refusal("terminal.nothing_more", command=command_name(kind, cmd.name, locale))
    if needs and not given:
        raise Refusal("terminal.options", usage=_usage(kind, cmd, locale))
    params = engine_notation(_options(cmd, given, locale), locale)
    return commands.build_action(game, cmd.name, params, PLAYER)
