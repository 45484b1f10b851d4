"""Swiss for two-player games: a fixed number of rounds, nobody meets the same opponent twice, an odd
player out gets a bye worth a win (the lowest-ranked player who has not had one).

The pairing itself is the FIDE Dutch system of `caissify-pairings` (a maintained library, Apache-2.0, checked
against the FIDE-endorsed bbpPairings): we hand it each player's score, rating, seat history (the first seat
as "white", so the first move alternates) and floats, and check what it answers. Standings and tie-breaks are
ours: points, then Buchholz (the sum of the opponents' points; a bye adds none), then Sonneborn-Berger (the
points of the opponents beaten, half of those drawn), then rating, then who joined first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caissify_pairings import generate_pairings

from bot.events import knockout
from bot.events.model import SWISS, Entrant, Match, Standing, by_round, met
from bot.games.refusal import Refusal
from bot.games.spec import GameSpec


class PairingError(RuntimeError):
    """The pairing library answered pairings that break the rules: `players` (a player twice or missing),
    `repeat` (a pairing of an earlier round), `byes` (more than one), with the pairings it answered."""


def points(player: str, matches: Sequence[Match]) -> float:
    return sum(m.points(player) for m in matches if player in m.players and m.done)


def standings(entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
    done = [m for m in matches if m.done]
    score = {e.player: points(e.player, done) for e in entrants}
    rows = []
    for e in entrants:
        mine = [m for m in done if e.player in m.players]
        buchholz = sum(score.get(o, 0.0) for m in mine for o in m.opponents(e.player))
        sonneborn = sum(
            score.get(o, 0.0) * m.points(e.player) for m in mine if not m.bye for o in m.opponents(e.player)
        )
        rows.append((e, score[e.player], buchholz, sonneborn, len(mine)))
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], -r[0].rating, r[0].order))
    return [
        Standing(place=i + 1, player=e.player, points=p, played=n, tiebreaks=(b, s, e.rating))
        for i, (e, p, b, s, n) in enumerate(rows)
    ]


def pair(
    entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int, rounds: int
) -> list[tuple[str, ...]]:
    """The next round's pairings: (first seat, second seat) pairs and at most one bye (a 1-tuple), for the
    entrants still in. Raises PairingError if the library's answer breaks a rule."""
    active = [e for e in entrants if e.active_in(round_no)]
    if len(active) < 2:
        return [(e.player,) for e in active]
    ids = {e.player: i + 1 for i, e in enumerate(sorted(active, key=lambda e: (-e.rating, e.order)))}
    done = [m for m in matches if m.done and m.round < round_no]
    score = {e.player: points(e.player, done) for e in active}
    players: list[dict[str, Any]] = []
    for e in active:
        colours, floats = [], []
        before = 0.0
        for r, ms in sorted(by_round(done).items()):
            mine = next((m for m in ms if e.player in m.players), None)
            if mine is None or mine.bye:
                colours.append("none")
                floats.append("down" if mine is not None else "none")
            else:
                colours.append("white" if mine.players[0] == e.player else "black")
                other = mine.opponents(e.player)[0]
                theirs = sum(x.points(other) for x in done if other in x.players and x.round < r)
                floats.append("down" if before > theirs else "up" if before < theirs else "none")
            before += 0.0 if mine is None else mine.points(e.player)
        players.append(
            {
                "id": ids[e.player],
                "name": e.player,
                "score": score[e.player],
                "rating": e.rating,
                "starting_number": ids[e.player],
                "color_hist": colours,
                "float_history": floats,
                "bye_count": sum(1 for m in done if m.bye and m.players[0] == e.player),
            }
        )
    previous = {
        (ids[a], ids[b]) for pair_ in met(done) if all(p in ids for p in pair_) for a, b in [sorted(pair_)]
    }
    answer = generate_pairings(
        system="dutch",
        players=players,
        previous_pairings=previous,
        round_number=round_no,
        total_rounds=rounds,
    )
    back = {i: p for p, i in ids.items()}
    result: list[tuple[str, ...]] = []
    for row in sorted(answer, key=lambda r: (bool(r.get("bye")), r["table"])):
        if row.get("bye") or row.get("black_id") is None:
            result.append((back[row["white_id"]],))
        else:
            result.append((back[row["white_id"]], back[row["black_id"]]))
    check(active, done, result)
    return result


def check(active: Sequence[Entrant], done: Sequence[Match], result: Sequence[tuple[str, ...]]) -> None:
    seen = [p for t in result for p in t]
    if sorted(seen) != sorted(e.player for e in active):
        raise PairingError("players", result)
    before = met(done)
    if any(len(t) == 2 and frozenset(t) in before for t in result):
        raise PairingError("repeat", result)
    if sum(1 for t in result if len(t) == 1) > len(active) % 2:
        raise PairingError("byes", result)


def max_rounds(entrants: int) -> int:
    """The most Swiss rounds for this many entrants: as many as a knockout of them would need (more may ask
    for pairings no Swiss can give: six players after three rounds can be left two triangles of unmet
    opponents)."""
    return max(1, knockout.rounds_for(entrants))


class Swiss:
    """The format (`bot.events.formats.Format`): two-player games, the host's number of rounds (3 unless he
    says)."""

    name = SWISS
    words = SWISS
    min_entrants = 2
    max_entrants = 64
    bracket = False
    final_table = False

    def plays(self, spec: GameSpec) -> bool:
        return spec.max_players == 2

    def rounds(self, chosen: int | None) -> int:
        return chosen or 3

    def may_start(self, rounds: int, entrants: int) -> None:
        if rounds > max_rounds(entrants):
            raise Refusal("tournament.refused.swiss_rounds", most=max_rounds(entrants))

    def total_rounds(self, rounds: int, entrants: int) -> int:
        return rounds

    def pair(
        self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int
    ) -> list[tuple[str, ...]]:
        return pair(entrants, matches, round_no, rounds)

    def standings(self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
        return standings(entrants, matches)


FORMAT = Swiss()
