"""Malice's presentation: the engine's classes it shows; its parts are this folder's modules, found by the
convention every game's folder follows (`bot.render.presentation.folder`)."""

from __future__ import annotations

from bot.games.malice.game import MaliceGame
from bot.games.malice.models import Action, Event, MalicePublicView, MaliceView
from bot.render.presentation import folder

PRESENTATION = folder("malice", MaliceGame, MalicePublicView, MaliceView, Event, Action)
