"""Insomnia's payouts: who is paid what, and when the chips end the game (rules 13-20, 25, 28, 30-31, and
house rule H2).

Every step here moves chips (or finds that none move), records each movement as a `ChipTransfer` event and
then asks the end check of rule 31 (under H2: who leaves the game). Each returns whether the game ended, and
never decides what comes next: the deal flow (`game.py`) does.
"""

from __future__ import annotations

from bot.games.base import POT, ChipTransfer
from bot.games.insomnia.hands import best_match, dice_pattern, hand_value, match_key
from bot.games.insomnia.models import (
    GameOver,
    NoMatch,
    OverReason,
    PlayersOut,
    PotSplit,
    ShownHand,
    Stage1Result,
    Stage2NoWinner,
    Stage2Winner,
    Stage4Result,
)
from bot.games.insomnia.state import Events, InsomniaState

STAGE2_PAYOUT = 2  # rule 19


class Payouts(InsomniaState):
    """The dice payouts, the best hand, the pot, paying and the end of the game."""

    # stage 1c: the dice payout (rules 13-16)

    def _stage1_payout(self, events: Events) -> bool:
        """The player whose hand matches the dice is paid by every other player. True: the game ended."""
        pattern, amount = dice_pattern(self.dice)
        matching = [p for p in self._playing() if best_match(self.hands[p], self.dice) is not None]
        if not matching:
            events.append(NoMatch(stage=1, dice=list(self.dice), pattern=pattern))
            return False
        winner = max(matching, key=lambda p: match_key(self.hands[p]))
        shown = sorted(self.hands[winner], reverse=True)
        self.shown_hand = ShownHand(player=winner, cards=shown)
        events.append(
            Stage1Result(winner=winner, hand=shown, dice=list(self.dice), pattern=pattern, amount=amount)
        )
        return self._collect(winner, amount, "stage1_payout", events)

    # stage 2: the best hand (rules 17-20)

    def _stage2_payout(self, events: Events) -> str | None:
        """The best hand is paid 2 by every other player. Returns who leads the tricks; None: the game
        ended."""
        playing = self._playing()
        values = {p: hand_value(self.hands[p]) for p in playing}
        best = max(playing, key=values.__getitem__)
        value = values[best]
        if value.category is None:
            leader = self._left_of_dealer()[0]
            events.append(Stage2NoWinner(leader=leader))
            return leader
        self.stage2_winner = best
        self.stage2_description = value.description
        events.append(
            Stage2Winner(
                winner=best, category=value.category, description=value.description, amount=STAGE2_PAYOUT
            )
        )
        return None if self._collect(best, STAGE2_PAYOUT, "stage2_payout", events) else best

    # the pot (rule 25)

    def _share_pot(self, events: Events) -> bool:
        """The pot to whoever won the most tricks; a tie shares it, the remainder stays. True: the game
        ended."""
        most = max(self.tricks_won.values())
        winners = [p for p in self.players if self.tricks_won[p] == most]
        pot = self.pot
        share = pot // len(winners)
        self.pot = pot - share * len(winners)
        events.append(
            PotSplit(winners=winners, tricks=dict(self.tricks_won), pot=pot, share=share, remainder=self.pot)
        )
        if share:
            for p in winners:
                self.chips[p] += share
                events.append(ChipTransfer(from_account=POT, to_account=p, amount=share, reason="pot_split"))
            return self._end_check(events)
        return False

    # stage 4: the second dice payout (rule 28)

    def _stage4_payout(self, events: Events) -> bool:
        """The eligible player whose won cards match the dice is paid by everyone. True: the game ended."""
        pattern, amount = dice_pattern(self.dice)
        # (a player who went out in the stage-4 auction left the eligible with his chips: `_end_check`)
        sets = {p: m for p in self.eligible if (m := best_match(self.won_cards[p], self.dice)) is not None}
        matching = list(sets)  # in the order of the eligible: the first of equal keys wins, as in max()
        if not matching:
            events.append(NoMatch(stage=4, dice=list(self.dice), pattern=pattern))
            return False
        winner = max(matching, key=lambda p: match_key(sets[p]))
        events.append(
            Stage4Result(
                winner=winner, cards=sets[winner], dice=list(self.dice), pattern=pattern, amount=amount
            )
        )
        return self._collect(winner, amount, "stage4_payout", events)

    # paying and the end (rules 30-32)

    def _collect(self, winner: str, amount: int, reason: str, events: Events) -> bool:
        """Every other player pays `winner` up to `amount` (rule 30), all at once; then the end check."""
        for p in self.players:
            paid = min(amount, self.chips[p]) if p != winner else 0
            if paid:
                self.chips[p] -= paid
                self.chips[winner] += paid
                events.append(ChipTransfer(from_account=p, to_account=winner, amount=paid, reason=reason))
        return self._end_check(events)

    def _end_check(self, events: Events) -> bool:
        """Rule 31: after a step that moved chips, a player with 0 chips ends the game at once. Under house
        rule H2 he leaves the game instead (his cards leave the deal with him), and the game ends when one
        player is left. True: the game ended."""
        out = self.out
        broke = [p for p in self.players if self.chips[p] == 0 and p not in out]
        if not broke:
            return False
        if self.bust == "ends":
            self._finish("out_of_chips", events)
            return True
        step = max(out.values(), default=0) + 1
        for p in broke:
            out[p] = step
            self.discards.extend(self.hands[p])
            self.hands[p] = []
        self.eligible = [p for p in self.eligible if p not in out]
        playing = self._playing()
        events.append(PlayersOut(players=broke, playing=playing))
        if len(playing) > 1:
            return False
        self._finish("out_of_chips", events)
        return True

    def _finish(self, reason: OverReason, events: Events) -> None:
        self.phase = "over"
        self.turn = None
        self.auction = None
        self.over_reason = reason
        events.append(
            GameOver(reason=reason, standings=self.standings(), chips=dict(self.chips), pot=self.pot)
        )
