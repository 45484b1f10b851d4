"""The pictures a reader gets: a table's (`table_picture`), a hand's (`hand_picture`) and a finished game's
result card (`result_picture`), each drawn by its game's presentation (`bot/render/<game>/pictures.py`, found
in the registry) or by the shared `bot.render.pictures.result`, and encoded as PNG.

Every drawn label and alt text comes from the catalogue (`picture.*`) in the `locale` asked for: the table
in the server's language, a hand in its owner's. Players are named by `TableInfo.names` (display names, which
the caller fills; each drawn so that it names one seat alone: `labels.SeatNames`), a computer as "Computer
N", a person missing there by his seat ("Player 2"); never by an id or "Seat N".

Rule of this module, as for the text: `table_picture` is drawn only from `game.public_view()` and table
facts, `hand_picture` only from the player's own `view(player)` and, on his turn, his legal actions. Each
picture is drawn once per state: finished pictures are kept in an LRU (`CACHE`) keyed by the JSON of exactly
what was drawn from, so an unchanged state costs a dictionary lookup, and nothing hidden can select a picture.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.i18n import resolve_locale
from bot.render.common import Picture, TableInfo
from bot.render.pictures import result
from bot.render.pictures.canvas import PictureCache, png
from bot.render.pictures.result import RatingChange
from bot.render.presentation import ErasedPictures
from bot.render.registry import PRESENTATIONS

__all__ = ["CACHE", "Picture", "RatingChange", "hand_picture", "result_picture", "table_picture"]

CACHE = PictureCache()


def _drawer(kind: str) -> ErasedPictures | None:
    """The game's picture drawer, named by its spec (None: the game has no pictures, its text is all)."""
    return PRESENTATIONS[kind].pictures if kind in PRESENTATIONS else None


def _names(info: TableInfo) -> dict[str, str]:
    """The display names of the players at the table (`TableInfo.names`): the pictures name them."""
    return {p: info.names[p] for p in info.players if p in info.names}


def _facts(info: TableInfo) -> dict[str, Any]:
    """The table facts a picture shows besides the view (part of its cache key)."""
    return {
        "kind": info.kind,
        "players": info.players,
        "computer_seats": info.computer_seats,
        "chips": info.options.get("chips"),
        "names": _names(info),
    }


def table_picture(info: TableInfo, game: Any, *, locale: object = "en") -> Picture | None:
    """The public table as a PNG, or None when there is nothing to draw (a lobby). Players are named by
    `info.names` (display names), a computer as "Computer N", a person without a name there by his seat."""
    drawer = _drawer(info.kind)
    if game is None or drawer is None:
        return None
    view = game.public_view()
    # The language is part of the key: a German picture of a state must not be served to an English table.
    lang = resolve_locale(locale)
    key = json.dumps(["table", lang, _facts(info), view.model_dump(mode="json")], sort_keys=True)

    def draw() -> Picture:
        canvas, alt = drawer.table(info, view, _names(info), locale=lang)
        return Picture(filename=f"{info.kind}-table.png", data=png(canvas), alt=alt)

    return CACHE.get(key, draw)


def result_picture(
    info: TableInfo,
    game: Any,
    title: str,
    ratings: Mapping[str, RatingChange] | None = None,
    *,
    locale: object = "en",
) -> Picture | None:
    """A finished game's result card (`result`): places, chips, rating changes (`ratings`: see
    `result.draw`); `title` is the game's name in the reader's language. None when the game has no
    pictures."""
    if _drawer(info.kind) is None or game is None or not game.is_over:
        return None
    lang = resolve_locale(locale)
    standings = list(game.standings())
    changes = None if ratings is None else {p: [r.after, r.change, r.provisional] for p, r in ratings.items()}
    drawn = [s.model_dump(mode="json") for s in standings]
    key = json.dumps(["result", lang, title, info.id, _facts(info), drawn, changes], sort_keys=True)

    def draw() -> Picture:
        canvas, alt = result.draw(info, title, standings, _names(info), ratings, locale=lang)
        return Picture(filename=f"{info.kind}-result.png", data=png(canvas), alt=alt)

    return CACHE.get(key, draw)


def hand_picture(
    info: TableInfo,
    game: Any,
    player: str,
    *,
    locale: object = "en",
) -> Picture | None:
    """`player`'s hand as a PNG (for him only), his legal moves marked when it is his turn; None when the game
    has no pictures."""
    drawer = _drawer(info.kind)
    if drawer is None:
        return None
    view = game.view(player)
    mine = view.current_player == player and not view.is_over and player not in info.computer_seats
    legal = list(game.legal_actions()) if mine else []
    lang = resolve_locale(locale)
    key = json.dumps(
        [
            "hand",
            lang,
            _facts(info),
            view.model_dump(mode="json"),
            [a.model_dump(mode="json") for a in legal],
        ],
        sort_keys=True,
    )

    def draw() -> Picture:
        canvas, alt = drawer.hand(info, view, legal, _names(info), locale=lang)
        return Picture(filename=f"{info.kind}-hand.png", data=png(canvas), alt=alt)

    return CACHE.get(key, draw)
