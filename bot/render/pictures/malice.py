"""Malice pictures: the centre stacks and what each needs, both players' payoff piles and fanned side stacks,
the stock; and one player's hand with the cards he may move now.

`table` reads only the public view; `hand` reads only the player's own view and, on his turn, his legal moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from bot.i18n import t, tn
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import alt, card_words, cards_words, seat_label

CARD = 64
STEP = 80
FAN = 24  # how much of each card under the top shows: its rank and suit corner
FAN_ROOM = 10 * FAN  # a longer stack is squeezed into this height, never below MIN_FAN a card
MIN_FAN = 20
# The reasons a game ends that have a text (picture.malice.over.*); another is shown as the engine names it.
REASONS = {"payoff_emptied", "stalemate", "turn_cap", "resign", "cancelled"}


def _fan_step(n: int) -> int:
    return FAN if n <= 1 else min(FAN, max(MIN_FAN, FAN_ROOM // (n - 1)))


def _fan_height(n: int) -> int:
    return sp.card_height(CARD) + (n - 1) * _fan_step(n) if n else sp.card_height(CARD)


def _count(canvas: Image.Image, x: int, y: int, n: int) -> None:
    """A pile's size as a badge on its top-right corner."""
    b = sp.badge(str(n), 15, sp.INK, sp.WHITE)
    sp.paste(canvas, b, (x + CARD - b.width + 6, y - 8))


def _pile(canvas: Image.Image, top: Any, count: int, x: int, y: int, *, ringed: bool = False,
          width: int = CARD) -> None:
    """A pile seen from above: its top card (or an empty slot), its size on a badge."""
    if ringed:
        sp.paste(canvas, sp.ring(width, sp.card_height(width), 3), (x - 3, y - 3))
    if top is None:
        sp.paste(canvas, sp.slot(width), (x, y))
    else:
        if count > 1:  # the edge of the cards below, so a pile looks like a pile
            sp.paste(canvas, sp.back(width), (x + 3, y + 3))
        sp.paste(canvas, sp.card(top, width), (x, y))
    if count:
        _count(canvas, x + width - CARD, y, count)


def _fan(canvas: Image.Image, stack: list[Any], x: int, y: int, *, ring_top: bool = False) -> None:
    """A side stack fanned downwards, bottom card first, so every card's corner shows."""
    if not stack:
        sp.paste(canvas, sp.slot(CARD), (x, y))
        return
    step = _fan_step(len(stack))
    for i, c in enumerate(stack):
        if ring_top and i == len(stack) - 1:
            sp.paste(canvas, sp.ring(CARD, sp.card_height(CARD), 3), (x - 3, y + i * step - 3))
        sp.paste(canvas, sp.card(c, CARD), (x, y + i * step))


def _just_played(view: Any, where: str, stack: list[Any]) -> bool:
    last = view.last_play
    return bool(last and last.to == where and stack and stack[-1] == last.card and not view.is_over)


def _player_height(view: Any, player: str) -> int:
    longest = max((len(s) for s in view.side[player]), default=0)
    return 34 + 24 + _fan_height(max(longest, 1)) + 14


def table_height(view: Any) -> int:
    centre = 32 + sp.card_height(CARD) + 30
    over = 26 if view.is_over else 0
    return MARGIN + 66 + over + centre + sum(_player_height(view, p) + 10 for p in view.players) + MARGIN - 6


def table(
    info: Any, view: Any, names: Mapping[str, str] | None, *, locale: object = "en"
) -> tuple[Image.Image, str]:
    def label(p: str) -> str:
        return seat_label(info, p, names, locale)

    canvas = new_canvas(table_height(view))
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.malice.title", turn=view.turn), 26)
    stake = t(locale, "picture.malice.stake", stake=view.stake)
    sp.draw_text(canvas, (WIDTH - MARGIN, y + 4), stake, 20, sp.MUTED, anchor="r")
    y += 36
    words = [t(locale, "picture.malice.alt_title", turn=view.turn)]
    if view.is_over and view.result is not None:
        status, why = _result(view, label, locale)
        sp.draw_text(canvas, (MARGIN, y - 2), sp.fit_text(status, 24, WIDTH - 2 * MARGIN), 24, sp.GOLD)
        sp.draw_text(canvas, (MARGIN, y + 28), t(locale, "picture.game_over_why", why=why), 18, sp.MUTED)
        y += 26
        words.append(t(locale, "picture.game_over_alt", what=status, why=why))
    else:
        status = t(locale, "picture.to_play", player=label(view.current_player))
        sp.draw_text(canvas, (MARGIN, y), status, 20, sp.GOLD)
        words.append(status + ".")
    y += 30
    y = _centre(canvas, view, y, words, locale)
    for p in view.players:
        y = _player(canvas, info, view, p, y, label, words, locale) + 10
    return canvas, alt(words)


def _result(view: Any, label: Any, locale: object) -> tuple[str, str]:
    r = view.result
    why = t(locale, f"picture.malice.over.{r.reason}") if r.reason in REASONS else r.reason
    if r.winner is None:
        return t(locale, "picture.malice.draw"), why
    return tn(locale, "picture.malice.wins", r.score, player=label(r.winner), chips=r.chips), why


def _centre(canvas: Image.Image, view: Any, y: int, words: list[str], locale: object) -> int:
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.centre"), 18, sp.MUTED)
    stock = t(locale, "picture.stock")
    sp.draw_text(canvas, (WIDTH - MARGIN - CARD // 2, y), stock, 18, sp.MUTED, anchor="m")
    y += 32
    parts = []
    for i, stack in enumerate(view.centre):
        x = MARGIN + 6 + i * (STEP + 32)
        _pile(canvas, stack[-1] if stack else None, len(stack), x, y,
              ringed=_just_played(view, f"centre{i + 1}", stack))
        if not stack:
            free = t(locale, "picture.malice.free")
            sp.draw_text(canvas, (x + CARD // 2, y + 34), free, sp.SMALL, sp.MUTED, anchor="m")
        need = view.centre_needs[i].short
        below = y + sp.card_height(CARD) + 6
        needs = _needs(i, need, locale)
        sp.draw_text(canvas, (x + CARD // 2, below), needs, sp.SMALL, sp.GOLD, anchor="m")
        if stack:
            parts.append(
                t(locale, "picture.malice.centre_stack_alt", number=i + 1, card=card_words(stack[-1], locale),
                  count=len(stack), rank=need)
            )
        else:
            parts.append(t(locale, "picture.malice.centre_free_alt", number=i + 1))
    x = WIDTH - MARGIN - CARD
    if view.stock_count:
        sp.paste(canvas, sp.back(CARD), (x, y))
        _count(canvas, x, y, view.stock_count)
    else:
        sp.paste(canvas, sp.slot(CARD), (x, y))
    words.append(t(locale, "picture.malice.centre_alt", stacks="; ".join(parts), stock=view.stock_count))
    return y + sp.card_height(CARD) + 30


def _needs(i: int, rank: str, locale: object) -> str:
    """A centre stack's short name and the rank it takes next ("C2 needs 5")."""
    stack = t(locale, "picture.malice.centre_tag", number=i + 1)
    return t(locale, "picture.malice.needs", stack=stack, rank=rank)


def _player(canvas: Image.Image, info: Any, view: Any, player: str, y: int, label: Any,
            words: list[str], locale: object) -> int:
    height = _player_height(view, player)
    current = player == view.current_player
    sp.paste(canvas, sp.panel(WIDTH - 2 * MARGIN, height, current), (MARGIN, y))
    x0 = MARGIN + 12
    name = sp.fit_text(label(player), 22, 300)
    sp.draw_text(canvas, (x0, y + 6), name, 22, sp.GOLD if current else sp.WHITE)
    hand = view.hand_counts.get(player, 0)
    right = WIDTH - MARGIN - 12
    hand_text = t(locale, "picture.malice.hand_count", count=hand)
    sp.draw_text(canvas, (right, y + 8), hand_text, 18, sp.MUTED, anchor="r")
    bx = right - sp.text_size(hand_text, 18)[0] - 10 - (max(hand, 1) - 1) * 12 - 20
    for i in range(hand):
        sp.paste(canvas, sp.back(20), (bx + i * 12, y + 4))
    y += 34
    count = view.payoff_counts.get(player, 0)
    sp.draw_text(canvas, (x0, y), t(locale, "picture.payoff"), sp.SMALL, sp.MUTED)
    sp.draw_text(canvas, (x0 + CARD + 30, y), t(locale, "picture.side_stacks"), sp.SMALL, sp.MUTED)
    y += 24
    top = view.payoff_top.get(player)
    _pile(canvas, top, count, x0, y)
    sides = view.side[player]
    for i, stack in enumerate(sides):
        x = x0 + CARD + 30 + i * STEP
        _fan(canvas, stack, x, y, ring_top=_just_played(view, f"side{i + 1}", stack))
    empty = t(locale, "picture.malice.empty")
    side_words = "; ".join(f"{i + 1}: {cards_words(s, locale) if s else empty}" for i, s in enumerate(sides))
    words.append(
        t(
            locale, "picture.malice.player_alt", player=label(player),
            mark=t(locale, "picture.malice.to_play_mark") if current else "", payoff=count,
            top=t(locale, "picture.malice.top", card=card_words(top, locale)) if top else "", hand=hand,
            sides=side_words,
        )
    )
    return y + _fan_height(max(max((len(s) for s in sides), default=0), 1)) + 14


# --- a player's hand ---------------------------------------------------------------------------------------

HAND_CARD = 96
PILE = 60


def _targets(moves: list[Any], locale: object) -> list[str]:
    """Where a card may go, short, one line for the centre and one for the side: `["C2 C4", "side"]`."""
    stacks = sorted({m.to[-1] for m in moves if m.to.startswith("centre")})
    centre = " ".join(t(locale, "picture.malice.centre_tag", number=n) for n in stacks)
    side = t(locale, "picture.malice.side_tag") if any(m.to.startswith("side") for m in moves) else ""
    return [line for line in (centre, side) if line]


def hand_height() -> int:
    row = 22 + sp.card_height(PILE) + 28
    return MARGIN + 40 + sp.card_height(HAND_CARD) + 56 + 2 * row + 20 + 30 + MARGIN


def hand(
    info: Any, view: Any, legal: list[Any], names: Mapping[str, str] | None, *, locale: object = "en"
) -> tuple[Image.Image, str]:
    def label(p: str) -> str:
        return t(locale, "picture.you") if p == view.player else seat_label(info, p, names, locale)

    plays = [a for a in legal if a.kind == "play"]
    canvas = new_canvas(hand_height())
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.malice.hand_title", turn=view.turn), 24)
    y += 40
    n = max(len(view.hand), 1)
    width = min(HAND_CARD, (WIDTH - 2 * MARGIN - 16 * (n - 1)) // n)
    height = sp.card_height(width)
    x = (WIDTH - (n * (width + 16) - 16)) // 2
    marked = []
    for c in view.hand:
        moves = [m for m in plays if m.source == "hand" and m.card == c]
        if moves:
            sp.paste(canvas, sp.ring(width, height, 5), (x - 5, y - 5))
            marked.append(c)
        sp.paste(canvas, sp.card(c, width), (x, y))
        if plays and not moves:  # his turn, but this card cannot move now: faded into the felt
            canvas.paste(sp.FELT, (x, y), sp.faded(width, height))
        for n, line in enumerate(_targets(moves, locale)):
            tag = sp.fit_text(line, 18, width + 14)
            sp.draw_text(canvas, (x + width // 2, y + height + 6 + 20 * n), tag, 18, sp.GOLD, anchor="m")
        x += width + 16
    if not view.hand:
        sp.draw_text(canvas, (MARGIN, y + 50), t(locale, "picture.malice.no_cards"), 22, sp.MUTED)
    y += height + 56
    # His piles: the payoff top and the top of each side stack, marked when they may move now.
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.malice.your_piles"), sp.SMALL, sp.MUTED)
    y += 22
    piles = [("payoff", view.payoff_top.get(view.player), view.payoff_counts.get(view.player, 0))]
    piles += [(f"side{i + 1}", s[-1] if s else None, len(s)) for i, s in enumerate(view.side[view.player])]
    for i, (source, top, count) in enumerate(piles):
        px = MARGIN + 10 + i * (PILE + 44) + (20 if i else 0)
        moves = [m for m in plays if m.source == source]
        _pile(canvas, top, count, px, y, ringed=bool(moves), width=PILE)
        if source == "payoff":
            name = t(locale, "picture.malice.payoff_tag")
        else:
            name = t(locale, "picture.malice.side_n", number=source[-1])
        for n, line in enumerate(_targets(moves, locale) if moves else [name]):
            below = (px + PILE // 2, y + sp.card_height(PILE) + 5 + 20 * n)
            colour = sp.GOLD if moves else sp.MUTED
            sp.draw_text(canvas, below, sp.fit_text(line, sp.SMALL, PILE + 40), sp.SMALL, colour, anchor="m")
    y += sp.card_height(PILE) + 48
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.centre"), sp.SMALL, sp.MUTED)
    y += 22
    for i, stack in enumerate(view.centre):
        px = MARGIN + 10 + i * (PILE + 56)
        _pile(canvas, stack[-1] if stack else None, len(stack), px, y, width=PILE)
        text = _needs(i, view.centre_needs[i].short, locale)
        below = (px + PILE // 2, y + sp.card_height(PILE) + 5)
        sp.draw_text(canvas, below, text, sp.SMALL, sp.MUTED, anchor="m")
    y += sp.card_height(PILE) + 30
    hint = _hint(view, legal, label, locale)
    sp.draw_text(canvas, (MARGIN, y), sp.fit_text(hint, 20, WIDTH - 2 * MARGIN), 20,
                 sp.GOLD if legal else sp.MUTED)
    words = [
        t(locale, "picture.malice.hand_alt", turn=view.turn, cards=cards_words(view.hand, locale)),
        t(locale, "picture.malice.payoff_alt", count=view.payoff_counts.get(view.player, 0)),
    ]
    if marked:
        words.append(t(locale, "picture.malice.may_move_alt", cards=cards_words(marked, locale)))
    words.append(hint + ".")
    return canvas, alt(words)


def _hint(view: Any, legal: list[Any], label: Any, locale: object) -> str:
    if view.is_over:
        return t(locale, "picture.game_is_over")
    if not legal:
        return t(locale, "picture.waiting_for", player=label(view.current_player))
    if view.must_play_ace:
        return t(locale, "picture.malice.hint_ace")
    if any(a.kind == "play" for a in legal):
        return t(locale, "picture.malice.hint_move")
    return t(locale, "picture.malice.hint_stuck")
