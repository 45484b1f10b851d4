"""The registry of games: every layer asks it what games there are, instead of naming them.

A game is one folder, `bot/games/<name>/`, whose `spec.py` describes it (`GameSpec`), plus one line below.
Tests may register a game of their own for a while with `REGISTRY.registered(spec)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from bot.games.insomnia.spec import SPEC as INSOMNIA
from bot.games.malice.spec import SPEC as MALICE
from bot.games.spec import GameSpec, TableOptions, TableStyle

__all__ = ["REGISTRY", "GameSpec", "Registry", "TableOptions", "TableStyle", "UnknownGame"]


class UnknownGame(KeyError):
    """No game of that name is registered."""

    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}"


class Registry:
    """Game specs by name, in registration order (the order menus list them)."""

    def __init__(self, specs: Iterable[GameSpec] = ()) -> None:
        self._specs: dict[str, GameSpec] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: GameSpec) -> None:
        if spec.name in self._specs:
            raise ValueError(f"a game named {spec.name!r} is already registered")
        if any(other.game is spec.game for other in self._specs.values()):
            raise ValueError(f"{spec.game.__name__} already belongs to a registered game")
        self._specs[spec.name] = spec

    def unregister(self, name: str) -> None:
        if name not in self._specs:
            raise UnknownGame(name)
        del self._specs[name]

    @contextmanager
    def registered(self, spec: GameSpec) -> Iterator[GameSpec]:
        """Register `spec` for the duration of a `with` block (tests), then remove it again."""
        self.register(spec)
        try:
            yield spec
        finally:
            self.unregister(spec.name)

    def __getitem__(self, name: str) -> GameSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise UnknownGame(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[GameSpec]:
        return iter(list(self._specs.values()))

    def __len__(self) -> int:
        return len(self._specs)

    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def spec_of(self, game: object) -> GameSpec:
        """The spec of a game in play (by its class)."""
        for spec in self._specs.values():
            if spec.owns(game):
                return spec
        raise TypeError(f"no registered game plays {type(game).__name__}")


# One line per game.
REGISTRY = Registry()
REGISTRY.register(INSOMNIA)
REGISTRY.register(MALICE)
