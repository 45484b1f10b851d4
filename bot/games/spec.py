"""What a game is, as rules facts: `GameSpec`, one per game, written in the game's own folder
(`bot/games/<game>/spec.py`).

The layers above read the registry (`bot.games.registry.REGISTRY`) instead of naming games: how many seats,
how a table fills, which options a table takes and within which limits, how a game starts, loads from its
JSON, parses an action from the log, what a computer seat plays and how its table behaves around the moves
(`SessionRules`). How a game looks and reads (text, pictures, commands, `/rules`) is its presentation, a
second registry above this one (`bot.render.registry`); nothing here knows of it: `bot.games` is rules alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from bot.games.base import ActionInput, GameAction, GameState
from bot.games.chance import Chance
from bot.games.seats import SessionRules

TableStyle = Literal["lobby", "challenge"]
"""How a table fills: an open lobby people join until the host starts, or a challenge one opponent answers."""


class TableOptions(BaseModel):
    """The options every table has, whatever the game; each game's options model extends this one.

    The limits are the ones commands offer and settings are checked against; the field descriptions are what a
    command shows for its option. A missing option takes its default here, so stored options stay short."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timeout: int | None = Field(
        default=None,
        ge=10,
        le=86400,
        description=(
            "seconds per decision before the safe default is played (default from the bot's settings)"
        ),
    )
    pictures: bool | None = Field(
        default=None, description="pictures of the table and of your hand (default: yes; no: text only)"
    )


HOUSE_RULE: dict[str, JsonValue] = {"house_rule": True}
"""The `json_schema_extra` of an option that is a house rule (docs/rules.md section 3): a table may choose it
instead of the standard rule, which is always its default."""


def house_rules(model: type[TableOptions]) -> tuple[str, ...]:
    """The options of this model that are house rules, in the model's order."""
    return tuple(
        name
        for name, field in model.model_fields.items()
        if isinstance(field.json_schema_extra, dict) and field.json_schema_extra.get("house_rule")
    )


def option_choices(model: type[TableOptions], name: str) -> tuple[str, ...]:
    """The values a choice option takes (a `Literal` of words), the default first; () for any other option."""
    field = model.model_fields[name]
    if get_origin(field.annotation) is not Literal:
        return ()
    values = tuple(str(v) for v in get_args(field.annotation))
    return (str(field.default), *(v for v in values if v != field.default))


Start = Callable[[list[str], str, TableOptions, Chance | None], GameState]
"""`(players, seed, options, chance) -> game`: the options are already validated by the spec's model."""

Computer = Callable[[GameState, str, random.Random], GameAction]
"""`(game, player, rng) -> action`: a computer seat's choice; the spec checks it is legal."""


def option_range(model: type[TableOptions], name: str) -> tuple[int, int]:
    """The smallest and largest value a table accepts for an integer option (its field's `ge` and `le`)."""
    low = high = None
    for rule in model.model_fields[name].metadata:
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    if low is None or high is None:
        raise ValueError(f"{model.__name__}.{name} has no range")
    return int(low), int(high)


def computer_rng(seed: str, player: str) -> random.Random:
    """The computer's own generator for one decision, never the game's chance: the same game, player and
    seed always give the same action. A str seed hashes through SHA-512, the same on every platform."""
    return random.Random(f"ai/{seed}/{player}")


@dataclass(frozen=True)
class GameSpec:
    """One game's rules, described once. Build one in `bot/games/<name>/spec.py` and add one line to the
    registry; its presentation is described beside it in `bot/render/<name>/` (`bot.render.registry`)."""

    name: str  # the kind stored with a table and used in commands: lowercase, no spaces
    title: str  # how players read its name
    min_players: int
    max_players: int
    table: TableStyle
    options: type[TableOptions]  # the game's options model (its fields and limits)
    game: type[GameState]  # the game state class (a pydantic model: `model_validate_json` loads it)
    start: Start
    parse_action: Callable[[ActionInput], GameAction]  # raises pydantic's ValidationError when malformed
    computer: Computer
    session: SessionRules = field(default_factory=SessionRules)  # DMs, timeouts, a seat given up

    def __post_init__(self) -> None:
        if not self.name or not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"a game's name must be a lowercase identifier, not {self.name!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.name}: the player range {self.min_players}-{self.max_players} is empty")
        if not issubclass(self.options, TableOptions):
            raise TypeError(f"{self.name}: the options model must extend TableOptions")

    # --- starting, loading, replaying ----------------------------------------------------------------

    def make_options(self, options: TableOptions | Mapping[str, object] | None = None) -> TableOptions:
        """The table's options, checked against the game's model (pydantic's ValidationError if not valid).
        An option given as None counts as not given: it takes its default (a command's unset option)."""
        if isinstance(options, self.options):
            return options
        data = options.model_dump() if isinstance(options, BaseModel) else dict(options or {})
        return self.options.model_validate({k: v for k, v in data.items() if v is not None})

    def new_game(
        self,
        players: Sequence[str],
        seed: str,
        options: TableOptions | Mapping[str, object] | None = None,
        *,
        chance: Chance | None = None,
    ) -> GameState:
        """A new game for `players` in seat order; `options` are table options (e.g. `{"chips": 20}`)."""
        if not self.min_players <= len(players) <= self.max_players:
            seats = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise ValueError(f"{self.title} is for {seats} players.")
        return self.start(list(players), seed, self.make_options(options), chance)

    def load(self, data: str | bytes) -> GameState:
        """A game from its JSON (`model_dump_json()`), exactly as it was."""
        return self.game.model_validate_json(data)

    def replay(
        self,
        players: Sequence[str],
        seed: str,
        options: TableOptions | Mapping[str, object] | None,
        actions: Iterable[ActionInput],
    ) -> GameState:
        """The game rebuilt from its seed, its table options and its action log (IllegalAction if the log
        does not fit the rules)."""
        game = self.new_game(players, seed, options)
        for action in actions:
            game.apply(self.parse_action(action))
        return game

    def owns(self, game: object) -> bool:
        """Whether `game` is a game of this kind."""
        return type(game) is self.game

    # --- computer seats ------------------------------------------------------------------------------

    def choose_action(self, game: GameState, player: str, seed: str) -> GameAction:
        """The computer player's next action for `player`, who must be the current player: one of
        `game.legal_actions()`. The same state, player and seed always give the same action."""
        legal = self._legal_for(game, player)
        action = self.computer(game, player, computer_rng(seed, player))
        if action in legal:
            return action
        # A strategy bug must never become an illegal move in a live game: fall back to the safe default.
        default = game.default_action()
        return default if default is not None else legal[0]

    def random_action(self, game: GameState, player: str, seed: str) -> GameAction:
        """A uniformly random legal action: the baseline opponent of the strength benchmark."""
        return computer_rng(seed, player).choice(self._legal_for(game, player))

    def _legal_for(self, game: GameState, player: str) -> Sequence[GameAction]:
        if not self.owns(game):
            raise TypeError(f"{type(game).__name__} is not a game of {self.name}")
        if game.is_over:
            raise ValueError("The game is over: there is no action to choose.")
        if game.current_player != player:
            raise ValueError(f"It is not {player}'s turn.")
        return game.legal_actions()
