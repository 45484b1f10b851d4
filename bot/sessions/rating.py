"""Which finished games are rated, and among whom; the rater the store runs in the finishing transaction.

A game is rated among its people: computer seats ("ai:<n>"), seats a computer took over (a resign or
three timeouts in Insomnia) and no-shows (people without a move of their own whose turn timed out:
`bot.sessions.fairplay.no_shows`; a forfeit is not rated) are left out of the order, and the others keep
their order among themselves (ties shared). Not rated: a game with fewer than two people left so (Malice
against the computer, or against a no-show) and a game ended by `/cancel` or a deleted channel (its
`end_game` action: settled, but no result anyone played for).
The math is `bot.ratings`; the store keeps its numbers (`storage.models.Rated`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot import ratings
from bot.games.base import GameAction, GameState
from storage.models import Rated, Rating, RatingIn

END_GAME = "end_game"  # the system action of /cancel and a deleted channel (every game has it)


def people_ranks(game: GameState, unscored: Collection[str]) -> dict[str, int]:
    """Each person's rank among the game's people (1 best; equal places share a rank), from its standings;
    `unscored`: the seats that score nothing (taken over, no-shows)."""
    places = {
        s.player: s.placement
        for s in game.standings()
        if not s.player.startswith("ai:") and s.player not in unscored
    }
    order = sorted(set(places.values()))
    return {player: order.index(place) + 1 for player, place in places.items()}


def rated(game: GameState, action: GameAction, unscored: Collection[str]) -> Rated | None:
    """What the finishing move asks the store to rate, or None: not rated (see the module's docstring)."""
    if not game.is_over or getattr(action, "kind", None) == END_GAME:
        return None
    ranks = people_ranks(game, unscored)
    return Rated(ranks=ranks, rate=rate) if len(ranks) >= 2 else None


def rate(people: Sequence[RatingIn]) -> list[tuple[Rating, Rating]]:
    """The store's rater: `bot.ratings` on the store's numbers."""
    asked = [
        (p.rank, None if p.mu is None or p.sigma is None else ratings.Skill(p.mu, p.sigma)) for p in people
    ]
    return [(_rating(before), _rating(after)) for before, after in ratings.rate(asked)]


def _rating(skill: ratings.Skill) -> Rating:
    return Rating(mu=skill.mu, sigma=skill.sigma, score=skill.score)
