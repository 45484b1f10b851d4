"""Insomnia in the registry of presentations: its text, pictures, commands, terminal moves, simulator figures
and /rules summary, typed by the engine's own classes (`bot/games/insomnia/`)."""

from __future__ import annotations

from bot.games.insomnia.game import InsomniaGame
from bot.games.insomnia.models import Action, Event, PlayerView, PublicView
from bot.render.insomnia import pictures, text
from bot.render.insomnia.commands import COMMANDS
from bot.render.insomnia.figures import FIGURES
from bot.render.insomnia.moves import MOVES
from bot.render.insomnia.rules import RULES
from bot.render.presentation import GamePresentation

PRESENTATION = GamePresentation[InsomniaGame, PublicView, PlayerView, Event, Action](
    kind="insomnia",
    game=InsomniaGame,
    view=PublicView,
    player_view=PlayerView,
    events=Event,
    actions=Action,
    renderer=text,
    pictures=pictures,
    commands=COMMANDS,
    moves=MOVES,
    figures=FIGURES,
    rules=RULES,
).erased()
