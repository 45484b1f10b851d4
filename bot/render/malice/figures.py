"""Malice in the simulator's figures: turns per game, and the score of a decided game."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from bot.games.malice.game import MaliceGame
from bot.games.malice.models import Event
from bot.render.figures import Figures, GameFigures


def count(game: MaliceGame, events: Sequence[Event]) -> GameFigures:
    result = game.public_view().result
    assert result is not None  # the game is over
    decided = any(s.won for s in game.standings())
    return GameFigures(
        length=game.turn,
        rounds=1,
        end_reason=result.reason,
        draw=not decided,
        score=result.score if decided else None,
    )


def lines(tallies: Mapping[str, Mapping[str, int]], rounds: int, scores: Sequence[int]) -> list[str]:
    if not scores:
        return []
    sd = statistics.stdev(scores) if len(scores) > 1 else 0.0
    spread = f"mean {statistics.mean(scores):.2f}, stddev {sd:.2f}, min {min(scores)}, max {max(scores)}"
    return [f"score of a decided game (cards): {spread}"]


FIGURES = Figures[MaliceGame, Event](unit="turns", per="game", draws="draws", count=count, lines=lines)
