"""Tournament formats as data: the `Format` protocol and the registry (`FORMATS`), as `bot.games.registry`
is for games. A format is a module (its pure pairing and standings, no Discord, no SQL, no clock) ending in
its `FORMAT` object, plus one line below (tests/events/toy_format.py is one, registered by its test). Which
games a format plays comes from each game's spec (its seats: `Format.plays(spec)`), so nothing here names a
game; the format's name is what the store keeps (`competitions.format`, unchecked since migration 14), and
its words go by `Format.words` (`tournament.format.<words>`, `tournament.picture.tiebreaks.<words>`, and
`cmd.choice.<name>`, its choice in /tournament create, in both catalogues).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Protocol

from bot.events import knockout, swiss, table_rounds
from bot.events.model import Entrant, Match, Standing
from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY
from bot.games.spec import GameSpec


class Format(Protocol):
    """One tournament format. `rounds` is what the host chose as the format stores it (`rounds(chosen)`);
    `bracket`: shown as a bracket, a match missing a dropped player is a walkover and the bracket goes on
    however few are left; `final_table`: its last round is one final table."""

    @property
    def name(self) -> str: ...
    @property
    def words(self) -> str: ...  # the key its words go by (`tournament.format.<words>`): its name, as a rule
    @property
    def min_entrants(self) -> int: ...
    @property
    def max_entrants(self) -> int: ...
    @property
    def bracket(self) -> bool: ...
    @property
    def final_table(self) -> bool: ...

    def plays(self, spec: GameSpec) -> bool:
        """Whether this format can seat the game (from its seats)."""

    def rounds(self, chosen: int | None) -> int:
        """The rounds to store for the host's choice (None: he chose none); `Refusal` if out of range."""

    def may_start(self, rounds: int, entrants: int) -> None:
        """`Refusal` if the event cannot start with this many entrants (beyond `min_entrants`)."""

    def total_rounds(self, rounds: int, entrants: int) -> int: ...

    def pair(
        self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match], round_no: int
    ) -> list[tuple[str, ...]]:
        """Round `round_no`'s tables, each its players in seat order (a single player: a bye)."""

    def standings(
        self, rounds: int, entrants: Sequence[Entrant], matches: Sequence[Match]
    ) -> list[Standing]: ...


class UnknownFormat(Refusal):
    def __init__(self, name: str) -> None:
        super().__init__("tournament.refused.format_game", format=name)


class Formats:
    """The registered formats, in registration order (the order /tournament create offers them)."""

    def __init__(self) -> None:
        self._formats: dict[str, Format] = {}

    def register(self, fmt: Format) -> None:
        if fmt.name in self._formats:
            raise ValueError(f"format {fmt.name!r} is registered already")
        self._formats[fmt.name] = fmt

    def unregister(self, name: str) -> None:
        self._formats.pop(name, None)

    @contextlib.contextmanager
    def registered(self, fmt: Format) -> Iterator[Format]:
        """A format registered for the length of a block (tests)."""
        self.register(fmt)
        try:
            yield fmt
        finally:
            self.unregister(fmt.name)

    def __getitem__(self, name: str) -> Format:
        try:
            return self._formats[name]
        except KeyError:
            raise UnknownFormat(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._formats

    def __iter__(self) -> Iterator[Format]:
        return iter(list(self._formats.values()))

    def names(self) -> list[str]:
        return list(self._formats)

    def games(self, fmt: Format) -> list[GameSpec]:
        """The registered games this format can play, in the games' registration order."""
        return [spec for spec in REGISTRY if fmt.plays(spec)]

    def kinds(self) -> list[str]:
        """Every game some format plays, the formats' order first."""
        kinds: list[str] = []
        for fmt in self:
            kinds += [spec.name for spec in self.games(fmt) if spec.name not in kinds]
        return kinds


FORMATS = Formats()
FORMATS.register(swiss.FORMAT)
FORMATS.register(knockout.FORMAT)
FORMATS.register(table_rounds.FORMAT)
