"""High card as messages: the test-only game's renderer, a `bot.render.protocol.Renderer` like the real games'
`render.py`, so the session layer and the fake Discord can play it. Public text comes only from the public
view and the public events (the cards show only at the showdown)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.common import (
    Button,
    Embed,
    LogGroup,
    Message,
    TableInfo,
    custom_id,
    is_computer,
    name,
    rows_of,
)

COLOUR = 0x27AE60


def lobby(info: TableInfo, *, locale: str = "en") -> Message:
    if len(info.players) < 2:  # registered as an open lobby (a test does): the host waits for a player
        return Message(
            content=f"🃏 {name(info.players[0])} opened a **High card** table (#{info.id}): join, start.",
            rows=rows_of(
                [
                    Button(label="Join", custom_id=custom_id(info.id, "join"), style="success"),
                    Button(label="Start", custom_id=custom_id(info.id, "start"), style="primary"),
                ]
            ),
        )
    host, opponent = info.players[0], info.players[1]
    text = f"🃏 {name(host)} challenges {name(opponent)} to **High card** (table #{info.id})."
    if info.status != "lobby":
        return Message(content=f"{text} This table is {info.status}.")
    buttons = [
        Button(label="Accept", custom_id=custom_id(info.id, "accept"), style="success"),
        Button(label="Decline", custom_id=custom_id(info.id, "decline"), style="danger"),
    ]
    return Message(
        content=f"{text}\n{name(opponent)}: accept or decline.",
        rows=rows_of(buttons),
        mentions=[] if is_computer(opponent) else [int(opponent)],
    )


def table(info: TableInfo, game: Any, note: str | None, *, locale: str = "en") -> Message:
    view = game.public_view()
    lines = [f"{name(p)}: {view.chips[p]} chips, {view.swaps_left[p]} swaps left" for p in view.players]
    if note:
        lines.insert(0, note)
    embed = Embed(
        title=f"High card · table #{info.id}",
        description="\n".join(lines),
        footer=f"Round {view.round} of {view.rounds}",
        colour=COLOUR,
    )
    rows = [] if view.is_over else rows_of(
        [Button(label="My hand", custom_id=custom_id(info.id, "hand"), style="primary")]
    )
    return Message(embeds=[embed], rows=rows)


def _round(number: int) -> LogGroup:
    return LogGroup(key=f"round-{number}", title=f"**Round {number}**")


def log_entries(
    info: TableInfo, game: Any, events: Sequence[Any], *, locale: str = "en"
) -> list[LogGroup | str]:
    out: list[LogGroup | str] = []
    for event in events:
        if event.kind == "round_started":
            out.append(_round(event.round))
        elif event.kind == "decided":
            out.append(f"{name(event.player)} {'swaps' if event.swapped else 'keeps'} the card.")
        elif event.kind == "showdown":
            shown = ", ".join(f"{name(p)} {c.pretty}" for p, c in event.cards.items())
            out.append(f"Showdown: {shown}; {name(event.winner)} wins the round.")
    return out


def state_group(game: Any, *, locale: str = "en") -> LogGroup | None:
    view = game.public_view()
    return None if view.is_over else _round(view.round)


def result_lines(info: TableInfo, game: Any, *, locale: str = "en") -> list[str]:
    view = game.public_view()
    chips = ", ".join(f"{name(p)} {view.chips[p]}" for p in view.players)
    return [f"🏁 **Game over**: {chips}."]


def hand(info: TableInfo, game: Any, player: str, *, dm: bool, locale: str = "en") -> Message:
    view = game.view(player)
    lines = [f"**Your card** (High card, table #{info.id}): {' '.join(c.pretty for c in view.hand) or '—'}"]
    rows: list[list[Button]] = []
    if view.current_player == player and not view.is_over:
        lines.append("It is your turn: keep or swap.")
        if not dm:
            rows = rows_of(
                [
                    Button(label=a.kind.capitalize(), custom_id=custom_id(info.id, token(a), info.seq))
                    for a in game.legal_actions()
                ]
            )
    return Message(content="\n".join(lines), rows=rows)


def turn_hint(game: Any, player: str, *, locale: str = "en") -> str:
    return "keep your card (/highcard keep) or swap it (/highcard swap)"


def token(action: Any) -> str:
    return str(action.kind)


def parse_token(text: str) -> dict[str, Any] | None:
    return {"kind": text} if text in ("keep", "swap") else None


def choices(
    game: Any, player: str, command: str, option: str, namespace: Mapping[str, Any], *, locale: str = "en"
) -> list[tuple[str, str]]:
    return []


def action_text(action: Mapping[str, Any], *, hide: bool, locale: str = "en") -> str:
    return {"keep": "keeps", "swap": "swaps", "end_game": "ends the game (cancel)"}.get(
        str(action.get("kind")), str(action.get("kind"))
    )


def timeout_text(*, locale: str = "en") -> str:
    return "the card was kept for them"


def cancel_text(*, locale: str = "en") -> str:
    return "chips stay as they are"
