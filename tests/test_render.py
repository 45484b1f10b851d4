"""The renderer: button ids round-trip to the engine's actions within Discord's limits; public messages built
from a game never show a hidden card."""

from __future__ import annotations

import random

import pytest

from bot import render
from bot.discord_out import decode, encode
from bot.render.common import TableInfo, click
from tests.engines import engine
from tests.render.states import table_message


def walk(kind: str, players: list[str], seed: str, steps: int, **options):
    """Yield the game after each of `steps` random legal actions (fixed seeds)."""
    game = engine(kind).new_game(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        yield game
        game.apply(rng.choice(game.legal_actions()))


def info(kind: str, players: list[str], seq: int = 7) -> TableInfo:
    return TableInfo(
        id=42,
        kind=kind,
        status="running",
        host_id=int(players[0]),
        players=players,
        seq=seq,
        commitment="c" * 64,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [
        ("insomnia", ["11", "22", "ai:1"], {"chips": 40}),
        ("malice", ["11", "22"], {"max_turns": 40}),
    ],
)
def test_every_legal_action_round_trips_through_a_button_id(kind, players, options):
    module = engine(kind)
    seen = 0
    for game in walk(kind, players, f"render-{kind}", 300, **options):
        for action in game.legal_actions():
            custom = encode(42, click(render.token(kind, action), 123))  # as Discord's renderer makes it
            assert len(custom) <= 100 and decode(custom) == (42, click(render.token(kind, action), 123))
            assert module.parse_action(render.parse_token(kind, render.token(kind, action))) == action
            seen += 1
        hand = render.hand_message(info(kind, players), game, game.current_player, dm=False)
        assert all(len(b.label) <= 80 for row in hand.rows for b in row)
        assert len(hand.rows) <= 5 and all(len(row) <= 5 for row in hand.rows)
    assert seen > 100


def test_the_insomnia_table_message_never_shows_a_hidden_card():
    players = ["11", "22", "33"]
    for game in walk("insomnia", players, "render-privacy", 200, chips=8):
        view = game.public_view()
        shown = set(view.shown_hand.cards) if view.shown_hand else set()
        hidden = {c.pretty for p in players for c in game.view(p).hand if c not in shown}
        texts = list(table_message(info("insomnia", players), game, deadline=1_700_000_000).texts())
        for text in texts:
            assert not [c for c in hidden if c in text], text


def test_a_running_games_history_hides_exchanged_cards_and_a_finished_one_shows_them():
    class Entry:
        seq, actor, action, ledger = 0, "11", '{"kind":"exchange","card":"QH"}', []

    running = render.history_pages("insomnia", 1, "running", [Entry()])[0].description
    finished = render.history_pages("insomnia", 1, "finished", [Entry()])[0].description
    assert "Q♥" not in running and "exchanges a card" in running
    assert "Q♥" in finished


def test_a_rich_players_auction_buttons_keep_the_pass():
    game = engine("insomnia").new_game(["11", "22"], "render-rich", chips=100)
    while game.public_view().phase != "auction":
        game.apply({"kind": "pass"})
    hand = render.hand_message(info("insomnia", ["11", "22"]), game, game.current_player, dm=False)
    labels = [b.label for row in hand.rows for b in row]
    assert len(labels) == 25 and labels[-1] == "Pass" and labels[0] == "Bid 1"
    assert "/insomnia bid" in hand.content
