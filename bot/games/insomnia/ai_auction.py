"""The Insomnia auction (rules 10-12, 27) looked ahead to its end, for the computer player.

The rivals' hands are unknown, so each rival is modelled as choosing evenly among his options: every bid he
can afford above the current one, and the pass. Under that model the rest of the auction is a small Markov
game, solved exactly by memoised look-ahead over (high bid, who holds it, passes in a row, whose turn); the
computer player takes the action with the best expected outcome. This matters in two ways:

- A bid is paid only if it wins, and a rival who has to outbid from a high bid has little room left: with
  many rivals a cheap bid is always overtaken, while a jump bid to near one's whole stack often stands (and a
  rival who bids his whole stack ends the game at once, rule 31, before anyone is paid).
- Against one or two rivals the cheap bid is better: if it is overtaken, the rival's bid feeds the pot the
  computer may take in the tricks, and the auction comes round again.

Outcome values, in chips relative to the auction not happening: the computer winning at `b` is worth
`win_value[b]` (its expected payout after the re-throws, less the bid net of its pot share); a rival winning
at `p` feeds the pot (`share * p`), unless `p` is his whole stack, which ends the game (worth 0); nobody
winning leaves the dice as they are (`stand_value`: the payout if the computer matches them now).
"""

from __future__ import annotations

from collections.abc import Callable

NONE, ME, RIVAL, RIVAL_ALL_IN = 0, 1, 2, 3


MAX_RAISE = 30  # bids more than this above the current one are not looked at (and keep the look-ahead small)


class AuctionModel:
    """The auction from the computer's turn: `rivals` are the other bidders' chips in turn order after it.

    `holder` is who holds the current high bid (one of NONE, ME, RIVAL, RIVAL_ALL_IN) and `passes` the passes
    in a row since the last bid (or since the start), as in the engine's `Auction`.
    """

    def __init__(
        self,
        high_bid: int,
        rivals: list[int],
        my_chips: int,
        win_value: Callable[[int], float],
        share: float,
        stand_value: float,
    ) -> None:
        self.k = len(rivals) + 1  # bidders, the computer included
        self.top = high_bid + MAX_RAISE
        # A rival richer than the top bid looked at is taken to stop there, without going all in.
        self.rivals = [min(chips, self.top) for chips in rivals]
        self.all_in = [chips <= self.top for chips in rivals]
        self.my_chips = min(my_chips, self.top + 1)
        self.high_bid = high_bid
        self.win_value = win_value
        self.share = share
        self.stand_value = stand_value
        self._wins: dict[int, float] = {}
        self._mine: dict[tuple[int, int, int], tuple[float, int]] = {}
        self._theirs: dict[tuple[int, int, int, int], float] = {}
        self._raises: dict[tuple[int, int], float] = {}

    def best(self, holder: int, passes: int) -> tuple[float, int]:
        """(expected value, bid) of the computer's best action now; bid 0 means pass."""
        return self._my_turn(self.high_bid, holder, passes)

    def opening(self, seat: int) -> float:
        """The expected value of the whole auction before anyone has acted, the computer being the bidder at
        `seat` in turn order (0: the first to bid; the rivals before it are the last of `rivals`)."""
        return self._next(len(self.rivals) - seat, self.high_bid, NONE, 0)

    def goes_on(self, seat: int) -> float:
        """The chance that the game outlives the auction of `opening(seat)` (no rival stakes his whole stack,
        rule 31), the computer acting as `opening` found best: what later stages of the deal are worth to it
        is worth only that share. Call `opening(seat)` first (this walks the decisions it memoised)."""
        self._going: dict[tuple[int, int, int, int], float] = {}
        return self._goes_on(len(self.rivals) - seat, self.high_bid, NONE, 0)

    def _goes_on(self, index: int, high_bid: int, holder: int, passes: int) -> float:
        if (holder != NONE and passes >= self.k - 1) or (holder == NONE and passes >= self.k):
            return 0.0 if holder == RIVAL_ALL_IN else 1.0
        key = (index, high_bid, holder, passes)
        found = self._going.get(key)
        if found is not None:
            return found
        if index == len(self.rivals):
            bid = self._mine[(high_bid, holder, passes)][1]
            found = self._goes_on(0, bid, ME, 0) if bid else self._goes_on(0, high_bid, holder, passes + 1)
        else:
            chips = self.rivals[index]
            found = self._goes_on(index + 1, high_bid, holder, passes + 1)
            if chips > high_bid:
                found += sum(self._goes_on(index + 1, bid, RIVAL, 0) for bid in range(high_bid + 1, chips))
                found += self._goes_on(index + 1, chips, RIVAL_ALL_IN if self.all_in[index] else RIVAL, 0)
                found /= chips - high_bid + 1
        self._going[key] = found
        return found

    # --- outcomes ----------------------------------------------------------------------------------

    def _won(self, bid: int) -> float:
        value = self._wins.get(bid)
        if value is None:
            value = self._wins[bid] = self.win_value(bid)
        return value

    def _ended(self, high_bid: int, holder: int) -> float:
        if holder == ME:
            return self._won(high_bid)
        if holder == RIVAL:
            return self.share * high_bid
        if holder == RIVAL_ALL_IN:
            return 0.0  # he pays his last chip: the game is over before any payout
        return self.stand_value

    def _next(self, index: int, high_bid: int, holder: int, passes: int) -> float:
        """The value once rival `index` (0: the first after the computer) acts, or the auction is over."""
        if holder != NONE and passes >= self.k - 1:
            return self._ended(high_bid, holder)
        if holder == NONE and passes >= self.k:
            return self._ended(high_bid, NONE)
        if index == len(self.rivals):
            return self._my_turn(high_bid, holder, passes)[0]
        return self._rival_turn(index, high_bid, holder, passes)

    # --- turns -------------------------------------------------------------------------------------

    def _my_turn(self, high_bid: int, holder: int, passes: int) -> tuple[float, int]:
        key = (high_bid, holder, passes)
        found = self._mine.get(key)
        if found is not None:
            return found
        best = (self._next(0, high_bid, holder, passes + 1), 0)
        # Never the whole stack: a player at 0 chips ends the game at once (rule 31), the bid lost.
        for bid in range(high_bid + 1, self.my_chips):
            value = self._next(0, bid, ME, 0)
            if value > best[0] + 1e-12:
                best = (value, bid)
        self._mine[key] = best
        return best

    def _rival_turn(self, index: int, high_bid: int, holder: int, passes: int) -> float:
        key = (index, high_bid, holder, passes)
        found = self._theirs.get(key)
        if found is not None:
            return found
        chips = self.rivals[index]
        passed = self._next(index + 1, high_bid, holder, passes + 1)
        if chips <= high_bid:
            value = passed  # he cannot outbid: he can only pass
        else:
            options = chips - high_bid + 1
            value = (passed + self._raised(index, high_bid)) / options
        self._theirs[key] = value
        return value

    def _raised(self, index: int, high_bid: int) -> float:
        """The summed value of every raise rival `index` could make over `high_bid` (shared by all holders
        and pass counts, hence cached apart)."""
        key = (index, high_bid)
        found = self._raises.get(key)
        if found is None:
            chips = self.rivals[index]
            found = sum(self._next(index + 1, bid, RIVAL, 0) for bid in range(high_bid + 1, chips))
            found += self._next(index + 1, chips, RIVAL_ALL_IN if self.all_in[index] else RIVAL, 0)
            self._raises[key] = found
        return found
