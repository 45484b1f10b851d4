"""The auction look-ahead of the Insomnia computer player, on cases small enough to work out by hand."""

from __future__ import annotations

import pytest

from bot.games.insomnia.ai_auction import NONE, RIVAL_ALL_IN, AuctionModel


def _model(
    rivals: list[int], wins: dict[int, float], *, high_bid: int = 0, share: float = 0.0, stand: float = 0.0
) -> AuctionModel:
    return AuctionModel(high_bid, rivals, 10, lambda bid: wins.get(bid, -100.0), share, stand)


def test_it_bids_the_cheapest_amount_a_poor_rival_cannot_beat_when_that_pays_best():
    # The rival has 2 chips. Bid 1: he passes (win at 1, worth 4) or goes all in, and the best answer is
    # then 3 (worth 1): (4 + 1) / 2 = 2.5. Bid 2: he cannot answer, a sure 3.5.
    value, bid = _model([2], {1: 4.0, 2: 3.5, 3: 1.0}).best(NONE, 0)
    assert (bid, value) == (2, pytest.approx(3.5))


def test_it_bids_low_when_the_gamble_on_the_rival_passing_pays_better():
    # Same rival, but winning at 2 is worth little: bid 1 gives (4 + 1.5) / 2 = 2.75 against 2.
    value, bid = _model([2], {1: 4.0, 2: 2.0, 3: 1.5}).best(NONE, 0)
    assert (bid, value) == (1, pytest.approx(2.75))


def test_it_passes_when_no_win_is_worth_anything():
    value, bid = _model([5, 5], {}, stand=1.0).best(NONE, 0)
    assert bid == 0 and value >= 0


def test_a_rival_all_in_ends_the_game_and_the_pot_then_pays_nobody():
    # The rival's bid of his whole stack (3) stands if we pass: the game ends, worth 0 even with a pot share;
    # outbidding at 4 is worth 2.
    value, bid = _model([3], {4: 2.0}, high_bid=3, share=0.5).best(RIVAL_ALL_IN, 0)
    assert (bid, value) == (4, pytest.approx(2.0))
    value, bid = _model([3], {4: -1.0}, high_bid=3, share=0.5).best(RIVAL_ALL_IN, 0)
    assert (bid, value) == (0, 0.0)


def test_it_never_bids_its_last_chip():
    model = AuctionModel(0, [1], 5, lambda bid: 100.0 * bid, 0.0, 0.0)
    _value, bid = model.best(NONE, 0)
    assert bid == 4
