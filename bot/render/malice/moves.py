"""Malice's moves as typed in the terminal: `play 7h centre1`, `play payoff centre2`, `end` (German: `legen 7h
mitte1`, `legen zahlstapel mitte2`, `beenden`): the slash commands and their options."""

from __future__ import annotations

from typing import assert_never

from bot.games.malice.game import MaliceGame
from bot.games.malice.models import Action, EndGame, EndTurn, Play, Resign
from bot.i18n import t
from bot.i18n.cards import format_card, format_rank
from bot.i18n.places import format_place
from bot.render.malice.text import place
from bot.render.moves import TypedMoves, command_name


def command(action: Action, locale: object) -> str:
    match action:
        case EndTurn():
            return command_name("malice", "end", locale)
        case Play():
            # The card, or the pile whose top it is; then where it goes. A joker's rank follows from the stack
            # it goes to (`/malice play` fills it in).
            if action.source == "hand" and action.card is not None:
                source = format_card(action.card, locale, pretty=False)
            else:
                source = format_place(action.source, locale)
            play = command_name("malice", "play", locale)
            return f"{play} {source} {format_place(action.to, locale)}".lower()
        case Resign() | EndGame():  # system actions, never legal for a player: no command to type
            return action.kind.replace("_", " ")
        case _:
            assert_never(action)


def describe(action: Action, game: MaliceGame, locale: object) -> str:
    match action:
        case EndTurn():
            return t(locale, "terminal.malice.end")
        case Play():
            params = {"source": place(action.source, locale), "to": place(action.to, locale)}
            if action.card is None:
                return t(locale, "terminal.malice.play_top", **params)
            card = format_card(action.card, locale)
            if action.as_rank is not None:
                rank = format_rank(action.as_rank, locale)
                return t(locale, "terminal.malice.play_joker", card=card, rank=rank, **params)
            return t(locale, "terminal.malice.play", card=card, **params)
        case Resign():
            return t(locale, "terminal.resign")
        case EndGame():
            return t(locale, "terminal.end_game")
        case _:
            assert_never(action)


MOVES = TypedMoves[MaliceGame, Action](command=command, describe=describe)
