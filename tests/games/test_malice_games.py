"""Malice in whole games: random play, complete legal_actions(), determinism and JSON round trips."""

import random
from collections import Counter

import pytest
from pydantic import TypeAdapter

from bot.games.base import IllegalAction
from bot.games.cards import JOKER, Rank, standard_deck
from bot.games.malice import (
    CENTRE_NAMES,
    SIDE_NAMES,
    Event,
    MaliceGame,
    MalicePublicView,
    MaliceView,
    Play,
    new_game,
    parse_action,
)

PLAYERS = ["111", "ai:1"]
ALL_CARDS = Counter(standard_deck() * 2 + [JOKER] * 4)
EVENTS = TypeAdapter(list[Event])
GAMES = 2000
CHUNKS = 8
ROUND_TRIP_EVERY = 10  # every 10th game is round-tripped through JSON at every step: 200 of 2000


def choose(game, rng, greedy):
    """A random legal move. Greedy players favour the centre (and the payoff most), so that games also reach
    completed stacks and emptied payoff piles; uniform players mostly drift into stalemates."""
    actions = game.legal_actions()
    if greedy:
        centre = [a for a in actions if a.kind == "play" and a.to in CENTRE_NAMES]
        payoff = [a for a in centre if a.source == "payoff"]
        if payoff:
            return rng.choice(payoff)
        if centre and rng.random() < 0.9:
            return rng.choice(centre)
    return rng.choice(actions)


def check_table(game):
    view = game.public_view()
    counted = (
        view.stock_count
        + sum(view.payoff_counts.values())
        + sum(view.hand_counts.values())
        + sum(map(len, view.centre))
        + sum(len(s) for stacks in view.side.values() for s in stacks)
    )
    assert counted == 108
    assert max(view.hand_counts.values()) <= 5
    assert len(view.centre) == 4
    if not view.is_over:
        assert max(map(len, view.centre)) < 13  # completed stacks leave at once
        if view.hand_counts[view.current_player] == 0:
            assert view.stock_count == 0  # an empty hand is refilled while the stock lasts


def play_game(n, round_trip=False):
    """Play game n to its end, checking the table after every step; return (game, kinds of events seen)."""
    rng = random.Random(n)
    greedy = n % 4 == 1  # a quarter of the games: they run longer
    game = new_game(PLAYERS, f"prop-{n}", stake=1 + n % 3)
    seen = Counter()
    steps = 0
    transfers = []
    while not game.is_over:
        assert steps < 5000, "a game did not end"
        if round_trip:
            text = game.model_dump_json()
            game = MaliceGame.model_validate_json(text)
            assert game.model_dump_json() == text
        events = game.apply(choose(game, rng, greedy))
        for event in events:
            seen[event.kind] += 1
            if event.kind == "card_played" and event.to in SIDE_NAMES:
                assert event.card.rank is not Rank.ACE  # every card reaches a side stack this way
            elif event.kind == "chips":
                transfers.append(event)
        if round_trip:
            dumped = EVENTS.dump_json(events)
            assert EVENTS.dump_json(EVENTS.validate_json(dumped)) == dumped
        check_table(game)
        steps += 1
    assert not any(card.rank is Rank.ACE for p in PLAYERS for s in game.side[p] for card in s)
    assert (
        Counter(
            game.stock
            + [c for p in PLAYERS for c in game.hands[p] + game.payoff[p]]
            + [c for s in game.centre for c in s]
            + [c for p in PLAYERS for s in game.side[p] for c in s]
        )
        == ALL_CARDS
    )
    standings = {s.player: s for s in game.standings()}
    assert sum(s.net for s in standings.values()) == 0
    if transfers:
        (transfer,) = transfers
        assert standings[transfer.to_account].net == transfer.amount == game.result.chips > 0
    else:
        assert all(s.net == 0 for s in standings.values())
    return game, seen


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_end_and_keep_every_card(chunk):
    size = GAMES // CHUNKS
    reasons = Counter()
    seen = Counter()
    for n in range(chunk * size, (chunk + 1) * size):
        game, kinds = play_game(n, round_trip=n % ROUND_TRIP_EVERY == 0)
        reasons[game.result.reason] += 1
        seen.update(kinds)
    # The random games really exercise the rules: wins, stalemates, completed stacks and refills all happen.
    assert reasons["payoff_emptied"] > 0 and reasons["stalemate"] > 0
    assert seen["stack_completed"] > 0 and seen["hand_refilled"] > 0 and seen["payoff_turned"] > 0


def candidate_plays(game):
    """Every play the current player could try with a named card and, for a joker on the centre, a rank."""
    player = game.current_player
    sources = [("hand", card) for card in set(game.hands[player])]
    sources.append(("payoff", game.payoff[player][-1]))
    sources += [(name, stack[-1]) for name, stack in zip(SIDE_NAMES, game.side[player], strict=True) if stack]
    for source, card in sources:
        for to in CENTRE_NAMES + SIDE_NAMES:
            ranks = list(Rank) if card is JOKER and to in CENTRE_NAMES else [None]
            for rank in ranks:
                yield Play(source=source, card=card, to=to, as_rank=rank)


@pytest.mark.parametrize("n", range(8))
def test_legal_actions_are_exactly_the_moves_that_apply(n):
    """Brute force on real positions: every play that apply() accepts is listed once, every listed move
    applies, and a refused move leaves the game untouched."""
    rng = random.Random(1000 + n)
    game = new_game(PLAYERS, f"complete-{n}")
    while not game.is_over:
        legal = game.legal_actions()
        assert legal and len(legal) == len(set(legal))
        before = game.model_dump_json()
        for action in candidate_plays(game):
            if action in legal:
                copy = MaliceGame.model_validate_json(before)
                copy.apply(action)
            else:
                with pytest.raises(IllegalAction):
                    game.apply(action)
        assert game.model_dump_json() == before
        game.apply(choose(game, rng, greedy=n % 2 == 0))


def test_the_same_seed_and_moves_give_the_same_game_byte_for_byte():
    def run(seed):
        rng = random.Random(7)
        game = new_game(PLAYERS, seed)
        log, events = [], []
        while not game.is_over:
            action = choose(game, rng, greedy=True)
            log.append(action.model_dump_json())
            events.append(EVENTS.dump_json(game.apply(action)))
        return game.model_dump_json(), log, events

    first, again = run("same"), run("same")
    assert first == again
    assert run("other")[0] != first[0]
    # Replaying the action log (as stored JSON) reproduces the game.
    game = new_game(PLAYERS, "same")
    for text in first[1]:
        game.apply(parse_action(text))
    assert game.model_dump_json() == first[0]


def test_a_game_continued_after_a_json_round_trip_plays_on_identically():
    rng_a, rng_b = random.Random(3), random.Random(3)
    straight = new_game(PLAYERS, "resume", stake=2)
    resumed = new_game(PLAYERS, "resume", stake=2)
    step = 0
    while not straight.is_over:
        if step % 7 == 0:
            resumed = MaliceGame.model_validate_json(resumed.model_dump_json())
        events_a = straight.apply(choose(straight, rng_a, greedy=True))
        events_b = resumed.apply(choose(resumed, rng_b, greedy=True))
        assert EVENTS.dump_json(events_a) == EVENTS.dump_json(events_b)
        step += 1
    assert resumed.is_over and straight.model_dump_json() == resumed.model_dump_json()
    assert (
        straight.seed_commitment
        == resumed.seed_commitment
        != MaliceGame.model_validate_json(new_game(PLAYERS, "x").model_dump_json()).seed_commitment
    )


def test_a_game_of_timeouts_ends_in_a_stalemate():
    game = new_game(PLAYERS, "timeouts")
    while not game.is_over:
        game.apply(game.default_action())
    assert game.result.reason == "stalemate"


def test_views_and_events_read_back_from_json_unchanged():
    """Views and events are assembled without validation; they must still be exactly what validation gives."""
    rng = random.Random(11)
    game = new_game(PLAYERS, "views")
    while not game.is_over:
        for view in (game.public_view(), game.view(PLAYERS[0]), game.view(PLAYERS[1])):
            text = view.model_dump_json()
            assert type(view).model_validate_json(text).model_dump_json() == text
            assert isinstance(view, (MalicePublicView, MaliceView))
        events = game.apply(choose(game, rng, greedy=True))
        dumped = EVENTS.dump_json(events)
        assert EVENTS.dump_json(EVENTS.validate_json(dumped)) == dumped
    text = game.public_view().model_dump_json()
    assert '"is_over":true' in text and '"current_player":null' in text
