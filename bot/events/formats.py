"""Each format's plan in one place: how many rounds, the next round's tables, the standings (pure).

`rounds` is what the host chose: Swiss rounds, or the table rounds before the final (table rounds); a
knockout has as many rounds as its bracket needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.events import knockout, swiss, table_rounds
from bot.events.model import KNOCKOUT, SWISS, TABLES, Entrant, Match, Standing


def total_rounds(fmt: str, rounds: int, entrants: int) -> int:
    if fmt == KNOCKOUT:
        return knockout.rounds_for(entrants)
    if fmt == TABLES:
        return rounds + 1  # the final table
    return rounds


def is_final(fmt: str, rounds: int, entrants: int, round_no: int) -> bool:
    return round_no == total_rounds(fmt, rounds, entrants)


def pair(fmt: str, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int
         ) -> list[tuple[str, ...]]:  # fmt: skip
    """Round `round_no`'s tables, each its players in seat order (a single player: a bye)."""
    if fmt == SWISS:
        return swiss.pair(entrants, matches, round_no, rounds)
    if fmt == KNOCKOUT:
        return knockout.pair(entrants, matches, round_no)
    if is_final(fmt, rounds, len(entrants), round_no):
        return [table_rounds.final_table(entrants, matches, round_no)]
    return table_rounds.seat(entrants, matches, round_no)


def standings(fmt: str, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
    if fmt == SWISS:
        return swiss.standings(entrants, matches)
    if fmt == KNOCKOUT:
        return knockout.standings(entrants, matches)
    return table_rounds.standings(entrants, matches, total_rounds(fmt, rounds, len(entrants)))


def min_entrants(fmt: str) -> int:
    return 3 if fmt == TABLES else 2


def max_entrants(fmt: str) -> int:
    return 64


def max_swiss_rounds(entrants: int) -> int:
    """The most Swiss rounds for this many entrants: as many as a knockout of them would need (more may ask
    for pairings no Swiss can give: six players after three rounds can be left two triangles of unmet
    opponents)."""
    return max(1, knockout.rounds_for(entrants))
