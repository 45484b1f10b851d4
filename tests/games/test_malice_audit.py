"""An independent audit of Malice against docs/rules.md section 2.

The other suites check the engine against itself (legal_actions() against apply()); this one checks it
against a second reading of the rule text, written here without the engine's tables: on 300 random,
adversarial positions (jokers deep in side stacks, several free centre slots, aces in hand and on the payoff
top, duplicate cards, a short stock) the set of legal moves must be exactly what rules 8, 9, 11, 12 and 14
allow, every other attempt must be refused without changing anything, and every legal move must do what rules
7, 10, 13 and 15 say. The positions are audited twice: at the standard rule 12 and at house rule H4
(`discard="required"`: who can play to a side stack must, to end his turn).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.base import IllegalAction
from bot.games.cards import JOKER, Card, Rank, Suit, standard_deck
from bot.games.malice import CENTRE_NAMES, SIDE_NAMES, EndTurn, MaliceGame, Play, new_game
from tests.games.malice_helpers import PLAYERS, cards, play, table, total_cards
from tests.refusals import english, refused

END = EndTurn()
RANK_OF = {rank.ace_low: rank for rank in Rank}
DECK = standard_deck()


def value(card: Card) -> int:
    """Rule 2: A=1 ... K=13; a joker has no rank of its own (0)."""
    return 0 if card is JOKER else card.rank.ace_low


# --- a second reading of the rules ------------------------------------------------------------------------


def centre_need(stack: list[Card]) -> int:
    """Rule 8: the rank a centre stack takes next. Counted from the cards, not the length: the last real card
    plus the jokers above it (each counts as the rank it was played as)."""
    jokers = 0
    for card in reversed(stack):
        if card is JOKER:
            jokers += 1
        else:
            return value(card) + jokers + 1
    return jokers + 1  # only jokers: the first was an ace


def side_accepts(stack: list[Card], card: Card) -> bool:
    """Rule 11, as written."""
    if value(card) == 1:
        return False  # "an ace can never go on a side stack"
    if not stack or card is JOKER:
        # "An empty slot takes any card except an ace (a joker too)"; "a joker may go on any side stack".
        return True
    below = [value(c) for c in stack if c is not JOKER]
    if not below:
        return True  # "if there is none, any card but an ace may go there"
    ref = below[-1]  # "the nearest non-joker card below it"
    return value(card) in (ref, ref - 1)  # "the same rank ... or exactly one rank lower"


def rule_moves(game: MaliceGame) -> set:
    """Every legal action of the player to move, from the rule text alone."""
    me = game.current_player
    hand = game.hands[me]
    top = game.payoff[me][-1]
    free_slot = any(not stack for stack in game.centre)
    # Rule 9: an ace in the hand or on the payoff top while a slot is free; jokers are never obliged.
    obliged = free_slot and (value(top) == 1 or any(value(c) == 1 for c in hand))
    # Rule 8: hand, own payoff top, own side-stack tops (rule 14: the payoff top only to the centre).
    sources = [("hand", c) for c in hand] + [("payoff", top)]
    sources += [(name, stack[-1]) for name, stack in zip(SIDE_NAMES, game.side[me], strict=True) if stack]
    moves = set()
    for source, card in sources:
        for to, stack in zip(CENTRE_NAMES, game.centre, strict=True):
            need = centre_need(stack)
            if card is JOKER:
                moves.add(Play(source=source, card=card, to=to, as_rank=RANK_OF[need]))
            elif value(card) == need:
                moves.add(Play(source=source, card=card, to=to))
    if not obliged:
        # Rule 11: side plays only from the hand, only onto his own stacks; rule 12: or end by choice.
        sides = {
            Play(source="hand", card=card, to=to)
            for card in hand
            for to, stack in zip(SIDE_NAMES, game.side[me], strict=True)
            if side_accepts(stack, card)
        }
        moves |= sides
        # H4 "required": "he may end it without one only when he holds no card, or no card of his hand can
        # legally go to a side stack".
        if game.discard == "optional" or not hand or not sides:
            moves.add(END)
    return moves


# --- random adversarial positions ---------------------------------------------------------------------------


def random_card(rng: random.Random, aces: float = 0.12, jokers: float = 0.12) -> Card:
    roll = rng.random()
    if roll < jokers:
        return JOKER
    if roll < jokers + aces:
        return Card.of(Rank.ACE, rng.choice(list(Suit)))
    return rng.choice([c for c in DECK if c.rank is not Rank.ACE])


def random_centre_stack(rng: random.Random) -> list[Card]:
    if rng.random() < 0.4:
        return []
    length = rng.choice([1, 2, 5, 11, 12, 12]) if rng.random() < 0.5 else rng.randint(1, 12)
    return [
        JOKER if rng.random() < 0.15 else Card.of(RANK_OF[v], rng.choice(list(Suit)))
        for v in range(1, length + 1)
    ]


def random_side_stack(rng: random.Random) -> list[Card]:
    stack: list[Card] = []
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5])):
        options = [c for c in SIDE_POOL if side_accepts(stack, c)]
        stack.append(rng.choice(options))
    return stack


SIDE_POOL = DECK + [JOKER] * 8  # jokers often: they are what makes rule 11's "nearest non-joker" matter


def random_position(n: int, discard: str = "optional") -> MaliceGame:
    rng = random.Random(f"audit-{n}")
    me, other = ("a", "b") if n % 2 == 0 else ("b", "a")
    hand = [random_card(rng) for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 5, 5]))]
    if hand and rng.random() < 0.2:
        hand[-1] = hand[0]  # two identical cards (deck A and deck B both have one of each)
    state = {
        "seed": f"audit-{n}",
        "players": PLAYERS,
        "seat": PLAYERS.index(me),
        "turn": rng.choice([rng.randint(1, 498), 499, 500]),  # 500: the last turn (rule 17)
        "moved": rng.random() < 0.5,
        "stake": rng.randint(0, 3),
        "stock": [random_card(rng) for _ in range(rng.choice([0, 0, 1, 3, 4, 9, 20]))],
        "centre": [random_centre_stack(rng) for _ in range(4)],
        "hands": {me: hand, other: [random_card(rng) for _ in range(rng.randint(0, 5))]},
        "payoff": {
            p: [random_card(rng, aces=0.25, jokers=0) for _ in range(rng.choice([1, 1, 2, 5]))]
            for p in PLAYERS
        },
        "side": {p: [random_side_stack(rng) for _ in range(4)] for p in PLAYERS},
        "idle_turns": rng.choice([0, 0, 1]),
        "discard": discard,
    }
    return MaliceGame.model_validate(state)


def attempts(game: MaliceGame, rng: random.Random):
    """Plays a player might try: every source (and cards he does not hold) to every target, with the card
    named or left out, and a rank right, wrong or left out."""
    me = game.current_player
    named = [("hand", c) for c in set(game.hands[me])] + [("hand", random_card(rng))]
    named += [("payoff", game.payoff[me][-1]), ("payoff", None)]
    for name, stack in zip(SIDE_NAMES, game.side[me], strict=True):
        named.append((name, stack[-1] if stack else random_card(rng)))
        named.append((name, None))
    for source, card in named:
        for to in CENTRE_NAMES + SIDE_NAMES:
            yield Play(source=source, card=card, to=to)
            yield Play(source=source, card=card, to=to, as_rank=rng.choice(list(Rank)))
            if to in CENTRE_NAMES:
                need = RANK_OF[centre_need(game.centre[CENTRE_NAMES.index(to)])]
                yield Play(source=source, card=card, to=to, as_rank=need)
            if card is not None and card is not JOKER:
                yield Play(source=source, card=card, to=to, as_rank=card.rank)
    yield END


def canonical(game: MaliceGame, action: Play | EndTurn) -> Play | EndTurn:
    """The documented shorthands (docs/design.md): the card left out for the payoff or a side stack is its
    top; a joker's rank left out on the centre is the rank the stack needs."""
    if not isinstance(action, Play):
        return action
    me = game.current_player
    card, as_rank = action.card, action.as_rank
    if card is None and action.source != "hand":
        sides = game.side[me]
        pile = game.payoff[me] if action.source == "payoff" else sides[SIDE_NAMES.index(action.source)]
        card = pile[-1] if pile else None
    if card is JOKER and as_rank is None and action.to in CENTRE_NAMES:
        as_rank = RANK_OF[centre_need(game.centre[CENTRE_NAMES.index(action.to)])]
    return Play(source=action.source, card=card, to=action.to, as_rank=as_rank)


def check_effects(before: MaliceGame, action: Play | EndTurn, after: MaliceGame, events: list) -> None:
    """What a legal move must do (rules 7, 8, 10, 12, 13, 15, 16)."""
    me = before.current_player
    other = before.opponent(me)
    kinds = [e.kind for e in events]
    if isinstance(action, EndTurn) or action.to in SIDE_NAMES:
        moved = before.moved or isinstance(action, Play)
        if isinstance(action, Play):
            slot = SIDE_NAMES.index(action.to)
            assert after.side[me][slot] == before.side[me][slot] + [action.card]
            assert Counter(after.hands[me]) == Counter(before.hands[me]) - Counter([action.card])
        if (not moved and before.idle_turns == 1) or before.turn >= before.max_turns:
            # Rule 16 (the second idle turn in a row) or rule 17 (the last turn), scored as rule 16.
            reason = "stalemate" if not moved and before.idle_turns == 1 else "turn_cap"
            mine, theirs = len(before.payoff[me]), len(before.payoff[other])
            winner = None if mine == theirs else (me if mine < theirs else other)
            result = after.result
            assert (result.reason, result.winner, result.score) == (reason, winner, abs(mine - theirs))
            assert result.chips == abs(mine - theirs) * before.stake
            return
        # Rule 12: the turn passes; rule 7: the next player draws up to 5 (fewer if the stock runs short).
        assert kinds[-2:] == ["turn_ended", "turn_started"] and after.current_player == other
        want = (
            min(5, len(before.hands[other]) + len(before.stock))
            if len(before.hands[other]) < 5
            else len(before.hands[other])
        )
        assert len(after.hands[other]) == want
        assert after.hands[other][: len(before.hands[other])] == before.hands[other]
        assert after.idle_turns == (0 if moved else before.idle_turns + 1)
        return
    # A centre play: the turn goes on unless the payoff pile emptied (rule 15).
    slot = CENTRE_NAMES.index(action.to)
    card = action.card
    if action.source == "hand":
        assert Counter(after.hands[me]) + Counter([card]) >= Counter(before.hands[me])
    elif action.source == "payoff":
        assert after.payoff[me] == before.payoff[me][:-1]  # the next payoff card is turned up
    else:
        side = SIDE_NAMES.index(action.source)
        assert after.side[me][side] == before.side[me][side][:-1]
    completed = len(before.centre[slot]) == 12
    stock = len(before.stock)
    if completed:  # rule 10: the 13 cards go into the stock at once and the slot is free
        assert after.centre[slot] == [] and "stack_completed" in kinds
        assert Counter(after.stock) + Counter(after.hands[me]) == (
            Counter(before.stock)
            + Counter(before.centre[slot] + [card])
            + Counter(before.hands[me])
            - (Counter([card]) if action.source == "hand" else Counter())
        )
        stock += 13
    else:
        assert after.centre[slot] == before.centre[slot] + [card]
    if not after.payoff[me]:  # rule 15: the last payoff card wins at once
        assert after.is_over and after.result.reason == "payoff_emptied" and after.result.winner == me
        assert after.result.score == len(before.payoff[other])
        assert after.result.chips == len(before.payoff[other]) * before.stake
        return
    assert after.current_player == me and not after.is_over
    hand_left = len(before.hands[me]) - (action.source == "hand")
    if hand_left == 0 and stock:  # rule 13: an empty hand draws 5 more and the turn goes on
        assert len(after.hands[me]) == min(5, stock) and "hand_refilled" in kinds
    else:
        assert len(after.hands[me]) == hand_left and "hand_refilled" not in kinds


POSITIONS = 300
CHUNKS = 2


@pytest.mark.parametrize("discard", ["optional", "required"])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_rules_8_to_15_legal_moves_and_their_effects_match_the_rule_text(chunk, discard):
    size = POSITIONS // CHUNKS
    obliged = refills = completions = wins = 0
    for n in range(chunk * size, (chunk + 1) * size):
        game = random_position(n, discard)
        rng = random.Random(n)
        legal = game.legal_actions()
        expected = rule_moves(game)
        assert len(legal) == len(set(legal)), f"position {n}: a move listed twice"
        assert set(legal) == expected, (
            f"position {n}: listed but not allowed {set(legal) - expected}, allowed but not listed "
            f"{expected - set(legal)}"
        )
        assert game.default_action() in expected, f"position {n}: the timeout's move is not allowed"
        obliged += END not in expected
        before_text = game.model_dump_json()
        for action in attempts(game, rng):
            full = canonical(game, action)
            if full in expected:
                copy = MaliceGame.model_validate_json(before_text)
                events = copy.apply(action)
                assert events[0].kind in ("card_played", "turn_ended")
                check_effects(game, full, copy, events)
                kinds = [e.kind for e in events]
                refills += "hand_refilled" in kinds
                completions += "stack_completed" in kinds
                wins += "game_over" in kinds and copy.result.reason == "payoff_emptied"
            else:
                try:
                    game.apply(action)
                except IllegalAction as refused:
                    message = english(refused)
                    assert message[:1].isupper() and message.endswith("."), message
                else:
                    pytest.fail(f"position {n}: {action} is against the rules but was applied")
        # Refused moves change nothing (checked once per position: a change would also upset later ones).
        assert game.model_dump_json() == before_text, f"position {n}: a refused move changed the game"
    # The random positions really reach the cases under audit.
    assert min(obliged, refills, completions, wins) > 30, (obliged, refills, completions, wins)


# --- rule 8 and the contract: one spelling per move ---------------------------------------------------------

AS_RANK_CASES = [
    # (position, action, error): a rank is the joker's alone (docs/design.md: `as_rank` "else None"), so the
    # same move is not accepted in a second spelling that legal_actions() never lists.
    (
        "centre: A 2 3 4\na hand: 5 9",
        play("5", to="centre1", as_rank="5"),
        "Only a joker takes a rank on the centre: leave the rank out for a 5.",
    ),
    (
        "a hand: A 9",
        play("A", to="centre2", as_rank="A"),
        "Only a joker takes a rank on the centre: leave the rank out for an ace.",
    ),
    (
        "centre: A 2 3 4 5 6 7 8 9 10 J Q\na payoff: 7 K",
        play(None, source="payoff", as_rank="K"),
        "Only a joker takes a rank on the centre: leave the rank out for a king.",
    ),
    (
        "centre: A 2 3 4 5 6 7 8\na side: 9",
        play("9", source="side1", as_rank="9"),
        "Only a joker takes a rank on the centre: leave the rank out for a 9.",
    ),
    (
        "centre: A 2 3 4\na hand: 5 9",
        play("5", to="centre1", as_rank="6"),
        "Only a joker can be played as another rank.",
    ),
    # The rule broken comes before the spelling: an ace with a rank on a side stack is still an ace.
    (
        "centre: A | A | A | A\na hand: A 9",
        play("A", to="side1", as_rank="A"),
        "An ace can never go on a side stack.",
    ),
]


@pytest.mark.parametrize(("spec", "action", "error"), AS_RANK_CASES)
def test_rule_8_only_a_joker_is_played_as_a_rank(spec, action, error):
    game = table(spec)
    before = game.model_dump_json()
    assert action not in game.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    assert english(refused.value) == error
    assert game.model_dump_json() == before


# --- the contract: apply() refuses with IllegalAction -------------------------------------------------------


@pytest.mark.parametrize(
    "garbage",
    [
        '{"kind": "fold"}',
        {"kind": "play", "source": "deck", "card": "5S", "to": "centre1"},
        {"kind": "play", "source": "hand", "card": "ZZ", "to": "centre1"},
        "not json",
        {"kind": "resign"},
    ],
)
def test_contract_a_malformed_action_is_refused_with_illegal_action(garbage):
    """docs/rules.md section 4: apply() raises IllegalAction, a sentence a player can read (as Insomnia)."""
    game = table("a hand: 5")
    before = game.model_dump_json()
    with refused(r"^That is not an action here: choose one of the offered"):
        game.apply(garbage)
    assert game.model_dump_json() == before


# --- setup (rules 1, 3, 4, 5, 7) ----------------------------------------------------------------------------


def test_rule_4_equal_tops_reshuffle_each_players_own_pile_and_cards_never_change_piles():
    """Each player shuffles HIS OWN payoff pile: the 26 cards he was dealt from deck A stay his."""
    checked = 0
    for n in range(400):
        seed = f"tie-{n}"
        game = new_game(["p1", "p2"], seed)
        if not game.first_player_reshuffles:
            continue
        deck_a = standard_deck()
        random.Random(f"{seed}/0").shuffle(deck_a)  # base.SeededGame: draw 0 is the deck A shuffle
        assert Counter(game.payoff["p1"]) == Counter(deck_a[:26])
        assert Counter(game.payoff["p2"]) == Counter(deck_a[26:])
        tops = [game.payoff[p][-1].rank.ace_low for p in ("p1", "p2")]
        assert tops[0] != tops[1]
        assert game.payoff[game.current_player][-1].rank.ace_low == max(tops)
        checked += 1
    assert checked >= 10


def test_rules_1_3_5_7_every_new_game_deals_deck_a_to_the_payoffs_and_deck_b_to_hands_and_stock():
    for n in range(40):
        game = new_game(["p1", "p2"], f"deal-{n}")
        payoffs = game.payoff["p1"] + game.payoff["p2"]
        assert JOKER not in payoffs and Counter(payoffs) == Counter(DECK)  # deck A: 52, no jokers
        assert Counter(game.stock + game.hands["p1"] + game.hands["p2"]) == Counter(DECK + [JOKER] * 4)
        assert [len(game.hands[p]) for p in ("p1", "p2")] == [5, 5] and len(game.stock) == 46
        assert game.turn == 1 and not game.moved and game.idle_turns == 0
        # Rule 7 on the second turn: the second player already holds 5 and draws none.
        events = game.apply(END) if END in game.legal_actions() else None
        if events is not None:
            assert events[-1].kind == "turn_started" and events[-1].drawn == 0 and len(game.stock) == 46


# --- rule 9: what is and is not obliged ---------------------------------------------------------------------

OBLIGATION_CASES = [
    # (position, obliged)
    ("a hand: A 5", True),
    ("a hand: 5\na payoff: K A", True),
    ("centre: A | A | A\na hand: A", True),  # one free slot is enough
    ("centre: A | A | A | A\na hand: A 5\na payoff: K A", False),  # no free slot: the ace may wait
    ("a hand: JK 5", False),  # a joker is never obliged, even though it could start a stack as an ace
    ("a hand: 5\na side: JK", False),  # nor a joker on a side stack
    ("a hand: 5\nb hand: A\nb payoff: K A", False),  # the opponent's aces oblige only the opponent
    ("a hand: 5\nstock: A A A", False),  # nor do aces in the stock: only what he holds or shows
]


@pytest.mark.parametrize(("spec", "obliged"), OBLIGATION_CASES)
def test_rule_9_the_ace_obligation(spec, obliged):
    game = table(spec)
    actions = game.legal_actions()
    assert (END not in actions) is obliged
    assert game.view("a").must_play_ace is obliged
    side_plays = [a for a in actions if a.kind == "play" and a.to.startswith("side")]
    assert (side_plays == []) is obliged  # a side play would end the turn (rule 12), so it waits too


def test_rule_9_a_joker_may_start_the_last_free_slot_and_then_the_ace_may_wait():
    """The literal reading of rule 9: the turn cannot end while the ace COULD be played; once a joker started
    the last free slot as an ace, it cannot, so the turn may end with the ace still in the hand."""
    game = table("centre: A | A | A\na hand: A JK 9")
    assert END not in game.legal_actions()
    game.apply(play("JK", to="centre4", as_rank="A"))
    assert END in game.legal_actions() and not game.view("a").must_play_ace
    assert play("9", to="side1") in game.legal_actions()


# --- rule 10: the completed stack goes into the stock by a seeded shuffle -----------------------------------


def test_rule_10_the_stock_shuffle_is_seeded():
    spec = "centre: A 2 3 4 5 6 7 8 9 10 J Q\na hand: K 9\nstock: 2C 3C 4C 5C"
    stocks = []
    for seed in ("one", "one", "two"):
        game = table(spec, seed=seed)
        events = game.apply(play("K"))
        assert [e.kind for e in events] == ["card_played", "stack_completed"]
        assert events[1].stock_count == 17 and game.centre[0] == []
        assert Counter(game.stock) == Counter(cards("2C 3C 4C 5C A 2 3 4 5 6 7 8 9 10 J Q K"))
        stocks.append(game.stock)
    assert stocks[0] == stocks[1] != stocks[2]


# --- rule 13 with a short or empty stock --------------------------------------------------------------------


def test_rule_13_an_empty_hand_with_an_empty_stock_plays_on_from_payoff_and_side_stacks():
    game = table("centre: A 2\na hand: 3\na payoff: K 5 4\na side: 9 JK")
    game.apply(play("3"))
    assert game.hands["a"] == [] and game.current_player == "a"
    game.apply(play(None, source="payoff"))  # the 4
    game.apply(play(None, source="side1"))  # the joker as a 5
    assert game.centre[0][-1] is JOKER and game.public_view().centre_needs[0] == Rank.SIX
    assert game.legal_actions() == [END]  # the 5 on the payoff is now too low; the 9 is not needed
    events = game.apply(END)
    assert events[0].moved and game.current_player == "b"


# --- rules 16 and 17 ----------------------------------------------------------------------------------------


def test_rule_16_drawing_alone_is_not_a_move_even_when_the_stock_refills_the_hand():
    game = table("a hand: 9\nb hand: 9\nstock: 2 3 4 5 6 7 8 9 10 J")
    game.apply(END)  # a: idle
    events = game.apply(END)  # b drew 4 cards at the start of his turn but moved none
    assert events[0].moved is False and game.result.reason == "stalemate"


def test_rule_17_the_cap_counts_every_players_turn_and_ends_after_turn_500():
    game = table("a hand: K K\nb hand: Q Q\na payoff: 2 3 4\nb payoff: 2 3", turn=498)
    game.apply(play("K", to="side1"))  # turn 498
    events = game.apply(play("Q", to="side1"))  # turn 499
    assert events[-1].kind == "turn_started" and events[-1].turn == 500 and not game.is_over
    events = game.apply(play("K", to="side1"))  # turn 500, the last
    assert [e.kind for e in events] == ["card_played", "turn_ended", "game_over", "chips"]
    assert (events[2].reason, events[2].winner, events[2].score) == ("turn_cap", "b", 1)


# --- views --------------------------------------------------------------------------------------------------


def test_a_view_shows_neither_the_stock_order_nor_the_opponents_hand():
    """Two games that differ only in the stock's order and in b's hidden cards look the same to a."""
    game = new_game(["a", "b"], "leak")
    other = game.model_copy(deep=True)
    other.stock = list(reversed(other.stock))
    other.stock[:5], other.hands["b"] = other.hands["b"], other.stock[:5]
    assert other.hands["b"] != game.hands["b"]
    assert total_cards(other) == total_cards(game) == 108
    assert other.view("a").model_dump_json() == game.view("a").model_dump_json()
    assert other.public_view().model_dump_json() == game.public_view().model_dump_json()


def test_cards_helper_reads_bare_ranks_as_spades():
    assert cards("7 JK 10H") == [Card.of(Rank.SEVEN, Suit.SPADES), JOKER, Card.of(Rank.TEN, Suit.HEARTS)]
