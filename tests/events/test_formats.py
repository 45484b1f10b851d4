"""The pure formats, by property: Swiss never repeats a pairing and gives a bye to the lowest-ranked player
without one; a knockout's byes go to the top seeds and it crowns one champion; table rounds seat 3-6 at each
table, mix the tables after round one, and the final table takes the leaders."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.events import knockout, swiss, table_rounds
from bot.events.formats import FORMATS
from bot.events.model import KNOCKOUT, SWISS, TABLES, Entrant, Match, met


def entrants(count: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(f"p{i}", rating=float(rng.randint(0, 40)), order=i) for i in range(count)]


def play(
    tables: list[tuple[str, ...]], round_no: int, rng: random.Random, forfeit: float = 0.0
) -> list[Match]:
    out = []
    for i, t in enumerate(tables):
        if len(t) == 1:
            out.append(Match(round_no, i + 1, t))
            continue
        places = tuple(rng.randint(1, len(t)) for _ in t)
        gone = tuple(p for p in t if rng.random() < forfeit)
        out.append(Match(round_no, i + 1, t, places=places, forfeits=gone))
    return out


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 17), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_swiss_no_repeats_one_bye_lowest_without_one(count: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    people = entrants(count, rng)
    rounds = min(rounds, swiss.max_rounds(count))  # what /tournament create allows
    matches: list[Match] = []
    for r in range(1, rounds + 1):
        tables = swiss.pair(people, matches, r, rounds)
        assert sorted(p for t in tables for p in t) == sorted(e.player for e in people)
        assert not any(len(t) == 2 and frozenset(t) in met(matches) for t in tables), "a repeated pairing"
        byes = [t[0] for t in tables if len(t) == 1]
        assert len(byes) == count % 2
        had = {m.players[0] for m in matches if m.bye}
        for b in byes:
            assert b not in had, "a second bye"
            table = {s.player: s for s in swiss.standings(people, matches)}
            # Nobody without a bye stands below him with fewer points.
            lower = [p for p, s in table.items() if s.points < table[b].points and p not in had]
            assert not lower, (b, lower)
        matches += play(tables, r, rng)
    score = {s.player: s.points for s in swiss.standings(people, matches)}
    assert sum(score.values()) == sum(1.0 for m in matches if not m.bye) + sum(1.0 for m in matches if m.bye)


def test_swiss_standings_tiebreaks_buchholz_then_sonneborn_berger() -> None:
    people = [Entrant(p, rating=0.0, order=i) for i, p in enumerate("abcd")]
    # a beats b, c beats d; then a beats c, d beats b: a 2, c 1, d 1, b 0.
    matches = [
        Match(1, 1, ("a", "b"), (1, 2)),
        Match(1, 2, ("c", "d"), (1, 2)),
        Match(2, 1, ("a", "c"), (1, 2)),
        Match(2, 2, ("d", "b"), (1, 2)),
    ]
    table = swiss.standings(people, matches)
    assert [s.player for s in table] == ["a", "c", "d", "b"]  # c and d: Buchholz 3 against 1
    assert table[1].tiebreaks[:2] == (3.0, 1.0) and table[2].tiebreaks[:2] == (1.0, 0.0)


def test_a_no_show_loses_and_a_bye_is_a_win() -> None:
    m = Match(1, 1, ("a", "b"), places=(1, 2), forfeits=("a",))
    assert (m.points("a"), m.points("b")) == (0.0, 1.0)
    assert Match(1, 2, ("c",)).points("c") == 1.0


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 33), seed=st.integers(0, 10**6))
def test_knockout_byes_to_top_seeds_and_one_champion(count: int, seed: int) -> None:
    rng = random.Random(seed)
    people = entrants(count, rng)
    seeds = knockout.seeding(people)
    first = knockout.pair(people, [], 1)
    byes = [t[0] for t in first if len(t) == 1]
    assert set(byes) == set(seeds[: len(byes)])
    assert len(byes) == knockout.bracket_size(count) - count
    assert not (count > 2 and any(set(t) == {seeds[0], seeds[1]} for t in first))
    matches: list[Match] = []
    for r in range(1, knockout.rounds_for(count) + 1):
        tables = knockout.pair(people, matches, r)
        alive = {s.player for s in knockout.standings(people, matches)} - {
            p for m in matches for p in m.players if p != m.winner(seeds)
        }
        assert {p for t in tables for p in t} == alive
        matches += play(tables, r, rng, forfeit=0.1)
    top = knockout.champion(people, matches)
    assert top is not None and knockout.standings(people, matches)[0].player == top


def test_five_knockout_bracket() -> None:
    people = [Entrant(f"s{i}", rating=float(10 - i), order=i) for i in range(1, 6)]
    assert knockout.pair(people, [], 1) == [("s1",), ("s4", "s5"), ("s2",), ("s3",)]


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 30), rounds=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_table_rounds_sizes_mixing_and_final(count: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    people = entrants(count, rng)
    matches: list[Match] = []
    for r in range(1, rounds + 1):
        tables = FORMATS[TABLES].pair(rounds, people, matches, r)
        assert all(3 <= len(t) <= 6 for t in tables)
        assert max(map(len, tables)) - min(map(len, tables)) <= 1
        assert sorted(p for t in tables for p in t) == sorted(e.player for e in people)
        if r == 1:  # by rating: every player at a table rated no lower than the next table's best
            ratings = {e.player: e.rating for e in people}
            for a, b in itertools.pairwise(tables):
                assert min(ratings[p] for p in a) >= max(ratings[p] for p in b)
        else:  # mixed: no more repeated pairs than the standings' plain order gives
            before = met(matches)
            order = [s.player for s in table_rounds.standings(people, matches, rounds + 1)]
            plain, start = [], 0
            for size in table_rounds.table_sizes(count):
                plain.append(order[start : start + size])
                start += size
            assert table_rounds._repeats([list(t) for t in tables], before) <= table_rounds._repeats(
                plain, before
            )
        matches += play(tables, r, rng, forfeit=0.05)
    leaders = [s.player for s in table_rounds.standings(people, matches, rounds + 1)][
        : table_rounds.FINAL_SIZE
    ]
    final = FORMATS[TABLES].pair(rounds, people, matches, rounds + 1)
    assert final == [tuple(leaders)]
    matches += play(final, rounds + 1, rng)
    table = FORMATS[TABLES].standings(rounds, people, matches)
    places = matches[-1].effective_places()
    assert [s.player for s in table[: len(final[0])]] == sorted(
        final[0], key=lambda p: (places[p], leaders.index(p))
    )


def test_seven_at_tables_of_four_and_three() -> None:
    assert table_rounds.table_sizes(7) == [4, 3]
    assert table_rounds.table_sizes(13) == [5, 4, 4]
    assert FORMATS[TABLES].total_rounds(2, 7) == 3 and FORMATS[KNOCKOUT].total_rounds(0, 5) == 3
    assert FORMATS[SWISS].total_rounds(3, 8) == 3


def test_a_voided_knockout_match_gives_nobody_its_win_and_the_bracket_stands():
    people = [Entrant(f"p{i}", rating=float(10 - i), order=i) for i in range(4)]  # p0 the first seed
    assert knockout.pair(people, [], 1) == [("p0", "p3"), ("p1", "p2")]
    semis = [Match(1, 1, ("p0", "p3"), (2, 1)), Match(1, 2, ("p1", "p2"), (1, 2))]
    final = [("p3", "p1")]
    assert knockout.pair(people, semis, 2) == final
    voided = [Match(1, 1, ("p0", "p3"), (2, 1), forfeits=("p0", "p3")), semis[1]]
    assert voided[0].void and not semis[0].void
    # Paired already: p3 stays in the final (no re-pairing) but his voided semi-final wins him nothing.
    played = [*voided, Match(2, 1, ("p3", "p1"), (2, 1))]
    table = {s.player: s for s in knockout.standings(people, played)}
    assert [s.player for s in knockout.standings(people, played)][:2] == ["p1", "p3"]
    assert table["p3"].points == 0.0 and table["p1"].points == 2.0
    # Not paired yet: as if both were absent, the higher seed goes on.
    assert knockout.pair(people, voided, 2) == [("p0", "p1")]
    # Swiss and table rounds: nobody scores from a voided match.
    assert voided[0].points("p0") == voided[0].points("p3") == 0.0
