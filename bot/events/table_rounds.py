"""Table rounds for games of many: each round seats the entrants at tables of three to six, points
by place, and after the table rounds the leaders play one final table.

Round one seats by rating (the strongest together, table by table); later rounds seat by the standings and
then mix the tables, swapping players between them while that lowers the number of pairs who have shared a
table before (nobody meets the same people twice where it can be avoided). Points: at each table one for each
player finished ahead of, a half for each tie; a no-show scores nothing. The final table takes the best
`FINAL_SIZE` (or everyone, if fewer); the final standings are the final table in its order, then the rest by
points. Ties: points, then first places, then rating, then who joined first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.events.model import TABLES, Entrant, Match, Standing, met
from bot.games.refusal import Refusal
from bot.games.spec import GameSpec

MIN_TABLE, MAX_TABLE, FINAL_SIZE = 3, 6, 6


def table_sizes(count: int) -> list[int]:
    """As even as possible, each 3 to 6 (fewer than three players: one table of them all)."""
    if count < MIN_TABLE:
        return [count] if count else []
    tables = math.ceil(count / MAX_TABLE)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _ranked(entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[tuple[Entrant, float, int]]:
    done = [m for m in matches if m.done]
    rows = []
    for e in entrants:
        pts = sum(m.points(e.player) for m in done if e.player in m.players)
        firsts = sum(1 for m in done if e.player in m.players and m.effective_places().get(e.player) == 1)
        rows.append((e, pts, firsts))
    rows.sort(key=lambda r: (-r[1], -r[2], -r[0].rating, r[0].order))
    return rows


def _repeats(tables: list[list[str]], before: set[frozenset[str]]) -> int:
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if frozenset((a, b)) in before)


def seat(entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int) -> list[tuple[str, ...]]:
    """A table round's tables (each in seat order: by rank)."""
    active = [e for e in entrants if e.active_in(round_no)]
    order = [r[0].player for r in _ranked(active, [m for m in matches if m.round < round_no])]
    if round_no == 1:
        order = [e.player for e in sorted(active, key=lambda e: (-e.rating, e.order))]
    tables, start = [], 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    if round_no > 1:
        _mix(tables, met(m for m in matches if m.round < round_no))
    rank = {p: i for i, p in enumerate(order)}
    return [tuple(sorted(t, key=rank.__getitem__)) for t in tables]


def _mix(tables: list[list[str]], before: set[frozenset[str]]) -> None:
    """Swap players between tables while a swap lowers the repeated pairs (first such swap each time: the
    same tables always give the same seating)."""
    best = _repeats(tables, before)
    improved = True
    while improved and best:
        improved = False
        for ti, tj in ((i, j) for i in range(len(tables)) for j in range(i + 1, len(tables))):
            for a in range(len(tables[ti])):
                for b in range(len(tables[tj])):
                    tables[ti][a], tables[tj][b] = tables[tj][b], tables[ti][a]
                    now = _repeats(tables, before)
                    if now < best:
                        best, improved = now, True
                        break
                    tables[ti][a], tables[tj][b] = tables[tj][b], tables[ti][a]
                if improved:
                    break
            if improved:
                break


def final_table(entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int) -> tuple[str, ...]:
    active = [e for e in entrants if e.active_in(round_no)]
    return tuple(r[0].player for r in _ranked(active, matches)[:FINAL_SIZE])


def standings(entrants: Sequence[Entrant], matches: Sequence[Match], final_round: int) -> list[Standing]:
    ranked = _ranked(entrants, [m for m in matches if m.round < final_round])
    final = next((m for m in matches if m.round == final_round and m.done), None)
    order = [r[0].player for r in ranked]
    if final is not None:
        places = final.effective_places()
        at_final = sorted(final.players, key=lambda p: (places[p], order.index(p)))
        order = at_final + [p for p in order if p not in places]
    pts = {r[0].player: r[1] for r in ranked}
    firsts = {r[0].player: r[2] for r in ranked}
    rating = {e.player: e.rating for e in entrants}
    played = {e.player: sum(1 for m in matches if m.done and e.player in m.players) for e in entrants}
    return [
        Standing(
            place=i + 1, player=p, points=pts[p], played=played[p], tiebreaks=(float(firsts[p]), rating[p])
        )
        for i, p in enumerate(order)
    ]


MAX_TABLE_ROUNDS = 6


class TableRounds:
    """The format (`bot.events.formats.Format`): games of many (seats for `MIN_TABLE` to `MAX_TABLE`), the
    host's number of table rounds (2 unless he says, at most `MAX_TABLE_ROUNDS`), then the final table."""

    name = TABLES
    words = TABLES
    min_entrants = 3
    max_entrants = 64
    bracket = False
    final_table = True

    def plays(self, spec: GameSpec) -> bool:
        return spec.min_players <= MIN_TABLE and spec.max_players >= MAX_TABLE

    def rounds(self, chosen: int | None) -> int:
        rounds = chosen or 2
        if not 1 <= rounds <= MAX_TABLE_ROUNDS:
            raise Refusal("tournament.refused.rounds", most=MAX_TABLE_ROUNDS)
        return rounds

    def may_start(self, rounds: int, entrants: int) -> None:
        return None

    def total_rounds(self, rounds: int, entrants: int) -> int:
        return rounds + 1  # the final table

    def pair(
        self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int
    ) -> list[tuple[str, ...]]:
        if round_no == self.total_rounds(rounds, len(entrants)):
            return [final_table(entrants, matches, round_no)]
        return seat(entrants, matches, round_no)

    def standings(self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
        return standings(entrants, matches, self.total_rounds(rounds, len(entrants)))


FORMAT = TableRounds()
