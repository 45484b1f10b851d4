"""Insomnia's moves as typed in the terminal: `exchange kh`, `bid 3`, `rethrow 2`, `play 7h`, `pass`
(German: `tauschen kh`, `bieten 3`, `nachwerfen 2`, `ausspielen 7h`, `passen`): the slash commands and their
options."""

from __future__ import annotations

from typing import assert_never

from bot.games.insomnia.game import InsomniaGame
from bot.games.insomnia.models import Action, Bid, EndGame, Exchange, Pass, Play, Rethrow
from bot.i18n import t, tn
from bot.i18n.cards import format_card, format_rank
from bot.render.moves import TypedMoves, command_name


def _name(command: str, locale: object) -> str:
    return command_name("insomnia", command, locale)


def command(action: Action, locale: object) -> str:
    match action:
        case Pass():
            return _name("pass", locale)
        case EndGame():  # a system action, never legal for a player: no command to type
            return action.kind.replace("_", " ")
        case Bid():
            return f"{_name('bid', locale)} {action.amount}"
        case Rethrow():
            return f"{_name('rethrow', locale)} {action.die}"
        case Exchange():
            return f"{_name('exchange', locale)} {format_card(action.card, locale, pretty=False)}".lower()
        case Play():  # a card to the trick
            return f"{_name('play', locale)} {format_card(action.card, locale, pretty=False)}".lower()
        case _:
            assert_never(action)


def describe(action: Action, game: InsomniaGame, locale: object) -> str:
    match action:
        case Pass():
            what = {"exchange": "keep", "rethrow": "stop", "auction": "no_bid"}.get(game.phase, "pass")
            return t(locale, f"terminal.insomnia.{what}")
        case Bid():
            return tn(locale, "terminal.insomnia.bid", action.amount)
        case Rethrow():
            face = format_rank(game.public_view().dice[action.die - 1], locale)
            return t(locale, "terminal.insomnia.rethrow", die=action.die, face=face)
        case Exchange():
            return t(locale, "terminal.insomnia.exchange", card=format_card(action.card, locale))
        case Play():
            return t(locale, "terminal.insomnia.play", card=format_card(action.card, locale))
        case EndGame():
            return t(locale, "terminal.end_game")
        case _:
            assert_never(action)


def amount(action: Action) -> int | None:
    return action.amount if isinstance(action, Bid) else None


def synonyms(game: InsomniaGame, locale: object) -> dict[str, str]:
    """Words the turn's prompt puts in the player's mouth, as the command they mean: "exchange a card or keep
    your hand" makes `keep` a pass in the exchange, and "stop re-throwing" makes `stop` one in the re-throws
    (English, and the reader's language's word)."""
    word = {"exchange": "keep", "rethrow": "stop"}.get(game.phase)
    if word is None:
        return {}
    return {word: "pass", t(locale, f"terminal.insomnia.{word}_word"): "pass"}


MOVES = TypedMoves[InsomniaGame, Action](command=command, describe=describe, amount=amount, synonyms=synonyms)
