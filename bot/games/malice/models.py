"""Malice's typed data: actions (what a player asks), events (what everyone is told), views and options.

Cards are stored as their short text (`CardText`) and ranks as in card text (`RankName`: "A", "10", "K"), so
actions and events read naturally in the action log. Events are public by construction: none names a hidden
card.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    TypeAdapter,
)

from bot.games.base import ActionInput, ChipTransfer
from bot.games.cards import Card, Rank
from bot.games.malice.piles import CARDS
from bot.games.spec import HOUSE_RULE, TableOptions

_M = TypeVar("_M", bound=BaseModel)

Source = Literal["hand", "payoff", "side1", "side2", "side3", "side4"]
Target = Literal["centre1", "centre2", "centre3", "centre4", "side1", "side2", "side3", "side4"]
EndReason = Literal["payoff_emptied", "stalemate", "turn_cap", "resign", "cancelled"]
Discard = Literal["optional", "required"]
"""House rule H4: a side play ends the turn and a turn may also end without one (rule 12), or a player who can
make a side play must end his turn with one."""


def _parse_rank(value: Any) -> Rank:
    if isinstance(value, Rank):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if value == 1:
            return Rank.ACE
        return Rank(value)
    if isinstance(value, str):
        return Rank.parse(value)
    raise ValueError(f"{value!r} is not a rank: use A K Q J 10 9 8 7 6 5 4 3 2.")


_CARD_BY_TEXT: dict[str, Card] = {str(card): card for card in CARDS}


def _parse_card(value: Any) -> Card:
    # Canonical text first: loading a saved game parses ~108 cards, and the general parser is 4x slower.
    card = _CARD_BY_TEXT.get(value) if isinstance(value, str) else None
    return card if card is not None else Card.parse(value)


# A `Card`, stored as its short text like everywhere, with a quicker loader for saved games.
CardText = Annotated[
    Card, PlainValidator(_parse_card, json_schema_input_type=str), PlainSerializer(str, return_type=str)
]

# A rank written as in card text ("A", "10", "K") so actions and events read naturally in the action log.
RankName = Annotated[Rank, PlainValidator(_parse_rank), PlainSerializer(lambda r: r.short, return_type=str)]


# --- actions ------------------------------------------------------------------------------------------------


class Play(BaseModel):
    """Move one card: to a centre slot (from the hand, the payoff top or an own side-stack top) or to an own
    side stack (from the hand only; this ends the turn)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["play"] = "play"
    source: Source
    card: CardText | None = None  # required from the hand; checked against the pile top otherwise
    to: Target
    as_rank: RankName | None = None  # the rank a joker takes on a centre stack


class EndTurn(BaseModel):
    """End the turn without a side play."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["end_turn"] = "end_turn"


class Resign(BaseModel):
    """System action: that player resigns; the opponent wins, scoring the resigner's payoff cards."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["resign"] = "resign"
    player: str


class EndGame(BaseModel):
    """System action (`/cancel`): end now, scored as a stalemate."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["end_game"] = "end_game"


Action = Annotated[Union[Play, EndTurn, Resign, EndGame], Field(discriminator="kind")]  # noqa: UP007
_ACTION: TypeAdapter[Play | EndTurn | Resign | EndGame] = TypeAdapter(Action)


def parse_action(data: ActionInput) -> Play | EndTurn | Resign | EndGame:
    """An action from JSON text, a dict (the action log) or an action model; a pydantic `ValidationError` if
    malformed."""
    if isinstance(data, Play | EndTurn | Resign | EndGame):
        return data
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if isinstance(data, str | bytes):
        return _ACTION.validate_json(data)
    return _ACTION.validate_python(data)


class _Frozen(BaseModel):
    """Events and results are values: the game keeps some (`last_play`, `result`) and also hands them out."""

    model_config = ConfigDict(frozen=True)


# --- events -------------------------------------------------------------------------------------------------


class TurnStarted(_Frozen):
    kind: Literal["turn_started"] = "turn_started"
    player: str
    turn: int
    drawn: int  # cards drawn to refill the hand (hidden which)


class CardPlayed(_Frozen):
    kind: Literal["card_played"] = "card_played"
    player: str
    card: CardText
    source: Source
    to: Target
    as_rank: RankName | None = None  # the rank a joker took on a centre stack


class PayoffTurned(_Frozen):
    """The next payoff card was turned face up."""

    kind: Literal["payoff_turned"] = "payoff_turned"
    player: str
    card: CardText
    remaining: int  # the payoff pile, the new top included


class StackCompleted(_Frozen):
    """A centre stack reached K; its 13 cards were shuffled into the stock and its slot is free."""

    kind: Literal["stack_completed"] = "stack_completed"
    slot: Literal["centre1", "centre2", "centre3", "centre4"]
    stock_count: int  # the stock after the shuffle


class HandRefilled(_Frozen):
    """A player emptied his hand mid-turn and drew from the stock (rule 13)."""

    kind: Literal["hand_refilled"] = "hand_refilled"
    player: str
    drawn: int


class TurnEnded(_Frozen):
    kind: Literal["turn_ended"] = "turn_ended"
    player: str
    turn: int
    side_play: bool  # ended by a play to a side stack
    moved: bool  # some card moved during the turn (two idle turns in a row are a stalemate)


class GameOver(_Frozen):
    kind: Literal["game_over"] = "game_over"
    reason: EndReason
    winner: str | None  # None: a draw
    loser: str | None
    score: int  # cards: the loser's payoff pile (a win) or the difference (a stalemate)
    chips: int  # score * stake, paid by the loser to the winner
    payoff_counts: dict[str, int]


Event = Annotated[
    Union[  # noqa: UP007
        TurnStarted,
        CardPlayed,
        PayoffTurned,
        StackCompleted,
        HandRefilled,
        TurnEnded,
        GameOver,
        ChipTransfer,
    ],
    Field(discriminator="kind"),
]


class MaliceResult(_Frozen):
    reason: EndReason
    winner: str | None
    loser: str | None
    score: int
    chips: int


# --- views --------------------------------------------------------------------------------------------------


class MalicePublicView(BaseModel):
    """Everything on the table anyone may see. The pile sizes always add up to 108 cards."""

    players: list[str]
    current_player: str | None
    turn: int
    max_turns: int
    stake: int
    stock_count: int
    payoff_counts: dict[str, int]  # the face-up top included
    payoff_top: dict[str, CardText | None]
    hand_counts: dict[str, int]
    centre: list[list[CardText]]  # always 4 slots, bottom to top; [] is a free slot
    centre_needs: list[RankName]  # the rank each slot takes next (A for a free slot)
    side: dict[str, list[list[CardText]]]  # 4 stacks per player, bottom to top
    moved_this_turn: bool
    idle_turns: int  # turns in a row that ended without a card moving (2 = stalemate)
    last_play: CardPlayed | None
    is_over: bool
    result: MaliceResult | None
    discard: Discard = "optional"  # house rule H4


class MaliceView(MalicePublicView):
    """What one player may see: the public table plus his own hand."""

    player: str
    hand: list[CardText]
    must_play_ace: bool  # his turn cannot end before an ace goes to the centre


class MaliceOptions(TableOptions):
    """A Malice table's options, all house rules (docs/rules.md section 3: H6 `stake`, H5 `turns`, H4
    `discard`; the engine's `stake`, `max_turns` and `discard`; each default is the standard rule)."""

    stake: int = Field(
        default=1,
        ge=0,
        le=1000,
        description="chips per card of the score (default 1)",
        json_schema_extra=HOUSE_RULE,
    )
    turns: int = Field(
        default=500,
        ge=1,
        le=500,
        description="end the game after this many turns, scored as a stalemate (default 500)",
        json_schema_extra=HOUSE_RULE,
    )
    discard: Discard = Field(
        default="optional",
        description="optional (default) or required: who can play to a side stack must, to end his turn",
        json_schema_extra=HOUSE_RULE,
    )


def fast(cls: type[_M], **fields: Any) -> _M:
    """A model from values already known to be valid, without validation: pydantic's own `model_construct`
    costs more than validating would. Callers pass every field but `kind`, in declaration order (the order
    `model_dump_json()` writes)."""
    kind = _KINDS.get(cls)
    values = {"kind": kind, **fields} if kind is not None else fields
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", values)
    object.__setattr__(model, "__pydantic_fields_set__", set(values))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


# The fixed `kind` of every event class (looking it up in `model_fields` each time is slow).
_KINDS: dict[type, str] = {
    cls: cls.model_fields["kind"].default
    for cls in (TurnStarted, CardPlayed, PayoffTurned, StackCompleted, HandRefilled, TurnEnded, GameOver)
}
