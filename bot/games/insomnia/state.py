"""The Insomnia game state: every field of a game, the seats around the table and what each viewer may see.

The role parts of the engine (`payouts.py`, `auction.py`, `tricks.py`) extend this state, and `game.py`
joins them into `InsomniaGame`, the deal flow: each part reads and changes the same pydantic fields, so a part
can be built and tested alone from a state (`Tricks(players=..., hands=..., ...)`), and the whole state is
still one JSON document. The fields are declared here only, in the order `model_dump_json()` has always
written them.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr

from bot.games.base import GameEvent, IllegalAction, SeededGame, Standing
from bot.games.cards import Card, Rank, Suit
from bot.games.insomnia.hands import Sevens, deck_for
from bot.games.insomnia.models import (
    Auction,
    Bid,
    Bust,
    Exchange,
    Pass,
    Phase,
    Play,
    PlayerView,
    PublicView,
    Rethrow,
    ShownHand,
    Stage4,
    TrickPlay,
)

# Plain lists of event models: typing them as the `Event` union would only matter to pydantic, and the hot
# path never validates them.
Events = list[GameEvent]

PASS = Pass()
RETHROWS = tuple(Rethrow(die=d) for d in (1, 2, 3, 4))
# Actions are frozen values, so legal_actions() hands out shared instances instead of validating new ones.
PLAYS = {c: Play(card=c) for c in deck_for(8)}
EXCHANGES = {c: Exchange(card=c) for c in deck_for(8)}
_BIDS: list[Bid] = []


def bid(amount: int) -> Bid:
    """The shared `Bid` of this amount."""
    while len(_BIDS) <= amount:
        _BIDS.append(Bid(amount=len(_BIDS)))
    return _BIDS[amount]


class InsomniaState(SeededGame):
    """Everything an Insomnia game is (hidden cards included), and the questions every part asks of it."""

    players: list[str]
    starting_chips: dict[str, int]  # each player's chips at the start (the net of rule 31 is against this)
    max_deals: int | None = None
    chips: dict[str, int]
    pot: int = 0
    deal: int = 0  # deals started so far
    dealer: int = 0  # seat index
    phase: Phase = "exchange"
    stage: int = 1
    turn: str | None = None
    over_reason: str | None = None
    # hidden: hands, stock (top card first) and discards
    hands: dict[str, list[Card]] = {}
    stock: list[Card] = []
    discards: list[Card] = []
    # public
    dice: list[Rank] = []
    exchange_index: int = 0  # how many players have finished their exchange turn this deal
    exchanges: dict[str, int] = {}
    auction: Auction | None = None
    rethrower: str | None = None
    rethrows_left: int = 0
    shown_hand: ShownHand | None = None
    stage2_winner: str | None = None
    stage2_description: str | None = None
    trump: Suit | None = None
    trick: list[TrickPlay] = []
    last_trick: list[TrickPlay] = []
    tricks_played: int = 0
    tricks_won: dict[str, int] = {}
    won_cards: dict[str, list[Card]] = {}
    eligible: list[str] = []
    # The house rules (docs/rules.md section 3) and who went out under H2 (player -> the step he left in):
    # written into the JSON only when they differ from the standard rules, so a game of the standard rules
    # keeps the JSON it always had (stored games replay byte for byte: tests/games/test_stored_games.py).
    sevens: Sevens = Field(default="hearts-spades", exclude_if=lambda v: v == "hearts-spades")
    bust: Bust = Field(default="ends", exclude_if=lambda v: v == "ends")
    stage4: Stage4 = Field(default="on", exclude_if=lambda v: v == "on")
    out: dict[str, int] = Field(default_factory=dict, exclude_if=lambda v: not v)
    _opening: Events = PrivateAttr(default_factory=list)

    # --- reading the state ----------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        return self.turn

    @property
    def opening_events(self) -> Events:
        """The events of `new_game()` (first deal and throw), for the first announcement. Not serialised."""
        return list(self._opening)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def _mover(self) -> str:
        """The player whose decision is awaited (the phases that wait for one always set it)."""
        if self.turn is None:
            raise IllegalAction("table.game_over")
        return self.turn

    # --- the seats ------------------------------------------------------------------------------------

    def _playing(self) -> list[str]:
        """The players still in the game, in seat order: everyone, unless some went out (house rule H2)."""
        out = self.out
        return [p for p in self.players if p not in out] if out else list(self.players)

    def _seat_order(self, first: int) -> list[str]:
        """The players still in the game, from seat index `first` round the table."""
        n, out = len(self.players), self.out
        return [p for i in range(n) if (p := self.players[(first + i) % n]) not in out]

    def _left_of_dealer(self) -> list[str]:
        return self._seat_order(self.dealer + 1)

    def _left_of(self, player: str) -> str:
        """The next player still in the game after `player`."""
        return self._seat_order(self.players.index(player) + 1)[0]

    # --- views and results ----------------------------------------------------------------------------

    def view(self, player: str) -> PlayerView:
        """What `player` may see: the public facts and his own hand (empty for a spectator)."""
        return PlayerView(**self._public_fields(), player=player, hand=list(self.hands.get(player, [])))

    def public_view(self) -> PublicView:
        return PublicView(**self._public_fields())

    def standings(self) -> list[Standing]:
        """Rule 31: most chips wins; equal totals share a placement (and the win). Under house rule H2 the
        players out of the game place below those still in, the first to go out last (those who went out in
        the same step share a placement)."""
        out = self.out

        def rank(p: str) -> tuple[int, int]:
            return (1, -out[p]) if p in out else (0, -self.chips[p])

        order = sorted(self.players, key=rank)
        result = []
        for i, p in enumerate(order):
            placement = 1 + sum(1 for q in order[:i] if rank(q) < rank(p))
            result.append(
                Standing(
                    player=p,
                    placement=placement,
                    net=self.chips[p] - self.starting_chips[p],
                    final_chips=self.chips[p],
                    won=placement == 1,
                )
            )
        return result

    def _public_fields(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "chips": dict(self.chips),
            "pot": self.pot,
            "deal": self.deal,
            "max_deals": self.max_deals,
            "dealer": self.players[self.dealer],
            "phase": self.phase,
            "stage": self.stage,
            "current_player": self.turn,
            "dice": list(self.dice),
            "stock_count": len(self.stock),
            "hand_counts": {p: len(self.hands.get(p, ())) for p in self.players},
            "exchanges": dict(self.exchanges),
            "auction": self.auction.model_copy(update={"bidders": list(self.auction.bidders)})
            if self.auction
            else None,
            "rethrower": self.rethrower,
            "rethrows_left": self.rethrows_left,
            "shown_hand": self.shown_hand,
            "stage2_winner": self.stage2_winner,
            "stage2_description": self.stage2_description,
            "trump": self.trump,
            "trick": list(self.trick),
            "last_trick": list(self.last_trick),
            "tricks_won": dict(self.tricks_won),
            "won_cards": {p: list(c) for p, c in self.won_cards.items()},
            "eligible": list(self.eligible),
            "is_over": self.is_over,
            "over_reason": self.over_reason,
            "standings": self.standings() if self.is_over else [],
            "sevens": self.sevens,
            "bust": self.bust,
            "stage4": self.stage4,
            "playing": self._playing(),
            "out": sorted(self.out, key=self.out.__getitem__),
        }
