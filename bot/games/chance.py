"""Where a game's luck comes from: shuffles, dice and draws, asked of one small object passed in.

A game keeps its `seed` and a counter of the random events so far (`draws`, part of its JSON). Random event
number n asks the chance for its outcome under the key `"<seed>/<n>"`. The seeded default answers from
`random.Random(key)`: the same seed and the same actions give the same game, byte for byte, and a game loaded
from its JSON goes on exactly as it would have. Tests pass a scripted chance instead, to deal chosen hands or
throw chosen dice through the real rules rather than building a position behind the engine's back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Chance(Protocol):
    """The outcomes of random events. `key` names the event (`"<seed>/<n>"`); a seeded chance must give the
    same outcome for the same key every time, on every machine."""

    def shuffle(self, key: str, items: list[T]) -> None:
        """Put `items` in a random order, in place."""
        ...

    def throw(self, key: str, faces: Sequence[T], count: int) -> list[T]:
        """Throw `count` dice with these faces: one face each."""
        ...

    def index(self, key: str, n: int) -> int:
        """A number from 0 to n - 1 (a seat drawn by lot)."""
        ...


class SeededChance:
    """The chance every real game uses: one `random.Random` per event, seeded with the event's key. A str seed
    goes through SHA-512 inside `random`, the same on every run and platform."""

    def shuffle(self, key: str, items: list[T]) -> None:
        random.Random(key).shuffle(items)

    def throw(self, key: str, faces: Sequence[T], count: int) -> list[T]:
        rng = random.Random(key)
        return [rng.choice(faces) for _ in range(count)]

    def index(self, key: str, n: int) -> int:
        return random.Random(key).randrange(n)
