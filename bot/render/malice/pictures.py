"""Malice pictures: the centre stacks and what each needs, both players' payoff piles and fanned side stacks,
the stock; and one player's hand (`hand_picture`) with the cards he may move now.

`table` reads only the public view; `hand` reads only the player's own view and, on his turn, his legal moves.
Colours as `sprites` defines them: the player to move in `TURN`, the card played last ringed in `LAST` (with a
legend line saying so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PIL import Image

from bot.games.cards import Card
from bot.games.malice import MalicePublicView, MaliceResult
from bot.i18n import resolve_locale, t, tn
from bot.i18n.cards import format_rank
from bot.render.common import TableInfo
from bot.render.malice.hand_picture import hand, needs
from bot.render.pictures import pieces
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import SeatNames, alt, card_words, cards_words, player_name

__all__ = ["hand", "table"]

Label = Callable[[str], str]

CARD = 64
STEP = 80
FAN = 24  # how much of each card under the top shows: its rank and suit corner
FAN_ROOM = 10 * FAN  # a longer stack is squeezed into this height, never below MIN_FAN a card
MIN_FAN = 20
LABEL_H = 32  # a label line above piles: room for the count badges that stand out above a pile's top
LEGEND_H = 30
# The reasons a game ends that have a text (picture.malice.over.*); another is shown as the engine names it.
REASONS = {"payoff_emptied", "stalemate", "turn_cap", "resign", "cancelled"}


def _fan_step(n: int) -> int:
    return FAN if n <= 1 else min(FAN, max(MIN_FAN, FAN_ROOM // (n - 1)))


def _fan_height(n: int) -> int:
    return sp.card_height(CARD) + (n - 1) * _fan_step(n) if n else sp.card_height(CARD)


def _fan(
    canvas: Image.Image, stack: list[Card], x: int, y: int, lang: str, *, ring_top: bool = False
) -> None:
    """A side stack fanned downwards, bottom card first, so every card's corner shows."""
    if not stack:
        sp.paste(canvas, sp.slot(CARD), (x, y))
        return
    step = _fan_step(len(stack))
    last = len(stack) - 1
    for i, c in enumerate(stack):
        if ring_top and i == last:
            sp.paste(canvas, sp.ring(CARD, sp.card_height(CARD), 4, sp.LAST), (x - 4, y + i * step - 4))
        # A card under another shows only its corner: only that part is pasted (the same pixels).
        sprite = sp.card(c, CARD, lang) if i == last else sp.card_top(c, CARD, lang, step)
        sp.paste(canvas, sprite, (x, y + i * step))


def _just_played(view: MalicePublicView, where: str, stack: list[Card]) -> bool:
    last = view.last_play
    return bool(last and last.to == where and stack and stack[-1] == last.card and not view.is_over)


def _any_just_played(view: MalicePublicView) -> bool:
    places = [(f"centre{i + 1}", s) for i, s in enumerate(view.centre)]
    places += [(f"side{i + 1}", s) for p in view.players for i, s in enumerate(view.side[p])]
    return any(_just_played(view, where, stack) for where, stack in places)


def _payoff_column(locale: object) -> int:
    """The payoff pile's column: the card, or its label if that is wider (German's "Zahlstapel")."""
    return max(CARD, sp.text_size(t(locale, "picture.payoff"), sp.SMALL)[0]) + 26


def _player_height(view: MalicePublicView, player: str) -> int:
    longest = max((len(s) for s in view.side[player]), default=0)
    return 34 + LABEL_H + _fan_height(max(longest, 1)) + 14


def table_height(view: MalicePublicView) -> int:
    centre = LABEL_H + sp.card_height(CARD) + 30
    over = 26 if view.is_over else 0
    legend = LEGEND_H if _any_just_played(view) else 0
    players = sum(_player_height(view, p) + 10 for p in view.players)
    return MARGIN + 66 + over + centre + players + legend + MARGIN - 6


def table(
    info: TableInfo, view: MalicePublicView, names: Mapping[str, str] | None, *, locale: object = "en"
) -> tuple[Image.Image, str]:
    labels = SeatNames(info, names, locale)

    def said(p: str) -> str:  # the alt text's name: as the player wrote it
        return player_name(info, p, names, locale)

    canvas = new_canvas(table_height(view))
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.malice.title", turn=view.turn), 26)
    stake = t(locale, "picture.malice.stake", stake=view.stake)
    sp.draw_text(canvas, (WIDTH - MARGIN, y + 4), stake, 20, sp.MUTED, anchor="r")
    y += 36
    words = [t(locale, "picture.malice.alt_title", turn=view.turn)]
    result = view.result
    if view.is_over and result is not None:
        _, why = _result(result, labels, locale)
        status = pieces.fit_names(
            lambda ns: _result(result, lambda _p: ns[0], locale)[0],
            [result.winner] if result.winner else [],
            labels,
            24,
            WIDTH - 2 * MARGIN,
        )
        sp.draw_text(canvas, (MARGIN, y - 2), status, 24)
        sp.draw_text(canvas, (MARGIN, y + 28), t(locale, "picture.game_over_why", why=why), 18, sp.MUTED)
        y += 26
        words.append(t(locale, "picture.game_over_alt", what=_result(result, said, locale)[0], why=why))
    elif view.current_player is not None:
        who = pieces.fit_names(
            lambda ns: t(locale, "picture.to_play", player=ns[0]),
            [view.current_player],
            labels,
            20,
            WIDTH - 2 * MARGIN,
        )
        pieces.status(canvas, MARGIN, y, "", who, 20, WIDTH - 2 * MARGIN)
        words.append(t(locale, "picture.to_play", player=said(view.current_player)) + ".")
    y += 30
    y = _centre(canvas, view, y, words, locale)
    for p in view.players:
        y = _player(canvas, info, view, p, y, labels, said, words, locale) + 10
    if _any_just_played(view):
        swatch = pieces.ringed_card(20, sp.LAST)
        pieces.legend(canvas, MARGIN + 4, y + 2, [(swatch, t(locale, "picture.malice.legend_last"))])
    return canvas, alt(words)


def _result(r: MaliceResult, label: Label, locale: object) -> tuple[str, str]:
    why = t(locale, f"picture.malice.over.{r.reason}") if r.reason in REASONS else r.reason
    if r.winner is None:
        return t(locale, "picture.malice.draw"), why
    chips = tn(locale, "count.chip", r.chips)
    return tn(locale, "picture.malice.wins", r.score, player=label(r.winner), chips=chips), why


def _centre(canvas: Image.Image, view: MalicePublicView, y: int, words: list[str], locale: object) -> int:
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.centre"), sp.SMALL, sp.MUTED)
    stock = t(locale, "picture.stock")
    sp.draw_text(canvas, (WIDTH - MARGIN, y), stock, sp.SMALL, sp.MUTED, anchor="r")
    y += LABEL_H
    parts = []
    for i, stack in enumerate(view.centre):
        x = MARGIN + 26 + i * (STEP + 32)
        last = _just_played(view, f"centre{i + 1}", stack)
        top = stack[-1] if stack else None
        ring = sp.LAST if last else None
        pieces.pile(canvas, top, len(stack), x, y, CARD, resolve_locale(locale), ring=ring)
        if not stack:
            free = t(locale, "picture.malice.free")
            sp.draw_text(canvas, (x + CARD // 2, y + 34), free, sp.SMALL, sp.MUTED, anchor="m")
        need = format_rank(view.centre_needs[i], locale)
        below = y + sp.card_height(CARD) + 6
        sp.draw_text(canvas, (x + CARD // 2, below), needs(i, need, locale), sp.SMALL, anchor="m")
        if stack:
            parts.append(
                t(
                    locale,
                    "picture.malice.centre_stack_alt",
                    number=i + 1,
                    card=card_words(stack[-1], locale),
                    cards=tn(locale, "count.card", len(stack)),
                    rank=need,
                )
            )
        else:
            parts.append(t(locale, "picture.malice.centre_free_alt", number=i + 1))
    x = WIDTH - MARGIN - CARD - 6
    if view.stock_count:
        sp.paste(canvas, sp.back(CARD), (x, y))
        pieces.count_badge(canvas, x, y, view.stock_count, CARD)
    else:
        sp.paste(canvas, sp.slot(CARD), (x, y))
    words.append(t(locale, "picture.malice.centre_alt", stacks="; ".join(parts), stock=view.stock_count))
    return y + sp.card_height(CARD) + 30


def _player(
    canvas: Image.Image,
    info: TableInfo,
    view: MalicePublicView,
    player: str,
    y: int,
    names: SeatNames,
    said: Label,
    words: list[str],
    locale: object,
) -> int:
    height = _player_height(view, player)
    current = player == view.current_player and not view.is_over
    sp.paste(canvas, sp.panel(WIDTH - 2 * MARGIN, height, current), (MARGIN, y))
    x0 = MARGIN + 12
    hand = view.hand_counts.get(player, 0)
    right = WIDTH - MARGIN - 12
    hand_text = t(locale, "picture.malice.hand_count", count=hand)
    sp.draw_text(canvas, (right, y + 8), hand_text, 18, sp.MUTED, anchor="r")
    bx = right - sp.text_size(hand_text, 18)[0] - 10 - (max(hand, 1) - 1) * 12 - 20
    for i in range(hand):
        sp.paste(canvas, sp.back(20), (bx + i * 12, y + 4))
    name = names.line(player, 22, bx - x0 - 12)
    sp.draw_text(canvas, (x0, y + 6), name, 22, sp.TURN if current else sp.WHITE)
    y += 34
    count = view.payoff_counts.get(player, 0)
    column = _payoff_column(locale)
    sp.draw_text(canvas, (x0, y), t(locale, "picture.payoff"), sp.SMALL, sp.MUTED)
    sp.draw_text(canvas, (x0 + column, y), t(locale, "picture.side_stacks"), sp.SMALL, sp.MUTED)
    y += LABEL_H
    top = view.payoff_top.get(player)
    pieces.pile(canvas, top, count, x0, y, CARD, resolve_locale(locale))
    sides = view.side[player]
    for i, stack in enumerate(sides):
        x = x0 + column + i * STEP
        _fan(canvas, stack, x, y, resolve_locale(locale), ring_top=_just_played(view, f"side{i + 1}", stack))
    empty = t(locale, "picture.malice.empty")
    side_words = "; ".join(f"{i + 1}: {cards_words(s, locale) if s else empty}" for i, s in enumerate(sides))
    words.append(
        t(
            locale,
            "picture.malice.player_alt",
            player=said(player),
            mark=t(locale, "picture.malice.to_play_mark") if current else "",
            payoff=count,
            top=t(locale, "picture.malice.top", card=card_words(top, locale)) if top else "",
            hand=hand,
            sides=side_words,
        )
    )
    return y + _fan_height(max(max((len(s) for s in sides), default=0), 1)) + 14
