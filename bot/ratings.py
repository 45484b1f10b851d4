"""Ratings: how a finished game changes its people's skill estimates, and the number people see.

OpenSkill's Plackett-Luce model (the `openskill` package): each person has a skill estimate `mu` and its
uncertainty `sigma` (a new person 25 and 25/3), one per game kind and server; a game ranks its people (1
best, a tie shares a rank) and the model moves every estimate at once, 2 to 8 people alike. People see a
conservative number, `START + SCALE * (mu - 3 * sigma)`: a level the player is very likely (about 99.7 %)
at least at. It starts at 1000, falls and rises with results, and also rises a little as more games make
the estimate surer. Until a person has played `PROVISIONAL_GAMES` rated games of a kind his number is
marked provisional.

Pure: no I/O, no clock, no randomness, and nothing of the bot above it (the store runs `rate` inside the
transaction that finishes a game, through the session layer's adapter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 5  # rated games of a kind before a person's number stops being marked provisional
START = 1000.0  # the number of a new person (mu - 3 sigma = 0)
SCALE = 20.0  # points per unit of the model's scale

_MODEL = PlackettLuce()  # stateless: its defaults (mu 25, sigma 25/3, beta, tau) are the whole configuration


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def score(self) -> float:
        """The conservative number people see (unrounded)."""
        return START + SCALE * (self.mu - 3 * self.sigma)


def initial() -> Skill:
    """A person never rated in this game and server."""
    fresh = _MODEL.rating()
    return Skill(float(fresh.mu), float(fresh.sigma))


def rate(ranked: Sequence[tuple[int, Skill | None]]) -> list[tuple[Skill, Skill]]:
    """(before, after) for each person of a finished game, in the order given: `ranked` holds each one's rank
    (1 best, ties share one) and his skill before (None: never rated). Two people at least."""
    if len(ranked) < 2:
        raise ValueError("a game is rated among two people or more")
    before = [skill or initial() for _rank, skill in ranked]
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = _MODEL.rate(teams, ranks=[float(rank) for rank, _skill in ranked])
    return [
        (b, Skill(float(team[0].mu), float(team[0].sigma))) for b, team in zip(before, after, strict=True)
    ]


def shown(score: float) -> int:
    """The number as people read it."""
    return round(score)


def change(before: float, after: float) -> int:
    """A game's change as people read it: the difference of the two shown numbers (so they add up)."""
    return shown(after) - shown(before)


def provisional(games: int) -> bool:
    """Whether a number after `games` rated games is still marked provisional."""
    return games < PROVISIONAL_GAMES
