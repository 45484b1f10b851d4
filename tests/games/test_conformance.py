"""The engine contract (docs/design.md section 1), checked for every game in the registry, the same way.

Each test runs once per registered game, plus once for `highcard`, a game that exists only in the tests and
is registered by the `spec` fixture for the duration of a test: the suite itself proves that a new game needs
nothing but its module and one registration to be held to the same contract. The playouts run every game at
its standard rules and at every house rule of its options model (docs/rules.md section 3): each choice at each
of its other values, each number at its limits (the `table` fixture).

The playouts mix three kinds of moves, drawn from a seeded generator so every run plays the same games: the
game's computer player (sensible play reaches the later stages of a game), its default action (what a timeout
plays) and a uniformly random legal action (the odd moves nobody would make).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from annotated_types import Ge, Le
from pydantic import ValidationError

import bot.games
from bot.games import ai
from bot.games.base import POT, ChipTransfer, GameAction, GameState, IllegalAction
from bot.games.refusal import Refusal
from bot.games.registry import REGISTRY, GameSpec, TableOptions, UnknownGame
from bot.games.spec import house_rules, option_choices, option_range
from bot.render.wording import refusal_text
from tests.engines import engine
from tests.games import highcard
from tests.games.hidden import TWINS, Twin

GAMES = [*REGISTRY.names(), highcard.SPEC.name]
# Table options for the playouts: short real games (a deal or turn cap is a rule of the game itself); the test
# game plays long enough for its swaps to run out.
PLAYOUT_OPTIONS = {"insomnia": {"deals": 2}, "malice": {"turns": 60}, "highcard": {"chips": 10, "rounds": 20}}
# What a house rule needs beside it to show in a short game: players going out need few chips and more deals.
HOUSE_PLAYOUTS = {("insomnia", "bust", "out"): {"chips": 3, "deals": 6}}
MAX_STEPS = 3000
# The names each engine module exports alike (outside code and the spec rely on them).
COMMON_NAMES = (
    "Game",
    "Options",
    "Action",
    "Event",
    "PublicView",
    "PlayerView",
    "EndGame",
    "GameOver",
    "new_game",
    "parse_action",
)


@pytest.fixture(params=GAMES)
def spec(request: pytest.FixtureRequest) -> Iterator[GameSpec]:
    name = request.param
    if name in REGISTRY:
        yield REGISTRY[name]
    else:
        with REGISTRY.registered(highcard.SPEC) as registered:
            yield registered
        assert name not in REGISTRY, "the test game must leave the registry as it found it"


def house_variants(spec: GameSpec) -> list[dict[str, object]]:
    """The playout options of each house rule of the game away from its default: a choice at each other value,
    a number at each limit (the standard rules are the playouts' own options)."""
    variants: list[dict[str, object]] = []
    for name in house_rules(spec.options):
        default = spec.options.model_fields[name].default
        values: tuple[object, ...] = option_choices(spec.options, name)[1:] or option_range(
            spec.options, name
        )
        for value in values:
            if value != default:
                extra = HOUSE_PLAYOUTS.get((spec.name, name, str(value)), {})
                variants.append({**PLAYOUT_OPTIONS.get(spec.name, {}), **extra, name: value})
    return variants


def _spec_of(name: str) -> GameSpec:
    specs = {spec.name: spec for spec in (*REGISTRY, highcard.SPEC)}
    return specs[name]


TABLES = [
    (name, options)
    for name in GAMES
    for options in [dict(PLAYOUT_OPTIONS.get(name, {})), *house_variants(_spec_of(name))]
]


def _table_id(case: tuple[str, dict[str, object]]) -> str:
    name, options = case
    rules = [f"{k}={v}" for k, v in options.items() if PLAYOUT_OPTIONS.get(name, {}).get(k) != v]
    return "-".join([name, *rules]) if rules else f"{name}-standard"


@pytest.fixture(params=TABLES, ids=_table_id)
def table(request: pytest.FixtureRequest) -> Iterator[tuple[GameSpec, dict[str, object]]]:
    """A game and the options of one playout table: its standard rules, or one house rule chosen."""
    name, options = request.param
    if name in REGISTRY:
        yield REGISTRY[name], dict(options)
    else:
        with REGISTRY.registered(highcard.SPEC) as registered:
            yield registered, dict(options)
        assert name not in REGISTRY, "the test game must leave the registry as it found it"


SEEDS = [f"seed{i}" for i in range(6)]


def seatings(spec: GameSpec) -> list[list[str]]:
    """The smallest, a middle and the largest table."""
    sizes = sorted({spec.min_players, (spec.min_players + spec.max_players) // 2, spec.max_players})
    return [[f"{n}{i}" for i in range(n)] for n in sizes]


def short(spec: GameSpec) -> dict[str, object]:
    return dict(PLAYOUT_OPTIONS.get(spec.name, {}))


def test_every_house_rule_is_played_by_the_suite():
    """Each game's house rules are found in its options model and each has a playout of its own."""
    assert house_rules(REGISTRY["insomnia"].options) == ("sevens", "bust", "stage4")
    assert house_rules(REGISTRY["malice"].options) == ("stake", "turns", "discard")
    played = {
        (name, key)
        for name, options in TABLES
        for key in options
        if PLAYOUT_OPTIONS.get(name, {}).get(key) != options[key]
    }
    rules = {(name, rule) for name in REGISTRY.names() for rule in house_rules(REGISTRY[name].options)}
    assert played >= rules


def next_action(spec: GameSpec, game: GameState, rng: random.Random, step: int) -> GameAction:
    """Half the time the computer's move, else the default action or a random legal one."""
    player, draw = game.current_player, rng.random()
    assert player is not None
    if draw < 0.5:
        return spec.choose_action(game, player, f"playout/{step}")
    default = game.default_action()
    if draw < 0.7 and default is not None:
        return default
    return rng.choice(list(game.legal_actions()))


def playout(
    spec: GameSpec, players: list[str], seed: str, options: dict[str, object] | None = None
) -> Iterator[tuple[GameState, GameAction]]:
    """A seeded game: yields (the game before the action, the action), then applies the action."""
    game = spec.new_game(players, seed, short(spec) if options is None else options)
    rng = random.Random(f"playout/{seed}")
    for step in range(MAX_STEPS):
        if game.is_over:
            return
        action = next_action(spec, game, rng, step)
        yield game, action
        game.apply(action)
    raise AssertionError(f"{spec.name}: a game did not end within {MAX_STEPS} actions")


def is_sentence(message: str) -> bool:
    return bool(message.strip()) and message.strip()[0].isupper() and message.rstrip().endswith(".")


def reads_as_sentences(refusal: BaseException) -> bool:
    """A refusal as its readers get it: one sentence in English and one in German."""
    assert isinstance(refusal, Refusal), refusal
    return all(is_sentence(refusal_text(refusal, lang)) for lang in ("en", "de"))


# --- the spec describes the game ------------------------------------------------------------------------


def test_the_spec_and_the_engine_module_describe_the_same_game(spec):
    module = highcard if spec.name == highcard.SPEC.name else engine(spec.name)  # the test game: one module
    assert spec.name in bot.games.GAME_KINDS
    assert [name for name in COMMON_NAMES if not hasattr(module, name)] == []
    assert spec.game is module.Game and spec.options is module.Options
    assert issubclass(spec.options, TableOptions) and "timeout" in spec.options.model_fields
    assert spec.table in ("lobby", "challenge") and 1 <= spec.min_players <= spec.max_players
    assert spec.make_options() == spec.options()  # every option has a default
    unset = dict.fromkeys(spec.options.model_fields)
    assert spec.make_options(unset) == spec.options()  # a command's unset options take their defaults


def test_player_counts_outside_the_spec_are_refused(spec):
    for players in seatings(spec):
        game = spec.new_game(players, "seats")
        assert list(game.players) == players and game.current_player in players
    for count in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ValueError, match=r"\.$"):
            spec.new_game([f"p{i}" for i in range(count)], "seats")


def test_options_outside_their_limits_are_refused(spec):
    checked = 0
    for name, field in spec.options.model_fields.items():
        for limit in field.metadata:
            if isinstance(limit, Ge):
                bad = limit.ge - 1
            elif isinstance(limit, Le):
                bad = limit.le + 1
            else:
                continue
            with pytest.raises(ValidationError):
                spec.make_options({name: bad})
            checked += 1
    assert checked >= 2  # at least the shared timeout's two limits
    for name in spec.options.model_fields:
        for value in option_choices(spec.options, name):
            assert getattr(spec.make_options({name: value}), name) == value
        if option_choices(spec.options, name):
            with pytest.raises(ValidationError):
                spec.make_options({name: "no-such-rule"})
    with pytest.raises(ValidationError):
        spec.make_options({"no_such_option": 1})


# --- random playouts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_games_end_and_keep_the_contract_at_every_step(table, seed):
    spec, options = table
    for players in seatings(spec):
        game = spec.new_game(players, seed, options)
        net = Counter[str]()
        for event in game.opening_events:
            assert event.kind and event.model_dump_json()
        rng = random.Random(f"playout/{seed}")
        for step in range(MAX_STEPS):
            if game.is_over:
                break
            legal = list(game.legal_actions())
            assert game.current_player in players and legal, "a running game always has a decision"
            assert len({a.model_dump_json() for a in legal}) == len(legal), "each legal action once"
            assert all(spec.parse_action(a.model_dump_json()) == a for a in legal)
            assert game.default_action() in legal
            text = game.model_dump_json()
            assert spec.load(text).model_dump_json() == text, "a JSON round trip changes nothing"
            action = next_action(spec, game, rng, step)
            assert action in legal
            for event in game.apply(action):
                assert event.kind and event.model_dump_json()
                if isinstance(event, ChipTransfer):
                    assert {event.from_account, event.to_account} <= {*players, POT}
                    net[event.from_account] -= event.amount
                    net[event.to_account] += event.amount
        assert game.is_over, f"a game of {spec.name} did not end within {MAX_STEPS} actions"
        assert game.current_player is None and not game.legal_actions() and game.default_action() is None
        standings = game.standings()
        assert sorted(s.player for s in standings) == sorted(players)
        assert [s.placement for s in standings] == sorted(s.placement for s in standings)
        assert standings[0].placement == 1
        # Every chip the game moved is in its events: the transfers add up to each player's result.
        assert {s.player: s.net for s in standings} == {p: net[p] for p in players}
        assert spec.load(game.model_dump_json()).model_dump_json() == game.model_dump_json()


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_the_same_seed_and_actions_give_the_same_game_byte_for_byte(table, seed):
    spec, options = table
    players = seatings(spec)[-1]
    steps: list[str] = []
    actions: list[str] = []
    for game, action in playout(spec, players, seed, options):
        steps.append(game.model_dump_json())
        actions.append(action.model_dump_json())
    again = spec.new_game(players, seed, options)
    for before, action in zip(steps, actions, strict=True):
        assert again.model_dump_json() == before
        again.apply(spec.parse_action(action))
    replayed = spec.replay(players, seed, options, actions)
    assert replayed.model_dump_json() == again.model_dump_json()
    other = spec.new_game(players, "another seed", options)
    assert other.model_dump_json() != spec.new_game(players, seed, options).model_dump_json()


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_a_game_loaded_from_its_json_goes_on_exactly_like_the_original(table, seed):
    spec, options = table
    players = seatings(spec)[0]
    for step, (game, action) in enumerate(playout(spec, players, seed, options)):
        if step % 3:
            continue
        copy = spec.load(game.model_dump_json())
        # The original applies the action after this step; the copy applies it now: same events, same state.
        events = [e.model_dump_json() for e in copy.apply(action)]
        original = spec.load(game.model_dump_json())
        assert [e.model_dump_json() for e in original.apply(action)] == events
        assert copy.model_dump_json() == original.model_dump_json()


# --- hidden cards ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_no_view_shows_a_card_its_viewer_may_not_see(table, seed):
    """Each viewer's view, and the public view, look the same in a twin game whose hidden cards have all moved
    (tests/games/hidden.py): nothing in them depends on a hidden card."""
    spec, options = table
    twin_of = TWINS.get(spec.name)
    assert twin_of is not None, f"tests/games/hidden.py must name the hidden places of {spec.name}"
    moved = 0
    for players in seatings(spec):
        moved += _twins_look_the_same(twin_of, spec, players, seed, options)
    assert moved, "the twins never differed from the game: the hidden places were empty"


def _twins_look_the_same(
    twin_of: Twin, spec: GameSpec, players: list[str], seed: str, options: dict[str, object]
) -> int:
    moved = 0
    for game, _action in playout(spec, players, seed, options):
        spectators = twin_of(game, None)
        assert spectators.public_view().model_dump_json() == game.public_view().model_dump_json()
        for viewer in players:
            twin = twin_of(game, viewer)
            moved += twin.model_dump_json() != game.model_dump_json()
            assert twin.view(viewer).model_dump_json() == game.view(viewer).model_dump_json(), viewer
            assert twin.public_view().model_dump_json() == game.public_view().model_dump_json()
            if viewer == game.current_player:
                assert twin.legal_actions() == game.legal_actions()
    return moved


def test_each_view_shows_its_player_his_own_hand(spec):
    for game, _action in playout(spec, seatings(spec)[0], SEEDS[0]):
        for player in game.players:
            view = game.view(player)
            assert view.player == player and view.players == list(game.players)
            assert view.current_player == game.current_player and view.is_over == game.is_over
        break


# --- refusals -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_every_refusal_is_an_illegal_action_worded_as_a_sentence(table, seed):
    spec, options = table
    seen: dict[str, GameAction] = {}
    refused = step = 0
    game = None
    for step, (game, _action) in enumerate(playout(spec, seatings(spec)[-1], seed, options)):
        legal = {a.model_dump_json() for a in game.legal_actions()}
        for action in game.legal_actions():
            seen.setdefault(action.model_dump_json(), action)
        # Actions legal at other moments, but not now, must be refused (sampled: a copy per try costs).
        others = [a for text, a in seen.items() if text not in legal]
        for action in random.Random(step).sample(others, min(3, len(others))):
            with pytest.raises(IllegalAction) as refusal:
                spec.load(game.model_dump_json()).apply(action)
            assert reads_as_sentences(refusal.value), refusal.value
            refused += 1
        if step % 25 == 0:
            for junk in ({"kind": "no_such_action"}, "not json", {}, b"[1, 2]"):
                with pytest.raises(IllegalAction) as refusal:
                    spec.load(game.model_dump_json()).apply(junk)
                assert reads_as_sentences(refusal.value), refusal.value
    assert game is not None and game.is_over
    assert refused > 0 or step < 10, "a game of some length always meets actions legal only at other moments"
    for action in seen.values():
        with pytest.raises(IllegalAction) as refusal:
            game.apply(action)
        assert reads_as_sentences(refusal.value), refusal.value


# --- computer players -----------------------------------------------------------------------------------


def test_computer_players_finish_a_game_with_legal_moves_only(table):
    spec, options = table
    players = seatings(spec)[0]
    game = spec.new_game(players, "computers", options)
    for step in range(MAX_STEPS):
        if game.is_over:
            break
        player = game.current_player
        assert player is not None
        action = ai.choose_action(game, player, f"computer/{step}")  # found through the registry
        assert action in game.legal_actions()
        assert action == spec.choose_action(game, player, f"computer/{step}"), "the same seed, the same move"
        game.apply(action)
    assert game.is_over
    with pytest.raises(ValueError, match="over"):
        spec.choose_action(game, players[0], "late")


# --- the registry ---------------------------------------------------------------------------------------


def test_a_game_registers_once_and_unregisters_without_a_trace():
    assert "highcard" not in REGISTRY and "highcard" not in bot.games.GAME_KINDS
    with REGISTRY.registered(highcard.SPEC):
        assert REGISTRY["highcard"] is highcard.SPEC
        game = highcard.SPEC.new_game(["a", "b"], "registry")
        assert REGISTRY.spec_of(game) is highcard.SPEC
        with pytest.raises(ValueError, match="already registered"):
            REGISTRY.register(highcard.SPEC)
    assert "highcard" not in REGISTRY and REGISTRY.names() == ("insomnia", "malice")
    with pytest.raises(UnknownGame):
        REGISTRY["highcard"]
    with pytest.raises(TypeError):
        ai.choose_action(game, "a", "unregistered")
