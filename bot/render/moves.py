"""A game's moves as a person types them in the terminal (`cardtable-bot play`): one short command per legal
action, e.g. `play 7h centre1`, `bid 3`, and the action in words beside it in the `help` list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

G = TypeVar("G")  # the game's state class
A = TypeVar("A")  # the union of its actions


@dataclass(frozen=True)
class TypedMoves(Generic[G, A]):
    command: Callable[[A], str]  # what to type for the action (lower case)
    describe: Callable[[A, G], str]  # the action in words, with what it touches
