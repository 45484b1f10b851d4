"""Single elimination for two-player games: seeded by rating, the bracket filled up to a power of two
with byes, which go to the top seeds; each winner meets the winner of the neighbouring match.

Seed 1 and 2 can only meet in the final (the standard bracket order: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight). A
match's winner is who placed better; a tie, or both players absent, sends the higher seed on; a no-show loses.
A voided match (every player a forfeit) counts as both absent, but the bracket already paired from it stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.events.model import KNOCKOUT, Entrant, Match, Standing, by_round
from bot.games.spec import GameSpec


def seeding(entrants: Sequence[Entrant]) -> list[str]:
    """Seed 1 first: by rating, then who joined first."""
    return [e.player for e in sorted(entrants, key=lambda e: (-e.rating, e.order))]


def bracket_size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def slot_order(size: int) -> list[int]:
    """The seed numbers (1-based) in bracket order: neighbours meet, 1 and 2 at the far ends."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def rounds_for(count: int) -> int:
    size, rounds = bracket_size(count), 0
    while size > 1:
        size //= 2
        rounds += 1
    return rounds


def pair(entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int) -> list[tuple[str, ...]]:
    """The round's matches in bracket order; a 1-tuple is a bye (round one only)."""
    seed = seeding(entrants)
    if round_no == 1:
        slots = [seed[s - 1] if s <= len(seed) else None for s in slot_order(bracket_size(len(seed)))]
        return [tuple(p for p in slots[i : i + 2] if p is not None) for i in range(0, len(slots), 2)]
    last = by_round(matches).get(round_no - 1, [])
    winners = [m.winner(seed) for m in last]
    return [tuple(winners[i : i + 2]) for i in range(0, len(winners), 2)]


def champion(entrants: Sequence[Entrant], matches: Sequence[Match]) -> str | None:
    rounds = by_round(matches)
    final = rounds.get(rounds_for(len(entrants)), [])
    return final[0].winner(seeding(entrants)) if len(final) == 1 and final[0].done else None


def standings(entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
    """The champion first, then by the round each player went out in (later is better), then seed."""
    seed = seeding(entrants)
    reached: dict[str, int] = {p: 0 for p in seed}
    wins: dict[str, float] = {p: 0.0 for p in seed}
    out: set[str] = set()
    rounds = by_round(matches)
    for r, ms in rounds.items():
        on = {p for m in rounds.get(r + 1, []) for p in m.players}  # who the next round, once paired, took
        for m in ms:
            for p in m.players:
                reached[p] = max(reached[p], r)
            if m.done:
                w = next((p for p in m.players if p in on), m.winner(seed))
                wins[w] += 0.0 if m.void else 1.0  # a voided match is won by nobody, whoever went on
                out.update(p for p in m.players if p != w)
    top = champion(entrants, matches)
    order = sorted(seed, key=lambda p: (p != top, p in out, -reached[p], seed.index(p)))
    return [
        Standing(
            place=i + 1, player=p, points=wins[p], played=reached[p], tiebreaks=(float(seed.index(p) + 1),)
        )
        for i, p in enumerate(order)
    ]


class Knockout:
    """The format (`bot.events.formats.Format`): two-player games, as many rounds as the bracket needs; a
    match missing a dropped player is a walkover, and the bracket goes on however few are left."""

    name = KNOCKOUT
    words = KNOCKOUT
    min_entrants = 2
    max_entrants = 64
    bracket = True
    final_table = False

    def plays(self, spec: GameSpec) -> bool:
        return spec.max_players == 2

    def rounds(self, chosen: int | None) -> int:
        return 0  # the bracket decides

    def may_start(self, rounds: int, entrants: int) -> None:
        return None

    def total_rounds(self, rounds: int, entrants: int) -> int:
        return rounds_for(entrants)

    def pair(
        self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int
    ) -> list[tuple[str, ...]]:
        return pair(entrants, matches, round_no)

    def standings(self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
        return standings(entrants, matches)


FORMAT = Knockout()
