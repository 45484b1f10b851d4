"""Helpers for Insomnia rules tests: hand-picked deals (through a scripted chance) and a compact way to write
actions."""

from __future__ import annotations

from bot.games.base import ChipTransfer
from bot.games.cards import Card, Rank, parse_cards
from bot.games.insomnia import Bid, Exchange, InsomniaGame, Pass, Play, Rethrow, deck_for, new_game
from tests.games.chance import ScriptedChance


def deal_order(
    players: list[str], hands: dict[str, str], dealer: int, stock: str = "", sevens: str = "hearts-spades"
) -> list[Card]:
    """The shuffled deck that deals these hands (4 cards each, from the dealer's left, rule 7) with `stock`
    on top of the stock and the rest of the deck below it in its fixed order."""
    n = len(players)
    order = [players[(dealer + 1 + i) % n] for i in range(n)]
    dealt = [card for p in order for card in parse_cards(hands[p])]
    top = parse_cards(stock) if stock else []
    rest = [card for card in deck_for(n, sevens) if card not in dealt and card not in top]
    return dealt + top + rest


def rig(
    players: list[str],
    hands: dict[str, str],
    dice: str,
    *,
    dealer: int = 0,
    stock: str = "",
    chips: int | dict[str, int] = 15,
    pot: int = 0,
    seed: str = "rig",
    max_deals: int | None = None,
    rethrows: list[str] = (),
    **house: str,
) -> InsomniaGame:
    """A new game whose first deal has these hands, this dealer, `stock` on top of the stock and this throw
    (`"A A 9 K"`); `rethrows` are the dice the next re-throws give (one face each). The first deal is dealt by
    the real `new_game`; everything unscripted comes from the seed.

    `chips` (everyone's, or each player's) and `pot` set up a position: they are written into the game after
    the deal, as a table would stand after earlier deals. `house` are house rules (`bust="out"`).
    """
    chance = ScriptedChance(
        indexes=[dealer],
        shuffles=[deal_order(players, hands, dealer, stock, house.get("sevens", "hearts-spades"))],
        throws=[dice.split(), *([r] for r in rethrows)],
    )
    game = new_game(players, seed, max_deals=max_deals, chance=chance, **house)
    if isinstance(chips, dict) or chips != 15:
        counts = dict(chips) if isinstance(chips, dict) else {p: chips for p in players}
        game.chips = dict(counts)
        game.starting_chips = dict(counts)
    game.pot = pot
    return game


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
