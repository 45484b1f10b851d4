"""Insomnia's auctions for re-throws and the re-throws themselves (rules 10-12, 27).

Stage 1b and stage 4 run the same auction among different bidders. Each step reports whether the dice are to
be settled now; which payout follows is the deal flow's business (`game.py`).
"""

from __future__ import annotations

from bot.games.base import POT, ChipTransfer, IllegalAction
from bot.games.insomnia.hands import DICE_FACES
from bot.games.insomnia.models import (
    Action,
    Auction,
    AuctionNoWinner,
    AuctionWon,
    Bid,
    BidMade,
    DiceStage,
    DiceThrown,
    Pass,
    Passed,
    Rethrow,
    RethrowsEnded,
)
from bot.games.insomnia.payouts import Payouts
from bot.games.insomnia.state import Events


class Auctions(Payouts):
    """The auction (bids and passes, the winner pays into the pot) and the winner's re-throws."""

    def _auction(self) -> Auction:
        """The running auction (the auction phase always has one)."""
        if self.auction is None:
            raise IllegalAction("insomnia.refusal.no_auction")
        return self.auction

    def _start_auction(self, stage: DiceStage, bidders: list[str]) -> None:
        self.phase = "auction"
        self.stage = stage
        self.auction = Auction(stage=stage, bidders=bidders)
        self.turn = bidders[0]

    def _apply_auction(self, action: Action, events: Events) -> bool:
        """A bid or a pass. True when the dice are settled now, as they lie: nobody won the auction (or its
        winner left the game with his bid, house rule H2)."""
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
            return self._auction_won(events)
        if auction.high_bidder is None and auction.passes >= k:
            events.append(AuctionNoWinner(stage=auction.stage))
            self.auction = None
            return True
        auction.turn = (auction.turn + 1) % k
        self.turn = auction.bidders[auction.turn]
        return False

    def _auction_won(self, events: Events) -> bool:
        """Rule 11: only the winner pays, into the pot; then his re-throws (unless the chips ended the game).
        True when the dice are settled as they are: his bid was his last chip and he left the game (H2)."""
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
            return False
        if winner in self.out:
            return True
        self.phase = "rethrow"
        self.rethrower = winner
        self.rethrows_left = 2 * amount
        self.turn = winner
        return False

    def _apply_rethrow(self, action: Action, events: Events) -> bool:
        """One re-throw, or stopping. True when the re-throws are over: the dice are settled now."""
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
                return False
        elif not isinstance(action, Pass):
            raise IllegalAction("insomnia.refusal.rethrow_now")
        events.append(
            RethrowsEnded(stage=stage, player=player, unused=self.rethrows_left, dice=list(self.dice))
        )
        self.rethrower = None
        self.rethrows_left = 0
        return True
