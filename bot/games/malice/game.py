"""The Malice game: its turn flow and its scoring, the two-player Spite-and-Malice race of docs/rules.md
section 2.

`MaliceGame` moves the cards, draws, passes the turn and ends the game (rules 7, 10, 12-13, 15-17). What
may go where is its moves part (`moves.py`), over the state of `state.py`: plain piles of `Card`s (the top of
every pile is its last element) in one pydantic model, so the whole game is a small JSON document. Chance
comes only from the game's `Chance` (`SeededGame._shuffle()`): the same seed and the same actions give the
same game, byte for byte.

The hot path (`legal_actions()` and `apply()`) avoids pydantic validation: every possible play is built once
at import, and events and views are assembled from values already known to be valid (`models.fast`), because
a benchmark and the property tests play thousands of whole games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from pydantic import ValidationError

from bot.games.base import ActionInput, ChipTransfer, IllegalAction, Player
from bot.games.cards import JOKER, Card, standard_deck
from bot.games.chance import Chance
from bot.games.malice.models import (
    CardPlayed,
    Discard,
    EndGame,
    EndReason,
    EndTurn,
    GameOver,
    HandRefilled,
    MaliceResult,
    PayoffTurned,
    Play,
    Resign,
    StackCompleted,
    TurnEnded,
    TurnStarted,
    fast,
    parse_action,
)
from bot.games.malice.moves import Moves
from bot.games.malice.piles import (
    CENTRE_INDEX,
    FULL_STACK,
    HAND_SIZE,
    PAYOFF_SIZE,
    SIDE_INDEX,
    STACKS,
    VALUE,
)
from bot.games.malice.state import Events

__all__ = ["Events", "MaliceGame", "new_game"]


class MaliceGame(Moves):
    """One game of Malice between two players (seat order = `players`). Mutated in place by `apply()`."""

    # -- changing the state

    def apply(self, action: ActionInput) -> Events:
        """Apply one action and return the public events it caused; `IllegalAction` if it is not allowed."""
        if not isinstance(action, Play | EndTurn | Resign | EndGame):
            try:
                action = parse_action(action)
            except ValidationError as error:  # the contract: every refusal is an IllegalAction (as Insomnia)
                raise IllegalAction("table.not_an_action") from error
        if self.result is not None:
            raise IllegalAction("table.game_over")
        if isinstance(action, Play):
            return self._play(action)
        if isinstance(action, EndTurn):
            player = self.players[self.seat]
            self._check_end_turn(player)
            return self._end_turn(player, side_play=False)
        if isinstance(action, Resign):
            if action.player not in self.players:
                raise IllegalAction("malice.refusal.not_playing", player=Player(action.player))
            winner = self.opponent(action.player)
            return self._finish("resign", winner, len(self.payoff[action.player]))
        return self._finish_by_count("cancelled")

    def _play(self, action: Play) -> Events:
        player = self.players[self.seat]
        card = self._check_source(player, action)
        to = action.to
        if to in CENTRE_INDEX:
            slot = CENTRE_INDEX[to]
            need = len(self.centre[slot]) + 1
            as_rank = self._check_centre(card, slot, need, action.as_rank)
        else:
            self._check_side(player, action, card)
            as_rank = None
        # The move is legal: take the card off its pile.
        source = action.source
        if source == "hand":
            self.hands[player].remove(card)
        elif source == "payoff":
            self.payoff[player].pop()
        else:
            self.side[player][SIDE_INDEX[source]].pop()
        self.moved = True
        played = fast(CardPlayed, player=player, card=card, source=source, to=to, as_rank=as_rank)
        self.last_play = played
        events: Events = [played]
        if to not in CENTRE_INDEX:
            self.side[player][SIDE_INDEX[to]].append(card)
            events.extend(self._end_turn(player, side_play=True))
            return events
        stack = self.centre[slot]
        stack.append(card)
        payoff = self.payoff[player]
        if source == "payoff" and payoff:
            events.append(fast(PayoffTurned, player=player, card=payoff[-1], remaining=len(payoff)))
        if len(stack) == FULL_STACK:  # rule 10
            self.stock.extend(stack)
            self.centre[slot] = []
            self._shuffle(self.stock)
            events.append(fast(StackCompleted, slot=to, stock_count=len(self.stock)))
        if not payoff:  # rule 15: the last payoff card wins at once
            events.extend(self._finish("payoff_emptied", player, len(self.payoff[self.opponent(player)])))
            return events
        hand = self.hands[player]
        if not hand and self.stock:  # rule 13
            drawn = self._draw(hand, HAND_SIZE)
            events.append(fast(HandRefilled, player=player, drawn=drawn))
        return events

    def _draw(self, hand: list[Card], upto: int) -> int:
        count = min(upto - len(hand), len(self.stock))
        if count <= 0:
            return 0
        stock = self.stock
        for _ in range(count):
            hand.append(stock.pop())
        return count

    def _end_turn(self, player: str, side_play: bool) -> Events:
        events: Events = [
            fast(TurnEnded, player=player, turn=self.turn, side_play=side_play, moved=self.moved)
        ]
        self.idle_turns = 0 if self.moved else self.idle_turns + 1
        if self.idle_turns >= 2:  # rule 16
            events.extend(self._finish_by_count("stalemate"))
        elif self.turn >= self.max_turns:  # rule 17
            events.extend(self._finish_by_count("turn_cap"))
        else:
            events.append(self._start_turn(1 - self.seat, self.turn + 1))
        return events

    def _start_turn(self, seat: int, turn: int) -> TurnStarted:
        """Rule 7: the player draws up to 5 cards."""
        self.seat = seat
        self.turn = turn
        self.moved = False
        player = self.players[seat]
        drawn = self._draw(self.hands[player], HAND_SIZE)
        return fast(TurnStarted, player=player, turn=turn, drawn=drawn)

    def _finish_by_count(self, reason: EndReason) -> Events:
        """Rule 16 scoring: fewer payoff cards wins by the difference; equal counts are a draw."""
        first, second = self.players
        a, b = len(self.payoff[first]), len(self.payoff[second])
        if a == b:
            return self._finish(reason, None, 0)
        return self._finish(reason, first if a < b else second, abs(a - b))

    def _finish(self, reason: EndReason, winner: str | None, score: int) -> Events:
        loser = None if winner is None else self.opponent(winner)
        chips = score * self.stake if winner is not None else 0
        self.result = fast(MaliceResult, reason=reason, winner=winner, loser=loser, score=score, chips=chips)
        events: Events = [
            fast(
                GameOver,
                reason=reason,
                winner=winner,
                loser=loser,
                score=score,
                chips=chips,
                payoff_counts={p: len(self.payoff[p]) for p in self.players},
            )
        ]
        if chips > 0 and winner is not None and loser is not None:
            events.append(
                ChipTransfer(from_account=loser, to_account=winner, amount=chips, reason="malice_score")
            )
        return events


def new_game(
    players: Sequence[str],
    seed: str,
    stake: int = 1,
    max_turns: int = 500,
    *,
    discard: Discard = "optional",
    chance: Chance | None = None,
) -> MaliceGame:
    """A new game for two player ids (seat order), dealt by `chance`, by default seeded from `seed`
    (rules 1-7). `stake`, `max_turns` and `discard` are the house rules H6, H5 and H4 of docs/rules.md
    section 3 (the defaults are the standard rules)."""
    players = list(players)
    if len(players) != 2 or players[0] == players[1]:
        raise ValueError("Malice is for exactly two different players.")
    if stake < 0:
        raise ValueError("The stake per card cannot be negative.")
    if max_turns < 1:
        raise ValueError("The turn cap must be at least 1.")
    if discard not in (choices := get_args(Discard)):
        raise ValueError(f"{discard!r} is not a house rule of Malice: choose {' or '.join(choices)}.")
    game = MaliceGame(
        seed=seed,
        players=players,
        stake=stake,
        max_turns=max_turns,
        discard=discard,
        hands={p: [] for p in players},
        side={p: [[] for _ in range(STACKS)] for p in players},
    )
    game._use_chance(chance)
    # Rule 3: deck A split into two payoff piles of 26; the last card of each is its face-up top.
    deck_a = standard_deck()
    game._shuffle(deck_a)
    game.payoff = {players[0]: deck_a[:PAYOFF_SIZE], players[1]: deck_a[PAYOFF_SIZE:]}
    # Rule 4: the higher top goes first (ace low); equal ranks: each player reshuffles his own pile.
    while VALUE[game.payoff[players[0]][-1]] == VALUE[game.payoff[players[1]][-1]]:
        for p in players:
            game._shuffle(game.payoff[p])
        game.first_player_reshuffles += 1
    first = 0 if VALUE[game.payoff[players[0]][-1]] > VALUE[game.payoff[players[1]][-1]] else 1
    # Rule 5: the other player shuffles deck B and deals 5 each, one at a time, the first player first.
    deck_b = standard_deck() + [JOKER] * 4
    game._shuffle(deck_b)
    game.stock = deck_b
    for _ in range(HAND_SIZE):
        for seat in (first, 1 - first):
            game.hands[players[seat]].append(deck_b.pop())
    game._opening = [game._start_turn(first, 1)]
    return game
