"""A Malice player's hand picture: his cards large, those he may move now ringed in `LEGAL` with where they
may go (C2, side); his payoff top and side stacks, ringed when they may move; the centre and what each stack
needs; a hint line saying what the marks mean.

Drawn only from his own view and, on his turn, his legal moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PIL import Image

from bot.games.cards import Card
from bot.games.malice import Action, MaliceView, Play
from bot.i18n import resolve_locale, t
from bot.i18n.cards import format_rank
from bot.render.common import TableInfo
from bot.render.pictures import pieces
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import SeatNames, alt, cards_words

HAND_CARD = 96
PILE = 60
LABEL_H = 32  # room above a row of piles for the label and the piles' count badges


def needs(i: int, rank: str, locale: object) -> str:
    """A centre stack's short name and the rank it takes next ("C2 needs 5")."""
    stack = t(locale, "picture.malice.centre_tag", number=i + 1)
    return t(locale, "picture.malice.needs", stack=stack, rank=rank)


def _targets(moves: list[Play], locale: object) -> list[str]:
    """Where a card may go, short, one line for the centre and one for the side: `["C2 C4", "side"]`."""
    stacks = sorted({m.to[-1] for m in moves if m.to.startswith("centre")})
    centre = " ".join(t(locale, "picture.malice.centre_tag", number=n) for n in stacks)
    side = t(locale, "picture.malice.side_tag") if any(m.to.startswith("side") for m in moves) else ""
    return [line for line in (centre, side) if line]


def hand_height() -> int:
    row = LABEL_H + sp.card_height(PILE) + 28
    return MARGIN + 40 + sp.card_height(HAND_CARD) + 56 + 2 * row + 28 + 30 + MARGIN


def hand(
    info: TableInfo,
    view: MaliceView,
    legal: list[Action],
    names: Mapping[str, str] | None,
    *,
    locale: object = "en",
) -> tuple[Image.Image, str]:
    labels = SeatNames(info, names, locale, you=view.player)

    plays = [a for a in legal if a.kind == "play"]
    canvas = new_canvas(hand_height())
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.malice.hand_title", turn=view.turn), 24)
    y += 40
    marked = _cards(canvas, view, plays, y, locale)
    if not view.hand:
        sp.draw_text(canvas, (MARGIN, y + 50), t(locale, "picture.malice.no_cards"), 22, sp.MUTED)
    y += sp.card_height(HAND_CARD) + 56
    y = _own_piles(canvas, view, plays, y, locale)
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.centre"), sp.SMALL, sp.MUTED)
    y += LABEL_H
    for i, stack in enumerate(view.centre):
        px = MARGIN + 30 + i * (PILE + 56)
        pieces.pile(canvas, stack[-1] if stack else None, len(stack), px, y, PILE, resolve_locale(locale))
        text = needs(i, format_rank(view.centre_needs[i], locale), locale)
        below = (px + PILE // 2, y + sp.card_height(PILE) + 5)
        sp.draw_text(canvas, below, text, sp.SMALL, anchor="m")
    y += sp.card_height(PILE) + 38
    hint = _hint(view, legal, labels, locale)
    size = pieces.fitted_size(hint, WIDTH - 2 * MARGIN)
    waiting = [view.current_player] if view.current_player and not legal and not view.is_over else []
    drawn = pieces.fit_names(
        lambda ns: _hint(view, legal, lambda _p: ns[0], locale), waiting, labels, size, WIDTH - 2 * MARGIN
    )
    sp.draw_text(canvas, (MARGIN, y), drawn, size, sp.LEGAL if legal else sp.MUTED)
    words = [
        t(locale, "picture.malice.hand_alt", turn=view.turn, cards=cards_words(view.hand, locale)),
        t(locale, "picture.malice.payoff_alt", count=view.payoff_counts.get(view.player, 0)),
    ]
    if marked:
        words.append(t(locale, "picture.malice.may_move_alt", cards=cards_words(marked, locale)))
    words.append(hint + ".")
    return canvas, alt(words)


def _cards(canvas: Image.Image, view: MaliceView, plays: list[Play], y: int, locale: object) -> list[Card]:
    """His hand, the cards he may move ringed with where they may go; returns those cards."""
    n = max(len(view.hand), 1)
    width = min(HAND_CARD, (WIDTH - 2 * MARGIN - 16 * (n - 1)) // n)
    height = sp.card_height(width)
    x = (WIDTH - (n * (width + 16) - 16)) // 2
    marked = []
    for c in view.hand:
        moves = [m for m in plays if m.source == "hand" and m.card == c]
        if moves:
            sp.paste(canvas, sp.ring(width, height, 5, sp.LEGAL), (x - 5, y - 5))
            marked.append(c)
        sp.paste(canvas, sp.card(c, width, resolve_locale(locale)), (x, y))
        if plays and not moves:  # his turn, but this card cannot move now: faded into the felt
            canvas.paste(sp.FELT, (x, y), sp.faded(width, height))
        for line_no, line in enumerate(_targets(moves, locale)):
            size = pieces.fitted_size(line, width + 16, (18, sp.MIN_SIZE))
            below = (x + width // 2, y + height + 6 + 20 * line_no)
            sp.draw_text(canvas, below, sp.fit_text(line, size, width + 16), size, sp.LEGAL, anchor="m")
        x += width + 16
    return marked


def _own_piles(canvas: Image.Image, view: MaliceView, plays: list[Play], y: int, locale: object) -> int:
    """His payoff top and the top of each side stack, ringed when they may move now."""
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.malice.your_piles"), sp.SMALL, sp.MUTED)
    y += LABEL_H
    piles = [("payoff", view.payoff_top.get(view.player), view.payoff_counts.get(view.player, 0))]
    piles += [(f"side{i + 1}", s[-1] if s else None, len(s)) for i, s in enumerate(view.side[view.player])]
    for i, (source, top, count) in enumerate(piles):
        px = MARGIN + 10 + i * (PILE + 44) + (20 if i else 0)
        moves = [m for m in plays if m.source == source]
        pieces.pile(canvas, top, count, px, y, PILE, resolve_locale(locale), ring=sp.LEGAL if moves else None)
        if source == "payoff":
            name = t(locale, "picture.malice.payoff_tag")
        else:
            name = t(locale, "picture.malice.side_n", number=source[-1])
        for line_no, line in enumerate(_targets(moves, locale) if moves else [name]):
            below = (px + PILE // 2, y + sp.card_height(PILE) + 5 + 20 * line_no)
            colour = sp.LEGAL if moves else sp.MUTED
            sp.draw_text(canvas, below, sp.fit_text(line, sp.SMALL, PILE + 40), sp.SMALL, colour, anchor="m")
    return y + sp.card_height(PILE) + 48


def _hint(view: MaliceView, legal: list[Action], label: Callable[[str], str], locale: object) -> str:
    if view.is_over:
        return t(locale, "picture.game_is_over")
    if not legal:
        if view.current_player is None:
            return ""
        return t(locale, "picture.waiting_for", player=label(view.current_player))
    if view.must_play_ace:
        return t(locale, "picture.malice.hint_ace")
    if any(a.kind == "play" for a in legal):
        return t(locale, "picture.malice.hint_move")
    return t(locale, "picture.malice.hint_stuck")
