"""Insomnia pictures: the table (dice, pot, stage, trumps, the trick, every seat) and one player's hand.

`table` reads only the public view; `hand` reads only the player's own view and, on his turn, his legal
actions (which depend on nothing but his own hand and the public state).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from PIL import Image

from bot.games.insomnia import trick_winner
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import alt, card_words, cards_words, seat_label, seat_note

TRICK_CARD = 58
DIE = 56
TILE_H = 66
GAP = 10
HAND_CARD = 108
OVER = {
    "out_of_chips": "a player ran out of chips",
    "deal_cap": "the last deal was played",
    "ended": "ended early, chips as they are",
}


def _stage(view: Any, label: Any) -> str:
    """The stage and whose decision it is, in words (the gold seat is not the only sign)."""
    if view.is_over:
        return "Game over"
    who = f"{label(view.current_player)} to act"
    if view.phase == "exchange":
        return f"Stage 1 · exchanges · {who}"
    if view.phase == "auction":
        a = view.auction
        high = f"high bid {a.high_bid} by {label(a.high_bidder)}" if a and a.high_bidder else "no bid yet"
        return f"Stage {a.stage if a else view.stage} · re-throw auction · {high} · {who}"
    if view.phase == "rethrow":
        return f"Stage {view.stage} · {label(view.rethrower)} re-throws · {view.rethrows_left} left"
    return f"Stage 3 · tricks for the pot · {label(view.current_player)} to play"


def _dice_row(
    canvas: Image.Image, view: Any, x: int, y: int, size: int, marked: Collection[int] = ()
) -> int:
    """The four dice from `x`; returns the x after them. `marked` dice (1-4) get a gold ring and a number."""
    for i, rank in enumerate(view.dice):
        if i + 1 in marked:
            sp.paste(canvas, sp.ring(size, size, 3), (x - 3, y - 3))
        sp.paste(canvas, sp.die(rank, size), (x, y))
        if marked:
            colour = sp.GOLD if i + 1 in marked else sp.MUTED
            sp.draw_text(canvas, (x + size // 2, y + size + 4), str(i + 1), sp.SMALL, colour, anchor="m")
        x += size + GAP
    return x


def _chips(canvas: Image.Image, x: int, y: int, amount: int, size: int = 22, *, anchor: str = "l") -> int:
    """A chip icon and a number; with anchor "r" the pair ends at `x`. Returns the width."""
    text = str(amount)
    width = size + 6 + sp.text_size(text, size)[0]
    left = x - width if anchor == "r" else x
    sp.paste(canvas, sp.chip(size), (left, y + 2))
    sp.draw_text(canvas, (left + size + 6, y), text, size)
    return width


def _backs(canvas: Image.Image, x: int, y: int, count: int, width: int = 20) -> int:
    """`count` hidden cards as overlapping backs; returns the x after them."""
    for i in range(count):
        sp.paste(canvas, sp.back(width), (x + i * (width // 2 + 2), y))
    return x + (count - 1) * (width // 2 + 2) + width if count else x


def _trump(canvas: Image.Image, view: Any, x: int, y: int) -> None:
    sp.draw_text(canvas, (x, y), "Trumps", 18, sp.MUTED)
    sp.paste(canvas, sp.suit_tile(view.trump, 36), (x + 12, y + 24))


def _plays_row(canvas: Image.Image, view: Any, y: int, label: Any) -> int:
    """The trick in progress (or the last one, its winner ringed) with who played what."""
    plays, title = (view.trick, "This trick") if view.trick else (view.last_trick, "Last trick")
    shown = not plays and view.shown_hand is not None
    if shown:
        plays, title = [], f"Shown by {label(view.shown_hand.player)} (stage 1 winner)"
    winner = None
    if not view.trick and plays and view.trump is not None:
        winner = trick_winner([p.card for p in plays], view.trump)
        title = f"Last trick · won by {label(plays[winner].player)}"
    sp.draw_text(canvas, (MARGIN, y), title, 18, sp.MUTED)
    y += 26
    step = TRICK_CARD + 14
    cards = [p.card for p in plays] if plays else list(view.shown_hand.cards)
    x = MARGIN + 4
    for i, c in enumerate(cards):
        if i == winner:
            sp.paste(canvas, sp.ring(TRICK_CARD, sp.card_height(TRICK_CARD), 3), (x - 3, y - 3))
        sp.paste(canvas, sp.card(c, TRICK_CARD), (x, y))
        if plays:
            name = sp.fit_text(label(plays[i].player), sp.SMALL, step - 2)
            below = y + sp.card_height(TRICK_CARD) + 4
            sp.draw_text(canvas, (x + TRICK_CARD // 2, below), name, sp.SMALL, anchor="m")
        x += step
    if view.stage2_winner and view.stage2_description and WIDTH - MARGIN - x >= 180:
        room = WIDTH - MARGIN - x - 10
        sp.draw_text(canvas, (x + 10, y), "Best hand", sp.SMALL, sp.MUTED)
        sp.draw_text(canvas, (x + 10, y + 24), sp.fit_text(label(view.stage2_winner), 20, room), 20)
        what = sp.fit_text(view.stage2_description, sp.SMALL, room)
        sp.draw_text(canvas, (x + 10, y + 50), what, sp.SMALL, sp.MUTED)
    return y + sp.card_height(TRICK_CARD) + 28


def _tile(canvas: Image.Image, view: Any, info: Any, player: str, x: int, y: int, w: int, label: Any,
          place: str | None = None) -> None:
    """One seat: name, dealer and turn marks, chips, hidden cards, tricks and what he does this stage."""
    current = player == view.current_player
    sp.paste(canvas, sp.panel(w, TILE_H, current), (x, y))
    name_x = x + 10
    if place:
        name_x += sp.draw_text(canvas, (name_x, y + 6), place, 20, sp.GOLD) + 8
    name = sp.fit_text(label(player), 20, w - 130)
    name_x += sp.draw_text(canvas, (name_x, y + 6), name, 20, sp.GOLD if current else sp.WHITE) + 6
    if player == view.dealer and not view.is_over:
        sp.paste(canvas, sp.badge("D", 14), (name_x, y + 9))
    _chips(canvas, x + w - 10, y + 5, view.chips[player], anchor="r")
    line = y + 36
    lx = _backs(canvas, x + 10, line - 2, view.hand_counts.get(player, 0)) + 8
    facts = []
    if view.is_over:
        net = view.chips[player] - info.options.get("chips", 15)
        facts.append(f"{net:+d} chips")
    elif view.phase == "tricks" or view.tricks_won.get(player):
        n = view.tricks_won.get(player, 0)
        facts.append(f"{n} trick{'s' if n != 1 else ''}")
    if view.phase == "exchange" and view.exchanges.get(player):
        facts.append(f"swapped {view.exchanges[player]}")
    if view.stage == 4 and player in view.eligible and not view.is_over:
        facts.append("stage 4")
    if view.auction and view.auction.high_bidder == player and view.phase == "auction":
        facts.append(f"bid {view.auction.high_bid}")
    note = seat_note(info, player)
    if note:
        facts.append(note)
    if facts:
        text = sp.fit_text(" · ".join(facts), sp.SMALL, x + w - 10 - lx)
        sp.draw_text(canvas, (lx, line + 2), text, sp.SMALL, sp.MUTED)


def _seats(canvas: Image.Image, view: Any, info: Any, y: int, label: Any, order: list[str],
           places: dict[str, str] | None = None) -> int:
    w = (WIDTH - 2 * MARGIN - GAP) // 2
    for i, player in enumerate(order):
        x = MARGIN + (i % 2) * (w + GAP)
        top = y + (i // 2) * (TILE_H + GAP)
        _tile(canvas, view, info, player, x, top, w, label, (places or {}).get(player))
    return y + ((len(order) + 1) // 2) * (TILE_H + GAP)


def _places(view: Any) -> tuple[list[str], dict[str, str]]:
    """Rule 31: most chips wins, equal totals share a place."""
    order = sorted(view.players, key=lambda p: -view.chips[p])
    places = {p: f"{1 + sum(view.chips[q] > view.chips[p] for q in order)}." for p in order}
    return order, places


def _has_plays(view: Any) -> bool:
    return bool(view.trick or view.last_trick or view.shown_hand is not None)


def table_height(view: Any) -> int:
    rows = (len(view.players) + 1) // 2
    middle = 96 if view.is_over else DIE + 34
    plays = 26 + sp.card_height(TRICK_CARD) + 28 if _has_plays(view) and not view.is_over else 0
    return MARGIN + 62 + middle + plays + rows * (TILE_H + GAP) + MARGIN - GAP + 4


def table(info: Any, view: Any, names: Mapping[str, str] | None) -> tuple[Image.Image, str]:
    def label(p: str) -> str:
        return seat_label(info, p, names)

    canvas = new_canvas(table_height(view))
    deals = f"{view.deal}/{view.max_deals}" if view.max_deals else str(view.deal)
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), f"Insomnia · deal {deals}", 26)
    sp.draw_text(canvas, (WIDTH - MARGIN - 86, y + 4), "Pot", 22, sp.MUTED, anchor="r")
    _chips(canvas, WIDTH - MARGIN, y + 2, view.pot, 24, anchor="r")
    y += 36
    sp.draw_text(canvas, (MARGIN, y), sp.fit_text(_stage(view, label), 20, WIDTH - 2 * MARGIN), 20, sp.GOLD)
    y += 30
    words = [f"Insomnia table, deal {deals}.", _stage(view, label) + ".", f"Pot {view.pot}."]
    if view.is_over:
        order, places = _places(view)
        top = [p for p in order if places[p] == "1."]
        who = " and ".join(label(p) for p in top)
        headline = f"{who} win{'s' if len(top) == 1 else ''} with {view.chips[top[0]]} chips"
        sp.draw_text(canvas, (MARGIN, y + 8), sp.fit_text(headline, 28, WIDTH - 2 * MARGIN), 28, sp.GOLD)
        why = OVER.get(view.over_reason or "", view.over_reason or "")
        start = info.options.get("chips", 15)
        why_text = f"{why.capitalize()} · everyone started with {start}"
        sp.draw_text(canvas, (MARGIN, y + 48), why_text, 18, sp.MUTED)
        y += 96
        words.append(f"Game over: {headline} ({why}).")
        y = _seats(canvas, view, info, y, label, order, places)
        words.append("Chips: " + ", ".join(f"{places[p]} {label(p)} {view.chips[p]}" for p in order) + ".")
        return canvas, alt(words)
    x = _dice_row(canvas, view, MARGIN + 2, y, DIE)
    words.append("Dice: " + " ".join(d.short for d in view.dice) + ".")
    if view.trump is not None:
        _trump(canvas, view, x + 14, y - 4)
        words.append(f"Trumps: {view.trump.singular}s.")
    stock_x = WIDTH - MARGIN - 40
    sp.paste(canvas, sp.back(38) if view.stock_count else sp.slot(38), (stock_x, y - 6))
    sp.draw_text(canvas, (stock_x - 8, y + 4), "Stock", 18, sp.MUTED, anchor="r")
    sp.draw_text(canvas, (stock_x - 8, y + 26), str(view.stock_count), 22, anchor="r")
    words.append(f"Stock {view.stock_count}.")
    y += DIE + 34
    if _has_plays(view):
        y = _plays_row(canvas, view, y, label)
        if view.trick or view.last_trick:
            plays = view.trick or view.last_trick
            what = "This trick" if view.trick else "Last trick"
            played = ", ".join(f"{label(p.player)} {card_words(p.card)}" for p in plays)
            words.append(f"{what}: {played}.")
        else:
            words.append(f"Shown by {label(view.shown_hand.player)}: {cards_words(view.shown_hand.cards)}.")
        if view.stage2_winner and view.stage2_description:
            words.append(f"Best hand: {label(view.stage2_winner)}, {view.stage2_description}.")
    _seats(canvas, view, info, y, label, list(view.players))
    seats = []
    for p in view.players:
        marks = (" (to act)" if p == view.current_player else "") + (" (dealer)" if p == view.dealer else "")
        seats.append(f"{label(p)}{marks} {view.chips[p]} chips, {view.hand_counts.get(p, 0)} cards")
    words.append("Seats: " + "; ".join(seats) + ".")
    return canvas, alt(words)


# --- a player's hand ---------------------------------------------------------------------------------------


def hand_height() -> int:
    return MARGIN + 40 + sp.card_height(HAND_CARD) + 36 + 44 + 30 + 36 + MARGIN


def hand(info: Any, view: Any, legal: list[Any], names: Mapping[str, str] | None) -> tuple[Image.Image, str]:
    """His cards large, the legal ones ringed and tagged; the dice (ringed when he may re-throw them)."""

    def label(p: str) -> str:
        return "you" if p == view.player else seat_label(info, p, names)

    canvas = new_canvas(hand_height())
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), f"Your hand · Insomnia deal {view.deal}", 24)
    _chips(canvas, WIDTH - MARGIN, y, view.chips.get(view.player, 0), 24, anchor="r")
    y += 40
    verbs = {"play": "PLAY", "exchange": "SWAP"}
    marked = {a.card: verbs[a.kind] for a in legal if a.kind in verbs}
    step = HAND_CARD + 24
    x = (WIDTH - (len(view.hand) * step - 24)) // 2 if view.hand else MARGIN
    height = sp.card_height(HAND_CARD)
    for c in view.hand:
        if c in marked:
            sp.paste(canvas, sp.ring(HAND_CARD, height, 5), (x - 5, y - 5))
        sp.paste(canvas, sp.card(c, HAND_CARD), (x, y))
        if c in marked:
            sp.draw_text(canvas, (x + HAND_CARD // 2, y + height + 8), marked[c], 20, sp.GOLD, anchor="m")
        elif marked:  # his turn, but this card may not be played: dim it
            canvas.paste(sp.FELT, (x, y), sp.faded(HAND_CARD, height))
        x += step
    if not view.hand:
        sp.draw_text(canvas, (MARGIN, y + 40), "No cards", 24, sp.MUTED)
    y += height + 36
    dice = {a.die for a in legal if a.kind == "rethrow"}
    x = _dice_row(canvas, view, MARGIN + 2, y, 44, dice)
    facts = [f"Pot {view.pot}"]
    if view.trump is not None:
        sp.draw_text(canvas, (x + 10, y + 10), "Trumps", 20, sp.MUTED)
        sp.paste(canvas, sp.suit_tile(view.trump, 36), (x + 90, y + 4))
        x += 134
    sp.draw_text(canvas, (x + 12, y + 10), " · ".join(facts), 20, sp.MUTED)
    y += 44 + 30
    hint = _hint(view, legal, label)
    colour = sp.GOLD if legal else sp.MUTED
    sp.draw_text(canvas, (MARGIN, y), sp.fit_text(hint, 20, WIDTH - 2 * MARGIN), 20, colour)
    words = [
        f"Your Insomnia hand, deal {view.deal}: {cards_words(view.hand)}.",
        f"Dice: {' '.join(d.short for d in view.dice)}.",
        f"Your chips {view.chips.get(view.player, 0)}, pot {view.pot}.",
    ]
    if view.trump is not None:
        words.append(f"Trumps: {view.trump.singular}s.")
    if marked:
        words.append(f"Marked ({verbs_word(legal)}): {cards_words([c for c in view.hand if c in marked])}.")
    words.append(hint + ".")
    return canvas, alt(words)


def verbs_word(legal: list[Any]) -> str:
    return "you may exchange" if any(a.kind == "exchange" for a in legal) else "you may play"


def _hint(view: Any, legal: list[Any], label: Any) -> str:
    if view.is_over:
        return "The game is over"
    if not legal:
        return f"Waiting for {label(view.current_player)}" if view.current_player else ""
    kinds = {a.kind for a in legal}
    if "play" in kinds:
        return "Your turn: play a marked card"
    if "exchange" in kinds:
        return "Your turn: swap a marked card, or keep your hand"
    if "rethrow" in kinds:
        return f"Your turn: re-throw a marked die ({view.rethrows_left} left), or stop"
    bids = [a.amount for a in legal if a.kind == "bid"]
    if bids:
        return f"Your turn: bid {min(bids)} to {max(bids)}, or pass"
    return "Your turn: pass"

