"""The Malice computer player: plan the rest of the turn, play its first step.

From the player's view (its hand, its side stacks, the centre, both payoff tops) a depth-first search runs
over every sequence of centre plays still possible this turn (hand cards, the payoff top, side-stack tops,
jokers as whatever rank a stack needs), each ending with the end of the turn or one side play. A sequence
scores:

- 100 per payoff card played (the race itself), and the win when the pile empties;
- a small cost per joker spent (a joker is the most flexible card, so it goes only where it buys something);
- a little per hand or side card moved to the centre, and more for emptying the hand (which draws 5 more);
- at the end of the turn, a penalty when a centre stack needs exactly the opponent's payoff top (or one or two
  ranks below it): that would hand him his next payoff card;
- the side play's worth: a card one rank below (or equal to) the stack's top keeps the stack a descending run
  that later plays out in order; never a joker. An empty slot is worth keeping while few are left. Under
  house rule H4 "required" the last one is worth keeping most of all: it takes any card but an ace, so while
  it is free the player always has a side play and a turn never ends idle, and a player without a move hands
  the game to an opponent ahead of him (rule 16). Keeping it raised the share of computer games won by
  emptying a payoff pile under H4 from about 46% to 65% (100 seeded games each). Under the standard rule 12
  a turn may end without a side play anyway, and keeping the slot only cost games against random players
  (92% won instead of 96%), so there it is worth what any empty slot is.

Malice is a race, and rule 16 lets the player ahead end it when both end a turn idle: so while the computer
is behind (more payoff cards left) it never ends a turn without having moved a card if any move is legal,
whatever the scores say (a bad move costs less than handing the opponent the game).

A payoff card's successor is hidden until it is turned, so the search stops looking at the payoff pile once
it plays the top; the next call (one per action) plans again with the new card. States reached by different
orders are searched once (a transposition table), so a call costs well under a millisecond on typical hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from bot.games.cards import Card
from bot.games.malice.models import EndTurn, MalicePublicView, MaliceView, Play
from bot.games.malice.piles import CENTRE_INDEX, SIDE_INDEX, VALUE

PAYOFF = 100.0
WIN = 100_000.0
JOKER_COST = 12.0
HAND_CARD = 2.0
SIDE_CARD = 3.0
REFILL = 15.0
SIDE_PLAY = 4.0
SIDE_JOKER = -30.0
# The cost of filling an empty side slot, by how many are empty before: under rule 12, and under H4.
FILL_SLOT = {1: 3.0}
FILL_SLOT_REQUIRED = {2: 4.0, 1: 60.0}
DANGER = {0: -50.0, 1: -15.0, 2: -5.0}  # by how many ranks a centre stack stays below the opponent's top
PROMISE = {1: 4.0, 2: 2.0}  # the same for our own payoff top (it may still need a card or two)
IDLE_EVEN = 30.0
IDLE_BEHIND = 60.0
MAX_NODES = 20_000  # a safety net: no real hand comes near it

_CENTRE = CENTRE_INDEX
_SIDE = SIDE_INDEX
# A search state: hand values, side-stack pointers, centre needs, payoff top, payoff cards left, moved.
State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, bool]


def _value(card: Card) -> int:
    return VALUE[card]  # the joker is 0


def _accepts(stack: tuple[int, ...], value: int) -> bool:
    """Rule 11 on a stack of values (0 = joker): never an ace; a joker anywhere; else the same rank as the
    nearest non-joker from the top, or one lower."""
    if value == 1:
        return False
    if value == 0:
        return True
    for v in reversed(stack):
        if v:
            return value in (v, v - 1)
    return True


def _advance(needs: tuple[int, ...], need: int) -> tuple[int, ...]:
    """The sorted needs after a card goes on a stack needing `need`; a king completes the stack (rule 10)."""
    rest = list(needs)
    rest.remove(need)
    rest.append(1 if need == 13 else need + 1)
    return tuple(sorted(rest))


class _Planner:
    """One turn's search; built per call from the views."""

    def __init__(self, view: MaliceView, public: MalicePublicView) -> None:
        me = view.player
        opponent = next(p for p in public.players if p != me)
        self.sides = tuple(tuple(_value(c) for c in stack) for stack in public.side[me])
        opp_top = public.payoff_top.get(opponent)
        self.opp_top = _value(opp_top) if opp_top is not None else None
        self.my_count = public.payoff_counts[me]
        self.opp_count = public.payoff_counts[opponent]
        self.stock = public.stock_count
        self.idle = public.idle_turns
        self.fill = FILL_SLOT_REQUIRED if public.discard == "required" else FILL_SLOT
        self.memo: dict[State, float] = {}
        self.nodes = 0

    # -- scoring the end of the turn

    def _board(self, needs: tuple[int, ...], payoff: int) -> float:
        """What the centre leaves to the opponent (and to us): the danger and promise terms."""
        score = 0.0
        if self.opp_top is not None:
            gaps = [self.opp_top - d for d in needs if d <= self.opp_top]
            if gaps:
                score += DANGER.get(min(gaps), 0.0)
        if payoff > 0:
            gaps = [payoff - d for d in needs if d <= payoff]
            if gaps:
                score += PROMISE.get(min(gaps), 0.0)
        return score

    def end_value(self, needs: tuple[int, ...], payoff: int, left: int, moved: bool) -> float:
        """Ending the turn now without a side play."""
        if not moved and self.idle >= 1:
            # Rule 16: two idle turns in a row end the game; fewer payoff cards wins.
            if left < self.opp_count:
                return WIN
            return -WIN if left > self.opp_count else -PAYOFF
        score = self._board(needs, payoff)
        if not moved and left >= self.opp_count:
            # An idle turn lets the opponent end the game by idling too: a draw, or his win when behind.
            score -= IDLE_EVEN if left == self.opp_count else IDLE_BEHIND
        return score

    def side_value(self, value: int, stack: tuple[int, ...], empty_slots: int) -> float:
        """The worth of one side play of a card of `value` onto `stack` (already checked legal)."""
        if value == 0:
            return SIDE_PLAY + SIDE_JOKER
        score = SIDE_PLAY
        if not stack:
            return score + (value - 7) * 0.5 - self.fill.get(empty_slots, 0.0)
        ref = next((v for v in reversed(stack) if v), 0)
        if value == ref - 1:
            score += 4.0
        elif value == ref:
            score += 2.0
        return score

    def best_side(self, hand: tuple[int, ...], sides: tuple[tuple[int, ...], ...]) -> float:
        empty = sum(1 for s in sides if not s)
        best = float("-inf")
        for value in set(hand):
            for stack in sides:
                if _accepts(stack, value):
                    best = max(best, self.side_value(value, stack, empty))
        return best

    # -- the search

    def search(
        self,
        hand: tuple[int, ...],
        ptrs: tuple[int, ...],
        needs: tuple[int, ...],
        payoff: int,
        left: int,
        moved: bool,
    ) -> float:
        """The best score still to come from this state (`payoff` -1: the top is not known yet)."""
        if left == 0:
            return WIN
        key = (hand, ptrs, needs, payoff, left, moved)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        sides = tuple(stack[:n] for stack, n in zip(self.sides, ptrs, strict=True))
        must_ace = 1 in needs and (1 in hand or payoff == 1)
        best = float("-inf")
        if not must_ace:
            best = self.end_value(needs, payoff, left, moved)
            if hand:
                best = max(best, self.best_side(hand, sides) + self._board(needs, payoff))
        if not hand and self.stock > 0 and moved:
            # The hand refills with 5 unseen cards (rule 13): the next call plans with them.
            best = max(best, REFILL + self._board(needs, payoff))
        elif self.nodes < MAX_NODES:
            for gain, state in self.moves(hand, ptrs, needs, payoff, left):
                best = max(best, gain + self.search(*state))
        self.memo[key] = best
        return best

    def moves(
        self, hand: tuple[int, ...], ptrs: tuple[int, ...], needs: tuple[int, ...], payoff: int, left: int
    ) -> Iterator[tuple[float, State]]:
        """Every centre play from this state, as (immediate gain, next state)."""
        distinct_needs = sorted(set(needs))
        if payoff > 0 and payoff in needs:
            yield PAYOFF, (hand, ptrs, _advance(needs, payoff), -1, left - 1, True)
        for i, n in enumerate(ptrs):
            if not n:
                continue
            top = self.sides[i][n - 1]
            nptrs = (*ptrs[:i], n - 1, *ptrs[i + 1 :])
            if top:
                if top in needs:
                    yield SIDE_CARD, (hand, nptrs, _advance(needs, top), payoff, left, True)
            else:
                for need in distinct_needs:
                    yield SIDE_CARD - JOKER_COST, (hand, nptrs, _advance(needs, need), payoff, left, True)
        for value in sorted(set(hand)):
            rest = list(hand)
            rest.remove(value)
            nhand = tuple(rest)
            if value:
                if value in needs:
                    yield HAND_CARD, (nhand, ptrs, _advance(needs, value), payoff, left, True)
            else:
                for need in distinct_needs:
                    yield HAND_CARD - JOKER_COST, (nhand, ptrs, _advance(needs, need), payoff, left, True)


def choose(
    view: MaliceView, public: MalicePublicView, legal: Sequence[Play | EndTurn], rng: random.Random
) -> Play | EndTurn:
    """Score every legal action by the best turn it starts; the first best wins (payoff plays are tried first,
    so equal plans reveal the next payoff card sooner)."""
    planner = _Planner(view, public)
    me = view.player
    hand = tuple(sorted(_value(c) for c in view.hand))
    ptrs = tuple(len(s) for s in planner.sides)
    slots = [len(stack) + 1 for stack in public.centre]
    needs = tuple(sorted(slots))
    top = public.payoff_top.get(me)
    payoff = _value(top) if top is not None else -1
    left = planner.my_count
    moved = view.moved_this_turn
    empty = sum(1 for s in planner.sides if not s)

    def score(action: object) -> float:
        if isinstance(action, EndTurn):
            return planner.end_value(needs, payoff, left, moved)
        assert isinstance(action, Play)
        value = _value(action.card) if action.card is not None else _source_value(action, planner, payoff)
        if action.to in _SIDE:
            stack = planner.sides[_SIDE[action.to]]
            return planner.side_value(value, stack, empty) + planner._board(needs, payoff)
        need = slots[_CENTRE[action.to]]
        nneeds = _advance(needs, need)
        joker = JOKER_COST if value == 0 else 0.0
        if action.source == "payoff":
            return PAYOFF + planner.search(hand, ptrs, nneeds, -1, left - 1, True)
        if action.source == "hand":
            rest = list(hand)
            rest.remove(value)
            return HAND_CARD - joker + planner.search(tuple(rest), ptrs, nneeds, payoff, left, True)
        i = _SIDE[action.source]
        nptrs = (*ptrs[:i], ptrs[i] - 1, *ptrs[i + 1 :])
        return SIDE_CARD - joker + planner.search(hand, nptrs, nneeds, payoff, left, True)

    order = {"payoff": 0, "side1": 1, "side2": 1, "side3": 1, "side4": 1, "hand": 2}
    ranked = sorted(legal, key=lambda a: order.get(getattr(a, "source", ""), 3))
    if not moved and left > planner.opp_count and any(isinstance(a, Play) for a in ranked):
        ranked = [a for a in ranked if isinstance(a, Play)]  # behind: never idle while a move is legal
    best, choice = float("-inf"), ranked[0]
    for action in ranked:
        value = score(action)
        if value > best + 1e-9:
            best, choice = value, action
    return choice


def _source_value(action: Play, planner: _Planner, payoff: int) -> int:
    """The value of the card a play moves when the action leaves the card out (a pile top)."""
    if action.source == "payoff":
        return payoff
    stack = planner.sides[_SIDE[action.source]]
    return stack[-1]
