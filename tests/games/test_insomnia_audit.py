"""An independent audit of the Insomnia engine against docs/rules.md section 1.

Two parts:
- `Referee`: a second, deliberately plain implementation of rules 1-32, written from the rule text and not
  from the engine. Random games are played on the engine and on the referee side by side; after every action
  the two must agree on everything a player would notice (whose turn, what he may do, chips, pot, dice, hands,
  trumps, tricks, who is paid what and why, when and how the game ends). Chance is taken from the engine (the
  dealt cards and the dice it throws) and checked for shape only (the right deck, faces 9-A, a re-throw
  changes only the chosen die).
- Table-driven edge cases, named by rule, for what the random games rarely reach.

The random games run at the standard rules and at each house rule of section 3 (H1 `sevens`, H2 `bust`, H3
`stage4`), alone and all together; the referee reads those rules from their text too.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.games.base import POT, ChipTransfer, IllegalAction
from bot.games.cards import Card, Rank, Suit, parse_cards
from bot.games.insomnia import (
    Bid,
    Exchange,
    InsomniaGame,
    Pass,
    Play,
    Rethrow,
    deck_for,
    dice_pattern,
    hand_value,
    matches_dice,
    new_game,
)
from tests.refusals import english

from .insomnia_helpers import act, dice, first, kinds, pass_to, rig, transfers
from .test_insomnia_hands import brute_category, brute_key

FACES = [Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE]


def rule2_deck(n: int, sevens: str = "hearts-spades") -> set[str]:
    """Rule 2, read literally; H1 `all`: "all four sevens, 32 cards, as at 8 players"."""
    if sevens == "all" and 5 <= n <= 7:
        n = 8
    ranks = "9 10 J Q K A" if n <= 4 else "8 9 10 J Q K A" if n <= 7 else "7 8 9 10 J Q K A"
    cards = {r + s for r in ranks.split() for s in "DCHS"}
    return cards | ({"7H", "7S"} if 5 <= n <= 7 else set())


def rule14(throw: list[Rank]) -> tuple[str, int]:
    counts = sorted(Counter(throw).values(), reverse=True)
    if counts == [4]:
        return "four_of_a_kind", 8
    if sorted(throw) in ([9, 10, 11, 12], [10, 11, 12, 13], [11, 12, 13, 14]):
        return "sequence", 6
    if counts == [3, 1]:
        return "three_of_a_kind", 5
    if counts == [2, 2]:
        return "two_pair", 4
    if counts == [2, 1, 1]:
        return "pair", 3
    return "high_card", 2


def rule15_key(cards) -> tuple:
    """Sorted by rank then suit, both high to low (compared card by card)."""
    return tuple(sorted(((int(c.rank), int(c.suit)) for c in cards), reverse=True))


def rule13(cards, throw) -> bool:
    return sorted(c.rank for c in cards) == sorted(throw)


class Referee:
    """Rules 1-32 as plain code. Fed the engine's chance; everything else it decides by itself."""

    def __init__(self, game: InsomniaGame, opening: list, house: dict[str, str]) -> None:
        self.players = list(game.players)
        self.house = {"sevens": "hearts-spades", "bust": "ends", "stage4": "on", **house}
        self.out: list[str] = []  # H2: who left the game, in order
        self.start = dict(game.chips)
        self.chips = dict(game.chips)
        self.pot = game.pot
        self.max_deals = game.max_deals
        self.deal = 0
        self.over: str | None = None
        self.turn: str | None = None
        self.log: list = []  # (what, details) the referee expects, compared with the engine's events
        self.dealer = self.players.index(first(opening, "deal_started").dealer)
        self.new_deal(game, opening)

    # -- helpers
    @property
    def n(self) -> int:
        """The players at the table still in the game (H2 "the others play on")."""
        return len(self.players) - len(self.out)

    def around(self, seat: int) -> list[str]:
        """The players still in, from the seat after `seat` round the table (the seat's own player last)."""
        k = len(self.players)
        order = [self.players[(seat + 1 + i) % k] for i in range(k)]
        return [p for p in order if p not in self.out]

    def left_of_dealer(self) -> list[str]:
        return self.around(self.dealer)

    def left_of(self, p: str) -> str:
        return self.around(self.players.index(p))[0]

    def thrower(self) -> str:
        """The dealer throws; if he went out during his deal (H2), the next player still in (a decision)."""
        dealer = self.players[self.dealer]
        return dealer if dealer not in self.out else self.left_of_dealer()[0]

    def pay(self, payer: str, payee: str, amount: int, reason: str) -> None:
        if amount:
            self.chips[payer] -= amount
            if payee == POT:
                self.pot += amount
            else:
                self.chips[payee] += amount
            self.log.append(("chips", (payer, payee, amount, reason)))

    def from_pot(self, payee: str, amount: int) -> None:
        self.pot -= amount
        self.chips[payee] += amount
        self.log.append(("chips", (POT, payee, amount, "pot_split")))

    def end_check(self) -> bool:
        """Rule 31, after a step that moved chips; H2 `out`: "a player with no chips leaves the game and the
        others play on; the game ends when one player holds chips"."""
        broke = [p for p in self.players if self.chips[p] == 0 and p not in self.out]
        if not broke:
            return False
        if self.house["bust"] == "ends":
            self.finish("out_of_chips")
            return True
        self.out += broke
        for p in broke:
            self.hands[p] = []
        self.eligible = [p for p in self.eligible if p not in broke]
        self.log.append(("players_out", tuple(broke)))
        if self.n == 1:
            self.finish("out_of_chips")
            return True
        return False

    def finish(self, reason: str) -> None:
        self.over = reason
        self.turn = None
        self.phase = "over"
        best = max(self.chips.values())
        self.log.append(("game_over", (reason, sorted(p for p in self.players if self.chips[p] == best))))

    # -- a deal (rules 7-9)
    def new_deal(self, game: InsomniaGame, events: list) -> None:
        if self.max_deals is not None and self.deal >= self.max_deals:
            self.finish("deal_cap")  # rule 32
            return
        self.deal += 1
        started = [e for e in events if e.kind == "deal_started"][-1]
        assert started.dealer == self.players[self.dealer] and started.deal == self.deal
        self.hands = {p: sorted(game.hands[p]) for p in self.players}
        self.stock = list(game.stock)
        dealt = [str(c) for h in self.hands.values() for c in h] + [str(c) for c in self.stock]
        assert len(dealt) == len(set(dealt)) and set(dealt) == rule2_deck(self.n, self.house["sevens"])
        assert all(len(h) == (0 if p in self.out else 4) for p, h in self.hands.items())
        throw = [e for e in events if e.kind == "dice_thrown"][-1]
        assert throw.stage == 1 and throw.rethrown_die is None and throw.player == self.players[self.dealer]
        self.take_throw(throw)
        self.won = {p: [] for p in self.players}
        self.tricks = {p: 0 for p in self.players}
        self.trick: list[tuple[str, Card]] = []
        self.trump = None
        self.played = 0
        self.stage = 1
        self.eligible: list[str] = []
        self.phase = "exchange"
        self.order = self.left_of_dealer()
        self.exchanged = {p: 0 for p in self.players}
        self.ex_turn = 0
        self.next_exchanger()

    def take_throw(self, throw) -> None:
        assert len(throw.dice) == 4 and all(d in FACES for d in throw.dice)
        self.dice = list(throw.dice)

    def next_exchanger(self) -> None:
        # rule 9: once around from the dealer's left; with an empty stock a player can only pass
        while self.ex_turn < self.n:
            p = self.order[self.ex_turn]
            if self.stock and self.exchanged[p] < 2:
                self.turn = p
                return
            self.ex_turn += 1
        self.start_auction(1, self.left_of_dealer())

    # -- auctions (rules 10-12, 27)
    def start_auction(self, stage: int, bidders: list[str]) -> None:
        self.phase, self.stage = "auction", stage
        self.bidders, self.bid_turn = bidders, 0
        self.high, self.high_bidder, self.since_bid = 0, None, []
        self.turn = bidders[0]

    def legal(self) -> set[str]:
        p = self.turn
        if self.phase == "exchange":
            return {f"x {c}" for c in self.hands[p]} | {"pass"}
        if self.phase == "auction":
            return {f"bid {a}" for a in range(max(1, self.high + 1), self.chips[p] + 1)} | {"pass"}
        if self.phase == "rethrow":
            return {"r 1", "r 2", "r 3", "r 4", "pass"}
        if self.phase == "tricks":
            hand = self.hands[p]
            if self.trick:
                led = self.trick[0][1].suit
                if any(c.suit == led for c in hand):
                    return {str(c) for c in hand if c.suit == led}
            return {str(c) for c in hand}
        return set()

    def apply(self, move: str, game: InsomniaGame, events: list) -> None:
        assert move in self.legal()
        p = self.turn
        if self.phase == "exchange":
            if move == "pass":
                self.ex_turn += 1
            else:
                card = Card.parse(move[2:])
                self.hands[p].remove(card)
                self.hands[p] = sorted([*self.hands[p], self.stock.pop(0)])
                self.exchanged[p] += 1
            self.next_exchanger()
        elif self.phase == "auction":
            if move == "pass":
                self.since_bid.append(p)
            else:
                self.high, self.high_bidder, self.since_bid = int(move[4:]), p, []
            others = set(self.bidders) - {self.high_bidder}
            if self.high_bidder is not None and set(self.since_bid) >= others:
                winner, amount = self.high_bidder, self.high
                self.log.append(("auction_won", (self.stage, winner, amount, 2 * amount)))
                self.pay(winner, POT, amount, "bid" if self.stage == 1 else "stage4_bid")
                if self.end_check():
                    return
                if winner in self.out:  # H2: his bid was his last chip; he has left, the dice stay as thrown
                    self.resolve_dice(game, events)
                    return
                self.phase, self.turn, self.left = "rethrow", winner, 2 * amount
            elif self.high_bidder is None and set(self.since_bid) == set(self.bidders):
                self.log.append(("auction_no_winner", (self.stage,)))
                self.resolve_dice(game, events)
            else:
                self.bid_turn = (self.bid_turn + 1) % len(self.bidders)
                self.turn = self.bidders[self.bid_turn]
        elif self.phase == "rethrow":
            if move != "pass":
                die = int(move[2:])
                throw = next(e for e in events if e.kind == "dice_thrown")
                assert throw.rethrown_die == die and throw.player == p
                assert [d for i, d in enumerate(throw.dice) if i != die - 1] == [
                    d for i, d in enumerate(self.dice) if i != die - 1
                ]
                self.take_throw(throw)
                self.left -= 1
            if move == "pass" or self.left == 0:
                self.log.append(("rethrows_ended", (p, 0 if move != "pass" else self.left)))
                self.resolve_dice(game, events)
        elif self.phase == "tricks":
            self.play(Card.parse(move), game, events)

    def resolve_dice(self, game: InsomniaGame, events: list) -> None:
        if self.stage == 1:
            self.stage1(game, events)
        else:
            self.stage4(game, events)

    # -- stage 1c (rules 13-16)
    def stage1(self, game, events) -> None:
        pattern, amount = rule14(self.dice)
        matching = [p for p in self.players if p not in self.out and rule13(self.hands[p], self.dice)]
        if matching:
            winner = max(matching, key=lambda p: rule15_key(self.hands[p]))
            self.log.append(("stage1_result", (winner, pattern, amount)))
            for p in self.players:
                if p != winner:
                    self.pay(p, winner, min(amount, self.chips[p]), "stage1_payout")
            if self.end_check():
                return
        else:
            self.log.append(("no_match", (1, pattern)))
        self.stage2(game, events)

    # -- stage 2 (rules 17-20)
    def stage2(self, game, events) -> None:
        best = max((p for p in self.players if p not in self.out), key=lambda p: brute_key(self.hands[p]))
        category = brute_category(self.hands[best])
        if category is None:
            leader = self.left_of_dealer()[0]
            self.log.append(("stage2_no_winner", (leader,)))
        else:
            leader = best
            self.log.append(("stage2_winner", (best, category)))
            for p in self.players:
                if p != best:
                    self.pay(p, best, min(2, self.chips[p]), "stage2_payout")
            if self.end_check():
                return
        self.phase, self.stage, self.turn = "tricks", 3, leader

    # -- stage 3 (rules 21-25)
    def play(self, card: Card, game, events) -> None:
        p = self.turn
        self.hands[p].remove(card)
        if self.played == 0 and not self.trick:
            self.trump = card.suit  # rule 22
        self.trick.append((p, card))
        if len(self.trick) < self.n:
            self.turn = self.left_of(p)
            return
        led = self.trick[0][1].suit
        trumps = [(c.rank, q) for q, c in self.trick if c.suit == self.trump]
        followers = [(c.rank, q) for q, c in self.trick if c.suit == led]
        winner = max(trumps)[1] if trumps else max(followers)[1]
        self.log.append(("trick_won", (self.played + 1, winner)))
        self.tricks[winner] += 1
        self.won[winner] += [c for _, c in self.trick]
        self.trick = []
        self.played += 1
        if self.played < 4:
            self.turn = winner
            return
        most = max(self.tricks.values())
        winners = [q for q in self.players if self.tricks[q] == most]
        share = self.pot // len(winners)
        self.log.append(("pot_split", (tuple(winners), share, self.pot - share * len(winners))))
        for q in winners:
            if share:
                self.from_pot(q, share)
        if share and self.end_check():
            return
        if self.house["stage4"] == "off":  # H3: "a deal ends after the tricks"
            self.end_deal(game, events)
            return
        # stage 4 (rules 26-27)
        self.stage = 4
        self.eligible = [q for q in self.left_of_dealer() if len(self.won[q]) >= 4]
        assert self.eligible, "rule 26: there is always at least one"
        self.log.append(("stage4_eligible", tuple(self.eligible)))
        throw = next(e for e in events if e.kind == "dice_thrown" and e.stage == 4)
        assert throw.rethrown_die is None and throw.player == self.thrower()
        self.take_throw(throw)
        self.start_auction(4, list(self.eligible))

    # -- stage 4 payout and the end of the deal (rules 28-29)
    def stage4(self, game, events) -> None:
        pattern, amount = rule14(self.dice)
        best_sets = {}
        for q in self.eligible:
            sets = [s for s in combinations(self.won[q], 4) if rule13(s, self.dice)]
            if sets:
                best_sets[q] = max(sets, key=rule15_key)
        if best_sets:
            winner = max(best_sets, key=lambda q: rule15_key(best_sets[q]))
            cards = tuple(sorted(str(c) for c in best_sets[winner]))
            self.log.append(("stage4_result", (winner, cards, pattern, amount)))
            for q in self.players:
                if q != winner:
                    self.pay(q, winner, min(amount, self.chips[q]), "stage4_payout")
            if self.end_check():
                return
        else:
            self.log.append(("no_match", (4, pattern)))
        self.end_deal(game, events)

    def end_deal(self, game, events) -> None:
        self.log.append(("deal_ended", (self.deal,)))
        if self.max_deals is None or self.deal < self.max_deals:
            self.dealer = self.players.index(self.left_of_dealer()[0])  # rule 29, to the next player still in
        self.new_deal(game, events)


def engine_log(events: list) -> list:
    """The engine's events in the referee's terms."""
    out = []
    for e in events:
        k = e.kind
        if isinstance(e, ChipTransfer):
            out.append(("chips", (e.from_account, e.to_account, e.amount, e.reason)))
        elif k == "auction_won":
            out.append((k, (e.stage, e.player, e.amount, e.rethrows)))
        elif k == "auction_no_winner":
            out.append((k, (e.stage,)))
        elif k == "rethrows_ended":
            out.append((k, (e.player, e.unused)))
        elif k == "stage1_result":
            out.append((k, (e.winner, e.pattern, e.amount)))
        elif k == "no_match":
            out.append((k, (e.stage, e.pattern)))
        elif k == "stage2_winner":
            out.append((k, (e.winner, e.category)))
        elif k == "stage2_no_winner":
            out.append((k, (e.leader,)))
        elif k == "trick_won":
            out.append((k, (e.trick, e.winner)))
        elif k == "pot_split":
            out.append((k, (tuple(e.winners), e.share, e.remainder)))
        elif k == "stage4_eligible":
            out.append((k, tuple(e.players)))
        elif k == "stage4_result":
            out.append((k, (e.winner, tuple(sorted(str(c) for c in e.cards)), e.pattern, e.amount)))
        elif k == "deal_ended":
            out.append((k, (e.deal,)))
        elif k == "players_out":
            out.append((k, tuple(e.players)))
        elif k == "game_over":
            out.append((k, (e.reason, sorted(s.player for s in e.standings if s.won))))
    return out


def move_text(action) -> str:
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Rethrow):
        return f"r {action.die}"
    if isinstance(action, Exchange):
        return f"x {action.card}"
    return str(action.card)


def compare(game: InsomniaGame, ref: Referee) -> None:
    assert game.is_over == (ref.over is not None) and game.over_reason == ref.over
    assert game.current_player == ref.turn
    assert game.chips == ref.chips and game.pot == ref.pot
    if ref.over:
        assert game.legal_actions() == []
        return
    assert game.phase == ref.phase
    assert game.dice == ref.dice
    assert {p: sorted(h) for p, h in game.hands.items()} == ref.hands
    assert game.trump == ref.trump and game.tricks_won == ref.tricks
    legal = [move_text(a) for a in game.legal_actions()]
    assert legal and len(legal) == len(set(legal)) and set(legal) == ref.legal()


def load_dice(game: InsomniaGame, ref: Referee, rng: random.Random) -> None:
    """Loaded dice for the audit: at the start of an auction, often set the throw to the ranks of some
    player's 4 cards (his hand in stage 1, 4 of his won cards in stage 4), so matches happen often."""
    if game.stage == 1:
        candidates = [list(h) for h in game.hands.values()]
    else:
        candidates = [rng.sample(game.won_cards[p], 4) for p in game.eligible]
    candidates = [c for c in candidates if len(c) == 4 and all(card.rank in FACES for card in c)]
    if candidates and rng.random() < 0.7:
        throw = [card.rank for card in rng.choice(candidates)]
        rng.shuffle(throw)
        game.dice = list(throw)
        ref.dice = list(throw)


def audit_game(index: int, house: dict[str, str] | None = None) -> set[str]:
    """One random game on the engine and the referee side by side; returns the situations it reached."""
    rng = random.Random(f"audit-{index}")
    n = 2 + index % 7
    game = new_game(
        [f"p{i}" for i in range(n)],
        seed=f"audit-{index}",
        chips=rng.choice([2, 6, 15, 30]),
        max_deals=rng.choice([None, 3, 8]),
        **(house or {}),
    )
    ref = Referee(game, game.opening_events, house or {})
    compare(game, ref)
    pass_bias, bid_bias = rng.choice([0.3, 0.6, 0.9]), rng.random()
    loaded: set[tuple[int, int]] = set()
    seen: set[str] = set()
    while not game.is_over:
        if game.phase == "auction" and (game.deal, game.stage) not in loaded:
            loaded.add((game.deal, game.stage))
            load_dice(game, ref, rng)
        actions = game.legal_actions()
        passes = [a for a in actions if isinstance(a, Pass)]
        bids = [a for a in actions if isinstance(a, Bid)]
        if passes and rng.random() < pass_bias:
            action = passes[0]
        elif bids and rng.random() < bid_bias:
            action = bids[0] if rng.random() < 0.7 else rng.choice(bids)  # small bids keep games going
        else:
            action = rng.choice(actions)
        events = game.apply(action)
        ref.log = []
        ref.apply(move_text(action), game, events)
        assert engine_log(events) == ref.log, (index, action)
        compare(game, ref)
        seen |= situations(events)
        if "players_out" in seen and not game.is_over:
            seen.add("played_on_after_out")
    return seen


def situations(events: list) -> set[str]:
    seen, owed = set(), 0
    for e in events:
        seen.add(e.kind + str(getattr(e, "stage", "")))
        if e.kind in ("stage1_result", "stage2_winner", "stage4_result"):
            owed = e.amount
        if e.kind == "pot_split" and len(e.winners) > 1:
            seen.add("pot_tie" + ("_remainder" if e.remainder else ""))
        if e.kind == "stage4_eligible" and len(e.players) == 1:
            seen.add("single_eligible")
        if e.kind == "exchange_done" and e.stock_empty:
            seen.add("stock_empty")
        if e.kind == "game_over":
            seen.add(e.reason + ("_shared" if sum(s.won for s in e.standings) > 1 else ""))
        if e.kind == "players_out":
            seen.add("players_out" + ("_several" if len(e.players) > 1 else ""))
            seen.add("players_out")
        if e.kind == "chips" and e.reason.endswith("payout") and e.amount < owed:
            seen.add("partial_payment")
    return seen


def test_the_engine_agrees_with_an_independent_referee_on_random_games():
    seen = set().union(*(audit_game(i) for i in range(120)))
    # the games reach every stage and the edge cases
    assert {"stage1_result", "no_match1", "stage4_result", "no_match4", "stage2_no_winner"} <= seen
    assert {"auction_won1", "auction_won4", "auction_no_winner1", "auction_no_winner4"} <= seen
    assert {"pot_tie", "pot_tie_remainder", "single_eligible", "stock_empty", "partial_payment"} <= seen
    assert {"out_of_chips", "out_of_chips_shared", "deal_cap"} <= seen


HOUSE_RULES = {
    "sevens=all": {"sevens": "all"},
    "bust=out": {"bust": "out"},
    "stage4=off": {"stage4": "off"},
    "all three": {"sevens": "all", "bust": "out", "stage4": "off"},
}


@pytest.mark.parametrize("house", HOUSE_RULES.values(), ids=HOUSE_RULES.keys())
def test_the_engine_agrees_with_the_referee_at_each_house_rule(house):
    seen = set().union(*(audit_game(i, house) for i in range(120)))
    assert {"stage1_result", "auction_won1", "pot_tie", "partial_payment", "deal_cap"} <= seen
    if house.get("stage4") == "off":
        assert not {"stage4_eligible", "auction_won4", "no_match4"} & seen  # H3: no second dice round
    else:
        assert {"stage4_result", "auction_won4"} <= seen
    if house.get("bust") == "out":
        # H2: players leave, alone and several at once, the game plays on and ends with one player left
        assert {"players_out", "players_out_several", "played_on_after_out", "out_of_chips"} <= seen
        assert "out_of_chips_shared" not in seen  # one player is left holding chips: he alone wins
    else:
        assert "players_out" not in seen and "out_of_chips_shared" in seen


# --- table-driven edge cases, by rule ---------------------------------------------------------------

P3 = ["p0", "p1", "p2"]  # p0 deals: p1, p2, p0 act in that order
DEAL3 = {"p1": "AH AS 9S 10C", "p2": "KH QS JD 9D", "p0": "QH JH 9H KC"}
P4 = ["p0", "p1", "p2", "p3"]
DEAL4 = {"p1": "AS KS QS 9D", "p2": "AH KH QH 9C", "p3": "AD KD 10S 9S", "p0": "AC KC JD 10H"}
TRICKS4 = ["AS", "9C", "9S", "AC", "KS", "QH", "10S", "KC", "QS", "KH", "AD", "JD", "9D", "AH", "KD", "10H"]


def _auction(players, chips=15):
    game = rig(players, DEAL3 if len(players) == 3 else DEAL4, "A A A A", chips=chips)
    pass_to(game, "auction")
    return game


@pytest.mark.parametrize(
    ("players", "chips", "moves", "outcome"),
    [
        # (winner, amount) when won, None when nobody won, ("turn", p) while it goes on
        (P3, 15, ["pass", "pass", "pass"], None),
        (P3, 15, ["pass", "pass"], ("turn", "p0")),
        (P3, 15, ["bid 1", "pass", "pass"], ("p1", 1)),
        (P3, 15, ["bid 1", "pass"], ("turn", "p0")),
        (P3, 15, ["pass", "pass", "bid 1", "pass", "pass"], ("p0", 1)),  # the last to speak may still bid
        (P3, 15, ["bid 1", "pass", "bid 2", "pass", "pass"], ("p0", 2)),
        (P3, 15, ["bid 1", "bid 2", "pass"], ("turn", "p1")),  # p1 has not passed since p2's bid
        (P3, 15, ["pass", "bid 1", "pass", "bid 2", "pass", "pass"], ("p1", 2)),  # a pass is not final
        (P3, 15, ["bid 15", "pass", "pass"], ("p1", 15)),  # all his chips (and the game ends: rule 31)
        (P3, {"p0": 15, "p1": 15, "p2": 1}, ["bid 1", "pass", "pass"], ("p1", 1)),  # p2 can only pass
        (P4, 15, ["bid 1", "pass", "pass"], ("turn", "p0")),
        (P4, 15, ["bid 1", "pass", "pass", "pass"], ("p1", 1)),
        (P4, 15, ["pass", "pass", "pass"], ("turn", "p0")),
        (P4, 15, ["pass", "pass", "pass", "pass"], None),
        (P4, 15, ["pass", "pass", "pass", "bid 3", "pass", "bid 4", "pass", "pass", "pass"], ("p2", 4)),
    ],
)
def test_rule_10_the_auction_ends_exactly_as_written(players, chips, moves, outcome):
    game = _auction(players, chips)
    events = act(game, *moves)
    if outcome is None:
        assert "auction_no_winner" in kinds(events) and game.phase == "tricks" and game.pot == 0
    elif outcome[0] == "turn":
        assert game.phase == "auction" and game.current_player == outcome[1]
        assert not {"auction_won", "auction_no_winner"} & set(kinds(events))
    else:
        won = first(events, "auction_won")
        assert (won.player, won.amount, won.rethrows) == (*outcome, 2 * outcome[1])
        assert transfers(events, "bid") == [(outcome[0], POT, outcome[1])]


@pytest.mark.parametrize(
    ("chips", "moves", "bad", "message"),
    [
        ({"p0": 15, "p1": 15, "p2": 4}, ["bid 5"], 6, "You cannot outbid 5 with 4 chips: pass."),
        ({"p0": 15, "p1": 15, "p2": 4}, ["bid 5"], 5, "You cannot outbid 5 with 4 chips: pass."),
        ({"p0": 15, "p1": 15, "p2": 4}, ["bid 2"], 5, "You have only 4 chips: bid at most 4, or pass."),
        ({"p0": 15, "p1": 15, "p2": 4}, ["bid 2"], 2, "Bid more than 2 chips, or pass."),
        ({"p0": 15, "p1": 15, "p2": 4}, [], 0, "Bid at least 1 chip, or pass."),
        ({"p0": 15, "p1": 3, "p2": 4}, [], 4, "You have only 3 chips: bid at most 3, or pass."),
    ],
)
def test_rule_10_a_refused_bid_says_what_the_player_can_do(chips, moves, bad, message):
    game = _auction(P3, chips)
    act(game, *moves)
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Bid(amount=bad))
    assert english(refused.value) == message and game.model_dump_json() == before


def test_rule_10_a_player_who_cannot_outbid_is_told_to_pass():
    game = _auction(P3, {"p0": 15, "p1": 15, "p2": 4})
    act(game, "bid 5")
    with pytest.raises(IllegalAction) as refused:
        game.apply(Play(card="KH"))
    assert english(refused.value) == (
        "It is the auction for re-throws: you cannot outbid 5 with 4 chips, so pass."
    )


@pytest.mark.parametrize(
    ("moves", "outcome"),
    [
        (["pass"], None),  # all (one) pass with no bid: nobody wins
        (["bid 1"], 1),  # nobody else is left to pass: his first bid wins at once
        (["bid 7"], 7),
    ],
)
def test_rule_27_a_single_eligible_player_alone_in_the_auction(moves, outcome):
    game = rig(P3, DEAL3, "A A A A")
    pass_to(game, "tricks")
    act(game, "9S", "QS", "KC", "KH", "9H", "AH", "10C", "9D", "JH", "AS", "JD", "QH")
    assert game.eligible == ["p1"] and game.current_player == "p1"
    bids = [a.amount for a in game.legal_actions() if isinstance(a, Bid)]
    assert bids == list(range(1, game.chips["p1"] + 1))
    events = act(game, *moves)
    if outcome is None:
        assert first(events, "auction_no_winner").stage == 4 and game.deal == 2
    else:
        won = first(events, "auction_won")
        assert (won.stage, won.player, won.amount, won.rethrows) == (4, "p1", outcome, 2 * outcome)
        assert game.phase == "rethrow" and game.rethrows_left == 2 * outcome


def test_rules_29_32_at_the_deal_cap_the_last_dealer_stays_the_dealer():
    game = rig(P4, DEAL4, "9 9 9 9", max_deals=1)
    pass_to(game, "tricks")
    act(game, *TRICKS4)
    game.dice = dice("J J J J")
    events = act(game, "pass", "pass")
    assert first(events, "deal_ended").next_dealer is None and game.is_over
    assert game.public_view().dealer == "p0"  # nobody deals again: the marker stays on the last dealer


def test_rule_9_the_card_just_drawn_may_be_exchanged_again():
    game = rig(P3, DEAL3, "A A A A", stock="10H 10S 10D JS")
    act(game, "x 9S", "x 10H")
    assert game.hands["p1"] == sorted(parse_cards("AH AS 10C 10S")) and game.discards == parse_cards("9S 10H")
    assert game.current_player == "p2" and game.stock[:2] == parse_cards("10D JS")


def test_rule_15_three_equal_matches_the_first_higher_suit_decides():
    # dice A K Q J: the ace of spades decides at the first card, though p2 holds the higher king
    hands = {"p1": "AS KD QD JD", "p2": "AH KS QS JS", "p3": "AD KH QH JH", "p0": "9S 9H 10D 10C"}
    game = rig(P4, hands, "J Q A K")
    events = pass_to(game, "tricks")
    result = first(events, "stage1_result")
    assert (result.winner, result.pattern, result.amount) == ("p1", "sequence", 6)
    assert transfers(events, "stage1_payout") == [(p, "p1", 6) for p in ("p0", "p2", "p3")]


def test_rule_13_sevens_and_eights_never_match_a_throw():
    for throw in {tuple(sorted(t)) for t in combinations(FACES * 4, 4)}:
        hand = [Card.of(r, Suit(i)) for i, r in enumerate(throw)]
        assert matches_dice(hand, throw)
        for low in (Rank.SEVEN, Rank.EIGHT):
            for i in range(4):
                assert not matches_dice([*hand[:i], Card.of(low, Suit(i)), *hand[i + 1 :]], throw)


@pytest.mark.parametrize(
    ("players", "straights"),
    [
        (4, {"9-Q", "10-K", "J-A"}),
        (6, {"7-10", "8-J", "9-Q", "10-K", "J-A"}),
        (8, {"7-10", "8-J", "9-Q", "10-K", "J-A"}),
    ],
)
def test_rule_17_the_straights_of_each_deck_and_no_wrap(players, straights):
    found, flushes = set(), set()
    for hand in combinations(deck_for(players), 4):
        value = hand_value(hand)
        if value.category in ("straight", "straight_flush"):
            ranks = sorted(c.rank for c in hand)
            assert ranks == list(range(ranks[0], ranks[0] + 4))
            found.add(f"{ranks[0].short}-{ranks[-1].short}")
            if value.category == "straight_flush":
                flushes.add(f"{ranks[0].short}-{ranks[-1].short}")
    assert found == straights
    assert flushes == straights  # with 5-7 players the 7-10 straight flush exists in hearts and spades only
    assert hand_value(parse_cards("AS 7S 8S 9S")).category == "flush"  # the ace is high only


def test_rule_14_dice_patterns_agree_with_the_table():
    for throw in {t for t in combinations(FACES * 4, 4)}:
        assert dice_pattern(list(throw)) == rule14(list(throw))


@pytest.mark.parametrize("bad", ["@pot", "@x", ""])
def test_rule_31_a_player_id_can_never_be_the_pot_account(bad):
    # every chip is accounted to a player id or to the pot account "@pot": the two must never collide
    with pytest.raises(ValueError, match="player id"):
        new_game(["p0", bad], seed="ids")
