"""Insomnia's stage 3: four tricks, trumps fixed by the first card led (rules 21-24).

The part plays cards and settles tricks; it reports when the fourth trick is done, and the deal flow
(`game.py`) shares the pot.
"""

from __future__ import annotations

from bot.games.base import IllegalAction
from bot.games.cards import Card
from bot.games.insomnia.hands import trick_winner
from bot.games.insomnia.models import Action, CardPlayed, Play, TrickPlay, TrickWon
from bot.games.insomnia.payouts import Payouts
from bot.games.insomnia.state import Events

TRICKS = 4  # rule 21: each player plays all four cards


class Tricks(Payouts):
    """Following suit, trumps and who wins each trick."""

    def _start_tricks(self, leader: str) -> None:
        self.phase = "tricks"
        self.stage = 3
        self.turn = leader

    def _playable(self, player: str) -> list[Card]:
        """Rule 23: the cards of the suit led if he has any, else his whole hand."""
        hand = self.hands[player]
        if self.trick:
            led = self.trick[0].card.suit
            follow = [c for c in hand if c.suit == led]
            if follow:
                return follow
        return list(hand)

    def _apply_play(self, action: Action, events: Events) -> bool:
        """One card to the trick. True when the fourth trick is complete."""
        if not isinstance(action, Play):
            raise IllegalAction("insomnia.refusal.tricks_now")
        player, card = self._mover(), action.card
        hand = self.hands[player]
        if card not in hand or card.suit is None:  # Insomnia's decks have no joker
            raise IllegalAction("insomnia.refusal.play_not_held", card=card)
        if self.trick:
            led = self.trick[0].card.suit
            if led is not None and card.suit != led and any(c.suit == led for c in hand):
                raise IllegalAction("insomnia.refusal.follow_suit", suit=led)
        hand.remove(card)
        trump = self.trump
        if trump is None:
            trump = self.trump = card.suit  # rule 22: the first card led in this stage fixes trumps
        self.trick.append(TrickPlay(player=player, card=card))
        events.append(CardPlayed(player=player, card=card, trick=self.tricks_played + 1, trump=trump))
        if len(self.trick) < len(self._playing()):
            self.turn = self._left_of(player)
            return False
        plays = self.trick
        winner = plays[trick_winner([p.card for p in plays], self.trump)].player
        self.tricks_played += 1
        self.tricks_won[winner] += 1
        self.won_cards[winner].extend(p.card for p in plays)
        self.last_trick = plays
        self.trick = []
        events.append(TrickWon(trick=self.tricks_played, winner=winner, plays=plays))
        if self.tricks_played < TRICKS:
            self.turn = winner  # rule 24: the trick's winner leads the next one
            return False
        return True
