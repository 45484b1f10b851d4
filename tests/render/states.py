"""Game states the picture tests and `scripts/make_pictures.py` draw: fixed seeds, reached by seeded random
legal moves (not the computer players, so a change of strategy does not move the golden images).

Each state is named; `STATES[name]()` returns `(info, game, player)`, `player` being whose hand is drawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.games.cards import parse_cards
from bot.render.common import Message, TableInfo
from bot.render.compose import compose
from bot.render.compose import table_message as composed_message
from tests.engines import engine

INSOMNIA_SEATS = ["101", "202", "ai:1", "303"]
SIX_SEATS = ["101", "202", "ai:1", "303", "404", "ai:2"]
MALICE_SEATS = ["101", "202"]
# Display names as Discord gives them: short, with umlauts, accents and an emoji, and one too long for any
# label (the pictures shorten it with an ellipsis); "ai:*" seats are computers, named by the catalogue.
NAMES = {
    "101": "Anna",
    "202": "Jörg Weißmüller",
    "303": "Maximilian Alexander von Hohenlohe",
    "404": "Zoë 🎲",
}


def info(kind: str, players: list[str], **extra: Any) -> TableInfo:
    facts: dict[str, Any] = {"options": {"chips": 15} if kind == "insomnia" else {}, "names": NAMES} | extra
    return TableInfo(
        id=7,
        kind=kind,
        status="running",
        host_id=int(players[0]),
        players=players,
        commitment="c" * 64,
        timeout=120,
        **facts,
    )


def play_until(game: Any, seed: str, done: Callable[[Any], bool], limit: int = 5000) -> Any:
    """Seeded random legal moves until `done(view)`; an auction bids rarely so deals reach the tricks."""
    rng = random.Random(seed)
    for _ in range(limit):
        view = game.public_view()
        if done(view):
            return game
        if game.is_over:
            break
        legal = game.legal_actions()
        if getattr(view, "phase", None) == "auction" and rng.random() < 0.75:
            legal = [a for a in legal if a.kind == "pass"] or legal
        if hasattr(view, "centre"):  # Malice: prefer centre plays, so stacks grow as in a real game
            centre = [a for a in legal if a.kind == "play" and a.to.startswith("centre")]
            legal = centre if centre and rng.random() < 0.8 else legal
        game.apply(rng.choice(legal))
    raise AssertionError("the state was not reached")


def insomnia_exchange():
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "pictures-1", chips=15)
    return info("insomnia", INSOMNIA_SEATS), game, game.current_player


def insomnia_auction():
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "pictures-2", chips=15, max_deals=5)
    play_until(game, "a", lambda v: v.phase == "auction" and v.auction.high_bidder is not None)
    return info("insomnia", INSOMNIA_SEATS), game, game.current_player


def insomnia_tricks():
    game = engine("insomnia").new_game(SIX_SEATS, "pictures-3", chips=15)
    play_until(game, "u", lambda v: v.phase == "tricks" and len(v.trick) == 3)
    return info("insomnia", SIX_SEATS, computer_seats=["404"]), game, game.current_player


def insomnia_rethrow():
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "pictures-4", chips=15)
    # The first bidder bids the least, everyone else passes: he wins and re-throws.
    while game.public_view().phase != "rethrow":
        view, legal = game.public_view(), game.legal_actions()
        bids = [a for a in legal if a.kind == "bid"]
        wanted = bids[:1] if view.phase == "auction" and view.auction.high_bidder is None else []
        game.apply(wanted[0] if wanted else next(a for a in legal if a.kind == "pass"))
    return info("insomnia", INSOMNIA_SEATS), game, game.current_player


def insomnia_stage4():
    """The second dice round: three players won cards (4, 8 and 4), the hands are empty."""
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "pictures-16", chips=15)
    play_until(game, "s", lambda v: v.stage == 4 and v.phase == "auction")
    return info("insomnia", INSOMNIA_SEATS), game, game.current_player


def insomnia_over():
    game = engine("insomnia").new_game(INSOMNIA_SEATS, "pictures-5", chips=8)
    play_until(game, "o", lambda v: v.is_over)
    return info("insomnia", INSOMNIA_SEATS, options={"chips": 8}), game, INSOMNIA_SEATS[0]


def malice_start():
    game = engine("malice").new_game(MALICE_SEATS, "pictures-6")
    return info("malice", MALICE_SEATS), game, game.current_player


def malice_middle():
    game = engine("malice").new_game(MALICE_SEATS, "pictures-7")
    play_until(game, "m", lambda v: v.turn >= 40 and v.current_player == MALICE_SEATS[0])
    return info("malice", MALICE_SEATS), game, game.current_player


def malice_over():
    game = engine("malice").new_game(MALICE_SEATS, "pictures-8", max_turns=120)
    play_until(game, "e", lambda v: v.is_over)
    return info("malice", MALICE_SEATS), game, MALICE_SEATS[0]


def malice_fanned():
    """Long side stacks (a 13-card run, jokers in them), set by hand: how a fan looks when it is squeezed."""
    game = engine("malice").new_game(MALICE_SEATS, "pictures-9")
    a, b = MALICE_SEATS
    game.side = {
        a: [
            parse_cards("KS QH QC JD 10S 9H 8C 7D 6S 5H 4C 3D 2S"),
            parse_cards("JK 9D"),
            [],
            parse_cards("QS JK JH 10C 10D"),
        ],
        b: [parse_cards("8H 7C 6D"), parse_cards("KD KC QS"), parse_cards("5C"), []],
    }
    game.centre = [parse_cards("AS 2H 3C 4D 5S 6H 7C"), [], parse_cards("AD JK 3S"), []]
    return info("malice", MALICE_SEATS), game, game.current_player


STATES: dict[str, Callable[[], tuple[TableInfo, Any, str]]] = {
    "insomnia-exchange": insomnia_exchange,
    "insomnia-auction": insomnia_auction,
    "insomnia-rethrow": insomnia_rethrow,
    "insomnia-tricks": insomnia_tricks,
    "insomnia-stage4": insomnia_stage4,
    "insomnia-over": insomnia_over,
    "malice-start": malice_start,
    "malice-middle": malice_middle,
    "malice-fanned": malice_fanned,
    "malice-over": malice_over,
}


def table_message(
    table: TableInfo,
    game: Any,
    note: str | None = None,
    *,
    deadline: int | None = None,
    locale: object = "en",
    picture: bool = True,
) -> Message:
    """The public table message of `game` as the one composition draws it (bot.render.compose)."""
    banner = [note] if note else []
    view = compose(table, game, banner=banner, deadline=deadline, locale=locale, picture=picture)
    return composed_message(view, with_picture=picture)
