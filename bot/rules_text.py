"""The /rules summaries: a readable digest of docs/rules.md, Discord-free (plain text blocks).

Every rule marked [D] in docs/rules.md (a decision this project made where the seed text is silent or garbled)
appears under "House decisions" with its rule number, so nobody is surprised at the table; a test checks that
the list stays complete.
"""

from __future__ import annotations

from dataclasses import dataclass

HOUSE_DECISIONS_TITLE = "House decisions"
HOUSE_DECISIONS_INTRO = (
    "Where the original rules are silent or garbled, this bot decides as follows "
    "(each is a house decision, numbered as in the full rules):"
)


def _p(text: str) -> str:
    """One paragraph from an indented triple-quoted block (line breaks and indentation collapse to spaces)."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Block:
    title: str
    text: str


@dataclass(frozen=True)
class RulesSummary:
    game: str
    title: str
    intro: str
    blocks: tuple[Block, ...]
    house_decisions: tuple[tuple[str, str], ...]  # (rule reference, the decision)
    footer: str

    def house_text(self) -> str:
        lines = [HOUSE_DECISIONS_INTRO]
        lines += [f"• **{ref}** (house decision): {text}" for ref, text in self.house_decisions]
        return "\n".join(lines)


INSOMNIA = RulesSummary(
    game="insomnia",
    title="Insomnia: dice, chips and tricks (2 to 8 players)",
    intro=_p(
        """Everyone starts with 15 chips (a table option may change it); one pot per table carries over
        from deal to deal. Deck: 9 to A with 2-4 players (24 cards), 8 to A plus 7♥ 7♠ with 5-7 players,
        7 to A with 8 players. Ranks 7 < 8 < 9 < 10 < J < Q < K < A (ace high only); suits ♦ < ♣ < ♥ < ♠
        break every tie. Four poker dice with faces 9 10 J Q K A. The first dealer is drawn at random,
        then the deal passes left. Each deal: 4 cards each, the rest is the stock, and the dealer throws
        the four dice for all to see.
        """
    ),
    blocks=(
        Block(
            "Stage 1a: exchange",
            _p(
                """Once around from the dealer's left: pass, or discard a card face down and draw from the
                stock; having seen it you may exchange once more (two at most). With an empty stock you
                can only pass.
                """
            ),
        ),
        Block(
            "Stage 1b: auction for re-throws",
            _p(
                """From the dealer's left, bid more than the highest bid (at least 1, at most your chips)
                or pass; passing is not final. It ends when all others pass after the last bid, or when
                all pass without a bid. Only the winner pays, into the pot. Each chip buys two
                re-throws: pick one die, throw it again, look, and stop whenever you like; unused
                re-throws are lost.
                """
            ),
        ),
        Block(
            "Stage 1c: dice payout",
            _p(
                """You match when your 4 card ranks are exactly the 4 dice (duplicates count, suits do
                not). Four of a kind pays 8, a sequence (9-Q, 10-K, J-A) 6, three of a kind 5, two pairs
                4, one pair 3, four different ranks 2. Every other player pays the matching player; if
                several match, the higher suits decide card by card. Nobody matching: nobody pays.
                """
            ),
        ),
        Block(
            "Stage 2: best hand",
            _p(
                """Hands rank four of a kind > straight flush > three of a kind > straight > flush > two
                pairs > one pair (this order, not poker's). Ties go by the deciding ranks, then suits.
                The best hand takes 2 chips from each other player.
                """
            ),
        ),
        Block(
            "Stage 3: tricks for the pot",
            _p(
                """The stage-2 winner leads four tricks. The suit of the first card led is trumps for all
                four. Follow suit if you can. The highest trump wins, else the highest card of the suit
                led; the winner leads next. Most tricks takes the whole pot.
                """
            ),
        ),
        Block(
            "Stage 4: second dice round",
            _p(
                """Players who won at least four cards in tricks are eligible. The dealer throws all four
                dice again, an auction as in stage 1b follows among them, and an eligible player matches
                with some 4 of the cards he won. The winner is paid the stage-1c amount by every other
                player.
                """
            ),
        ),
        Block(
            "Paying and the end",
            _p(
                """Who owes more than he has pays all he has. After any step that moves chips, if a player
                has 0 chips the game ends at once, even mid-deal; most chips wins (equal totals share
                the win).
                """
            ),
        ),
    ),
    house_decisions=(
        (
            "Rule 2",
            _p(
                """with 5-7 players the two sevens are 7♥ and 7♠; 8 players use a 32-card deck (7 to A),
                which leaves no stock, so nobody can exchange.
                """
            ),
        ),
        (
            "Rule 19",
            _p(
                """the stage-2 winner, his category and its ranks are announced (e.g. "two pairs, kings and
                nines"; a flush by its top card, a pair by its rank), not his whole hand.
                """
            ),
        ),
        (
            "Rule 20",
            _p(
                """if nobody holds a pair or better, nobody is paid and the player left of the dealer leads
                the tricks.
                """
            ),
        ),
        (
            "Rule 23",
            _p(
                """if you cannot follow suit you may play any card: trumping is not compulsory.
                """
            ),
        ),
        (
            "Rule 25",
            _p(
                """equal most tricks split the pot in whole chips; the remainder stays in the pot.
                """
            ),
        ),
        (
            "Rules 26-28",
            _p(
                """stage 4 is played as described above: eligible with at least four cards won (one trick
                with 4 or more players, two tricks with 2 or 3), the winning bid goes into the pot, and
                every other player at the table, eligible or not, pays the winner.
                """
            ),
        ),
        (
            "Rule 31",
            _p(
                """chips still in the pot when the game ends are not awarded; the ledger keeps them on the
                table's pot account, so every chip stays accounted for.
                """
            ),
        ),
        (
            "Rule 32",
            _p(
                """a table option may cap the number of deals; at the cap the game ends as if a player had
                reached 0 chips.
                """
            ),
        ),
    ),
    footer="Start a table: /insomnia new · Full rules: docs/rules.md",
)


MALICE = RulesSummary(
    game="malice",
    title="Malice: a Spite-and-Malice race (2 players)",
    intro=_p(
        """Be the first to empty your payoff pile. Deck A (52 cards) becomes the two payoff piles, each
        with its top card face up; deck B (52 cards and 4 jokers) is the stock and the hands. Ranks A 2
        3 ... 10 J Q K; suits never matter. The higher payoff top card starts (on equal ranks both piles
        are shuffled and turned again), and each player gets 5 cards.
        """
    ),
    blocks=(
        Block(
            "Your turn",
            _p(
                """Draw from the stock up to 5 cards. Then play any number of cards to the centre, one at a
                time, from your hand, your payoff top or the top of one of your side stacks. Up to 4
                centre stacks are shared: a free slot takes an ace, a stack takes exactly the next rank
                up, and a joker counts as whatever rank is needed. A completed stack (A to K) is
                shuffled into the stock and frees its slot.
                """
            ),
        ),
        Block(
            "Side stacks and ending the turn",
            _p(
                """Each player has up to 4 side stacks of his own, fed only from his hand: a card of the
                same rank as the top or exactly one lower, or a joker. Cards never move between side
                stacks, and the payoff top goes only to the centre. A side play ends your turn; you may
                also end it without one.
                """
            ),
        ),
        Block(
            "Winning",
            _p(
                """Whoever plays his last payoff card wins at once and scores the cards left in the
                opponent's payoff pile, times the stake per card (1 chip unless agreed otherwise).
                """
            ),
        ),
    ),
    house_decisions=(
        (
            "Rule 3",
            _p(
                """deck A is split into two payoff piles of exactly 26 cards.
                """
            ),
        ),
        (
            "Rule 9",
            _p(
                """an ace can never go on a side stack, and while a centre slot is free, an ace in your
                hand or on your payoff top must be played to the centre: you cannot end your turn
                before.
                """
            ),
        ),
        (
            "Rule 11",
            _p(
                """an empty side slot takes any card but an ace (a joker too); a card placed over a joker
                is checked against the nearest non-joker card below it, and if there is none, anything
                but an ace may go there.
                """
            ),
        ),
        (
            "Rule 13",
            _p(
                """if you empty your hand during your turn, you draw 5 more and go on.
                """
            ),
        ),
        (
            "Rule 16",
            _p(
                """stalemate: when both players, one after the other, end a turn without moving a card
                (drawing does not count), the game ends; fewer payoff cards wins and scores the
                difference times the stake; equal counts are a draw.
                """
            ),
        ),
        (
            "Rule 17",
            _p(
                """a game that reaches 500 turns ends and is scored as a stalemate.
                """
            ),
        ),
    ),
    footer="Challenge someone: /malice challenge · Full rules: docs/rules.md",
)


SUMMARIES = {s.game: s for s in (INSOMNIA, MALICE)}
