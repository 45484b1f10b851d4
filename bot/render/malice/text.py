"""Malice as messages: the table, move announcements, a player's hand and his legal moves.

Public text is built only from `public_view()` and the public events; a hand appears only in a player's own
hand message (ephemeral or DM). The log is worded from the public view after the step and its events alone.
Every word comes from the catalogue (`malice.*`) in the reader's `locale`, cards in his notation. Typed by the
engine's own classes: a new event fails the type check in `_event_line` until it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import assert_never

from bot.games.base import ChipTransfer
from bot.games.cards import Card, Rank
from bot.games.malice.game import MaliceGame
from bot.games.malice.models import (
    Action,
    CardPlayed,
    EndGame,
    EndTurn,
    Event,
    GameOver,
    HandRefilled,
    MaliceOptions,
    MalicePublicView,
    MaliceResult,
    MaliceView,
    PayoffTurned,
    Play,
    Resign,
    StackCompleted,
    TurnEnded,
    TurnStarted,
)
from bot.i18n import t, tn
from bot.i18n.cards import format_card, format_rank
from bot.render.common import (
    Button,
    Embed,
    EmbedField,
    LogGroup,
    Message,
    TableInfo,
    click,
    is_computer,
    name,
    rows_of,
)
from bot.render.malice.rules import RULES
from bot.render.options import house_rules_text

COLOUR = 0x8E44AD
REASONS = ("payoff_emptied", "stalemate", "turn_cap", "resign", "cancelled")


def place(token: str, locale: object, *, capital: bool = False) -> str:
    """`side2` -> "side stack 2" / "Seitenstapel 2"; `hand`, `payoff`, `centre1`.."""
    if token.startswith(("side", "centre")) and token[-1].isdigit():
        kind = "side" if token.startswith("side") else ("centre_capital" if capital else "centre")
        return t(locale, f"malice.place.{kind}", number=token[-1])
    if token in ("hand", "payoff"):
        return t(locale, f"malice.place.{token}")
    return token


def _short(token: str, locale: object) -> str:
    kind = "side" if token.startswith("side") else "centre"
    return t(locale, f"malice.short.{kind}", number=token[-1])


def _stack(stack: list[Card], locale: object) -> str:
    return f"{format_card(stack[-1], locale)} ({len(stack)})" if stack else "—"


def _rank(rank: Rank | str, locale: object) -> str:
    return format_rank(rank if isinstance(rank, Rank) else Rank.parse(str(rank)), locale)


def lobby(info: TableInfo, *, locale: object = "en") -> Message:
    host, opponent = info.players[0], info.players[1]
    stake = info.options.get("stake", 1)
    text = t(
        locale,
        "malice.lobby.text",
        host=name(host, locale),
        opponent=name(opponent, locale),
        table=info.id,
        stake=tn(locale, "count.chip", stake),
        seconds=int(info.timeout),
    )
    chosen = house_rules_text(MaliceOptions, RULES, info.options, locale)
    if chosen is not None:  # only what differs from the standard rules
        text += "\n" + chosen
    if info.status == "lobby":
        buttons = [
            Button(
                label=t(locale, "lobby.button.accept"),
                table=info.id,
                action=click("accept"),
                style="success",
            ),
            Button(
                label=t(locale, "lobby.button.decline"),
                table=info.id,
                action=click("decline"),
                style="danger",
            ),
        ]
        return Message(
            content=text + "\n" + t(locale, "malice.lobby.answer", opponent=name(opponent, locale)),
            rows=rows_of(buttons),
            mentions=[] if is_computer(opponent) else [int(opponent)],
        )
    return Message(content=text)


def table(info: TableInfo, game: MaliceGame, note: str | None, *, locale: object = "en") -> Message:
    view = game.public_view()
    lines = []
    for p in view.players:
        top = view.payoff_top.get(p)
        lines.append(
            t(
                locale,
                "malice.table.player",
                marker="▶️ " if p == view.current_player else "",
                player=name(p, locale),
                payoff=view.payoff_counts[p],
                top=format_card(top, locale) if top else "—",
                hand=view.hand_counts[p],
            )
        )
    centre = "  ".join(
        f"**{i + 1}**: {_stack(stack, locale)} → {_rank(view.centre_needs[i], locale)}"
        if stack
        else t(locale, "malice.table.free_slot", number=i + 1)
        for i, stack in enumerate(view.centre)
    )
    fields = [EmbedField(name=t(locale, "malice.field.centre"), value=centre, inline=False)]
    sides = [
        f"{name(p, locale)}: "
        + "  ".join(f"**{i + 1}**: {_stack(s, locale)}" for i, s in enumerate(view.side[p]))
        for p in view.players
    ]
    fields.append(
        EmbedField(name=t(locale, "malice.field.side_stacks"), value="\n".join(sides), inline=False)
    )
    footer = t(
        locale,
        "malice.table.footer",
        turn=view.turn,
        max_turns=view.max_turns,
        stock=view.stock_count,
        stake=view.stake,
    )
    description = "\n".join(lines)
    if view.is_over and view.result is not None:
        description += "\n" + t(
            locale, "malice.table.game_over", result=_result_sentence(view.result, locale)
        )
    if note:
        description = f"{note}\n{description}"
    embed = Embed(
        title=t(locale, "malice.table.title", table=info.id),
        description=description,
        fields=fields,
        footer=footer,
        colour=COLOUR,
    )
    rows = []
    if not view.is_over:
        rows = rows_of(
            [
                Button(
                    label=t(locale, "common.button.my_hand"),
                    table=info.id,
                    action=click("hand"),
                    style="primary",
                ),
                Button(
                    label=t(locale, "malice.button.end_turn"), table=info.id, action=click("end", info.seq)
                ),
            ]
        )
    return Message(embeds=[embed], rows=rows)


def _result_sentence(result: MaliceResult, locale: object) -> str:
    why = t(locale, f"malice.reason.{result.reason}") if result.reason in REASONS else result.reason
    if result.winner is None:
        return t(locale, "malice.result.draw", why=why)
    return t(
        locale,
        "malice.result.win",
        player=name(result.winner, locale),
        why=why,
        cards=tn(locale, "count.card", result.score),
        chips=tn(locale, "count.chip", result.chips),
    )


def _card_as(card: Card, as_rank: Rank | None, locale: object) -> str:
    shown = format_card(card, locale)
    return shown if as_rank is None else t(locale, "malice.card_as", card=shown, rank=_rank(as_rank, locale))


def _source_key(source: str) -> tuple[str, dict[str, object]]:
    """The catalogue key part of a source pile and its params: `hand`, `payoff`, or `side` with its number."""
    if source.startswith("side"):
        return "side", {"number": source[-1]}
    return source, {}


def _event_line(event: Event, locale: object) -> str | None:
    match event:
        case CardPlayed():
            source, extra = _source_key(event.source)
            return t(
                locale,
                f"malice.log.play.{source}",
                player=name(event.player, locale),
                card=_card_as(event.card, event.as_rank, locale),
                target=place(event.to, locale),
                **extra,
            )
        case PayoffTurned():
            return t(
                locale,
                "malice.log.payoff_turned",
                player=name(event.player, locale),
                card=format_card(event.card, locale),
                remaining=event.remaining,
            )
        case StackCompleted():
            return t(
                locale,
                "malice.log.stack_completed",
                place=place(event.slot, locale, capital=True),
                stock=event.stock_count,
            )
        case HandRefilled():
            return t(locale, "malice.log.refilled", player=name(event.player, locale), drawn=event.drawn)
        case TurnEnded(side_play=True):
            return None  # the side play said it
        case TurnEnded(moved=True):
            return t(locale, "malice.log.turn_ended", player=name(event.player, locale), turn=event.turn)
        case TurnEnded():
            return t(locale, "malice.log.turn_ended_idle", player=name(event.player, locale), turn=event.turn)
        case ChipTransfer():
            return tn(
                locale,
                "malice.log.pays",
                event.amount,
                payer=name(event.from_account, locale),
                payee=name(event.to_account, locale),
            )
        case TurnStarted() | GameOver():
            return None  # a turn heads its group; the result has lines of its own
        case _:
            assert_never(event)


def _turn_group(turn: int, player: str | None, locale: object) -> LogGroup:
    if player:
        title = t(locale, "malice.group.turn_of", turn=turn, player=name(player, locale))
    else:
        title = t(locale, "malice.group.turn", turn=turn)
    return LogGroup(key=f"turn-{turn}", title=title)


def log_entries(
    info: TableInfo, view: MalicePublicView, events: Sequence[Event], *, locale: object = "en"
) -> list[LogGroup | str]:
    """The public lines of these events; each turn is a group, named when it starts."""
    out: list[LogGroup | str] = []
    for event in events:
        if isinstance(event, TurnStarted):
            out.append(_turn_group(event.turn, event.player, locale))
        elif (line := _event_line(event, locale)) is not None:
            out.append(line)
    return out


def state_group(view: MalicePublicView, *, locale: object = "en") -> LogGroup | None:
    """The turn being played now (None when the game is over)."""
    return None if view.is_over else _turn_group(view.turn, view.current_player, locale)


def result_lines(info: TableInfo, view: MalicePublicView, *, locale: object = "en") -> list[str]:
    if view.result is None:  # not over: nothing to tell yet
        return []
    counts = ", ".join(f"{name(p, locale)} {view.payoff_counts[p]}" for p in view.players)
    return [t(locale, "malice.log.game_over", result=_result_sentence(view.result, locale), counts=counts)]


def hand(info: TableInfo, game: MaliceGame, player: str, *, dm: bool, locale: object = "en") -> Message:
    view = game.view(player)
    top = view.payoff_top.get(player)
    sides = "  ".join(f"{i + 1}: {_stack(s, locale)}" for i, s in enumerate(view.side[player]))
    free = t(locale, "common.free")
    centre = "  ".join(
        f"{i + 1}: {_stack(s, locale)}" if s else f"{i + 1}: {free}" for i, s in enumerate(view.centre)
    )
    cards = " ".join(format_card(c, locale) for c in view.hand) or t(locale, "common.empty")
    lines = [
        t(locale, "malice.hand.title", table=info.id, cards=cards),
        t(
            locale,
            "malice.hand.payoff",
            top=format_card(top, locale) if top else "—",
            left=view.payoff_counts[player],
        ),
        t(locale, "malice.hand.sides", sides=sides),
        t(locale, "malice.hand.centre", centre=centre),
    ]
    rows: list[list[Button]] = []
    if view.current_player == player and not view.is_over:
        if view.must_play_ace:
            lines.append(t(locale, "malice.hand.your_turn_ace"))
        else:
            lines.append(t(locale, "malice.hand.your_turn"))
        actions = game.legal_actions()
        warning = idle_warning(view, actions, locale)
        if warning is not None:
            lines.append(warning)
        if not dm:
            buttons = [
                Button(
                    label=_move_label(a, locale),
                    table=info.id,
                    action=click(token(a), info.seq),
                    style="primary" if isinstance(a, Play) and a.to.startswith("centre") else "secondary",
                )
                for a in actions
            ]
            if len(buttons) > 20:
                lines.append(t(locale, "malice.hand.more_moves"))
                # The end of the turn always keeps its button (known by its action, not its label).
                ends = [b for a, b in zip(actions, buttons, strict=True) if isinstance(a, EndTurn)]
                moves = [b for a, b in zip(actions, buttons, strict=True) if not isinstance(a, EndTurn)]
                buttons = moves[:19] + ends
            rows = rows_of(buttons)
    elif view.current_player:
        lines.append(t(locale, "common.waiting_for", player=name(view.current_player, locale)))
    else:
        lines.append(t(locale, "table.game_over"))
    return Message(content="\n".join(lines), rows=rows)


def idle_warning(view: MaliceView, legal: Sequence[Action], locale: object) -> str | None:
    """Rule 16 told before it bites: the player to move has not moved a card this turn, may end it, and his
    opponent leads the race, so ending now lets the opponent end the game by idling too (or, after the
    opponent's own idle turn, ends it at once). None when ending now costs nothing of the kind."""
    if view.moved_this_turn or view.is_over or not any(isinstance(a, EndTurn) for a in legal):
        return None
    opponent = next(p for p in view.players if p != view.player)
    mine, theirs = view.payoff_counts[view.player], view.payoff_counts[opponent]
    if theirs >= mine:
        return None
    player = name(opponent, locale)
    if view.idle_turns >= 1:  # his last turn was idle: an idle end now is the second in a row
        return tn(locale, "malice.hand.idle_ends_game", theirs, player=player, mine=mine)
    return tn(locale, "malice.hand.idle_lets_end", theirs, player=player, mine=mine)


def _move_label(action: Action, locale: object) -> str:
    match action:
        case Play():
            card = format_card(action.card, locale) if action.card is not None else "?"
            source, extra = _source_key(action.source)
            return t(
                locale, f"malice.button.move.{source}", card=card, target=_short(action.to, locale), **extra
            )
        case EndTurn() | Resign() | EndGame():  # only the end of the turn is ever a legal one of these
            return t(locale, "malice.button.end_turn")
        case _:
            assert_never(action)


def token(action: Action) -> str:
    match action:
        case Play():
            parts = ["m", action.source, str(action.card) if action.card is not None else "", action.to]
            if action.as_rank is not None:
                parts.append(action.as_rank.short)
            return "-".join(parts)
        case EndTurn() | Resign() | EndGame():  # only the end of the turn has a button
            return "end"
        case _:
            assert_never(action)


def parse_token(text: str) -> dict[str, object] | None:
    if text == "end":
        return {"kind": "end_turn"}
    parts = text.split("-")
    if parts[0] != "m" or len(parts) not in (4, 5):
        return None
    action: dict[str, object] = {"kind": "play", "source": parts[1], "card": parts[2] or None, "to": parts[3]}
    if len(parts) == 5:
        action["as_rank"] = parts[4]
    return action


def choices(
    game: MaliceGame,
    player: str,
    command: str,
    option: str,
    namespace: Mapping[str, object],
    *,
    locale: object = "en",
) -> list[tuple[str, str]]:
    """Autocomplete: the caller's legal cards (`card`) or the legal targets of the chosen card (`to`),
    labelled in his language and notation; the values are the engine's."""
    if command != "play":
        return []
    plays = [a for a in game.legal_actions() if isinstance(a, Play)]
    if option == "card":
        seen: dict[str, str] = {}
        for a in plays:
            value = str(a.card) if a.source == "hand" else a.source
            if value not in seen and a.card is not None:
                card = format_card(a.card, locale)
                if a.source == "hand":
                    seen[value] = t(locale, "malice.choice.from_hand", card=card)
                else:
                    seen[value] = t(
                        locale, "malice.choice.from_pile", card=card, place=place(a.source, locale)
                    )
        return [(label, value) for value, label in seen.items()]
    if option == "to":
        chosen = str(namespace.get("card") or "").strip()
        view = game.public_view()
        out: dict[str, str] = {}
        for a in plays:
            if chosen and not _same_source(a, chosen):
                continue
            if a.to in out:
                continue
            if a.to.startswith("centre"):
                stack = view.centre[int(a.to[-1]) - 1]
            else:
                stack = view.side[player][int(a.to[-1]) - 1]
            where = place(a.to, locale)
            if stack:
                out[a.to] = t(locale, "malice.choice.on", place=where, card=format_card(stack[-1], locale))
            elif a.to.startswith("centre"):
                out[a.to] = t(locale, "malice.choice.free_slot", place=where)
            else:
                out[a.to] = t(locale, "malice.choice.empty", place=where)
        return [(label, value) for value, label in out.items()]
    return []


def _same_source(action: Play, chosen: str) -> bool:
    key = chosen.lower()
    if key in ("payoff", "side1", "side2", "side3", "side4"):
        return action.source == key
    try:
        return action.source == "hand" and action.card is Card.parse(chosen)
    except ValueError:
        return False


def action_text(action: Action, *, hide: bool, locale: object = "en") -> str:
    match action:
        case Play():
            card = action.card
            shown = format_card(card, locale) if card else t(locale, "malice.action.top_card")
            if action.as_rank is not None:
                shown = t(locale, "malice.card_as", card=shown, rank=_rank(action.as_rank, locale))
            source, extra = _source_key(action.source)
            return t(
                locale, f"malice.action.play.{source}", card=shown, target=place(action.to, locale), **extra
            )
        case EndTurn():
            return t(locale, "malice.action.end_turn")
        case Resign():
            return t(locale, "malice.action.resign", player=name(action.player, locale))
        case EndGame():
            return t(locale, "common.action.end_game")
        case _:
            assert_never(action)


def turn_hint(game: MaliceGame, player: str, *, locale: object = "en") -> str:
    """The public turn line's hint: read from the public view alone, so it speaks only of public cards. An ace
    on the mover's payoff top with a centre slot free must go to the centre (rule 9), and everyone sees that
    ace; an ace in his hand is his to know (his hand message says so), never the table's."""
    view = game.public_view()
    if payoff_ace_due(view, player):
        return t(locale, "malice.hint.payoff_ace")
    return t(locale, "malice.hint.play")


def payoff_ace_due(view: MalicePublicView, player: str) -> bool:
    """Rule 9 as far as the table can see it: a centre slot is free and `player`'s payoff top is an ace."""
    top = view.payoff_top.get(player)
    return top is not None and top.rank is Rank.ACE and not all(view.centre)
