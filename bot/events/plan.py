"""From the store's rows to the pure formats and back: the entrants and matches of an event as
`bot.events.model` has them, its standings, and what comes after a finished round (pure: no I/O)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.events import formats
from bot.events.model import KNOCKOUT, Entrant, Match, Standing
from bot.render.tournament import Board, Line, Table
from storage.competitions import CompetitionRow, MatchRow


def entrants(row: CompetitionRow) -> list[Entrant]:
    return [Entrant(e.player, e.rating, i, e.dropped) for i, e in enumerate(row.entrants)]


def matches(row: CompetitionRow) -> list[Match]:
    return [Match(m.round, m.table_no, m.players, m.places, m.forfeits) for m in row.matches]


def total_rounds(row: CompetitionRow) -> int:
    return formats.total_rounds(row.format, row.rounds, len(row.entrants))


def standings(row: CompetitionRow) -> list[Standing]:
    return formats.standings(row.format, row.rounds, entrants(row), matches(row))


def next_tables(row: CompetitionRow) -> list[tuple[str, ...]] | None:
    """The tables of the round after the one in play, or None: the event is over (its last round played,
    or fewer than two entrants left to pair)."""
    if row.round >= total_rounds(row):
        return None
    people = entrants(row)
    if row.format != KNOCKOUT and sum(1 for e in people if e.active_in(row.round + 1)) < 2:
        return None
    return formats.pair(row.format, row.rounds, people, matches(row), row.round + 1)


def first_tables(fmt: str, rounds: int, people: list[Entrant]) -> list[tuple[str, ...]]:
    return formats.pair(fmt, rounds, people, [], 1)


def board(
    row: CompetitionRow, names: Mapping[str, str] | None = None, places: Mapping[int, int] | None = None
) -> Board:
    """What the render layer shows of the event: `names` display names for the pictures, `places` where
    each match of the round plays (match id -> thread or channel)."""
    lines = tuple(Line(s.place, s.player, s.points, s.played, s.tiebreaks) for s in standings(row))
    if row.status == "open":
        lines = ()

    def table(m: MatchRow) -> Table:
        return Table(m.table_no, m.players, (places or {}).get(m.id), m.places, m.forfeits)

    bracket: tuple[tuple[Table, ...], ...] = ()
    if row.format == KNOCKOUT:
        rounds: dict[int, list[Table]] = {}
        for m in row.matches:
            rounds.setdefault(m.round, []).append(table(m))
        bracket = tuple(tuple(rounds[r]) for r in sorted(rounds))
    return Board(
        event=row.id, kind=row.kind, format=row.format, status=row.status, round=row.round,
        rounds=total_rounds(row), entrants=tuple(e.player for e in row.entrants), lines=lines,
        tables=tuple(table(m) for m in row.current()), bracket=bracket, names=dict(names or {}),
        checked_in=tuple(e.player for e in row.entrants if e.checked_in is not None), deadline=row.deadline,
    )  # fmt: skip
