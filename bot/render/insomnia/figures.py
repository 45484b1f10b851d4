"""Insomnia in the simulator's figures: deals per game, and each stage's outcomes (dice patterns, hands)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bot.games.insomnia.game import InsomniaGame
from bot.games.insomnia.models import Event, NoMatch, Stage1Result, Stage2NoWinner, Stage2Winner, Stage4Result
from bot.render.figures import Figures, GameFigures, shares


def count(game: InsomniaGame, events: Sequence[Event]) -> GameFigures:
    stage1: Counter[str] = Counter()
    stage2: Counter[str] = Counter()
    stage4: Counter[str] = Counter()
    for event in events:
        if isinstance(event, Stage1Result):
            stage1[event.pattern] += 1
        elif isinstance(event, Stage4Result):
            stage4[event.pattern] += 1
        elif isinstance(event, NoMatch):
            (stage1 if event.stage == 1 else stage4)["no_match"] += 1
        elif isinstance(event, Stage2Winner):
            stage2[event.category] += 1
        elif isinstance(event, Stage2NoWinner):
            stage2["no_winner"] += 1
    firsts = [s for s in game.standings() if s.won]
    return GameFigures(
        length=game.deal,
        rounds=game.deal,
        end_reason=str(game.over_reason),
        draw=len(firsts) > 1,
        tallies={"stage1": stage1, "stage2": stage2, "stage4": stage4},
    )


def lines(tallies: Mapping[str, Mapping[str, int]], rounds: int, scores: Sequence[int]) -> list[str]:
    stage1, stage2, stage4 = (tallies.get(k, {}) for k in ("stage1", "stage2", "stage4"))
    return [
        f"deals: {rounds}",
        "(each stage's outcomes as a share of the deals that reached it; a game can end mid-deal)",
        f"stage 1 dice payouts: {shares(stage1, sum(stage1.values()))}",
        f"stage 2 best hand: {shares(stage2, sum(stage2.values()))}",
        f"stage 4 dice payouts: {shares(stage4, sum(stage4.values()))}",
    ]


FIGURES = Figures[InsomniaGame, Event](
    unit="deals", per="deal", draws="shared first places", count=count, lines=lines
)
