"""Malice in the registry of presentations: its text, pictures, commands, terminal moves, simulator figures
and /rules summary, typed by the engine's own classes (`bot/games/malice/`)."""

from __future__ import annotations

from bot.games.malice.game import MaliceGame
from bot.games.malice.models import Action, Event, MalicePublicView, MaliceView
from bot.render.malice import pictures, text
from bot.render.malice.commands import COMMANDS
from bot.render.malice.figures import FIGURES
from bot.render.malice.moves import MOVES
from bot.render.malice.rules import RULES
from bot.render.presentation import GamePresentation

PRESENTATION = GamePresentation[MaliceGame, MalicePublicView, MaliceView, Event, Action](
    kind="malice",
    game=MaliceGame,
    view=MalicePublicView,
    player_view=MaliceView,
    events=Event,
    actions=Action,
    renderer=text,
    pictures=pictures,
    commands=COMMANDS,
    moves=MOVES,
    figures=FIGURES,
    rules=RULES,
).erased()
