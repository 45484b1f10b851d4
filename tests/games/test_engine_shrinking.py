"""Both engines under hypothesis: any seed and any sequence of choices among the legal actions keeps the
invariants of RULES.md, and survives a JSON round trip mid-game.

The seeded random-game suites play thousands of games; this one exists for what they cannot do: when an
invariant breaks, hypothesis shrinks the failing game to the shortest sequence of choices that breaks it,
which is the bug report a rules fix needs. `derandomize=True` keeps CI runs reproducible.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import insomnia, malice
from bot.games.cards import Rank

PROFILE = settings(
    max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
SEEDS = st.text(alphabet="abcdefghij0123456789", min_size=1, max_size=8)
CHOICES = st.lists(st.integers(min_value=0, max_value=10_000), max_size=120)


def _play(game, choices, check, round_trip_at):
    for step, choice in enumerate(choices):
        if game.is_over:
            break
        actions = game.legal_actions()
        assert actions, "a running game always offers an action"
        game.apply(actions[choice % len(actions)])
        check(game)
        if step == round_trip_at:
            text = game.model_dump_json()
            game = type(game).model_validate_json(text)
            assert game.model_dump_json() == text
    return game


@PROFILE
@given(seed=SEEDS, players=st.integers(min_value=2, max_value=8), chips=st.integers(1, 20), choices=CHOICES)
def test_insomnia_any_legal_play_conserves_chips_and_hides_hands(seed, players, chips, choices):
    ids = [str(100 + i) for i in range(players)]
    game = insomnia.new_game(ids, seed, chips=chips)
    total = chips * players

    def check(g):
        assert sum(g.chips.values()) + g.pot == total
        assert min(g.chips.values()) >= 0 and g.pot >= 0
        shown_hand = g.public_view().shown_hand
        shown = {str(c) for c in shown_hand.cards} if shown_hand else set()
        for p in ids:
            view = g.view(p).model_dump_json()
            for other in ids:
                hidden = {str(c) for c in g.hands[other]} - shown if other != p else set()
                assert not any(f'"{c}"' in view for c in hidden), f"{p} sees a card of {other}"

    _play(game, choices, check, round_trip_at=len(choices) // 2)


@PROFILE
@given(seed=SEEDS, choices=CHOICES)
def test_malice_any_legal_play_accounts_for_all_108_cards(seed, choices):
    game = malice.new_game(["100", "101"], seed)

    def check(g):
        view = g.public_view()
        counted = (
            view.stock_count
            + sum(view.payoff_counts.values())
            + sum(view.hand_counts.values())
            + sum(map(len, view.centre))
            + sum(len(stack) for stacks in view.side.values() for stack in stacks)
        )
        assert counted == 108
        assert max(view.hand_counts.values()) <= 5
        side_cards = [card for stacks in view.side.values() for stack in stacks for card in stack]
        assert all(card.rank is not Rank.ACE for card in side_cards), "an ace on a side stack"

    _play(game, choices, check, round_trip_at=len(choices) // 2)
