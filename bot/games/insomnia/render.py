"""Insomnia as messages: the lobby, the table, the announcements of a deal, a player's hand and his choices.

Public text is built only from `public_view()` and the engine's events, which never carry a hidden card (the
stage-1 winner's shown hand and the stage-4 winner's matching won cards are public by the rules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.cards import Card
from bot.render.common import (
    Button,
    Embed,
    EmbedField,
    LogGroup,
    Message,
    TableInfo,
    custom_id,
    name,
    plural,
    rows_of,
)

COLOUR = 0x2E86C1
PATTERNS = {
    "four_of_a_kind": "four of a kind",
    "sequence": "a sequence",
    "three_of_a_kind": "three of a kind",
    "two_pair": "two pairs",
    "pair": "one pair",
    "high_card": "high card",
}
REASONS = {
    "bid": "winning bid",
    "stage1_payout": "stage 1 payout",
    "stage2_payout": "best hand",
    "pot_split": "the pot",
    "stage4_bid": "stage 4 bid",
    "stage4_payout": "stage 4 payout",
}
OVER = {
    "out_of_chips": "a player ran out of chips",
    "deal_cap": "the last deal was played",
    "ended": "the game was ended early, chips as they are",
}


def _dice(dice: list[Any]) -> str:
    return " ".join(f"[{d.short}]" for d in dice) if dice else "—"


def _cards(cards: list[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def lobby(info: TableInfo, *, locale: str = "en") -> Message:
    chips = info.options.get("chips", 15)
    deals = info.options.get("deals")
    seats = "\n".join(
        f"{i + 1}. {name(p)}{' (host)' if p == str(info.host_id) else ''}" for i, p in enumerate(info.players)
    )
    embed = Embed(
        title=f"Insomnia · table #{info.id} · lobby",
        description=f"Seats ({len(info.players)}/8):\n{seats}",
        fields=[
            EmbedField(name="Chips", value=str(chips)),
            EmbedField(name="Deals", value=str(deals) if deals else "until someone runs out"),
            EmbedField(name="Turn time", value=f"{int(info.timeout)} s"),
        ],
        footer="Join, then the host starts (2 to 8 players).",
        colour=COLOUR,
    )
    if info.status != "lobby":
        embed.description = f"{embed.description}\n\nThis table is {info.status}."
        return Message(embeds=[embed])
    buttons = [
        Button(label="Join", custom_id=custom_id(info.id, "join"), style="success"),
        Button(label="Leave", custom_id=custom_id(info.id, "leave")),
        Button(label="Add computer", custom_id=custom_id(info.id, "addbot")),
        Button(label="Start", custom_id=custom_id(info.id, "start"), style="primary"),
        Button(label="Cancel", custom_id=custom_id(info.id, "cancel"), style="danger"),
    ]
    return Message(
        content=f"🎲 {name(str(info.host_id))} opened an **Insomnia** table.",
        embeds=[embed],
        rows=rows_of(buttons),
    )


def _stage_text(view: Any) -> str:
    if view.is_over:
        return "Game over"
    if view.phase == "exchange":
        return "Stage 1a: exchanges"
    if view.phase == "auction":
        a = view.auction
        high = f"high bid {a.high_bid} by {name(a.high_bidder)}" if a and a.high_bidder else "no bid yet"
        return f"Stage {a.stage if a else view.stage}: auction for re-throws ({high})"
    if view.phase == "rethrow":
        return f"Stage {view.stage}: {name(view.rethrower)} re-throws ({view.rethrows_left} left)"
    if view.phase == "tricks":
        return "Stage 3: tricks for the pot"
    return str(view.phase)


def table(info: TableInfo, game: Any, note: str | None, *, locale: str = "en") -> Message:
    view = game.public_view()
    lines = []
    for p in view.players:
        marks = ("▶️ " if p == view.current_player else "") + ("🃏 " if p == view.dealer else "")
        extra = []
        if view.phase == "tricks" or view.tricks_won.get(p):
            extra.append(plural(view.tricks_won.get(p, 0), "trick"))
        if p in info.computer_seats:
            extra.append("computer plays")
        tail = f" · {', '.join(extra)}" if extra else ""
        lines.append(
            f"{marks}{name(p)}: **{view.chips[p]}** chips, {plural(view.hand_counts.get(p, 0), 'card')}{tail}"
        )
    deals = f"{view.deal}/{view.max_deals}" if view.max_deals else str(view.deal)
    fields = [
        EmbedField(name="Dice", value=_dice(view.dice)),
        EmbedField(name="Pot", value=str(view.pot)),
        EmbedField(name="Stock", value=str(view.stock_count)),
        EmbedField(name="Stage", value=_stage_text(view), inline=False),
    ]
    if view.shown_hand is not None:
        fields.append(
            EmbedField(
                name="Shown hand (stage 1 winner)",
                value=f"{name(view.shown_hand.player)}: {_cards(view.shown_hand.cards)}",
            )
        )
    if view.stage2_winner and view.stage2_description:
        fields.append(
            EmbedField(name="Best hand", value=f"{name(view.stage2_winner)}: {view.stage2_description}")
        )
    if view.trump is not None:
        fields.append(EmbedField(name="Trumps", value=view.trump.symbol))
    title, plays = ("This trick", view.trick) if view.trick else ("Last trick", view.last_trick)
    if plays:
        fields.append(
            EmbedField(
                name=title, value=", ".join(f"{t.card.pretty} {name(t.player)}" for t in plays), inline=False
            )
        )
    if view.eligible and view.stage == 4:
        fields.append(EmbedField(name="Stage 4 eligible", value=" ".join(name(p) for p in view.eligible)))
    description = "\n".join(lines)
    if note:
        description = f"{note}\n{description}"
    embed = Embed(
        title=f"Insomnia · table #{info.id} · deal {deals}",
        description=description,
        fields=fields,
        footer=f"Seed commitment {info.commitment[:16]}…" if not info.seed else f"Seed {info.seed}",
        colour=COLOUR,
    )
    rows = []
    if not view.is_over:
        buttons = [Button(label="My hand", custom_id=custom_id(info.id, "hand"), style="primary")]
        if view.phase in ("exchange", "auction", "rethrow"):
            buttons.append(
                Button(label=_pass_label(view.phase), custom_id=custom_id(info.id, "pass", info.seq))
            )
        rows = rows_of(buttons)
    return Message(embeds=[embed], rows=rows)


def _pass_label(phase: str) -> str:
    return {"exchange": "No exchange", "auction": "Pass", "rethrow": "Stop re-throwing"}.get(phase, "Pass")


# The public log of a deal comes in groups, one log message each (docs/design.md section 3).
GROUP_TITLES = {
    "exchange": "exchanges (stage 1)",
    "auction": "auction (stage 1)",
    "payouts": "re-throws and payouts (stages 1 and 2)",
    "tricks": "tricks (stage 3)",
    "stage4": "second dice round (stage 4)",
}


def _group(deal: int, part: str) -> LogGroup:
    return LogGroup(key=f"deal-{deal}-{part}", title=f"**Deal {deal} · {GROUP_TITLES[part]}**")


def _part_of(event: Any, kind: str | None) -> str | None:
    """Which group of the deal an event opens or belongs to; None: it goes with the line before it."""
    stage = getattr(event, "stage", 1)
    if kind in ("deal_started", "exchanged", "exchange_done"):
        return "exchange"
    if kind == "dice_thrown":
        if stage == 4:
            return "stage4"
        return "exchange" if event.rethrown_die is None else "payouts"
    if kind in ("bid", "passed", "auction_won", "auction_no_winner"):
        return "auction" if stage == 1 else "stage4"
    if kind in ("rethrows_ended", "no_match"):
        return "payouts" if stage == 1 else "stage4"
    if kind in ("stage1_result", "stage2_winner", "stage2_no_winner"):
        return "payouts"
    if kind in ("card_played", "trick_won", "pot_split"):
        return "tricks"
    if kind in ("stage4_eligible", "stage4_result"):
        return "stage4"
    return None  # deal_ended, game_over: the end of what came before


def log_entries(
    info: TableInfo, game: Any, events: Sequence[Any], *, locale: str = "en"
) -> list[LogGroup | str]:
    """The public lines of these events, each group named before its lines."""
    out: list[LogGroup | str] = []
    transfers: dict[str, list[str]] = {}
    # Events before a new deal's `deal_started` belong to the deal before it.
    deal = game.public_view().deal - sum(getattr(e, "kind", None) == "deal_started" for e in events)
    for event in events:
        kind = getattr(event, "kind", None)
        if kind == "chips":
            transfers.setdefault(event.reason, []).append(
                f"{name(event.from_account)} → {name(event.to_account)} {event.amount}"
            )
            continue
        if kind == "deal_started":
            deal = event.deal
        part = _part_of(event, kind)
        line = _event_line(event, kind)
        if line or part:
            # The transfers of one step follow its announcement; a new announcement closes that step.
            out.extend(_flush(transfers))
        if part:
            out.append(_group(deal, part))
        if line:
            out.append(line)
    out.extend(_flush(transfers))
    return out


def state_group(game: Any, *, locale: str = "en") -> LogGroup | None:
    """The group of the decision the game waits for now (None when it is over)."""
    view = game.public_view()
    if view.is_over:
        return None
    if view.phase in ("exchange", "tricks"):
        return _group(view.deal, view.phase)
    if view.stage == 4:
        return _group(view.deal, "stage4")
    return _group(view.deal, "auction" if view.phase == "auction" else "payouts")


def _flush(transfers: dict[str, list[str]]) -> list[str]:
    out = [
        f"💸 {REASONS.get(reason, reason).capitalize()}: {', '.join(moves)}."
        for reason, moves in transfers.items()
    ]
    transfers.clear()
    return out


def _event_line(event: Any, kind: str | None) -> str | None:
    if kind == "deal_started":
        return (
            f"🃏 **Deal {event.deal}**: {name(event.dealer)} deals ({event.stock} cards left in the stock)."
        )
    if kind == "dice_thrown":
        if event.rethrown_die is None:
            return f"🎲 {name(event.player)} throws the dice: {_dice(event.dice)}."
        return (
            f"🎲 {name(event.player)} re-throws die {event.rethrown_die}: {_dice(event.dice)} "
            f"({plural(event.rethrows_left or 0, 're-throw')} left)."
        )
    if kind == "exchanged":
        return f"🔄 {name(event.player)} exchanges a card ({event.count} so far)."
    if kind == "exchange_done" and event.exchanges == 0:
        return f"{name(event.player)} keeps the hand" + (
            " (the stock is empty)." if event.stock_empty else "."
        )
    if kind == "bid":
        return f"🪙 {name(event.player)} bids {event.amount}."
    if kind == "passed":
        return f"{name(event.player)} passes."
    if kind == "auction_won":
        return (
            f"🔨 {name(event.player)} wins the auction with {event.amount} "
            f"({plural(event.rethrows, 're-throw')})."
        )
    if kind == "auction_no_winner":
        return "Nobody bids: no re-throws."
    if kind == "rethrows_ended":
        return f"{name(event.player)} stops re-throwing: the dice are {_dice(event.dice)}."
    if kind == "stage1_result":
        return (
            f"🏆 {name(event.winner)} matches the dice ({PATTERNS.get(event.pattern, event.pattern)}) with "
            f"{_cards(event.hand)}: every other player pays {event.amount}."
        )
    if kind == "no_match":
        return f"Nobody matches the dice {_dice(event.dice)} ({PATTERNS.get(event.pattern, event.pattern)})."
    if kind == "stage2_winner":
        who = name(event.winner)
        return f"🥇 Best hand: {who} with {event.description}; {event.amount} from each other player."
    if kind == "stage2_no_winner":
        return f"Nobody holds a pair or better: {name(event.leader)} leads."
    if kind == "trick_won":
        plays = ", ".join(f"{p.card.pretty} {name(p.player)}" for p in event.plays)
        return f"Trick {event.trick}: {plays} → {name(event.winner)} wins it."
    if kind == "pot_split":
        if not event.winners or event.share == 0:
            return f"💰 The pot of {event.pot} stays on the table."
        who = " and ".join(name(p) for p in event.winners)
        rest = f"; {event.remainder} stays in the pot" if event.remainder else ""
        return f"💰 {who} take{'s' if len(event.winners) == 1 else ''} the pot: {event.share} each{rest}."
    if kind == "stage4_eligible":
        return f"🎲 Second dice round: {' '.join(name(p) for p in event.players)} may bid."
    if kind == "stage4_result":
        return (
            f"🏆 {name(event.winner)} matches the new dice "
            f"({PATTERNS.get(event.pattern, event.pattern)}) with "
            f"won cards {_cards(event.cards)}: every other player pays {event.amount}."
        )
    if kind == "deal_ended":
        chips = ", ".join(f"{name(p)} {c}" for p, c in event.chips.items())
        return f"📊 After deal {event.deal}: {chips}; pot {event.pot}."
    return None


def result_lines(info: TableInfo, game: Any, *, locale: str = "en") -> list[str]:
    view = game.public_view()
    start = info.options.get("chips", 15)
    order = sorted(game.standings(), key=lambda s: (s.placement, s.player))
    table_lines = [
        f"{s.placement}. {name(s.player)}: {s.final_chips} chips ({s.net:+d}){' 🏆' if s.won else ''}"
        for s in order
    ]
    why = OVER.get(view.over_reason or "", view.over_reason or "")
    pot = f" {view.pot} chips stay in the pot." if view.pot else ""
    return [f"🏁 **Game over** ({why}). Everyone started with {start}.{pot}", *table_lines]


def hand(info: TableInfo, game: Any, player: str, *, dm: bool, locale: str = "en") -> Message:
    view = game.view(player)
    lines = [
        f"**Your hand** (Insomnia, table #{info.id}, deal {view.deal}): {_cards(view.hand) or 'empty'}",
        f"Dice: {_dice(view.dice)} · your chips: {view.chips[player]} · pot {view.pot}",
    ]
    if view.trump is not None:
        lines.append(
            f"Trumps: {view.trump.symbol}"
            + (f" · this trick: {', '.join(t.card.pretty for t in view.trick)}" if view.trick else "")
        )
    rows: list[list[Button]] = []
    if view.current_player == player and not view.is_over and player not in info.computer_seats:
        lines.append(f"It is your turn: {turn_hint(game, player)}.")
        if not dm:
            buttons = [
                Button(
                    label=_label(a, view),
                    custom_id=custom_id(info.id, token(a), info.seq),
                    style="secondary" if a.kind == "pass" else "primary",
                )
                for a in game.legal_actions()
            ]
            if len(buttons) > 25:  # many bid amounts: keep the lowest bids and always the pass
                lines.append("More bids than buttons: use /insomnia bid for higher amounts.")
                buttons = buttons[:24] + buttons[-1:]
            rows = rows_of(buttons)
    elif view.current_player:
        lines.append(f"Waiting for {name(view.current_player)}.")
    return Message(content="\n".join(lines), rows=rows)


def _label(action: Any, view: Any) -> str:
    if action.kind == "exchange":
        return f"Exchange {action.card.pretty}"
    if action.kind == "play":
        return f"Play {action.card.pretty}"
    if action.kind == "bid":
        return f"Bid {action.amount}"
    if action.kind == "rethrow":
        return f"Re-throw die {action.die} ({view.dice[action.die - 1].short})"
    return _pass_label(view.phase)


def turn_hint(game: Any, player: str, *, locale: str = "en") -> str:
    view = game.public_view()
    if view.phase == "exchange":
        return "exchange a card (/insomnia exchange) or keep your hand (/insomnia pass)"
    if view.phase == "auction":
        # The lowest bid is the engine's to say (it refuses what it does not list).
        bids = [a.amount for a in game.legal_actions() if a.kind == "bid"]
        if not bids:
            return "pass (/insomnia pass): you have too few chips to outbid the highest bid"
        return f"bid at least {min(bids)} (/insomnia bid) or pass (/insomnia pass)"
    if view.phase == "rethrow":
        return f"re-throw a die (/insomnia rethrow, {view.rethrows_left} left) or stop (/insomnia pass)"
    return "play a card (/insomnia play)"


def token(action: Any) -> str:
    if action.kind == "exchange":
        return f"x-{action.card}"
    if action.kind == "play":
        return f"p-{action.card}"
    if action.kind == "bid":
        return f"b-{action.amount}"
    if action.kind == "rethrow":
        return f"r-{action.die}"
    return str(action.kind)


def parse_token(text: str) -> dict[str, Any] | None:
    if text == "pass":
        return {"kind": "pass"}
    head, _, rest = text.partition("-")
    kinds = {"x": "exchange", "p": "play", "b": "bid", "r": "rethrow"}
    if head not in kinds or not rest:
        return None
    field = {"exchange": "card", "play": "card", "bid": "amount", "rethrow": "die"}[kinds[head]]
    return {"kind": kinds[head], field: int(rest) if field in ("amount", "die") and rest.isdigit() else rest}


def choices(
    game: Any, player: str, command: str, option: str, namespace: Mapping[str, Any], *, locale: str = "en"
) -> list[tuple[str, str]]:
    wanted = {
        ("exchange", "card"): "exchange",
        ("play", "card"): "play",
        ("bid", "amount"): "bid",
        ("rethrow", "die"): "rethrow",
    }.get((command, option))
    if wanted is None:
        return []
    view = game.public_view()
    out: list[tuple[str, str]] = []
    for a in game.legal_actions():
        if a.kind != wanted:
            continue
        if wanted in ("exchange", "play"):
            out.append((a.card.pretty, str(a.card)))
        elif wanted == "bid":
            out.append((plural(a.amount, "chip"), str(a.amount)))
        else:
            out.append((f"die {a.die} (showing {view.dice[a.die - 1].short})", str(a.die)))
    return out


def action_text(action: Mapping[str, Any], *, hide: bool, locale: str = "en") -> str:
    kind = action.get("kind")
    if kind == "exchange":
        return "exchanges a card" if hide else f"exchanges {Card.parse(action['card']).pretty}"
    if kind == "play":
        return f"plays {Card.parse(action['card']).pretty}"
    if kind == "bid":
        return f"bids {action['amount']}"
    if kind == "rethrow":
        return f"re-throws die {action['die']}"
    if kind == "pass":
        return "passes"
    if kind == "end_game":
        return "ends the game (cancel)"
    return str(kind)


def timeout_text(*, locale: str = "en") -> str:
    return "the safe default was played for them"


def cancel_text(*, locale: str = "en") -> str:
    return "chips stay as they are"
