"""The Insomnia game and its deal flow (docs/rules.md section 1).

A deal runs: deal and throw -> exchange -> auction -> re-throws -> stage-1 payout -> stage-2 payout -> four
tricks -> pot -> stage-4 throw -> auction among the eligible -> re-throws -> stage-4 payout -> next deal (the
house rules of section 3 may leave stage 4 out, change the deck, and let players without chips leave). Only
the exchange, the auctions, the re-throws and the tricks wait for a player; everything between them runs
inside the `apply()` that completed the previous decision, and its events are returned by that call.

`InsomniaGame` is the dealer and the deal flow: it deals, runs the exchange and decides which step comes next.
The steps themselves are role parts over the same state (`state.py`), each testable alone: the auctions and
re-throws (`auction.py`), the tricks (`tricks.py`) and the payouts and the end of the game (`payouts.py`).

The whole state is pydantic fields (hidden cards included), so `model_dump_json()` is the complete game and a
round trip continues identically. Chance comes only from the game's `Chance` (`SeededGame._shuffle()`,
`_throw_dice()`, `_draw_index()`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from pydantic import ValidationError

from bot.games.base import ActionInput, IllegalAction
from bot.games.chance import Chance
from bot.games.insomnia.auction import Auctions
from bot.games.insomnia.hands import DICE_FACES, Sevens, deck_for
from bot.games.insomnia.models import (
    Action,
    Bust,
    DealEnded,
    DealStarted,
    DiceStage,
    DiceThrown,
    EndGame,
    Exchange,
    Exchanged,
    ExchangeDone,
    Pass,
    Stage4,
    Stage4Eligible,
    parse_action,
)
from bot.games.insomnia.payouts import STAGE2_PAYOUT
from bot.games.insomnia.state import EXCHANGES, PASS, PLAYS, RETHROWS, Events, bid
from bot.games.insomnia.tricks import Tricks

__all__ = ["PASS", "STAGE2_PAYOUT", "Events", "InsomniaGame", "new_game"]


class InsomniaGame(Auctions, Tricks):
    """One game of Insomnia at one table. Mutated in place by `apply()`."""

    # --- the API --------------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, each once (never `end_game`); empty only when over."""
        phase = self.phase
        if phase == "tricks":
            return [PLAYS[c] for c in self._playable(self._mover())]
        if phase == "auction":
            bids = [bid(a) for a in range(self._auction().high_bid + 1, self.chips[self._mover()] + 1)]
            return [*bids, PASS]
        if phase == "exchange":
            return [*(EXCHANGES[c] for c in self.hands[self._mover()]), PASS]
        if phase == "rethrow":
            return [*RETHROWS, PASS]
        return []

    def default_action(self) -> Action | None:
        """What a turn timeout applies: no exchange, pass, stop re-throwing, or the lowest legal card; None
        once the game is over."""
        if self.phase == "tricks":
            return PLAYS[min(self._playable(self._mover()))]
        if self.is_over:
            return None
        return PASS

    def apply(self, action: ActionInput) -> Events:
        """Apply the current player's action (or the system's `end_game`); returns the public events, or
        raises `IllegalAction` (a catalogue key and its params) if it is not allowed."""
        try:
            action = parse_action(action)
        except ValidationError as error:
            raise IllegalAction("table.not_an_action") from error
        if self.is_over:
            raise IllegalAction("table.game_over")
        events: Events = []
        if isinstance(action, EndGame):
            self._finish("ended", events)
            return events
        phase = self.phase
        if phase == "exchange":
            self._apply_exchange(action, events)
        elif phase == "auction":
            if self._apply_auction(action, events):
                self._settle_dice(events)
        elif phase == "rethrow":
            if self._apply_rethrow(action, events):
                self._settle_dice(events)
        elif self._apply_play(action, events) and not self._share_pot(events):
            if self.stage4 == "on":
                self._start_stage4(events)
            else:
                self._end_deal(events)  # house rule H3: the deal ends after the tricks
        return events

    # --- the deal -------------------------------------------------------------------------------------

    def _reset_deal(self) -> None:
        self.exchange_index = 0
        self.exchanges = {p: 0 for p in self.players}
        self.discards = []
        self.auction = None
        self.rethrower = None
        self.rethrows_left = 0
        self.shown_hand = None
        self.stage2_winner = None
        self.stage2_description = None
        self.trump = None
        self.trick = []
        self.last_trick = []
        self.tricks_played = 0
        self.tricks_won = {p: 0 for p in self.players}
        self.won_cards = {p: [] for p in self.players}
        self.eligible = []
        self.stage = 1

    def _begin_deal(self, events: Events) -> None:
        """Rules 7-8: shuffle, deal 4 each from the dealer's left, throw the dice."""
        if self.max_deals is not None and self.deal >= self.max_deals:
            self._finish("deal_cap", events)
            return
        self.deal += 1
        self._reset_deal()
        order = self._left_of_dealer()  # everyone still in the game (house rule H2), from the dealer's left
        cards = deck_for(len(order), self.sevens)
        self._shuffle(cards)
        dealt = {p: sorted(cards[4 * i : 4 * i + 4]) for i, p in enumerate(order)}
        self.hands = {p: dealt.get(p, []) for p in self.players}
        self.stock = cards[4 * len(order) :]
        dealer = self.players[self.dealer]
        events.append(DealStarted(deal=self.deal, dealer=dealer, deck_size=len(cards), stock=len(self.stock)))
        self._throw(1, events)
        self._start_exchange(events)

    def _throw(self, stage: DiceStage, events: Events) -> None:
        dealer = self.players[self.dealer]
        if dealer in self.out:  # he went out during his deal (house rule H2): the next player throws
            dealer = self._left_of_dealer()[0]
        self.dice = self._throw_dice(DICE_FACES, 4)
        events.append(DiceThrown(stage=stage, player=dealer, dice=list(self.dice)))

    # stage 1a: exchange (rule 9)

    def _start_exchange(self, events: Events) -> None:
        self.phase = "exchange"
        self.stage = 1
        self.exchange_index = 0
        self._next_exchanger(events)

    def _next_exchanger(self, events: Events) -> None:
        """The turn to the next player who can still exchange; facing an empty stock, a player is passed."""
        order = self._left_of_dealer()
        while self.exchange_index < len(order):
            player = order[self.exchange_index]
            done = self.exchanges[player]
            if self.stock and done < 2:
                self.turn = player
                return
            events.append(ExchangeDone(player=player, exchanges=done, stock_empty=done < 2))
            self.exchange_index += 1
        self._start_auction(1, order)

    def _apply_exchange(self, action: Action, events: Events) -> None:
        player = self._mover()
        if isinstance(action, Pass):
            events.append(ExchangeDone(player=player, exchanges=self.exchanges[player], stock_empty=False))
            self.exchange_index += 1
        elif isinstance(action, Exchange):
            hand = self.hands[player]
            if action.card not in hand:
                raise IllegalAction("insomnia.refusal.exchange_not_held", card=action.card)
            hand.remove(action.card)
            self.discards.append(action.card)
            hand.append(self.stock.pop(0))
            hand.sort()
            self.exchanges[player] += 1
            events.append(Exchanged(player=player, count=self.exchanges[player]))
        else:
            raise IllegalAction("insomnia.refusal.exchange_now")
        self._next_exchanger(events)

    # after an auction and its re-throws: the dice are settled, then the deal goes on

    def _settle_dice(self, events: Events) -> None:
        if self.stage != 1:
            if not self._stage4_payout(events):
                self._end_deal(events)
            return
        if self._stage1_payout(events):
            return
        leader = self._stage2_payout(events)
        if leader is not None:
            self._start_tricks(leader)

    # stage 4: the second dice round (rules 26-29)

    def _start_stage4(self, events: Events) -> None:
        self.stage = 4
        self.eligible = [p for p in self._left_of_dealer() if len(self.won_cards[p]) >= 4]
        events.append(Stage4Eligible(players=list(self.eligible)))
        self._throw(4, events)
        self._start_auction(4, list(self.eligible))

    def _end_deal(self, events: Events) -> None:
        capped = self.max_deals is not None and self.deal >= self.max_deals
        next_dealer = None if capped else self._left_of_dealer()[0]
        events.append(
            DealEnded(deal=self.deal, chips=dict(self.chips), pot=self.pot, next_dealer=next_dealer)
        )
        if capped:
            self._finish("deal_cap", events)  # rule 32: nobody deals again, the last dealer stays the dealer
            return
        if next_dealer is not None:  # rule 29: the deal passes to the left (to the next player still in)
            self.dealer = self.players.index(next_dealer)
        self._begin_deal(events)


def new_game(
    players: Sequence[str],
    seed: str,
    *,
    chips: int = 15,
    max_deals: int | None = None,
    sevens: Sevens = "hearts-spades",
    bust: Bust = "ends",
    stage4: Stage4 = "on",
    chance: Chance | None = None,
) -> InsomniaGame:
    """A game for 2-8 player ids in seat order: the first dealer is drawn by lot, the deal begins.

    `sevens`, `bust` and `stage4` are the house rules H1-H3 of docs/rules.md section 3 (the defaults are the
    standard rules). Chance (the dealer, shuffles, throws) comes from `chance`, by default seeded from `seed`.
    """
    if not 2 <= len(players) <= 8:
        raise ValueError("Insomnia is for 2 to 8 players.")
    if len(set(players)) != len(players):
        raise ValueError("Every player may sit at the table only once.")
    if any(not p or p.startswith("@") for p in players):
        # "@..." are ledger accounts (the pot, rule 31): a player id there would blur whose chips are whose
        raise ValueError("A player id must be non-empty and must not start with '@'.")
    if chips < 1:
        raise ValueError("Each player needs at least 1 chip.")
    if max_deals is not None and max_deals < 1:
        raise ValueError("The deal cap must be at least 1.")
    for value, allowed in ((sevens, get_args(Sevens)), (bust, get_args(Bust)), (stage4, get_args(Stage4))):
        if value not in allowed:
            raise ValueError(f"{value!r} is not a house rule of Insomnia: choose {' or '.join(allowed)}.")
    game = InsomniaGame(
        seed=seed,
        players=list(players),
        starting_chips={p: chips for p in players},
        max_deals=max_deals,
        chips={p: chips for p in players},
        sevens=sevens,
        bust=bust,
        stage4=stage4,
    )
    game._use_chance(chance)
    game.dealer = game._draw_index(len(players))
    game._begin_deal(game._opening)
    return game
