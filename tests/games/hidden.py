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

from collections.abc import Callable

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
