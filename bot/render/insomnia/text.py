"""Insomnia as messages: the lobby, the table, the announcements of a deal, a player's hand and his choices.

Public text is built only from `public_view()` and the engine's events, which never carry a hidden card (the
stage-1 winner's shown hand and the stage-4 winner's matching won cards are public by the rules). The log is
worded from the public view after the step and its events alone (no game object), so a stored step reads the
same when it is worded again. Every word comes from the catalogue (`insomnia.*`) in the reader's `locale`;
cards and dice faces in his notation. Typed by the engine's own classes: a new event fails the type check in
`_event_line` until it is shown (a `bot.render.protocol.Renderer`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import assert_never

from bot.games.base import ChipTransfer
from bot.games.cards import Card, Rank
from bot.games.insomnia.game import InsomniaGame
from bot.games.insomnia.models import (
    Action,
    AuctionNoWinner,
    AuctionWon,
    Bid,
    BidMade,
    CardPlayed,
    DealEnded,
    DealStarted,
    DiceThrown,
    EndGame,
    Event,
    Exchange,
    Exchanged,
    ExchangeDone,
    GameOver,
    InsomniaOptions,
    NoMatch,
    Pass,
    Passed,
    Play,
    PlayersOut,
    PlayerView,
    PotSplit,
    PublicView,
    Rethrow,
    RethrowsEnded,
    Stage1Result,
    Stage2NoWinner,
    Stage2Winner,
    Stage4Eligible,
    Stage4Result,
    TrickPlay,
    TrickWon,
)
from bot.i18n import join, number, signed, t, tn
from bot.i18n.cards import format_card, format_cards, format_rank
from bot.render.common import (
    Button,
    Embed,
    EmbedField,
    LogGroup,
    Message,
    TableInfo,
    click,
    name,
    rows_of,
)
from bot.render.insomnia.rules import RULES
from bot.render.options import chosen_house_rules

COLOUR = 0x2E86C1
# The engine's reasons and patterns, each the last part of its catalogue key.
PATTERNS = ("four_of_a_kind", "sequence", "three_of_a_kind", "two_pair", "pair", "high_card")
REASONS = ("bid", "stage1_payout", "stage2_payout", "pot_split", "stage4_bid", "stage4_payout")
OVER = ("out_of_chips", "deal_cap", "ended")


def _pattern(pattern: str, locale: object) -> str:
    return t(locale, f"insomnia.pattern.{pattern}") if pattern in PATTERNS else pattern


def _dice(dice: Sequence[Rank], locale: object) -> str:
    return " ".join(f"[{format_rank(d, locale)}]" for d in dice) if dice else "—"


def _cards(cards: list[Card], locale: object) -> str:
    return format_cards(cards, locale)


# The engine describes the stage-2 hand in English ("two pairs, kings and nines", bot.games.insomnia.hands);
# its category and deciding ranks are read back from that text, so a German table names them in German.
_RANK_WORDS = {w: r for r in Rank if r.value >= 7 for w in (r.plural, tn("en", f"rank.{r.value}", 1))}
_DESCRIPTIONS = [
    ("four_of_a_kind", re.compile(r"four of a kind, (\w+)"), ("ranks",)),
    ("straight_flush", re.compile(r"straight flush, (\w+) high"), ("rank",)),
    ("three_of_a_kind", re.compile(r"three of a kind, (\w+)"), ("ranks",)),
    ("straight", re.compile(r"straight, (\w+) high"), ("rank",)),
    ("flush", re.compile(r"flush, (\w+) high"), ("rank",)),
    ("two_pair", re.compile(r"two pairs, (\w+) and (\w+)"), ("high", "low")),
    ("pair", re.compile(r"a pair of (\w+)"), ("ranks",)),
]


def hand_description(description: str, locale: object) -> str:
    """The engine's English description of a stage-2 hand, in the reader's language."""
    if description == "no pair":
        return t(locale, "hand.none")
    for category, pattern, fields in _DESCRIPTIONS:
        match = pattern.fullmatch(description)
        if match and all(w in _RANK_WORDS for w in match.groups()):
            params = {
                field: tn(locale, f"rank.{_RANK_WORDS[word].value}", 1 if field == "rank" else 2)
                for field, word in zip(fields, match.groups(), strict=True)
            }
            return t(locale, f"hand.{category}", **params)
    return description  # a wording this reader does not know: shown as the engine wrote it


def lobby(info: TableInfo, *, locale: object = "en") -> Message:
    chips = info.options.get("chips", 15)
    deals = info.options.get("deals")
    seats = "\n".join(
        f"{i + 1}. "
        + (
            t(locale, "lobby.host_mark", player=name(p, locale))
            if p == str(info.host_id)
            else name(p, locale)
        )
        for i, p in enumerate(info.players)
    )
    embed = Embed(
        title=t(locale, "insomnia.lobby.title", table=info.id),
        description=t(locale, "insomnia.lobby.seats", count=len(info.players)) + "\n" + seats,
        fields=[
            EmbedField(name=t(locale, "insomnia.field.chips"), value=number(locale, chips)),
            EmbedField(
                name=t(locale, "insomnia.field.deals"),
                value=str(deals) if deals else t(locale, "insomnia.lobby.deals_unlimited"),
            ),
            EmbedField(
                name=t(locale, "insomnia.field.turn_time"),
                value=t(locale, "common.seconds", seconds=int(info.timeout)),
            ),
        ],
        footer=t(locale, "insomnia.lobby.footer"),
        colour=COLOUR,
    )
    chosen = chosen_house_rules(InsomniaOptions, RULES, info.options, locale)
    if chosen:  # only what differs from the standard rules
        embed.fields.append(
            EmbedField(name=t(locale, "options.house_rules_title"), value="\n".join(chosen), inline=False)
        )
    if info.status != "lobby":
        status = t(locale, f"status.{info.status}")
        embed.description = f"{embed.description}\n\n" + t(locale, "lobby.status", status=status)
        return Message(embeds=[embed])
    buttons = [
        Button(label=t(locale, "lobby.button.join"), table=info.id, action=click("join"), style="success"),
        Button(label=t(locale, "lobby.button.leave"), table=info.id, action=click("leave")),
        Button(label=t(locale, "lobby.button.addbot"), table=info.id, action=click("addbot")),
        Button(label=t(locale, "lobby.button.start"), table=info.id, action=click("start"), style="primary"),
        Button(label=t(locale, "lobby.button.cancel"), table=info.id, action=click("cancel"), style="danger"),
    ]
    return Message(
        content=t(locale, "insomnia.lobby.opened", host=name(str(info.host_id), locale)),
        embeds=[embed],
        rows=rows_of(buttons),
    )


def _stage_text(view: PublicView, locale: object) -> str:
    if view.is_over:
        return t(locale, "insomnia.stage.over")
    if view.phase == "exchange":
        return t(locale, "insomnia.stage.exchange")
    if view.phase == "auction":
        a = view.auction
        if a and a.high_bidder:
            high = t(
                locale,
                "insomnia.stage.high_bid",
                amount=number(locale, a.high_bid),
                player=name(a.high_bidder, locale),
            )
        else:
            high = t(locale, "insomnia.stage.no_bid")
        return t(locale, "insomnia.stage.auction", stage=a.stage if a else view.stage, high=high)
    if view.phase == "rethrow":
        return t(
            locale,
            "insomnia.stage.rethrow",
            stage=view.stage,
            player=name(view.rethrower or "", locale),
            left=view.rethrows_left,
        )
    if view.phase == "tricks":
        return t(locale, "insomnia.stage.tricks")
    return str(view.phase)


def _plays(plays: Sequence[TrickPlay], locale: object) -> str:
    return ", ".join(f"{format_card(p.card, locale)} {name(p.player, locale)}" for p in plays)


def table(info: TableInfo, game: InsomniaGame, note: str | None, *, locale: object = "en") -> Message:
    view = game.public_view()
    lines = []
    for p in view.players:
        marks = ("▶️ " if p == view.current_player else "") + ("🃏 " if p == view.dealer else "")
        extra = []
        if view.phase == "tricks" or view.tricks_won.get(p):
            extra.append(tn(locale, "count.trick", view.tricks_won.get(p, 0)))
        if p in info.computer_seats:
            extra.append(t(locale, "insomnia.table.computer_plays"))
        if p in view.out:  # house rule bust=out
            extra.append(t(locale, "insomnia.table.out"))
        lines.append(
            t(
                locale,
                "insomnia.table.player",
                marks=marks,
                player=name(p, locale),
                chips=tn(locale, "count.chip_bold", view.chips[p]),
                cards=tn(locale, "count.card", view.hand_counts.get(p, 0)),
                tail=f" · {', '.join(extra)}" if extra else "",
            )
        )
    deals = f"{view.deal}/{view.max_deals}" if view.max_deals else str(view.deal)
    fields = [
        EmbedField(name=t(locale, "insomnia.field.dice"), value=_dice(view.dice, locale)),
        EmbedField(name=t(locale, "insomnia.field.pot"), value=number(locale, view.pot)),
        EmbedField(name=t(locale, "insomnia.field.stock"), value=str(view.stock_count)),
        EmbedField(name=t(locale, "insomnia.field.stage"), value=_stage_text(view, locale), inline=False),
    ]
    if view.shown_hand is not None:
        fields.append(
            EmbedField(
                name=t(locale, "insomnia.field.shown_hand"),
                value=f"{name(view.shown_hand.player, locale)}: {_cards(view.shown_hand.cards, locale)}",
            )
        )
    if view.stage2_winner and view.stage2_description:
        described = hand_description(view.stage2_description, locale)
        fields.append(
            EmbedField(
                name=t(locale, "insomnia.field.best_hand"),
                value=f"{name(view.stage2_winner, locale)}: {described}",
            )
        )
    if view.trump is not None and view.stage != 4:  # they count in the tricks only (as the picture shows)
        fields.append(EmbedField(name=t(locale, "insomnia.field.trumps"), value=view.trump.symbol))
    title, plays = ("this_trick", view.trick) if view.trick else ("last_trick", view.last_trick)
    if plays:
        fields.append(
            EmbedField(name=t(locale, f"insomnia.field.{title}"), value=_plays(plays, locale), inline=False)
        )
    if view.eligible and view.stage == 4:
        # Stage 4 is decided by the cards each eligible player won (rule 28): they are public, so shown.
        won = [f"{name(p, locale)}: {_cards(view.won_cards.get(p, []), locale)}" for p in view.eligible]
        fields.append(
            EmbedField(name=t(locale, "insomnia.field.stage4_eligible"), value="\n".join(won), inline=False)
        )
    description = "\n".join(lines)
    if note:
        description = f"{note}\n{description}"
    embed = Embed(
        title=t(locale, "insomnia.table.title", table=info.id, deal=deals),
        description=description,
        fields=fields,
        footer=(
            t(locale, "common.footer.commitment", commitment=info.commitment[:16])
            if not info.seed
            else t(locale, "common.footer.seed", seed=info.seed)
        ),
        colour=COLOUR,
    )
    rows = []
    if not view.is_over:
        buttons = [
            Button(
                label=t(locale, "common.button.my_hand"),
                table=info.id,
                action=click("hand"),
                style="primary",
            )
        ]
        if view.phase in ("exchange", "auction", "rethrow"):
            buttons.append(
                Button(label=_pass_label(view.phase, locale), table=info.id, action=click("pass", info.seq))
            )
        rows = rows_of(buttons)
    return Message(embeds=[embed], rows=rows)


def _pass_label(phase: str, locale: object) -> str:
    key = {"exchange": "no_exchange", "rethrow": "stop_rethrow"}.get(phase, "pass")
    return t(locale, f"insomnia.button.{key}")


# The public log of a deal comes in groups, one log message each (docs/design.md section 3); each part's
# title is the catalogue's `insomnia.group.<part>`.
GROUP_PARTS = ("exchange", "auction", "payouts", "tricks", "stage4")


def _group(deal: int, part: str, locale: object) -> LogGroup:
    title = t(locale, "insomnia.group.title", deal=deal, part=t(locale, f"insomnia.group.{part}"))
    return LogGroup(key=f"deal-{deal}-{part}", title=title)


def _part_of(event: Event) -> str | None:
    """Which group of the deal an event opens or belongs to; None: it goes with the line before it."""
    match event:
        case DealStarted() | Exchanged() | ExchangeDone():
            return "exchange"
        case DiceThrown(stage=4):
            return "stage4"
        case DiceThrown(rethrown_die=None):
            return "exchange"
        case DiceThrown():
            return "payouts"
        case BidMade() | Passed() | AuctionWon() | AuctionNoWinner():
            return "auction" if event.stage == 1 else "stage4"
        case RethrowsEnded() | NoMatch():
            return "payouts" if event.stage == 1 else "stage4"
        case Stage1Result() | Stage2Winner() | Stage2NoWinner():
            return "payouts"
        case CardPlayed() | TrickWon() | PotSplit():
            return "tricks"
        case Stage4Eligible() | Stage4Result():
            return "stage4"
        case ChipTransfer() | PlayersOut() | DealEnded() | GameOver():
            return None  # the end of what came before
        case _:
            assert_never(event)


def log_entries(
    info: TableInfo, view: PublicView, events: Sequence[Event], *, locale: object = "en"
) -> list[LogGroup | str]:
    """The public lines of these events, each group named before its lines (`view`: after them)."""
    out: list[LogGroup | str] = []
    transfers: dict[str, list[str]] = {}
    # Events before a new deal's `deal_started` belong to the deal before it.
    deal = view.deal - sum(isinstance(e, DealStarted) for e in events)
    for event in events:
        if isinstance(event, ChipTransfer):
            payer, payee = name(event.from_account, locale), name(event.to_account, locale)
            transfers.setdefault(event.reason, []).append(f"{payer} → {payee} {number(locale, event.amount)}")
            continue
        if isinstance(event, DealStarted):
            deal = event.deal
        part = _part_of(event)
        line = _event_line(event, locale)
        if line or part:
            # The transfers of one step follow its announcement; a new announcement closes that step.
            out.extend(_flush(transfers, locale))
        if part:
            out.append(_group(deal, part, locale))
        if line:
            out.append(line)
    out.extend(_flush(transfers, locale))
    return out


def state_group(view: PublicView, *, locale: object = "en") -> LogGroup | None:
    """The group of the decision the game waits for now (None when it is over)."""
    if view.is_over:
        return None
    if view.phase in ("exchange", "tricks"):
        return _group(view.deal, view.phase, locale)
    if view.stage == 4:
        return _group(view.deal, "stage4", locale)
    return _group(view.deal, "auction" if view.phase == "auction" else "payouts", locale)


def _flush(transfers: dict[str, list[str]], locale: object) -> list[str]:
    out = []
    for reason, moves in transfers.items():
        joined = ", ".join(moves)
        if reason in REASONS:
            out.append(t(locale, f"insomnia.transfer.{reason}", moves=joined))
        else:
            out.append(f"💸 {reason}: {joined}.")
    transfers.clear()
    return out


def _event_line(event: Event, locale: object) -> str | None:
    def who(player: str) -> str:
        return name(player, locale)

    match event:
        case DealStarted():
            return tn(
                locale, "insomnia.log.deal_started", event.stock, deal=event.deal, dealer=who(event.dealer)
            )
        case DiceThrown(rethrown_die=None):
            return t(locale, "insomnia.log.throw", player=who(event.player), dice=_dice(event.dice, locale))
        case DiceThrown():
            return t(
                locale,
                "insomnia.log.rethrow",
                player=who(event.player),
                die=event.rethrown_die,
                dice=_dice(event.dice, locale),
                left=tn(locale, "count.rethrow", event.rethrows_left or 0),
            )
        case Exchanged():
            return t(locale, "insomnia.log.exchanged", player=who(event.player), count=event.count)
        case ExchangeDone(exchanges=0, stock_empty=True):
            return t(locale, "insomnia.log.keeps_empty", player=who(event.player))
        case ExchangeDone(exchanges=0):
            return t(locale, "insomnia.log.keeps", player=who(event.player))
        case ExchangeDone():
            return None  # his exchanges were announced one by one
        case BidMade():
            return t(
                locale, "insomnia.log.bid", player=who(event.player), amount=number(locale, event.amount)
            )
        case Passed():
            return t(locale, "insomnia.log.passed", player=who(event.player))
        case AuctionWon():
            return t(
                locale,
                "insomnia.log.auction_won",
                player=who(event.player),
                amount=number(locale, event.amount),
                rethrows=tn(locale, "count.rethrow", event.rethrows),
            )
        case AuctionNoWinner():
            return t(locale, "insomnia.log.no_bids")
        case RethrowsEnded():
            dice = _dice(event.dice, locale)
            return t(locale, "insomnia.log.rethrows_ended", player=who(event.player), dice=dice)
        case Stage1Result():
            return t(
                locale,
                "insomnia.log.stage1_result",
                player=who(event.winner),
                pattern=_pattern(event.pattern, locale),
                cards=_cards(event.hand, locale),
                amount=number(locale, event.amount),
            )
        case NoMatch():
            return t(
                locale,
                "insomnia.log.no_match",
                dice=_dice(event.dice, locale),
                pattern=_pattern(event.pattern, locale),
            )
        case Stage2Winner():
            return t(
                locale,
                "insomnia.log.stage2_winner",
                player=who(event.winner),
                description=hand_description(event.description, locale),
                amount=number(locale, event.amount),
            )
        case Stage2NoWinner():
            return t(locale, "insomnia.log.stage2_none", player=who(event.leader))
        case CardPlayed():
            return None  # the whole trick is told when it is won
        case TrickWon():
            return t(
                locale,
                "insomnia.log.trick",
                trick=event.trick,
                plays=_plays(event.plays, locale),
                player=who(event.winner),
            )
        case PotSplit():
            return _pot_split(event, locale)
        case Stage4Eligible():
            players = join(locale, [who(p) for p in event.players])
            return tn(locale, "insomnia.log.stage4_eligible", len(event.players), players=players)
        case Stage4Result():
            return t(
                locale,
                "insomnia.log.stage4_result",
                player=who(event.winner),
                pattern=_pattern(event.pattern, locale),
                cards=_cards(event.cards, locale),
                amount=number(locale, event.amount),
            )
        case PlayersOut():
            players = join(locale, [who(p) for p in event.players])
            return tn(locale, "insomnia.log.players_out", len(event.players), players=players)
        case DealEnded():
            chips = ", ".join(f"{who(p)} {number(locale, c)}" for p, c in event.chips.items())
            return t(
                locale, "insomnia.log.deal_ended", deal=event.deal, chips=chips, pot=number(locale, event.pot)
            )
        case ChipTransfer() | GameOver():
            return None  # transfers are summed per reason; the result has lines of its own
        case _:
            assert_never(event)


def _pot_split(event: PotSplit, locale: object) -> str:
    if not event.winners or event.share == 0:
        return t(locale, "insomnia.log.pot_stays", pot=number(locale, event.pot))
    rest = (
        t(locale, "insomnia.log.pot_remainder", remainder=number(locale, event.remainder))
        if event.remainder
        else ""
    )
    players = join(locale, [name(p, locale) for p in event.winners])
    return tn(
        locale,
        "insomnia.log.pot_taken",
        len(event.winners),
        players=players,
        share=number(locale, event.share),
        rest=rest,
    )


def result_lines(info: TableInfo, view: PublicView, *, locale: object = "en") -> list[str]:
    """The final standings, from the public view of the finished game."""
    start = info.options.get("chips", 15)
    order = sorted(view.standings, key=lambda s: (s.placement, s.player))
    table_lines = [
        tn(
            locale,
            "insomnia.log.standing",
            s.final_chips or 0,
            place=s.placement,
            player=name(s.player, locale),
            net=signed(locale, s.net),
            trophy=" 🏆" if s.won else "",
        )
        for s in order
    ]
    reason = view.over_reason or ""
    why = t(locale, f"insomnia.over.{reason}") if reason in OVER else reason
    pot = tn(locale, "insomnia.log.pot_left", view.pot) if view.pot else ""
    return [t(locale, "insomnia.log.game_over", why=why, start=number(locale, start), pot=pot), *table_lines]


def hand(info: TableInfo, game: InsomniaGame, player: str, *, dm: bool, locale: object = "en") -> Message:
    view = game.view(player)
    cards = _cards(view.hand, locale) or t(locale, "common.empty")
    lines = [
        t(locale, "insomnia.hand.title", table=info.id, deal=view.deal, cards=cards),
        t(
            locale,
            "insomnia.hand.status",
            dice=_dice(view.dice, locale),
            chips=number(locale, view.chips[player]),
            pot=number(locale, view.pot),
        ),
    ]
    if view.stage == 4 and not view.hand and view.won_cards.get(player):
        # His hand is empty by now; the cards he won decide stage 4 (rule 28).
        lines.append(t(locale, "insomnia.hand.won_cards", cards=_cards(view.won_cards[player], locale)))
    if view.trump is not None:
        if view.trick:
            lines.append(
                t(
                    locale,
                    "insomnia.hand.trumps_trick",
                    trump=view.trump.symbol,
                    cards=_plays(view.trick, locale),
                )
            )
        else:
            lines.append(t(locale, "insomnia.hand.trumps", trump=view.trump.symbol))
    rows: list[list[Button]] = []
    if view.current_player == player and not view.is_over and player not in info.computer_seats:
        lines.append(t(locale, "common.your_turn_hint", hint=turn_hint(game, player, locale=locale)))
        if not dm:
            buttons = [
                Button(
                    label=_label(a, view, locale),
                    table=info.id,
                    action=click(token(a), info.seq),
                    style="secondary" if a.kind == "pass" else "primary",
                )
                for a in game.legal_actions()
            ]
            if len(buttons) > 25:  # many bid amounts: keep the lowest bids and always the pass
                lines.append(t(locale, "insomnia.hand.more_bids"))
                buttons = buttons[:24] + buttons[-1:]
            rows = rows_of(buttons)
    elif view.current_player:
        lines.append(t(locale, "common.waiting_for", player=name(view.current_player, locale)))
    return Message(content="\n".join(lines), rows=rows)


def _label(action: Action, view: PlayerView, locale: object) -> str:
    match action:
        case Exchange():
            return t(locale, "insomnia.button.exchange", card=format_card(action.card, locale))
        case Play():
            return t(locale, "insomnia.button.play", card=format_card(action.card, locale))
        case Bid():
            return t(locale, "insomnia.button.bid", amount=number(locale, action.amount))
        case Rethrow():
            face = format_rank(view.dice[action.die - 1], locale)
            return t(locale, "insomnia.button.rethrow", die=action.die, face=face)
        case Pass() | EndGame():  # the end of the game is never a legal action: no button of its own
            return _pass_label(view.phase, locale)
        case _:
            assert_never(action)


def turn_hint(game: InsomniaGame, player: str, *, locale: object = "en") -> str:
    view = game.public_view()
    if view.phase == "exchange":
        return t(locale, "insomnia.hint.exchange")
    if view.phase == "auction":
        # The lowest bid is the engine's to say (it refuses what it does not list).
        bids = [a.amount for a in game.legal_actions() if isinstance(a, Bid)]
        if not bids:
            return t(locale, "insomnia.hint.cannot_outbid")
        return t(locale, "insomnia.hint.bid", least=min(bids))
    if view.phase == "rethrow":
        return t(locale, "insomnia.hint.rethrow", left=view.rethrows_left)
    return t(locale, "insomnia.hint.play")


def token(action: Action) -> str:
    match action:
        case Exchange():
            return f"x-{action.card}"
        case Play():
            return f"p-{action.card}"
        case Bid():
            return f"b-{action.amount}"
        case Rethrow():
            return f"r-{action.die}"
        case Pass() | EndGame():
            return action.kind
        case _:
            assert_never(action)


def parse_token(text: str) -> dict[str, object] | None:
    if text == "pass":
        return {"kind": "pass"}
    head, _, rest = text.partition("-")
    kinds = {"x": "exchange", "p": "play", "b": "bid", "r": "rethrow"}
    if head not in kinds or not rest:
        return None
    field = {"exchange": "card", "play": "card", "bid": "amount", "rethrow": "die"}[kinds[head]]
    return {"kind": kinds[head], field: int(rest) if field in ("amount", "die") and rest.isdigit() else rest}


# The legal actions an option's autocomplete offers, by (command, option).
_OFFERED: dict[tuple[str, str], type[Exchange | Play | Bid | Rethrow]] = {
    ("exchange", "card"): Exchange,
    ("play", "card"): Play,
    ("bid", "amount"): Bid,
    ("rethrow", "die"): Rethrow,
}


def choices(
    game: InsomniaGame,
    player: str,
    command: str,
    option: str,
    namespace: Mapping[str, object],
    *,
    locale: object = "en",
) -> list[tuple[str, str]]:
    """The legal choices for an option: labels in the player's language and notation, values the engine's."""
    wanted = _OFFERED.get((command, option))
    if wanted is None:
        return []
    view = game.public_view()
    out: list[tuple[str, str]] = []
    for a in game.legal_actions():
        if not isinstance(a, wanted):
            continue
        if isinstance(a, Exchange | Play):
            out.append((format_card(a.card, locale), str(a.card)))
        elif isinstance(a, Bid):
            out.append((tn(locale, "count.chip", a.amount), str(a.amount)))
        elif isinstance(a, Rethrow):
            face = format_rank(view.dice[a.die - 1], locale)
            out.append((t(locale, "insomnia.choice.die", die=a.die, face=face), str(a.die)))
    return out


def action_text(action: Action, *, hide: bool, locale: object = "en") -> str:
    match action:
        case Exchange():
            if hide:
                return t(locale, "insomnia.action.exchange_hidden")
            return t(locale, "insomnia.action.exchange", card=format_card(action.card, locale))
        case Play():
            return t(locale, "insomnia.action.play", card=format_card(action.card, locale))
        case Bid():
            return t(locale, "insomnia.action.bid", amount=number(locale, action.amount))
        case Rethrow():
            return t(locale, "insomnia.action.rethrow", die=action.die)
        case Pass():
            return t(locale, "insomnia.action.pass")
        case EndGame():
            return t(locale, "common.action.end_game")
        case _:
            assert_never(action)
