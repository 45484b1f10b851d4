"""The pure records of a competition: its entrants and its matches, as the store keeps them.

A match is one table of one round: its players in seat order (one player alone: a bye), their places once it
is finished (1 best, equal places a tie), and its no-shows (`forfeits`), who lose it whatever the board says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SWISS, KNOCKOUT, TABLES = "swiss", "knockout", "tables"
FORMATS = (SWISS, KNOCKOUT, TABLES)


@dataclass(frozen=True)
class Entrant:
    """A person in the event: `rating` seeds him (his server rating's score, 0 unrated); `order` is when he
    joined (the last tie-break); `dropped` after that many rounds he is no longer paired."""

    player: str
    rating: float = 0.0
    order: int = 0
    dropped: int | None = None

    def active_in(self, round_no: int) -> bool:
        return self.dropped is None or round_no <= self.dropped


@dataclass(frozen=True)
class Match:
    round: int
    table: int
    players: tuple[str, ...]
    places: tuple[int, ...] | None = None
    forfeits: tuple[str, ...] = ()

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def done(self) -> bool:
        return self.bye or self.places is not None

    @property
    def void(self) -> bool:
        """Finished with nobody's result counting: every player a forfeit (a moderator voided its game, or
        nobody showed up)."""
        return not self.bye and self.places is not None and set(self.forfeits) >= set(self.players)

    def effective_places(self) -> dict[str, int]:
        """Each player's place counting no-shows last (behind everyone who showed, level among themselves)."""
        if self.places is None:
            return {}
        last = len(self.players) + 1
        pairs = zip(self.players, self.places, strict=True)
        return {p: (last if p in self.forfeits else place) for p, place in pairs}

    def points(self, player: str) -> float:
        """One point for each player finished ahead of, a half for each tie; a bye is worth a win; a no-show
        scores nothing."""
        if self.bye:
            return 1.0
        if player in self.forfeits or self.places is None:
            return 0.0
        places = self.effective_places()
        mine = places[player]
        return sum(
            1.0 if mine < other else 0.5 if mine == other else 0.0
            for p, other in places.items()
            if p != player
        )

    def opponents(self, player: str) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != player)

    def winner(self, seed: Sequence[str]) -> str:
        """A two-player match's winner (a bye: its player); a tie or two no-shows go to the higher seed."""
        if self.bye:
            return self.players[0]
        scored = sorted(self.players, key=lambda p: (-self.points(p), seed.index(p)))
        return scored[0]


def by_round(matches: Iterable[Match]) -> dict[int, list[Match]]:
    rounds: dict[int, list[Match]] = {}
    for m in sorted(matches, key=lambda m: (m.round, m.table)):
        rounds.setdefault(m.round, []).append(m)
    return rounds


def met(matches: Iterable[Match]) -> set[frozenset[str]]:
    """Every pair of players who shared a table."""
    pairs: set[frozenset[str]] = set()
    for m in matches:
        for i, a in enumerate(m.players):
            for b in m.players[i + 1 :]:
                pairs.add(frozenset((a, b)))
    return pairs


@dataclass(frozen=True)
class Standing:
    """One line of the standings: place (1 best; tied lines share none: the tie-breaks decide), points and
    the tie-break numbers the format uses."""

    place: int
    player: str
    points: float
    played: int
    tiebreaks: tuple[float, ...] = ()
