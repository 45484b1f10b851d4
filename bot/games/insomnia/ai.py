"""The Insomnia computer player. It decides from the player's view only (its hand, the public table).

- Exchange: keep the hand whose expected worth is highest, averaging exactly over every card it could draw.
  A hand is worth what the stage-1 auction it will face is worth with it, by the same look-ahead the bidding
  uses (a win worth the payout the bought re-throws are likely to bring), plus its stage-2 chance (its
  percentile among all hands of the deck, to the power of the number of opponents) times the chance that
  the game outlives that auction.
- Auction: look the auction ahead to its end (`ai_auction`), the rivals taken as choosing evenly among
  their options, and take the action with the best expected outcome: a win is worth the payout the re-throws
  it buys are likely to bring (from every payer, capped by his chips), less the bid net of its pot share.
  With many rivals this means a jump bid to all but one chip for a hand that can match (a cheap bid is
  overtaken at once); against one or two, a cheap bid that can be renewed; never the last chip.
- Re-throws: throw again a die that its hand (stage 4: the best reachable 4 of its won cards) does not need;
  stop once it matches.
- Tricks: win as cheaply as it can, otherwise throw its cheapest card; lead a card no unseen card can beat,
  else a low one; the first lead (which fixes trumps) comes from its longest, strongest suit.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from bot.games.cards import Card, Rank, Suit
from bot.games.insomnia.ai_auction import NONE, RIVAL, RIVAL_ALL_IN, AuctionModel
from bot.games.insomnia.hands import DICE_FACES, deck_for, dice_pattern, hand_value, trick_winner
from bot.games.insomnia.models import Action, Bid, Exchange, Pass, Play, PlayerView, PublicView, Rethrow

MAX_RETHROWS = 40  # more re-throws than this no longer move the chance of matching
EXCHANGE_MARGIN = 0.05  # chips: exchange only for a real expected gain
_FACES = frozenset(DICE_FACES)
_PASS = Pass()
# Insomnia's decks have no joker: every card has a rank and a suit.
_RANK: dict[Card, int] = {c: int(rank) for c in deck_for(8) if (rank := c.rank) is not None}
_SUIT: dict[Card, Suit] = {c: suit for c in deck_for(8) if (suit := c.suit) is not None}


def choose(view: PlayerView, public: PublicView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The action for the player whose view this is; always one of `legal`."""
    phase = view.phase
    if phase == "exchange":
        return _exchange(view, legal, rng)
    if phase == "auction":
        return _auction(view, legal)
    if phase == "rethrow":
        return _rethrow(view, legal)
    if phase == "tricks":
        return _play(view, legal)
    return legal[0]


# --- dice arithmetic ------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _p_match(need: tuple[int, ...], rethrows: int) -> float:
    """The chance that `rethrows` single-die re-throws, each of a die not yet needed, bring every rank of
    `need` (a sorted multiset of ranks still missing from the dice) up. Each throw hits a missing rank with
    probability (distinct missing ranks) / 6; a hit is kept, a miss is thrown again."""
    if not need:
        return 1.0
    if rethrows <= 0 or any(r not in _FACES for r in need):
        return 0.0
    distinct = sorted(set(need))
    miss = 1.0 - len(distinct) / 6
    total = miss * _p_match(need, rethrows - 1)
    for rank in distinct:
        rest = list(need)
        rest.remove(rank)
        total += _p_match(tuple(rest), rethrows - 1) / 6
    return total


def _missing(target: tuple[int, ...], dice: list[Rank]) -> tuple[int, ...]:
    """The ranks of `target` the dice do not show yet (multiset difference), sorted."""
    left = Counter(target)
    left.subtract(Counter(int(d) for d in dice))
    return tuple(sorted(r for r, k in left.items() for _ in range(max(k, 0))))


def _surplus_die(target: tuple[int, ...], dice: list[Rank]) -> int | None:
    """A die (1-4) whose face `target` does not need, or None when every die is needed."""
    wanted = Counter(target)
    surplus = None
    for i, die in enumerate(dice):
        if wanted[int(die)] > 0:
            wanted[int(die)] -= 1
        elif surplus is None:
            surplus = i + 1
    return surplus


def _payout_worth(target: tuple[int, ...], payers: list[int]) -> float:
    """Chips a match on `target` would collect: its rule-14 amount from every payer, capped by their chips."""
    _pattern, amount = dice_pattern([Rank(r) for r in target])
    return float(sum(min(amount, chips) for chips in payers))


def _shape(need: tuple[int, ...]) -> tuple[int, ...]:
    """`need` with its ranks renamed in order of multiplicity: every face is equally likely, so the chance of
    matching depends only on how many of each rank are missing. A rank no die shows maps to (0,)."""
    if any(r not in _FACES for r in need):
        return (0,)
    counts = sorted(Counter(need).values(), reverse=True)
    return tuple(int(DICE_FACES[i]) for i, k in enumerate(counts) for _ in range(k))


def _win_value(targets: list[tuple[tuple[int, ...], float]], share: float) -> Callable[[int], float]:
    """What winning the auction at each bid is worth (the `AuctionModel`'s `win_value`): the payout the
    re-throws it buys are likely to bring, for the best of `targets` ((missing ranks, payout) pairs), less the
    bid net of its pot share. A bid above that expected payout is ruled out (-inf): the pot share may come
    back, but only if the computer also takes the tricks, and bidders more cautious than the model's rivals
    would let it overpay for its re-throws."""

    def value(bid: int) -> float:
        rethrows = min(2 * bid, MAX_RETHROWS)
        payout = max((_p_match(need, rethrows) * worth for need, worth in targets), default=0.0)
        if bid > payout:
            return float("-inf")
        return payout - bid * (1.0 - share)

    return value


# --- stage 2 percentile ---------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _scores(deck_size: int) -> list[int]:
    """The sorted stage-2 scores of every 4-card hand of the deck of this size (24, 30 or 32 cards)."""
    players = {24: 2, 30: 5, 32: 8}[deck_size]
    return sorted(hand_value(h).score for h in combinations(deck_for(players), 4))


def _stage2_worth(hand: list[Card], n_players: int, deck_size: int) -> float:
    """The stage-2 payout times the chance that no opponent's hand is better (each taken as a random hand)."""
    value = hand_value(hand)
    if value.category is None:
        return 0.0
    return _percentile_worth(value.score, n_players, deck_size)


@lru_cache(maxsize=65536)
def _percentile_worth(score: int, n_players: int, deck_size: int) -> float:
    scores = _scores(deck_size)
    beats = bisect_left(scores, score) / len(scores)
    return 2.0 * (n_players - 1) * beats ** (n_players - 1)


# --- stage 1a: exchange ---------------------------------------------------------------------------


class _Worth:
    """A hand's expected worth before the auction: what the auction it will face is worth with it, looked
    ahead to its end by the same model the bidding uses (`_auction_worth`), plus its stage-2 chance.
    Memoised within one decision: the exchange averages over every unseen card, and many of those hands
    share their ranks."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        playing = view.playing  # everyone, unless some went out (house rule H2)
        self.n = len(playing)
        self.deck = _deck(view)
        self.deck_size = len(self.deck)
        self.payers = _payers(view)
        me = playing.index(view.player)
        seats, dealer = len(view.players), view.players.index(view.dealer)
        order = [  # the stage-1 bidders (rule 10), from the dealer's left
            p for i in range(1, seats + 1) if (p := view.players[(dealer + i) % seats]) in playing
        ]
        self.seat = order.index(view.player)
        self.rivals = tuple(view.chips[playing[(me + i) % self.n]] for i in range(1, self.n))
        self.chips = view.chips[view.player]
        self.matches: dict[tuple[int, ...], tuple[float, float]] = {}

    def match(self, target: tuple[int, ...]) -> tuple[float, float]:
        """The auction's expected value with a hand on these ranks, and the chance the game outlives it."""
        cached = self.matches.get(target)
        if cached is None:
            need = _shape(_missing(target, self.view.dice))
            worth = _payout_worth(target, self.payers) if need != (0,) else 0.0
            cached = self.matches[target] = _auction_worth(need, worth, self.rivals, self.chips, self.seat)
        return cached

    def __call__(self, hand: list[Card]) -> float:
        target = tuple(sorted(_RANK[c] for c in hand))
        auction, goes_on = self.match(target)
        return auction + goes_on * _stage2_worth(hand, self.n, self.deck_size)


@lru_cache(maxsize=4096)
def _auction_worth(
    need: tuple[int, ...],
    worth: float,
    rivals: tuple[int, ...],
    chips: int,
    seat: int,
) -> tuple[float, float]:
    """The stage-1 auction's expected value, from before anyone bids, to a computer player whose hand misses
    `need` from the dice for a match worth `worth` (`need` is `_shape`d: hands alike in this share the
    look-ahead), and the chance that the game goes on after it (the stage-2 payout is worth only that)."""
    share = 1.0 / (len(rivals) + 1)
    win = _win_value([(need, worth)], share)
    stand = worth if not need else 0.0
    model = AuctionModel(0, list(rivals), chips, win, share, stand)
    return model.opening(seat), model.goes_on(seat)


def _exchange(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    hand = list(view.hand)
    worth = _Worth(view)
    unseen = [c for c in worth.deck if c not in hand]
    best_value = worth(hand) + EXCHANGE_MARGIN
    best_actions: list[Action] = [_PASS]
    for action in legal:
        if not isinstance(action, Exchange):
            continue
        kept = [c for c in hand if c != action.card]
        value = sum(worth([*kept, c]) for c in unseen) / len(unseen)
        if value > best_value + 1e-9:
            best_value, best_actions = value, [action]
        elif abs(value - best_value) <= 1e-9:
            best_actions.append(action)
    return best_actions[0] if len(best_actions) == 1 else rng.choice(best_actions)


# --- stage 1b/4: auctions and re-throws -----------------------------------------------------------


def _targets(view: PlayerView) -> list[tuple[int, ...]]:
    """The rank multisets a match could be on: the hand (stage 1), or any 4 of the won cards (stage 4)."""
    if view.stage == 1:
        return [tuple(sorted(_RANK[c] for c in view.hand))]
    counts = Counter(_RANK[c] for c in view.won_cards.get(view.player, []) if c.rank in _FACES)
    found: list[tuple[int, ...]] = []
    for combo in combinations_with_replacement(sorted(counts), 4):
        if all(combo.count(r) <= counts[r] for r in set(combo)):
            found.append(combo)
    return found


def _payers(view: PlayerView) -> list[int]:
    return [view.chips[p] for p in view.players if p != view.player]


def _auction(view: PlayerView, legal: Sequence[Action]) -> Action:
    auction = view.auction
    if auction is None:  # never in the auction phase
        return _PASS
    me = view.player
    share = 1.0 / len(view.playing)  # of the pot the bid feeds: on average the trick winner's
    payers = _payers(view)
    targets = [(_missing(t, view.dice), _payout_worth(t, payers)) for t in _targets(view)]
    matched_now = max((worth for need, worth in targets if not need), default=0.0)

    bidders = auction.bidders
    seat = bidders.index(me)
    rivals = [view.chips[bidders[(seat + i) % len(bidders)]] for i in range(1, len(bidders))]
    holder = NONE
    if auction.high_bidder is not None:
        holder = RIVAL_ALL_IN if view.chips[auction.high_bidder] == auction.high_bid else RIVAL
    win_value = _win_value(targets, share)
    model = AuctionModel(auction.high_bid, rivals, view.chips[me], win_value, share, matched_now)
    _value, amount = model.best(holder, auction.passes)
    if amount:
        action = Bid(amount=amount)
        if action in legal:
            return action
    return _PASS


def _rethrow(view: PlayerView, legal: Sequence[Action]) -> Action:
    payers = _payers(view)
    best_target, best_value = None, 0.0
    for target in _targets(view):
        need = _missing(target, view.dice)
        if not need:
            return _PASS  # matching already: another throw could only lose it
        value = _p_match(need, view.rethrows_left) * _payout_worth(target, payers)
        if value > best_value:
            best_target, best_value = target, value
    if best_target is None:
        return _PASS
    die = _surplus_die(best_target, view.dice)
    return _PASS if die is None else Rethrow(die=die)


# --- stage 3: tricks ------------------------------------------------------------------------------


def _cost(card: Card, trump: Suit | None) -> int:
    """What giving up a card costs: its rank, and trumps above every plain card."""
    return _RANK[card] + (20 if card.suit == trump else 0)


def _unseen(view: PlayerView) -> list[Card]:
    seen = set(view.hand)
    for cards in view.won_cards.values():
        seen.update(cards)
    seen.update(p.card for p in view.trick)
    return [c for c in _deck(view) if c not in seen]


def _deck(view: PlayerView) -> list[Card]:
    """This deal's deck: by the players still in the game and the table's sevens (rule 2, house rule H1)."""
    return deck_for(len(view.playing), view.sevens)


def _sure_winner(card: Card, trump: Suit | None, unseen: list[Card]) -> bool:
    """No card still out could take this card if it were led now."""
    for other in unseen:
        if other.suit == card.suit and other.key > card.key:  # within a suit the key orders by rank
            return False
        if trump is not None and card.suit != trump and other.suit == trump:
            return False
    return True


def _play(view: PlayerView, legal: Sequence[Action]) -> Action:
    cards: list[Card] = [a.card for a in legal if isinstance(a, Play)]
    trump = view.trump
    plays = [p.card for p in view.trick]
    if not plays:
        if trump is None:
            # This lead fixes trumps: the longest suit, then the strongest, and its best card.
            by_suit: dict[Suit, list[Card]] = {}
            for c in cards:
                by_suit.setdefault(_SUIT[c], []).append(c)
            suit = max(by_suit, key=lambda s: (len(by_suit[s]), sum(_RANK[c] for c in by_suit[s]), s))
            return Play(card=max(by_suit[suit]))
        unseen = _unseen(view)
        winners = [c for c in cards if _sure_winner(c, trump, unseen)]
        if winners:
            return Play(card=min(winners, key=lambda c: (_cost(c, trump), c)))
        return Play(card=min(cards, key=lambda c: (_cost(c, trump), c)))
    position = len(plays)
    winning = [c for c in cards if trick_winner([*plays, c], trump) == position]
    if winning:
        last = position == len(view.playing) - 1
        if not last:
            # Others still play: prefer the cheapest card none of the unseen cards could beat.
            unseen = _unseen(view)
            safe = [c for c in winning if _holds(plays, c, trump, unseen)]
            if safe:
                return Play(card=min(safe, key=lambda c: (_cost(c, trump), c)))
        return Play(card=min(winning, key=lambda c: (_cost(c, trump), c)))
    return Play(card=min(cards, key=lambda c: (_cost(c, trump), c)))


def _holds(plays: list[Card], card: Card, trump: Suit | None, unseen: list[Card]) -> bool:
    """This card, winning the trick now, would still win whatever unseen card came after it."""
    position = len(plays)
    return all(trick_winner([*plays, card, other], trump) == position for other in unseen)
