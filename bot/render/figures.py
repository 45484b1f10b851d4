"""What the headless simulator (`cardtable-bot simulate`) counts in one game and prints, per game kind: the
part of the figures that differs between games, described by each game in its folder (`figures.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

G = TypeVar("G")  # the game's state class
E = TypeVar("E")  # the union of its events


@dataclass(frozen=True)
class GameFigures:
    """One finished game as the simulator counts it."""

    length: int  # how long it lasted, in the game's unit (deals, turns)
    rounds: int  # how many rounds chips moved in (deals; 1 for a game that is one round)
    end_reason: str
    draw: bool  # nobody won outright (a draw, or a shared first place)
    tallies: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # named counts, e.g. dice patterns
    score: int | None = None  # the score of a decided game, where the game has one


ReportLines = Callable[[Mapping[str, Mapping[str, int]], int, Sequence[int]], list[str]]
"""`(tallies, rounds, scores) -> lines`: the game's own lines of the report, from the summed tallies, the
rounds of all games and the scores of the decided ones."""


@dataclass(frozen=True)
class Figures(Generic[G, E]):
    unit: str  # the length's unit, plural ("deals", "turns")
    per: str  # what "chips moved per ..." counts ("deal", "game")
    draws: str  # what a game without an outright winner is called ("draws", "shared first places")
    count: Callable[[G, Sequence[E]], GameFigures]  # (finished game, all its events)
    lines: ReportLines


def shares(counts: Mapping[str, int], total: int) -> str:
    """`pair 12 (40.0%), ...`, most frequent first."""
    if not counts:
        return "none"
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in ordered)
