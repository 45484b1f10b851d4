"""A toy tournament format, for tests only: what a new format is, a module like this one plus one registry
line (`FORMATS.register(FORMAT)` in bot/events/formats.py; its test registers it for its own length with
`FORMATS.registered(FORMAT)`). One round, the entrants paired in the order they joined (the odd one out: a
bye); standings by points, then who joined first."""

from __future__ import annotations

from collections.abc import Sequence

from bot.events.model import Entrant, Match, Standing
from bot.games.spec import GameSpec


class Sprint:
    name = "sprint"
    words = "swiss"  # borrowed; a real format brings its own words, in both catalogues
    min_entrants = 2
    max_entrants = 64
    bracket = False
    final_table = False

    def plays(self, spec: GameSpec) -> bool:
        return spec.max_players == 2

    def rounds(self, chosen: int | None) -> int:
        return 1

    def may_start(self, rounds: int, entrants: int) -> None:
        return None

    def total_rounds(self, rounds: int, entrants: int) -> int:
        return 1

    def pair(
        self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int
    ) -> list[tuple[str, ...]]:
        order = [e.player for e in sorted(entrants, key=lambda e: e.order)]
        return [tuple(order[i : i + 2]) for i in range(0, len(order), 2)]

    def standings(self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match]) -> list[Standing]:
        def played(player: str) -> list[Match]:
            return [m for m in matches if player in m.players and m.done]

        points = {e.player: sum(m.points(e.player) for m in played(e.player)) for e in entrants}
        ranked = sorted(entrants, key=lambda e: (-points[e.player], e.order))
        return [
            Standing(place, e.player, points[e.player], len(played(e.player)))
            for place, e in enumerate(ranked, start=1)
        ]


FORMAT = Sprint()
