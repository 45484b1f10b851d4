"""High card: a tiny game that lives only in the tests, to prove that a game is its rules module plus its
presentation module (`highcard_render.py`), registered together (`bot.render.registry.registered(SPEC,
PRESENTATION)`), and that the conformance suite holds any registered game to the same contract.

Two players, each with a few chips. Every round the deck is shuffled and each player is dealt one hidden card;
in turn (the round's starter first) each either keeps his card or swaps it for the next card of the deck (at
most twice a game). Then both cards are shown and the higher card (rank, then suit, ace high) takes a chip
from the other. The game ends after the agreed rounds, or at once when a player has no chips left.

It follows the same shape as the real engines: actions, events, views and options as pydantic models, the
state a `SeededGame` whose chance is injectable, a `parse_action`, a computer player, and a rules-only
`GameSpec` (this module imports nothing of the presentation).
"""

from __future__ import annotations

import random
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, TypeAdapter, ValidationError

from bot.games.base import (
    ActionInput,
    ChipTransfer,
    GameAction,
    GameEvent,
    GameState,
    IllegalAction,
    SeededGame,
    Standing,
)
from bot.games.cards import Card, standard_deck
from bot.games.chance import Chance
from bot.games.seats import SessionRules
from bot.games.spec import GameSpec, TableOptions


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


# --- actions ------------------------------------------------------------------------------------------------


class Keep(_Frozen):
    kind: Literal["keep"] = "keep"


class Swap(_Frozen):
    kind: Literal["swap"] = "swap"


class EndGame(_Frozen):
    """System only (`/cancel`): end now, chips as they are."""

    kind: Literal["end_game"] = "end_game"


Action = Annotated[Keep | Swap | EndGame, Field(discriminator="kind")]
_ACTION: TypeAdapter[Keep | Swap | EndGame] = TypeAdapter(Action)


def parse_action(data: ActionInput) -> Keep | Swap | EndGame:
    if isinstance(data, Keep | Swap | EndGame):
        return data
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if isinstance(data, str | bytes):
        return _ACTION.validate_json(data)
    return _ACTION.validate_python(data)


# --- events -------------------------------------------------------------------------------------------------


class RoundStarted(_Frozen):
    kind: Literal["round_started"] = "round_started"
    round: int
    starter: str


class Decided(_Frozen):
    """A player kept or swapped; which card he had or got is never told."""

    kind: Literal["decided"] = "decided"
    player: str
    swapped: bool


class Showdown(_Frozen):
    kind: Literal["showdown"] = "showdown"
    round: int
    cards: dict[str, Card]
    winner: str


class GameOver(_Frozen):
    kind: Literal["game_over"] = "game_over"
    reason: Literal["rounds", "out_of_chips", "ended"]
    standings: list[Standing]


Event = Annotated[RoundStarted | Decided | Showdown | ChipTransfer | GameOver, Field(discriminator="kind")]


# --- views and options --------------------------------------------------------------------------------------


class PublicView(BaseModel):
    players: list[str]
    current_player: str | None
    is_over: bool
    round: int
    rounds: int
    chips: dict[str, int]
    decided: dict[str, bool | None]  # None: not yet; else whether he swapped
    swaps_left: dict[str, int]
    last_showdown: Showdown | None


class PlayerView(PublicView):
    player: str
    hand: list[Card]


class Options(TableOptions):
    chips: int = Field(default=3, ge=1, le=20, description="chips each player starts with")
    rounds: int = Field(default=5, ge=1, le=50, description="rounds to play")


# --- the game -----------------------------------------------------------------------------------------------

Events = list[GameEvent]
SWAPS = 2  # per player and game
_KEEP, _SWAP = Keep(), Swap()


class HighCardGame(SeededGame):
    players: list[str]
    starting_chips: int
    chips: dict[str, int]
    rounds: int
    round: int = 0
    turn: int | None = 0  # seat index; None when over
    deck: list[Card] = []  # hidden; the next card is the last
    hands: dict[str, list[Card]] = {}  # hidden: one card each
    decided: dict[str, bool | None] = {}
    swaps_left: dict[str, int] = {}
    last_showdown: Showdown | None = None
    over_reason: Literal["rounds", "out_of_chips", "ended"] | None = None
    _opening: Events = PrivateAttr(default_factory=list)

    @property
    def current_player(self) -> str | None:
        return None if self.turn is None else self.players[self.turn]

    @property
    def is_over(self) -> bool:
        return self.over_reason is not None

    @property
    def opening_events(self) -> Events:
        return list(self._opening)

    def legal_actions(self) -> list[Keep | Swap]:
        if self.turn is None:
            return []
        return [_KEEP, _SWAP] if self.swaps_left[self.players[self.turn]] else [_KEEP]

    def default_action(self) -> Keep | None:
        return None if self.is_over else _KEEP

    def apply(self, action: ActionInput) -> Events:
        try:
            parsed = parse_action(action)
        except ValidationError as error:
            raise IllegalAction("That is not an action here: keep or swap your card.") from error
        if self.turn is None:
            raise IllegalAction("The game is over.")
        events: Events = []
        if isinstance(parsed, EndGame):
            self._finish("ended", events)
            return events
        player = self.players[self.turn]
        if isinstance(parsed, Swap):
            if not self.swaps_left[player]:
                raise IllegalAction("You have no swaps left: keep your card.")
            self.swaps_left[player] -= 1
            self.hands[player] = [self.deck.pop()]
        self.decided[player] = isinstance(parsed, Swap)
        events.append(Decided(player=player, swapped=isinstance(parsed, Swap)))
        if any(v is None for v in self.decided.values()):
            self.turn = 1 - self.turn
        else:
            self._showdown(events)
        return events

    def _start_round(self, events: Events) -> None:
        self.round += 1
        self.deck = standard_deck()
        self._shuffle(self.deck)
        self.hands = {p: [self.deck.pop()] for p in self.players}
        self.decided = {p: None for p in self.players}
        self.turn = (self.round - 1) % 2  # the starter alternates
        events.append(RoundStarted(round=self.round, starter=self.players[self.turn]))

    def _showdown(self, events: Events) -> None:
        cards = {p: self.hands[p][0] for p in self.players}
        winner = max(self.players, key=lambda p: cards[p].key)
        loser = next(p for p in self.players if p != winner)
        self.last_showdown = Showdown(round=self.round, cards=cards, winner=winner)
        events.append(self.last_showdown)
        self.chips[loser] -= 1
        self.chips[winner] += 1
        events.append(ChipTransfer(from_account=loser, to_account=winner, amount=1, reason="highcard_round"))
        if self.chips[loser] == 0:
            self._finish("out_of_chips", events)
        elif self.round >= self.rounds:
            self._finish("rounds", events)
        else:
            self._start_round(events)

    def _finish(self, reason: Literal["rounds", "out_of_chips", "ended"], events: Events) -> None:
        self.over_reason = reason
        self.turn = None
        events.append(GameOver(reason=reason, standings=self.standings()))

    def _public(self) -> PublicView:
        return PublicView(
            players=list(self.players),
            current_player=self.current_player,
            is_over=self.is_over,
            round=self.round,
            rounds=self.rounds,
            chips=dict(self.chips),
            decided=dict(self.decided),
            swaps_left=dict(self.swaps_left),
            last_showdown=self.last_showdown,
        )

    def public_view(self) -> PublicView:
        return self._public()

    def view(self, player: str) -> PlayerView:
        return PlayerView(**dict(self._public()), player=player, hand=list(self.hands.get(player, [])))

    def standings(self) -> list[Standing]:
        order = sorted(self.players, key=lambda p: -self.chips[p])
        top = self.chips[order[0]]
        return [
            Standing(
                player=p,
                placement=1 if self.chips[p] == top else 2,
                net=self.chips[p] - self.starting_chips,
                final_chips=self.chips[p],
                won=self.chips[p] == top,
            )
            for p in order
        ]


Game = HighCardGame


def new_game(
    players: list[str], seed: str, *, chips: int = 3, rounds: int = 5, chance: Chance | None = None
) -> HighCardGame:
    if len(players) != 2 or players[0] == players[1]:
        raise ValueError("High card is for two different players.")
    game = HighCardGame(
        seed=seed,
        players=list(players),
        starting_chips=chips,
        chips=dict.fromkeys(players, chips),
        rounds=rounds,
        swaps_left=dict.fromkeys(players, SWAPS),
    )
    game._use_chance(chance)
    game._start_round(game._opening)
    return game


# --- the computer player and the spec -----------------------------------------------------------------------


def choose(view: PlayerView, legal: list[Keep | Swap], rng: random.Random) -> Keep | Swap:
    """Keep a card above the middle of the deck, swap one below; a coin decides the middle."""
    key = view.hand[0].key
    middle = Card.parse("8S").key
    if key == middle:
        return rng.choice(legal)
    return _KEEP if key > middle else _SWAP


def _start(players: list[str], seed: str, options: TableOptions, chance: Chance | None) -> HighCardGame:
    if not isinstance(options, Options):
        raise TypeError("High card takes its own Options")
    return new_game(players, seed, chips=options.chips, rounds=options.rounds, chance=chance)


def _computer(game: GameState, player: str, rng: random.Random) -> GameAction:
    if not isinstance(game, HighCardGame):
        raise TypeError(f"not a high card game: {type(game).__name__}")
    return choose(game.view(player), game.legal_actions(), rng)


SPEC = GameSpec(
    name="highcard",
    title="High card",
    min_players=2,
    max_players=2,
    table="challenge",
    options=Options,
    game=HighCardGame,
    start=_start,
    parse_action=parse_action,
    computer=_computer,
    # No resign action in this game: a seat given up is played on by the computer.
    session=SessionRules(takeover="computer"),
)

__all__ = [
    "SPEC",
    "Action",
    "Decided",
    "EndGame",
    "Event",
    "Game",
    "GameOver",
    "HighCardGame",
    "Keep",
    "Options",
    "PlayerView",
    "PublicView",
    "RoundStarted",
    "Showdown",
    "Swap",
    "new_game",
    "parse_action",
]
