"""Nothing hidden reaches a public surface, not even by inference (issue 37).

For random reachable states of both games, in every phase (random legal moves from random seeds, options and
house rules, through `legal_actions()` and `apply()`, and the system actions a session applies: a
resignation, a /cancel), the hidden cards are re-dealt at random in a way that fits everything public
(`tests.games.hidden.redeal`: hands, stock, discards, buried payoff cards), and every public payload must stay
byte for byte the same, each made by the real code that makes it:

- the table message as the Discord renderer sends it (`Drawing.drawn`, then `discord_kwargs`: content, embeds,
  components, the attached picture's bytes; once the game is over, the picture is its result card);
- the web's live page of the table (`bot.web.shown.table_view` and its picture, `bot.web.html.view_html`);
- a spectator's Activity data (`Activity.shown` for a reader without a seat);
- the replay viewer at the state's step and at an earlier one (`bot.sessions.replay.step_message`).

A public payload that changes with the re-deal tells something about a hidden card. Each seat's own view may
show his hand (and the mover's hint may speak of it), so for each seated person the cards hidden from *him*
are re-dealt, and his Activity data, his composed view and his hand message must stay the same.

CI runs `EXAMPLES` states per game (hypothesis, derandomized: the same states every run); more by hand with
`HIDDEN_INFO_EXAMPLES=20000 python -m pytest tests/test_hidden_information.py`. A run must reach every phase
of each game (`PHASES`), and Malice's state where an ace in the mover's hand and a free centre slot once
leaked into the public turn line.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import render
from bot.discord_out import discord_kwargs
from bot.games.base import GameAction, GameState, seed_commitment
from bot.games.cards import Rank
from bot.games.registry import REGISTRY
from bot.i18n import t
from bot.render import common, drawings
from bot.render.common import Message, Picture
from bot.render.compose import compose
from bot.render.pictures.canvas import PictureCache
from bot.sessions.display import Display
from bot.sessions.drawing import Drawing, Job
from bot.sessions.kinds import game_options
from bot.sessions.links import Pages
from bot.sessions.records import MoveFacts, SessionState, TableRecord
from bot.sessions.replay import Replayed, step_message
from bot.sessions.resume import replay_facts
from bot.sessions.view import table_info
from bot.web import html
from bot.web.activity import Activity
from bot.web.feed import Watched
from bot.web.shown import table_picture, table_view
from storage.models import ActionRow, RatingChange
from tests.games.hidden import redeal

EXAMPLES = int(os.environ.get("HIDDEN_INFO_EXAMPLES", "2000"))
DEADLINE = 1_900_000_000.0
SPECTATOR = "999"
NAMES = {"101": "Anna", "202": "Jörg Weißmüller", "303": "Zoë 🎲", "404": "Bob", "505": "Chloé"}
# The newest steps a record carries here (the bot's records carry `MOVES_KEPT`): enough for the table
# message's log, which has shown all but the last `Plan.shown` of them, and fewer lines to word per state.
KEPT = 6
DRAW_EVERY = 8  # every 8th state's pictures are drawn (PNG bytes and alt text, no cache); the others' records


class DrawingRecords(PictureCache):
    """The pictures' cache, put in place of `bot.render.drawings.CACHE` for a state whose pictures are not
    drawn: its key is the JSON of exactly what a picture is drawn from (the public view or the standings,
    the table facts, the language), and that record is what such a state's payload carries for it."""

    def get(self, key: str, draw: Callable[[], Picture]) -> Picture:
        record = json.loads(key)  # ["table", lang, facts, view] or ["result", lang, title, id, facts, ...]
        what, facts = record[0], record[2 if record[0] == "table" else 4]
        return Picture(filename=f"{facts['kind']}-{what}.png", data=key.encode(), alt="")


PHASES = {
    "malice": (
        "start",
        "moved",
        "idle",
        "over:payoff_emptied",
        "over:stalemate",
        "over:turn_cap",
        "over:resign",
        "over:cancelled",
    ),
    "insomnia": (
        "exchange",
        "auction-1",
        "rethrow-1",
        "tricks",
        "auction-4",
        "rethrow-4",
        "over:out_of_chips",
        "over:deal_cap",
        "over:ended",
    ),
}
SYSTEM_ENDINGS = {"over:resign", "over:cancelled", "over:ended"}


# --- reaching a state --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How one state is reached: the table (seats, options, language), the target phase and how the random
    legal moves are picked (`bias`: tenths of the time a move that makes progress is preferred)."""

    kind: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    walk: int
    target: str
    skip: int
    bias: int
    locale: str
    takeover: bool
    shown: int  # how far back the table message has shown the log (steps before the last)
    redeal: int


def plans(kind: str) -> st.SearchStrategy[Plan]:
    return st.builds(
        _plan,
        st.just(kind),
        st.sampled_from(PHASES[kind]),
        st.integers(0, 2**32),
        st.integers(0, 2**32),
        st.integers(0, 6),
        st.integers(0, 10),
        st.sampled_from(["en", "de"]),
        st.integers(0, 2**32),
    )


def _plan(
    kind: str, target: str, seed: int, walk: int, skip: int, bias: int, locale: str, redealing: int
) -> Plan:
    """The table of one example. The options follow from its numbers: a target that needs a short game gets
    one (a turn cap, a deal cap); the rest are any house rules the table may choose."""
    rng = random.Random(seed)
    options: dict[str, Any] = {"timeout": 120, "pictures": rng.random() < 0.9}
    if kind == "malice":
        players: tuple[str, ...] = ("101", "ai:1" if rng.random() < 0.2 else "202")
        options["stake"] = rng.choice([1, 1, 3, 0])
        options["discard"] = rng.choice(["optional", "required"])
        options["turns"] = rng.randint(1, 40) if target == "over:turn_cap" or rng.random() < 0.15 else 500
    else:
        count = rng.randint(2, 8)
        people = ["101", "202", "303", "404", "505"][: max(1, count - rng.randint(0, 3))]
        players = (*people, *(f"ai:{n + 1}" for n in range(count - len(people))))
        options["chips"] = rng.choice([15, 15, 5, 30])
        options["sevens"] = rng.choice(["hearts-spades", "all"])
        options["bust"] = rng.choice(["ends", "out"])
        options["stage4"] = "on" if target.endswith("-4") else rng.choice(["on", "off"])
        if target == "over:deal_cap" or rng.random() < 0.3:
            options["deals"] = rng.randint(1, 3)
    return Plan(
        kind=kind,
        players=players,
        options=options,
        seed=seed,
        walk=walk,
        target=target,
        skip=skip,
        bias=bias,
        locale=locale,
        takeover=rng.random() < 0.15,
        shown=rng.randint(0, 5),
        redeal=redealing,
    )


def phase(game: Any) -> str:
    """The phase a state is in, as `PHASES` names it (read from the state's own fields: it is asked at every
    step of a walk)."""
    if game.is_over:
        return f"over:{game.result.reason if hasattr(game, 'centre') else game.over_reason}"
    if hasattr(game, "centre"):  # Malice
        return "moved" if game.moved else "idle" if game.idle_turns else "start"
    if game.phase in ("auction", "rethrow"):
        return f"{game.phase}-{game.stage}"
    return str(game.phase)


def ace_only_in_the_hand(game: Any) -> bool:
    """Malice: the mover must play an ace to a free centre slot, and only his hand shows it (the state whose
    public turn line once said so)."""
    if game.is_over or not hasattr(game, "centre") or all(game.centre):
        return False
    mover = game.current_player
    top = game.payoff[mover][-1] if game.payoff[mover] else None
    return any(c.rank is Rank.ACE for c in game.hands[mover]) and (top is None or top.rank is not Rank.ACE)


def choose(kind: str, game: GameState, rng: random.Random, bias: int) -> GameAction:
    """A random legal move; `bias` tenths of the time one that drives the game on (Malice: a card to the
    centre, else any card; Insomnia: a pass in an auction, so chips last and deals reach the tricks)."""
    legal = game.legal_actions()
    preferred: Sequence[GameAction] = ()
    if kind == "malice":
        plays = [a for a in legal if a.kind == "play"]
        centre = [a for a in plays if a.to.startswith("centre")]  # type: ignore[attr-defined]
        preferred = centre if centre and rng.random() < 0.8 else plays
    elif game.phase == "auction":  # type: ignore[attr-defined]
        preferred = [a for a in legal if a.kind == "pass"]
    if preferred and rng.randrange(10) < bias:
        return rng.choice(list(preferred))
    return rng.choice(legal)


CAP = 1500  # moves per walk at most


def play(plan: Plan, *, every_step: bool) -> tuple[TableRecord, tuple[MoveFacts, ...]]:
    """The table of `plan` at the state it reaches, with its steps' facts: every step's as the bot rebuilds
    them from the stored log (`replay_facts`, for the replay), else those of the steps the table message
    shows (the newest `KEPT`, and the earlier one the replay would show), replayed the same way."""
    spec = REGISTRY[plan.kind]
    seed = f"hidden-{plan.seed}"
    game = spec.new_game(list(plan.players), seed, game_options(plan.options))
    rng = random.Random(plan.walk)
    rows: list[ActionRow] = []
    ending = plan.target in SYSTEM_ENDINGS
    stop = rng.randint(0, 40 * (plan.skip + 1)) if ending else None
    seen = 0
    while not game.is_over and len(rows) < CAP:
        if stop is not None and len(rows) >= stop:
            break
        if phase(game) == plan.target:
            seen += 1
            if seen > plan.skip:
                break
        actor = game.current_player
        action = choose(plan.kind, game, rng, plan.bias)
        rows.append(_row(len(rows), actor, action))
        game.apply(action)
    if ending and not game.is_over:
        if plan.target == "over:resign":
            action = spec.parse_action({"kind": "resign", "player": rng.choice(list(plan.players))})
        else:
            action = spec.parse_action({"kind": "end_game"})
        rows.append(_row(len(rows), None, action))
        game.apply(action)
    takeover = () if not plan.takeover else tuple(p for p in plan.players[:1] if not p.startswith("ai:"))
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        kind=plan.kind,
        host_id=101,
        options=plan.options,
        seed=seed,
        commitment=seed_commitment(seed),
        status="finished" if game.is_over else "running",
        players=plan.players,
        seq=len(rows),
        session=SessionState(language=plan.locale, names=NAMES, computer_seats=takeover),
    )
    if every_step:
        steps = replay_facts(record, rows)
    else:
        keep = {*range(len(rows) - KEPT + 1, len(rows) + 1), _earlier(record)}
        steps = _kept_facts(record, rows, keep)
    last = steps[-1].game
    assert last.model_dump_json() == game.model_dump_json()
    ratings = _ratings(plan, last) if last.is_over else ()
    record = replace(record, game=last, snapshot=last.model_dump_json(), moves=steps[-KEPT:], ratings=ratings)
    return record, steps


def _kept_facts(record: TableRecord, rows: list[ActionRow], keep: set[int]) -> tuple[MoveFacts, ...]:
    """The facts of the steps numbered in `keep` only, as `replay_facts` makes them (which copies the game at
    every step: the costly part of a long game's replay)."""
    spec = REGISTRY[record.kind]
    game = spec.new_game(list(record.players), record.seed, game_options(record.options))
    kept = []
    if 0 in keep:
        kept.append(MoveFacts(0, None, tuple(game.opening_events), spec.load(game.model_dump_json())))
    for row in rows:
        events = tuple(game.apply(spec.parse_action(row.action)))
        if row.seq + 1 in keep:
            kept.append(MoveFacts(row.seq + 1, row.actor, events, spec.load(game.model_dump_json())))
    return tuple(kept)


def _row(seq: int, actor: str | None, action: GameAction) -> ActionRow:
    return ActionRow(table_id=7, seq=seq, actor=actor, action=action.model_dump_json(), created_at=0.0)


def _ratings(plan: Plan, game: GameState) -> tuple[RatingChange, ...]:
    """A finished game's rating changes (its result card shows them), for the people at the table."""
    people = [s for s in game.standings() if not s.player.startswith("ai:")]
    return tuple(
        RatingChange(
            table_id=7,
            player=s.player,
            guild_id=1,
            kind=plan.kind,
            ended_at=0.0,
            rank=s.placement,
            mu_before=25.0,
            sigma_before=8.0,
            score_before=1000.0 + i,
            mu_after=26.0,
            sigma_after=7.5,
            score_after=1010.0 - 7 * i,
            games=i + 1,
        )
        for i, s in enumerate(people)
    )


# --- re-dealing -------------------------------------------------------------------------------------------


def redealt(
    record: TableRecord, steps: tuple[MoveFacts, ...], rng: random.Random, viewer: str | None
) -> tuple[TableRecord, tuple[MoveFacts, ...]]:
    """The same table with the cards hidden from `viewer` (None: the public reader) re-dealt in the state and
    in each step the surfaces show (the newest `KEPT` and any the replay shows); the events stay."""
    shown = {s.count for s in record.moves}
    again = tuple(
        replace(s, game=redeal(s.game, rng, viewer)) if s.count in shown or s.count == _earlier(record) else s
        for s in steps
    )
    game = again[-1].game
    twin = replace(record, game=game, snapshot=game.model_dump_json(), moves=again[-KEPT:])
    return twin, again


def _earlier(record: TableRecord) -> int:
    """The earlier step whose replay is shown too (a replay is stepped through from the start)."""
    return record.seq // 2


# --- the surfaces -----------------------------------------------------------------------------------------


def discord_payload(message: Message, *, edit: bool) -> bytes:
    """What discord.py sends for `message` (a send, or an edit): content, embeds, components, mentions and the
    attached files with their bytes."""
    kwargs = discord_kwargs(message, edit=edit)
    view = kwargs.get("view")
    files = kwargs.get("files") or kwargs.get("attachments") or []
    sent = {
        "content": kwargs.get("content"),
        "embeds": [e.to_dict() for e in kwargs["embeds"]],
        "mentions": kwargs["allowed_mentions"].to_dict(),
        "components": view.to_components() if view is not None else None,
        "files": [[f.filename, f.description, f.fp.read().hex()] for f in files],
    }
    return json.dumps(sent, sort_keys=True, ensure_ascii=False, indent=1).encode()


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=1, default=str).encode()


LOOP = asyncio.new_event_loop()


def public_surfaces(record: TableRecord, steps: tuple[MoveFacts, ...], plan: Plan) -> dict[str, bytes]:
    """Every public payload of the table, each made by the code that makes it."""
    locale = plan.locale
    out: dict[str, bytes] = {}

    # The table message, as the presenter writes it to Discord (its picture: the table, or the result card).
    async def facts(_record: TableRecord) -> tuple[MoveFacts, ...]:
        return steps

    drawing = Drawing(None, facts=facts, deadline=lambda _table: DEADLINE, pages=Pages())  # type: ignore[arg-type]
    job = Job(record=record, display=Display(shown_seq=max(-1, record.seq - plan.shown)))
    message, _window = LOOP.run_until_complete(drawing.drawn(job, record))
    out["discord: table message (send)"] = discord_payload(message, edit=False)
    out["discord: table message (edit)"] = discord_payload(message, edit=True)

    # The web's live page of the table: its composed view, the page's main part, its picture.
    watched = Watched(record, record.moves, DEADLINE, version=3)
    view = table_view(watched, locale=locale)
    out["web: table view"] = view.model_dump_json(indent=1).encode()
    out["web: live page"] = html.view_html(view, picture="/table/7/x/picture/3.png").encode()
    picture = table_picture(watched, locale=locale)
    out["web: picture"] = b"" if picture is None else picture.data

    # A spectator's Activity (the picture's link is the live page's).
    activity = Activity.__new__(Activity)
    activity.picture_link = lambda table_id: f"/table/{table_id}/x/sig"
    out["activity: spectator"] = _dump(activity.shown(watched, SPECTATOR, locale).model_dump(by_alias=True))

    # The replay viewer, at this step and at an earlier one (when every step is at hand).
    if len(steps) != record.seq + 1:
        return out
    replayed = Replayed(record, steps)
    lines = replayed.log(locale)
    for step in sorted({record.seq, _earlier(record)}):
        viewer = step_message(replayed, step, lines, locale)
        out[f"replay: step {step}"] = discord_payload(viewer, edit=True)
    return out


def seat_surfaces(
    record: TableRecord, steps: tuple[MoveFacts, ...], plan: Plan, player: str
) -> dict[str, bytes]:
    """What one seated person sees: his Activity data, his composed view and his hand message (text: his
    hand's picture shows what the text says)."""
    locale = plan.locale
    watched = Watched(record, record.moves, DEADLINE, version=3)
    activity = Activity.__new__(Activity)
    activity.picture_link = lambda table_id: f"/table/{table_id}/x/sig"
    info = table_info(record)
    game = record.playing
    mine = compose(info, game, steps=record.moves, deadline=DEADLINE, reader=player, locale=locale)
    return {
        f"activity: seat {player}": _dump(activity.shown(watched, player, locale).model_dump(by_alias=True)),
        f"view: seat {player}": mine.model_dump_json(indent=1).encode(),
        f"hand: seat {player}": _dump(
            render.hand_message(info, game, player, dm=False, locale=locale, picture=False).model_dump()
        ),
    }


def assert_same(surfaces: dict[str, bytes], twins: dict[str, bytes], what: str) -> None:
    """Every payload byte for byte the same; else the first that differs, as a diff."""
    assert surfaces.keys() == twins.keys()
    for name, payload in surfaces.items():
        if payload == twins[name]:
            continue
        try:
            diff = "\n".join(
                difflib.unified_diff(
                    payload.decode().splitlines(),
                    twins[name].decode().splitlines(),
                    "dealt",
                    "re-dealt",
                    lineterm="",
                    n=1,
                )
            )
        except UnicodeDecodeError:
            diff = f"{len(payload)} bytes against {len(twins[name])} bytes"
        raise AssertionError(f"{what}: {name} depends on a hidden card\n{diff[:4000]}")


# --- the property -----------------------------------------------------------------------------------------


REPLAY_EVERY = 4  # every 4th state is also replayed (which words its whole log), for time


@contextlib.contextmanager
def pictures(drawn: bool) -> Iterator[None]:
    """Pictures drawn as PNG with an empty cache (`drawn`), or their drawing records."""
    kept = drawings.CACHE
    drawings.CACHE = PictureCache() if drawn else DrawingRecords()
    try:
        yield
    finally:
        drawings.CACHE = kept


def check(plan: Plan, seen: Counter[str]) -> None:
    record, steps = play(plan, every_step=plan.redeal % REPLAY_EVERY == 0)
    game = record.playing
    seen[phase(game)] += 1
    seen["ace only in the hand"] += ace_only_in_the_hand(game)
    rng = random.Random(plan.redeal)
    twin, twin_steps = redealt(record, steps, rng, None)
    assert twin.playing.public_view() == game.public_view(), "the re-deal changed what is public"
    drawn = plan.redeal % DRAW_EVERY == 0
    with pictures(drawn):
        surfaces = public_surfaces(record, steps, plan)
    with pictures(drawn):  # the re-dealt table's drawn anew, not found in the cache
        twins = public_surfaces(twin, twin_steps, plan)
    assert_same(surfaces, twins, "public")
    seen["pictures drawn"] += drawn
    seen["re-dealt"] += twin.snapshot != record.snapshot
    seen["replayed"] += any(name.startswith("replay") for name in surfaces)
    people = [p for p in plan.players if not p.startswith("ai:")]
    if game.is_over or not people:
        return
    # One seated person (the mover, or anyone else) and what is hidden from him.
    player = people[plan.redeal % len(people)]
    his, his_steps = redealt(record, steps, rng, player)
    assert_same(
        seat_surfaces(record, steps, plan, player),
        seat_surfaces(his, his_steps, plan, player),
        f"seat {player}",
    )
    seen["seat checked"] += 1


def run(kind: str, examples: int) -> Counter[str]:
    seen: Counter[str] = Counter()

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(plans(kind))
    def states(plan: Plan) -> None:
        check(plan, seen)

    states()
    return seen


@pytest.mark.slow  # handed out first: a minute or two of CPU per game
@pytest.mark.parametrize("kind", ["malice", "insomnia"])
def test_no_public_payload_depends_on_a_hidden_card(kind):
    seen = run(kind, EXAMPLES)
    missing = [p for p in PHASES[kind] if not seen[p]]
    assert not missing, f"phases never reached: {missing} ({dict(seen)})"
    assert seen["re-dealt"] >= EXAMPLES // 2, f"the re-deals seldom moved a card: {dict(seen)}"
    if kind == "malice":
        assert seen["ace only in the hand"], "never reached the state of the old leak"


def _malice_record(game: GameState, locale: str) -> TableRecord:
    return TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        kind="malice",
        host_id=101,
        options={"timeout": 120},
        seed=game.seed,
        commitment="c" * 64,
        status="running",
        players=("101", "202"),
        seq=0,
        session=SessionState(language=locale, names=NAMES),
        game=game,
        snapshot=game.model_dump_json(),
    )


def _first_state(wanted: Callable[[Any], bool]) -> Any:
    """The first Malice state that is `wanted`, on seeded random legal moves."""
    spec = REGISTRY["malice"]
    for seed in range(100):
        game, rng = spec.new_game(["101", "202"], f"hidden-deal-{seed}"), random.Random(seed)
        while not game.is_over:
            if wanted(game):
                return game
            game.apply(choose("malice", game, rng, 8))
    raise AssertionError("no such state in 100 games")


def _payoff_ace(game: Any) -> bool:
    top = game.payoff[game.current_player][-1]
    return top.rank is Rank.ACE and not all(game.centre)


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_malice_turn_line_keeps_an_ace_in_the_hand_secret(locale):
    """The state of the leak found on main: an ace in the mover's hand, a free centre slot, no ace on his
    payoff top. Everyone's turn line gives the general hint; the mover's own hand message tells him of the
    ace."""
    game = _first_state(ace_only_in_the_hand)
    info = table_info(_malice_record(game, locale))
    mover = game.current_player
    hint = t(locale, "malice.hint.play")
    general = t(
        locale,
        "turn.message_deadline",
        player=common.name(mover),
        hint=hint,
        deadline=common.moment(DEADLINE),
    )
    assert compose(info, game, deadline=DEADLINE, locale=locale).turn_line == general
    hand = render.hand_message(info, game, mover, dm=True, locale=locale, picture=False).content or ""
    assert t(locale, "malice.hand.your_turn_ace") in hand, "the mover himself is told"


@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_malice_turn_line_names_an_ace_on_the_payoff_top(locale):
    """An ace on the mover's payoff top lies face up for all to see: the public hint names it."""
    game = _first_state(_payoff_ace)
    info = table_info(_malice_record(game, locale))
    line = compose(info, game, deadline=DEADLINE, locale=locale).turn_line or ""
    assert t(locale, "malice.hint.payoff_ace") in line
