"""High card as players meet it: the test-only game's presentation (its text renderer, a
`bot.render.protocol.Renderer` like the real games' `bot/render/<game>/text.py`, and its commands), so the
session layer and the fake Discord can play it. Public text comes only from the public view and the public
events (the cards show only at the showdown). `registered(SPEC, PRESENTATION)` registers both halves."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import assert_never

from bot.games.base import ChipTransfer, GameAction, GameState, IllegalAction
from bot.render.commands import CommandOption, CommandSet, GameCommand, table_option
from bot.render.common import (
    Button,
    Embed,
    LogGroup,
    Message,
    TableInfo,
    click,
    is_computer,
    name,
    rows_of,
)
from bot.render.presentation import GamePresentation

from .highcard import (
    Action,
    Decided,
    EndGame,
    Event,
    GameOver,
    HighCardGame,
    Keep,
    Options,
    PlayerView,
    PublicView,
    RoundStarted,
    Showdown,
    Swap,
    parse_action,
)

COLOUR = 0x27AE60


def lobby(info: TableInfo, *, locale: object = "en") -> Message:
    if len(info.players) < 2:  # registered as an open lobby (a test does): the host waits for a player
        return Message(
            content=f"🃏 {name(info.players[0])} opened a **High card** table (#{info.id}): join, start.",
            rows=rows_of(
                [
                    Button(label="Join", table=info.id, action=click("join"), style="success"),
                    Button(label="Start", table=info.id, action=click("start"), style="primary"),
                ]
            ),
        )
    host, opponent = info.players[0], info.players[1]
    text = f"🃏 {name(host)} challenges {name(opponent)} to **High card** (table #{info.id})."
    if info.status != "lobby":
        return Message(content=f"{text} This table is {info.status}.")
    buttons = [
        Button(label="Accept", table=info.id, action=click("accept"), style="success"),
        Button(label="Decline", table=info.id, action=click("decline"), style="danger"),
    ]
    return Message(
        content=f"{text}\n{name(opponent)}: accept or decline.",
        rows=rows_of(buttons),
        mentions=[] if is_computer(opponent) else [int(opponent)],
    )


def table(info: TableInfo, game: HighCardGame, note: str | None, *, locale: object = "en") -> Message:
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
    rows = (
        []
        if view.is_over
        else rows_of([Button(label="My hand", table=info.id, action=click("hand"), style="primary")])
    )
    return Message(embeds=[embed], rows=rows)


def _round(number: int) -> LogGroup:
    return LogGroup(key=f"round-{number}", title=f"**Round {number}**")


def log_entries(
    info: TableInfo, view: PublicView, events: Sequence[Event], *, locale: object = "en"
) -> list[LogGroup | str]:
    out: list[LogGroup | str] = []
    for event in events:
        match event:
            case RoundStarted():
                out.append(_round(event.round))
            case Decided():
                out.append(f"{name(event.player)} {'swaps' if event.swapped else 'keeps'} the card.")
            case Showdown():
                shown = ", ".join(f"{name(p)} {c.pretty}" for p, c in event.cards.items())
                out.append(f"Showdown: {shown}; {name(event.winner)} wins the round.")
            case ChipTransfer() | GameOver():
                pass
            case _:
                assert_never(event)
    return out


def state_group(view: PublicView, *, locale: object = "en") -> LogGroup | None:
    return None if view.is_over else _round(view.round)


def result_lines(info: TableInfo, view: PublicView, *, locale: object = "en") -> list[str]:
    chips = ", ".join(f"{name(p)} {view.chips[p]}" for p in view.players)
    return [f"🏁 **Game over**: {chips}."]


def hand(info: TableInfo, game: HighCardGame, player: str, *, dm: bool, locale: object = "en") -> Message:
    view = game.view(player)
    lines = [f"**Your card** (High card, table #{info.id}): {' '.join(c.pretty for c in view.hand) or '—'}"]
    rows: list[list[Button]] = []
    if view.current_player == player and not view.is_over:
        lines.append("It is your turn: keep or swap.")
        if not dm:
            rows = rows_of(
                [
                    Button(label=a.kind.capitalize(), table=info.id, action=click(token(a), info.seq))
                    for a in game.legal_actions()
                ]
            )
    return Message(content="\n".join(lines), rows=rows)


def turn_hint(game: HighCardGame, player: str, *, locale: object = "en") -> str:
    return "keep your card (/highcard keep) or swap it (/highcard swap)"


def token(action: Action) -> str:
    return action.kind


def parse_token(text: str) -> dict[str, object] | None:
    return {"kind": text} if text in ("keep", "swap") else None


def choices(
    game: HighCardGame,
    player: str,
    command: str,
    option: str,
    namespace: Mapping[str, object],
    *,
    locale: object = "en",
) -> list[tuple[str, str]]:
    return []


def action_text(action: Action, *, hide: bool, locale: object = "en") -> str:
    match action:
        case Keep():
            return "keeps"
        case Swap():
            return "swaps"
        case EndGame():
            return "ends the game (cancel)"
        case _:
            assert_never(action)


def timeout_text(*, locale: object = "en") -> str:
    return "the card was kept for them"


def cancel_text(*, locale: object = "en") -> str:
    return "chips stay as they are"


# --- its commands -------------------------------------------------------------------------------------------


def build_action(game: GameState, command: str, params: dict[str, object], player: str) -> GameAction:
    if command in ("keep", "swap"):
        return parse_action({"kind": command})
    raise IllegalAction(f"Unknown High card action {command}.")


def opened(table_id: int, status: str, opponent: str | None) -> tuple[str, dict[str, object]]:
    # No catalogue entries for a test-only game: the sentence itself is shown as it is.
    if status == "running":
        return f"Table #{table_id}: High card against the computer started. Use /hand.", {}
    return f"Table #{table_id}: High card challenge sent to {opponent}.", {}


COMMANDS = CommandSet(
    description="High card: two players, the higher card takes a chip.",
    commands=(
        GameCommand(
            "challenge",
            "Challenge someone to High card in this channel.",
            role="open",
            options=(
                CommandOption("opponent", "who you challenge (me: the computer)", type="user"),
                table_option(Options, "chips"),
                table_option(Options, "rounds"),
                table_option(Options, "timeout"),
            ),
        ),
        GameCommand("accept", "Accept the challenge in this channel.", role="accept"),
        GameCommand("decline", "Decline the challenge in this channel.", role="decline"),
        GameCommand("keep", "Keep your card."),
        GameCommand("swap", "Swap your card for the next one of the deck."),
    ),
    build_action=build_action,
    opened=opened,
)

PRESENTATION = GamePresentation[HighCardGame, PublicView, PlayerView, Event, Action](
    kind="highcard",
    game=HighCardGame,
    view=PublicView,
    player_view=PlayerView,
    events=Event,
    actions=Action,
    renderer=sys.modules[__name__],  # this module is the text renderer
    commands=COMMANDS,
).erased()
