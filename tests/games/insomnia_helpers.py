"""Helpers for Insomnia rules tests: rigged deals and a compact way to write actions."""

from __future__ import annotations

from bot.games.base import ChipTransfer
from bot.games.cards import Rank
from bot.games.insomnia import Bid, Exchange, InsomniaGame, Pass, Play, Rethrow

rig = InsomniaGame.rig


def action(move: str):
    """`pass`, `bid 3`, `x AS` (exchange), `r 2` (re-throw die 2), or a card to play (`AS`)."""
    if move == "pass":
        return Pass()
    word, _, arg = move.partition(" ")
    if word == "bid":
        return Bid(amount=int(arg))
    if word == "x":
        return Exchange(card=arg)
    if word == "r":
        return Rethrow(die=int(arg))
    return Play(card=move)


def act(game: InsomniaGame, *moves: str) -> list:
    """Apply moves in order (each by whoever's turn it is); all their events."""
    events: list = []
    for move in moves:
        events += game.apply(action(move))
    return events


def pass_to(game: InsomniaGame, phase: str) -> list:
    """Everyone passes (exchange, auction, re-throws) until the game reaches `phase` (or ends)."""
    events: list = []
    while game.phase != phase and not game.is_over:
        events += game.apply(Pass())
    return events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def first(events: list, kind: str):
    return next(e for e in events if e.kind == kind)


def transfers(events: list, reason: str | None = None) -> list[tuple[str, str, int]]:
    return [
        (e.from_account, e.to_account, e.amount)
        for e in events
        if isinstance(e, ChipTransfer) and (reason is None or e.reason == reason)
    ]


def dice(text: str) -> list[Rank]:
    return [Rank.parse(x) for x in text.split()]
