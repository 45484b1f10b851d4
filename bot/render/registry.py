"""The registry of presentations: how each registered game looks and reads, by its name.

It sits above the rules registry (`bot.games.registry`) and is never imported by it: a game is two folders,
its rules in `bot/games/<name>/` (registered there) and its presentation in `bot/render/<name>/` (a
`GamePresentation` in its `presentation.py`, plus one line below). Tests may register a game of their own
for a while with `registered(spec, presentation)`, both halves at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.games.registry import REGISTRY, UnknownGame
from bot.games.spec import GameSpec
from bot.render.insomnia.presentation import PRESENTATION as INSOMNIA
from bot.render.malice.presentation import PRESENTATION as MALICE
from bot.render.presentation import Presentation

__all__ = ["PRESENTATIONS", "Presentation", "Presentations", "registered"]


class Presentations:
    """Presentations by game name, in registration order."""

    def __init__(self) -> None:
        self._items: dict[str, Presentation] = {}

    def register(self, presentation: Presentation) -> None:
        if presentation.kind in self._items:
            raise ValueError(f"a presentation of {presentation.kind!r} is already registered")
        self._items[presentation.kind] = presentation

    def unregister(self, kind: str) -> None:
        if kind not in self._items:
            raise UnknownGame(kind)
        del self._items[kind]

    def __getitem__(self, kind: str) -> Presentation:
        try:
            return self._items[kind]
        except KeyError:
            raise UnknownGame(kind) from None

    def __contains__(self, kind: object) -> bool:
        return kind in self._items

    def __iter__(self) -> Iterator[Presentation]:
        return iter(list(self._items.values()))

    def names(self) -> tuple[str, ...]:
        return tuple(self._items)


@contextmanager
def registered(spec: GameSpec, presentation: Presentation) -> Iterator[GameSpec]:
    """Register a game's rules and its presentation for the duration of a `with` block (tests), then remove
    both again."""
    if spec.name != presentation.kind:
        raise ValueError(f"the presentation of {presentation.kind!r} does not belong to {spec.name!r}")
    with REGISTRY.registered(spec):
        PRESENTATIONS.register(presentation)
        try:
            yield spec
        finally:
            PRESENTATIONS.unregister(presentation.kind)


# One line per game.
PRESENTATIONS = Presentations()
PRESENTATIONS.register(INSOMNIA)
PRESENTATIONS.register(MALICE)
