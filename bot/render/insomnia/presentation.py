"""Insomnia's presentation: the engine's classes it shows; its parts are this folder's modules, found by the
convention every game's folder follows (`bot.render.presentation.folder`)."""

from __future__ import annotations

from bot.games.insomnia.game import InsomniaGame
from bot.games.insomnia.models import Action, Event, PlayerView, PublicView
from bot.render.presentation import folder

PRESENTATION = folder("insomnia", InsomniaGame, PublicView, PlayerView, Event, Action)
