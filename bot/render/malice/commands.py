"""/malice as data: challenge, accept or decline, play a card, end the turn; and how `/malice play`'s options
become Malice's action. The generic game cog builds the command group from `COMMANDS`."""

from __future__ import annotations

from bot.games.base import GameAction, GameState, Refusal
from bot.games.cards import Card
from bot.games.malice.game import MaliceGame
from bot.games.malice.models import MaliceOptions, parse_action
from bot.i18n import excerpt
from bot.render.commands import (
    CommandOption,
    CommandSet,
    GameCommand,
    card_input,
    choice_option,
    said,
    switch_option,
    table_option,
)

CENTRE = ("centre1", "centre2", "centre3", "centre4")
SIDES = ("side1", "side2", "side3", "side4")


def build_action(game: GameState, command: str, params: dict[str, object], player: str) -> GameAction:
    if command == "end":
        return parse_action({"kind": "end_turn"})
    if command != "play":
        raise Refusal("table.unknown_action", game=said("game.malice"), command=command)
    if not isinstance(game, MaliceGame):
        raise TypeError(f"not a Malice game: {type(game).__name__}")
    raw = str(params.get("card") or "").strip().lower()
    to = str(params.get("to") or "").strip().lower().replace(" ", "").replace("center", "centre")
    if not to:
        raise Refusal("malice.say_where")
    if to not in (*CENTRE, *SIDES, "centre"):
        raise Refusal("malice.not_a_place", text=excerpt(str(params.get("to"))))
    if raw in ("payoff", *SIDES):
        source, card = raw, None
    else:
        source, card = "hand", card_input(raw)
    # The matching legal move, if any, fills in what the player need not say (which centre stack, the
    # rank a joker takes); the engine still validates everything and words any refusal.
    for action in game.legal_actions() if game.current_player == player else []:
        if action.kind != "play" or action.source != source:
            continue
        if card is not None and action.card is not card:
            continue
        if action.to == to or (to == "centre" and action.to in CENTRE):
            return action
    if to == "centre" and _holds(game, player, source, card):
        if card is not None:
            raise Refusal("malice.card_no_centre", card=card)
        pile = said("malice.pile.payoff") if raw == "payoff" else said("malice.pile.side", number=raw[-1])
        raise Refusal("malice.top_no_centre", pile=pile)
    # A card not held, an empty pile: the engine says so (to any centre stack), not "no stack takes it".
    where = CENTRE[0] if to == "centre" else to
    return parse_action({"kind": "play", "source": source, "card": card, "to": where})


def _holds(game: MaliceGame, player: str, source: str, card: Card | None) -> bool:
    """Whether the player has what he names: the card in his hand, or a card on that pile."""
    if card is not None:
        return card in game.hands.get(player, [])
    if source == "payoff":
        return bool(game.payoff.get(player))
    stacks = game.side.get(player, [])
    index = int(source[-1]) - 1
    return index < len(stacks) and bool(stacks[index])


def opened(table_id: int, status: str, opponent: str | None) -> tuple[str, dict[str, object]]:
    if status == "running":
        return said("malice.vs_computer", table=table_id)
    return said("malice.challenge_sent", table=table_id, opponent=opponent)


CARD = "a card in your hand (like 7H or JK), payoff, or side1-side4 (the top of that side stack)"
TO = "centre (any stack that takes it), centre1-centre4, or side1-side4"

# The house rule's choices as English clients read them (docs/rules.md section 3: H4).
DISCARD = {"optional": "optional (standard)", "required": "required when a card fits a side stack"}

COMMANDS = CommandSet(
    description="Malice: a two-player Spite-and-Malice race.",
    commands=(
        GameCommand(
            "challenge",
            "Challenge someone to Malice in this channel.",
            role="open",
            options=(
                CommandOption(
                    "opponent", "who you challenge (challenge me to play the computer)", type="user"
                ),
                table_option(MaliceOptions, "stake"),
                table_option(
                    MaliceOptions,
                    "timeout",
                    description=(
                        "seconds per move before the turn is ended for you (default from the bot's settings)"
                    ),
                ),
                table_option(MaliceOptions, "turns"),
                switch_option(MaliceOptions, "pictures"),
                choice_option(MaliceOptions, "discard", DISCARD),
            ),
        ),
        GameCommand("accept", "Accept the challenge in this channel.", role="accept"),
        GameCommand("decline", "Decline the challenge in this channel.", role="decline"),
        GameCommand(
            "play",
            "Move one card: to the centre, or from your hand to a side stack (that ends your turn).",
            options=(
                CommandOption("card", CARD, autocomplete=True),
                CommandOption("to", TO, autocomplete=True),
            ),
        ),
        GameCommand("end", "End your turn without a side play."),
    ),
    build_action=build_action,
    opened=opened,
)
