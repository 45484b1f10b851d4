"""Warming the process up before the first player arrives.

The first game, first picture and first answer of a process pay for one-time work: pydantic building its
validators, the sprite and font caches, the message catalogues, the engines' first moves. `warm_up()` plays
a few moves of every registered game and renders each message kind once, in English and German, so the first
real move is answered as quickly as the thousandth. `settle_memory()` then moves everything alive after start
into the garbage collector's permanent generation (`gc.freeze`): the full collections that come later walk
only what the games create, a pause of a millisecond or two instead of tens.
"""

from __future__ import annotations

import gc
import logging
import time

from bot import render
from bot.games.registry import REGISTRY
from bot.render.common import TableInfo
from bot.render.compose import compose, table_message
from bot.render.registry import PRESENTATIONS
from bot.render.tablelog import Window

log = logging.getLogger(__name__)

WARM_UP_MOVES = 6


def warm_up() -> dict[str, int]:
    """Play and render a few moves of every game with a table; returns the moves played per game."""
    started = time.perf_counter()
    played: dict[str, int] = {}
    for spec in REGISTRY:
        if spec.name not in PRESENTATIONS:  # a game without a table on Discord
            continue
        kind = spec.name
        players = [str(1000 + seat) for seat in range(spec.min_players)]
        game = spec.new_game(players, f"warm-up/{kind}")
        info = TableInfo(id=0, kind=kind, status="running", host_id=1000, players=players)
        played[kind] = 0
        for step in range(WARM_UP_MOVES):
            if game.is_over or game.current_player is None:
                break
            player = game.current_player
            action = spec.choose_action(game, player, f"warm-up/{step}")
            game.apply(action)
            game = spec.load(game.model_dump_json())
            played[kind] += 1
            for locale in ("en", "de"):
                table_message(compose(info, game, locale=locale, picture=True, log=Window(["-"], 1, 0, 0)))
                render.action_receipt(info, game, player, action, locale=locale)
                if game.current_player is not None:
                    render.hand_message(info, game, game.current_player, dm=True, locale=locale)
    log.debug("warmed up in %.0f ms", (time.perf_counter() - started) * 1000)
    return played


def settle_memory() -> None:
    """Collect once, then keep what start-up left alive out of later full collections."""
    gc.collect()
    gc.freeze()


def release_memory() -> None:
    """Undo `settle_memory` when the bot closes (a process that starts several bots, as the tests do, keeps
    collecting what the earlier ones left)."""
    gc.unfreeze()
