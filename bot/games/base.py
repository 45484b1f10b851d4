"""What every game engine shares: the refusal (`IllegalAction`, from `bot.games.refusal`), chip movements
and results, seeded chance, and the protocols the layers above program against (`GameState` and the actions,
events and views it hands out).

Chance never comes from global state. A game keeps its `seed` and a counter of how many random events it has
had; event number n asks the game's `Chance` (`bot.games.chance`) under the key `"<seed>/<n>"`. With the
seeded default the same seed and the same actions therefore give the same game, byte for byte, and the whole
state (counter included) is plain JSON. The chance object itself is not part of the state: a game loaded from
JSON always continues with the seeded chance.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from bot.games.cards import Card
from bot.games.chance import Chance, SeededChance

# Re-exported: the engines and the layers above import the refusal from here.
from bot.games.refusal import IllegalAction as IllegalAction
from bot.games.refusal import Player as Player
from bot.games.refusal import Refusal as Refusal

POT = "@pot"
"""The ledger account of a table's pot (player ids never start with '@')."""

T = TypeVar("T")


def seed_commitment(seed: str) -> str:
    """SHA-256 of the seed: published before play, so the revealed seed can be checked afterwards."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class ChipTransfer(BaseModel):
    """One movement of chips between two accounts (a player id or `POT`). Every chip a game moves is one."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["chips"] = "chips"
    from_account: str
    to_account: str
    amount: int = Field(gt=0)
    reason: str


class Standing(BaseModel):
    """A player's result when the game is over."""

    player: str
    placement: int  # 1 = winner; equal results share a placement
    net: int  # chips won (+) or lost (-) in this game
    final_chips: int | None = None  # the stack held at the end, in a game where each player has one
    won: bool


class SeededGame(BaseModel):
    """Base for game states: the seed, the counter of random events, the chance they are asked of."""

    seed: str
    draws: int = 0
    # Not serialised: outcomes already drawn are in the state, and a loaded game continues seeded.
    _chance: Chance = PrivateAttr(default_factory=SeededChance)

    def _use_chance(self, chance: Chance | None) -> None:
        """Take outcomes from `chance` from now on (None: the seeded default). Only `new_game` calls this."""
        self._chance = chance if chance is not None else SeededChance()

    def _next_key(self) -> str:
        key = f"{self.seed}/{self.draws}"
        self.draws += 1
        return key

    def _shuffle(self, items: list[T]) -> None:
        """One random event: shuffle `items` in place."""
        self._chance.shuffle(self._next_key(), items)

    def _throw_dice(self, faces: Sequence[T], count: int) -> list[T]:
        """One random event: throw `count` dice with these faces."""
        return self._chance.throw(self._next_key(), faces, count)

    def _draw_index(self, n: int) -> int:
        """One random event: a number from 0 to n - 1."""
        return self._chance.index(self._next_key(), n)

    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.seed)


# --- the seam: what the layers above may rely on, whatever the game ---------------------------------------


class GameAction(Protocol):
    """An action: a frozen pydantic model whose `kind` names it (the action log stores its JSON)."""

    @property
    def kind(self) -> str: ...

    def model_dump_json(self) -> str: ...


ActionInput = GameAction | BaseModel | Mapping[str, object] | str | bytes
"""What `apply()` and `parse_action()` take: an action model, or its dict or JSON text from the action log
(anything else is refused: `parse_action` with pydantic's ValidationError, `apply` with IllegalAction)."""


class GameEvent(Protocol):
    """A public event `apply()` returns: a pydantic model whose `kind` names it. Never shows a hidden card."""

    @property
    def kind(self) -> str: ...

    def model_dump_json(self) -> str: ...


class GameView(Protocol):
    """`public_view()`: what everyone at the table may see."""

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def current_player(self) -> str | None: ...

    @property
    def is_over(self) -> bool: ...

    def model_dump_json(self) -> str: ...


class HandView(GameView, Protocol):
    """`view(player)`: the public view plus what that player alone may see, his hand first."""

    @property
    def player(self) -> str: ...

    @property
    def hand(self) -> Sequence[Card]: ...


class GameState(Protocol):
    """One game in play (docs/design.md section 1): a pydantic model mutated in place by `apply()`."""

    @property
    def seed(self) -> str: ...

    @property
    def seed_commitment(self) -> str: ...

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def current_player(self) -> str | None:
        """The id whose decision is awaited; None once the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def opening_events(self) -> Sequence[GameEvent]:
        """The public events of `new_game()` itself (a deal, a throw), for the first announcement."""
        ...

    def legal_actions(self) -> Sequence[GameAction]:
        """Every legal action of the current player, each once; empty only when the game is over."""
        ...

    def apply(self, action: ActionInput) -> Sequence[GameEvent]:
        """Apply an action; returns the public events. `IllegalAction` (a catalogue key) if not allowed."""
        ...

    def default_action(self) -> GameAction | None:
        """What a turn timeout applies for the current player; None once the game is over."""
        ...

    def view(self, player: str) -> HandView: ...

    def public_view(self) -> GameView: ...

    def standings(self) -> list[Standing]:
        """Every player's result, the winner first; only once the game is over."""
        ...

    def model_dump_json(self) -> str: ...

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray) -> Self:
        """The game from its `model_dump_json()`, exactly as it was."""
        ...
