"""The names a real international server has, for the tests that draw every picture with them: Latin with
accents, the capital sharp s, Greek, Cyrillic, Chinese, an emoji, and two names of Discord's longest (32
characters) alike up to their last word. `DRAWN`: what a picture draws of each, whole."""

from __future__ import annotations

import random
from typing import Any

from bot.render.tournament import Board, Line, Table
from storage.models import ChipPoint
from tests.engines import engine

WOLKENSTEIN = "Maximilian-Alexander Wolkenstein"
WEBER = "Maximilian-Alexander Weber"
WEINSTEIGER = "Maximilian-Alexander Weinsteiger"  # 32 characters too, alike up to the last word
NAMES = {
    "101": WOLKENSTEIN,
    "102": WEINSTEIGER,
    "103": "José Ñúñez-Çağlar Ørsted",
    "104": "ẞtraßenbahn",
    "105": "Ωmega Σοφία",
    "106": "Дмитрий Шостакович",
    "107": "Bruce 李小龍",
    "108": "Zoë 🎲",
}
# The letters the shipped font lacks, left out of a drawn name (docs/incoming/39-fonts.md): Chinese, emoji.
LEFT_OUT = set("李小龍🎲")
DRAWN = {p: "".join(c for c in n if c not in LEFT_OUT).strip() for p, n in NAMES.items()}
PEOPLE = list(NAMES)  # eight people: a full Insomnia table
CHIPS = [ChipPoint(table_id=i, kind="malice", net=n, ended_at=1.7e9 + i) for i, n in enumerate((3, -2, 5, 4))]


def insomnia_tricks() -> Any:
    """The eight in the middle of a trick, all but one having played."""
    game = engine("insomnia").new_game(PEOPLE, "names-everywhere", chips=30)
    rng = random.Random(3)
    while not (game.public_view().phase == "tricks" and len(game.public_view().trick) == len(PEOPLE) - 1):
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind == "pass"), None) or rng.choice(legal))
    return game


def finished(kind: str, players: list[str], **options: Any) -> Any:
    """A game of `players` played to its end (passing where it may)."""
    game = engine(kind).new_game(players, "names-over", **options)
    rng = random.Random(5)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind == "pass"), None) or rng.choice(legal))
    return game


def malice_middle(players: list[str]) -> Any:
    """A Malice game of two, twelve moves in."""
    game = engine("malice").new_game(players, "names-malice")
    rng = random.Random(2)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    return game


def board(fmt: str, status: str = "finished") -> Board:
    """An event of the eight: a Swiss's standings, or a knockout of three rounds with a no-show in round one,
    won by Wolkenstein over Weinsteiger."""
    p = PEOPLE
    lines = tuple(Line(i + 1, q, 3 - i * 0.5, 3, (4.0, 2.5)) for i, q in enumerate(p))
    first = (
        Table(1, (p[0], p[7]), places=(1, 2)),
        Table(2, (p[2], p[5]), places=(2, 1), forfeits=(p[2],)),
        Table(3, (p[3], p[4]), places=(1, 2)),
        Table(4, (p[1], p[6]), places=(1, 2)),
    )
    second = (Table(1, (p[0], p[5]), places=(1, 2)), Table(2, (p[3], p[1]), places=(2, 1)))
    final = (Table(1, (p[0], p[1]), places=(1, 2)),)
    return Board(
        event=9,
        kind="malice",
        format=fmt,
        status=status,
        round=3,
        rounds=3,
        entrants=tuple(p),
        lines=lines,
        bracket=(first, second, final) if fmt == "knockout" else (),
        names=NAMES,
    )
