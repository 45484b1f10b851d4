"""Headless computer-vs-computer games: `cardtable-bot simulate --game <game> --players 4 --games 1000`.

Plays whole games between computer players (`bot.games.ai`) with the real engines, shows a progress bar
on stderr and prints on stdout what players curious about balance ask: speed, game length, wins by seat,
how the games ended, how often each payout and hand category came up, and the chips moved per deal. Every
table option and house rule is a flag (`--option discard=required`, repeatable), checked by the game's
options model. Every game and every decision is seeded from `--seed`, so a run is repeatable and can serve
as a regression check.
"""

from __future__ import annotations

import argparse
import math
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from pydantic import BaseModel
from tqdm import tqdm

from bot import limits
from bot.games import ai
from bot.games.base import ChipTransfer, GameAction, GameEvent, GameState
from bot.games.registry import REGISTRY
from bot.render.figures import Figures, shares
from bot.render.registry import PRESENTATIONS
from bot.terminal.flags import add_option_flags, checked_options, checked_players, default_seats, players_help

GAMES = limits.Limit(1, 10_000_000)  # games of one run: beyond that a run takes days, and a count overflows

Chooser = Callable[[GameState, str, str], GameAction]
"""`(game, player, seed) -> action`: how a seat decides (`bot.games.ai.choose_action`, or a random one)."""


def _figures(kind: str) -> Figures[GameState, GameEvent] | None:
    """What the simulator counts of a game beyond the common figures (None: the common ones alone)."""
    return PRESENTATIONS[kind].figures if kind in PRESENTATIONS else None


def play_game(game: GameState, choosers: Callable[[str], Chooser], seed: str) -> list[GameEvent]:
    """Play `game` to its end, each decision by `choosers(player)(game, player, f"{seed}/{step}")`;
    returns every event in order (the opening events of `new_game()` first)."""
    events = list(game.opening_events)
    step = 0
    while not game.is_over:
        player = game.current_player
        assert player is not None  # a game that is not over waits for someone
        events.extend(game.apply(choosers(player)(game, player, f"{seed}/{step}")))
        step += 1
    return events


class SimulationReport(BaseModel):
    """What a simulation run measured."""

    game: str  # a registered game
    options: dict[str, object] = {}  # the table options and house rules given (the rest are the defaults)
    players: int
    games: int  # games played to their end (fewer than asked when the run was stopped)
    asked: int = 0  # games asked for (0: as many as played)
    seed: str
    seconds: float
    lengths: list[int]  # each game's length in the game's unit (its figures': deals, turns)
    wins_by_seat: list[int]  # seat 1 first; a shared first place counts for each
    draws: int  # games nobody won outright (draws, or shared first places)
    end_reasons: dict[str, int]
    deals: int  # rounds chips moved in (deals started; one per game for a game of one round)
    tallies: dict[str, dict[str, int]] = {}  # the game's own counts (e.g. each stage's outcomes)
    chips_by_reason: dict[str, int]  # every chip moved, by ledger reason
    scores: list[int] = []  # the score of each decided game, where the game has one

    @property
    def stopped(self) -> bool:
        """Whether the run was stopped (Ctrl+C) before it played every game asked for."""
        return self.games < self.asked

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf


def simulate(
    game: str,
    players: int,
    games: int,
    seed: str,
    *,
    options: Mapping[str, object] | None = None,
    progress: bool = True,
    stop: Callable[[], bool] = lambda: False,
) -> SimulationReport:
    """Play `games` computer-vs-computer games of a registered game and gather the figures. `options` are
    table options (`{"chips": 20, "deals": 3}`). `stop()` is asked before each game: once it says so, the
    figures are those of the games played so far."""
    spec = REGISTRY[game]
    figures_of = _figures(game)
    ids = [f"ai:{i + 1}" for i in range(players)]
    lengths: list[int] = []
    wins = [0] * players
    draws = deals = 0
    reasons: Counter[str] = Counter()
    tallies: dict[str, Counter[str]] = {}
    moved: Counter[str] = Counter()
    scores: list[int] = []
    start = time.perf_counter()
    bar = tqdm(range(games), desc=f"{game} x{players}", unit="game", file=sys.stderr, disable=not progress)
    played = 0
    for i in bar:
        if stop():
            bar.close()
            break
        played += 1
        game_seed = f"{seed}/{i}"
        state = spec.new_game(ids, game_seed, options)
        events = play_game(state, lambda _p: ai.choose_action, game_seed)
        for event in events:
            if isinstance(event, ChipTransfer):
                moved[event.reason] += event.amount
        for standing in state.standings():
            if standing.won:
                wins[ids.index(standing.player)] += 1
        if figures_of is None:
            lengths.append(1)
            deals += 1
            reasons["over"] += 1
            draws += sum(s.won for s in state.standings()) != 1
            continue
        figures = figures_of.count(state, events)
        lengths.append(figures.length)
        deals += figures.rounds
        reasons[figures.end_reason] += 1
        draws += figures.draw
        for name, counts in figures.tallies.items():
            tallies.setdefault(name, Counter()).update(counts)
        if figures.score is not None:
            scores.append(figures.score)
    return SimulationReport(
        game=game,
        options=dict(options or {}),
        players=players,
        games=played,
        asked=games,
        seed=seed,
        seconds=time.perf_counter() - start,
        lengths=lengths,
        wins_by_seat=wins,
        draws=draws,
        end_reasons=dict(reasons),
        deals=deals,
        tallies={name: dict(counts) for name, counts in tallies.items()},
        chips_by_reason=dict(moved),
        scores=scores,
    )


def _spread(values: Sequence[int]) -> str:
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"mean {statistics.mean(values):.2f}, stddev {sd:.2f}, min {min(values)}, max {max(values)}"


def format_report(r: SimulationReport) -> str:
    figures = _figures(r.game)
    unit, per, draws = (figures.unit, figures.per, figures.draws) if figures else ("rounds", "game", "draws")
    rules = ", ".join(f"{name}={value}" for name, value in r.options.items())
    lines = [f"{r.game}: {r.games} games, {r.players} players, seed {r.seed}"]
    if r.stopped:
        lines.append(f"stopped (Ctrl+C) after {r.games} of {r.asked} games: the figures are those games'")
    if r.games == 0:
        return "\n".join(lines)
    lines += [
        f"options: {rules or 'none (the standard rules)'}",
        f"games per second: {r.games_per_second:.1f}",
        f"{unit} per game: {_spread(r.lengths)}",
        "wins by seat: "
        + ", ".join(f"seat {i + 1} {w} ({100 * w / r.games:.1f}%)" for i, w in enumerate(r.wins_by_seat)),
        f"{draws}: {r.draws}",
        f"game ends: {shares(r.end_reasons, r.games)}",
    ]
    if figures is not None:
        lines += figures.lines(r.tallies, r.deals, r.scores)
    total = sum(r.chips_by_reason.values())
    lines.append(f"chips moved per {per}: {total / max(r.deals, 1):.2f}")
    lines += [
        f"  {reason}: {amount / max(r.deals, 1):.2f}"
        for reason, amount in sorted(r.chips_by_reason.items(), key=lambda kv: -kv[1])
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=REGISTRY.names(), required=True)
    defaults = {s.name: default_seats(s) for s in REGISTRY}
    parser.add_argument("--players", type=int, default=None, help=players_help(defaults))
    parser.add_argument(
        "--games", type=int, default=100, help=f"how many games, {GAMES.min} to {GAMES.max:,} (default 100)"
    )
    parser.add_argument("--seed", default="1", help="the same seed replays the same games (default 1)")
    add_option_flags(parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Check the arguments against the game's seats and option limits (a usage error otherwise) and print
    the figures."""
    spec = REGISTRY[args.game]
    players = checked_players(spec, default_seats(spec) if args.players is None else args.players, parser)
    options = checked_options(spec, args, parser)
    try:
        GAMES.check(args.games, "--games")
    except ValueError as exc:
        parser.error(f"{exc}.")
    asked = threading.Event()
    # Ctrl+C stops the run after the game in play, and the figures of the games played so far are printed
    # (exit 130, as for any command Ctrl+C stops): a long run's first hour is not lost.
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: asked.set())
    try:
        report = simulate(args.game, players, args.games, args.seed, options=options, stop=asked.is_set)
    finally:
        signal.signal(signal.SIGINT, previous)
    print(format_report(report))
    return 130 if report.stopped else 0
