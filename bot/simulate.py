"""Headless computer-vs-computer games: `cardtable-bot simulate --game insomnia --players 4 --games 1000`.

Plays whole games between computer players (`bot.games.ai`) with the real engines, shows a progress bar
on stderr and prints on stdout what players curious about balance ask: speed, game length, wins by seat,
how often each payout and hand category came up, and the chips moved per deal. Every game and every
decision is seeded from `--seed`, so a run is repeatable and can serve as a regression check.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel
from tqdm import tqdm

from bot import limits
from bot.games import ai, insomnia, malice
from bot.games.base import ChipTransfer

Chooser = Callable[[Any, str, str], Any]
GameKind = Literal["insomnia", "malice"]


def play_game(game: Any, choosers: Callable[[str], Chooser], seed: str) -> list[Any]:
    """Play `game` to its end, each decision by `choosers(player)(game, player, f"{seed}/{step}")`;
    returns every event in order (the opening events of an Insomnia game first)."""
    events: list[Any] = list(getattr(game, "opening_events", []))
    step = 0
    while not game.is_over:
        player = game.current_player
        events.extend(game.apply(choosers(player)(game, player, f"{seed}/{step}")))
        step += 1
    return events


class SimulationReport(BaseModel):
    """What a simulation run measured."""

    game: GameKind
    players: int
    games: int
    seed: str
    seconds: float
    lengths: list[int]  # deals (Insomnia) or turns (Malice) per game
    wins_by_seat: list[int]  # seat 1 first; a shared first place counts for each
    draws: int  # games nobody won outright (Malice: draws; Insomnia: shared first places)
    end_reasons: dict[str, int]
    deals: int  # Insomnia deals started; Malice: one per game
    # Insomnia: stage-1 and stage-4 dice payouts by pattern (no_match included), stage-2 winners by category
    stage1: dict[str, int] = {}
    stage2: dict[str, int] = {}
    stage4: dict[str, int] = {}
    chips_by_reason: dict[str, int]  # every chip moved, by ledger reason
    malice_scores: list[int] = []  # the score (cards) of each decided Malice game

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf


def simulate(game: GameKind, players: int, games: int, seed: str, *, chips: int = 15,
             max_deals: int | None = None, progress: bool = True) -> SimulationReport:
    """Play `games` computer-vs-computer games and gather the figures."""
    ids = [f"ai:{i + 1}" for i in range(players)]
    lengths: list[int] = []
    wins = [0] * players
    draws = deals = 0
    reasons: Counter[str] = Counter()
    stage1: Counter[str] = Counter()
    stage2: Counter[str] = Counter()
    stage4: Counter[str] = Counter()
    moved: Counter[str] = Counter()
    scores: list[int] = []
    start = time.perf_counter()
    bar = tqdm(range(games), desc=f"{game} x{players}", unit="game", file=sys.stderr, disable=not progress)
    for i in bar:
        game_seed = f"{seed}/{i}"
        if game == "insomnia":
            state: Any = insomnia.new_game(ids, game_seed, chips=chips, max_deals=max_deals)
        else:
            state = malice.new_game(ids, game_seed)
        events = play_game(state, lambda _p: ai.choose_action, game_seed)
        for event in events:
            kind = event.kind
            if isinstance(event, ChipTransfer):
                moved[event.reason] += event.amount
            elif kind == "stage1_result":
                stage1[event.pattern] += 1
            elif kind == "stage4_result":
                stage4[event.pattern] += 1
            elif kind == "no_match":
                (stage1 if event.stage == 1 else stage4)["no_match"] += 1
            elif kind == "stage2_winner":
                stage2[event.category] += 1
            elif kind == "stage2_no_winner":
                stage2["no_winner"] += 1
        standings = state.standings()
        firsts = [s.player for s in standings if s.won]
        for p in firsts:
            wins[ids.index(p)] += 1
        if game == "insomnia":
            lengths.append(state.deal)
            deals += state.deal
            reasons[state.over_reason] += 1
            draws += len(firsts) > 1
        else:
            lengths.append(state.turn)
            deals += 1
            reasons[state.result.reason] += 1
            draws += not firsts
            if firsts:
                scores.append(state.result.score)
    return SimulationReport(
        game=game, players=players, games=games, seed=seed, seconds=time.perf_counter() - start,
        lengths=lengths, wins_by_seat=wins, draws=draws, end_reasons=dict(reasons), deals=deals,
        stage1=dict(stage1), stage2=dict(stage2), stage4=dict(stage4), chips_by_reason=dict(moved),
        malice_scores=scores,
    )


def _spread(values: Sequence[int]) -> str:
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"mean {statistics.mean(values):.2f}, stddev {sd:.2f}, min {min(values)}, max {max(values)}"


def _shares(counts: dict[str, int], total: int) -> str:
    if not counts:
        return "none"
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in ordered)


def format_report(r: SimulationReport) -> str:
    unit = "deals" if r.game == "insomnia" else "turns"
    lines = [
        f"{r.game}: {r.games} games, {r.players} players, seed {r.seed}",
        f"games per second: {r.games_per_second:.1f}",
        f"{unit} per game: {_spread(r.lengths)}",
        "wins by seat: " + ", ".join(f"seat {i + 1} {w} ({100 * w / r.games:.1f}%)"
                                     for i, w in enumerate(r.wins_by_seat)),
        f"{'shared first places' if r.game == 'insomnia' else 'draws'}: {r.draws}",
        f"game ends: {_shares(r.end_reasons, r.games)}",
    ]
    if r.game == "insomnia":
        lines += [
            f"deals: {r.deals}",
            "(each stage's outcomes as a share of the deals that reached it; a game can end mid-deal)",
            f"stage 1 dice payouts: {_shares(r.stage1, sum(r.stage1.values()))}",
            f"stage 2 best hand: {_shares(r.stage2, sum(r.stage2.values()))}",
            f"stage 4 dice payouts: {_shares(r.stage4, sum(r.stage4.values()))}",
        ]
    elif r.malice_scores:
        lines.append(f"score of a decided game (cards): {_spread(r.malice_scores)}")
    total = sum(r.chips_by_reason.values())
    per = "deal" if r.game == "insomnia" else "game"
    lines.append(f"chips moved per {per}: {total / max(r.deals, 1):.2f}")
    lines += [f"  {reason}: {amount / max(r.deals, 1):.2f}"
              for reason, amount in sorted(r.chips_by_reason.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=["insomnia", "malice"], required=True)
    parser.add_argument(
        "--players", type=int, default=None,
        help=f"Insomnia: {limits.INSOMNIA_PLAYERS.min}-{limits.INSOMNIA_PLAYERS.max} (default 4); Malice: 2",
    )
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", default="1", help="the same seed replays the same games (default 1)")
    parser.add_argument(
        "--chips", type=int, default=None,
        help=f"Insomnia: starting chips per player, {limits.CHIPS.min}-{limits.CHIPS.max} "
        f"(default {limits.DEFAULT_CHIPS})",
    )
    parser.add_argument(
        "--max-deals", type=int, default=None,
        help=f"Insomnia: end a game after N deals, {limits.DEALS.min}-{limits.DEALS.max}",
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Check the arguments against the table limits (a usage error otherwise) and print the figures."""
    players = args.players if args.players is not None else (4 if args.game == "insomnia" else 2)
    if args.game == "malice":
        if players != 2:
            parser.error("Malice is for exactly 2 players.")
        for flag, value in (("--chips", args.chips), ("--max-deals", args.max_deals)):
            if value is not None:
                parser.error(f"{flag} is an Insomnia option; Malice has no chips to start with or deals.")
    checks = [(limits.INSOMNIA_PLAYERS, players, "--players")] if args.game == "insomnia" else []
    if args.chips is not None:
        checks.append((limits.CHIPS, args.chips, "--chips"))
    if args.max_deals is not None:
        checks.append((limits.DEALS, args.max_deals, "--max-deals"))
    for limit, value, flag in checks:
        try:
            limit.check(value, flag)
        except ValueError as exc:
            parser.error(f"{exc}.")
    if args.games < 1:
        parser.error("--games must be at least 1.")
    chips = args.chips if args.chips is not None else limits.DEFAULT_CHIPS
    report = simulate(args.game, players, args.games, args.seed, chips=chips, max_deals=args.max_deals)
    print(format_report(report))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m bot.simulate ...` (the same as `cardtable-bot simulate ...`)."""
    from bot.cli import main as cli_main

    return cli_main(["simulate", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
