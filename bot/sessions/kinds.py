"""What differs between the two games at the session level: options, DMs, timeouts, takeover, command input.

Rules themselves stay in the engines; this only maps table options and command options onto engine calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Literal

from bot.fit import excerpt
from bot.games import engine
from bot.games.cards import Card
from bot.sessions.errors import NotAllowed

CENTRE = ("centre1", "centre2", "centre3", "centre4")
SIDES = ("side1", "side2", "side3", "side4")


def _card(text: Any) -> Card:
    try:
        return Card.parse(str(text))
    except ValueError:
        raise NotAllowed(
            f"`{excerpt(str(text))}` is not a card: write it like 10H, QS or AD (rank, then suit)."
        ) from None


def _number(text: Any, what: str) -> int:
    value = str(text).strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 9):
        raise NotAllowed(f"`{excerpt(value)}` is not a {what}: give a whole number.")
    return int(value)


OFFERED_AT = re.compile(r"(?s)(.*)@([0-9]{1,9})")


def offered_move(params: dict) -> tuple[dict, int | None]:
    """Autocomplete values carry the move number they were offered at (`7H@12`; the label stays `7♥`), so a
    command sent twice cannot be applied twice. Returns the values without it, and that move number."""
    clean, seq = {}, None
    for key, value in params.items():
        if isinstance(value, str) and (match := OFFERED_AT.fullmatch(value.strip())):
            value, seq = match[1], int(match[2])
        clean[key] = value
    return clean, seq


class KindRules:
    kind: str
    min_players = 2
    max_players = 2
    takeover: Literal["computer", "forfeit"] = "forfeit"

    def engine_options(self, options: dict) -> dict:
        raise NotImplementedError

    def hands_to_send(self, game: Any, events: list[Any], started: bool) -> list[str]:
        raise NotImplementedError

    def timeout_actions(self, game: Any, player: str) -> Iterator[Any]:
        raise NotImplementedError

    def build_action(self, game: Any, command: str, params: dict, player: str) -> Any:
        raise NotImplementedError


class InsomniaRules(KindRules):
    kind = "insomnia"
    max_players = 8
    takeover = "computer"

    def engine_options(self, options: dict) -> dict:
        out = {}
        if options.get("chips"):
            out["chips"] = int(options["chips"])
        if options.get("deals"):
            out["max_deals"] = int(options["deals"])
        return out

    def hands_to_send(self, game: Any, events: list[Any], started: bool) -> list[str]:
        # A new hand at each deal; exchanges are answered to the player himself.
        if started or any(getattr(e, "kind", None) == "deal_started" for e in events):
            return list(game.public_view().players)
        return []

    def timeout_actions(self, game: Any, player: str) -> Iterator[Any]:
        yield game.default_action()

    def build_action(self, game: Any, command: str, params: dict, player: str) -> Any:
        module = engine(self.kind)
        if command == "exchange":
            return module.parse_action({"kind": "exchange", "card": _card(params["card"])})
        if command == "play":
            return module.parse_action({"kind": "play", "card": _card(params["card"])})
        if command == "bid":
            return module.parse_action({"kind": "bid", "amount": _number(params["amount"], "bid")})
        if command == "rethrow":
            die = _number(params["die"], "die number")
            if not 1 <= die <= 4:
                raise NotAllowed("There are four dice: name one from 1 to 4, left to right.")
            return module.parse_action({"kind": "rethrow", "die": die})
        if command == "pass":
            return module.parse_action({"kind": "pass"})
        raise NotAllowed(f"Unknown Insomnia action {command}.")


class MaliceRules(KindRules):
    kind = "malice"

    def engine_options(self, options: dict) -> dict:
        out = {}
        if options.get("stake") is not None:
            out["stake"] = int(options["stake"])
        if options.get("turns"):
            out["max_turns"] = int(options["turns"])
        return out

    def hands_to_send(self, game: Any, events: list[Any], started: bool) -> list[str]:
        # Only the first hand goes by DM: the hand changes every turn, and a DM per turn would spend Discord's
        # budget on what the answer to each move, the "My hand" button and /hand already show.
        return list(game.public_view().players) if started else []

    def timeout_actions(self, game: Any, player: str) -> Iterator[Any]:
        # Forced aces first, then the end of the turn: apply the default until the turn passes.
        for _ in range(16):
            if game.is_over or game.current_player != player:
                return
            action = game.default_action()
            if action is None:
                return
            yield action

    def build_action(self, game: Any, command: str, params: dict, player: str) -> Any:
        module = engine(self.kind)
        if command == "end":
            return module.parse_action({"kind": "end_turn"})
        if command != "play":
            raise NotAllowed(f"Unknown Malice action {command}.")
        raw = str(params.get("card") or "").strip().lower()
        to = str(params.get("to") or "").strip().lower().replace(" ", "").replace("center", "centre")
        if to not in (*CENTRE, *SIDES, "centre"):
            raise NotAllowed("Say where the card goes: centre, centre1-centre4 or side1-side4.")
        if raw in ("payoff", *SIDES):
            source, card = raw, None
        else:
            source, card = "hand", _card(raw)
        # The matching legal move, if any, fills in what the player need not say (which centre stack, the
        # rank a joker takes); the engine still validates everything and words any refusal.
        for action in game.legal_actions() if game.current_player == player else []:
            if action.kind != "play" or action.source != source:
                continue
            if card is not None and action.card is not card:
                continue
            if action.to == to or (to == "centre" and action.to in CENTRE):
                return action
        if to == "centre":
            what = card.pretty if card is not None else f"the top of your {raw}"
            raise NotAllowed(f"{what} cannot go on any centre stack now.")
        return module.parse_action({"kind": "play", "source": source, "card": card, "to": to})


RULES: dict[str, KindRules] = {"insomnia": InsomniaRules(), "malice": MaliceRules()}
