"""From the store's rows to the pure formats and back: the entrants and matches of an event as
`bot.events.model` has them, its standings, and what comes after a finished round (pure: no I/O)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.events.formats import FORMATS
from bot.events.model import Entrant, Match, Standing
from bot.render.tournament import Board, Line, Table
from storage.competitions import CompetitionRow, MatchRow


def entrants(row: CompetitionRow) -> list[Entrant]:
    return [Entrant(e.player, e.rating, i, e.dropped) for i, e in enumerate(row.entrants)]


def matches(row: CompetitionRow) -> list[Match]:
    return [Match(m.round, m.table_no, m.players, m.places, m.forfeits) for m in row.matches]


def total_rounds(row: CompetitionRow) -> int:
    return FORMATS[row.format].total_rounds(row.rounds, len(row.entrants))


def standings(row: CompetitionRow) -> list[Standing]:
    return FORMATS[row.format].standings(row.rounds, entrants(row), matches(row))


def next_tables(row: CompetitionRow) -> list[tuple[str, ...]] | None:
    """The tables of the round after the one in play, or None: the event is over (its last round played,
    or fewer than two entrants left to pair)."""
    if row.round >= total_rounds(row):
        return None
    people = entrants(row)
    fmt = FORMATS[row.format]
    if not fmt.bracket and sum(1 for e in people if e.active_in(row.round + 1)) < 2:
        return None
    return fmt.pair(row.rounds, people, matches(row), row.round + 1)


def first_tables(fmt: str, rounds: int, people: list[Entrant]) -> list[tuple[str, ...]]:
    return FORMATS[fmt].pair(rounds, people, [], 1)


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

    fmt = FORMATS[row.format]
    bracket: tuple[tuple[Table, ...], ...] = ()
    if fmt.bracket:
        rounds: dict[int, list[Table]] = {}
        for m in row.matches:
            rounds.setdefault(m.round, []).append(table(m))
        bracket = tuple(tuple(rounds[r]) for r in sorted(rounds))
    return Board(
        event=row.id,
        kind=row.kind,
        format=fmt.words,
        status=row.status,
        round=row.round,
        rounds=total_rounds(row),
        entrants=tuple(e.player for e in row.entrants),
        lines=lines,
        tables=tuple(table(m) for m in row.current()),
        bracket=bracket,
        names=dict(names or {}),
        checked_in=tuple(e.player for e in row.entrants if e.checked_in is not None),
        deadline=row.deadline,
        final=fmt.final_table and row.round == total_rounds(row),
    )
