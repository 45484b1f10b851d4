"""A scripted chance: tests choose the shuffles, throws and draws a game gets, and the real rules do the rest.

`ScriptedChance` answers each random event from its script, in order, and once a script runs out it answers
from the seed like the real chance (`SeededChance`), so a test scripts only what it cares about. It stays
honest: a scripted shuffle must be a reordering of the very items the game shuffles, a throw must use the
dice's faces, a draw must be in range; anything else is a broken test and fails at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

from bot.games.chance import SeededChance

T = TypeVar("T")


class ScriptedChance:
    def __init__(
        self,
        *,
        shuffles: Iterable[Sequence[object]] = (),
        throws: Iterable[Sequence[object]] = (),
        indexes: Iterable[int] = (),
    ) -> None:
        self.shuffles = [list(s) for s in shuffles]
        self.throws = [list(t) for t in throws]
        self.indexes = list(indexes)
        self._seeded = SeededChance()

    @property
    def exhausted(self) -> bool:
        return not (self.shuffles or self.throws or self.indexes)

    def shuffle(self, key: str, items: list[T]) -> None:
        if not self.shuffles:
            self._seeded.shuffle(key, items)
            return
        order = self.shuffles.pop(0)
        if Counter(map(str, order)) != Counter(map(str, items)):
            raise AssertionError(f"scripted shuffle {order} is not a reordering of {items}")
        by_text: dict[str, list[T]] = {}
        for item in items:
            by_text.setdefault(str(item), []).append(item)
        items[:] = [by_text[str(x)].pop() for x in order]

    def throw(self, key: str, faces: Sequence[T], count: int) -> list[T]:
        if not self.throws:
            return self._seeded.throw(key, faces, count)
        thrown = self.throws.pop(0)
        by_text = {str(face): face for face in faces}
        if len(thrown) != count or any(str(x) not in by_text for x in thrown):
            raise AssertionError(f"scripted throw {thrown} is not {count} dice with faces {list(faces)}")
        return [by_text[str(x)] for x in thrown]

    def index(self, key: str, n: int) -> int:
        if not self.indexes:
            return self._seeded.index(key, n)
        value = self.indexes.pop(0)
        if not 0 <= value < n:
            raise AssertionError(f"scripted draw {value} is not between 0 and {n - 1}")
        return value
