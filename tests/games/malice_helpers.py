"""Set up Malice positions from short text, for table-driven rule tests.

    table('''
        centre: A 2 3 | A
        stock: 5 6 7
        a hand: 7 8 JK
        a payoff: K 2        # bottom to top: the 2 is face up
        a side: 9 | | JK 5
        b payoff: Q
    ''')

Players are "a" and "b"; "a" is to move unless a `turn:` line says otherwise. Every pile is written bottom
to top, so its last card is the top (the stock's last card is drawn first). Stacks are split by `|`. A bare
rank (`7`, `A`, `10`) stands for that rank in spades: suits never matter in Malice. Piles not given are empty,
except the payoff piles, which default to `KC KD` (so nobody wins by accident).
"""

from __future__ import annotations

from bot.games.cards import Card, Rank, Suit
from bot.games.malice import CENTRE_NAMES, SIDE_NAMES, MaliceGame, Play, parse_action

PLAYERS = ["a", "b"]


def cards(text: str) -> list[Card]:
    out = []
    for token in text.split():
        try:
            out.append(Card.parse(token))
        except ValueError:
            out.append(Card.of(Rank.parse(token), Suit.SPADES))
    return out


def stacks(text: str) -> list[list[Card]]:
    parts = [cards(part) for part in text.split("|")] if text.strip() else []
    assert len(parts) <= 4, f"at most 4 stacks: {text!r}"
    return parts + [[] for _ in range(4 - len(parts))]


def table(
    spec: str = "",
    *,
    stake: int = 1,
    max_turns: int = 500,
    turn: int = 1,
    seed: str = "test",
    discard: str = "optional",
) -> MaliceGame:
    lines = {}
    for raw in spec.strip().splitlines():
        line = raw.split("#")[0].strip()
        if line:
            key, _, value = line.partition(":")
            lines[key.strip()] = value.strip()
    state = {
        "seed": seed,
        "players": PLAYERS,
        "stake": stake,
        "max_turns": max_turns,
        "discard": discard,
        "turn": turn,
        "seat": PLAYERS.index(lines.pop("turn", "a")),
        "stock": cards(lines.pop("stock", "")),
        "centre": stacks(lines.pop("centre", "")),
        "hands": {p: cards(lines.pop(f"{p} hand", "")) for p in PLAYERS},
        "payoff": {p: cards(lines.pop(f"{p} payoff", "KC KD")) for p in PLAYERS},
        "side": {p: stacks(lines.pop(f"{p} side", "")) for p in PLAYERS},
    }
    assert not lines, f"unknown lines: {sorted(lines)}"
    return MaliceGame.model_validate(state)


def play(card: str | None, source: str = "hand", to: str = "centre1", as_rank: str | None = None) -> Play:
    """A play action written briefly: play("7", to="side2"), play("JK", to="centre1", as_rank="5")."""
    assert to in CENTRE_NAMES + SIDE_NAMES
    return parse_action(
        {
            "kind": "play",
            "source": source,
            "card": None if card is None else str(cards(card)[0]),
            "to": to,
            "as_rank": as_rank,
        }
    )


def total_cards(game: MaliceGame) -> int:
    """Every card on the table, counted through the public view."""
    view = game.public_view()
    return (
        view.stock_count
        + sum(view.payoff_counts.values())
        + sum(view.hand_counts.values())
        + sum(len(stack) for stack in view.centre)
        + sum(len(stack) for player_stacks in view.side.values() for stack in player_stacks)
    )
