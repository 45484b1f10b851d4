"""The Malice game state and its turn flow: the two-player Spite-and-Malice race of docs/rules.md section 2.

The state is plain piles of `Card`s (the top of every pile is its last element) held in one pydantic model, so
the whole game is a small JSON document. Chance comes only from the game's `Chance` (`SeededGame._shuffle()`):
the same seed and the same actions give the same game, byte for byte.

The hot path (`legal_actions()` and `apply()`) avoids pydantic validation: every possible play is built once
at import, and events and views are assembled from values already known to be valid (`models.fast`), because
a benchmark and the property tests play thousands of whole games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field, PrivateAttr, ValidationError

from bot.games.base import ActionInput, ChipTransfer, GameEvent, IllegalAction, Player, SeededGame, Standing
from bot.games.cards import JOKER, Card, Rank, standard_deck
from bot.games.chance import Chance
from bot.games.malice.models import (
    CardPlayed,
    CardText,
    EndGame,
    EndReason,
    EndTurn,
    GameOver,
    HandRefilled,
    MalicePublicView,
    MaliceResult,
    MaliceView,
    PayoffTurned,
    Play,
    Resign,
    Source,
    StackCompleted,
    TurnEnded,
    TurnStarted,
    fast,
    parse_action,
)
from bot.games.malice.piles import (
    CARDS,
    CENTRE_INDEX,
    CENTRE_NAMES,
    FULL_STACK,
    HAND_SIZE,
    PAYOFF_SIZE,
    RANK_OF_VALUE,
    SIDE_ACCEPTS,
    SIDE_INDEX,
    SIDE_NAMES,
    STACKS,
    VALUE,
    side_reference,
)
from bot.games.refusal import said

Events = list[GameEvent]


def _free_centre() -> list[list[Card]]:
    return [[] for _ in range(STACKS)]


# --- the game -----------------------------------------------------------------------------------------------


class MaliceGame(SeededGame):
    """One game of Malice between two players (seat order = `players`)."""

    players: list[str]
    stake: int = 1
    max_turns: int = 500
    stock: list[CardText] = []
    hands: dict[str, list[CardText]] = {}
    payoff: dict[str, list[CardText]] = {}
    centre: list[list[CardText]] = Field(default_factory=lambda: _free_centre())
    side: dict[str, list[list[CardText]]] = {}
    seat: int = 0  # whose turn: an index into players
    turn: int = 1
    moved: bool = False  # a card moved during the current turn
    idle_turns: int = 0
    first_player_reshuffles: int = 0  # rule 4: how often equal payoff tops forced a reshuffle
    last_play: CardPlayed | None = None
    result: MaliceResult | None = None
    _opening: Events = PrivateAttr(default_factory=list)

    # -- reading the state

    @property
    def opening_events(self) -> Events:
        """The events of `new_game()` (the first turn starting), for the first announcement. Not
        serialised."""
        return list(self._opening)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def current_player(self) -> str | None:
        return None if self.result is not None else self.players[self.seat]

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def _needs(self) -> list[int]:
        """The value each centre slot takes next: 1 (an ace) for a free slot."""
        return [len(stack) + 1 for stack in self.centre]

    def _must_play_ace(self, player: str) -> bool:
        """Rule 9: a centre slot is free and an ace sits in the hand or on the payoff top."""
        if all(self.centre):
            return False
        payoff = self.payoff[player]
        return (bool(payoff) and VALUE[payoff[-1]] == 1) or any(VALUE[c] == 1 for c in self.hands[player])

    def legal_actions(self) -> list[Play | EndTurn]:
        """Every legal action of the current player, each once ([] when the game is over)."""
        if self.result is not None:
            return []
        player = self.players[self.seat]
        distinct = dict.fromkeys(self.hands[player])
        payoff = self.payoff[player]
        sides = self.side[player]
        slots_by_need: dict[int, list[int]] = {}
        for slot, stack in enumerate(self.centre):
            slots_by_need.setdefault(len(stack) + 1, []).append(slot)
        needs = [len(stack) + 1 for stack in self.centre]
        sources: list[tuple[Source, Card]] = [("hand", card) for card in distinct]
        if payoff:
            sources.append(("payoff", payoff[-1]))
        for slot, stack in enumerate(sides):
            if stack:
                sources.append((SIDE_NAMES[slot], stack[-1]))
        actions: list[Play | EndTurn] = []
        for source, card in sources:
            value = VALUE[card]
            if value:
                slots = slots_by_need.get(value)
                if slots:
                    plays = _CENTRE_PLAYS[source][card]
                    actions.extend(plays[slot] for slot in slots)
            else:  # a joker fits every centre slot, as the rank it needs
                jokers = _JOKER_PLAYS[source]
                actions.extend(jokers[slot][needs[slot]] for slot in range(STACKS))
        if 1 in slots_by_need and (
                (payoff and VALUE[payoff[-1]] == 1) or any(VALUE[card] == 1 for card in distinct)):
            return actions  # rule 9: the ace first; no side play, no end of turn
        accepts = [SIDE_ACCEPTS[side_reference(stack)] for stack in sides]
        for card in distinct:
            value = VALUE[card]
            plays = _SIDE_PLAYS[card]
            for slot in range(STACKS):
                if value in accepts[slot]:
                    actions.append(plays[slot])
        actions.append(_END_TURN)
        return actions

    def default_action(self) -> Play | EndTurn | None:
        """What a turn timeout applies: an ace the rules force to the centre (the payoff's first), else the
        end of the turn. After an ace the turn goes on: a timeout applies this until the turn passes."""
        if self.result is not None:
            return None
        player = self.players[self.seat]
        if self._must_play_ace(player):
            slot = next(i for i, stack in enumerate(self.centre) if not stack)
            payoff = self.payoff[player]
            if payoff and VALUE[payoff[-1]] == 1:
                return _CENTRE_PLAYS["payoff"][payoff[-1]][slot]
            ace = next(c for c in self.hands[player] if VALUE[c] == 1)
            return _CENTRE_PLAYS["hand"][ace][slot]
        return _END_TURN

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
            if self._must_play_ace(player):
                raise IllegalAction("malice.refusal.ace_first")
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

    def _check_source(self, player: str, action: Play) -> Card:
        """The card the action moves, after checking that it is where the action says."""
        card = action.card
        source = action.source
        if source == "hand":
            if card is None:
                raise IllegalAction("malice.refusal.say_card")
            if card not in self.hands[player]:
                raise IllegalAction("malice.refusal.not_in_hand", card=card)
            return card
        if source == "payoff":
            payoff = self.payoff[player]
            top = payoff[-1]  # never empty while the game runs: the last payoff card ends it
            if card is not None and card is not top:
                raise IllegalAction("malice.refusal.payoff_shows", top=top, card=card)
            if action.to not in CENTRE_INDEX:
                raise IllegalAction("malice.refusal.payoff_to_centre")
            return top
        index = SIDE_INDEX[source]
        stack = self.side[player][index]
        if not stack:
            raise IllegalAction("malice.refusal.side_empty", stack=index + 1)
        top = stack[-1]
        if card is not None and card is not top:
            raise IllegalAction("malice.refusal.side_shows", stack=index + 1, top=top, card=card)
        if action.to not in CENTRE_INDEX:
            raise IllegalAction("malice.refusal.side_to_side")
        return top

    @staticmethod
    def _check_centre(card: Card, slot: int, need: int, as_rank: Rank | None) -> Rank | None:
        """Rule 8. Returns the rank a joker takes (None for other cards)."""
        value = VALUE[card]
        if value == 0:
            if as_rank is not None and as_rank.ace_low != need:
                if need == 1:
                    raise IllegalAction("malice.refusal.joker_starts_as_ace")
                raise IllegalAction("malice.refusal.joker_only", stack=slot + 1, rank=RANK_OF_VALUE[need])
            return RANK_OF_VALUE[need]
        if as_rank is not None:
            # A rank is the joker's alone: one spelling per move, the one legal_actions() lists.
            if as_rank.ace_low != value:
                raise IllegalAction("malice.refusal.rank_for_joker_only")
            raise IllegalAction("malice.refusal.leave_rank_out", rank=RANK_OF_VALUE[value])
        if value != need:
            if need == 1:
                raise IllegalAction("malice.refusal.ace_starts")
            raise IllegalAction(
                "malice.refusal.centre_needs", card=card, stack=slot + 1, rank=RANK_OF_VALUE[need])
        return None

    def _check_side(self, player: str, action: Play, card: Card) -> None:
        """Rules 9 and 11 (the source is the hand: other sources were refused already)."""
        value = VALUE[card]
        if value == 1:  # the rule broken first, the spelling after
            raise IllegalAction("malice.refusal.ace_not_on_side")
        if action.as_rank is not None:
            raise IllegalAction("malice.refusal.side_keeps_rank")
        if self._must_play_ace(player):
            raise IllegalAction("malice.refusal.ace_first")
        stack = self.side[player][SIDE_INDEX[action.to]]
        ref = side_reference(stack)
        if value in SIDE_ACCEPTS[ref]:
            return
        # `ref` is never 0 here (an empty or all-joker stack takes any card but the ace refused above)
        top, below = RANK_OF_VALUE[ref], RANK_OF_VALUE[ref - 1]
        allowed = said("malice.refusal.either", high=top, low=below) if ref > 2 else top
        number = SIDE_INDEX[action.to] + 1
        if stack[-1] is JOKER:
            raise IllegalAction(
                "malice.refusal.side_takes_joker", card=card, stack=number, top=top, allowed=allowed)
        raise IllegalAction("malice.refusal.side_takes", card=card, stack=number, top=top, allowed=allowed)

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
        events: Events = [fast(
            GameOver,
            reason=reason, winner=winner, loser=loser, score=score, chips=chips,
            payoff_counts={p: len(self.payoff[p]) for p in self.players},
        )]
        if chips > 0 and winner is not None and loser is not None:
            events.append(ChipTransfer(from_account=loser, to_account=winner, amount=chips,
                                       reason="malice_score"))
        return events

    # -- views and results

    def public_view(self) -> MalicePublicView:
        return fast(MalicePublicView, **self._public_fields())

    def view(self, player: str) -> MaliceView:
        if player not in self.players:
            raise ValueError(f"{player} is not playing in this game.")
        return fast(
            MaliceView,
            **self._public_fields(),
            player=player,
            hand=list(self.hands[player]),
            must_play_ace=self.result is None and player == self.players[self.seat]
            and self._must_play_ace(player),
        )

    def _public_fields(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "current_player": self.current_player,
            "turn": self.turn,
            "max_turns": self.max_turns,
            "stake": self.stake,
            "stock_count": len(self.stock),
            "payoff_counts": {p: len(self.payoff[p]) for p in self.players},
            "payoff_top": {p: (self.payoff[p][-1] if self.payoff[p] else None) for p in self.players},
            "hand_counts": {p: len(self.hands[p]) for p in self.players},
            "centre": [list(stack) for stack in self.centre],
            "centre_needs": [RANK_OF_VALUE[need] for need in self._needs()],
            "side": {p: [list(stack) for stack in self.side[p]] for p in self.players},
            "moved_this_turn": self.moved,
            "idle_turns": self.idle_turns,
            "last_play": self.last_play,
            "is_over": self.result is not None,
            "result": self.result,
        }

    def standings(self) -> list[Standing]:
        """Results when over: the winner (placement 1) first; a draw puts both at placement 1 with net 0."""
        result = self.result
        if result is None:
            raise ValueError("The game is not over yet.")
        if result.winner is None or result.loser is None:
            return [Standing(player=p, placement=1, net=0, won=False) for p in self.players]
        return [
            Standing(player=result.winner, placement=1, net=result.chips, won=True),
            Standing(player=result.loser, placement=2, net=-result.chips, won=False),
        ]


# Every play there can be, built once: legal_actions() only picks from these tables.
_END_TURN = EndTurn()
_SOURCES: tuple[Source, ...] = ("hand", "payoff", *SIDE_NAMES)
_CENTRE_PLAYS: dict[Source, dict[Card, list[Play]]] = {
    source: {card: [Play(source=source, card=card, to=to) for to in CENTRE_NAMES] for card in CARDS}
    for source in _SOURCES
}
_JOKER_PLAYS: dict[Source, list[dict[int, Play]]] = {
    source: [{value: Play(source=source, card=JOKER, to=to, as_rank=rank)
              for value, rank in RANK_OF_VALUE.items()} for to in CENTRE_NAMES]
    for source in _CENTRE_PLAYS
}
_SIDE_PLAYS: dict[Card, list[Play]] = {card: [Play(source="hand", card=card, to=to) for to in SIDE_NAMES]
                                       for card in CARDS}


def new_game(
    players: Sequence[str], seed: str, stake: int = 1, max_turns: int = 500, *, chance: Chance | None = None
) -> MaliceGame:
    """A new game for two player ids (seat order), dealt by `chance`, by default seeded from `seed`
    (rules 1-7)."""
    players = list(players)
    if len(players) != 2 or players[0] == players[1]:
        raise ValueError("Malice is for exactly two different players.")
    if stake < 0:
        raise ValueError("The stake per card cannot be negative.")
    if max_turns < 1:
        raise ValueError("The turn cap must be at least 1.")
    game = MaliceGame(seed=seed, players=players, stake=stake, max_turns=max_turns,
                      hands={p: [] for p in players}, side={p: [[] for _ in range(STACKS)] for p in players})
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
