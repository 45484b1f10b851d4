"""The Malice game state: every pile of a game, the questions every part asks of it, and the views.

The moves (`moves.py`: what may go where) extend this state and `game.py` adds the turn flow and the scoring
as `MaliceGame`; each part reads and changes the same pydantic fields, so it can be built and tested alone
from a state, and the whole game is still one small JSON document. The fields are declared here only, in the
order `model_dump_json()` has always written them.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr

from bot.games.base import GameEvent, SeededGame, Standing
from bot.games.cards import Card
from bot.games.malice.models import (
    CardPlayed,
    CardText,
    Discard,
    MalicePublicView,
    MaliceResult,
    MaliceView,
    fast,
)
from bot.games.malice.piles import RANK_OF_VALUE, STACKS, VALUE

Events = list[GameEvent]


def _free_centre() -> list[list[Card]]:
    return [[] for _ in range(STACKS)]


class MaliceState(SeededGame):
    """Everything a Malice game between two players is (seat order = `players`)."""

    players: list[str]
    stake: int = 1
    max_turns: int = 500
    stock: list[CardText] = []
    hands: dict[str, list[CardText]] = {}
    payoff: dict[str, list[CardText]] = {}
    centre: list[list[CardText]] = Field(default_factory=lambda: _free_centre())
    side: dict[str, list[list[CardText]]] = {}
    seat: int = 0  # whose turn: an index into players
    turn: int = 1
    moved: bool = False  # a card moved during the current turn
    idle_turns: int = 0
    first_player_reshuffles: int = 0  # rule 4: how often equal payoff tops forced a reshuffle
    last_play: CardPlayed | None = None
    result: MaliceResult | None = None
    # House rule H4, written into the JSON only when it is not the standard rule: a game of the standard rules
    # keeps the JSON it always had (stored games replay byte for byte: tests/games/test_stored_games.py).
    discard: Discard = Field(default="optional", exclude_if=lambda v: v == "optional")
    _opening: Events = PrivateAttr(default_factory=list)

    # -- reading the state

    @property
    def opening_events(self) -> Events:
        """The events of `new_game()` (the first turn starting), for the first announcement. Not
        serialised."""
        return list(self._opening)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def current_player(self) -> str | None:
        return None if self.result is not None else self.players[self.seat]

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def _needs(self) -> list[int]:
        """The value each centre slot takes next: 1 (an ace) for a free slot."""
        return [len(stack) + 1 for stack in self.centre]

    def _must_play_ace(self, player: str) -> bool:
        """Rule 9: a centre slot is free and an ace sits in the hand or on the payoff top."""
        if all(self.centre):
            return False
        payoff = self.payoff[player]
        return (bool(payoff) and VALUE[payoff[-1]] == 1) or any(VALUE[c] == 1 for c in self.hands[player])

    # -- views and results

    def public_view(self) -> MalicePublicView:
        return fast(MalicePublicView, **self._public_fields())

    def view(self, player: str) -> MaliceView:
        if player not in self.players:
            raise ValueError(f"{player} is not playing in this game.")
        return fast(
            MaliceView,
            **self._public_fields(),
            player=player,
            hand=list(self.hands[player]),
            must_play_ace=self.result is None
            and player == self.players[self.seat]
            and self._must_play_ace(player),
        )

    def _public_fields(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "current_player": self.current_player,
            "turn": self.turn,
            "max_turns": self.max_turns,
            "stake": self.stake,
            "stock_count": len(self.stock),
            "payoff_counts": {p: len(self.payoff[p]) for p in self.players},
            "payoff_top": {p: (self.payoff[p][-1] if self.payoff[p] else None) for p in self.players},
            "hand_counts": {p: len(self.hands[p]) for p in self.players},
            "centre": [list(stack) for stack in self.centre],
            "centre_needs": [RANK_OF_VALUE[need] for need in self._needs()],
            "side": {p: [list(stack) for stack in self.side[p]] for p in self.players},
            "moved_this_turn": self.moved,
            "idle_turns": self.idle_turns,
            "last_play": self.last_play,
            "is_over": self.result is not None,
            "result": self.result,
            "discard": self.discard,
        }

    def standings(self) -> list[Standing]:
        """Results when over: the winner (placement 1) first; a draw puts both at placement 1 with net 0."""
        result = self.result
        if result is None:
            raise ValueError("The game is not over yet.")
        if result.winner is None or result.loser is None:
            return [Standing(player=p, placement=1, net=0, won=False) for p in self.players]
        return [
            Standing(player=result.winner, placement=1, net=result.chips, won=True),
            Standing(player=result.loser, placement=2, net=-result.chips, won=False),
        ]
