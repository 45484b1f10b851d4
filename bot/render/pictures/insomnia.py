"""Insomnia pictures: the table (dice, pot, stage, trumps, the trick, every seat) and one player's hand.

`table` reads only the public view; `hand` reads only the player's own view and, on his turn, his legal
actions (which depend on nothing but his own hand and the public state).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from PIL import Image

from bot.games.insomnia import trick_winner
from bot.i18n import join, t, tn
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import alt, card_words, cards_words, seat_label, seat_note

TRICK_CARD = 58
DIE = 56
TILE_H = 66
GAP = 10
HAND_CARD = 108
# The reasons a game ends that have a text (picture.insomnia.over.*); another is shown as the engine names it.
OVER = {"out_of_chips", "deal_cap", "ended"}


def _stage(view: Any, label: Any, locale: object) -> str:
    """The stage and whose decision it is, in words (the gold seat is not the only sign)."""
    if view.is_over:
        return t(locale, "picture.game_over")
    who = t(locale, "picture.to_act", player=label(view.current_player))
    if view.phase == "exchange":
        return t(locale, "picture.insomnia.stage_exchange", who=who)
    if view.phase == "auction":
        a = view.auction
        if a and a.high_bidder:
            high = t(locale, "picture.insomnia.high_bid", amount=a.high_bid, player=label(a.high_bidder))
        else:
            high = t(locale, "picture.insomnia.no_bid")
        stage = a.stage if a else view.stage
        return t(locale, "picture.insomnia.stage_auction", stage=stage, high=high, who=who)
    if view.phase == "rethrow":
        return t(
            locale, "picture.insomnia.stage_rethrow", stage=view.stage, player=label(view.rethrower),
            left=view.rethrows_left,
        )
    return t(locale, "picture.insomnia.stage_tricks", player=label(view.current_player))


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


def _trump(canvas: Image.Image, view: Any, x: int, y: int, locale: object) -> None:
    sp.draw_text(canvas, (x, y), t(locale, "picture.trumps"), 18, sp.MUTED)
    sp.paste(canvas, sp.suit_tile(view.trump, 36), (x + 12, y + 24))


def _plays_row(canvas: Image.Image, view: Any, y: int, label: Any, locale: object) -> int:
    """The trick in progress (or the last one, its winner ringed) with who played what."""
    if view.trick:
        plays, title = view.trick, t(locale, "picture.this_trick")
    else:
        plays, title = view.last_trick, t(locale, "picture.last_trick")
    shown = not plays and view.shown_hand is not None
    if shown:
        plays, title = [], t(locale, "picture.insomnia.shown_by", player=label(view.shown_hand.player))
    winner = None
    if not view.trick and plays and view.trump is not None:
        winner = trick_winner([p.card for p in plays], view.trump)
        title = t(locale, "picture.insomnia.last_trick_won", player=label(plays[winner].player))
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
        sp.draw_text(canvas, (x + 10, y), t(locale, "picture.insomnia.best_hand"), sp.SMALL, sp.MUTED)
        sp.draw_text(canvas, (x + 10, y + 24), sp.fit_text(label(view.stage2_winner), 20, room), 20)
        what = sp.fit_text(view.stage2_description, sp.SMALL, room)
        sp.draw_text(canvas, (x + 10, y + 50), what, sp.SMALL, sp.MUTED)
    return y + sp.card_height(TRICK_CARD) + 28


def _tile(canvas: Image.Image, view: Any, info: Any, player: str, x: int, y: int, w: int, label: Any,
          locale: object, place: str | None = None) -> None:
    """One seat: name, dealer and turn marks, chips, hidden cards, tricks and what he does this stage."""
    current = player == view.current_player
    sp.paste(canvas, sp.panel(w, TILE_H, current), (x, y))
    name_x = x + 10
    if place:
        name_x += sp.draw_text(canvas, (name_x, y + 6), place, 20, sp.GOLD) + 8
    name = sp.fit_text(label(player), 20, w - 130)
    name_x += sp.draw_text(canvas, (name_x, y + 6), name, 20, sp.GOLD if current else sp.WHITE) + 6
    if player == view.dealer and not view.is_over:
        sp.paste(canvas, sp.badge(t(locale, "picture.insomnia.dealer_badge"), 14), (name_x, y + 9))
    _chips(canvas, x + w - 10, y + 5, view.chips[player], anchor="r")
    line = y + 36
    lx = _backs(canvas, x + 10, line - 2, view.hand_counts.get(player, 0)) + 8
    facts = []
    if view.is_over:
        net = view.chips[player] - info.options.get("chips", 15)
        facts.append(t(locale, "picture.insomnia.net_chips", net=f"{net:+d}"))
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


def _seats(canvas: Image.Image, view: Any, info: Any, y: int, label: Any, locale: object, order: list[str],
           places: dict[str, str] | None = None) -> int:
    w = (WIDTH - 2 * MARGIN - GAP) // 2
    for i, player in enumerate(order):
        x = MARGIN + (i % 2) * (w + GAP)
        top = y + (i // 2) * (TILE_H + GAP)
        _tile(canvas, view, info, player, x, top, w, label, locale, (places or {}).get(player))
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


def table(
    info: Any, view: Any, names: Mapping[str, str] | None, *, locale: object = "en"
) -> tuple[Image.Image, str]:
    def label(p: str) -> str:
        return seat_label(info, p, names, locale)

    canvas = new_canvas(table_height(view))
    deals = f"{view.deal}/{view.max_deals}" if view.max_deals else str(view.deal)
    stage = _stage(view, label, locale)
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.insomnia.title", deals=deals), 26)
    sp.draw_text(canvas, (WIDTH - MARGIN - 86, y + 4), t(locale, "picture.pot"), 22, sp.MUTED, anchor="r")
    _chips(canvas, WIDTH - MARGIN, y + 2, view.pot, 24, anchor="r")
    y += 36
    sp.draw_text(canvas, (MARGIN, y), sp.fit_text(stage, 20, WIDTH - 2 * MARGIN), 20, sp.GOLD)
    y += 30
    words = [
        t(locale, "picture.insomnia.alt_title", deals=deals),
        stage + ".",
        t(locale, "picture.pot_alt", pot=view.pot),
    ]
    if view.is_over:
        order, places = _places(view)
        top = [p for p in order if places[p] == "1."]
        who = join(locale, [label(p) for p in top])
        headline = tn(locale, "picture.insomnia.winners", len(top), players=who, chips=view.chips[top[0]])
        sp.draw_text(canvas, (MARGIN, y + 8), sp.fit_text(headline, 28, WIDTH - 2 * MARGIN), 28, sp.GOLD)
        reason = view.over_reason or ""
        why = t(locale, f"picture.insomnia.over.{reason}") if reason in OVER else reason
        start = info.options.get("chips", 15)
        # Only the first letter is raised: str.capitalize would lower every German noun after it.
        why_text = t(locale, "picture.insomnia.why", why=why[:1].upper() + why[1:], start=start)
        sp.draw_text(canvas, (MARGIN, y + 48), why_text, 18, sp.MUTED)
        y += 96
        words.append(t(locale, "picture.game_over_alt", what=headline, why=why))
        y = _seats(canvas, view, info, y, label, locale, order, places)
        chips = ", ".join(f"{places[p]} {label(p)} {view.chips[p]}" for p in order)
        words.append(t(locale, "picture.insomnia.chips_alt", chips=chips))
        return canvas, alt(words)
    x = _dice_row(canvas, view, MARGIN + 2, y, DIE)
    words.append(t(locale, "picture.dice_alt", dice=" ".join(d.short for d in view.dice)))
    if view.trump is not None:
        _trump(canvas, view, x + 14, y - 4, locale)
        words.append(t(locale, "picture.trumps_alt", suit=tn(locale, f"suit.{view.trump.value}", 2)))
    stock_x = WIDTH - MARGIN - 40
    sp.paste(canvas, sp.back(38) if view.stock_count else sp.slot(38), (stock_x, y - 6))
    sp.draw_text(canvas, (stock_x - 8, y + 4), t(locale, "picture.stock"), 18, sp.MUTED, anchor="r")
    sp.draw_text(canvas, (stock_x - 8, y + 26), str(view.stock_count), 22, anchor="r")
    words.append(t(locale, "picture.stock_alt", count=view.stock_count))
    y += DIE + 34
    if _has_plays(view):
        y = _plays_row(canvas, view, y, label, locale)
        if view.trick or view.last_trick:
            plays = view.trick or view.last_trick
            what = t(locale, "picture.this_trick") if view.trick else t(locale, "picture.last_trick")
            played = ", ".join(f"{label(p.player)} {card_words(p.card, locale)}" for p in plays)
            words.append(f"{what}: {played}.")
        else:
            shown = view.shown_hand
            cards = cards_words(shown.cards, locale)
            words.append(t(locale, "picture.insomnia.shown_alt", player=label(shown.player), cards=cards))
        if view.stage2_winner and view.stage2_description:
            words.append(
                t(locale, "picture.insomnia.best_hand_alt", player=label(view.stage2_winner),
                  what=view.stage2_description)
            )
    _seats(canvas, view, info, y, label, locale, list(view.players))
    seats = []
    for p in view.players:
        marks = (t(locale, "picture.insomnia.to_act_mark") if p == view.current_player else "") + (
            t(locale, "picture.insomnia.dealer_mark") if p == view.dealer else ""
        )
        seats.append(
            t(locale, "picture.insomnia.seat_alt", player=label(p), marks=marks, chips=view.chips[p],
              cards=view.hand_counts.get(p, 0))
        )
    words.append(t(locale, "picture.insomnia.seats_alt", seats="; ".join(seats)))
    return canvas, alt(words)


# --- a player's hand ---------------------------------------------------------------------------------------


def hand_height() -> int:
    return MARGIN + 40 + sp.card_height(HAND_CARD) + 36 + 44 + 30 + 36 + MARGIN


def hand(
    info: Any, view: Any, legal: list[Any], names: Mapping[str, str] | None, *, locale: object = "en"
) -> tuple[Image.Image, str]:
    """His cards large, the legal ones ringed and tagged; the dice (ringed when he may re-throw them)."""

    def label(p: str) -> str:
        return t(locale, "picture.you") if p == view.player else seat_label(info, p, names, locale)

    canvas = new_canvas(hand_height())
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.insomnia.hand_title", deal=view.deal), 24)
    _chips(canvas, WIDTH - MARGIN, y, view.chips.get(view.player, 0), 24, anchor="r")
    y += 40
    verbs = {
        "play": t(locale, "picture.insomnia.play_tag"),
        "exchange": t(locale, "picture.insomnia.swap_tag"),
    }
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
        sp.draw_text(canvas, (MARGIN, y + 40), t(locale, "picture.no_cards"), 24, sp.MUTED)
    y += height + 36
    dice = {a.die for a in legal if a.kind == "rethrow"}
    x = _dice_row(canvas, view, MARGIN + 2, y, 44, dice)
    facts = [t(locale, "picture.pot_fact", pot=view.pot)]
    if view.trump is not None:
        sp.draw_text(canvas, (x + 10, y + 10), t(locale, "picture.trumps"), 20, sp.MUTED)
        sp.paste(canvas, sp.suit_tile(view.trump, 36), (x + 90, y + 4))
        x += 134
    sp.draw_text(canvas, (x + 12, y + 10), " · ".join(facts), 20, sp.MUTED)
    y += 44 + 30
    hint = _hint(view, legal, label, locale)
    colour = sp.GOLD if legal else sp.MUTED
    sp.draw_text(canvas, (MARGIN, y), sp.fit_text(hint, 20, WIDTH - 2 * MARGIN), 20, colour)
    words = [
        t(locale, "picture.insomnia.hand_alt", deal=view.deal, cards=cards_words(view.hand, locale)),
        t(locale, "picture.dice_alt", dice=" ".join(d.short for d in view.dice)),
        t(locale, "picture.insomnia.your_chips_alt", chips=view.chips.get(view.player, 0), pot=view.pot),
    ]
    if view.trump is not None:
        words.append(t(locale, "picture.trumps_alt", suit=tn(locale, f"suit.{view.trump.value}", 2)))
    if marked:
        cards = cards_words([c for c in view.hand if c in marked], locale)
        words.append(t(locale, "picture.insomnia.marked_alt", verbs=verbs_word(legal, locale), cards=cards))
    words.append(hint + ".")
    return canvas, alt(words)


def verbs_word(legal: list[Any], locale: object = "en") -> str:
    if any(a.kind == "exchange" for a in legal):
        return t(locale, "picture.insomnia.may_exchange")
    return t(locale, "picture.insomnia.may_play")


def _hint(view: Any, legal: list[Any], label: Any, locale: object) -> str:
    if view.is_over:
        return t(locale, "picture.game_is_over")
    if not legal:
        if not view.current_player:
            return ""
        return t(locale, "picture.waiting_for", player=label(view.current_player))
    kinds = {a.kind for a in legal}
    if "play" in kinds:
        return t(locale, "picture.insomnia.hint_play")
    if "exchange" in kinds:
        return t(locale, "picture.insomnia.hint_exchange")
    if "rethrow" in kinds:
        return t(locale, "picture.insomnia.hint_rethrow", left=view.rethrows_left)
    bids = [a.amount for a in legal if a.kind == "bid"]
    if bids:
        return t(locale, "picture.insomnia.hint_bid", low=min(bids), high=max(bids))
    return t(locale, "picture.insomnia.hint_pass")
