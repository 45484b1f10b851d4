"""Insomnia's typed data: actions (what a player asks), events (what everyone is told) and views.

Events are public by construction: none carries a hidden card. The only hand an event shows is the stage-1
winner's, because rule 16 makes him show it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bot.games.base import ActionInput, ChipTransfer, Standing
from bot.games.cards import Card, Rank, Suit
from bot.games.insomnia.hands import Sevens
from bot.games.spec import HOUSE_RULE, TableOptions

Phase = Literal["exchange", "auction", "rethrow", "tricks", "over"]
DiceStage = Literal[1, 4]
OverReason = Literal["out_of_chips", "deal_cap", "ended"]
Bust = Literal["ends", "out"]
"""House rule H2: a player without chips ends the game (rule 31), or leaves it and the others play on."""
Stage4 = Literal["on", "off"]
"""House rule H3: the second dice round is played (rules 26-28), or a deal ends after the tricks."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


# --- actions --------------------------------------------------------------------------------------


class Exchange(_Frozen):
    """Discard this card and draw the top card of the stock (stage 1a)."""

    kind: Literal["exchange"] = "exchange"
    card: Card


class Pass(_Frozen):
    """Decline the current decision: no (further) exchange, pass in an auction, or stop re-throwing."""

    kind: Literal["pass"] = "pass"


class Bid(_Frozen):
    """Bid this many chips in an auction (stage 1b or 4)."""

    kind: Literal["bid"] = "bid"
    amount: int


class Rethrow(_Frozen):
    """Throw die number `die` (1-4) again: the auction winner's re-throw."""

    kind: Literal["rethrow"] = "rethrow"
    die: int


class Play(_Frozen):
    """Play this card to the trick (stage 3)."""

    kind: Literal["play"] = "play"
    card: Card


class EndGame(_Frozen):
    """System only (`/cancel`): end the game now, chips as they are. Never among the legal actions."""

    kind: Literal["end_game"] = "end_game"


Action = Annotated[Exchange | Pass | Bid | Rethrow | Play | EndGame, Field(discriminator="kind")]
_ACTION: TypeAdapter[Exchange | Pass | Bid | Rethrow | Play | EndGame] = TypeAdapter(Action)


def parse_action(data: ActionInput) -> Exchange | Pass | Bid | Rethrow | Play | EndGame:
    """An action from JSON text, a dict (the action log) or an action model; a pydantic `ValidationError` if
    malformed."""
    if isinstance(data, Exchange | Pass | Bid | Rethrow | Play | EndGame):
        return data
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if isinstance(data, str | bytes):
        return _ACTION.validate_json(data)
    return _ACTION.validate_python(data)


class InsomniaOptions(TableOptions):
    """An Insomnia table's options (the engine's `chips` and `max_deals`) and house rules (docs/rules.md
    section 3: H1 `sevens`, H2 `bust`, H3 `stage4`; each default is the standard rule)."""

    chips: int = Field(default=15, ge=1, le=1000, description="chips each player starts with (default 15)")
    deals: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="end the game after this many deals (default: until someone runs out)",
    )
    sevens: Sevens = Field(
        default="hearts-spades",
        description="5-7 players: hearts-spades (7♥ 7♠, 30 cards; default) or all (all 4 sevens, 32 cards)",
        json_schema_extra=HOUSE_RULE,
    )
    bust: Bust = Field(
        default="ends",
        description="a player without chips: ends the game (default), or is out and the others play on",
        json_schema_extra=HOUSE_RULE,
    )
    stage4: Stage4 = Field(
        default="on",
        description="the second dice round after the tricks: on (default) or off",
        json_schema_extra=HOUSE_RULE,
    )


# --- small public records -------------------------------------------------------------------------


class TrickPlay(_Frozen):
    player: str
    card: Card


class ShownHand(_Frozen):
    """A hand a rule makes public: the stage-1 winner's (rule 16)."""

    player: str
    cards: list[Card]


class Auction(BaseModel):
    """A running auction (rules 10 and 27). Everything in it is public."""

    stage: DiceStage
    bidders: list[str]  # turn order: from the left of the dealer, eligible players only in stage 4
    turn: int = 0  # index into bidders
    high_bid: int = 0
    high_bidder: str | None = None
    passes: int = 0  # passes in a row since the last bid (or since the start)


# --- events ---------------------------------------------------------------------------------------


class DealStarted(_Frozen):
    kind: Literal["deal_started"] = "deal_started"
    deal: int  # 1, 2, ...
    dealer: str
    deck_size: int
    stock: int  # cards left in the stock after dealing


class DiceThrown(_Frozen):
    """The dealer's throw of all four dice (`rethrown_die` None), or one re-throw by the auction winner."""

    kind: Literal["dice_thrown"] = "dice_thrown"
    stage: DiceStage
    player: str  # who threw
    dice: list[Rank]  # all four, after the throw
    rethrown_die: int | None = None  # 1-4 for a re-throw
    rethrows_left: int | None = None


class Exchanged(_Frozen):
    """A player discarded and drew; which card is never told."""

    kind: Literal["exchanged"] = "exchanged"
    player: str
    count: int  # his exchanges so far this deal (1 or 2)


class ExchangeDone(_Frozen):
    kind: Literal["exchange_done"] = "exchange_done"
    player: str
    exchanges: int
    stock_empty: bool  # True when his turn ended because the stock ran out (he could only pass)


class BidMade(_Frozen):
    kind: Literal["bid"] = "bid"
    stage: DiceStage
    player: str
    amount: int


class Passed(_Frozen):
    """A pass in an auction (not final: he may bid again on a later turn)."""

    kind: Literal["passed"] = "passed"
    stage: DiceStage
    player: str


class AuctionWon(_Frozen):
    kind: Literal["auction_won"] = "auction_won"
    stage: DiceStage
    player: str
    amount: int
    rethrows: int


class AuctionNoWinner(_Frozen):
    kind: Literal["auction_no_winner"] = "auction_no_winner"
    stage: DiceStage


class RethrowsEnded(_Frozen):
    kind: Literal["rethrows_ended"] = "rethrows_ended"
    stage: DiceStage
    player: str
    unused: int  # re-throws left unused (lost)
    dice: list[Rank]


class Stage1Result(_Frozen):
    """The stage-1 winner; he shows his hand (rule 16). `amount` is what each other player owes him."""

    kind: Literal["stage1_result"] = "stage1_result"
    winner: str
    hand: list[Card]
    dice: list[Rank]
    pattern: str
    amount: int


class NoMatch(_Frozen):
    """Nobody matched the dice (stage 1 or 4): nobody pays."""

    kind: Literal["no_match"] = "no_match"
    stage: DiceStage
    dice: list[Rank]
    pattern: str


class Stage2Winner(_Frozen):
    kind: Literal["stage2_winner"] = "stage2_winner"
    winner: str
    category: str
    description: str  # category and deciding ranks, e.g. "two pairs, kings and nines"; never the whole hand
    amount: int  # what each other player owes him (2)


class Stage2NoWinner(_Frozen):
    """Nobody holds a pair or better: nobody is paid, the player left of the dealer leads (rule 20)."""

    kind: Literal["stage2_no_winner"] = "stage2_no_winner"
    leader: str


class CardPlayed(_Frozen):
    kind: Literal["card_played"] = "card_played"
    player: str
    card: Card
    trick: int  # 1-4
    trump: Suit  # fixed by the first card led in stage 3


class TrickWon(_Frozen):
    kind: Literal["trick_won"] = "trick_won"
    trick: int
    winner: str
    plays: list[TrickPlay]


class PotSplit(_Frozen):
    """Rule 25: the pot to whoever won the most tricks; a tie shares it, the remainder stays in the pot."""

    kind: Literal["pot_split"] = "pot_split"
    winners: list[str]
    tricks: dict[str, int]
    pot: int  # before the split
    share: int  # each winner's share
    remainder: int  # what stays in the pot


class Stage4Eligible(_Frozen):
    kind: Literal["stage4_eligible"] = "stage4_eligible"
    players: list[str]


class Stage4Result(_Frozen):
    """The stage-4 winner: `cards` are the 4 won cards that match. Every other player owes him `amount`."""

    kind: Literal["stage4_result"] = "stage4_result"
    winner: str
    cards: list[Card]
    dice: list[Rank]
    pattern: str
    amount: int


class PlayersOut(_Frozen):
    """House rule H2 (`bust="out"`): these players have no chips left and leave the game; the `playing` play
    on."""

    kind: Literal["players_out"] = "players_out"
    players: list[str]
    playing: list[str]  # everyone still in the game, seat order


class DealEnded(_Frozen):
    kind: Literal["deal_ended"] = "deal_ended"
    deal: int
    chips: dict[str, int]
    pot: int
    next_dealer: str | None  # None when the game ends with this deal


class GameOver(_Frozen):
    kind: Literal["game_over"] = "game_over"
    reason: OverReason
    standings: list[Standing]
    chips: dict[str, int]
    pot: int  # chips left in the pot stay on the table's pot account (rule 31)


Event = Annotated[
    ChipTransfer
    | DealStarted
    | DiceThrown
    | Exchanged
    | ExchangeDone
    | BidMade
    | Passed
    | AuctionWon
    | AuctionNoWinner
    | RethrowsEnded
    | Stage1Result
    | NoMatch
    | Stage2Winner
    | Stage2NoWinner
    | CardPlayed
    | TrickWon
    | PotSplit
    | Stage4Eligible
    | Stage4Result
    | PlayersOut
    | DealEnded
    | GameOver,
    Field(discriminator="kind"),
]


# --- views ----------------------------------------------------------------------------------------


class PublicView(BaseModel):
    """What everyone at the table may see."""

    players: list[str]  # seat order
    chips: dict[str, int]
    pot: int
    deal: int
    max_deals: int | None
    dealer: str
    phase: Phase
    stage: int  # 1 (exchange, auction, re-throws), 3 (tricks), 4 (second dice round)
    current_player: str | None
    dice: list[Rank]
    stock_count: int
    hand_counts: dict[str, int]
    exchanges: dict[str, int]  # exchanges made this deal
    auction: Auction | None
    rethrower: str | None
    rethrows_left: int
    shown_hand: ShownHand | None  # the stage-1 winner's hand, for the rest of the deal
    stage2_winner: str | None
    stage2_description: str | None
    trump: Suit | None
    trick: list[TrickPlay]  # the trick being played
    last_trick: list[TrickPlay]  # the trick completed last
    tricks_won: dict[str, int]
    won_cards: dict[str, list[Card]]
    eligible: list[str]  # stage 4
    is_over: bool
    over_reason: str | None
    standings: list[Standing] = []  # every player's result once the game is over (empty before)
    # the house rules (docs/rules.md section 3) and who is still in the game
    sevens: Sevens = "hearts-spades"
    bust: Bust = "ends"
    stage4: Stage4 = "on"
    playing: list[str] = []  # players still in the game, seat order: all of them unless `bust` is "out"
    out: list[str] = []  # players out of the game (`bust="out"`), the first to go first


class PlayerView(PublicView):
    """One player's view: the public facts plus his own hand."""

    player: str
    hand: list[Card]
