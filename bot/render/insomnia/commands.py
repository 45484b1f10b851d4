"""/insomnia as data: the lobby commands and every decision of a deal, and how a move command's options become
Insomnia's action. The generic game cog builds the command group from `COMMANDS`."""

from __future__ import annotations

from bot.games.base import GameAction, GameState, Refusal
from bot.games.insomnia.models import InsomniaOptions, parse_action
from bot.render.commands import (
    CommandOption,
    CommandSet,
    GameCommand,
    card_input,
    choice_option,
    number_input,
    said,
    switch_option,
    table_option,
)


def build_action(game: GameState, command: str, params: dict[str, object], player: str) -> GameAction:
    if command == "exchange":
        return parse_action({"kind": "exchange", "card": card_input(params["card"])})
    if command == "play":
        return parse_action({"kind": "play", "card": card_input(params["card"])})
    if command == "bid":
        return parse_action({"kind": "bid", "amount": number_input("insomnia.not_a_bid", params["amount"])})
    if command == "rethrow":
        die = number_input("insomnia.not_a_die", params["die"])
        if not 1 <= die <= 4:
            rethrowing = game.current_player == player and any(
                action.kind == "rethrow" for action in game.legal_actions()
            )
            if rethrowing:
                raise Refusal("insomnia.four_dice")
            # No die may be thrown now: the engine's reason (the auction, someone else's turn) says more than
            # the die's range, as for a die in range.
            die = 1
        return parse_action({"kind": "rethrow", "die": die})
    if command == "pass":
        return parse_action({"kind": "pass"})
    raise Refusal("table.unknown_action", game=said("game.insomnia"), command=command)


def opened(table_id: int, status: str, opponent: str | None) -> tuple[str, dict[str, object]]:
    return said("insomnia.opened", table=table_id)


# The house rules' choices as English clients read them (docs/rules.md section 3: H1 to H3).
SEVENS = {"hearts-spades": "7♥ 7♠ (standard)", "all": "all four sevens"}
BUST = {"ends": "the game ends (standard)", "out": "the player is out, the others play on"}
STAGE4 = {"on": "played (standard)", "off": "not played"}

COMMANDS = CommandSet(
    description="Insomnia: dice, chips and tricks for 2 to 8 players.",
    commands=(
        GameCommand(
            "new",
            "Open an Insomnia table in this channel (you are the host).",
            role="open",
            options=(
                table_option(InsomniaOptions, "chips"),
                table_option(InsomniaOptions, "deals"),
                table_option(InsomniaOptions, "timeout"),
                switch_option(InsomniaOptions, "pictures"),
                choice_option(InsomniaOptions, "sevens", SEVENS),
                choice_option(InsomniaOptions, "bust", BUST),
                choice_option(InsomniaOptions, "stage4", STAGE4),
            ),
        ),
        GameCommand("join", "Take a seat at the open table.", role="join"),
        GameCommand("leave", "Leave the open table before it starts.", role="leave"),
        GameCommand("addbot", "Seat a computer player (the host).", role="addbot"),
        GameCommand("start", "Start the game (the host; 2 to 8 seats).", role="start"),
        GameCommand(
            "exchange",
            "Stage 1a: discard a card and draw one.",
            options=(
                CommandOption("card", "the card to discard (you draw from the stock)", autocomplete=True),
            ),
        ),
        GameCommand(
            "bid",
            "Bid for re-throws in an auction.",
            options=(
                CommandOption(
                    "amount",
                    "chips to bid: more than the highest bid, at most your chips",
                    min=1,
                    max=20,
                    autocomplete=True,
                ),
            ),
        ),
        GameCommand("pass", "Decline: no (more) exchange, pass in the auction, or stop re-throwing."),
        GameCommand(
            "rethrow",
            "Throw one die again (the auction winner).",
            options=(
                CommandOption(
                    "die", "which die to throw again (1-4, left to right)", min=1, max=20, autocomplete=True
                ),
            ),
        ),
        GameCommand(
            "play",
            "Stage 3: play a card to the trick.",
            options=(CommandOption("card", "the card to play to the trick", autocomplete=True),),
        ),
    ),
    build_action=build_action,
    opened=opened,
)
