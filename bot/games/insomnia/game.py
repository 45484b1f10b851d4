"""The Insomnia game state and its state machine (docs/rules.md section 1).

A deal runs: deal and throw -> exchange -> auction -> re-throws -> stage-1 payout -> stage-2 payout -> four
tricks -> pot -> stage-4 throw -> auction among the eligible -> re-throws -> stage-4 payout -> next deal. Only
the exchange, the auctions, the re-throws and the tricks wait for a player; everything between them runs
inside the `apply()` that completed the previous decision, and its events are returned by that call.

The whole state is pydantic fields (hidden cards included), so `model_dump_json()` is the complete game and a
round trip continues identically. Chance comes only from the game's `Chance` (`SeededGame._shuffle()`,
`_throw_dice()`, `_draw_index()`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import PrivateAttr, ValidationError

from bot.games.base import POT, ActionInput, ChipTransfer, GameEvent, IllegalAction, SeededGame, Standing
from bot.games.cards import Card, Rank, Suit
from bot.games.chance import Chance
from bot.games.insomnia.hands import (
    DICE_FACES,
    best_match,
    deck_for,
    dice_pattern,
    hand_value,
    match_key,
    trick_winner,
)
from bot.games.insomnia.models import (
    Action,
    Auction,
    AuctionNoWinner,
    AuctionWon,
    Bid,
    BidMade,
    CardPlayed,
    DealEnded,
    DealStarted,
    DiceStage,
    DiceThrown,
    EndGame,
    Exchange,
    Exchanged,
    ExchangeDone,
    GameOver,
    NoMatch,
    OverReason,
    Pass,
    Passed,
    Phase,
    Play,
    PlayerView,
    PotSplit,
    PublicView,
    Rethrow,
    RethrowsEnded,
    ShownHand,
    Stage1Result,
    Stage2NoWinner,
    Stage2Winner,
    Stage4Eligible,
    Stage4Result,
    TrickPlay,
    TrickWon,
    parse_action,
)

STAGE2_PAYOUT = 2  # rule 19
PASS = Pass()
_RETHROWS = tuple(Rethrow(die=d) for d in (1, 2, 3, 4))
# Actions are frozen values, so legal_actions() hands out shared instances instead of validating new ones.
_PLAYS = {c: Play(card=c) for c in deck_for(8)}
_EXCHANGES = {c: Exchange(card=c) for c in deck_for(8)}
_BIDS: list[Bid] = []


def _bid(amount: int) -> Bid:
    while len(_BIDS) <= amount:
        _BIDS.append(Bid(amount=len(_BIDS)))
    return _BIDS[amount]


# Plain lists of event models: typing them as the `Event` union would only matter to pydantic, and the hot
# path never validates them.
Events = list[GameEvent]


class InsomniaGame(SeededGame):
    """One game of Insomnia at one table. Mutated in place by `apply()`."""

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
    _opening: Events = PrivateAttr(default_factory=list)

    # --- the API --------------------------------------------------------------------------------------

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

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, each once (never `end_game`); empty only when over."""
        phase = self.phase
        if phase == "tricks":
            return [_PLAYS[c] for c in self._playable(self._mover())]
        if phase == "auction":
            bids = [_bid(a) for a in range(self._auction().high_bid + 1, self.chips[self._mover()] + 1)]
            return [*bids, PASS]
        if phase == "exchange":
            return [*(_EXCHANGES[c] for c in self.hands[self._mover()]), PASS]
        if phase == "rethrow":
            return [*_RETHROWS, PASS]
        return []

    def default_action(self) -> Action | None:
        """What a turn timeout applies: no exchange, pass, stop re-throwing, or the lowest legal card; None
        once the game is over."""
        if self.phase == "tricks":
            return _PLAYS[min(self._playable(self._mover()))]
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
            self._apply_auction(action, events)
        elif phase == "rethrow":
            self._apply_rethrow(action, events)
        else:
            self._apply_play(action, events)
        return events

    def view(self, player: str) -> PlayerView:
        """What `player` may see: the public facts and his own hand (empty for a spectator)."""
        return PlayerView(**self._public_fields(), player=player, hand=list(self.hands.get(player, [])))

    def public_view(self) -> PublicView:
        return PublicView(**self._public_fields())

    def standings(self) -> list[Standing]:
        """Rule 31: most chips wins; equal totals share a placement (and the win)."""
        order = sorted(self.players, key=lambda p: -self.chips[p])
        result = []
        for i, p in enumerate(order):
            placement = 1 + sum(1 for q in order[:i] if self.chips[q] > self.chips[p])
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

    # --- the state machine: a deal --------------------------------------------------------------------

    def _mover(self) -> str:
        """The player whose decision is awaited (the phases that wait for one always set it)."""
        if self.turn is None:
            raise IllegalAction("table.game_over")
        return self.turn

    def _auction(self) -> Auction:
        """The running auction (the auction phase always has one)."""
        if self.auction is None:
            raise IllegalAction("insomnia.refusal.no_auction")
        return self.auction

    def _seat_order(self, first: int) -> list[str]:
        n = len(self.players)
        return [self.players[(first + i) % n] for i in range(n)]

    def _left_of_dealer(self) -> list[str]:
        return self._seat_order(self.dealer + 1)

    def _left_of(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

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
        cards = deck_for(len(self.players))
        self._shuffle(cards)
        order = self._left_of_dealer()
        dealt = {p: sorted(cards[4 * i : 4 * i + 4]) for i, p in enumerate(order)}
        self.hands = {p: dealt[p] for p in self.players}
        self.stock = cards[4 * len(order) :]
        dealer = self.players[self.dealer]
        events.append(DealStarted(deal=self.deal, dealer=dealer, deck_size=len(cards), stock=len(self.stock)))
        self._throw(1, events)
        self._start_exchange(events)

    def _throw(self, stage: DiceStage, events: Events) -> None:
        self.dice = self._throw_dice(DICE_FACES, 4)
        events.append(DiceThrown(stage=stage, player=self.players[self.dealer], dice=list(self.dice)))

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
        self._start_auction(1, order, events)

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

    # stage 1b and stage 4: auctions (rules 10-11, 27) and re-throws (rule 12)

    def _start_auction(self, stage: DiceStage, bidders: list[str], events: Events) -> None:
        self.phase = "auction"
        self.stage = stage
        self.auction = Auction(stage=stage, bidders=bidders)
        self.turn = bidders[0]

    def _apply_auction(self, action: Action, events: Events) -> None:
        auction = self._auction()
        player = self._mover()
        have = self.chips[player]
        if isinstance(action, Bid):
            # Rule 10: who cannot outbid the high bid can only pass; tell him that, whatever amount he tried.
            if auction.high_bid >= have:
                raise IllegalAction("insomnia.refusal.cannot_outbid", high=auction.high_bid, n=have)
            if action.amount <= auction.high_bid or action.amount < 1:
                if auction.high_bid == 0:
                    raise IllegalAction("insomnia.refusal.bid_at_least_one")
                raise IllegalAction("insomnia.refusal.bid_more", n=auction.high_bid)
            if action.amount > have:
                raise IllegalAction("insomnia.refusal.bid_at_most", n=have)
            auction.high_bid = action.amount
            auction.high_bidder = player
            auction.passes = 0
            events.append(BidMade(stage=auction.stage, player=player, amount=action.amount))
        elif isinstance(action, Pass):
            auction.passes += 1
            events.append(Passed(stage=auction.stage, player=player))
        elif auction.high_bid >= have:
            raise IllegalAction("insomnia.refusal.auction_cannot_outbid", high=auction.high_bid, n=have)
        else:
            raise IllegalAction("insomnia.refusal.auction_now")
        k = len(auction.bidders)
        if auction.high_bidder is not None and auction.passes >= k - 1:
            self._auction_won(events)
        elif auction.high_bidder is None and auction.passes >= k:
            events.append(AuctionNoWinner(stage=auction.stage))
            self.auction = None
            self._resolve_dice(events)
        else:
            auction.turn = (auction.turn + 1) % k
            self.turn = auction.bidders[auction.turn]

    def _auction_won(self, events: Events) -> None:
        auction = self._auction()
        winner, amount, stage = auction.high_bidder, auction.high_bid, auction.stage
        if winner is None:
            raise IllegalAction("insomnia.refusal.no_bid")
        self.auction = None
        events.append(AuctionWon(stage=stage, player=winner, amount=amount, rethrows=2 * amount))
        self.chips[winner] -= amount
        self.pot += amount
        events.append(
            ChipTransfer(
                from_account=winner,
                to_account=POT,
                amount=amount,
                reason="bid" if stage == 1 else "stage4_bid",
            )
        )
        if self._end_check(events):
            return
        self.phase = "rethrow"
        self.rethrower = winner
        self.rethrows_left = 2 * amount
        self.turn = winner

    def _apply_rethrow(self, action: Action, events: Events) -> None:
        player = self._mover()
        stage: DiceStage = 1 if self.stage == 1 else 4
        if isinstance(action, Rethrow):
            if action.die not in (1, 2, 3, 4):
                raise IllegalAction("insomnia.refusal.which_die")
            self.dice[action.die - 1] = self._throw_dice(DICE_FACES, 1)[0]
            self.rethrows_left -= 1
            events.append(
                DiceThrown(
                    stage=stage,
                    player=player,
                    dice=list(self.dice),
                    rethrown_die=action.die,
                    rethrows_left=self.rethrows_left,
                )
            )
            if self.rethrows_left > 0:
                return
        elif not isinstance(action, Pass):
            raise IllegalAction("insomnia.refusal.rethrow_now")
        events.append(
            RethrowsEnded(stage=stage, player=player, unused=self.rethrows_left, dice=list(self.dice))
        )
        self.rethrower = None
        self.rethrows_left = 0
        self._resolve_dice(events)

    def _resolve_dice(self, events: Events) -> None:
        if self.stage == 1:
            self._stage1_payout(events)
        else:
            self._stage4_payout(events)

    # stage 1c: the dice payout (rules 13-16)

    def _stage1_payout(self, events: Events) -> None:
        pattern, amount = dice_pattern(self.dice)
        matching = [p for p in self.players if best_match(self.hands[p], self.dice) is not None]
        if not matching:
            events.append(NoMatch(stage=1, dice=list(self.dice), pattern=pattern))
        else:
            winner = max(matching, key=lambda p: match_key(self.hands[p]))
            shown = sorted(self.hands[winner], reverse=True)
            self.shown_hand = ShownHand(player=winner, cards=shown)
            events.append(
                Stage1Result(winner=winner, hand=shown, dice=list(self.dice), pattern=pattern, amount=amount)
            )
            if self._collect(winner, amount, "stage1_payout", events):
                return
        self._stage2(events)

    # stage 2: the best hand (rules 17-20)

    def _stage2(self, events: Events) -> None:
        values = {p: hand_value(self.hands[p]) for p in self.players}
        best = max(self.players, key=values.__getitem__)
        value = values[best]
        if value.category is None:
            leader = self._left_of_dealer()[0]
            events.append(Stage2NoWinner(leader=leader))
        else:
            leader = best
            self.stage2_winner = best
            self.stage2_description = value.description
            events.append(
                Stage2Winner(
                    winner=best, category=value.category, description=value.description, amount=STAGE2_PAYOUT
                )
            )
            if self._collect(best, STAGE2_PAYOUT, "stage2_payout", events):
                return
        self.phase = "tricks"
        self.stage = 3
        self.turn = leader

    # stage 3: tricks (rules 21-25)

    def _playable(self, player: str) -> list[Card]:
        hand = self.hands[player]
        if self.trick:
            led = self.trick[0].card.suit
            follow = [c for c in hand if c.suit == led]
            if follow:
                return follow
        return list(hand)

    def _apply_play(self, action: Action, events: Events) -> None:
        if not isinstance(action, Play):
            raise IllegalAction("insomnia.refusal.tricks_now")
        player, card = self._mover(), action.card
        hand = self.hands[player]
        if card not in hand or card.suit is None:  # Insomnia's decks have no joker
            raise IllegalAction("insomnia.refusal.play_not_held", card=card)
        if self.trick:
            led = self.trick[0].card.suit
            if led is not None and card.suit != led and any(c.suit == led for c in hand):
                raise IllegalAction("insomnia.refusal.follow_suit", suit=led)
        hand.remove(card)
        trump = self.trump
        if trump is None:
            trump = self.trump = card.suit  # rule 22: the first card led in this stage fixes trumps
        self.trick.append(TrickPlay(player=player, card=card))
        events.append(CardPlayed(player=player, card=card, trick=self.tricks_played + 1, trump=trump))
        if len(self.trick) < len(self.players):
            self.turn = self._left_of(player)
            return
        plays = self.trick
        winner = plays[trick_winner([p.card for p in plays], self.trump)].player
        self.tricks_played += 1
        self.tricks_won[winner] += 1
        self.won_cards[winner].extend(p.card for p in plays)
        self.last_trick = plays
        self.trick = []
        events.append(TrickWon(trick=self.tricks_played, winner=winner, plays=plays))
        if self.tricks_played < 4:
            self.turn = winner
            return
        if self._share_pot(events):
            return
        self._start_stage4(events)

    def _share_pot(self, events: Events) -> bool:
        most = max(self.tricks_won.values())
        winners = [p for p in self.players if self.tricks_won[p] == most]
        pot = self.pot
        share = pot // len(winners)
        self.pot = pot - share * len(winners)
        events.append(
            PotSplit(winners=winners, tricks=dict(self.tricks_won), pot=pot, share=share, remainder=self.pot)
        )
        if share:
            for p in winners:
                self.chips[p] += share
                events.append(ChipTransfer(from_account=POT, to_account=p, amount=share, reason="pot_split"))
            return self._end_check(events)
        return False

    # stage 4: the second dice round (rules 26-29)

    def _start_stage4(self, events: Events) -> None:
        self.stage = 4
        self.eligible = [p for p in self._left_of_dealer() if len(self.won_cards[p]) >= 4]
        events.append(Stage4Eligible(players=list(self.eligible)))
        self._throw(4, events)
        self._start_auction(4, list(self.eligible), events)

    def _stage4_payout(self, events: Events) -> None:
        pattern, amount = dice_pattern(self.dice)
        sets = {p: m for p in self.eligible if (m := best_match(self.won_cards[p], self.dice)) is not None}
        matching = list(sets)  # in the order of the eligible: the first of equal keys wins, as in max()
        if not matching:
            events.append(NoMatch(stage=4, dice=list(self.dice), pattern=pattern))
        else:
            winner = max(matching, key=lambda p: match_key(sets[p]))
            events.append(
                Stage4Result(
                    winner=winner, cards=sets[winner], dice=list(self.dice), pattern=pattern, amount=amount
                )
            )
            if self._collect(winner, amount, "stage4_payout", events):
                return
        self._end_deal(events)

    def _end_deal(self, events: Events) -> None:
        n = len(self.players)
        capped = self.max_deals is not None and self.deal >= self.max_deals
        next_dealer = None if capped else self.players[(self.dealer + 1) % n]
        events.append(
            DealEnded(deal=self.deal, chips=dict(self.chips), pot=self.pot, next_dealer=next_dealer)
        )
        if capped:
            self._finish("deal_cap", events)  # rule 32: nobody deals again, the last dealer stays the dealer
            return
        self.dealer = (self.dealer + 1) % n  # rule 29: the deal passes to the left
        self._begin_deal(events)

    # paying and the end (rules 30-32)

    def _collect(self, winner: str, amount: int, reason: str, events: Events) -> bool:
        """Every other player pays `winner` up to `amount` (rule 30), all at once; then the end check."""
        for p in self.players:
            paid = min(amount, self.chips[p]) if p != winner else 0
            if paid:
                self.chips[p] -= paid
                self.chips[winner] += paid
                events.append(ChipTransfer(from_account=p, to_account=winner, amount=paid, reason=reason))
        return self._end_check(events)

    def _end_check(self, events: Events) -> bool:
        """Rule 31: after a step that moved chips, a player with 0 chips ends the game at once."""
        if min(self.chips.values()) > 0:
            return False
        self._finish("out_of_chips", events)
        return True

    def _finish(self, reason: OverReason, events: Events) -> None:
        self.phase = "over"
        self.turn = None
        self.auction = None
        self.over_reason = reason
        events.append(
            GameOver(reason=reason, standings=self.standings(), chips=dict(self.chips), pot=self.pot)
        )

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
        }


def new_game(
    players: Sequence[str],
    seed: str,
    *,
    chips: int = 15,
    max_deals: int | None = None,
    chance: Chance | None = None,
) -> InsomniaGame:
    """A game for 2-8 player ids in seat order: the first dealer is drawn by lot, the deal begins.

    Chance (the dealer, shuffles, throws) comes from `chance`, by default seeded from `seed`.
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
    game = InsomniaGame(
        seed=seed,
        players=list(players),
        starting_chips={p: chips for p in players},
        max_deals=max_deals,
        chips={p: chips for p in players},
    )
    game._use_chance(chance)
    game.dealer = game._draw_index(len(players))
    game._begin_deal(game._opening)
    return game
