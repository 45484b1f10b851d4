"""Malice's moves: which plays the piles allow now, and why a play is refused (rules 8-12, 14; house rule H4).

This part only reads the piles: it lists the legal actions (picked from plays built once at import, because
benchmarks and property tests play thousands of whole games) and checks a play's source, centre or side
target. Moving the cards, the turns and the score are the game's (`game.py`).
"""

from __future__ import annotations

from bot.games.base import IllegalAction
from bot.games.cards import JOKER, Card, Rank
from bot.games.malice.models import EndTurn, Play, Source
from bot.games.malice.piles import (
    CARDS,
    CENTRE_INDEX,
    CENTRE_NAMES,
    RANK_OF_VALUE,
    SIDE_ACCEPTS,
    SIDE_INDEX,
    SIDE_NAMES,
    STACKS,
    VALUE,
    side_reference,
)
from bot.games.malice.state import MaliceState
from bot.games.refusal import said


class Moves(MaliceState):
    """The legal actions, the default action and the checks of a single play."""

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
                    plays = CENTRE_PLAYS[source][card]
                    actions.extend(plays[slot] for slot in slots)
            else:  # a joker fits every centre slot, as the rank it needs
                jokers = JOKER_PLAYS[source]
                actions.extend(jokers[slot][needs[slot]] for slot in range(STACKS))
        if 1 in slots_by_need and (
            (payoff and VALUE[payoff[-1]] == 1) or any(VALUE[card] == 1 for card in distinct)
        ):
            return actions  # rule 9: the ace first; no side play, no end of turn
        accepts = [SIDE_ACCEPTS[side_reference(stack)] for stack in sides]
        before = len(actions)
        for card in distinct:
            value = VALUE[card]
            plays = SIDE_PLAYS[card]
            for slot in range(STACKS):
                if value in accepts[slot]:
                    actions.append(plays[slot])
        if self.discard == "optional" or len(actions) == before:
            actions.append(END_TURN)  # house rule H4 "required": only when no card can go to a side stack
        return actions

    def _side_plays(self, player: str) -> list[Play]:
        """Every play of a card from his hand to one of his side stacks the rules allow now (rules 9, 11)."""
        if self._must_play_ace(player):
            return []
        accepts = [SIDE_ACCEPTS[side_reference(stack)] for stack in self.side[player]]
        return [
            SIDE_PLAYS[card][slot]
            for card in dict.fromkeys(self.hands[player])
            for slot in range(STACKS)
            if VALUE[card] in accepts[slot]
        ]

    def _check_end_turn(self, player: str) -> None:
        """Rule 9, and house rule H4: whether he may end his turn without a side play now."""
        if self._must_play_ace(player):
            raise IllegalAction("malice.refusal.ace_first")
        if self.discard == "required" and self._side_plays(player):
            raise IllegalAction("malice.refusal.side_play_first")

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
                return CENTRE_PLAYS["payoff"][payoff[-1]][slot]
            ace = next(c for c in self.hands[player] if VALUE[c] == 1)
            return CENTRE_PLAYS["hand"][ace][slot]
        if self.discard == "required":
            # House rule H4: the turn ends with a side play when there is one. The highest card goes (a joker
            # last: it fits anywhere later), to the first stack that takes it, keeping the low cards for the
            # centre.
            sides = self._side_plays(player)
            if sides:
                return max(sides, key=lambda play: VALUE[play.card] if play.card is not None else 0)
        return END_TURN

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
                "malice.refusal.centre_needs", card=card, stack=slot + 1, rank=RANK_OF_VALUE[need]
            )
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
                "malice.refusal.side_takes_joker", card=card, stack=number, top=top, allowed=allowed
            )
        raise IllegalAction("malice.refusal.side_takes", card=card, stack=number, top=top, allowed=allowed)


# Every play there can be, built once: legal_actions() only picks from these tables.
END_TURN = EndTurn()
_SOURCES: tuple[Source, ...] = ("hand", "payoff", *SIDE_NAMES)
CENTRE_PLAYS: dict[Source, dict[Card, list[Play]]] = {
    source: {card: [Play(source=source, card=card, to=to) for to in CENTRE_NAMES] for card in CARDS}
    for source in _SOURCES
}
JOKER_PLAYS: dict[Source, list[dict[int, Play]]] = {
    source: [
        {value: Play(source=source, card=JOKER, to=to, as_rank=rank) for value, rank in RANK_OF_VALUE.items()}
        for to in CENTRE_NAMES
    ]
    for source in CENTRE_PLAYS
}
SIDE_PLAYS: dict[Card, list[Play]] = {
    card: [Play(source="hand", card=card, to=to) for to in SIDE_NAMES] for card in CARDS
}
