"""An Insomnia player's hand picture: his cards large, those he may play or swap now ringed and tagged (the
`LEGAL` colour); the dice (ringed and numbered when he may re-throw them), the trumps and the pot; in stage 4,
when his hand is empty, the cards he won, which decide that stage.

Drawn only from his own view and, on his turn, his legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PIL import Image

from bot.games.cards import Card, Suit
from bot.games.insomnia import Action, Exchange, Play, PlayerView, PublicView
from bot.i18n import resolve_locale as lang
from bot.i18n import t, tn
from bot.i18n.cards import format_rank
from bot.render.common import TableInfo
from bot.render.pictures import pieces
from bot.render.pictures import sprites as sp
from bot.render.pictures.canvas import MARGIN, WIDTH, new_canvas
from bot.render.pictures.labels import SeatNames, alt, cards_words

HAND_CARD = 108
WON_CARD = 64
HAND_DIE = 46
LABEL_H = 24


def shown_trump(view: PublicView) -> Suit | None:
    """The trumps, while they count: in the tricks of stage 3 only (stage 4, after them, shows none)."""
    return view.trump if view.stage != 4 else None


def hand_height() -> int:
    return MARGIN + 40 + sp.card_height(HAND_CARD) + 34 + LABEL_H + HAND_DIE + 36 + 30 + MARGIN


def hand(
    info: TableInfo,
    view: PlayerView,
    legal: list[Action],
    names: Mapping[str, str] | None,
    *,
    locale: object = "en",
) -> tuple[Image.Image, str]:
    labels = SeatNames(info, names, locale, you=view.player)

    canvas = new_canvas(hand_height())
    y = MARGIN
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.insomnia.hand_title", deal=view.deal), 24)
    pieces.chips(canvas, WIDTH - MARGIN, y, view.chips.get(view.player, 0), 24, anchor="r")
    y += 40
    verbs = {
        "play": t(locale, "picture.insomnia.play_tag"),
        "exchange": t(locale, "picture.insomnia.swap_tag"),
    }
    marked = {a.card: verbs[a.kind] for a in legal if isinstance(a, (Play, Exchange))}
    stage4 = view.stage == 4 and not view.hand and not view.is_over
    won = view.won_cards.get(view.player, []) if stage4 else []
    if view.hand:
        _cards(canvas, view, marked, y, locale)
    elif won:
        title = t(locale, "picture.insomnia.your_won")
        sp.draw_text(canvas, (MARGIN, y), title, sp.SMALL, sp.MUTED)
        pieces.card_row(canvas, won, MARGIN + 4, y + 28, WON_CARD, WIDTH - 2 * MARGIN - 8, lang(locale))
    else:
        sp.draw_text(canvas, (MARGIN, y + 40), t(locale, "picture.no_cards"), 24, sp.MUTED)
    y += sp.card_height(HAND_CARD) + 34
    _dice_line(canvas, view, legal, y, locale)
    y += LABEL_H + HAND_DIE + 36
    hint = _hint(view, legal, labels, locale)
    colour = sp.LEGAL if legal else sp.MUTED
    size = pieces.fitted_size(hint, WIDTH - 2 * MARGIN)
    drawn = pieces.fit_names(
        lambda ns: _hint(view, legal, lambda _p: ns[0], locale),
        _named(view, legal),
        labels,
        size,
        WIDTH - 2 * MARGIN,
    )
    sp.draw_text(canvas, (MARGIN, y), drawn, size, colour)
    words = [
        t(locale, "picture.insomnia.hand_alt", deal=view.deal, cards=cards_words(view.hand, locale)),
        t(locale, "picture.dice_alt", dice=" ".join(format_rank(d, locale) for d in view.dice)),
        t(locale, "picture.insomnia.your_chips_alt", chips=view.chips.get(view.player, 0), pot=view.pot),
    ]
    if won:
        words.append(t(locale, "picture.insomnia.your_won_alt", cards=cards_words(won, locale)))
    trump = shown_trump(view)
    if trump is not None:
        words.append(t(locale, "picture.trumps_alt", suit=tn(locale, f"suit.{trump.value}", 2)))
    if marked:
        cards = cards_words([c for c in view.hand if c in marked], locale)
        words.append(t(locale, "picture.insomnia.marked_alt", verbs=verbs_word(legal, locale), cards=cards))
    words.append(hint + ".")
    return canvas, alt(words)


def _cards(canvas: Image.Image, view: PlayerView, marked: dict[Card, str], y: int, locale: object) -> None:
    step = HAND_CARD + 24
    x = (WIDTH - (len(view.hand) * step - 24)) // 2
    height = sp.card_height(HAND_CARD)
    for c in view.hand:
        if c in marked:
            sp.paste(canvas, sp.ring(HAND_CARD, height, 5, sp.LEGAL), (x - 5, y - 5))
        sp.paste(canvas, sp.card(c, HAND_CARD, lang(locale)), (x, y))
        if c in marked:
            sp.draw_text(canvas, (x + HAND_CARD // 2, y + height + 8), marked[c], 20, sp.LEGAL, anchor="m")
        elif marked:  # his turn, but this card may not be played: dim it
            canvas.paste(sp.FELT, (x, y), sp.faded(HAND_CARD, height))
        x += step


def _dice_line(canvas: Image.Image, view: PlayerView, legal: list[Action], y: int, locale: object) -> None:
    """The dice under their label (the ones he may re-throw marked), the trumps and the pot."""
    dice = {a.die for a in legal if a.kind == "rethrow"}
    sp.draw_text(canvas, (MARGIN, y), t(locale, "picture.dice"), sp.SMALL, sp.MUTED)
    x = pieces.dice_row(canvas, view.dice, MARGIN + 2, y + LABEL_H, HAND_DIE, 12, lang(locale), dice) + 12
    trump = shown_trump(view)
    if trump is not None:
        sp.draw_text(canvas, (x, y), t(locale, "picture.trumps"), sp.SMALL, sp.MUTED)
        sp.paste(canvas, sp.suit_tile(trump, 40), (x, y + LABEL_H + 2))
        x += max(sp.text_size(t(locale, "picture.trumps"), sp.SMALL)[0], 40) + 24
    sp.draw_text(canvas, (x, y), t(locale, "picture.pot"), sp.SMALL, sp.MUTED)
    pieces.chips(canvas, x, y + LABEL_H + 8, view.pot, 24)


def verbs_word(legal: list[Action], locale: object = "en") -> str:
    if any(a.kind == "exchange" for a in legal):
        return t(locale, "picture.insomnia.may_exchange")
    return t(locale, "picture.insomnia.may_play")


def _named(view: PlayerView, legal: list[Action]) -> list[str]:
    """Who the hint names: the player he waits for, if anyone."""
    return [view.current_player] if view.current_player and not legal and not view.is_over else []


def _hint(view: PlayerView, legal: list[Action], label: Callable[[str], str], locale: object) -> str:
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
