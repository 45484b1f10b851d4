"""Twins for the hidden-card test of the conformance suite: for each game, the same game with every card
that a viewer cannot see moved to another hidden place.

What a player may not see differs by game (other hands and the stock in Insomnia; the opponent's hand, the
stock and the payoff piles under their tops in Malice), so each game names its hidden places here. The suite
then checks, for any game, that a twin looks the same to that viewer: his view, the public view and his legal
actions. A view that showed a hidden card would differ, because in the twin that place holds another card.

The hidden cards are rotated by one place through all hidden places together, so every place gets a card from
its neighbour: any single leaked card shows up, whatever the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.games.base import GameState
from bot.games.cards import Card
from bot.games.insomnia import InsomniaGame
from bot.games.malice import MaliceGame
from tests.games.highcard import HighCardGame

Twin = Callable[[GameState, str | None], GameState]


def _rotate(places: list[list[Card]]) -> None:
    """Move every card one place on through the hidden places, in place, keeping each place's size."""
    pool = [card for place in places for card in place]
    if not pool:
        return
    pool = pool[1:] + pool[:1]
    for place in places:
        size = len(place)
        place[:], pool = pool[:size], pool[size:]


def _insomnia(game: GameState, viewer: str | None) -> GameState:
    assert isinstance(game, InsomniaGame)
    twin = InsomniaGame.model_validate_json(game.model_dump_json())
    others = [p for p in twin.players if p != viewer]
    _rotate([twin.hands[p] for p in others] + [twin.stock, twin.discards])
    for p in others:
        twin.hands[p].sort()  # the engine keeps hands sorted
    return twin


def _malice(game: GameState, viewer: str | None) -> GameState:
    assert isinstance(game, MaliceGame)
    twin = MaliceGame.model_validate_json(game.model_dump_json())
    under_tops = [twin.payoff[p][:-1] for p in twin.players]
    _rotate([twin.hands[p] for p in twin.players if p != viewer] + [twin.stock, *under_tops])
    for p, under in zip(twin.players, under_tops, strict=True):
        twin.payoff[p][:-1] = under
    return twin


def _highcard(game: GameState, viewer: str | None) -> GameState:
    assert isinstance(game, HighCardGame)
    twin = HighCardGame.model_validate_json(game.model_dump_json())
    _rotate([twin.hands[p] for p in twin.players if p != viewer] + [twin.deck])
    return twin


TWINS: dict[str, Twin] = {"insomnia": _insomnia, "malice": _malice, "highcard": _highcard}


# --- random re-deals (tests/test_hidden_information.py) -----------------------------------------------------
#
# A twin above moves every hidden card one place on; a re-deal shuffles them at random, as another deal that
# fits everything the table has seen could have placed them. The hidden places fall into classes: within a
# class any card may be anywhere, between classes never (Malice's payoff piles are dealt from deck A, its
# hands and stock from deck B: a joker can never be buried in a payoff pile). A place keeps its size, and a
# card the table has seen in a place (an Insomnia hand shown by rule 16) stays where it is.


@dataclass(frozen=True)
class Place:
    """A hidden place: the list the game keeps (changed in place) and the positions in it hidden from the
    reader (the rest are known to him and stay)."""

    cards: list[Card]
    hidden: tuple[int, ...]

    @classmethod
    def whole(cls, cards: list[Card]) -> Place:
        return cls(cards, tuple(range(len(cards))))


Classes = Callable[[GameState, str | None], list[list[Place]]]


def _insomnia_classes(game: GameState, viewer: str | None) -> list[list[Place]]:
    """Every hand but the reader's, the stock and the discards are one class: all 2-8 hands, stock and
    discards come from one shuffled deck. A hand shown by rule 16 (`shown_hand`) is known card by card."""
    assert isinstance(game, InsomniaGame)
    shown = game.shown_hand
    places = [Place.whole(game.stock), Place.whole(game.discards)]
    for p in game.players:
        if p == viewer:
            continue
        hand = game.hands.get(p, [])
        known = set(shown.cards) if shown is not None and shown.player == p else set()
        places.append(Place(hand, tuple(i for i, c in enumerate(hand) if c not in known)))
    return [places]


def _malice_classes(game: GameState, viewer: str | None) -> list[list[Place]]:
    """Deck B (the hands but the reader's, and the stock, which completed centre stacks refill with cards of
    both decks) is one class; deck A's buried payoff cards (every payoff card under its face-up top, hidden
    from everyone) are the other."""
    assert isinstance(game, MaliceGame)
    hands = [Place.whole(game.hands[p]) for p in game.players if p != viewer]
    buried = [Place(game.payoff[p], tuple(range(len(game.payoff[p]) - 1))) for p in game.players]
    return [[*hands, Place.whole(game.stock)], buried]


def _highcard_classes(game: GameState, viewer: str | None) -> list[list[Place]]:
    assert isinstance(game, HighCardGame)
    return [[Place.whole(game.hands[p]) for p in game.players if p != viewer] + [Place.whole(game.deck)]]


CLASSES: dict[str, Classes] = {
    "insomnia": _insomnia_classes,
    "malice": _malice_classes,
    "highcard": _highcard_classes,
}


def redeal(game: GameState, rng: random.Random, viewer: str | None = None) -> GameState:
    """A copy of `game` with every card hidden from `viewer` (None: from everyone, the public reader) shuffled
    at random among the hidden places of its class, each place keeping its size; `rng` picks the deal.

    The copy keeps what the reader knows, and may contradict what the table could only infer (a suit a
    player failed to follow, the best hand a payout described): a public surface must not depend on those
    either, so a freer re-deal only makes the test stricter."""
    twin = game.model_validate_json(game.model_dump_json())
    kind = next(name for name, game_type in GAMES.items() if isinstance(twin, game_type))
    for places in CLASSES[kind](twin, viewer):
        pool = [place.cards[i] for place in places for i in place.hidden]
        rng.shuffle(pool)
        for place in places:
            for i in place.hidden:
                place.cards[i] = pool.pop()
    if isinstance(twin, InsomniaGame):
        for p in twin.players:
            twin.hands.get(p, []).sort()  # the engine keeps hands sorted
    return twin


GAMES: dict[str, type] = {"insomnia": InsomniaGame, "malice": MaliceGame, "highcard": HighCardGame}
