"""How a game looks and reads, as data: `GamePresentation`, one per game, made from the game's presentation
folder (`bot/render/<game>/`, beside its rules in `bot/games/<game>/`) by `folder(...)`: the one convention
every game's folder follows, so no game repeats the list of its parts (a game in one module, as the tests' toy
game, writes its `GamePresentation` itself).

A `GamePresentation` is typed by the game's own classes (state, public view, player view, event union, action
union), and so are its parts: the text renderer, the pictures, the terminal moves and the simulator figures.
The registry (`bot.render.registry`) holds what `erased()` makes of it: a `Presentation` whose parts take any
`GameState`, view, event or action and check at the seam that it is this game's, before handing it on typed.
That check is the only place the game-specific types meet the generic ones; nothing above it needs an `Any`.
"""

from __future__ import annotations

import importlib
import importlib.util
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar, Union, cast, get_args, get_origin

from bot.games.base import GameAction, GameEvent, GameState, GameView, HandView
from bot.i18n.rules import RulesLayout
from bot.render.commands import CommandSet
from bot.render.common import LogGroup, Message, TableInfo
from bot.render.figures import Figures
from bot.render.moves import TypedMoves
from bot.render.protocol import Pictures, Renderer

if TYPE_CHECKING:
    from PIL import Image

G = TypeVar("G", bound=GameState)
V = TypeVar("V", bound=GameView)
P = TypeVar("P", bound=HandView)
E = TypeVar("E")
A = TypeVar("A")
T = TypeVar("T")

ErasedRenderer = Renderer[GameState, GameView, GameEvent, GameAction]
ErasedPictures = Pictures[GameView, HandView, GameAction]


def members(union: object) -> tuple[type, ...]:
    """The classes of a union type (`Annotated` and nested unions allowed): what an event or an action of
    the game may be an instance of."""
    origin = get_origin(union)
    if origin is Annotated:
        return members(get_args(union)[0])
    if origin is Union or origin is types.UnionType:
        return tuple(cls for arg in get_args(union) for cls in members(arg))
    if isinstance(union, type):
        return (union,)
    raise TypeError(f"not a class or a union of classes: {union!r}")


@dataclass(frozen=True)
class Presentation:
    """A game's presentation as the layers above read it (what the registry holds): every part takes the
    generic seam types and checks they are this game's."""

    kind: str
    renderer: ErasedRenderer
    pictures: ErasedPictures | None = None  # its table and hand pictures (None: text only)
    commands: CommandSet | None = None  # its `/<kind>` command group (None: no commands)
    moves: TypedMoves[GameState, GameAction] | None = None  # terminal typing (None: chosen by number)
    figures: Figures[GameState, GameEvent] | None = None  # the simulator's figures (None: the common ones)
    rules: RulesLayout | None = None  # its /rules summary (None: the game has none)


@dataclass(frozen=True)
class GamePresentation(Generic[G, V, P, E, A]):
    """One game's presentation, typed by its engine's classes. `events` and `actions` are the engine's unions
    (`Event`, `Action`): their members are what the seam accepts."""

    kind: str  # the game's name in the rules registry
    game: type[G]
    view: type[V]
    player_view: type[P]
    events: object
    actions: object
    renderer: Renderer[G, V, E, A]
    pictures: Pictures[V, P, A] | None = None
    commands: CommandSet | None = None
    moves: TypedMoves[G, A] | None = None
    figures: Figures[G, E] | None = None
    rules: RulesLayout | None = None

    def erased(self) -> Presentation:
        """This presentation for the registry: its parts behind the checks of the seam."""
        moves = self.moves
        figures = self.figures
        return Presentation(
            kind=self.kind,
            renderer=_Renderer(self),
            pictures=None if self.pictures is None else _Pictures(self, self.pictures),
            commands=self.commands,
            moves=None
            if moves is None
            else TypedMoves(
                command=lambda action, locale: moves.command(self.action(action), locale),
                describe=lambda action, game, locale: moves.describe(
                    self.action(action), self.own(game), locale
                ),
                amount=lambda action: moves.amount(self.action(action)),
                synonyms=lambda game, locale: moves.synonyms(self.own(game), locale),
            ),
            figures=None
            if figures is None
            else Figures(
                unit=figures.unit,
                per=figures.per,
                draws=figures.draws,
                count=lambda game, events: figures.count(self.own(game), self.events_of(events)),
                lines=figures.lines,
            ),
            rules=self.rules,
        )

    # --- the checks of the seam ----------------------------------------------------------------------

    @cached_property
    def _event_classes(self) -> tuple[type, ...]:
        return members(self.events)

    @cached_property
    def _action_classes(self) -> tuple[type, ...]:
        return members(self.actions)

    def _refuse(self, what: object) -> TypeError:
        return TypeError(f"{self.kind} cannot show a {type(what).__name__}")

    def own(self, game: GameState) -> G:
        if isinstance(game, self.game):
            return game
        raise self._refuse(game)

    def public(self, view: GameView) -> V:
        if isinstance(view, self.view):
            return view
        raise self._refuse(view)

    def private(self, view: HandView) -> P:
        if isinstance(view, self.player_view):
            return view
        raise self._refuse(view)

    def events_of(self, events: Sequence[GameEvent]) -> list[E]:
        for event in events:
            if not isinstance(event, self._event_classes):
                raise self._refuse(event)
        return cast(list[E], list(events))  # each is a member of the union E, checked above

    def action(self, action: GameAction) -> A:
        if not isinstance(action, self._action_classes):
            raise self._refuse(action)
        return cast(A, action)  # a member of the union A, checked above


class _Renderer(Generic[G, V, P, E, A]):
    """A game's text renderer behind the seam's checks (an `ErasedRenderer`)."""

    def __init__(self, typed: GamePresentation[G, V, P, E, A]) -> None:
        self._typed = typed
        self._text = typed.renderer

    def __getattr__(self, name: str) -> object:
        # What a game's text module offers beyond the protocol (a game without translations may give its own
        # sentences, e.g. `timeout_text`), read by name as before.
        return getattr(self._text, name)

    def lobby(self, info: TableInfo, *, locale: object = "en") -> Message:
        return self._text.lobby(info, locale=locale)

    def table(self, info: TableInfo, game: GameState, note: str | None, *, locale: object = "en") -> Message:
        return self._text.table(info, self._typed.own(game), note, locale=locale)

    def log_entries(
        self, info: TableInfo, view: GameView, events: Sequence[GameEvent], *, locale: object = "en"
    ) -> list[LogGroup | str]:
        typed = self._typed
        return self._text.log_entries(info, typed.public(view), typed.events_of(events), locale=locale)

    def state_group(self, view: GameView, *, locale: object = "en") -> LogGroup | None:
        return self._text.state_group(self._typed.public(view), locale=locale)

    def result_lines(self, info: TableInfo, view: GameView, *, locale: object = "en") -> list[str]:
        return self._text.result_lines(info, self._typed.public(view), locale=locale)

    def hand(
        self, info: TableInfo, game: GameState, player: str, *, dm: bool, locale: object = "en"
    ) -> Message:
        return self._text.hand(info, self._typed.own(game), player, dm=dm, locale=locale)

    def turn_hint(self, game: GameState, player: str, *, locale: object = "en") -> str:
        return self._text.turn_hint(self._typed.own(game), player, locale=locale)

    def token(self, action: GameAction) -> str:
        return self._text.token(self._typed.action(action))

    def parse_token(self, text: str) -> dict[str, object] | None:
        return self._text.parse_token(text)

    def choices(
        self,
        game: GameState,
        player: str,
        command: str,
        option: str,
        namespace: Mapping[str, object],
        *,
        locale: object = "en",
    ) -> list[tuple[str, str]]:
        return self._text.choices(self._typed.own(game), player, command, option, namespace, locale=locale)

    def action_text(self, action: GameAction, *, hide: bool, locale: object = "en") -> str:
        return self._text.action_text(self._typed.action(action), hide=hide, locale=locale)


class _Pictures(Generic[G, V, P, E, A]):
    """A game's pictures behind the seam's checks (an `ErasedPictures`)."""

    def __init__(self, typed: GamePresentation[G, V, P, E, A], pictures: Pictures[V, P, A]) -> None:
        self._typed = typed
        self._pictures = pictures

    def table(
        self, info: TableInfo, view: GameView, names: Mapping[str, str] | None, *, locale: object = "en"
    ) -> tuple[Image.Image, str]:
        return self._pictures.table(info, self._typed.public(view), names, locale=locale)

    def hand(
        self,
        info: TableInfo,
        view: HandView,
        legal: list[GameAction],
        names: Mapping[str, str] | None,
        *,
        locale: object = "en",
    ) -> tuple[Image.Image, str]:
        typed = self._typed
        own = [typed.action(a) for a in legal]
        return self._pictures.hand(info, typed.private(view), own, names, locale=locale)


# ---- a game's presentation from its folder

# The folder's parts, by the one convention: its text (required: how the game reads) and, each where the game
# has it, its pictures module and the constants of its commands, terminal moves, simulator figures and /rules
# layout.
TEXT, PICTURES = "text", "pictures"
# Each constant is named as its module, in capitals (`commands.COMMANDS`).
CONSTANTS: tuple[tuple[str, type], ...] = (
    ("commands", CommandSet),
    ("moves", TypedMoves),
    ("figures", Figures),
    ("rules", RulesLayout),
)


def folder(
    kind: str,
    game: type[G],
    view: type[V],
    player_view: type[P],
    events: object,
    actions: object,
    *,
    package: str | None = None,
) -> Presentation:
    """The presentation of game `kind` from its folder `bot/render/<kind>/`: its `text` module (a `Renderer`
    of the engine's classes given here), its `pictures` module (a `Pictures`), and the `COMMANDS`,
    `MOVES`, `FIGURES` and `RULES` of its `commands`, `moves`, `figures` and `rules` modules, each part
    optional but the text. Each is checked as it loads (a module offers every function of its protocol, a
    constant is of its class), so a game missing a part's function fails at start-up, not at a click; the
    seam then checks every state, view, event and action handed over (`GamePresentation.erased`).
    `package`: another folder than `bot/render/<kind>/` (a test's)."""
    package = package or f"{__package__}.{kind}"
    text = _module(package, TEXT, Renderer, required=True)
    found: dict[str, Any] = {}
    for module, cls in CONSTANTS:
        constant = module.upper()
        loaded = _module(package, module)
        value = getattr(loaded, constant, None) if loaded is not None else None
        if loaded is not None and not isinstance(value, cls):
            raise TypeError(f"{package}.{module}.{constant} is not a {cls.__name__}")
        found[module] = value
    return GamePresentation(
        kind=kind,
        game=game,
        view=view,
        player_view=player_view,
        events=events,
        actions=actions,
        renderer=text,
        pictures=_module(package, PICTURES, Pictures),
        **found,
    ).erased()


def _module(package: str, name: str, protocol: type | None = None, *, required: bool = False) -> Any:
    """The folder's module `name` (None when the game has none), checked against its protocol."""
    if importlib.util.find_spec(f"{package}.{name}") is None:
        if required:
            raise TypeError(f"{package} has no {name} module")
        return None
    module = importlib.import_module(f"{package}.{name}")
    if protocol is not None:
        offered = [f for f in vars(protocol) if not f.startswith("_")]
        missing = [f for f in offered if not callable(getattr(module, f, None))]
        if missing:
            raise TypeError(f"{package}.{name} lacks {', '.join(missing)} of {protocol.__name__}")
    return module
