"""The computer players: legal, deterministic, blind to hidden cards, and sensible where it shows."""

from __future__ import annotations

import random
import statistics

import pytest

from bot.games import insomnia, malice
from bot.games.ai import choose_action, random_action
from bot.games.cards import Rank
from bot.games.insomnia import Bid, Pass, Play, Rethrow
from bot.games.malice import ai as malice_ai
from tests.games.insomnia_helpers import act, pass_to, rig
from tests.games.malice_helpers import table


def _play_out(game, choosers, seed: str, check=None) -> int:
    """Run a game to its end, each seat choosing with its function; returns the number of actions."""
    step = 0
    while not game.is_over:
        player = game.current_player
        action = choosers(player)(game, player, f"{seed}/{step}")
        if check is not None:
            check(game, player, action, f"{seed}/{step}")
        game.apply(action)
        step += 1
    return step


def _check_legal_and_repeatable(game, player, action, seed):
    assert action in game.legal_actions()
    assert choose_action(game, player, seed) == action


@pytest.mark.parametrize("players", [2, 4, 7])
def test_insomnia_player_only_plays_legal_moves_and_repeats_itself(players):
    ids = [f"ai:{i}" for i in range(players)]
    for g in range(2):
        game = insomnia.new_game(ids, f"legal-{players}-{g}", max_deals=3)
        _play_out(game, lambda _p: choose_action, f"i{g}", _check_legal_and_repeatable)
        again = insomnia.new_game(ids, f"legal-{players}-{g}", max_deals=3)
        _play_out(again, lambda _p: choose_action, f"i{g}")
        assert again.model_dump_json() == game.model_dump_json()


def test_malice_player_only_plays_legal_moves_and_repeats_itself():
    for g in range(3):
        game = malice.new_game(["ai:1", "ai:2"], f"legal-{g}")
        _play_out(game, lambda _p: choose_action, f"m{g}", _check_legal_and_repeatable)
        again = malice.new_game(["ai:1", "ai:2"], f"legal-{g}")
        _play_out(again, lambda _p: choose_action, f"m{g}")
        assert again.model_dump_json() == game.model_dump_json()


def test_a_different_choice_seed_is_allowed_to_change_nothing_but_is_still_legal():
    game = insomnia.new_game(["ai:1", "ai:2", "ai:3"], "seeds")
    for seed in ("a", "b", "c"):
        assert choose_action(game, game.current_player, seed) in game.legal_actions()


def test_only_the_current_player_can_be_asked():
    game = malice.new_game(["a", "b"], "turns")
    other = game.opponent(game.current_player)
    with pytest.raises(ValueError):
        choose_action(game, other, "x")


# --- no peeking: the same views with different hidden cards and seed give the same action ------------------


def _insomnia_twin(game: insomnia.InsomniaGame, player: str, rng: random.Random) -> insomnia.InsomniaGame:
    """The same game as `player` sees it, everyone else's cards and the stock dealt anew, another seed."""
    twin = game.model_copy(deep=True)
    twin.seed = "another seed entirely"
    others = [p for p in twin.players if p != player]
    pool = [c for p in others for c in twin.hands[p]] + twin.stock
    rng.shuffle(pool)
    for p in others:
        k = len(twin.hands[p])
        twin.hands[p], pool = sorted(pool[:k]), pool[k:]
    twin.stock = pool
    return twin


def _malice_twin(game: malice.MaliceGame, player: str, rng: random.Random) -> malice.MaliceGame:
    """The same game as `player` sees it: the opponent's hand, the stock and both payoff piles under their
    tops reshuffled, another seed."""
    twin = game.model_copy(deep=True)
    twin.seed = "another seed entirely"
    other = twin.opponent(player)
    pool = twin.hands[other] + twin.stock
    rng.shuffle(pool)
    k = len(twin.hands[other])
    twin.hands[other], twin.stock = pool[:k], pool[k:]
    for p in twin.players:
        under = twin.payoff[p][:-1]
        rng.shuffle(under)
        twin.payoff[p] = under + twin.payoff[p][-1:]
    return twin


@pytest.mark.parametrize(
    ("module", "twin", "players"),
    [(insomnia, _insomnia_twin, 4), (insomnia, _insomnia_twin, 8), (malice, _malice_twin, 2)],
)
def test_the_choice_depends_only_on_what_the_player_may_see(module, twin, players):
    rng = random.Random(7)
    ids = [f"ai:{i}" for i in range(players)]
    compared = 0
    for g in range(2):
        game = module.new_game(ids, f"peek-{g}")
        step = 0
        while not game.is_over and step < 400:
            player = game.current_player
            action = choose_action(game, player, f"s{step}")
            if step % 3 == 0:
                other = twin(game, player, rng)
                assert other.view(player) == game.view(player)
                assert other.public_view() == game.public_view()
                assert choose_action(other, player, f"s{step}") == action
                compared += 1
            game.apply(action)
            step += 1
    assert compared > 20


# --- Insomnia decisions -------------------------------------------------------------------------------------


def test_insomnia_rethrows_the_die_its_hand_does_not_need_and_stops_when_it_matches():
    # ai:1 sits left of the dealer (exchanges and bids first); it needs an ace where the dice show a queen.
    game = rig(["ai:1", "b"], {"ai:1": "9S 9H KD AC", "b": "10S JH QC 10D"}, "9 9 K Q", dealer=1)
    act(game, "pass", "pass", "bid 3", "pass")
    assert game.phase == "rethrow" and game.current_player == "ai:1"
    assert choose_action(game, "ai:1", "r") == Rethrow(die=4)
    game.dice[3] = Rank.ACE  # as if the re-throw had come up an ace
    assert choose_action(game, "ai:1", "r") == Pass()


def test_insomnia_keeps_a_matching_hand_and_outbids_a_rival_who_would_rethrow_it():
    # ai:1 deals, so it bids last: b bids 1 for re-throws that would break ai:1's match; ai:1 outbids.
    game = rig(
        ["ai:1", "b", "c"],
        {"ai:1": "9S 9H KD AC", "b": "10S JH QC 10D", "c": "JS QD KC 10H"},
        "9 A K 9",
        dealer=0,
    )
    pass_to(game, "auction")
    act(game, "bid 1", "pass")
    assert game.current_player == "ai:1"
    action = choose_action(game, "ai:1", "x")
    assert isinstance(action, Bid) and action.amount >= 2


_EIGHT = ["ai:1", *(f"r{i}" for i in range(7))]
_OTHERS = [
    "7S 7H 7D 7C",
    "8S 8H 8D 8C",
    "9H 9D 9C 10S",
    "10D 10C JS JH",
    "JC QS QH QD",
    "KS KH KD KC",
    "AS AH AD AC",
]


def test_insomnia_at_a_full_table_bids_all_but_one_chip_for_a_hand_that_can_match():
    # Seven payers make a match worth far more than the bid, and a cheap bid would be overtaken at once:
    # ai:1 jumps to the highest bid that keeps it in the game (a player at 0 chips ends it).
    game = rig(_EIGHT, dict(zip(_EIGHT, ["9S 10H JD QC", *_OTHERS], strict=True)), "9 9 K A", dealer=7)
    pass_to(game, "auction")
    assert game.current_player == "ai:1"
    assert choose_action(game, "ai:1", "x") == Bid(amount=14)


def test_insomnia_never_bids_more_than_the_payout_the_bid_is_expected_to_bring():
    # ai:1 needs one ace for a high-card match: 2 chips from its one payer. A bid of b buys 2b re-throws, and
    # no b makes 2 chips times the chance of the ace worth b (bid 1: 2 re-throws, a 31% chance, 0.6 chips),
    # even where the pot share of the bid would make a bid look cheap: it passes, also after a rival's bid.
    game = rig(["ai:1", "b"], {"ai:1": "9S 10H QC AC", "b": "JS JH KC KD"}, "9 10 Q K", dealer=1)
    pass_to(game, "auction")
    assert choose_action(game, "ai:1", "x") == Pass()
    act(game, "pass", "bid 1")
    assert choose_action(game, "ai:1", "x") == Pass()


def test_insomnia_does_not_bid_for_a_hand_that_can_never_match():
    # A seven can never show on the dice (faces 9 to A): no number of re-throws helps.
    game = rig(
        _EIGHT,
        dict(zip(_EIGHT, ["7S 10H JD QC", "9S 7H 7D 7C", *_OTHERS[1:]], strict=True)),
        "9 9 K A",
        dealer=7,
    )
    pass_to(game, "auction")
    assert choose_action(game, "ai:1", "x") == Pass()


def test_insomnia_exchanges_away_a_card_that_can_never_match():
    # 5 players: the 7♥ can never match a die (faces 9 to A), and the hand has no pair to keep.
    hands = {
        "ai:1": "7H 9S JD KC",
        "b": "8S 8H 8D 8C",
        "c": "9H 9D 9C 10S",
        "d": "10H 10D 10C JS",
        "e": "JH JC QS QH",
    }
    game = rig(list(hands), hands, "9 J K A", dealer=4)
    action = choose_action(game, "ai:1", "x")
    assert action == insomnia.Exchange(card="7H")


@pytest.mark.parametrize(("rival_chips", "keeps"), [(15, False), (2, True)])
def test_insomnia_exchange_keeps_a_standing_match_only_if_the_auction_will_let_it_stand(rival_chips, keeps):
    # ai:1's hand matches the dice already (high card: 2 chips from its one payer), with no pair for stage 2.
    # The exchange values it by the auction it will face: a rival with 15 chips outbids whatever a 2-chip
    # payout justifies bidding (and would re-throw the dice), so ai:1 draws for a stage-2 pair instead; a
    # rival with 2 chips cannot outbid a bid of 2, so ai:1 keeps its match.
    hands = {"ai:1": "9C 10C QD AS", "b": "JS JH KC KD"}
    game = rig(list(hands), hands, "A Q 9 10", dealer=1, chips={"ai:1": 15, "b": rival_chips})
    assert game.current_player == "ai:1"
    action = choose_action(game, "ai:1", "x")
    assert (action == Pass()) == keeps
    if not keeps:
        assert isinstance(action, insomnia.Exchange)


def _to_tricks(hands: dict[str, str], dice: str = "9 9 9 9", dealer: int = 1):
    game = rig(list(hands), hands, dice, dealer=dealer)
    pass_to(game, "tricks")
    return game


def test_insomnia_wins_a_trick_with_its_cheapest_winning_card():
    # b holds two pairs, wins stage 2 and leads the 10♥ (hearts become trumps); ai:1, last to play, can win
    # with the queen or the ace of hearts and must spend only the queen.
    game = _to_tricks({"ai:1": "AH QH 9S JD", "b": "10H 10S KC KD"})
    assert game.current_player == "b"
    act(game, "10H")
    assert choose_action(game, "ai:1", "t") == Play(card="QH")


def test_insomnia_throws_its_lowest_card_when_it_cannot_win():
    game = _to_tricks({"ai:1": "KH 9H 9S JD", "b": "AH AS KC KD"})
    act(game, "AH")
    assert choose_action(game, "ai:1", "t") == Play(card="9H")


# --- Malice decisions ---------------------------------------------------------------------------------------


def _finish_turn(game: malice.MaliceGame) -> None:
    player = game.current_player
    step = 0
    while game.current_player == player and not game.is_over:
        game.apply(choose_action(game, player, f"t{step}"))
        step += 1


def test_malice_builds_up_to_its_payoff_card_with_a_joker_when_needed():
    game = table("""
        centre: A
        a hand: 2 3 JK 9 K
        a payoff: KC QC 5H
        b payoff: KD 10D
        stock: 6 7 8 9 10 J Q K 6 7 8 9
    """)
    _finish_turn(game)
    assert len(game.payoff["a"]) == 2, "2, 3, the joker as a 4, then the payoff 5"


def test_malice_keeps_its_joker_when_plain_cards_reach_the_payoff_card():
    game = table("""
        centre: A
        a hand: 2 3 4 JK 9
        a payoff: KC QC 5H
        b payoff: KD 10D
        stock: 6 7 8 9 10 J Q K 6 7 8 9
    """)
    _finish_turn(game)
    assert len(game.payoff["a"]) == 2
    assert "JK" in [str(c) for c in game.hands["a"]] + [str(c) for s in game.side["a"] for c in s[-1:]]


def test_malice_does_not_build_a_stack_up_to_the_opponents_payoff_card():
    game = table("""
        centre: A 2 3 4 5 6
        a hand: 7 8 K Q 10
        a payoff: KC 2H
        b payoff: KD 9D
        stock: 6 7 8 9 10 J Q K 6 7 8 9
    """)
    _finish_turn(game)
    assert len(game.centre[0]) < 8, "a stack needing a 9 would give b his payoff card"


def test_malice_side_play_extends_a_descending_run():
    game = table("""
        centre: A 2 3 4 5 6 7 8 9 10 | A 2 3 4 5 6 7 8 9 10 J Q | A 2 | A 2 3 4 5 6 7 8 9
        a hand: 8 5 4 6
        a side: 9 | Q
        a payoff: KC 7H
        b payoff: KD 2D
        stock: 6 7 8 9 10 J Q K 6 7 8 9
    """)
    action = choose_action(game, "a", "s")
    assert action == malice.Play(source="hand", card="8S", to="side1")


# Behind in the race (5 payoff cards to 2), with one legal move: the 2 onto his last empty side stack.
LAST_MOVE = """
    centre: A 2 3 4 | A 2 3 4 | A 2 3 4 | A 2 3 4
    a hand: 2
    a side: K | K | K
    a payoff: {a}
    b payoff: KD 10D
    stock: 6 7 8 9
"""


@pytest.mark.parametrize(("a_payoff", "ends"), [("KC QC JC 9C 8H", False), ("8H", True)])
def test_malice_never_ends_its_turn_idle_while_behind_and_a_move_is_legal(a_payoff, ends, monkeypatch):
    game = table(LAST_MOVE.format(a=a_payoff))
    assert malice.EndTurn() in game.legal_actions() and len(game.legal_actions()) == 2
    # A rule, not a weight: even with no penalty on an idle turn the computer behind does not idle.
    monkeypatch.setattr(malice_ai, "IDLE_BEHIND", 0.0)
    action = choose_action(game, "a", "race")
    # Behind, an idle end lets b end the game by idling too (rule 16): the bad move beats handing him the
    # game. Ahead, the empty slot is worth keeping and the turn may end.
    assert (action == malice.EndTurn()) == ends


@pytest.mark.parametrize("discard", ["optional", "required"])
def test_malice_computer_seats_never_idle_while_behind_with_a_move_in_whole_games(discard):
    checked = 0
    for g in range(16):
        seats = ["ai:1", "ai:2"] if g % 2 else ["ai:1", "rnd"]
        game = malice.new_game(seats, f"race-{g}", max_turns=150, discard=discard)
        step = 0
        while not game.is_over:
            player = game.current_player
            if player == "rnd":
                action = random_action(game, player, f"r{step}")
            else:
                action = choose_action(game, player, f"race-{g}/{step}")
                mine, theirs = len(game.payoff[player]), len(game.payoff[game.opponent(player)])
                movable = any(a.kind == "play" for a in game.legal_actions())
                if not game.moved and mine > theirs and movable:
                    assert action != malice.EndTurn(), (g, step)
                    checked += 1
            game.apply(action)
            step += 1
    assert checked > 100


# --- strength sanity (the full measurement is bench/bench_ai_strength.py) ----------------------------------


def test_malice_player_clearly_beats_random_moves():
    wins = 0
    for g in range(60):
        seats = ["ai:1", "rnd"] if g % 2 == 0 else ["rnd", "ai:1"]
        game = malice.new_game(seats, f"strength-{g}")
        _play_out(game, lambda p: choose_action if p == "ai:1" else random_action, f"g{g}")
        wins += game.result.winner == "ai:1"
    assert wins >= 50


def test_insomnia_player_wins_chips_from_random_players():
    nets = []
    for g in range(120):
        seats = ["rnd1", "rnd2"]
        seats.insert(g % 3, "ai:1")
        game = insomnia.new_game(seats, f"strength-{g}")
        _play_out(game, lambda p: choose_action if p == "ai:1" else random_action, f"g{g}")
        nets.append(next(s.net for s in game.standings() if s.player == "ai:1"))
    assert statistics.mean(nets) > 0
