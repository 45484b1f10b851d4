"""Malice as messages: the table, move announcements, a player's hand and his legal moves.

Public text is built only from `public_view()` and the public events; a hand appears only in a player's own
hand message (ephemeral or DM).
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
    is_computer,
    name,
    plural,
    rows_of,
)

COLOUR = 0x8E44AD
PLACES = {
    "hand": "hand",
    "payoff": "payoff pile",
    "side1": "side stack 1",
    "side2": "side stack 2",
    "side3": "side stack 3",
    "side4": "side stack 4",
    "centre1": "centre 1",
    "centre2": "centre 2",
    "centre3": "centre 3",
    "centre4": "centre 4",
}
REASONS = {
    "payoff_emptied": "played the last payoff card",
    "stalemate": "stalemate: two idle turns in a row",
    "turn_cap": "the turn cap was reached",
    "resign": "resignation",
    "cancelled": "the game was cancelled (scored as a stalemate)",
}


def _stack(stack: list[Card]) -> str:
    return f"{stack[-1].pretty} ({len(stack)})" if stack else "—"


def lobby(info: TableInfo, *, locale: str = "en") -> Message:
    host, opponent = info.players[0], info.players[1]
    stake = info.options.get("stake", 1)
    text = (
        f"⚔️ {name(host)} challenges {name(opponent)} to **Malice** (table #{info.id}): stake "
        f"{plural(stake, 'chip')} per card, {int(info.timeout)} s per move."
    )
    if info.status == "lobby":
        buttons = [
            Button(label="Accept", custom_id=custom_id(info.id, "accept"), style="success"),
            Button(label="Decline", custom_id=custom_id(info.id, "decline"), style="danger"),
        ]
        return Message(
            content=f"{text}\n{name(opponent)}: accept or decline.",
            rows=rows_of(buttons),
            mentions=[] if is_computer(opponent) else [int(opponent)],
        )
    return Message(content=text)


def table(info: TableInfo, game: Any, note: str | None, *, locale: str = "en") -> Message:
    view = game.public_view()
    lines = []
    for p in view.players:
        top = view.payoff_top.get(p)
        marker = "▶️ " if p == view.current_player else ""
        lines.append(
            f"{marker}{name(p)}: payoff {view.payoff_counts[p]} (top {top.pretty if top else '—'}), "
            f"hand {view.hand_counts[p]}"
        )
    centre = "  ".join(
        f"**{i + 1}**: {_stack(stack)} → {view.centre_needs[i].short}" if stack else f"**{i + 1}**: free"
        for i, stack in enumerate(view.centre)
    )
    fields = [EmbedField(name="Centre", value=centre, inline=False)]
    sides = [
        f"{name(p)}: " + "  ".join(f"**{i + 1}**: {_stack(s)}" for i, s in enumerate(view.side[p]))
        for p in view.players
    ]
    fields.append(EmbedField(name="Side stacks", value="\n".join(sides), inline=False))
    footer = f"Turn {view.turn} of at most {view.max_turns} · stock {view.stock_count} · stake {view.stake}"
    description = "\n".join(lines)
    if view.is_over and view.result is not None:
        description += "\n**Game over**: " + _result_sentence(view.result)
    if note:
        description = f"{note}\n{description}"
    embed = Embed(
        title=f"Malice · table #{info.id}",
        description=description,
        fields=fields,
        footer=footer,
        colour=COLOUR,
    )
    rows = []
    if not view.is_over:
        rows = rows_of(
            [
                Button(label="My hand", custom_id=custom_id(info.id, "hand"), style="primary"),
                Button(label="End turn", custom_id=custom_id(info.id, "end", info.seq)),
            ]
        )
    return Message(embeds=[embed], rows=rows)


def _result_sentence(result: Any) -> str:
    why = REASONS.get(result.reason, result.reason)
    if result.winner is None:
        return f"a draw ({why})."
    return (
        f"{name(result.winner)} wins ({why}), scoring {plural(result.score, 'card')}"
        f" = {plural(result.chips, 'chip')}."
    )


def event_lines(info: TableInfo, game: Any, events: list[Any]) -> list[str]:
    lines: list[str] = []
    for event in events:
        kind = getattr(event, "kind", None)
        if kind == "card_played":
            card = event.card.pretty
            if event.as_rank is not None:
                card += f" as {event.as_rank.short}"
            lines.append(
                f"{name(event.player)} plays {card} from the {PLACES[event.source]} to {PLACES[event.to]}."
            )
        elif kind == "payoff_turned":
            lines.append(
                f"{name(event.player)} turns up {event.card.pretty} on the payoff pile "
                f"({event.remaining} left)."
            )
        elif kind == "stack_completed":
            lines.append(
                f"✅ {PLACES[event.slot].capitalize()} is complete: shuffled into the stock "
                f"(stock {event.stock_count})."
            )
        elif kind == "hand_refilled":
            lines.append(f"{name(event.player)} emptied the hand and draws {event.drawn}.")
        elif kind == "turn_ended" and not event.side_play:
            lines.append(
                f"{name(event.player)} ends turn {event.turn}"
                f"{'' if event.moved else ' without moving a card'}."
            )
        elif kind == "chips":
            lines.append(f"💰 {name(event.from_account)} pays {name(event.to_account)} {event.amount} chips.")
    return lines


def _turn_group(turn: int, player: str | None) -> LogGroup:
    who = f" · {name(player)}" if player else ""
    return LogGroup(key=f"turn-{turn}", title=f"**Turn {turn}**{who}")


def log_entries(
    info: TableInfo, game: Any, events: Sequence[Any], *, locale: str = "en"
) -> list[LogGroup | str]:
    """The public lines of these events; each turn is a group, named when it starts."""
    out: list[LogGroup | str] = []
    for event in events:
        if getattr(event, "kind", None) == "turn_started":
            out.append(_turn_group(event.turn, event.player))
        else:
            out.extend(event_lines(info, game, [event]))
    return out


def state_group(game: Any, *, locale: str = "en") -> LogGroup | None:
    """The turn being played now (None when the game is over)."""
    view = game.public_view()
    return None if view.is_over else _turn_group(view.turn, view.current_player)


def result_lines(info: TableInfo, game: Any, *, locale: str = "en") -> list[str]:
    view = game.public_view()
    counts = ", ".join(f"{name(p)} {view.payoff_counts[p]}" for p in view.players)
    return [f"🏁 **Game over**: {_result_sentence(view.result)} Payoff cards left: {counts}."]


def hand(info: TableInfo, game: Any, player: str, *, dm: bool, locale: str = "en") -> Message:
    view = game.view(player)
    top = view.payoff_top.get(player)
    sides = "  ".join(f"{i + 1}: {_stack(s)}" for i, s in enumerate(view.side[player]))
    centre = "  ".join(f"{i + 1}: {_stack(s)}" if s else f"{i + 1}: free" for i, s in enumerate(view.centre))
    lines = [
        f"**Your hand** (Malice, table #{info.id}): {' '.join(c.pretty for c in view.hand) or 'empty'}",
        f"Payoff top: {top.pretty if top else '—'} ({view.payoff_counts[player]} left)",
        f"Your side stacks: {sides}",
        f"Centre: {centre}",
    ]
    rows: list[list[Button]] = []
    if view.current_player == player and not view.is_over:
        lines.append(
            "It is your turn."
            + (" You must play your ace to the centre first." if view.must_play_ace else "")
        )
        if not dm:
            buttons = [
                Button(
                    label=_move_label(a),
                    custom_id=custom_id(info.id, token(a), info.seq),
                    style="primary" if a.kind == "play" and a.to.startswith("centre") else "secondary",
                )
                for a in game.legal_actions()
            ]
            if len(buttons) > 20:
                lines.append("More moves than buttons: use /malice play for the rest.")
                buttons = [b for b in buttons if not b.label.startswith("End")][:19] + [
                    b for b in buttons if b.label.startswith("End")
                ]
            rows = rows_of(buttons)
    else:
        lines.append(
            f"Waiting for {name(view.current_player)}." if view.current_player else "The game is over."
        )
    return Message(content="\n".join(lines), rows=rows)


def _move_label(action: Any) -> str:
    if action.kind == "end_turn":
        return "End turn"
    card = action.card.pretty if action.card is not None else "?"
    where = (
        "payoff "
        if action.source == "payoff"
        else ("" if action.source == "hand" else f"side {action.source[-1]} ")
    )
    target = PLACES[action.to].replace("centre ", "C").replace("side stack ", "S")
    return f"{where}{card} → {target}"


def token(action: Any) -> str:
    if action.kind == "end_turn":
        return "end"
    parts = ["m", action.source, str(action.card) if action.card is not None else "", action.to]
    if action.as_rank is not None:
        parts.append(action.as_rank.short)
    return "-".join(parts)


def parse_token(text: str) -> dict[str, Any] | None:
    if text == "end":
        return {"kind": "end_turn"}
    parts = text.split("-")
    if parts[0] != "m" or len(parts) not in (4, 5):
        return None
    action: dict[str, Any] = {"kind": "play", "source": parts[1], "card": parts[2] or None, "to": parts[3]}
    if len(parts) == 5:
        action["as_rank"] = parts[4]
    return action


def choices(
    game: Any, player: str, command: str, option: str, namespace: Mapping[str, Any], *, locale: str = "en"
) -> list[tuple[str, str]]:
    """Autocomplete: the caller's legal cards (`card`) or the legal targets of the chosen card (`to`)."""
    if command != "play":
        return []
    plays = [a for a in game.legal_actions() if a.kind == "play"]
    if option == "card":
        seen: dict[str, str] = {}
        for a in plays:
            value = str(a.card) if a.source == "hand" else a.source
            if value not in seen:
                where = "from your hand" if a.source == "hand" else f"({PLACES[a.source]} top)"
                seen[value] = f"{a.card.pretty} {where}"
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
                out[a.to] = f"{PLACES[a.to]} ({'on ' + stack[-1].pretty if stack else 'free slot'})"
            else:
                stack = view.side[player][int(a.to[-1]) - 1]
                out[a.to] = f"{PLACES[a.to]} ({'on ' + stack[-1].pretty if stack else 'empty'})"
        return [(label, value) for value, label in out.items()]
    return []


def _same_source(action: Any, chosen: str) -> bool:
    key = chosen.lower()
    if key in ("payoff", "side1", "side2", "side3", "side4"):
        return bool(action.source == key)
    try:
        return bool(action.source == "hand" and action.card is Card.parse(chosen))
    except ValueError:
        return False


def action_text(action: Mapping[str, Any], *, hide: bool, locale: str = "en") -> str:
    kind = action.get("kind")
    if kind == "play":
        card = action.get("card")
        shown = Card.parse(card).pretty if card else "the top card"
        rank = f" as {action['as_rank']}" if action.get("as_rank") else ""
        return (
            f"plays {shown}{rank} from the {PLACES.get(action['source'], action['source'])} "
            f"to {PLACES.get(action['to'], action['to'])}"
        )
    if kind == "end_turn":
        return "ends the turn"
    if kind == "resign":
        return f"resigns for {name(action['player'])}"
    if kind == "end_game":
        return "ends the game (cancel)"
    return str(kind)


def turn_hint(game: Any, player: str, *, locale: str = "en") -> str:
    view = game.view(player)
    return (
        "play your ace to the centre"
        if view.must_play_ace
        else "play cards, then end the turn or play to a side stack"
    )


def timeout_text(*, locale: str = "en") -> str:
    return "any ace that had to be played went to the centre and the turn ended"


def cancel_text(*, locale: str = "en") -> str:
    return "scored as a stalemate"
