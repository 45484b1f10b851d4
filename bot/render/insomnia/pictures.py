"""Insomnia pictures: the table (the dice, pot, stage, trumps, the trick or the cards won, every seat) and one
player's hand (`hand_picture`).

`table` reads only the public view; `hand` reads only the player's own view and, on his turn, his legal
actions (which depend on nothing but his own hand and the public state). Colours as `sprites` defines them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PIL import Image

from bot.games.insomnia import PublicView, TrickPlay, trick_winner
from bot.i18n import join, t, tn
from bot.i18n import resolve_locale as lang
from bot.i18n.cards import format_rank
from bot.render.common import TableInfo
from bot.render.insomnia.hand_picture import hand, shown_trump
from bot.render.insomnia.text import hand_description
from bot.render.pictures import pieces
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import SeatNames, alt, card_words, cards_words, player_name, seat_note

__all__ = ["hand", "table"]

Label = Callable[[str], str]

TRICK_CARD = 58
WON_CARD = 46  # its corner text is 17 px: the smallest that stays readable on a phone
DIE = 54
TILE_H = 66
GAP = 10
LABEL_H = 24  # a line of small labels above what they name
NAME_COLUMN = 132  # the won cards' owners, left of their cards
STATUS_LINE = 28  # a status line's second line, when it needs one
NAME_LINE = 22  # a line of a name under a trick card (a name takes two where one is too narrow)
NAME_GAP = 10  # between two names under neighbouring trick cards
STAR = 18  # the trick winner's star, left of his name
ROW_GAP = 6  # between two rows of trick cards (7 and 8 seats)
# The reasons a game ends that have a text (picture.insomnia.over.*); another is shown as the engine names it.
OVER = {"out_of_chips", "deal_cap", "ended"}


def stage_words(view: PublicView, label: Label, locale: object) -> str:
    """The stage in words (whose decision it is comes apart: `turn_words`)."""
    if view.is_over:
        return t(locale, "picture.game_over")
    if view.phase == "tricks":
        return t(locale, "picture.insomnia.stage_tricks")
    if view.phase == "exchange":
        return t(locale, "picture.insomnia.stage_exchange")
    if view.phase == "auction":
        a = view.auction
        if a and a.high_bidder:
            high = t(locale, "picture.insomnia.high_bid", amount=a.high_bid, player=label(a.high_bidder))
        else:
            high = t(locale, "picture.insomnia.no_bid")
        stage = a.stage if a else view.stage
        return t(locale, "picture.insomnia.stage_auction", stage=stage, high=high)
    return t(locale, "picture.insomnia.stage_rethrow", stage=view.stage, left=view.rethrows_left)


def turn_words(view: PublicView, name: str, locale: object) -> str:
    """Whose decision it is, `name` naming him ("" when the game is over)."""
    if view.is_over or not view.current_player:
        return ""
    if view.phase == "tricks":
        return t(locale, "picture.to_play", player=name)
    return t(locale, "picture.to_act", player=name)


def _backs(canvas: Image.Image, x: int, y: int, count: int, width: int = 20) -> int:
    """`count` hidden cards as overlapping backs; returns the x after them."""
    for i in range(count):
        sp.paste(canvas, sp.back(width), (x + i * (width // 2 + 2), y))
    return x + (count - 1) * (width // 2 + 2) + width if count else x


def shows_won_cards(view: PublicView) -> bool:
    """Stage 4: the cards each eligible player won decide it, so they are what the table shows."""
    return view.stage == 4 and bool(view.eligible) and not view.is_over


def _has_plays(view: PublicView) -> bool:
    return bool(view.trick or view.last_trick or view.shown_hand is not None)


def _plays(view: PublicView) -> list[TrickPlay]:
    return view.trick or view.last_trick


def _winner(view: PublicView) -> int | None:
    """The index of the last trick's winning play (starred), or None while a trick is played."""
    plays = _plays(view)
    if view.trick or not plays or view.trump is None:
        return None
    return trick_winner([p.card for p in plays], view.trump)


def _trick_rows(count: int) -> list[range]:
    """The plays' indices row by row: one row up to 6 cards, two for 7 and 8 (so each name has room)."""
    per_row = count if count <= 6 else (count + 1) // 2
    return [range(i, min(i + per_row, count)) for i in range(0, count, max(per_row, 1))]


def _trick_left(step: int) -> int:
    """The first trick card's left edge: in from the margin far enough that the name under it, centred,
    stays inside (the widest name under a card is as wide as the step allows)."""
    return MARGIN + max(4, (step - NAME_GAP) // 2 - TRICK_CARD // 2)


def _trick_step(count: int, rows: int = 1) -> int:
    """How far apart the trick's cards lie: close in one row (the best hand may fit beside them), wide in two
    (the names under them need the room)."""
    return min(96 if rows == 1 else 136, (WIDTH - 2 * MARGIN - 4) // max(count, 1))


def _trick_labels(view: PublicView, names: SeatNames) -> list[list[str]]:
    """Each play's name under its card, on one or two lines, the winner's a star narrower."""
    plays, winner = _plays(view), _winner(view)
    rows = _trick_rows(len(plays))
    step = _trick_step(len(rows[0]) if rows else 1, len(rows))
    return [
        names.lines(p.player, sp.SMALL, step - NAME_GAP - (STAR if i == winner else 0))
        for i, p in enumerate(plays)
    ]


def _plays_height(view: PublicView, names: SeatNames) -> int:
    """The plays' title, their cards row by row and the names under them (or the shown hand)."""
    plays = _plays(view)
    if not plays:
        return 26 + sp.card_height(TRICK_CARD) + 30
    labels = _trick_labels(view, names)
    rows = _trick_rows(len(plays))
    return 26 + sum(_row_height(max(len(labels[i]) for i in r)) for r in rows) + ROW_GAP * (len(rows) - 1)


def _row_height(lines: int) -> int:
    """A row of trick cards with `lines` lines of names under them."""
    return sp.card_height(TRICK_CARD) + 8 + NAME_LINE * lines


def _plays_row(canvas: Image.Image, view: PublicView, y: int, names: SeatNames, locale: object) -> int:
    """The trick in progress (or the last one, its winner starred) with who played what."""
    plays = _plays(view)
    title = t(locale, "picture.this_trick") if view.trick else t(locale, "picture.last_trick")
    room = WIDTH - 2 * MARGIN
    if not plays and view.shown_hand is not None:
        title = pieces.fit_names(
            lambda ns: t(locale, "picture.insomnia.shown_by", player=ns[0]),
            [view.shown_hand.player],
            names,
            sp.SMALL,
            room,
        )
    winner = _winner(view)
    if winner is not None:
        title = pieces.fit_names(
            lambda ns: t(locale, "picture.insomnia.last_trick_won", player=ns[0]),
            [plays[winner].player],
            names,
            sp.SMALL,
            room,
        )
    sp.draw_text(canvas, (MARGIN, y), title, sp.SMALL, sp.MUTED)
    top = y = y + 26
    if not plays:
        x = MARGIN + 4
        for c in view.shown_hand.cards if view.shown_hand else []:
            sp.paste(canvas, sp.card(c, TRICK_CARD, lang(locale)), (x, y))
            x += TRICK_CARD + 14
        _best_hand(canvas, view, x, top, names, locale)
        return y + sp.card_height(TRICK_CARD) + 30
    labels = _trick_labels(view, names)
    rows = _trick_rows(len(plays))
    step = _trick_step(len(rows[0]), len(rows))
    for number, row in enumerate(rows):
        x = _trick_left(step)
        below = y + sp.card_height(TRICK_CARD) + 4
        for i in row:
            sp.paste(canvas, sp.card(plays[i].card, TRICK_CARD, lang(locale)), (x, y))
            star = STAR if i == winner else 0
            for n, line in enumerate(labels[i]):
                width = sp.text_size(line, sp.SMALL)[0] + (star if n == 0 else 0)
                left = max(MARGIN, x + TRICK_CARD // 2 - width // 2)
                if star and n == 0:
                    sp.paste(canvas, sp.star(16), (left, below + 3))
                    left += star
                sp.draw_text(canvas, (left, below + n * NAME_LINE), line, sp.SMALL)
            x += step
        if number == 0:
            _best_hand(canvas, view, x, top, names, locale)
        y += _row_height(max(len(labels[i]) for i in row)) + ROW_GAP
    return y - ROW_GAP


def _best_hand(
    canvas: Image.Image, view: PublicView, x: int, y: int, names: SeatNames, locale: object
) -> None:
    """Beside the first row of cards, when there is room: who showed the best hand in stage 2, and what."""
    if not (view.stage2_winner and view.stage2_description and WIDTH - MARGIN - x >= 170):
        return
    room = WIDTH - MARGIN - x - 10
    sp.draw_text(canvas, (x + 10, y), t(locale, "picture.insomnia.best_hand"), sp.SMALL, sp.MUTED)
    sp.draw_text(canvas, (x + 10, y + 24), names.line(view.stage2_winner, 20, room), 20)
    what = sp.fit_text(hand_description(view.stage2_description, locale), sp.SMALL, room)
    sp.draw_text(canvas, (x + 10, y + 50), what, sp.SMALL, sp.MUTED)


def _won_row_height() -> int:
    return sp.card_height(WON_CARD) + 8


def _won_cards(canvas: Image.Image, view: PublicView, y: int, names: SeatNames, locale: object) -> int:
    """Stage 4: each eligible player's won cards in a row beside his name (on two lines if it needs them)."""
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.insomnia.won_title"), sp.SMALL, sp.MUTED)
    y += 26
    for p in view.eligible:
        lines = names.lines(p, 20, NAME_COLUMN - 12)
        top = y + sp.card_height(WON_CARD) // 2 - 12 * len(lines)
        for n, line in enumerate(lines):
            sp.draw_text(canvas, (MARGIN + 4, top + 24 * n), line, 20)
        x = MARGIN + NAME_COLUMN
        pieces.card_row(canvas, view.won_cards.get(p, []), x, y, WON_CARD, WIDTH - MARGIN - x, lang(locale))
        y += _won_row_height()
    return y + 10


def _tile(
    canvas: Image.Image,
    view: PublicView,
    info: TableInfo,
    player: str,
    x: int,
    y: int,
    w: int,
    names: SeatNames,
    locale: object,
    place: str | None = None,
) -> None:
    """One seat: name, dealer and turn marks, chips, hidden cards, tricks and what he does this stage."""
    current = player == view.current_player and not view.is_over
    sp.paste(canvas, sp.panel(w, TILE_H, current), (x, y))
    name_x = x + 10
    if place:
        name_x += sp.draw_text(canvas, (name_x, y + 6), place, 20) + 8
    right = x + w - 10 - pieces.chips(canvas, x + w - 10, y + 5, view.chips[player], anchor="r")
    dealer = player == view.dealer and not view.is_over
    room = right - name_x - 8 - (28 if dealer else 0)
    name = names.line(player, 20, room)
    name_x += sp.draw_text(canvas, (name_x, y + 6), name, 20, sp.TURN if current else sp.WHITE) + 6
    if dealer:
        sp.paste(canvas, sp.badge(t(locale, "picture.insomnia.dealer_badge"), sp.MIN_SIZE), (name_x, y + 8))
    line = y + 36
    lx = _backs(canvas, x + 10, line - 2, view.hand_counts.get(player, 0)) + 6
    facts = []
    if view.is_over:
        net = view.chips[player] - info.options.get("chips", 15)
        facts.append(tn(locale, "picture.insomnia.net_chips", abs(net), net=f"{net:+d}"))
    elif view.phase == "tricks" or view.tricks_won.get(player):
        facts.append(tn(locale, "picture.insomnia.tricks", view.tricks_won.get(player, 0)))
    if view.phase == "exchange" and view.exchanges.get(player):
        facts.append(t(locale, "picture.insomnia.swapped", count=view.exchanges[player]))
    if view.stage == 4 and player in view.eligible and not view.is_over:
        facts.append(t(locale, "picture.insomnia.stage4"))
    if view.auction and view.auction.high_bidder == player and view.phase == "auction":
        facts.append(t(locale, "picture.insomnia.bid", amount=view.auction.high_bid))
    note = seat_note(info, player, locale)
    if note:
        facts.append(note)
    if facts:
        text = sp.fit_text(" · ".join(facts), sp.SMALL, x + w - 10 - lx)
        sp.draw_text(canvas, (lx, line + 2), text, sp.SMALL, sp.MUTED)


def _seats(
    canvas: Image.Image,
    view: PublicView,
    info: TableInfo,
    y: int,
    names: SeatNames,
    locale: object,
    order: list[str],
    places: dict[str, str] | None = None,
) -> int:
    w = (WIDTH - 2 * MARGIN - GAP) // 2
    for i, player in enumerate(order):
        x = MARGIN + (i % 2) * (w + GAP)
        top = y + (i // 2) * (TILE_H + GAP)
        _tile(canvas, view, info, player, x, top, w, names, locale, (places or {}).get(player))
    return y + ((len(order) + 1) // 2) * (TILE_H + GAP)


def _places(view: PublicView) -> tuple[list[str], dict[str, str]]:
    """Rule 31: most chips wins, equal totals share a place."""
    order = sorted(view.players, key=lambda p: -view.chips[p])
    places = {p: f"{1 + sum(view.chips[q] > view.chips[p] for q in order)}." for p in order}
    return order, places


def _middle_height(view: PublicView, names: SeatNames) -> int:
    if view.is_over:
        return 96
    height = LABEL_H + DIE + 18
    if shows_won_cards(view):
        height += 26 + len(view.eligible) * _won_row_height() + 10
    elif _has_plays(view):
        height += _plays_height(view, names)
    return height


def table_height(view: PublicView, names: SeatNames, status_lines: int = 1) -> int:
    rows = (len(view.players) + 1) // 2
    top = MARGIN + 68 + (status_lines - 1) * STATUS_LINE
    return top + _middle_height(view, names) + rows * (TILE_H + GAP) + MARGIN - GAP + 4


def table(
    info: TableInfo, view: PublicView, names: Mapping[str, str] | None, *, locale: object = "en"
) -> tuple[Image.Image, str]:
    labels = SeatNames(info, names, locale)

    def said(p: str) -> str:  # the alt text's name: as the player wrote it
        return player_name(info, p, names, locale)

    deals = f"{view.deal}/{view.max_deals}" if view.max_deals else str(view.deal)
    room = WIDTH - 2 * MARGIN
    what = stage_words(view, labels, locale)
    if view.auction and view.auction.high_bidder and view.phase == "auction":
        what = pieces.fit_names(
            lambda ns: stage_words(view, lambda _p: ns[0], locale),
            [view.auction.high_bidder],
            labels,
            20,
            room,
        )
    who = ""
    if view.current_player and not view.is_over:
        who = pieces.fit_names(
            lambda ns: turn_words(view, ns[0], locale), [view.current_player], labels, 20, room
        )
    lines = pieces.status_lines(what, who, 20, room)
    canvas = new_canvas(table_height(view, labels, lines))
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.insomnia.title", deals=deals), 26)
    pot_width = pieces.chips(canvas, WIDTH - MARGIN, y + 2, view.pot, 24, anchor="r")
    sp.draw_text(
        canvas, (WIDTH - MARGIN - pot_width - 10, y + 4), t(locale, "picture.pot"), 22, sp.MUTED, anchor="r"
    )
    y += 36
    pieces.status(canvas, MARGIN, y, what, who, 20, room)
    y += 32 + (lines - 1) * STATUS_LINE
    said_what = stage_words(view, said, locale)
    said_who = turn_words(view, said(view.current_player), locale) if view.current_player else ""
    words = [t(locale, "picture.insomnia.alt_title", deals=deals)]
    if not view.is_over:  # a finished game's alt text says "Game over" with its result, below
        words.append(f"{said_what}, {said_who}." if said_who else said_what + ".")
    words.append(t(locale, "picture.pot_alt", pot=view.pot))
    if view.is_over:
        _over(canvas, view, info, y, labels, said, words, locale)
        return canvas, alt(words)
    y = _dice_line(canvas, view, y, words, locale)
    if shows_won_cards(view):
        y = _won_cards(canvas, view, y, labels, locale)
        won = [f"{said(p)}: {cards_words(view.won_cards.get(p, []), locale)}" for p in view.eligible]
        words.append(t(locale, "picture.insomnia.won_alt", players="; ".join(won)))
    elif _has_plays(view):
        y = _plays_row(canvas, view, y, labels, locale)
        _plays_words(view, said, words, locale)
    _seats(canvas, view, info, y, labels, locale, list(view.players))
    seats = []
    for p in view.players:
        marks = (t(locale, "picture.insomnia.to_act_mark") if p == view.current_player else "") + (
            t(locale, "picture.insomnia.dealer_mark") if p == view.dealer else ""
        )
        chips = tn(locale, "count.chip", view.chips[p])
        cards = tn(locale, "count.card", view.hand_counts.get(p, 0))
        seats.append(f"{said(p)}{marks}: {chips}, {cards}")
    words.append(t(locale, "picture.insomnia.seats_alt", seats="; ".join(seats)))
    return canvas, alt(words)


def _dice_line(canvas: Image.Image, view: PublicView, y: int, words: list[str], locale: object) -> int:
    """The dice under their label, the trumps, the stock; returns the y below them."""
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.dice"), sp.SMALL, sp.MUTED)
    x = pieces.dice_row(canvas, view.dice, MARGIN + 2, y + LABEL_H, DIE, GAP, lang(locale))
    words.append(t(locale, "picture.dice_alt", dice=" ".join(format_rank(d, locale) for d in view.dice)))
    trump = shown_trump(view)
    if trump is not None:
        sp.draw_text(canvas, (x + 14, y), t(locale, "picture.trumps"), sp.SMALL, sp.MUTED)
        sp.paste(canvas, sp.suit_tile(trump, 40), (x + 14, y + LABEL_H + 4))
        words.append(t(locale, "picture.trumps_alt", suit=tn(locale, f"suit.{trump.value}", 2)))
    stock_x = WIDTH - MARGIN - 38
    sp.draw_text(canvas, (WIDTH - MARGIN, y), t(locale, "picture.stock"), sp.SMALL, sp.MUTED, anchor="r")
    sp.paste(canvas, sp.back(38) if view.stock_count else sp.slot(38), (stock_x, y + LABEL_H))
    sp.draw_text(canvas, (stock_x - 8, y + LABEL_H + 14), str(view.stock_count), 22, anchor="r")
    words.append(t(locale, "picture.stock_alt", count=view.stock_count))
    return y + LABEL_H + DIE + 18


def _plays_words(view: PublicView, said: Label, words: list[str], locale: object) -> None:
    if view.trick or view.last_trick:
        plays = view.trick or view.last_trick
        what = t(locale, "picture.this_trick") if view.trick else t(locale, "picture.last_trick")
        played = join(locale, [f"{said(p.player)} {card_words(p.card, locale)}" for p in plays])
        words.append(f"{what}: {played}.")
    elif view.shown_hand is not None:
        shown = view.shown_hand
        cards = cards_words(shown.cards, locale)
        words.append(t(locale, "picture.insomnia.shown_alt", player=said(shown.player), cards=cards))
    if view.stage2_winner and view.stage2_description:
        words.append(
            t(
                locale,
                "picture.insomnia.best_hand_alt",
                player=said(view.stage2_winner),
                what=hand_description(view.stage2_description, locale),
            )
        )


def _over(
    canvas: Image.Image,
    view: PublicView,
    info: TableInfo,
    y: int,
    names: SeatNames,
    said: Label,
    words: list[str],
    locale: object,
) -> None:
    """The winners, why the game ended, and every seat by place."""
    order, places = _places(view)
    top = [p for p in order if places[p] == "1."]
    chips = tn(locale, "count.chip", view.chips[top[0]])
    headline = pieces.fit_names(
        lambda ns: tn(locale, "picture.insomnia.winners", len(top), players=join(locale, ns), chips=chips),
        top,
        names,
        28,
        WIDTH - 2 * MARGIN,
    )
    sp.draw_text(canvas, (MARGIN, y + 8), headline, 28)
    reason = view.over_reason or ""
    why = t(locale, f"picture.insomnia.over.{reason}") if reason in OVER else reason
    start = info.options.get("chips", 15)
    # Only the first letter is raised: str.capitalize would lower every German noun after it.
    why_text = t(locale, "picture.insomnia.why", why=why[:1].upper() + why[1:], start=start)
    sp.draw_text(canvas, (MARGIN, y + 48), sp.fit_text(why_text, 18, WIDTH - 2 * MARGIN), 18, sp.MUTED)
    said_headline = tn(
        locale,
        "picture.insomnia.winners",
        len(top),
        players=join(locale, [said(p) for p in top]),
        chips=chips,
    )
    words.append(t(locale, "picture.game_over_alt", what=said_headline, why=why))
    _seats(canvas, view, info, y + 96, names, locale, order, places)
    standings = join(
        locale,
        [
            t(
                locale,
                "picture.insomnia.place_alt",
                place=places[p],
                player=said(p),
                chips=tn(locale, "count.chip", view.chips[p]),
            )
            for p in order
        ],
    )
    words.append(t(locale, "picture.insomnia.chips_alt", chips=standings))
